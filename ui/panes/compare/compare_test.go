package compare

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/compare -update

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// stateOn is the workbench's state on input under method, its run times
// 0 ms so screens are stable.
func stateOn(t *testing.T, input, method string) *common.State {
	t.Helper()
	st := panetest.State(t, input, method)
	st.Now = func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	return st
}

// run presses enter and lands the comparison it starts.
func run(t *testing.T, p *Model) {
	t.Helper()
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter started no comparison")
	}
	p.Update(cmd())
}

// TestGoldenSizes: the pane before the comparison, then every method's
// column, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(stateOn(t, "dataset:employees", "distribution"))
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "empty_"+size.Name, p.View())
			run(t, p)
			panetest.Golden(t, "compared_"+size.Name, p.View())
		})
	}
}

// TestComparesEveryMethodAndStops: + and - set k, enter runs every
// method without an error, and a comparison in flight stops when the
// panes are told to (ctrl+x), saying so.
func TestComparesEveryMethodAndStops(t *testing.T) {
	p := New(stateOn(t, "dataset:employees", "distribution"))
	p.SetSize(80, 24)
	for _, k := range []string{"+", "+", "-"} {
		p.Update(panetest.Runes(k))
	}
	if p.k != 11 {
		t.Fatalf("k %d, want 11", p.k)
	}
	run(t, p)
	if p.job.Busy || p.err != nil || len(p.rows) != len(catalog.All()) {
		t.Fatalf("busy %v err %v rows %d", p.job.Busy, p.err, len(p.rows))
	}
	for _, r := range p.rows {
		if r.Err != "" {
			t.Errorf("%s: %s", r.Method, r.Err)
		}
	}
	cmd := p.Update(panetest.Runes("r"))
	if !p.job.Busy || cmd == nil {
		t.Fatal("r did not start a comparison")
	}
	p.Update(common.CancelJobMsg{})
	p.Update(cmd())
	if p.job.Busy || p.err == nil || !strings.Contains(p.err.Error(), "stopped") {
		t.Fatalf("after ctrl+x: busy %v err %v", p.job.Busy, p.err)
	}
}

// TestBrokenBoundIsBestAndMarked: on Wang's patients with the patients
// as the population, ambiguity's membership bound breaks (people
// certainly present against alpha = 0.5): its cell is the best of the
// line, the people it finds, marked broken (TestCompareCell: in the
// error colour). The ui's TestGoldenCompareBrokenBound draws it.
func TestBrokenBoundIsBestAndMarked(t *testing.T) {
	st := stateOn(t, "dataset:patients", "ambiguity")
	st.Project.Population = "dataset:patients"
	st.Project.Roles = model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"}
	st.Project.Params["seed"] = "1"
	p := New(st)
	p.k = 2 // every method runs on the 8 patients
	run(t, p)
	var membership *pipeline.CompareLine
	lines := pipeline.CompareLines(p.rows)
	for i := range lines {
		if lines[i].Name == "attack: membership" {
			membership = &lines[i]
		}
	}
	if membership == nil {
		t.Fatalf("no membership line: %v", p.err)
	}
	found := false
	for i, r := range p.rows {
		if r.Method != "ambiguity" {
			continue
		}
		found = true
		f, err := method.AttackNamed(r.Attacks.Findings, "membership")
		if err != nil || f.Holds() != 0 || membership.Text[i] != fmt.Sprintf("✗ %d", f.Records) || !membership.Best[i] {
			t.Errorf("ambiguity's membership: %+v; cell %q, best %v", f, membership.Text[i], membership.Best[i])
		}
	}
	if !found {
		t.Error("ambiguity has no column")
	}
}

// TestLineNamesWidenWithTheTerminal: at 200 columns no line of the
// comparison has its name cut.
func TestLineNamesWidenWithTheTerminal(t *testing.T) {
	st := stateOn(t, "dataset:census", "ambiguity")
	rows, err := pipeline.Compare(context.Background(), st.Env, st.Project, st.Table,
		pipeline.CompareOptions{K: 10, Workload: workload.Options{Queries: 5, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p := New(st)
	p.rows = rows
	p.SetSize(200, 40)
	v := p.View()
	for _, l := range pipeline.CompareLines(rows) {
		if !strings.Contains(v, l.Name) {
			t.Errorf("the comparison's line %q is cut at 200 columns:\n%s", l.Name, v)
		}
	}
}

// TestCompareCell: the best of a line is marked * in the OK colour, and
// a broken bound keeps the error colour even as the best of its line
// (the OK colour hid it).
func TestCompareCell(t *testing.T) {
	s := *common.DefaultStyles()
	s.OK = lipgloss.NewStyle().Transform(func(x string) string { return "OK<" + x + ">" })
	s.Error = lipgloss.NewStyle().Transform(func(x string) string { return "ERR<" + x + ">" })
	for _, c := range []struct {
		text string
		best bool
		want string
	}{
		{"✗ 6", true, "ERR<✗ 6*  >"},
		{"✗ 6", false, "ERR<✗ 6   >"},
		{"✓ 0", true, "OK<✓ 0*  >"},
		{"8", false, "8     "},
	} {
		if got := compareCell(&s, c.text, c.best, 6); got != c.want {
			t.Errorf("compareCell(%q, %v) = %q, want %q", c.text, c.best, got, c.want)
		}
	}
}
