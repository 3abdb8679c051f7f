package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/model"
)

// exampleReleases are every registered method's example (seed 7), one
// release directory per method, in registry order: exported once for
// the whole package (sharedExamples) and never edited; a test that
// edits one edits a copy (copyDir).
func exampleReleases(tb testing.TB) []string { return sharedExamples(tb) }

// exportExamples exports every registered method's example (seed 7)
// into dir, one release directory per method, in registry order.
func exportExamples(tb testing.TB, dir string) []string {
	var out []string
	for _, e := range catalog.Entries() {
		spec := e.Method.Spec()
		ex := spec.Example
		p := pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: spec.Name, Variant: ex.Variant, Params: ex.Params.Clone(),
			Rows: exampleRows, PublicRows: examplePublicRows}
		if p.Params == nil {
			p.Params = model.Values{}
		}
		p.Params["seed"] = "7"
		rel := filepath.Join(dir, spec.Name)
		exportProject(tb, p, rel)
		out = append(out, rel)
	}
	return out
}

// exportProject loads, prepares, runs and exports a project into out,
// returning the run's result.
func exportProject(tb testing.TB, p pipeline.Project, out string) *method.Result {
	tb.Helper()
	src, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		tb.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{}); err != nil {
		tb.Fatal(err)
	}
	return res
}

// releaseFiles lists a release's files (manifest.json included), sorted.
func releaseFiles(tb testing.TB, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// FuzzCheckEveryMethod: whatever one file of any method's release holds,
// check reads it without a panic and either fails the release or returns
// an input error; an edited data file never passes (its hash is stated).
// The seeds are every file of every method's example release.
func FuzzCheckEveryMethod(f *testing.F) {
	releases := exampleReleases(f)
	for m, rel := range releases {
		for i, name := range releaseFiles(f, rel) {
			b, err := os.ReadFile(filepath.Join(rel, name))
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > 4096 {
				b = b[:4096] // a cut file: the reader's error paths
			}
			f.Add(uint8(m), uint8(i), b)
		}
	}
	f.Fuzz(func(t *testing.T, method, file uint8, content []byte) {
		src := releases[int(method)%len(releases)]
		names := releaseFiles(t, src)
		name := names[int(file)%len(names)]
		dir := copyDir(t, src)
		orig, _ := os.ReadFile(filepath.Join(dir, name))
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := catalogtest.Check(dir, verify.Options{})
		if err != nil {
			var ie *model.InputError
			var pe *model.ParamError
			if !errors.As(err, &ie) && !errors.As(err, &pe) {
				t.Fatalf("%s of %s: not an input error: %T %v", name, filepath.Base(src), err, err)
			}
			return
		}
		if rep.OK() && string(orig) != string(content) && name != "manifest.json" {
			t.Fatalf("an edited %s of %s passes:\n%q", name, filepath.Base(src), content)
		}
	})
}
