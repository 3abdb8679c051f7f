package release

import (
	"slices"
	"testing"
)

// Numbers are the ids 1..n as a release file writes them.
func TestNumbers(t *testing.T) {
	t.Parallel()
	if got := Numbers(0); len(got) != 0 {
		t.Fatalf("Numbers(0) = %q", got)
	}
	if got := Numbers(3); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Fatalf("Numbers(3) = %q", got)
	}
	if got := Numbers(1000); got[98] != "99" || got[99] != "100" || got[999] != "1000" {
		t.Fatalf("Numbers(1000) gives %q, %q, %q", got[98], got[99], got[999])
	}
}
