package ui

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/components"
	"privlab/ui/panes/compare"
	"privlab/ui/panes/export"
	"privlab/ui/panes/query"
	"privlab/ui/panes/sweep"
)

func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
}

var testEnv = pipeline.Env{Datasets: datasets.Catalog{}}

// fixedClock makes run times 0 ms so screens are stable.
func fixedClock() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

func newTestApp(input string) *App {
	a := newApp(testEnv, pipeline.Project{Input: input, Method: "distribution"})
	a.st.Now = fixedClock
	a.st.ShowPath = relToCwd
	return a
}

// relToCwd shows a path relative to the working directory (the test's
// folder), so that screens do not depend on where the tests run.
func relToCwd(path string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// newApp is NewApp for tests that step through keys one by one: nothing
// to coalesce, so no debounce is slept (TestLoneChangeRunsAtOnce tests
// the debounce).
func newApp(env pipeline.Env, p pipeline.Project) *App {
	a := NewApp(env, p)
	a.debounceFor = 0
	if testKeys != nil {
		a.st.Keys = *testKeys
	}
	return a
}

// settle runs the app's commands synchronously until it is idle: the
// table loads and the preview computes. Only the workbench's own messages
// are delivered; spinner and cursor ticks are dropped so nothing loops.
func settle(t *testing.T, a *App, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 500; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := runWithTimeout(t, c).(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
		case loadedMsg, debounceMsg, resultMsg, workloadMsg, riskMsg, attackMsg, togetherMsg, deferredMsg, compare.DoneMsg, query.AnswerMsg, export.DoneMsg, sweep.DoneMsg,
			openDialogMsg, openReleaseMsg, releaseOpenedMsg, common.ShowPaneMsg, common.PickFileMsg, common.NamePopulationMsg, openTourMsg, tourStepsMsg:
			_, next := a.Update(m)
			queue = append(queue, next)
		}
	}
}

func runWithTimeout(t *testing.T, c tea.Cmd) tea.Msg {
	t.Helper()
	done := make(chan tea.Msg, 1)
	go func() { done <- c() }()
	select {
	case m := <-done:
		return m
	case <-time.After(20 * time.Second):
		t.Fatal("a command did not finish")
	}
	return nil
}

func ready(t *testing.T, input string, w, h int) *App {
	t.Helper()
	a := newTestApp(input)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	settle(t, a, a.schedule())
	if a.st.Result == nil && a.st.LoadErr == nil && a.st.RunErr == nil {
		t.Fatal("no result after settling")
	}
	return a
}

// flatView is the screen without styles, each run of spaces and line
// breaks one space, so a check finds text a pane wrapped.
func flatView(a *App) string { return strings.Join(strings.Fields(ansi.Strip(a.View())), " ") }

func press(t *testing.T, a *App, keys ...string) {
	t.Helper()
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "tab":
			msg = tea.KeyMsg{Type: tea.KeyTab}
		case "up":
			msg = tea.KeyMsg{Type: tea.KeyUp}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "left":
			msg = tea.KeyMsg{Type: tea.KeyLeft}
		case "right":
			msg = tea.KeyMsg{Type: tea.KeyRight}
		case "space":
			msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
		case "ctrl+c":
			msg = tea.KeyMsg{Type: tea.KeyCtrlC}
		case "ctrl+x":
			msg = tea.KeyMsg{Type: tea.KeyCtrlX}
		case "ctrl+r":
			msg = tea.KeyMsg{Type: tea.KeyCtrlR}
		case "ctrl+l":
			msg = tea.KeyMsg{Type: tea.KeyCtrlL}
		case "ctrl+t":
			msg = tea.KeyMsg{Type: tea.KeyCtrlT}
		case "ctrl+s":
			msg = tea.KeyMsg{Type: tea.KeyCtrlS}
		case "ctrl+o":
			msg = tea.KeyMsg{Type: tea.KeyCtrlO}
		case "ctrl+u":
			msg = tea.KeyMsg{Type: tea.KeyCtrlU}
		case "home":
			msg = tea.KeyMsg{Type: tea.KeyHome}
		case "pgdown":
			msg = tea.KeyMsg{Type: tea.KeyPgDown}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		if r, ok := renamedPress[msg.String()]; ok {
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} // the key as renamed
		}
		_, cmd := a.Update(msg)
		settle(t, a, cmd)
	}
}

