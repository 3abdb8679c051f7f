package check_test

import (
	"os"
	"path/filepath"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/verify"
)

// FuzzCheck: whatever a release file holds, check reads it without a
// panic and either fails the release or returns an error; it passes only
// what is the untouched release (the seeds include it).
func FuzzCheck(f *testing.F) {
	names := []string{"qi.csv", "sa.csv", "hierarchy.csv", "manifest.json"}
	for i, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "figure2", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), b)
	}
	f.Add(uint8(0), []byte("GroupID,zipcode,gender\n1,91110,F\n"))
	f.Add(uint8(1), []byte("GroupID,Low,High\n1,60000,30000\n"))
	f.Add(uint8(2), []byte("NodeID,ParentID,Low,High,Weight\n0,0,1,1,1\n"))
	f.Add(uint8(3), []byte(`{"method":"distribution","files":[{"name":"qi.csv"},{"name":"qi.csv"}]}`))
	f.Add(uint8(3), []byte(`{"method":"distribution","files":[{"name":"hierarchy.csv"}],"details":{"domain":7}}`))
	f.Fuzz(func(t *testing.T, which uint8, content []byte) {
		dir := copyDir(t, "testdata/figure2")
		name := names[int(which)%len(names)]
		orig, _ := os.ReadFile(filepath.Join(dir, name))
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := catalogtest.Check(dir, verify.Options{})
		if err != nil {
			return
		}
		if rep.OK() && string(orig) != string(content) && name != "manifest.json" {
			t.Fatalf("an edited %s passes:\n%q", name, content)
		}
	})
}
