package common

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Styles is the workbench's one style sheet; it is the only place that
// creates lipgloss styles. Colours adapt to light and dark terminals and
// vanish under the ASCII profile (tests, NO_COLOR).
type Styles struct {
	App       lipgloss.Style
	Header    lipgloss.Style
	HeaderDim lipgloss.Style
	Tab       lipgloss.Style
	TabActive lipgloss.Style
	Title     lipgloss.Style
	Label     lipgloss.Style
	Value     lipgloss.Style
	Muted     lipgloss.Style
	Selected  lipgloss.Style
	Cursor    lipgloss.Style
	Error     lipgloss.Style
	OK        lipgloss.Style
	Warn      lipgloss.Style
	// Attack colours what the attacks measured (the summary bar, the
	// export plan), apart from the method's own verdict.
	Attack  lipgloss.Style
	Summary lipgloss.Style
	Help    lipgloss.Style
	Dialog  lipgloss.Style
	Box     lipgloss.Style
	// Bars colours the series of a distribution chart.
	Bars [3]lipgloss.Style
	// Table styles the bubbles tables.
	TableHeader   lipgloss.Style
	TableCell     lipgloss.Style
	TableSelected lipgloss.Style
}

var (
	colAccent = lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#A78BFA"}
	colMuted  = lipgloss.AdaptiveColor{Light: "#6B7280", Dark: "#9CA3AF"}
	colError  = lipgloss.AdaptiveColor{Light: "#B91C1C", Dark: "#F87171"}
	colOK     = lipgloss.AdaptiveColor{Light: "#047857", Dark: "#34D399"}
	colWarn   = lipgloss.AdaptiveColor{Light: "#B45309", Dark: "#FBBF24"}
	colSelBg  = lipgloss.AdaptiveColor{Light: "#E0E7FF", Dark: "#312E81"}
	colBar2   = lipgloss.AdaptiveColor{Light: "#0369A1", Dark: "#38BDF8"}
	colBar3   = lipgloss.AdaptiveColor{Light: "#A16207", Dark: "#FACC15"}
	colAttack = lipgloss.AdaptiveColor{Light: "#9D174D", Dark: "#F472B6"}
)

// DefaultStyles builds the style sheet.
func DefaultStyles() *Styles {
	s := &Styles{}
	s.App = lipgloss.NewStyle()
	s.Header = lipgloss.NewStyle().Bold(true).Foreground(colAccent)
	s.HeaderDim = lipgloss.NewStyle().Foreground(colMuted)
	s.Tab = lipgloss.NewStyle().Foreground(colMuted)
	s.TabActive = lipgloss.NewStyle().Bold(true).Underline(true).Foreground(colAccent)
	s.Title = lipgloss.NewStyle().Bold(true)
	s.Label = lipgloss.NewStyle().Foreground(colMuted)
	s.Value = lipgloss.NewStyle()
	s.Muted = lipgloss.NewStyle().Foreground(colMuted)
	s.Selected = lipgloss.NewStyle().Background(colSelBg).Bold(true)
	s.Cursor = lipgloss.NewStyle().Foreground(colAccent).Bold(true)
	s.Error = lipgloss.NewStyle().Foreground(colError)
	s.OK = lipgloss.NewStyle().Foreground(colOK)
	s.Warn = lipgloss.NewStyle().Foreground(colWarn)
	s.Attack = lipgloss.NewStyle().Foreground(colAttack)
	s.Summary = lipgloss.NewStyle().Foreground(colMuted)
	s.Help = lipgloss.NewStyle().Foreground(colMuted)
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(colAccent).Padding(0, 1)
	s.Box = lipgloss.NewStyle().Border(lipgloss.NormalBorder()).BorderForeground(colMuted)
	s.Bars = [3]lipgloss.Style{
		lipgloss.NewStyle().Foreground(colMuted),
		lipgloss.NewStyle().Foreground(colBar2),
		lipgloss.NewStyle().Foreground(colBar3),
	}
	s.TableHeader = lipgloss.NewStyle().Bold(true).Foreground(colAccent)
	s.TableCell = lipgloss.NewStyle()
	s.TableSelected = lipgloss.NewStyle().Bold(true).Background(colSelBg)
	return s
}

// AttackStyle colours an attack row: broken in the error colour, the
// others in the attacks' own.
func AttackStyle(s *Styles, row string) func(...string) string {
	if strings.Contains(row, ": broken") {
		return s.Error.Render
	}
	return s.Attack.Render
}

// WarnStyle is the style of warning lines: dimmed while they are old.
func WarnStyle(s *Styles, old bool) lipgloss.Style {
	if old {
		return s.Muted
	}
	return s.Warn
}
