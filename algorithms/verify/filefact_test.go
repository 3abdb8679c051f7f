package verify

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"privlab/model/releasedir"
)

// A file fact is computed once for every release reading the same files
// (an export's two checks, at once), once per release otherwise, and an
// error is every reader's.
func TestFileFactOncePerFiles(t *testing.T) {
	t.Parallel()
	shared := &files{}
	a, b, c := &Release{files: shared}, &Release{files: shared}, &Release{files: &files{}}
	calls := 0
	var mu sync.Mutex
	compute := func() (any, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return calls, nil
	}
	var wg sync.WaitGroup
	got := make([]any, 3)
	for i, rel := range []*Release{a, b, c} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = rel.FileFact("x/n", compute)
		}()
	}
	wg.Wait()
	if calls != 2 || got[0] != got[1] || got[0] == got[2] {
		t.Fatalf("%d computations, facts %v", calls, got)
	}
	bad := errors.New("unreadable")
	if _, err := a.FileFact("x/bad", func() (any, error) { return nil, bad }); err != bad {
		t.Fatal(err)
	}
	if _, err := b.FileFact("x/bad", func() (any, error) { return 1, nil }); err != bad {
		t.Fatalf("the second reader got %v, want the first's error", err)
	}
}

// The checks of a release written from one built in memory take the
// facts read of the built files' bytes alone (DataFact), computed once
// for both; a fact that may read a path or the manifest (FileFact) is
// read again from the written release, whose table names the written
// file (it would say "(unexported release)" if carried over).
func TestDataFactCarriedToTheWrittenFiles(t *testing.T) {
	t.Parallel()
	built := RenderBuilt(&releasedir.Release{Files: []releasedir.ReleaseFile{{Name: "t.csv", Header: []string{"a"}, Rows: 2, Text: []byte("a\nx\ny\n")}}})
	dir := filepath.Join(t.TempDir(), "out")
	calls := 0
	codes := func(rel *Release) func() (any, error) {
		return func() (any, error) {
			calls++
			tb, err := rel.Table("t.csv")
			if err != nil {
				return nil, err
			}
			return strings.Join(tb.Columns[0].Dict, ","), nil
		}
	}
	where := func(rel *Release) func() (any, error) {
		return func() (any, error) {
			tb, err := rel.Table("t.csv")
			if err != nil {
				return nil, err
			}
			return rel.Dir + "|" + tb.Name, nil
		}
	}
	if v, _ := built.DataFact("x/codes/t.csv", codes(built)); v != "x,y" {
		t.Fatalf("built: %v", v)
	}
	if v, _ := built.FileFact("x/where/t.csv", where(built)); v != "(unexported release)|t.csv" {
		t.Fatalf("built: %v", v)
	}
	written := &Release{Dir: dir, Manifest: built.Manifest, listed: built.listed, files: NewSharedBuilt(dir, built, nil).files}
	if v, _ := written.DataFact("x/codes/t.csv", codes(written)); v != "x,y" || calls != 1 {
		t.Errorf("written: %v after %d computations, want the built files' fact", v, calls)
	}
	want := dir + "|" + filepath.Join(dir, "t.csv")
	if v, _ := written.FileFact("x/where/t.csv", where(written)); v != want {
		t.Errorf("written: %v, want %v (read again, from the written files)", v, want)
	}
	// A release of its own files reads its own.
	other := RenderBuilt(&releasedir.Release{Files: []releasedir.ReleaseFile{{Name: "t.csv", Header: []string{"a"}, Rows: 2, Text: []byte("a\nx\ny\n")}}})
	if _, _ = other.DataFact("x/codes/t.csv", codes(other)); calls != 2 {
		t.Errorf("%d computations, want 2", calls)
	}
}
