package advisor

import "github.com/charmbracelet/lipgloss"

// DefaultStyles are plain styles with a few attributes, for tests and
// for a caller without a style sheet.
func DefaultStyles() Styles {
	plain := lipgloss.NewStyle()
	return Styles{
		Title:    plain.Bold(true),
		Muted:    plain.Faint(true),
		Front:    plain,
		Selected: plain.Reverse(true),
		Current:  plain.Bold(true),
		Stale:    plain.Bold(true),
		Error:    plain.Bold(true),
	}
}
