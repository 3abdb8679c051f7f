package advisor

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"privlab/algorithms/advise"
)

// legend names each method's symbol and the marks, wrapped to width w.
func (m Model) legend(methods []string, sym map[string]rune, w int) []string {
	var items []string
	for i, name := range methods {
		items = append(items, m.styles.method(i).Render(string(sym[name]))+" "+m.styles.Muted.Render(name))
	}
	items = append(items,
		m.styles.Muted.Render("lower case: definition fails"),
		m.styles.Selected.Render("[ ]")+m.styles.Muted.Render(" selected"),
		m.styles.Current.Render("v")+m.styles.Muted.Render(" current settings"),
		m.styles.Front.Render("-\\")+m.styles.Muted.Render(" front"))
	var lines []string
	line := ""
	for _, it := range items {
		switch {
		case line == "":
			line = it
		case ansi.StringWidth(line)+2+ansi.StringWidth(it) <= w:
			line += "  " + it
		default:
			lines = append(lines, line)
			line = it
		}
	}
	return append(lines, line)
}

// details are the selected front point's figures and why it is on the
// front, wrapped to width w.
func (m Model) details(sym map[string]rune, w int) []string {
	var lines []string
	for _, l := range m.detailLines(sym) {
		lines = append(lines, wrap(l, w)...)
	}
	return lines
}

// wrap breaks a line at spaces to width w.
func wrap(line string, w int) []string { return strings.Split(ansi.Wrap(line, w, " "), "\n") }

// detailLines are the details unwrapped.
func (m Model) detailLines(sym map[string]rune) []string {
	if m.selected < 0 {
		return []string{m.styles.Muted.Render("No point on the front yet.")}
	}
	p := m.points[m.selected]
	front := m.front()
	at := 0
	for k, i := range front {
		if i == m.selected {
			at = k + 1
		}
	}
	return []string{pointLine(p, string(sym[p.Method]), m.isCurrent(p)),
		m.styles.Muted.Render(fmt.Sprintf("On the front (%d of %d, risk up): no other holding point has both a lower risk at its interval's top and a lower loss.", at, len(front)))}
}

// pointLine is a point's method, parameters and figures in one line.
func pointLine(p advise.Point, symbol string, current bool) string {
	holds := "holds"
	if !p.Holds {
		holds = "definition fails"
	}
	params := p.ParamText()
	if params == "" {
		params = "defaults"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s: %s, risk %s [%s, %s]", symbol, p.Method, params, holds, figure(p.Risk), figure(p.Interval[0]), figure(p.Interval[1]))
	if p.Attack != "" {
		fmt.Fprintf(&b, " (%s)", p.Attack)
	}
	fmt.Fprintf(&b, ", loss %s", figure(p.Loss))
	if current {
		b.WriteString(", current settings")
	}
	return b.String()
}

// figure prints a risk or a loss in four decimals.
func figure(v float64) string { return fmt.Sprintf("%.4f", v) }