func TestStaleResultIsDropped(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	before := a.st.Result
	// A result computed for an older change arrives late.
	_, _ = a.Update(resultMsg{seq: a.runSeq - 1, res: nil, err: context.Canceled})
	if a.st.Result != before || a.st.RunErr != nil {
		t.Fatal("a stale result replaced the current one")
	}
	// The current sequence number is accepted.
	a.Update(resultMsg{seq: a.runSeq, res: before})
	if a.st.Result != before {
		t.Fatal("the current result was not kept")
	}
}

// A run that ends in an error releases its context (it used to drop the
// cancel function, leaving the context live: go vet's lostcancel).
func TestFailedRunReleasesItsContext(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Changed()
	a.schedule()
	a.startRun()
	ctx := a.runCtx
	a.Update(resultMsg{seq: a.runSeq, changes: a.st.Changes, err: errors.New("no such parameter")})
	if ctx.Err() == nil || a.cancel != nil {
		t.Fatalf("the failed run's context is still live (err %v)", ctx.Err())
	}
}

func TestNewerChangeCancelsRunningComputation(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Changed()
	debounce := a.schedule() // debounce tick for run n
	if debounce == nil {
		t.Fatal("a change scheduled nothing")
	}
	cmd := a.startRun() // the run starts
	first := a.runCtx
	if first == nil || first.Err() != nil {
		t.Fatal("the run has no live context")
	}
	firstSeq := a.runSeq
	// Another key press before it finishes.
	a.st.Changed()
	a.schedule()
	if first.Err() == nil {
		t.Fatal("the newer change did not cancel the running computation")
	}
	// The superseded run's result is dropped when it arrives.
	msg := runWithTimeout(t, cmd)
	if rm, ok := msg.(resultMsg); !ok || rm.seq != firstSeq {
		t.Fatalf("unexpected message %T", msg)
	}
	prev := a.st.Result
	a.Update(msg)
	if a.st.Result != prev {
		t.Fatal("the cancelled run's result was applied")
	}
	if !a.st.Running {
		t.Fatal("the newer run should still be pending")
	}
}

func TestKeysNeverWaitForComputation(t *testing.T) {
	a := ready(t, "dataset:census", 80, 24)
	// Change a parameter: Update must return at once with a command and
	// not run the method itself.
	press(t, a, "4")
	start := time.Now()
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
	if time.Since(start) > time.Second || cmd == nil {
		t.Fatal("a key press blocked or scheduled nothing")
	}
	if !a.st.Running {
		t.Fatal("the recompute was not marked as running")
	}
}

func TestViewFitsEveryPaneAt80x24AndAfterResize(t *testing.T) {
	a := ready(t, "dataset:census", 80, 24)
	check := func(w, h int) {
		for i := 0; i < common.LastPane; i++ {
			a.active = i
			v := a.View()
			lines := strings.Split(v, "\n")
			if len(lines) != h {
				t.Fatalf("pane %d at %dx%d: %d lines", i+1, w, h, len(lines))
			}
			for n, l := range lines {
				if lipgloss.Width(l) > w {
					t.Fatalf("pane %d at %dx%d: line %d is %d cells wide: %q", i+1, w, h, n+1, lipgloss.Width(l), l)
				}
			}
		}
	}
	check(80, 24)
	a.Update(tea.WindowSizeMsg{Width: 132, Height: 40})
	check(132, 40)
	a.Update(tea.WindowSizeMsg{Width: 60, Height: 18})
	check(60, 18)
}

