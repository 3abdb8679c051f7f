package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/source"
	"privlab/ui/common"
	"privlab/ui/session"
)

// summaryLine is the summary bar of the current screen.
func summaryLine(a *App) string {
	lines := strings.Split(a.View(), "\n")
	return lines[len(lines)-2]
}

// TestTickSaysWhatItCovers: for every method, the tick on the summary bar
// carries the gist of what the method certifies (the first clause of its
// Certifies, without references).
func TestTickSaysWhatItCovers(t *testing.T) {
	for _, m := range catalog.All() {
		spec := m.Spec()
		ex := spec.Example
		t.Run(spec.Name, func(t *testing.T) {
			a := newApp(testEnv, pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: spec.Name, Variant: ex.Variant, Params: ex.Params.Clone()})
			a.st.Now = fixedClock
			a.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
			settle(t, a, a.schedule())
			if a.st.Result == nil || !a.st.Result.Satisfied() {
				t.Skipf("the example is not private here: %v", a.st.RunErr)
			}
			gist := certifiesShort(spec.Certifies)
			if gist == "" || strings.Contains(gist, ";") {
				t.Fatalf("gist %q of %q", gist, spec.Certifies)
			}
			bar := summaryLine(a)
			if !strings.Contains(bar, "✓ private: "+common.Clip(gist, 40)[:20]) {
				t.Errorf("the tick does not say what it covers (%q):\n%s", gist, bar)
			}
		})
	}
	if got := certifiesShort("every tuple's value follows the target (Definition 3.2); the QIs are published, so presence is not hidden"); got != "every tuple's value follows the target" {
		t.Errorf("certifiesShort: %q", got)
	}
	if got := certifiesShort("its observed confidence 1-(1-Pr(t))^n is at most beta (Eq. 3), and more"); got != "its observed confidence 1-(1-Pr(t))^n is at most beta" {
		t.Errorf("certifiesShort keeps formulas: %q", got)
	}
}

// TestFirstWarningOnTheBar: the first usefulness warning is the bar's
// tail entry, and the workbench adds method-neutral warnings (records
// suppressed, records in groups at the root, above 10%).
func TestFirstWarningOnTheBar(t *testing.T) {
	a := ready(t, "dataset:census", 120, 30)
	ws := a.st.Usefulness()
	if len(ws) == 0 {
		t.Fatal("census with its defaults gives no usefulness warning")
	}
	if bar := summaryLine(a); !strings.Contains(bar, "! "+ws[0][:30]) {
		t.Errorf("the bar lacks the first warning %q:\n%s", ws[0], bar)
	}
	// Method-neutral warnings from any result.
	st := &State{State: &common.State{Session: session.Session{Result: &method.Result{RowsIn: 100, Suppressed: 20, Groups: []method.Group{
		{Rows: make([]int32, 15), AtRoot: true}, {Rows: make([]int32, 65)}}}}}}
	got := strings.Join(st.Usefulness(), "\n")
	for _, want := range []string{"20% of the records are suppressed (above 10%)", "15% of the records are in 1 group generalized to the root (above 10%)"} {
		if !strings.Contains(got, want) {
			t.Errorf("usefulness lacks %q:\n%s", want, got)
		}
	}
	st.Result.Suppressed, st.Result.Groups[0].Rows = 10, make([]int32, 10)
	if got := st.Usefulness(); len(got) != 0 {
		t.Errorf("10%% is not above the threshold: %q", got)
	}
}

