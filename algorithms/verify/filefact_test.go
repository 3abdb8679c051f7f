package verify

import (
	"errors"
	"sync"
	"testing"
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
