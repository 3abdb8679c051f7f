package check_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
)

// TestReleaseEdits: no edit of a release, of any file or any class of
// manifest field, with the hashes left alone or re-computed, lets check
// pass. Each case says what it changes; the test logs the failing lines
// (go test -v), which the closing notes quote.
func TestReleaseEdits(t *testing.T) {
	t.Parallel()
	out, in := figure2Release(t)
	orig, err := csvfile.LoadFile(in, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type edit struct {
		name string
		// file edits a data file (records, header first); manifest edits
		// the decoded manifest.
		file     string
		records  func([][]string) [][]string
		manifest func(m map[string]any)
		// original: the edit can only be caught against the original;
		// originalIfRewritten: only when manifest and report are rewritten
		// consistently (distribution's files do not name the SA: its name is
		// bound by report.md and, with the original, by the values).
		original            bool
		originalIfRewritten bool
	}
	cell := func(row, col int, v string) func([][]string) [][]string {
		return func(r [][]string) [][]string { r[row][col] = v; return r }
	}
	det := func(m map[string]any) map[string]any { return m["details"].(map[string]any) }
	edits := []edit{
		// qi.csv
		{name: "qi.csv: a QI value", file: "qi.csv", records: cell(1, 1, "99999"), original: true},
		{name: "qi.csv: a row's group", file: "qi.csv", records: func(r [][]string) [][]string {
			for i := 1; i < len(r); i++ {
				if r[i][0] != r[1][0] {
					r[1][0] = r[i][0]
					break
				}
			}
			return r
		}},
		{name: "qi.csv: a row deleted", file: "qi.csv", records: func(r [][]string) [][]string { return r[:len(r)-1] }},
		{name: "qi.csv: a row repeated", file: "qi.csv", records: func(r [][]string) [][]string { return append(r, r[1]) }},
		{name: "qi.csv: a column renamed", file: "qi.csv", records: cell(0, 2, "sex")},
		{name: "qi.csv: a column added", file: "qi.csv", records: func(r [][]string) [][]string {
			for i := range r {
				r[i] = append(r[i], "x")
			}
			return r
		}},
		// sa.csv
		{name: "sa.csv: a subdomain widened", file: "sa.csv", records: func(r [][]string) [][]string {
			for i := 1; i < len(r); i++ {
				if r[i][1] == r[i][2] {
					r[i][1] = "30000"
					r[i][2] = "60000"
					if r[i][1] != r[i][2] {
						break
					}
				}
			}
			return r
		}},
		{name: "sa.csv: a row deleted", file: "sa.csv", records: func(r [][]string) [][]string { return r[:len(r)-1] }},
		{name: "sa.csv: a fake added", file: "sa.csv", records: func(r [][]string) [][]string { return append(r, []string{"1", "30000", "60000"}) }},
		{name: "sa.csv: a group renamed", file: "sa.csv", records: cell(1, 0, "9")},
		// hierarchy.csv
		{name: "hierarchy.csv: a weight", file: "hierarchy.csv", records: cell(2, 4, "3")},
		{name: "hierarchy.csv: a bound", file: "hierarchy.csv", records: cell(3, 3, "45000")},
		{name: "hierarchy.csv: a node deleted", file: "hierarchy.csv", records: func(r [][]string) [][]string { return r[:len(r)-1] }},
		// report.md
		{name: "report.md: a word", file: "report.md"},
		// The manifest, field class by field class.
		{name: "method", manifest: func(m map[string]any) { m["method"] = "kja" }},
		// (A larger fake budget is still a true bound: the count is
		// details.fake_values.)
		{name: "parameters.fakes", manifest: func(m map[string]any) { m["parameters"].(map[string]any)["fakes"] = "none" }},
		{name: "parameters.target", manifest: func(m map[string]any) { m["parameters"].(map[string]any)["target"] = "table" }},
		{name: "parameters.grouping", manifest: func(m map[string]any) { m["parameters"].(map[string]any)["grouping"] = "sa-only" }},
		{name: "parameters.grouping column", manifest: func(m map[string]any) {
			m["parameters"].(map[string]any)["grouping"] = "column:gender"
			m["details"].(map[string]any)["grouping"] = "column:gender"
		}},
		{name: "parameters.max-denominator", manifest: func(m map[string]any) { m["parameters"].(map[string]any)["max-denominator"] = "1" }},
		{name: "quasi_identifiers renamed", manifest: func(m map[string]any) { m["quasi_identifiers"] = []any{"zip", "gender"} }},
		{name: "sensitive renamed", manifest: func(m map[string]any) { m["sensitive"] = "gender2" }},
		{name: "sa_domain.csv: the attribute renamed", file: "sa_domain.csv", records: cell(0, 0, "hours")},
		{name: "sa_domain.csv: a value", file: "sa_domain.csv", records: cell(1, 0, "31000")},
		{name: "dropped_columns", manifest: func(m map[string]any) { m["dropped_columns"] = []any{} }, original: true},
		{name: "rows_in", manifest: func(m map[string]any) { m["rows_in"] = 12.0 }},
		{name: "rows_published", manifest: func(m map[string]any) { m["rows_published"] = 10.0 }},
		{name: "rows_suppressed", manifest: func(m map[string]any) { m["rows_suppressed"] = 1.0 }},
		{name: "groups", manifest: func(m map[string]any) { m["groups"] = 4.0 }},
		{name: "worst_cases value", manifest: func(m map[string]any) {
			m["worst_cases"].([]any)[1].(map[string]any)["value"] = 0.2
		}},
		{name: "worst_cases limit", manifest: func(m map[string]any) {
			m["worst_cases"].([]any)[1].(map[string]any)["limit"] = "< 0.3"
		}},
		{name: "worst_cases ok flag", manifest: func(m map[string]any) {
			w := m["worst_cases"].([]any)[0].(map[string]any)
			w["value"], w["ok"] = 0.5, true
		}},
		{name: "worst_cases added", manifest: func(m map[string]any) {
			m["worst_cases"] = append(m["worst_cases"].([]any), map[string]any{"name": "k-anonymity", "value": 5.0, "ok": true})
		}},
		{name: "utility value", manifest: func(m map[string]any) { m["utility"].([]any)[0].(map[string]any)["value"] = 1.0 }},
		{name: "details.domain", manifest: func(m map[string]any) { det(m)["domain"] = []any{"30000", "40000", "50000", "70000"} }},
		{name: "details.effective_target", manifest: func(m map[string]any) { det(m)["effective_target"] = []any{0.4, 0.1, 0.25, 0.25} }},
		{name: "details.effective_vs_requested_emd", manifest: func(m map[string]any) { det(m)["effective_vs_requested_emd"] = 0.5 }},
		{name: "details.sa_rows", manifest: func(m map[string]any) { det(m)["sa_rows"] = 12.0 }},
		{name: "details.fake_values", manifest: func(m map[string]any) { det(m)["fake_values"] = 1.0 }},
		{name: "details.sum_of_ranges", manifest: func(m map[string]any) { det(m)["sum_of_ranges"] = 1.0 }},
		{name: "details.per_group_target", manifest: func(m map[string]any) { det(m)["per_group_target"] = true }},
		{name: "details.group_figures", manifest: func(m map[string]any) {
			det(m)["group_figures"].([]any)[0].(map[string]any)["max"] = 1.0
		}},
		{name: "files: a row count", manifest: func(m map[string]any) { m["files"].([]any)[0].(map[string]any)["rows"] = 12.0 }},
		{name: "files: a hash", manifest: func(m map[string]any) { m["files"].([]any)[1].(map[string]any)["sha256"] = strings.Repeat("0", 64) }},
		{name: "files: a path outside", manifest: func(m map[string]any) { m["files"].([]any)[0].(map[string]any)["name"] = "../qi.csv" }},
		{name: "files: an absolute path", manifest: func(m map[string]any) { m["files"].([]any)[0].(map[string]any)["name"] = "/etc/passwd" }},
		{name: "files: a file dropped", manifest: func(m map[string]any) { m["files"] = m["files"].([]any)[1:] }},
	}
	for _, e := range edits {
		for _, rehashed := range []bool{false, true} {
			name := e.name
			if rehashed {
				name += " (hashes re-computed)"
			}
			t.Run(name, func(t *testing.T) {
				dir := copyDir(t, out)
				switch {
				case e.file == "report.md":
					b, _ := os.ReadFile(filepath.Join(dir, "report.md"))
					writeFile(t, filepath.Join(dir, "report.md"), strings.Replace(string(b), "passed", "passed with honours", 1))
				case e.file != "":
					editRows(t, filepath.Join(dir, e.file), e.records)
				}
				if e.manifest != nil || rehashed {
					// An edited report keeps its edit: only its hash is new.
					editManifest(t, dir, e.manifest, rehashed, e.file != "report.md")
				}
				var o *model.Table
				if e.original || (rehashed && e.originalIfRewritten) {
					o = orig
				}
				rep, err := catalogtest.Check(dir, verify.Options{Original: o})
				if err == nil && rep.OK() {
					t.Fatalf("check passes:\n%s", strings.Join(rep.Strings(), "\n"))
				}
				if err != nil {
					t.Logf("error: %v", err)
					return
				}
				var bad []string
				for _, l := range rep.Lines {
					if !l.OK {
						bad = append(bad, l.String())
					}
				}
				t.Logf("%s", strings.Join(bad, " | "))
			})
		}
	}
	// A symbolic link in place of a listed file is refused (nothing outside
	// the release is read).
	dir := copyDir(t, out)
	os.Remove(filepath.Join(dir, "qi.csv"))
	if err := os.Symlink(filepath.Join(out, "qi.csv"), filepath.Join(dir, "qi.csv")); err != nil {
		t.Fatal(err)
	}
	rep, err := catalogtest.Check(dir, verify.Options{})
	if err != nil || rep.OK() || !strings.Contains(line(t, rep, "readable").Text, "qi.csv: is a symbolic link, not a regular file") {
		t.Fatalf("symlink: %v %v", err, rep)
	}
}

// editManifest applies edit to manifest.json and, when rehash is set,
// restates the release as anyone can (verifytest.Restate: hashes and
// report.md anew), so that only the content checks can catch the edit; an
// edited report only gets its new hash.
func editManifest(t *testing.T, dir string, edit func(map[string]any), rehash, rerender bool) {
	t.Helper()
	switch {
	case rehash && rerender:
		verifytest.Restate(t, dir, edit)
	case rehash:
		rehashOnly(t, dir, edit)
	default:
		b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(m)
		}
		b, _ = json.MarshalIndent(m, "", "  ")
		writeFile(t, filepath.Join(dir, "manifest.json"), string(b))
	}
}

// rehashOnly edits the manifest and re-computes the hashes, the report
// left as it is.
func rehashOnly(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	rehash(t, dir, edit)
}
