package catalog_test

import (
	"slices"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/verify"
	"privlab/model/releasedir"
)

// verify.Shared (the export's one reading of its files for its checks
// and its risk figures) checks every method's release as RunDeclared
// does, line for line, with the original and from the files alone, and
// parses each file once for every reader.
func TestSharedChecksAsRunDeclared(t *testing.T) {
	t.Parallel()
	releases := exampleReleases(t)
	for i, dir := range releases {
		method := catalog.Names()[i]
		audit, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
		if err != nil {
			t.Fatal(err)
		}
		files := verify.NewShared(dir)
		for _, opt := range []verify.Options{{SkipRisk: true}, {Audit: audit}} {
			got, err := files.Check(opt, catalog.Declared)
			if err != nil {
				t.Fatalf("%s: %v", method, err)
			}
			want, err := catalogtest.Check(dir, opt)
			if err != nil {
				t.Fatalf("%s: %v", method, err)
			}
			if !slices.Equal(got.Strings(), want.Strings()) || len(got.Lines) == 0 {
				t.Fatalf("%s: shared check\n%v\nRunDeclared\n%v", method, got.Strings(), want.Strings())
			}
		}
		a, errA := files.Open()
		b, errB := files.Open()
		if errA != nil || errB != nil {
			t.Fatalf("%s: open: %v %v", method, errA, errB)
		}
		name := a.Files()[0]
		ta, errA := a.Table(name)
		tb, errB := b.Table(name)
		if errA != nil || errB != nil || ta != tb {
			t.Fatalf("%s: %s read twice (%p, %p) or not at all: %v %v", method, name, ta, tb, errA, errB)
		}
	}
}
