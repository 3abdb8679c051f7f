package ui

import (
	"os"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/model"

	tea "github.com/charmbracelet/bubbletea"
)

// TestHierarchyFileThatMissesAValueSaysWhatToDo: a typed hierarchy file
// that does not cover a value of the column is refused with the hint
// privlab run gives ("the hierarchy must list every value of the
// column"); the workbench said only which value it missed.
func TestHierarchyFileThatMissesAValueSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		os.WriteFile("d.csv", []byte("zip;sex;dis\n1;M;a\n2;F;b\n3;M;c\n4;F;a\n"), 0o644)
		os.WriteFile("h.csv", []byte("male;*\nfemale;*\n"), 0o644)
		a := newApp(testEnv, pipeline.Project{Input: "d.csv", Method: "lossyjoin", Params: model.Values{"alpha": "0.5"}, Roles: model.Roles{QIs: []string{"sex"}, SA: "dis"}})
		a.st.Now = fixedClock
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, a, a.schedule())
		press(t, a, "2", "F", "ctrl+u", "h.csv", "enter")
		if v := flatView(a); !strings.Contains(v, "does not cover the value") || !strings.Contains(v, "the hierarchy must list every value") {
			t.Errorf("the refusal does not say what to do:\n%s", a.View())
		}
	})
}
