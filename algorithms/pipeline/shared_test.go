package pipeline

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/verify"
	"privlab/datasets"
	"privlab/model"
)

// An export writes the bytes it rendered for the risk figures and its
// checks read them, and their tables, from there (verify.NewSharedBuilt)
// rather than from the directory again: for every method the bytes are
// the files' bytes, each table is named by its file's path as the loader
// names it, and the checks say word for word what they say reading the
// directory (verify.NewShared).
func TestExportChecksReadTheBuiltFilesAsTheWrittenOnes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "census.csv")
	d, err := datasets.Lookup("census")
	if err != nil {
		t.Fatal(err)
	}
	if err := model.WriteAtomic(in, func(w io.Writer) error { return d.Write(w, 1500, 1) }); err != nil {
		t.Fatal(err)
	}
	for _, name := range catalog.Names() {
		proj := Project{Input: in, Method: name, Roles: model.Roles{QIs: []string{"age", "sex", "education"}, SA: "occupation"},
			Params: model.Values{"seed": "1"}}
		if name == "kja" {
			proj.Variant, proj.Params["k"] = "mondrian", "5"
		}
		src, err := Env{}.LoadTable(proj)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Env{}.Prepare(proj, src)
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, p)
		out := filepath.Join(dir, name)
		if _, err := Export(p, res, out, ExportOptions{AcceptViolations: true}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rel, _, err := res.Release(1)
		if err != nil {
			t.Fatal(err)
		}
		built, err := verify.OpenBuilt(rel)
		if err != nil {
			t.Fatal(err)
		}
		opt := verify.Options{Original: p.Source, SkipRisk: true}
		fromDir, err := verify.NewShared(out).RunDeclared(opt, catalog.Declared)
		if err != nil {
			t.Fatal(err)
		}
		shared := verify.NewSharedBuilt(out, built)
		fromBuilt, err := shared.RunDeclared(opt, catalog.Declared)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fromDir.Strings(), fromBuilt.Strings(); !slices.Equal(a, b) || len(a) < 5 {
			t.Errorf("%s: reading the directory the checks say\n%q\nreading the built files\n%q", name, a, b)
		}
		opened, err := shared.Open()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rel.Files {
			disk, _ := os.ReadFile(filepath.Join(out, f.Name))
			if !bytes.Equal(disk, built.Rendered(f.Name)) {
				t.Errorf("%s: %s on disk is not the rendered file", name, f.Name)
			}
			tb, err := opened.Table(f.Name)
			if err != nil || tb.Name != filepath.Join(out, f.Name) || tb.Rows != f.Rows {
				t.Errorf("%s: %s reads as %v (%v), want %d rows named by its path", name, f.Name, tb, err, f.Rows)
			}
		}
	}
}
