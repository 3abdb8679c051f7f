package target

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/target -update

import (
	"context"
	"strings"
	"testing"

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
	st.Result = res
	return st
}

// TestGoldenSizes: the chart parameters beside the target's charts,
// then with the second parameter selected, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(withResult(t))
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "charts_"+size.Name, p.View())
			p.Update(panetest.Runes("j"))
			panetest.Golden(t, "second_"+size.Name, p.View())
		})
	}
}

// TestTitleIsTheMethods: the pane is named by the method's charts.
func TestTitleIsTheMethods(t *testing.T) {
	p := New(withResult(t))
	if p.Title() != "Target" {
		t.Errorf("title %q", p.Title())
	}
	p.SetSize(80, 24)
	if v := p.View(); !strings.Contains(v, "Target") {
		t.Errorf("the view does not name the target:\n%s", v)
	}
}
