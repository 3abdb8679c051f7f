package sweep

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/sweep -update

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// selectParam moves the selection down to the parameter named name.
func selectParam(t *testing.T, p *Model, name string) {
	t.Helper()
	for range p.params() {
		if p.params()[p.cursor].Name == name {
			return
		}
		p.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	t.Fatalf("no parameter %s among %v", name, p.params())
}

// sweepValues types values for the selected parameter, runs the sweep
// and lands it.
func sweepValues(t *testing.T, p *Model, values string) {
	t.Helper()
	p.Update(panetest.Runes("e"))
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	p.Update(panetest.Runes(values))
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatalf("no sweep was started:\n%s", p.View())
	}
	p.Update(cmd())
}

// TestGoldenSizes: the parameters before a sweep, then a sweep of
// fakes with its table and charts, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(panetest.State(t, "dataset:employees", "distribution"))
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "empty_"+size.Name, p.View())
			selectParam(t, p, "fakes")
			sweepValues(t, p, "0,1,2")
			panetest.Golden(t, "swept_"+size.Name, p.View())
		})
	}
}

// TestSweepOfFakes: a line per value, and more fake values never raise
// the optimum sum of ranges (the budget is "at most t").
func TestSweepOfFakes(t *testing.T) {
	p := New(panetest.State(t, "dataset:employees", "distribution"))
	p.SetSize(80, 24)
	selectParam(t, p, "fakes")
	sweepValues(t, p, "0,1,2")
	if p.err != nil || len(p.rows) != 3 {
		t.Fatalf("sweep: err %v, %d rows", p.err, len(p.rows))
	}
	if !(p.rows[0].UtilityVal >= p.rows[1].UtilityVal && p.rows[1].UtilityVal >= p.rows[2].UtilityVal) {
		t.Fatalf("sum of ranges should not grow with the fake budget: %+v", p.rows)
	}
}

// The sweep plots the privacy figure that moves: not a worst case that is
// 0 for every value, and its title gives the range of the limits
// ("(limit 7-13)", not the last one's 13).
func TestSweepPlotsThePrivacyFigureThatMoves(t *testing.T) {
	p := New(&common.State{Styles: common.DefaultStyles(), Keys: common.DefaultKeyMap()})
	for i, k := range []string{"7", "10", "13"} {
		p.rows = append(p.rows, pipeline.SweepRow{Param: "k", Value: k, Worst: "posterior deviation (max)", WorstVal: 0, WorstLimit: k})
		p.figs = append(p.figs, sweepFigures{utility: "ranges", unique: 40, belief: 0.3 + 0.1*float64(i), smallest: 7})
	}
	if name, ys := p.privacySeries(); name != "largest belief in one sensitive value" || ys[2] != 0.5 {
		t.Fatalf("plots %q %v", name, ys)
	}
	p.rows[1].WorstVal = 0.2
	if name, _ := p.privacySeries(); name != "posterior deviation (max) (limit 7-13)" {
		t.Fatalf("plots %q", name)
	}
	// Nothing moves: the worst case is plotted and named flat (issue 35
	// polish: the second chart could be a constant, unsaid).
	for i := range p.figs {
		p.rows[i].WorstVal, p.figs[i].belief = 0, 0.4
	}
	if name, _ := p.privacySeries(); name != "flat: posterior deviation (max) (limit 7-13)" {
		t.Fatalf("nothing moves, plots %q", name)
	}
	if v := p.tableView(80); !strings.Contains(strings.Split(v, "\n")[0], "ranges") {
		t.Fatalf("the utility column is not named as the method names it:\n%s", v)
	}
}

// A sweep stopped with ctrl+x keeps the values it finished and says it
// stopped; the value it cut short is no row with "context canceled".
func TestStoppedSweepHasNoCancelledRow(t *testing.T) {
	st := panetest.State(t, "dataset:employees", "distribution")
	p := New(st)
	p.SetSize(80, 24)
	_, seq, _ := p.job.Start()
	p.of, p.table = st.Changes, st.Table
	rows := []pipeline.SweepRow{{Param: "fakes", Value: "0", Groups: 3}, {Param: "fakes", Value: "1", Error: context.Canceled.Error()}}
	p.Update(DoneMsg{seq: seq, rows: rows, figs: make([]sweepFigures, 2), err: context.Canceled})
	v := p.View()
	if len(p.rows) != 1 || strings.Contains(v, "context canceled") || !strings.Contains(v, "sweep stopped (ctrl+x)") {
		t.Fatalf("%d rows:\n%s", len(p.rows), v)
	}
}
