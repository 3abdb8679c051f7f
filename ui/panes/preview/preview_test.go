package preview

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/preview -update

import (
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// withResult is distribution's state on census with the result of a
// run, as the preview receives it (Refresh).
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

// TestGoldenSizes: the groups, then sorted by the next column, then the
// first group's detail, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(withResult(t))
			p.Refresh()
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "groups_"+size.Name, p.View())
			p.Update(panetest.Runes("s"))
			panetest.Golden(t, "sorted_"+size.Name, p.View())
			p.Update(tea.KeyMsg{Type: tea.KeyEnter})
			panetest.Golden(t, "detail_"+size.Name, p.View())
		})
	}
}

// TestNotReadySaysWhatIsMissing: before any result the pane says it is
// computing instead of drawing an empty table.
func TestNotReadySaysWhatIsMissing(t *testing.T) {
	st := panetest.State(t, "dataset:census", "distribution")
	p := New(st)
	p.Refresh()
	p.SetSize(80, 24)
	if v := p.View(); v != "computing the first preview …" {
		t.Errorf("without a result the preview shows %q", v)
	}
}