func TestDataPaneAssignsRoles(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "1")
	// employees: name, zipcode, gender, salary; make gender insensitive
	// and name a QI, then set salary as SA again.
	press(t, a, "down", "down", "n")
	if slices.Contains(a.st.Project.Roles.QIs, "gender") {
		t.Fatal("n did not clear gender's role")
	}
	press(t, a, "up", "up", "space")
	if !slices.Contains(a.st.Project.Roles.QIs, "name") {
		t.Fatal("space did not make name a QI")
	}
	press(t, a, "down", "a")
	if a.st.Project.Roles.SA != "zipcode" {
		t.Fatalf("a did not set the SA: %q", a.st.Project.Roles.SA)
	}
	if !a.st.Dirty {
		t.Fatal("role changes should mark the project dirty")
	}
}

func TestParamsPaneRefusesInvalidValueInline(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "4")
	// move to "fakes" and type an invalid value
	if !selectParam(a, func(par model.ParamSpec) bool { return par.Name == "fakes" }) {
		t.Fatal("employees' method has no parameter fakes")
	}
	press(t, a, "enter", "ctrl+u", "-3", "enter")
	if v := a.View(); !a.panes[common.PaneMethod].capturing() || !strings.Contains(v, "parameter fakes") {
		t.Fatalf("invalid value accepted or no reason shown: editing=%v\n%s", a.panes[common.PaneMethod].capturing(), v)
	}
	if !strings.Contains(a.View(), "refused: parameter fakes") {
		t.Fatal("the refusal is not on screen")
	}
	if a.st.Value("fakes") != "0" {
		t.Fatalf("fakes changed to %q", a.st.Value("fakes"))
	}
	press(t, a, "ctrl+u", "2", "enter")
	if a.panes[common.PaneMethod].capturing() || a.st.Value("fakes") != "2" || a.st.Result == nil {
		t.Fatal("a valid value was not applied")
	}
	for _, g := range a.st.Result.Groups {
		if g.Figures[2] > 2 {
			t.Fatalf("group %d uses %v fakes with a budget of 2", g.ID, g.Figures[2])
		}
	}
}

func TestQuitAsksWithUnexportedChanges(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Dirty = false
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if cmd == nil || !a.quit {
		t.Fatal("q without changes should quit")
	}
	b := ready(t, "dataset:employees", 80, 24)
	press(t, b, "4", "+")
	b.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if b.quit || b.dialog == nil || !strings.Contains(b.View(), "Quit anyway?") {
		t.Fatal("q with changes should ask")
	}
	b.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	if b.quit || b.dialog != nil {
		t.Fatal("n should keep the workbench open")
	}
	b.Update(tea.KeyMsg{Type: tea.KeyCtrlC})
	b.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if !b.quit {
		t.Fatal("y should quit")
	}
}

func TestBadFileShowsErrorWithLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.csv")
	os.WriteFile(path, []byte("a,b\n1,2\n3\n"), 0o644)
	a := ready(t, path, 80, 24)
	v := a.View()
	if !strings.Contains(v, "bad.csv:3: column 2 (b): ragged") {
		t.Fatalf("the load error is not shown with file:line:\n%s", v)
	}
}

func TestExportWritesAVerifiedRelease(t *testing.T) {
	dir := t.TempDir()
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "7", "e", "ctrl+u", filepath.Join(dir, "rel"), "enter", "enter")
	if v := a.View(); !strings.Contains(v, "✓ wrote") || strings.Contains(v, "✗") {
		t.Fatalf("export failed:\n%s", v)
	}
	rep, err := pipeline.Check(filepath.Join(dir, "rel"), a.st.Prep.Table, nil)
	if err != nil || !rep.OK() {
		t.Fatalf("the exported release fails check: %v %v", err, rep)
	}
	if a.st.Dirty {
		t.Fatal("export should clear the unexported-changes flag")
	}
	// Exporting again asks before replacing.
	press(t, a, "enter")
	if v := a.View(); !strings.Contains(v, "exists: replace it?") {
		t.Fatalf("no confirmation before replacing:\n%s", v)
	}
	press(t, a, "n")
	if v := a.View(); strings.Contains(v, "exists: replace it?") || a.st.Status != "export cancelled" {
		t.Fatalf("n should cancel (status %q):\n%s", a.st.Status, v)
	}
}

