package components

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"privlab/ui/common"
)

// TestLineChartLabelsASinglePointUnderIt: a sweep stopped after its first
// value plots one point in the middle; its label is printed under it (it
// was printed at the right end, as if it were the last of several).
func TestLineChartLabelsASinglePointUnderIt(t *testing.T) {
	lines := strings.Split(ansi.Strip(LineChart(common.DefaultStyles(), "error vs fakes", []string{"5%"}, []float64{41.17}, 40, 7)), "\n")
	point, label := -1, -1
	for _, l := range lines {
		if i := strings.IndexRune(l, '●'); i >= 0 {
			point = len([]rune(l[:i]))
		}
	}
	label = len([]rune(lines[len(lines)-2])) - len([]rune(strings.TrimLeft(lines[len(lines)-2], " ")))
	if point < 0 || label != point-1 && label != point {
		t.Errorf("the point is at column %d, its label %q starts at %d:\n%s", point, "5%", label, strings.Join(lines, "\n"))
	}
}
