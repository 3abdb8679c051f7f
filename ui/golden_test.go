package ui

// Golden screens at a fixed 80x24 terminal with the ASCII colour profile.
// Regenerate with: go test ./ui -run Golden -update

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/ui/common"
)

// waitAll waits until the output read so far holds every string (one
// wait for all of them: output read by one WaitFor is gone for the next).
func waitAll(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, s := range want {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(30*time.Second))
}

// runProgram drives the real program: it waits until the start screen is
// complete (its groups), sends keys, waits for the
// strings of the new state, quits and returns the final screen.
func runProgram(t *testing.T, keys []tea.KeyMsg, then ...string) string {
	t.Helper()
	a := newTestApp("dataset:census")
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(80, 24))
	// The start screen is complete once its attacks are in (one line of
	// the summary bar beside the method's verdict: they follow the groups
	// and the risk figures).
	waitAll(t, tm, "✓ private │ ⚠ 3909 re-identified │ 139 groups │")
	for _, k := range keys {
		tm.Send(k)
	}
	if len(then) > 0 {
		waitAll(t, tm, then...)
	}
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View()
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestGoldenStartAndLiveChange: the start screen on the default dataset,
// and the preview after a parameter change on the Method pane.
func TestGoldenStartAndLiveChange(t *testing.T) {
	t.Run("start", func(t *testing.T) {
		teatest.RequireEqualOutput(t, []byte(runProgram(t, nil)))
	})
	// grouping mondrian:50 -> mondrian:100 with one press of +
	change := []tea.KeyMsg{runes("4"), {Type: tea.KeyDown}, {Type: tea.KeyDown}, runes("+")}
	t.Run("method after change", func(t *testing.T) {
		teatest.RequireEqualOutput(t, []byte(runProgram(t, change, "⚠ 3909 re-identified │ 72 groups │", "44.048")))
	})
	t.Run("preview after change", func(t *testing.T) {
		keys := append(append([]tea.KeyMsg(nil), change...), runes("5"))
		teatest.RequireEqualOutput(t, []byte(runProgram(t, keys, "Groups (72)", "⚠ 3909 re-identified │ 72 groups │")))
	})
}

// TestGoldenPanes renders every pane and the main dialogs on the
// employees example (Koudas et al. 2009, Figure 1).
func TestGoldenPanes(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	a.st.Project.Params["grouping"] = "level:zipcode=2"
	a.st.Project.Params["target"] = "uniform"
	a.st.Changed()
	settle(t, a, a.schedule())
	for i, name := range []string{"data", "hierarchy", "target", "method", "preview", "query", "export", "sweep"} {
		a.active = i
		t.Run(name, func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(a.View())) })
	}
	t.Run("hierarchy tree", func(t *testing.T) {
		press(t, a, "2", "down", "down", "down", "l", "down", "enter")
		teatest.RequireEqualOutput(t, []byte(a.View()))
	})
	t.Run("group detail", func(t *testing.T) {
		press(t, a, "5", "down", "enter")
		teatest.RequireEqualOutput(t, []byte(a.View()))
		press(t, a, "esc")
	})
	t.Run("query answer", func(t *testing.T) {
		press(t, a, "6", "enter")
		press(t, a, "ctrl+u", "AVG(salary) WHERE gender = 'F'", "enter", "esc")
		teatest.RequireEqualOutput(t, []byte(a.View()))
	})
	t.Run("full help", func(t *testing.T) {
		press(t, a, "5", "?")
		teatest.RequireEqualOutput(t, []byte(a.View()))
		press(t, a, "?")
	})
	t.Run("sweep result", func(t *testing.T) {
		press(t, a, "8", "down", "down", "down", "enter")
		teatest.RequireEqualOutput(t, []byte(a.View()))
	})
	t.Run("fakes", func(t *testing.T) {
		press(t, a, "4")
		selectParam(a, func(par model.ParamSpec) bool { return par.Name == "fakes" })
		press(t, a, "+")
		press(t, a, "5")
		teatest.RequireEqualOutput(t, []byte(a.View()))
	})
}

// inDir runs f with dir as the working directory (the goldens show
// relative paths) and returns to the package directory afterwards.
func inDir(t *testing.T, dir string, f func()) {
	t.Helper()
	cwd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(cwd)
	f()
}

func TestGoldenExportConfirmation(t *testing.T) {
	dir := t.TempDir()
	var written, confirm string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
		written = a.View()
		press(t, a, "enter")
		confirm = a.View()
	})
	t.Run("written", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(written)) })
	t.Run("confirm replace", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(confirm)) })
	rep, err := pipeline.Check(filepath.Join(dir, "release-employees-distribution"), nil, nil)
	if err != nil || !rep.OK() {
		t.Fatalf("the exported release fails check: %v", err)
	}
}

func TestGoldenBadFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.csv"), []byte("age,zip\n34,\"91110\n35,91120\n"), 0o644)
	var view string
	inDir(t, dir, func() { view = ready(t, "bad.csv", 80, 24).View() })
	if !strings.Contains(view, "bad.csv:2") {
		t.Fatal("no file:line in the error")
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// copyImport copies the import fixtures (a header-less people.data and
// the hierarchy file beside it) to a temporary folder.
func copyImport(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"people.data", "people_hierarchy_zip.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", "import", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGoldenImportAndHierarchy: a header-less file opens through the
// import wizard (no header: the columns are named), and the hierarchy
// beside it in the ARX layout is found and offered; the hierarchy picker
// lists it.
func TestGoldenImportAndHierarchy(t *testing.T) {
	dir := copyImport(t)
	var wizard, named, hier, picker string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		_, cmd := a.Update(openDialogMsg{newImportDialog(a.st, "people.data")})
		settle(t, a, cmd)
		wizard = a.View()
		d := a.dialog.(*importDialog)
		if d.header {
			t.Fatal("the wizard did not see that the file has no header row")
		}
		press(t, a, "N")
		d.edit.Input.SetValue("age,sex,zip,disease")
		press(t, a, "enter")
		named = a.View()
		press(t, a, "enter")
		settle(t, a, a.schedule())
		if a.st.Table == nil || a.st.Table.Column("zip") == nil || strings.Join(a.st.Project.Columns, ",") != "age,sex,zip,disease" {
			t.Fatalf("imported %v with columns %v", a.st.LoadErr, a.st.Project.Columns)
		}
		// Roles: QIs age, sex, zip; SA disease.
		press(t, a, "1", "space", "down", "space", "down", "space", "down", "a")
		settle(t, a, a.schedule())
		press(t, a, "2", "down", "down")
		hier = a.View()
		if !strings.Contains(hier, "found beside the data: people_hierarchy_zip.csv") {
			t.Fatalf("the hierarchy beside the data is not offered:\n%s", hier)
		}
		press(t, a, "f")
		if fd, ok := a.dialog.(*fileDialog); ok {
			a.Update(fd.init()()) // the folder's listing
		} else {
			t.Fatalf("f opened %T", a.dialog)
		}
		picker = a.View()
	})
	t.Run("wizard", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(wizard)) })
	t.Run("named", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(named)) })
	t.Run("hierarchy found", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(hier)) })
	t.Run("hierarchy picker", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(picker)) })
}

// TestGoldenStaleAndErrors: a cancelled run leaves a stale preview that
// export refuses; an error stays until its cause is fixed.
func TestGoldenStaleAndErrors(t *testing.T) {
	dir := t.TempDir()
	var stale, refused, failed, fixed string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		a.st.SetParam("fakes", "1")
		a.schedule()
		press(t, a, "ctrl+x", "5")
		stale = a.View()
		press(t, a, "7", "enter")
		refused = a.View()
		press(t, a, "ctrl+r")
		settle(t, a, a.schedule())
		a.st.SetParam("grouping", "column:nosuch")
		settle(t, a, a.schedule())
		press(t, a, "5")
		failed = a.View()
		a.st.SetParam("grouping", "sa-only")
		settle(t, a, a.schedule())
		fixed = a.View()
	})
	t.Run("stale preview", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(stale)) })
	t.Run("export refused", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(refused)) })
	t.Run("error", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(failed)) })
	t.Run("error cleared", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(fixed)) })
}

// TestGoldenReceivedRelease: a release opened to be read shows its
// manifest, its check and its groups, and the Query pane answers from it.
func TestGoldenReceivedRelease(t *testing.T) {
	dir := t.TempDir()
	var rel, query, data string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
		r := newApp(testEnv, pipeline.Project{Input: "dataset:employees"})
		r.st.Now = fixedClock
		r.st.ReceivedDir = "release-employees-distribution"
		r.active = common.PaneRelease
		r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, r, r.schedule())
		if r.st.Received == nil {
			t.Fatalf("not received: %v", r.st.ReceivedErr)
		}
		rel = r.View()
		r.active = common.PaneQuery
		press(t, r, "enter")
		press(t, r, "ctrl+u", "AVG(salary) WHERE gender = 'F'", "enter", "esc")
		query = r.View()
		r.active = common.PaneData
		data = r.View()
	})
	if !strings.Contains(rel, "✓ the release passes every check against dataset:employees") || !strings.Contains(query, "· release [") {
		t.Fatalf("received release:\n%s\n%s", rel, query)
	}
	// The original's Data pane shows the roles the release was made with.
	if !strings.Contains(data, "SA: salary") || strings.Contains(data, "QI: none") {
		t.Errorf("the received release's Data pane does not show its roles:\n%s", data)
	}
	t.Run("release", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(rel)) })
	t.Run("query", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(query)) })
	t.Run("data", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(data)) })
}

// TestGoldenCompareAndSweepChart: the Compare pane after a comparison on
// census (every method, k = 10, occupation as the sensitive attribute),
// and a sweep of k on kja plotted as charts.
func TestGoldenCompareAndSweepChart(t *testing.T) {
	a := ready(t, "dataset:census", 80, 24)
	a.st.Project.Roles.QIs = []string{"age", "sex", "education", "marital-status"}
	a.st.Project.Roles.SA = "occupation"
	a.st.Project.Params["seed"] = "1"
	a.st.Changed()
	settle(t, a, a.schedule())
	press(t, a, "9", "enter")
	t.Run("compare", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(a.View())) })
	press(t, a, "l", "enter") // kja, with the settings it was compared with
	press(t, a, "8")
	selectSweepParam(t, a, "k")
	press(t, a, "e", "ctrl+u", "2..30:4", "enter", "enter")
	t.Run("sweep chart", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(a.View())) })
}