func TestQueryPaneAnswersAndRecallsHistory(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Project.Params["grouping"] = "level:zipcode=2"
	a.st.Project.Params["target"] = "uniform"
	a.st.Changed()
	settle(t, a, a.schedule())
	press(t, a, "6", "enter")
	press(t, a, "ctrl+u", "AVG(salary) WHERE gender = 'F'", "enter")
	if v := a.View(); strings.Count(v, "> AVG(salary) WHERE gender = 'F'") != 1 {
		t.Fatalf("no answer:\n%s", v)
	}
	if !strings.Contains(a.View(), "release [35000, 55000]") {
		t.Fatalf("Figure 2 query bounds not shown:\n%s", a.View())
	}
	// up recalls the query: enter asks it again.
	press(t, a, "up", "enter")
	if v := a.View(); strings.Count(v, "> AVG(salary) WHERE gender = 'F'") != 2 {
		t.Fatalf("history recall did not ask the query again:\n%s", v)
	}
	press(t, a, "ctrl+u", "AVG(salary) WHERE gender BETWEN 1 AND 2", "enter")
	if !strings.Contains(a.View(), "query:1:26") {
		t.Fatal("parse error position not shown")
	}
}

// selectSweepParam moves the Sweep pane's selection down to the
// parameter named name.
func selectSweepParam(t *testing.T, a *App, name string) {
	t.Helper()
	selected := regexp.MustCompile(`▸ ` + regexp.QuoteMeta(name) + `\s`)
	for range 20 {
		if selected.MatchString(ansi.Strip(a.View())) {
			return
		}
		press(t, a, "down")
	}
	t.Fatalf("the Sweep pane has no parameter %s:\n%s", name, a.View())
}

// TestSweepPaneComparesValues: the values of fakes typed and swept give
// a line per value and the charts (sweep's TestSweepOfFakes holds the
// figures).
func TestSweepPaneComparesValues(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "8")
	selectSweepParam(t, a, "fakes")
	press(t, a, "e", "ctrl+u", "0,1,2", "enter", "enter")
	table := regexp.MustCompile(`(?m)^fakes +groups +viol.*\n0 .*\n1 .*\n2 `)
	if v := ansi.Strip(a.View()); !table.MatchString(v) || strings.Contains(v, "✗") {
		t.Fatalf("sweep: no line per value:\n%s", v)
	}
	v := a.View()
	if !strings.Contains(v, "workload error vs fakes") || !strings.Contains(v, "posterior deviation (max)") || !strings.Contains(v, "●") {
		t.Fatalf("sweep chart missing:\n%s", v)
	}
}

func TestExportRefusesAfterAFailedChange(t *testing.T) {
	dir := t.TempDir()
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Project.Params["grouping"] = "column:nosuch" // valid syntax, fails when run
	a.st.Changed()
	settle(t, a, a.schedule())
	if a.st.RunErr == nil || a.st.Result == nil {
		t.Fatal("expected a failed recompute with the earlier preview still on screen")
	}
	press(t, a, "7", "e", "ctrl+u", filepath.Join(dir, "stale"), "enter", "enter")
	if _, err := os.Stat(filepath.Join(dir, "stale")); err == nil {
		t.Fatal("exported the previous settings' release after a failed change")
	}
	if !strings.Contains(flatView(a), "✗ not exported: the preview shows earlier settings; the last run failed: fix the error") ||
		!strings.Contains(a.View(), "not exported: the preview shows earlier settings") {
		t.Fatalf("not refused:\n%s", a.View())
	}
	// The error stays on the summary bar, and a status message does not
	// hide it; fixing the cause clears it.
	a.st.Notify("a passing note")
	if v := a.View(); !strings.Contains(v, "✗ parameter grouping") || !strings.Contains(v, "a passing note") {
		t.Fatalf("error or note missing:\n%s", v)
	}
	press(t, a, "!")
	if v := a.View(); !strings.Contains(v, "The error") || !strings.Contains(v, "What to do: set grouping in the Method pane (4)") {
		t.Fatalf("full error:\n%s", v)
	}
	press(t, a, "esc")
	a.st.SetParam("grouping", "sa-only")
	settle(t, a, a.schedule())
	if a.st.RunErr != nil || strings.Contains(a.View(), "✗ parameter grouping") || !a.st.Current() {
		t.Fatalf("the error did not clear when fixed:\n%s", a.View())
	}
	press(t, a, "7", "enter")
	if _, err := os.Stat(filepath.Join(dir, "stale")); err != nil {
		t.Fatalf("no export once the preview is current: %v\n%s", err, a.View())
	}
}

