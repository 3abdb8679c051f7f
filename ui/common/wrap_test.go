package common

import (
	"strings"
	"testing"
)

// TestWrapKeepsAHyphenBreakWithinTheWidth: a line broken at a hyphen
// ends within the width (ansi.Wordwrap left the hyphen as a 79th cell at
// 78, so the Export pane's warning about the avg-range workload was cut
// to "(av…" at 80 columns).
func TestWrapKeepsAHyphenBreakWithinTheWidth(t *testing.T) {
	s := "! query answers are bounds 44 times as wide as the true answer on average (avg-range workload)"
	for w := 20; w <= 100; w++ {
		out := Wrap(s, w)
		for _, l := range strings.Split(out, "\n") {
			if LenCells(l) > w {
				t.Errorf("at %d cells, %q is %d wide", w, l, LenCells(l))
			}
		}
		if strings.Join(strings.Fields(strings.ReplaceAll(out, "-\n", "-")), " ") != s {
			t.Errorf("at %d cells the text changed: %q", w, out)
		}
	}
}
