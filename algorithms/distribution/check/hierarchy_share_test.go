package check

import (
	"errors"
	"path/filepath"
	"testing"

	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model"
)

// hierarchy.csv is parsed and validated once for the checks and the
// attacker's view that share a release's files (an export's full check,
// its check from the files alone, the risk view): every reader gets the
// same tree. A fault of the file is still an input error naming the file
// and its line.
func TestHierarchyReadOnceForSharedFiles(t *testing.T) {
	dir := vt.Tamper{}.Copy(t, filepath.Join("testdata", "figure2"))
	s := verify.NewShared(dir)
	a, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	ha, err := readHierarchy(a)
	if err != nil {
		t.Fatal(err)
	}
	hb, err := readHierarchy(b)
	if err != nil {
		t.Fatal(err)
	}
	if ha != hb {
		t.Fatal("the hierarchy was parsed again for a reader of the same files")
	}
	dir = vt.File("hierarchy.csv", vt.Replace(t, "\n1,0,", "\n0,0,")).Copy(t, filepath.Join("testdata", "figure2")) // a NodeID given twice
	s = verify.NewShared(dir)
	for i := 0; i < 2; i++ {
		rel, err := s.Open()
		if err != nil {
			t.Fatal(err)
		}
		_, err = readHierarchy(rel)
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != dir+"/hierarchy.csv" || ie.Msg != "duplicate NodeID" {
			t.Fatalf("reader %d: %v, want the duplicate NodeID of %s/hierarchy.csv", i, err, dir)
		}
	}
}