// TestTransientMessagesExpire: a message goes when a load or a result of
// later settings lands; it outlives the work it announces.
func TestTransientMessagesExpire(t *testing.T) {
	dir := copyImport(t)
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 100, 30)
		a.st.Notify("exported release-x")
		press(t, a, "ctrl+r")
		settle(t, a, a.schedule())
		if a.st.Status == "" {
			t.Fatal("a recompute of the same settings dropped the message")
		}
		a.st.SetParam("seed", "7")
		settle(t, a, a.schedule())
		if a.st.Status != "" {
			t.Fatalf("the message outlived a result of new settings: %q", a.st.Status)
		}
		// The import's message lasts through its load and first run.
		a.st.importFile(&importDialog{path: "people.data", format: source.CSV, delim: ',', names: []string{"age", "sex", "zip", "disease"}})
		settle(t, a, a.schedule())
		if !strings.Contains(a.st.Status, "loading people.data") {
			t.Fatalf("the import's message went with its own load: %q", a.st.Status)
		}
		press(t, a, "1", "space")
		settle(t, a, a.schedule())
		if a.st.Status != "" {
			t.Fatalf("the import's message outlived the next edit: %q", a.st.Status)
		}
		// An action's error stays through a recomputation of the same
		// settings and goes with the next change.
		a.st.Fail(errString("bad file"))
		press(t, a, "ctrl+r")
		settle(t, a, a.schedule())
		if a.st.Status == "" {
			t.Fatal("an error went with a recomputation of the same settings")
		}
		a.st.SetParam("seed", "8")
		settle(t, a, a.schedule())
		if a.st.Status != "" || a.st.StatusErr {
			t.Fatalf("an error outlived the next change: %q", a.st.Status)
		}
	})
}

type errString string

func (e errString) Error() string { return string(e) }

// TestFooterKeepsHelpAndDataKeys: at 80 columns "? help" ends the
// footer of every pane, and the Data pane's hint shows all its keys.
func TestFooterKeepsHelpAndDataKeys(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	for _, p := range a.visible() {
		a.active = p
		lines := strings.Split(a.View(), "\n")
		if foot := strings.TrimRight(lines[len(lines)-1], " "); !strings.HasSuffix(foot, "? help") {
			t.Errorf("pane %s: the footer lacks ? help: %q", a.panes[p].title(), foot)
		}
	}
	for _, m := range []string{"distribution", "kja"} {
		a.st.SetMethod(m)
		a.active = common.PaneData
		v := a.View()
		for _, k := range []string{"space QI", "a sensitive", "i identifier", "n no role", "t numeric/categorical", "m drop/category", "v missing values"} {
			if !strings.Contains(v, k) {
				t.Errorf("%s: the Data pane's hint lacks %q:\n%s", m, k, v)
			}
		}
		if a.st.Spec().Public != method.NoPublic && !strings.Contains(v, "p/P public table") {
			t.Errorf("%s: the Data pane's hint lacks the public table's keys:\n%s", m, v)
		}
		if strings.Count(v, "\n") != 23 {
			t.Errorf("%s: the screen is %d lines", m, strings.Count(v, "\n")+1)
		}
	}
}

// TestHierarchyHeaderShowsTheColumnsKind: a column made categorical
// whose values are all numbers (zip codes) has a hierarchy whose leaves
// all parse; the header gives the column's kind, the one t toggles.
func TestHierarchyHeaderShowsTheColumnsKind(t *testing.T) {
	a := ready(t, "dataset:employees", 100, 30)
	press(t, a, "1", "down", "t") // zipcode: categorical
	settle(t, a, a.schedule())
	if a.st.Table.Column("zipcode").Kind.String() != "categorical" {
		t.Fatal("zipcode did not become categorical")
	}
	press(t, a, "2") // zipcode is the first attribute
	if h := a.st.Prep.Hierarchies["zipcode"]; h == nil || !h.Numeric {
		t.Fatalf("the hierarchy's leaves are zip codes, all numbers: %+v", h)
	}
	if v := a.View(); !strings.Contains(v, "zipcode: ") || !strings.Contains(v, "categorical") || strings.Contains(v, ", numeric") {
		t.Errorf("the header does not give zipcode's kind:\n%s", v)
	}
}

