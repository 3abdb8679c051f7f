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
// complete (groups and the workload figure), sends keys, waits for the
// strings of the new state, quits and returns the final screen.
func runProgram(t *testing.T, keys []tea.KeyMsg, then ...string) string {
	t.Helper()
	a := newTestApp("dataset:census")
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(80, 24))
	waitAll(t, tm, "139 groups", "query err 43.83")
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
		teatest.RequireEqualOutput(t, []byte(runProgram(t, change, "72 groups", "query err 44.05")))
	})
	t.Run("preview after change", func(t *testing.T) {
		keys := append(append([]tea.KeyMsg(nil), change...), runes("5"))
		teatest.RequireEqualOutput(t, []byte(runProgram(t, keys, "Groups (72)", "query err 44.05")))
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
		a.panes[paneQuery].(*queryPane).input.SetValue("AVG(salary) WHERE gender = 'F'")
		press(t, a, "enter", "esc")
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
		a.panes[paneMethod].(*paramsPane).list.cursor = 3 // fakes
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
