package advisor

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"privlab/algorithms/advise"
	"privlab/algorithms/catalog"
)

// What a cell of the chart holds, which picks its style.
const (
	cellEmpty = iota
	cellFront
	cellBracket
	cellCurrent
	cellPoint // + the method's order
)

// cell is one character of the chart.
type cell struct {
	r    rune
	kind int
}

// fallbackGlyphs mark a method whose name has no letter left to use.
const fallbackGlyphs = "*#%&@$+=~"

// symbols gives each method of the points one ASCII symbol: the first
// letter of its name, upper case, unless taken, else its next letter,
// else a glyph. The methods are taken in the catalog's order (then by
// name), so a method keeps its symbol whatever order its points finish in.
func symbols(points []advise.Point) (methods []string, sym map[string]rune) {
	for _, p := range points {
		if p.Method != "" && !slices.Contains(methods, p.Method) {
			methods = append(methods, p.Method)
		}
	}
	order := catalog.Names()
	rank := func(name string) int {
		if i := slices.Index(order, name); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(methods, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	sym = map[string]rune{}
	used := map[rune]bool{}
	for _, name := range methods {
		sym[name] = pickSymbol(name, used)
		used[sym[name]] = true
	}
	return methods, sym
}

// pickSymbol is the first letter of name not used yet, upper case.
func pickSymbol(name string, used map[rune]bool) rune {
	for _, r := range name {
		u := unicode.ToUpper(r)
		if u < unicode.MaxASCII && unicode.IsLetter(u) && !used[u] {
			return u
		}
	}
	for _, g := range fallbackGlyphs {
		if !used[g] {
			return g
		}
	}
	return '?'
}

// failedSymbol is a method's symbol for a point whose definition fails:
// its lower case (a glyph stays as it is).
func failedSymbol(r rune) rune { return unicode.ToLower(r) }

// scale maps the finished points' figures onto the plot's cells. The
// axes start at 0 (or below, for a risk under the baseline). The loss
// axis ends at the front's highest loss: a point above it (beaten by
// the front's lowest-risk point, or failing its definition) is drawn on
// the plot's top row, so one very lossy setting does not flatten the
// front.
type scale struct {
	xmin, xmax, ymin, ymax float64
	cols, rows             int
	// above says some point is above the loss axis.
	above bool
}

// newScale fits the measured points in a plot of cols x rows cells.
func newScale(points []advise.Point, cols, rows int) scale {
	s := scale{cols: cols, rows: rows}
	frontMax, anyFront := 0.0, false
	for _, p := range points {
		if !p.Measured() {
			continue
		}
		s.xmin, s.xmax = math.Min(s.xmin, p.Risk), math.Max(s.xmax, p.Risk)
		s.ymin, s.ymax = math.Min(s.ymin, p.Loss), math.Max(s.ymax, p.Loss)
		if p.Front {
			frontMax, anyFront = math.Max(frontMax, p.Loss), true
		}
	}
	if anyFront && frontMax > s.ymin && frontMax < s.ymax {
		s.ymax, s.above = frontMax, true
	}
	if s.xmax <= s.xmin {
		s.xmax = s.xmin + 1
	}
	if s.ymax <= s.ymin {
		s.ymax = s.ymin + 1
	}
	return s
}

// at is the cell of a point: columns 1..cols-2 and rows 1..rows-1 (a
// free column each side for the selection's brackets, a free row on top
// for the current settings' mark and the points above the loss axis).
func (s scale) at(p advise.Point) (row, col int) {
	col = 1 + int(math.Round((p.Risk-s.xmin)/(s.xmax-s.xmin)*float64(s.cols-3)))
	if p.Loss > s.ymax {
		return 0, col
	}
	row = 1 + int(math.Round((s.ymax-p.Loss)/(s.ymax-s.ymin)*float64(s.rows-2)))
	return row, col
}

// tick formats an axis figure in three significant digits.
func tick(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// View draws the pane: the title and status, the chart, the legend, the
// selected point's figures and why it is on the front.
func (m Model) View() string {
	w, h := max(m.width, 1), max(m.height, 1)
	status, alert := m.status()
	st := m.styles.Muted
	if alert {
		st = m.styles.Stale
		if m.phase == failed {
			st = m.styles.Error
		}
	}
	lines := append(wrap(m.styles.Title.Render("Risk-utility map: utility loss up, risk beyond the baseline across"), w), wrap(st.Render(status), w)...)
	methods, sym := symbols(m.points)
	footer := append(m.legend(methods, sym, w), m.details(sym, w)...)
	lines = append(lines, m.chart(methods, sym, w, h-len(lines)-len(footer))...)
	lines = append(lines, footer...)
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], w, "")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:h], "\n")
}

