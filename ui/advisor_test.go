package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/panes/advisor"
)

// drive delivers the advisor's messages (and the workbench's) until
// nothing is left: a computation's points arrive one message at a time.
func drive(t *testing.T, a *App, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 5000; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := runWithTimeout(t, c).(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
		case advisor.PointMsg, advisor.DoneMsg, advisor.AdoptMsg:
			_, next := a.Update(m)
			queue = append(queue, next)
		default:
			settle(t, a, func() tea.Msg { return m })
		}
	}
}

// pressDriving presses one key and delivers what follows, the advisor's
// messages among them.
func pressDriving(t *testing.T, a *App, k string) {
	t.Helper()
	msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	if k == "enter" {
		msg = tea.KeyMsg{Type: tea.KeyEnter}
	}
	if r, ok := renamedPress[msg.String()]; ok {
		msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} // the key as renamed
	}
	_, cmd := a.Update(msg)
	drive(t, a, cmd)
}

// TestAdvisorMapsAdoptsSavesAndGoesStale: the Advisor tab (A) computes
// the map over every method's grid (r), keeps it in the project, enter
// adopts the selected front point (method and values set, the seed
// kept), the project file saves the map, and a change of the QIs marks
// it stale (issue 34.2).
func TestAdvisorMapsAdoptsSavesAndGoesStale(t *testing.T) {
	a := newApp(testEnv, pipeline.Project{Input: "dataset:census", Rows: 400, Method: "distribution",
		Params: model.Values{model.SeedParam.Name: "7"}})
	a.st.Now, a.st.ShowPath = fixedClock, relToCwd
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
	settle(t, a, a.schedule())
	if a.st.Result == nil {
		t.Fatalf("no result: %v %v", a.st.LoadErr, a.st.RunErr)
	}
	press(t, a, "A")
	if a.active != common.PaneAdvisor {
		t.Fatalf("A opened pane %d, want the advisor's", a.active)
	}
	pressDriving(t, a, "r")
	saved := a.st.Project.Advisor
	if saved == nil || len(saved.Points) == 0 {
		t.Fatalf("no map kept in the project after r: %+v", saved)
	}
	if saved.Stale(a.st.Project) {
		t.Fatal("a map just computed is stale")
	}
	front := 0
	for _, p := range saved.Points {
		if p.Front {
			front++
		}
	}
	if front == 0 {
		t.Fatalf("no point on the front among %d", len(saved.Points))
	}
	if !a.st.Dirty {
		t.Error("a new map is an unsaved change of the project")
	}
	view := a.View()
	if !strings.Contains(view, "A Advisor") {
		t.Errorf("no Advisor tab:\n%s", view)
	}

	pressDriving(t, a, "enter")
	m := a.st.Project.Advisor
	pt, ok := m.AdoptedPoint()
	if !ok || !pt.Front {
		t.Fatalf("enter adopted no front point: %+v", m.Adopted)
	}
	if a.st.Project.Method != pt.Method {
		t.Errorf("adopted %s, the project runs %s", pt.Method, a.st.Project.Method)
	}
	for name, v := range pt.Params {
		if name == "variant" {
			if a.st.Project.Variant != v {
				t.Errorf("variant %q, adopted %q", a.st.Project.Variant, v)
			}
			continue
		}
		if got := a.st.Project.Params[name]; got != v {
			t.Errorf("%s = %q, adopted %q", name, got, v)
		}
	}
	if got := a.st.Project.Params[model.SeedParam.Name]; got != "7" {
		t.Errorf("adopting changed the seed to %q: the map would be stale", got)
	}
	if m.Stale(a.st.Project) {
		t.Error("adopting a point made the map stale")
	}

	path := filepath.Join(t.TempDir(), "p.json")
	if err := a.st.save(path); err != nil {
		t.Fatal(err)
	}
	back, err := pipeline.LoadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Advisor == nil || len(back.Advisor.Points) != len(m.Points) || back.Advisor.Adopted == nil || *back.Advisor.Adopted != *m.Adopted {
		t.Fatalf("the saved project lost the map or its adopted point: %+v", back.Advisor)
	}

	// Another QI: the map no longer describes these settings.
	qi := a.st.Project.Roles.QIs[0]
	a.st.ToggleQI(qi)
	a.refreshAll()
	if v := a.View(); !strings.Contains(strings.ToLower(v), "stale") {
		t.Errorf("the map is not marked stale after the QIs changed:\n%s", v)
	}
}

// TestAdvisorUnseededMapSavedCurrent: a project with no seed (the
// workbench's default) computes its map with the advisor's seed;
// adopting a point fixes that seed, so the release made from it has the
// point's figures, and the map saved and opened again is still current
// (the file writes an unset seed as "random", and the map came back
// stale, so an export after reopening left it out).
func TestAdvisorUnseededMapSavedCurrent(t *testing.T) {
	a := newApp(testEnv, pipeline.Project{Input: "dataset:census", Rows: 300, Method: "kja"})
	a.st.Now, a.st.ShowPath = fixedClock, relToCwd
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
	settle(t, a, a.schedule())
	if s := a.st.Project.Params[model.SeedParam.Name]; s != "" {
		t.Fatalf("the project starts with seed %q, want none", s)
	}
	press(t, a, "A")
	pressDriving(t, a, "r")
	pressDriving(t, a, "enter")
	m := a.st.Project.Advisor
	if _, ok := m.AdoptedPoint(); !ok {
		t.Fatal("enter adopted no point")
	}
	if got := a.st.Project.Params[model.SeedParam.Name]; got != pipeline.AdvisorSeed {
		t.Errorf("the adopted point's seed is %q, want %q, the seed its figures were made with", got, pipeline.AdvisorSeed)
	}
	if m.Stale(a.st.Project) {
		t.Error("adopting a point made the map stale")
	}
	path := filepath.Join(t.TempDir(), "p.json")
	if err := a.st.save(path); err != nil {
		t.Fatal(err)
	}
	back, err := pipeline.LoadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Advisor == nil || back.Advisor.Stale(back) {
		t.Errorf("the map saved with the project comes back stale (seed %q)", back.Params[model.SeedParam.Name])
	}
}

// TestAdvisorCancelledRecomputeNotStale: on a stale map, r recomputes
// for the settings as they are and esc cancels it; the points shown are
// then the cancelled computation's, of the current settings, so the
// status says it was cancelled (it said the map was stale, as the
// project's saved map, no longer shown, is).
func TestAdvisorCancelledRecomputeNotStale(t *testing.T) {
	a := newApp(testEnv, pipeline.Project{Input: "dataset:census", Rows: 300, Method: "kja"})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 34})
	settle(t, a, a.schedule())
	press(t, a, "A")
	pressDriving(t, a, "r")
	a.st.ToggleQI(a.st.Project.Roles.QIs[0])
	a.refreshAll()
	if v := a.View(); !strings.Contains(v, "STALE") {
		t.Fatalf("the map is not stale after the QIs changed:\n%s", v)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}) // the computation's command not run: it stays under way
	press(t, a, "esc")
	a.refreshAll()
	v := a.View()
	if !strings.Contains(v, "cancelled before the first point") || strings.Contains(v, "STALE") {
		t.Errorf("after esc the status is not the cancel's:\n%s", v)
	}
	a.st.ToggleQI(a.st.Project.Roles.QIs[0])
	a.refreshAll()
	if v := a.View(); !strings.Contains(v, "STALE") {
		t.Errorf("the cancelled points are not stale after the QIs changed again:\n%s", v)
	}
}
