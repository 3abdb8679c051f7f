package catalog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/releasedir"
)

// A release that publishes no record is a valid release (issue 20, part
// B item 5): sampling suppresses every record of Sattar et al.'s Table 2
// (dataset:clinic) and of a table whose sensitive values are all
// distinct. The export writes it with a warning (files of their header
// alone, as ARX exports a fully suppressed result), its risk figures and
// report say it publishes nothing, and check passes it from its files
// and with the original. Before, the export failed measuring its risk
// ("published.csv:2: header only: no data rows").
//
// Sampling is the one method whose release can be empty: ambiguity
// refuses a run that would suppress every record before it starts
// ("no QI-group reaches alpha-presence: all N records would be
// suppressed"), and distribution, kja and lossyjoin publish every record.
func TestEmptyReleaseIsExported(t *testing.T) {
	t.Parallel()
	wide := filepath.Join(t.TempDir(), "wide-sa.csv")
	var b strings.Builder
	b.WriteString("age,sex,zip,diag\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "%d,%s,z%d,s%04d\n", 17+i%60, []string{"F", "M"}[i%2], i%50, i)
	}
	if err := os.WriteFile(wide, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    pipeline.Project
	}{
		{"clinic", pipeline.Project{Input: "dataset:clinic", Roles: model.Roles{QIs: []string{"age", "sex", "zipcode"}, SA: "disease"}}},
		{"distinct SA", pipeline.Project{Input: wide, Roles: model.Roles{QIs: []string{"age", "sex", "zip"}, SA: "diag"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.p.Method, c.p.Params = "sampling", model.Values{"seed": "3"}
			dir := filepath.Join(t.TempDir(), "rel")
			src, err := env.LoadTable(env.WithDefaults(c.p))
			if err != nil {
				t.Fatal(err)
			}
			prep, err := env.Prepare(c.p, src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Published != 0 || len(res.Warnings) == 0 || !strings.HasPrefix(res.Warnings[len(res.Warnings)-1], "no record is published") {
				t.Fatalf("published %d, warnings %q: want none published and the warning", res.Published, res.Warnings)
			}
			ex, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{})
			if err != nil {
				t.Fatalf("export: %v", err)
			}
			m := ex.Manifest
			if !m.Verified || m.Published != 0 || len(m.Files) != 2 || m.Files[0].Rows != 0 || m.RiskSummary != "The release publishes no record." {
				t.Fatalf("manifest: verified %v, published %d, files %+v, risk summary %q", m.Verified, m.Published, m.Files, m.RiskSummary)
			}
			data, err := os.ReadFile(filepath.Join(dir, m.Files[0].Name))
			if err != nil || string(data) != strings.Join(append(append([]string{}, c.p.Roles.QIs...), c.p.Roles.SA), ",")+"\n" {
				t.Fatalf("%s holds %q (%v), want its header alone", m.Files[0].Name, data, err)
			}
			if report, _ := os.ReadFile(filepath.Join(dir, "report.md")); !strings.Contains(string(report), "The release publishes no record.") {
				t.Errorf("report.md does not say the release is empty:\n%s", report)
			}
			for _, orig := range []*model.Table{nil, prep.Source} {
				rep, err := pipeline.Check(dir, orig, nil)
				if err != nil || !verifytest.Confirmed(rep) {
					t.Fatalf("check (original given: %v): %v\n%s", orig != nil, err, strings.Join(rep.Strings(), "\n"))
				}
			}
		})
	}
}

// Every release file of every method cut to its header row (the hashes
// restated, as anyone could): the checker reads it as a table without
// rows, never panics, and fails the release (its manifest states rows the
// file no longer holds), now that a release file may hold no row.
func TestHeaderOnlyFilesFailEveryChecker(t *testing.T) {
	t.Parallel()
	releases := exampleReleases(t)
	for i, rel := range releases {
		method := catalog.Names()[i]
		m, err := releasedir.ReadManifest(rel)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Files {
			if !strings.HasSuffix(f.Name, ".csv") || f.Rows == 0 {
				continue
			}
			t.Run(method+"/"+f.Name, func(t *testing.T) {
				dir := copyDir(t, rel)
				path := filepath.Join(dir, f.Name)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				header, _, _ := strings.Cut(string(data), "\n")
				if err := os.WriteFile(path, []byte(header+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				verifytest.Restate(t, dir, nil)
				rep, err := catalogtest.Check(dir, verify.Options{})
				if err == nil && rep.OK() {
					t.Fatalf("%s cut to its header passes:\n%s", f.Name, strings.Join(rep.Strings(), "\n"))
				}
			})
		}
	}
}