func TestCancelledRunIsStaleAndExportRefuses(t *testing.T) {
	dir := t.TempDir()
	a := ready(t, "dataset:employees", 80, 24)
	a.st.SetParam("fakes", "1")
	cmd := a.schedule() // the debounced run is pending
	_ = cmd
	press(t, a, "ctrl+x")
	if !a.st.Stale() || !a.st.Cancelled || a.st.Current() {
		t.Fatalf("stale %v cancelled %v current %v", a.st.Stale(), a.st.Cancelled, a.st.Current())
	}
	press(t, a, "5")
	if v := a.View(); !strings.Contains(v, "stale: earlier settings (ctrl+r)") || !strings.Contains(v, "⚠ stale: the last run cancelled") {
		t.Fatalf("preview not marked stale:\n%s", v)
	}
	press(t, a, "7", "e", "ctrl+u", filepath.Join(dir, "rel"), "enter", "enter")
	if _, err := os.Stat(filepath.Join(dir, "rel")); err == nil || !strings.Contains(flatView(a), "✗ not exported: the preview shows earlier settings; the last run was cancelled: ctrl+r recomputes") {
		t.Fatalf("export after cancel: %v\n%s", err, a.View())
	}
	press(t, a, "ctrl+r")
	settle(t, a, a.schedule())
	if !a.st.Current() || a.st.Value("fakes") != "1" {
		t.Fatalf("ctrl+r did not recompute: current %v", a.st.Current())
	}
	press(t, a, "enter")
	if _, err := os.Stat(filepath.Join(dir, "rel")); err != nil {
		t.Fatalf("export after recompute: %v\n%s", err, a.View())
	}
}

func TestQuitAndOpenAskBeforeDiscarding(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	a.st.SetParam("fakes", "1")
	settle(t, a, a.schedule())
	if !strings.Contains(a.View(), "● unsaved") {
		t.Fatal("no unsaved mark")
	}
	press(t, a, "ctrl+l")
	if _, ok := a.dialog.(*confirmDialog); !ok {
		t.Fatalf("ctrl+l with unsaved changes: dialog %T", a.dialog)
	}
	press(t, a, "y")
	if _, ok := a.dialog.(*datasetDialog); !ok {
		t.Fatalf("after yes: dialog %T", a.dialog)
	}
	press(t, a, "esc", "ctrl+c")
	if _, ok := a.dialog.(*confirmDialog); !ok || a.quit {
		t.Fatal("ctrl+c with unsaved changes did not ask")
	}
	press(t, a, "ctrl+c")
	if !a.quit {
		t.Fatal("a second ctrl+c did not quit")
	}
}

func TestSaveWritesBackToTheOpenedProject(t *testing.T) {
	dir := t.TempDir()
	a := ready(t, "dataset:employees", 80, 24)
	path := filepath.Join(dir, "p.json")
	press(t, a, "ctrl+s")
	d, ok := a.dialog.(*saveDialog)
	if !ok {
		t.Fatalf("first save: %T", a.dialog)
	}
	d.input.SetValue(path)
	press(t, a, "enter")
	a.st.SetParam("fakes", "2")
	press(t, a, "ctrl+s")
	if a.dialog != nil || a.st.Dirty {
		t.Fatalf("second save asked again: %T dirty %v", a.dialog, a.st.Dirty)
	}
	p, err := pipeline.LoadProject(path)
	if err != nil || p.Params["fakes"] != "2" {
		t.Fatalf("saved %v %v", p.Params, err)
	}
}

