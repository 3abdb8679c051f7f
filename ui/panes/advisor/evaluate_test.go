package advisor

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/advise"
	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/model"
)

// TestRealEvaluate runs advise.Evaluate on the embedded census demo (600
// rows, seed 3, the first and last point of each method's default grid)
// through the pane, as the app would: the points come back one message
// at a time on the pane's commands, and the finished map is Evaluate's
// own, front and all.
func TestRealEvaluate(t *testing.T) {
	env := pipeline.Env{Datasets: datasets.Catalog{}}
	p := env.WithDefaults(pipeline.Project{Input: "dataset:census", Rows: 600, Params: model.Values{"seed": "3"}})
	tab, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	all, err := advise.Settings(nil, nil, tab, p.Roles, false)
	if err != nil {
		t.Fatal(err)
	}
	var settings []advise.Setting
	for _, name := range catalog.Names() {
		var own []advise.Setting
		for _, s := range all {
			if s.Method == name {
				own = append(own, s)
			}
		}
		settings = append(settings, own[0], own[len(own)-1])
	}
	want, err := advise.Evaluate(context.Background(), env, p, tab, settings, advise.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(func(ctx context.Context, each func(int, int, int, advise.Point)) error {
		_, err := advise.Evaluate(ctx, env, p, tab, settings, advise.Options{Each: each})
		return err
	}, DefaultStyles())
	m.SetSize(120, 34)
	m, cmd := m.Update(press("r"))
	messages := 0
	for cmd != nil {
		var msg tea.Msg
		if msg = cmd(); msg == nil {
			break
		}
		messages++
		m, cmd = m.Update(msg)
	}
	if messages != len(settings)+1 || m.Running() {
		t.Fatalf("%d messages for %d points; running %v\n%s", messages, len(settings), m.Running(), m.View())
	}
	got, complete := m.Points()
	if !complete || len(got) != len(want) {
		t.Fatalf("complete %v, %d points of %d", complete, len(got), len(want))
	}
	front := 0
	for i := range want {
		if got[i].String() != want[i].String() || got[i].Risk != want[i].Risk || got[i].Loss != want[i].Loss || got[i].Front != want[i].Front {
			t.Errorf("point %d: pane %v (%v, %v, front %v), Evaluate %v (%v, %v, front %v)", i, got[i], got[i].Risk, got[i].Loss, got[i].Front,
				want[i], want[i].Risk, want[i].Loss, want[i].Front)
		}
		if want[i].Front {
			front++
		}
	}
	if v := m.View(); !strings.Contains(v, "10 points, ") || !strings.Contains(v, "On the front (1 of ") {
		t.Errorf("the finished map:\n%s", v)
	}
	// Saved in the project and shown again (a reopened project), the map
	// reads the same.
	p.Advisor = advise.SavedMap(p, advise.RiskWorst, got, m.Adopted())
	saved, adopted := advise.SavedPoints(p.Advisor)
	again := New(nil, DefaultStyles())
	again.SetSize(120, 34)
	again.SetMap(saved, adopted, p.Advisor.Stale(p))
	if again.View() != m.View() {
		t.Errorf("the saved map reads otherwise:\n%s\n%s", again.View(), m.View())
	}
	t.Logf("%d on the front\n%s", front, m.View())
}

// TestEvaluateRun: the workbench's Run computes every method's default
// grid on a snapshot of the project: a change to the project after it
// was made does not reach it (the figures are those of the project as
// it was).
func TestEvaluateRun(t *testing.T) {
	env := pipeline.Env{Datasets: datasets.Catalog{}}
	p := env.WithDefaults(pipeline.Project{Input: "dataset:census", Rows: 300, Params: model.Values{"seed": "3"}})
	tab, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	orig := p.Clone()
	run := EvaluateRun(env, p, tab, []string{"kja"}, advise.Options{})
	p.Roles.QIs[1] = "sex" // after the snapshot, in the slice it shared
	settings, err := advise.Settings([]string{"kja"}, nil, tab, orig.Roles, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := advise.Evaluate(context.Background(), env, orig, tab, settings, advise.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = run(context.Background(), func(done, total, at int, pt advise.Point) {
		n++
		if total != len(want) || pt.String() != want[at].String() || pt.Risk != want[at].Risk || pt.Loss != want[at].Loss {
			t.Errorf("point %d of %d: %v (%v, %v), want %v (%v, %v)", at, total, pt, pt.Risk, pt.Loss, want[at], want[at].Risk, want[at].Loss)
		}
	})
	if err != nil || n != len(want) {
		t.Errorf("%d points of %d: %v", n, len(want), err)
	}
}
