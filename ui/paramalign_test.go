package ui

import (
	"strings"
	"testing"

	"privlab/algorithms/pipeline"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// TestParameterValuesStartInOneColumn: in the Method and Sweep panes
// every parameter's value starts in the same column, the longest name's
// too (sampling's "min-generalization auto" stood two cells right of the
// other values).
func TestParameterValuesStartInOneColumn(t *testing.T) {
	a := newApp(testEnv, pipeline.Project{Input: "dataset:census", Rows: 300, Method: "sampling"})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, a, a.schedule())
	for _, pane := range []string{"4", "8"} {
		press(t, a, pane)
		cols := map[int]bool{}
		for _, line := range strings.Split(ansi.Strip(a.View()), "\n") {
			for _, name := range []string{"sampling-rate ", "max-distortion ", "min-generalization ", "marginals "} {
				if i := strings.Index(line, name); i >= 0 && i < 4 {
					rest := line[i+len(name):]
					cols[i+len(name)+len(rest)-len(strings.TrimLeft(rest, " "))] = true
				}
			}
		}
		if len(cols) != 1 {
			t.Errorf("pane %s: the values start in columns %v:\n%s", pane, cols, a.View())
		}
	}
}