func TestQueryAnswersAreMarkedWhenSettingsChange(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "6", "enter")
	press(t, a, "ctrl+u", "COUNT(*)", "enter", "esc")
	if strings.Contains(a.View(), "earlier settings") {
		t.Fatal("a fresh answer is marked stale")
	}
	a.st.Project.Params["target"] = "table"
	a.st.Changed()
	settle(t, a, a.schedule())
	if !strings.Contains(a.View(), "(answered for earlier settings)") {
		t.Fatalf("an answer for earlier settings is not marked:\n%s", a.View())
	}
}

func TestKeyBurstIsSeveralPresses(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "4")
	if !selectParam(a, func(par model.ParamSpec) bool { return par.Name == "fakes" }) {
		t.Fatal("employees' method has no parameter fakes")
	}
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+++")})
	settle(t, a, cmd)
	if a.st.Value("fakes") != "3" {
		t.Fatalf("three + typed at once gave fakes %s, want 3", a.st.Value("fakes"))
	}
}

func TestSavedProjectDrivesRunConfigAndReopens(t *testing.T) {
	dir := t.TempDir()
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Project.Params["grouping"] = "level:zipcode=2"
	a.st.Project.Params["target"] = "uniform"
	a.st.Project.Params["fakes"] = "1"
	a.st.Changed()
	settle(t, a, a.schedule())
	a.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	d, ok := a.dialog.(*saveDialog)
	if !ok {
		t.Fatal("ctrl+s did not open the save dialog")
	}
	path := filepath.Join(dir, "project.json")
	d.input.SetValue(path)
	press(t, a, "enter")
	if a.dialog != nil || a.st.Dirty {
		t.Fatal("saving did not close the dialog or clear the changes flag")
	}
	p, err := pipeline.LoadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Params["grouping"] != "level:zipcode=2" || p.Params["fakes"] != "1" || p.Roles.SA != "salary" {
		t.Fatalf("saved project: %+v", p)
	}
	// The command line reads the same file: ui/cli/testdata/config.txtar.
	// The workbench reopens it.
	b := newApp(testEnv, p)
	b.st.Now = fixedClock
	b.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, b, b.schedule())
	if b.st.Result == nil || len(b.st.Result.Groups) != 3 || b.st.Value("fakes") != "1" {
		t.Fatal("the reopened project did not reproduce the preview")
	}
}

