package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/algorithms/tour"
	"privlab/ui/common"
)

// tourApp is the workbench opened on a tour (privlab tour NAME) at w x h,
// settled: the steps computed, the first step's run on screen.
func tourApp(t *testing.T, name string, w, h int) *App {
	t.Helper()
	a := newWorkbench(testEnv, Options{Tour: name})
	a.debounceFor = 0
	if testKeys != nil {
		a.st.Keys = *testKeys
	}
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	settle(t, a, tea.Batch(a.schedule(), tourStepsCmd(a.st.Env, a.st.Tour.Tour)))
	if a.st.Tour == nil || a.st.Tour.Steps == nil || a.st.Result == nil {
		t.Fatalf("%s: the tour did not open (steps %v, error %v, run error %v)", name, a.st.Tour != nil, a.st.Tour.Err, a.st.RunErr)
	}
	return a
}

// TestGoldenTours: every tour's first and last screens at 80x24, the
// step above the live preview of the run it explains.
func TestGoldenTours(t *testing.T) {
	for _, name := range tour.Names() {
		a := tourApp(t, name, 80, 24)
		t.Run(name+" first", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(a.View())) })
		for range a.st.Tour.Steps[1:] {
			press(t, a, "n")
		}
		t.Run(name+" last", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(a.View())) })
	}
}

// TestTourStepsLoadTheirSetups: stepping loads each step's table,
// method, variant and values (kja's step 3 moves to the seven points with
// Figure 2's given grouping, and back), esc leaves the tour with the
// settings as they are, and ctrl+t opens the list from any pane, enter
// starting a tour.
func TestTourStepsLoadTheirSetups(t *testing.T) {
	a := tourApp(t, "kja", 80, 24)
	p := a.st.Project
	if p.Input != "dataset:kja-fig3" || p.Method != "kja" || p.Variant != "mondrian" || p.Params["split"] != "round-robin" || a.active != common.PaneTour {
		t.Fatalf("the tour opens on %+v (pane %d)", p, a.active)
	}
	press(t, a, "n", "n")
	settle(t, a, a.schedule())
	p = a.st.Project
	if a.st.Tour.Cur != 2 || p.Input != "dataset:kja-fig1" || p.Public != "dataset:kja-fig1-pd" || p.Params["grouping"] != "column:AT" {
		t.Fatalf("step 3 runs %+v", p)
	}
	if r := a.st.Result; r == nil || len(r.Groups) != 2 || a.st.Dirty {
		t.Fatalf("step 3's preview: %v groups, dirty %v; want Figure 2's two groups", r, a.st.Dirty)
	}
	press(t, a, "p", "p")
	if a.st.Tour.Cur != 0 || a.st.Project.Input != "dataset:kja-fig3" || a.st.Project.Public != "" {
		t.Fatalf("back at step 1: %+v", a.st.Project)
	}
	// Settings changed elsewhere are the preview's until enter brings
	// back the step's; the rule above the preview says whose they are.
	a.st.SetParam("k", "4")
	settle(t, a, a.schedule())
	if !strings.Contains(a.View(), "live preview of your settings") {
		t.Fatal("the tour does not say the preview shows other settings than the step's")
	}
	press(t, a, "enter")
	settle(t, a, a.schedule())
	if a.st.Project.Params["k"] != "3" || !strings.Contains(a.View(), "live preview: kja-fig3 · kja/mondrian") {
		t.Fatalf("enter: k = %s", a.st.Project.Params["k"])
	}
	press(t, a, "esc")
	if a.st.Tour != nil || a.active != common.PanePreview || a.st.Project.Input != "dataset:kja-fig3" {
		t.Fatalf("esc: tour %v, pane %d, input %s", a.st.Tour, a.active, a.st.Project.Input)
	}
	press(t, a, "1", "ctrl+t")
	d, ok := a.dialog.(*tourDialog)
	if !ok {
		t.Fatalf("ctrl+t opened %T", a.dialog)
	}
	for i := 0; i < len(d.list) && d.list[d.cursor].Name != "ambiguity"; i++ {
		press(t, a, "down")
	}
	press(t, a, "enter")
	settle(t, a, a.schedule())
	if a.st.Tour == nil || a.st.Tour.Tour.Name != "ambiguity" || a.active != common.PaneTour || a.st.Project.Params["grouping"] != "column:gender" {
		t.Fatalf("enter opened %v on pane %d with %+v", a.st.Tour, a.active, a.st.Project)
	}
}

// TestExampleDatasetTakesItsMethod (issue 24): ctrl+l on a paper's
// worked example opens it under its own method with the paper's
// settings, and says so, instead of running it under the current method:
// employees under kja was an error.
func TestExampleDatasetTakesItsMethod(t *testing.T) {
	a := ready(t, "dataset:census", 80, 24)
	a.st.SetMethod("kja")
	settle(t, a, a.schedule())
	press(t, a, "ctrl+l", "y") // the method switch is an unsaved change
	pick(t, a.dialog.(*datasetDialog), "employees")
	press(t, a, "enter")
	settle(t, a, a.schedule())
	p := a.st.Project
	if p.Method != "distribution" || p.Params["grouping"] != "level:zipcode=2" || p.Params["target"] != "uniform" || a.st.RunErr != nil {
		t.Fatalf("employees opened as %+v (run error %v)", p, a.st.RunErr)
	}
	if !strings.Contains(a.st.Status, "switched from kja to distribution with the paper's settings") {
		t.Fatalf("status %q", a.st.Status)
	}
	if r := a.st.Result; r == nil || len(r.Groups) != 3 {
		t.Fatalf("employees: %v, want Figure 2's three groups", r)
	}
	// A dataset that is no paper's example keeps the method.
	press(t, a, "ctrl+l", "y")
	pick(t, a.dialog.(*datasetDialog), "census")
	press(t, a, "enter")
	if a.st.Project.Method != "distribution" || a.st.Project.Input != "dataset:census" {
		t.Fatalf("census opened as %+v", a.st.Project)
	}
}

// pick moves the dataset dialog's cursor to a dataset.
func pick(t *testing.T, d *datasetDialog, name string) {
	t.Helper()
	for i, ds := range d.list {
		if ds.Name == name {
			d.cursor = i
			return
		}
	}
	t.Fatalf("the dataset dialog does not list %s", name)
}

// TestZeroOpensTheTourTab: the tour's tab is tenth when the method draws
// charts, out of reach of 1-9 (1 then 0 landed in Data): 0 opens it,
// and the tab bar labels it 0 (issue 35.10).
func TestZeroOpensTheTourTab(t *testing.T) {
	a := tourApp(t, "lossyjoin", 120, 34)
	if vis := a.visible(); len(vis) != 10 || vis[9] != common.PaneTour {
		t.Fatalf("visible panes %v, want the tour tenth", vis)
	}
	press(t, a, "1")
	if a.active != common.PaneData {
		t.Fatalf("1 opened pane %d", a.active)
	}
	press(t, a, "0")
	if a.active != common.PaneTour {
		t.Errorf("0 opened pane %d, want the tour's", a.active)
	}
	tabs := ansi.Strip(a.tabsView(120))
	if !strings.Contains(tabs, "9 Compare") || !strings.Contains(tabs, "0 Tour") || strings.Contains(tabs, "10 Tour") {
		t.Errorf("tab bar %q, want 9 Compare and 0 Tour", tabs)
	}
	a.st.Tour = nil
	press(t, a, "1", "0")
	if a.active != common.PaneData {
		t.Errorf("0 without a tour opened pane %d", a.active)
	}
}
