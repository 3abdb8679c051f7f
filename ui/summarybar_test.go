package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
)

// TestSummaryBarFigures: summary figures a method marks with Bar appear
// in the summary bar even when they hold (the sampling method's worst
// margin and suppressed share).
func TestSummaryBarFigures(t *testing.T) {
	m, err := catalog.Lookup("sampling")
	if err != nil {
		t.Skip("sampling is not registered")
	}
	ex := m.Spec().Example
	a := NewApp(testEnv, pipeline.Project{Input: ex.Input, Roles: ex.Roles, Method: "sampling", Params: ex.Params.Clone()})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	settle(t, a, a.schedule())
	if a.st.Result == nil {
		t.Fatalf("no result: %v %v", a.st.LoadErr, a.st.RunErr)
	}
	v := a.View()
	for _, want := range []string{"✓ private", "margin 0.000394", "suppr % 6.45", "avg δ 0.124"} {
		if !strings.Contains(v, want) {
			t.Errorf("the summary bar lacks %q:\n%s", want, v)
		}
	}
}