// The Compare pane runs every method with comparable settings in the
// background, marks the best of each line, and opens the selected method
// with those settings in the preview; ctrl+x stops a comparison.
func TestComparePane(t *testing.T) {
	a := ready(t, "dataset:census", 80, 24)
	a.st.Project.Roles.SA = "occupation"
	a.st.Project.Roles.QIs = []string{"age", "sex", "education"}
	a.st.Changed()
	settle(t, a, a.schedule())
	press(t, a, "9", "+", "+", "-") // k 10 -> 11
	if a.active != common.PaneCompare || !strings.Contains(a.View(), "k = 11 where") {
		t.Fatalf("pane %d:\n%s", a.active, a.View())
	}
	press(t, a, "enter")
	v := a.View()
	if strings.Contains(v, "running every method") || strings.Contains(v, "✗") {
		t.Fatalf("the comparison did not finish:\n%s", v)
	}
	for _, want := range []string{"smallest class", "workload error", "*", "kja"} {
		if !strings.Contains(v, want) {
			t.Fatalf("%q missing:\n%s", want, v)
		}
	}
	// Every method has a column, and ran: the selected one's settings
	// line says when it did not.
	for i, m := range catalog.Names() {
		if i > 0 {
			press(t, a, "l")
		}
		v := ansi.Strip(a.View())
		if !strings.Contains(v, "▸"+m[:min(len(m), 6)]) || strings.Contains(v, m+" did not run") {
			t.Fatalf("%s has no column, or did not run:\n%s", m, v)
		}
	}
	// kja is the second column: open it.
	press(t, a, strings.Repeat("h", len(catalog.Names())-2), "enter")
	if a.active != common.PanePreview || a.st.Project.Method != "kja" || a.st.Project.Params["k"] != "11" {
		t.Fatalf("pane %d, method %s, params %v", a.active, a.st.Project.Method, a.st.Project.Params)
	}
	if a.st.Result == nil || a.st.Result.Spec.Name != "kja" || !a.st.Current() {
		t.Fatal("the preview does not show kja's result")
	}
	// A comparison in flight stops with ctrl+x and says so.
	press(t, a, "9")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	if !strings.Contains(a.View(), "running every method") || cmd == nil {
		t.Fatal("r did not start a comparison")
	}
	press(t, a, "ctrl+x")
	settle(t, a, cmd)
	if v := a.View(); strings.Contains(v, "running every method") || !strings.Contains(v, "comparison stopped (ctrl+x): r runs it again") {
		t.Fatalf("after ctrl+x:\n%s", v)
	}
}

// The line chart scales from the smallest value to the largest and puts
// each point in its column; a NaN is a gap.
func TestLineChart(t *testing.T) {
	s := common.DefaultStyles()
	out := components.LineChart(s, "t", []string{"a", "b", "c"}, []float64{1, 3, math.NaN()}, 30, 6)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	if !strings.Contains(lines[1], "3 │") || !strings.Contains(lines[4], "1 │") {
		t.Fatalf("axis labels:\n%s", out)
	}
	if strings.Count(out, "●") != 2 {
		t.Fatalf("points:\n%s", out)
	}
	if !strings.Contains(lines[5], "a") || !strings.Contains(lines[5], "c") {
		t.Fatalf("x labels:\n%s", out)
	}
}

// A lone change runs at once; changes close together (keys typed fast
// or held down) wait the debounce, so that their runs are one (issue
// 20: the preview settles within budget after the last key, of which
// the debounce took a share on every key).
func TestLoneChangeRunsAtOnce(t *testing.T) {
	t.Parallel()
	a := &App{debounceFor: debounce}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		at   time.Duration
		want time.Duration
	}{
		{0, 0},                            // the first change
		{10 * time.Millisecond, debounce}, // a key 10 ms later: coalesced
		{40 * time.Millisecond, debounce}, // held down: each waits
		{40*time.Millisecond + lone, 0},   // after a pause: at once
		{40*time.Millisecond + lone + lone - time.Millisecond, debounce},
	}
	for _, s := range steps {
		if got := a.wait(t0.Add(s.at)); got != s.want {
			t.Fatalf("a change at %v waits %v, want %v", s.at, got, s.want)
		}
	}
	// The run of a lone change is asked for without a tick: its command
	// answers at once.
	b := ready(t, "dataset:employees", 80, 24)
	b.lastChange = time.Time{}
	b.st.Changed()
	if m, ok := b.schedule()().(debounceMsg); !ok || m.seq != b.runSeq {
		t.Fatalf("a lone change's command gave %#v", m)
	}
}

// selectParam selects the (last) parameter match accepts on the Method
// pane with the arrow keys: the pane lists the method's parameters in
// declared order. It reports whether one was found.
func selectParam(a *App, match func(model.ParamSpec) bool) bool {
	a.active = common.PaneMethod
	ps := a.st.Spec().Params
	at := -1
	for i, par := range ps {
		if match(par) {
			at = i
		}
	}
	if at < 0 {
		return false
	}
	for range ps {
		a.Update(tea.KeyMsg{Type: tea.KeyUp})
	}
	for range at {
		a.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	return true
}
