package components

import (
	"math"
	"strings"

	"privlab/ui/common"
)

// LineChart plots values against evenly spaced labels (a parameter's
// values in a sweep): a point per value, joined by dots, on an axis that
// runs from the smallest value to the largest (both printed), so values
// close together still read apart. NaN values are gaps. The chart is
// title, h-2 plot rows and one row of labels, w cells wide.
func LineChart(s *common.Styles, title string, labels []string, ys []float64, w, h int) string {
	const axis = 9 // the y labels' column
	var b strings.Builder
	b.WriteString(s.Label.Render(common.Fit(title, w)) + "\n")
	lo, hi := finiteRange(ys)
	if math.IsInf(lo, 1) || len(ys) == 0 {
		b.WriteString(s.Muted.Render(common.Fit("no value to plot", w)) + "\n")
		return b.String()
	}
	g := newChartGrid(max(2, h-2), max(4, w-axis-1), len(ys), lo, hi)
	g.plot(ys)
	for r := 0; r < g.rows; r++ {
		b.WriteString(s.Muted.Render(PadLeft(g.yLabel(r), axis-1)+" │") + s.Bars[1].Render(string(g.grid[r])) + "\n")
	}
	b.WriteString(strings.Repeat(" ", axis+1) + s.Muted.Render(g.xLabels(labels)) + "\n")
	return b.String()
}

// finiteRange is the smallest and largest finite value of ys (+Inf and
// -Inf when there is none).
func finiteRange(ys []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		if !math.IsNaN(y) && !math.IsInf(y, 0) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	return lo, hi
}

// chartGrid is a line chart's plot area: rows by cols cells, n points
// evenly spaced across it, values lo to hi from the bottom row up.
type chartGrid struct {
	grid       [][]rune
	rows, cols int
	n          int
	lo, hi     float64
}

func newChartGrid(rows, cols, n int, lo, hi float64) *chartGrid {
	g := &chartGrid{grid: make([][]rune, rows), rows: rows, cols: cols, n: n, lo: lo, hi: hi}
	for r := range g.grid {
		g.grid[r] = []rune(strings.Repeat(" ", cols))
	}
	return g
}

// x is the column of the i-th point.
func (g *chartGrid) x(i int) int {
	if g.n == 1 {
		return g.cols / 2
	}
	return int(math.Round(float64(i) * float64(g.cols-1) / float64(g.n-1)))
}

// y is the height of a value: 0 at the bottom row, rows-1 at the top.
func (g *chartGrid) y(v float64) float64 {
	if g.hi == g.lo {
		return float64(g.rows-1) / 2
	}
	return (v - g.lo) / (g.hi - g.lo) * float64(g.rows-1)
}

// set draws ch at column c, height r, never over a point.
func (g *chartGrid) set(c, r int, ch rune) {
	if c >= 0 && c < g.cols && r >= 0 && r < g.rows {
		row := g.rows - 1 - r
		if g.grid[row][c] != '●' {
			g.grid[row][c] = ch
		}
	}
}

// plot draws a point per finite value, with dots along the segment from
// the previous one; a value that is not finite is a gap.
func (g *chartGrid) plot(ys []float64) {
	prev := -1
	for i, v := range ys {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			prev = -1
			continue
		}
		if prev >= 0 {
			x0, y0, x1, y1 := g.x(prev), g.y(ys[prev]), g.x(i), g.y(v)
			for c := x0 + 1; c < x1; c++ {
				t := float64(c-x0) / float64(x1-x0)
				g.set(c, int(math.Round(y0+t*(y1-y0))), '·')
			}
		}
		g.set(g.x(i), int(math.Round(g.y(v))), '●')
		prev = i
	}
}

// yLabel is the label of row r (counted from the top): the largest value
// on the top row, the smallest on the bottom one; a single value has one
// label, where its line is.
func (g *chartGrid) yLabel(r int) string {
	switch {
	case g.hi == g.lo && r == g.rows-1-int(math.Round(g.y(g.lo))):
		return common.Human(g.lo)
	case g.hi != g.lo && r == 0:
		return common.Human(g.hi)
	case g.hi != g.lo && r == g.rows-1:
		return common.Human(g.lo)
	}
	return ""
}

// xLabels is the row of x labels: the first, the last, and between them
// where they fit (a single one under its point).
func (g *chartGrid) xLabels(labels []string) string {
	line := []rune(strings.Repeat(" ", g.cols))
	free := 0
	for i, l := range labels {
		c := g.x(i)
		lr := []rune(l)
		start := c - len(lr)/2
		// The first and last labels keep to the ends; a single point's
		// stays under it, in the middle.
		if i == 0 && len(labels) > 1 {
			start = 0
		}
		if i == len(labels)-1 && len(labels) > 1 {
			start = g.cols - len(lr)
		}
		if start < free || start < 0 || start+len(lr) > g.cols {
			continue
		}
		copy(line[start:], lr)
		free = start + len(lr) + 1
	}
	return string(line)
}

// PadLeft right-aligns s in n cells.
func PadLeft(s string, n int) string {
	if l := common.LenCells(s); l < n {
		return strings.Repeat(" ", n-l) + s
	}
	return s
}
