package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/ui/common"
)

// TestContract is the workbench's half of the method contract (the other
// half is algorithms/catalog's TestContract): every registered method's
// example opens at 80x24, and its preview, a group detail, its charts pane
// and the full help render without an internal error, every line within
// the width. A new method is picked up with no edit.
func TestContract(t *testing.T) {
	for _, m := range catalog.All() {
		spec := m.Spec()
		t.Run(spec.Name, func(t *testing.T) {
			ex := spec.Example
			p := pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: spec.Name,
				Variant: ex.Variant, Params: ex.Params.Clone()}
			a := newApp(testEnv, p)
			a.st.Now = fixedClock
			a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			settle(t, a, a.schedule())
			if a.st.Result == nil {
				t.Fatalf("no preview: load %v run %v", a.st.LoadErr, a.st.RunErr)
			}
			screens := map[string]string{}
			a.active = common.PanePreview // (the tab numbers depend on the method's panes)
			screens["preview"] = a.View()
			press(t, a, "enter")
			screens["detail"] = a.View()
			press(t, a, "down", "down", "esc", "?")
			screens["help"] = a.View()
			press(t, a, "?")
			a.active = common.PaneMethod
			screens["method"] = a.View()
			if spec.Charts != "" {
				a.active = common.PaneCharts
				screens["charts"] = a.View()
				if !strings.Contains(screens["charts"], spec.Charts) {
					t.Errorf("the charts pane is not titled %q", spec.Charts)
				}
			}
			for name, v := range screens {
				if strings.Contains(v, "internal error") {
					t.Fatalf("%s: %s", name, v)
				}
				lines := strings.Split(v, "\n")
				if len(lines) > 24 {
					t.Errorf("%s: %d lines at 80x24", name, len(lines))
				}
				for _, l := range lines {
					if common.LenCells(l) > 80 {
						t.Errorf("%s: a line of %d cells at 80x24: %q", name, common.LenCells(l), l)
					}
				}
			}
			if !strings.Contains(screens["detail"], "Group ") {
				t.Errorf("no group detail:\n%s", screens["detail"])
			}
		})
	}
}