// chart draws the plot with its axes in height lines of width w.
func (m Model) chart(methods []string, sym map[string]rune, w, height int) []string {
	if height < 5 {
		return nil
	}
	rows := height - 2 // the axis and its ticks below
	s0 := newScale(m.points, 10, rows)
	yTicks := map[int]string{1: tick(s0.ymax), rows - 1: tick(s0.ymin), 1 + (rows-2)/2: tick((s0.ymax + s0.ymin) / 2)}
	if s0.above {
		yTicks[0] = "above"
	}
	lw := 0
	for _, t := range yTicks {
		lw = max(lw, len(t))
	}
	cols := w - lw - 1
	if cols < 8 {
		return nil
	}
	s := newScale(m.points, cols, rows)
	grid := m.plot(s, methods, sym)
	out := make([]string, 0, height)
	for r, row := range grid {
		out = append(out, m.styles.Muted.Render(fmt.Sprintf("%*s|", lw, yTicks[r]))+m.renderRow(row))
	}
	out = append(out, m.styles.Muted.Render(strings.Repeat(" ", lw)+"+"+strings.Repeat("-", cols)))
	return append(out, m.styles.Muted.Render(strings.Repeat(" ", lw+1)+xTicks(s)))
}

// xTicks labels the risk axis at its ends and middle.
func xTicks(s scale) string {
	line := []rune(strings.Repeat(" ", s.cols))
	put := func(col int, text string) {
		col = max(0, min(col, s.cols-len(text)))
		copy(line[col:], []rune(text))
	}
	put(1, tick(s.xmin))
	put(1+(s.cols-3)/2-2, tick((s.xmin+s.xmax)/2))
	put(s.cols-1-len(tick(s.xmax)), tick(s.xmax))
	return string(line)
}

// plot fills the cells: the front's joining line, the points (those on
// the front last, so they show), the selection's brackets and the
// current settings' mark above their point.
func (m Model) plot(s scale, methods []string, sym map[string]rune) [][]cell {
	grid := make([][]cell, s.rows)
	for r := range grid {
		grid[r] = make([]cell, s.cols)
		for c := range grid[r] {
			grid[r][c] = cell{r: ' '}
		}
	}
	front := m.front()
	for k := 1; k < len(front); k++ {
		r0, c0 := s.at(m.points[front[k-1]])
		r1, c1 := s.at(m.points[front[k]])
		joinLine(grid, r0, c0, r1, c1)
	}
	for _, onFront := range []bool{false, true} {
		for _, p := range m.points {
			if !p.Measured() || p.Front != onFront {
				continue
			}
			r, c := s.at(p)
			ch := sym[p.Method]
			if !p.Holds {
				ch = failedSymbol(ch)
			}
			grid[r][c] = cell{r: ch, kind: cellPoint + slices.Index(methods, p.Method)}
		}
	}
	m.marks(grid, s)
	return grid
}

// marks brackets the selected point and puts a v above the current
// settings' point, on cells that hold no point.
func (m Model) marks(grid [][]cell, s scale) {
	free := func(r, c int) bool {
		return r >= 0 && r < len(grid) && c >= 0 && c < len(grid[r]) && grid[r][c].kind < cellPoint
	}
	if m.selected >= 0 && m.points[m.selected].Measured() {
		r, c := s.at(m.points[m.selected])
		if free(r, c-1) {
			grid[r][c-1] = cell{r: '[', kind: cellBracket}
		}
		if free(r, c+1) {
			grid[r][c+1] = cell{r: ']', kind: cellBracket}
		}
		grid[r][c].kind = cellBracket // the symbol itself, highlighted
	}
	for _, p := range m.points {
		if p.Measured() && m.isCurrent(p) {
			if r, c := s.at(p); free(r-1, c) {
				grid[r-1][c] = cell{r: 'v', kind: cellCurrent}
			}
		}
	}
}

// joinLine draws the front's segment between two points' cells (the
// ends excluded) on empty cells, each character the direction of its
// step: - across, | up or down, \ down and across, / up and across.
func joinLine(grid [][]cell, r0, c0, r1, c1 int) {
	dc, dr := abs(c1-c0), -abs(r1-r0)
	sc, sr := sign(c1-c0), sign(r1-r0)
	e, r, c := dc+dr, r0, c0
	for r != r1 || c != c1 {
		pr, pc := r, c
		e2 := 2 * e
		if e2 >= dr {
			e += dr
			c += sc
		}
		if e2 <= dc {
			e += dc
			r += sr
		}
		if (r != r1 || c != c1) && grid[r][c].kind == cellEmpty {
			grid[r][c] = cell{r: stepRune(r-pr, c-pc), kind: cellFront}
		}
	}
}

// stepRune is the line character of one step.
func stepRune(dr, dc int) rune {
	switch {
	case dr == 0:
		return '-'
	case dc == 0:
		return '|'
	case dr > 0 == (dc > 0):
		return '\\'
	}
	return '/'
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// renderRow styles a row of cells, a run of one kind at a time.
func (m Model) renderRow(row []cell) string {
	var b strings.Builder
	for i := 0; i < len(row); {
		j := i
		for j < len(row) && row[j].kind == row[i].kind {
			j++
		}
		text := make([]rune, 0, j-i)
		for _, c := range row[i:j] {
			text = append(text, c.r)
		}
		b.WriteString(m.cellStyle(row[i].kind).Render(string(text)))
		i = j
	}
	return b.String()
}

// cellStyle is the style of a kind of cell.
func (m Model) cellStyle(kind int) lipgloss.Style {
	switch kind {
	case cellEmpty:
		return lipgloss.NewStyle()
	case cellFront:
		return m.styles.Front
	case cellBracket:
		return m.styles.Selected
	case cellCurrent:
		return m.styles.Current
	}
	return m.styles.method(kind - cellPoint)
}
