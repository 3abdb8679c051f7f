package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	amb "privlab/algorithms/ambiguity/check"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
)

// TestViewReadsGroupIDsAsText: a group is its GroupID text in every
// file. GroupIDs rewritten to texts that are not plain whole numbers
// ("g7", "007": found through the map rather than the array) give the
// same view and exposure as the release written.
func TestViewReadsGroupIDsAsText(t *testing.T) {
	dir, _ := export(t, censusProject(600))
	want := viewOf(t, dir)
	for _, prefix := range []string{"g", "00"} {
		bad := copyDir(t, dir)
		es, _ := os.ReadDir(bad)
		for _, e := range es {
			name := e.Name()
			if !strings.HasSuffix(name, ".csv") {
				continue
			}
			recs := verifytest.ReadCSV(t, filepath.Join(bad, name))
			col := 1 // at_<qi>.csv: value, GroupID
			if name == "st.csv" {
				col = 0 // GroupID, value, Frequency
			}
			for _, rec := range recs[1:] {
				rec[col] = prefix + rec[col]
			}
			verifytest.WriteCSV(t, filepath.Join(bad, name), recs)
		}
		rehash(t, bad, nil)
		if got := viewOf(t, bad); got != want {
			t.Fatalf("GroupIDs %q + id: the view reads\n%s\nwant\n%s", prefix, got, want)
		}
	}
}

// viewOf prints a release's view and exposure: every region's records,
// belief and presence, and its cells on every QI.
func viewOf(t *testing.T, dir string) string {
	t.Helper()
	rel, err := verify.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := amb.View(rel)
	if err != nil {
		t.Fatal(err)
	}
	e, err := amb.Expose(rel, v)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for r, reg := range v.Regions {
		bl := v.Beliefs[reg.Belief]
		fmt.Fprintf(&b, "%d %v %v %v %v\n", reg.Records, bl.Values, bl.P, reg.Presence, e.Sets[r])
	}
	return b.String()
}
