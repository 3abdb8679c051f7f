package verify

import (
	"fmt"
	"strings"
	"testing"
)

// A check's line lists at most maxListed names and counts the rest.
func TestListIfIsBounded(t *testing.T) {
	names := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("f%d.csv", i)
		}
		return out
	}
	if got := listIf("; missing: ", names(0)); got != "" {
		t.Errorf("no names: %q", got)
	}
	if got, want := listIf("; missing: ", names(maxListed)), "; missing: "+strings.Join(names(maxListed), ", "); got != want {
		t.Errorf("%d names: %q, want %q", maxListed, got, want)
	}
	got := listIf("; missing: ", names(110000))
	if want := "; missing: " + strings.Join(names(maxListed), ", ") + " and 109980 more"; got != want {
		t.Errorf("110000 names: %.400q, want %q", got, want)
	}
}
