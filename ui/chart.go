package ui

import (
	"math"
	"strings"
)

// lineChart plots values against evenly spaced labels (a parameter's
// values in a sweep): a point per value, joined by dots, on an axis that
// runs from the smallest value to the largest (both printed), so values
// close together still read apart. NaN values are gaps. The chart is
// title, h-2 plot rows and one row of labels, w cells wide.
func lineChart(s *Styles, title string, labels []string, ys []float64, w, h int) string {
	const axis = 9 // the y labels' column
	var b strings.Builder
	b.WriteString(s.Label.Render(fit(title, w)) + "\n")
	rows := max(2, h-2)
	cols := max(4, w-axis-1)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		if !math.IsNaN(y) && !math.IsInf(y, 0) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	if math.IsInf(lo, 1) || len(ys) == 0 {
		b.WriteString(s.Muted.Render(fit("no value to plot", w)) + "\n")
		return b.String()
	}
	grid := make([][]rune, rows)
	for r := range grid {
		grid[r] = []rune(strings.Repeat(" ", cols))
	}
	x := func(i int) int {
		if len(ys) == 1 {
			return cols / 2
		}
		return int(math.Round(float64(i) * float64(cols-1) / float64(len(ys)-1)))
	}
	y := func(v float64) float64 { // 0 at the bottom row, rows-1 at the top
		if hi == lo {
			return float64(rows-1) / 2
		}
		return (v - lo) / (hi - lo) * float64(rows-1)
	}
	set := func(c, r int, ch rune) {
		if c >= 0 && c < cols && r >= 0 && r < rows {
			row := rows - 1 - r
			if grid[row][c] != '●' {
				grid[row][c] = ch
			}
		}
	}
	prev := -1
	for i, v := range ys {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			prev = -1
			continue
		}
		if prev >= 0 {
			// Dots along the segment from the previous point.
			x0, y0, x1, y1 := x(prev), y(ys[prev]), x(i), y(v)
			for c := x0 + 1; c < x1; c++ {
				t := float64(c-x0) / float64(x1-x0)
				set(c, int(math.Round(y0+t*(y1-y0))), '·')
			}
		}
		set(x(i), int(math.Round(y(v))), '●')
		prev = i
	}
	for r := 0; r < rows; r++ {
		label := ""
		switch {
		case hi == lo && r == rows-1-int(math.Round(y(lo))):
			label = human(lo) // one value: one label, where its line is
		case hi != lo && r == 0:
			label = human(hi)
		case hi != lo && r == rows-1:
			label = human(lo)
		}
		b.WriteString(s.Muted.Render(padLeft(label, axis-1)+" │") + s.Bars[1].Render(string(grid[r])) + "\n")
	}
	// The x labels: the first, the last, and between them where they fit.
	line := []rune(strings.Repeat(" ", cols))
	free := 0
	for i, l := range labels {
		c := x(i)
		lr := []rune(l)
		start := c - len(lr)/2
		if i == 0 {
			start = 0
		}
		if i == len(labels)-1 {
			start = cols - len(lr)
		}
		if start < free || start < 0 || start+len(lr) > cols {
			continue
		}
		copy(line[start:], lr)
		free = start + len(lr) + 1
	}
	b.WriteString(strings.Repeat(" ", axis+1) + s.Muted.Render(string(line)) + "\n")
	return b.String()
}

// padLeft right-aligns s in n cells.
func padLeft(s string, n int) string {
	if l := lenCells(s); l < n {
		return strings.Repeat(" ", n-l) + s
	}
	return s
}