// TestTimeLeftIsSmoothed: no estimate before 5%; a burst of fast
// progress moves the estimate only part of the way.
func TestTimeLeftIsSmoothed(t *testing.T) {
	var e etaTracker
	t0 := fixedClock()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	e.observe(1, 0, at(0))
	e.observe(1, 0.04, at(4)) // 1% a second
	if _, ok := e.left(1, 0.04, at(4)); ok {
		t.Fatal("an estimate before 5%")
	}
	e.observe(1, 0.10, at(10))
	left, ok := e.left(1, 0.10, at(10))
	if !ok || left != 90*time.Second {
		t.Fatalf("at a steady 1%% a second and 10%% done: %v %v", left, ok)
	}
	e.observe(1, 0.30, at(11)) // a burst: 20% in a second
	left, _ = e.left(1, 0.30, at(11))
	// rate 0.3*0.2 + 0.7*0.01 = 0.067 a second: 0.7/0.067 = 10.4 s, not
	// the 3.5 s the burst alone gives nor the 70 s of the old rate.
	if left < 10*time.Second || left > 11*time.Second {
		t.Fatalf("after a burst: %v", left)
	}
	if _, ok := e.left(2, 0.5, at(12)); ok {
		t.Fatal("another run's estimate")
	}
}

// TestExportOutcomeGoesWithItsPlan: the previous export's lines leave
// when a new plan is shown (a new result) or an export is refused; the
// plan claims nothing a method's manifest does not hold.
func TestExportOutcomeGoesWithItsPlan(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 100, 30)
		press(t, a, "7", "enter")
		if v := a.View(); !strings.Contains(v, "✓ wrote release-employees-distribution") || !strings.Contains(v, "ok   files") {
			t.Fatalf("no export:\n%s", v)
		}
		a.st.SetParam("seed", "3")
		settle(t, a, a.schedule())
		if v := a.View(); strings.Contains(v, "wrote release") || strings.Contains(v, "ok   files") {
			t.Errorf("the previous export's outcome stays under a new plan:\n%s", v)
		}
		press(t, a, "enter", "y") // replace it
		if v := a.View(); !strings.Contains(v, "ok   files") {
			t.Fatalf("no second export:\n%s", v)
		}
		a.st.SetParam("seed", "4")
		a.schedule()
		press(t, a, "ctrl+x", "enter")
		if v := a.View(); !strings.Contains(v, "not exported") || strings.Contains(v, "ok   files") {
			t.Errorf("a refused export shows the previous export's lines:\n%s", v)
		}
		a.st.SetMethod("lossyjoin")
		settle(t, a, a.schedule())
		if v := a.View(); strings.Contains(v, "effective target") {
			t.Errorf("the plan of lossyjoin speaks of an effective target:\n%s", v)
		}
	})
}

// TestProgressText: while the run is prepared it says so; then the
// current run's percentage; another run's progress never shows.
func TestProgressText(t *testing.T) {
	a := ready(t, "dataset:employees", 100, 30)
	a.st.Progress.Store(progressMark{seq: a.runSeq, start: a.st.Now()})
	if got := a.progressText(); got != ": preparing" {
		t.Errorf("preparing: %q", got)
	}
	a.st.Progress.Store(progressMark{seq: a.runSeq, f: 0.42, start: a.st.Now(), running: true})
	if got := a.progressText(); got != " 42%" {
		t.Errorf("running: %q", got)
	}
	a.st.Progress.Store(progressMark{seq: a.runSeq - 1, f: 0.92, running: true})
	if got := a.progressText(); got != "" {
		t.Errorf("an earlier run's progress: %q", got)
	}
}

// While a preview recomputes, the warnings of the last result stay on
// the Method pane (dimmed) until the new result and its figures are in:
// the lines do not vanish and come back.
func TestWarningsStayWhileRecomputing(t *testing.T) {
	a := ready(t, "dataset:census", 100, 30)
	press(t, a, "4")
	const unique = "of the published records are unique"
	has := func(step string) {
		t.Helper()
		if !strings.Contains(a.View(), unique) {
			t.Fatalf("%s: the warning went:\n%s", step, a.View())
		}
	}
	has("settled")
	a.st.SetParam("seed", "5")
	tick := a.schedule()
	has("change pending")
	_, run := a.Update(runWithTimeout(t, tick))
	_, figures := a.Update(runWithTimeout(t, run)) // the result, its figures on their way
	has("result in, figures on their way")
	settle(t, a, figures)
	has("settled again")
	if _, old := a.st.ShownWarnings(); old {
		t.Fatal("the settled result's warnings are shown as old")
	}
}

