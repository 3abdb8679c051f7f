package params

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/params -update

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// withResult is distribution's state on census with the result of a run.
func withResult(t *testing.T) *common.State {
	t.Helper()
	st := panetest.State(t, "dataset:census", "distribution")
	res, err := pipeline.Run(context.Background(), st.Prep, pipeline.RunOptions{Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	st.Result, st.ResultOf = res, st.Changes
	return st
}

// TestGoldenSizes: the method, its parameters and the compact preview,
// then the second parameter selected and typed into, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(withResult(t))
			p.Refresh()
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "method_"+size.Name, p.View())
			p.Update(panetest.Runes("j"))
			p.Update(tea.KeyMsg{Type: tea.KeyEnter})
			panetest.Golden(t, "editing_"+size.Name, p.View())
		})
	}
}

// TestInvalidValueIsRefusedInline: a typed value the parameter refuses
// keeps the editor open with the reason, and the value unchanged.
func TestInvalidValueIsRefusedInline(t *testing.T) {
	st := withResult(t)
	p := New(st)
	p.SetSize(80, 24)
	name := st.Spec().Params[0].Name
	before := st.Value(name)
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	p.Update(panetest.Runes("no-such-target"))
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if !p.Capturing() || st.Value(name) != before || st.Changes != 0 {
		t.Errorf("an invalid %s was taken: editing %v, value %q, changes %d", name, p.Capturing(), st.Value(name), st.Changes)
	}
}

// TestMethodKeyCyclesTheMethods: M moves to the next method through the
// session (its result goes: it belongs to another method).
func TestMethodKeyCyclesTheMethods(t *testing.T) {
	st := withResult(t)
	p := New(st)
	p.Update(panetest.Runes("M"))
	if st.Project.Method == "distribution" || st.Result != nil || !st.NeedRun {
		t.Errorf("M left method %s, result %v", st.Project.Method, st.Result != nil)
	}
}
