package query

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/query -update

import (
	"context"
	"strings"
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

// ask types text into the open input and runs the answer's command
// (answers are computed in the background).
func ask(t *testing.T, p *Model, text string) {
	t.Helper()
	p.Update(panetest.Runes(text))
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatalf("%s: no answer was asked for", text)
	}
	p.Update(cmd())
}

// TestGoldenSizes: the pane before a query, then with an answered query
// and a refused one, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(withResult(t))
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "empty_"+size.Name, p.View())
			p.Update(tea.KeyMsg{Type: tea.KeyEnter})
			ask(t, p, "AVG(capital-loss) WHERE age BETWEEN 30 AND 40")
			ask(t, p, "COUNT(*) WHERE nope = 1")
			panetest.Golden(t, "answers_"+size.Name, p.View())
		})
	}
}

// TestWithoutAResultItSaysToWait: a query before the first result is
// refused at once, saying why.
func TestWithoutAResultItSaysToWait(t *testing.T) {
	p := New(panetest.State(t, "dataset:census", "distribution"))
	p.SetSize(80, 24)
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	p.Update(panetest.Runes("COUNT(*)"))
	if cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil {
		t.Fatal("a query without a release was sent to be answered")
	}
	if len(p.answers) != 1 || p.answers[0].err == nil {
		t.Errorf("answers %+v", p.answers)
	}
}

// TestEnterOnAnEmptyLineRunsNothing: the grey example is a placeholder,
// not a query; enter on an empty line asks nothing and says which key
// fills the example in (issue 35 polish).
func TestEnterOnAnEmptyLineRunsNothing(t *testing.T) {
	st := withResult(t)
	p := New(st)
	p.Update(tea.KeyMsg{Type: tea.KeyEnter}) // opens the input
	if cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil {
		t.Fatal("enter on an empty line asked for an answer")
	}
	if len(p.answers) != 0 {
		t.Fatalf("enter on an empty line answered %q", p.answers[0].text)
	}
	if want := common.KeyName(st.Keys.Example); !strings.Contains(st.Status, want) {
		t.Errorf("the status %q does not name the example key %s", st.Status, want)
	}
}

// TestRefusalWrapsAt80Columns: a refused query's explanation wraps to the
// pane's width, its hint read in full, and the query with its caret is
// not padded to the explanation's width (at 80 columns the hint was cut
// behind "…" on screen, and the query and caret lines ended in one too).
func TestRefusalWrapsAt80Columns(t *testing.T) {
	p := New(withResult(t))
	p.SetSize(80, 24)
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	q := "COUNT(*) WHERE sex = 'Female' AND age > 60 OR race = 'White'"
	ask(t, p, q)
	v := p.View()
	flat := strings.Join(strings.Fields(v), " ")
	if !strings.Contains(flat, "(hint: conditions are joined with AND)") {
		t.Errorf("the hint is not in the pane:\n%s", v)
	}
	for _, line := range strings.Split(v, "\n")[1:] { // the title line is cut on purpose
		if n := common.LenCells(line); n > 80 {
			t.Errorf("a line is %d cells wide (cut on screen): %q", n, line)
		}
	}
}