// Ambiguity says itself how many records it suppresses and why: the
// workbench adds no second line about them.
func TestSuppressionWarnedOnce(t *testing.T) {
	a := ready(t, "dataset:census", 100, 30)
	a.st.SetMethod("ambiguity")
	settle(t, a, a.schedule())
	n := 0
	for _, w := range a.st.Usefulness() {
		if strings.Contains(w, "records are suppressed") {
			n++
		}
	}
	if n != 1 || a.st.Result.Suppressed*10 < a.st.Result.RowsIn {
		t.Fatalf("%d lines about %d suppressed records: %q", n, a.st.Result.Suppressed, a.st.Usefulness())
	}
}

// Figure names widen with the terminal: at 200 columns none is cut on
// the Method pane (compare's TestLineNamesWidenWithTheTerminal holds the
// comparison's lines to the same).
func TestFigureNamesWidenWithTheTerminal(t *testing.T) {
	a := ready(t, "dataset:census", 200, 40)
	a.st.SetMethod("ambiguity")
	settle(t, a, a.schedule())
	press(t, a, "4")
	v := a.View()
	for _, f := range a.st.Result.Summary {
		if !strings.Contains(v, f.Name) {
			t.Errorf("%q is cut at 200 columns:\n%s", f.Name, v)
		}
	}
}

// kja and lossyjoin count their groups' size themselves: their tables of
// groups show one size column, not "size size".
func TestGroupTablesHaveOneSizeColumn(t *testing.T) {
	for _, m := range []string{"kja", "lossyjoin", "distribution"} {
		a := ready(t, "dataset:census", 100, 30)
		a.st.Project.Roles = model.Roles{QIs: []string{"age", "sex", "education"}, SA: "occupation"}
		a.st.SetMethod(m)
		a.st.Project.Variant = a.st.Spec().NoPublicVariant // kja: the plain variant
		settle(t, a, a.schedule())
		for _, pane := range []string{"4", "5"} {
			press(t, a, pane)
			found := 0
			for _, l := range strings.Split(a.View(), "\n") {
				if _, row, ok := strings.Cut(l, "│ "); ok && pane == "4" {
					l = row // the Method pane's preview is on the right
				}
				if f := strings.Fields(l); len(f) > 2 && strings.TrimRight(f[0], "▲▼") == "id" {
					found++
					if n := strings.Count(l, "size"); n != 1 {
						t.Errorf("%s pane %s: %d size columns: %q", m, pane, n, l)
					}
				}
			}
			if found != 1 {
				t.Errorf("%s pane %s: %d group table headers:\n%s", m, pane, found, a.View())
			}
		}
	}
}

// The summary bar's class figure is named for what it measures, the
// smallest class of the release as an attacker reads it, not "k": with a
// public table kja's boxes hold public tuples too, so it differs from the
// k the header shows.
func TestSummaryBarNamesTheSmallestClass(t *testing.T) {
	dir := t.TempDir()
	writePeople(t, dir)
	writePublic(t, dir)
	inDir(t, dir, func() {
		a := people(t, "kja")
		a.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
		a.st.SetPublic("public.csv")
		a.st.SetParam("k", "7")
		settle(t, a, a.schedule())
		f, ok := a.st.Risk.Get(risk.KeySmallest)
		if !ok || a.st.RunErr != nil {
			t.Fatalf("no smallest class: %v", a.st.RunErr)
		}
		lines := strings.Split(a.View(), "\n")
		header, bar := lines[0], lines[len(lines)-2]
		if !strings.Contains(header, "k 7") || !strings.Contains(bar, "smallest class "+common.Thousands(int(f.Value))) || strings.Contains(bar, "│ k ") {
			t.Fatalf("header %q\nbar %q", header, bar)
		}
	})
}
