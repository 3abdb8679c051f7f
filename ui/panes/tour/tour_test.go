package tour

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/tour -update

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/tour"
	"privlab/datasets"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
	"privlab/ui/panes/preview"
	"privlab/ui/session"
)

// onTour is the workbench's state with the tour named name open at its
// first step, and the pane on it with the live preview of the step's
// run.
func onTour(t *testing.T, name string) (*common.State, *Model) {
	t.Helper()
	env := pipeline.Env{Datasets: datasets.Catalog{}}
	st := &common.State{Session: session.Session{Env: env}, Styles: common.DefaultStyles(), Keys: common.DefaultKeyMap()}
	tr, err := tour.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := tr.Steps(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	st.Tour = &session.Tour{Tour: tr, Steps: steps}
	st.ShowStep(0)
	p := New(st, preview.New(st))
	land(t, p)
	return st, p
}

// land loads the project's table and lands the preview's run of the
// project, as the root does after a step changed the settings.
func land(t *testing.T, p *Model) {
	t.Helper()
	st := p.st
	tbl, err := st.Env.LoadTable(st.Project)
	if err != nil {
		t.Fatal(err)
	}
	st.Table = tbl
	if st.Prep, err = st.Env.Prepare(st.Project, tbl); err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), st.Prep, pipeline.RunOptions{Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	st.Result, st.ResultOf = res, st.Changes
	p.preview.Refresh()
}

// TestGoldenSizes: kja's tour at its first step and, after →, its
// second with the step's run, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			st, p := onTour(t, "kja")
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "first_"+size.Name, p.View())
			p.Update(tea.KeyMsg{Type: tea.KeyRight})
			if st.Tour.Cur != 1 {
				t.Fatalf("→ moved to step %d", st.Tour.Cur)
			}
			land(t, p)
			panetest.Golden(t, "second_"+size.Name, p.View())
		})
	}
}

// TestStepsAndLeaves: ← goes back to the first step and loads its
// settings; other settings are said in the rule above the preview and
// enter brings the step's back; esc leaves the tour (its settings stay)
// for the Preview pane.
func TestStepsAndLeaves(t *testing.T) {
	st, p := onTour(t, "kja")
	p.SetSize(80, 24)
	first := st.Project.Clone()
	p.Update(tea.KeyMsg{Type: tea.KeyRight})
	p.Update(tea.KeyMsg{Type: tea.KeyLeft})
	if st.Tour.Cur != 0 || !session.SameRun(st.Project, first) {
		t.Fatalf("←: step %d, project %+v", st.Tour.Cur, st.Project)
	}
	st.SetParam("k", "4")
	if v := p.View(); !strings.Contains(v, "── live preview of your settings (enter: the step's)") {
		t.Fatalf("other settings are not said:\n%s", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if !session.SameRun(st.Project, first) || !strings.Contains(p.View(), "── live preview: "+SetupText(st.Tour.Tour, st.Tour.Steps[0].Setup)) {
		t.Fatalf("enter did not bring the step's settings back:\n%s", p.View())
	}
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if st.Tour != nil || cmd == nil {
		t.Fatal("esc did not leave the tour")
	}
	if msg, ok := cmd().(common.ShowPaneMsg); !ok || msg.Pane != common.PanePreview || !session.SameRun(st.Project, first) {
		t.Fatalf("esc: %+v, project %+v", msg, st.Project)
	}
	if v := p.View(); !strings.Contains(v, "No tour is open: ctrl+t lists the tours.") {
		t.Errorf("without a tour:\n%s", v)
	}
}
