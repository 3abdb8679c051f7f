package advisor

import "github.com/charmbracelet/lipgloss"

// Styles are the few styles the pane draws with. The workbench has one
// style sheet: it fills these from it; the pane creates no colours.
type Styles struct {
	Title lipgloss.Style
	// Muted draws axes, tick labels, the legend's words and the progress.
	Muted lipgloss.Style
	// Front draws the line joining the Pareto front.
	Front lipgloss.Style
	// Selected highlights the selected front point and its brackets.
	Selected lipgloss.Style
	// Current draws the mark of the project's current settings.
	Current lipgloss.Style
	// Stale labels a map computed for other QIs, SA, hierarchies or
	// population; Error a failed computation or a point that failed.
	Stale, Error lipgloss.Style
	// Methods colour the methods' symbols, in the order the methods
	// first appear (cycled); empty: plain.
	Methods []lipgloss.Style
}

// method is the style of the i-th method's symbol.
func (s Styles) method(i int) lipgloss.Style {
	if len(s.Methods) == 0 {
		return lipgloss.NewStyle()
	}
	return s.Methods[i%len(s.Methods)]
}
