package common

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
)

// Pane indexes, in tab order. The tabs show the panes the current method
// has (the charts pane only when it draws charts), numbered 1-9 in order.
const (
	PaneData = iota
	PaneHierarchy
	PaneCharts
	PaneMethod
	PanePreview
	PaneQuery
	PaneExport
	PaneSweep
	PaneCompare
	PaneAdvisor
	PaneRelease
	PaneTour
	LastPane
)

// Pane is a pane in a package of its own: a model the root lays out
// (SetSize, then View), hands keys and messages to (Update) and tells
// when a new table or result arrived (Refresh).
type Pane interface {
	Title() string
	// Update handles a key (or a message addressed to the pane).
	Update(msg tea.Msg) tea.Cmd
	SetSize(w, h int)
	View() string
	// Capturing is true while a text input has focus: it then gets
	// every key.
	Capturing() bool
	ShortHelp() []key.Binding
	FullHelp() []key.Binding
	Refresh()
}

// PickFileMsg asks the root to open a file picker (a pane cannot show a
// dialog): Title says what is picked, Dir is the folder it opens in (""
// for the last one used), and OnPick takes the chosen path.
type PickFileMsg struct {
	Title string
	Dir   string
	// Types are the extensions offered (nil: the delimited text files).
	Types  []string
	OnPick func(path string)
}

// NamePopulationMsg asks the root to open the import wizard on the
// project's population, to name the columns of a header-less file.
type NamePopulationMsg struct{}

// CancelJobMsg asks the panes to stop their background work (ctrl+x).
type CancelJobMsg struct{}

// PreviewQueries is the size of the live workload (the summary bar's
// utility figure), and of the one workload the comparison and the sweep
// measure every release with.
const PreviewQueries = 50

// ShowPaneMsg brings a pane to the front.
type ShowPaneMsg struct{ Pane int }

// In names a pane with its tab number when the current method has it:
// "the Data pane (1)".
func (s *State) In(name string, pane int) string {
	if n := s.TabOf(pane); n != "" {
		return "the " + name + " pane (" + n + ")"
	}
	return "the " + name + " pane"
}

// TabOf is the tab number of a workbench pane ("" when the current
// method has no such pane).
func (s *State) TabOf(pane int) string {
	if pane == PaneAdvisor {
		return KeyName(s.Keys.Advisor) // after the nine digits' tabs
	}
	for i, p := range s.WorkbenchPanes() {
		if p == pane {
			return JumpKey(s.Keys, i)
		}
	}
	return ""
}

// WorkbenchPanes are the tuning panes the current method has, in tab
// order: the charts pane only for a method that draws charts.
func (s *State) WorkbenchPanes() []int {
	var out []int
	for i := 0; i < LastPane; i++ {
		if (i == PaneCharts && s.Spec().Charts == "") || i == PaneRelease || i == PaneTour {
			continue
		}
		out = append(out, i)
	}
	return out
}

// Guarded runs background work and turns a panic into an error message,
// so a bug never ends the session with a stack trace.
func Guarded(work func() tea.Msg, onPanic func(error) tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = onPanic(model.Recovered(r, ""))
			}
		}()
		return work()
	}
}
