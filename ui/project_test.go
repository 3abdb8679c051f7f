package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// writePublic writes a public table with the people's quasi-identifiers.
func writePublic(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("age,zip,sex\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "%d,%d,%s\n", 20+(i*11)%50, 91100+10*((i*5)%6), []string{"M", "F"}[i%2])
	}
	if err := os.WriteFile(filepath.Join(dir, "public.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// people opens people.csv in the working directory with its roles.
func people(t *testing.T, method string) *App {
	t.Helper()
	a := newApp(testEnv, pipeline.Project{Input: "people.csv", Method: method,
		Roles: model.Roles{QIs: []string{"age", "zip", "sex"}, SA: "disease"}})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, a, a.schedule())
	return a
}

// TestGoldenSettingsSurviveMethodSwitches: kja's public table, variant
// and k are there again after switching away (M) and back; the method
// switched to in between starts at its own settings.
func TestGoldenSettingsSurviveMethodSwitches(t *testing.T) {
	dir := t.TempDir()
	writePeople(t, dir)
	writePublic(t, dir)
	var data, method string
	inDir(t, dir, func() {
		a := people(t, "kja")
		press(t, a, "1", "P")
		press(t, a, "ctrl+u", "public.csv", "enter", "4", "V") // mondrian-direct -> mondrian-refine
		a.st.SetParam("k", "7")
		settle(t, a, a.schedule())
		press(t, a, "M") // lossyjoin
		if k, _ := a.st.Spec().Param("k"); a.st.Project.Public != "" || a.st.Value("k") != k.Default {
			t.Fatalf("lossyjoin took kja's settings: public %q k %s", a.st.Project.Public, a.st.Value("k"))
		}
		press(t, a, "M", "M", "M", "M") // sampling, ambiguity, distribution, kja
		if a.st.Project.Method != "kja" || a.st.Project.Public != "public.csv" || a.st.Value("k") != "7" || a.st.Project.Variant != "mondrian-refine" {
			t.Fatalf("kja came back as %+v", a.st.Project)
		}
		if a.st.RunErr != nil || a.st.Prep == nil || a.st.Prep.Public == nil {
			t.Fatalf("kja's run does not read the public table: %v", a.st.RunErr)
		}
		method = a.View()
		press(t, a, "1")
		data = a.View()
	})
	t.Run("method", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(method)) })
	t.Run("data", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(data)) })
}

// TestGoldenProjectSavedAndReopenedElsewhere: ctrl+s asks where the
// first time and says which file it wrote every time; S saves as another
// file; a project saved in one folder reopens from another (its paths are
// relative to the project file).
func TestGoldenProjectSavedAndReopenedElsewhere(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "data"), 0o755)
	os.MkdirAll(filepath.Join(root, "proj"), 0o755)
	os.MkdirAll(filepath.Join(root, "elsewhere"), 0o755)
	writePeople(t, filepath.Join(root, "data"))
	var saved, again, saveAs, savedAs, reopened string
	inDir(t, root, func() {
		a := newApp(testEnv, pipeline.Project{Input: "data/people.csv", Roles: model.Roles{QIs: []string{"age", "zip", "sex"}, SA: "disease"}})
		a.st.Now = fixedClock
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, a, a.schedule())
		a.st.SetParam("seed", "3")
		settle(t, a, a.schedule())
		press(t, a, "ctrl+s")
		a.dialog.(*saveDialog).input.SetValue("proj/project.json")
		press(t, a, "enter")
		saved = a.View()
		a.st.SetParam("grouping", "qi-sa")
		settle(t, a, a.schedule())
		press(t, a, "ctrl+s")
		if a.dialog != nil {
			t.Fatal("the second ctrl+s asked again")
		}
		again = a.View()
		press(t, a, "S")
		saveAs = a.View()
		a.dialog.(*saveDialog).input.SetValue("proj/copy.json")
		press(t, a, "enter")
		savedAs = a.View()
		if a.st.ProjectPath != "proj/copy.json" {
			t.Fatalf("ctrl+s now writes %q", a.st.ProjectPath)
		}
	})
	b, _ := os.ReadFile(filepath.Join(root, "proj", "project.json"))
	for _, want := range []string{`"input": "../data/people.csv"`, `"seed": "3"`, `"grouping": "qi-sa"`, `"target": "table"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("project.json lacks %s:\n%s", want, b)
		}
	}
	inDir(t, filepath.Join(root, "elsewhere"), func() {
		p, err := pipeline.LoadProject("../proj/project.json")
		if err != nil {
			t.Fatal(err)
		}
		a := newApp(testEnv, p)
		a.st.Now = fixedClock
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, a, a.schedule())
		if a.st.LoadErr != nil || a.st.Result == nil {
			t.Fatalf("reopened elsewhere: %v", a.st.LoadErr)
		}
		reopened = a.View()
	})
	t.Run("saved", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(saved)) })
	t.Run("saved again", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(again)) })
	t.Run("save as", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(saveAs)) })
	t.Run("saved as", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(savedAs)) })
	t.Run("reopened elsewhere", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(reopened)) })
}

// TestGoldenReleaseFindsItsOriginal: privlab DIR without --original finds
// the release's input through the audit record beside it, as ctrl+o
// does, and checks the release against it.
func TestGoldenReleaseFindsItsOriginal(t *testing.T) {
	dir := t.TempDir()
	var view string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
		r := newWorkbench(testEnv, Options{Release: "release-employees-distribution"})
		r.st.Now = fixedClock
		r.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, r, r.schedule())
		if r.st.Received == nil || r.st.Table == nil || !strings.Contains(r.st.Received.Against, "found through the audit record") {
			t.Fatalf("the original was not found: %+v %v", r.st.Received, r.st.ReceivedErr)
		}
		view = r.View()
	})
	teatest.RequireEqualOutput(t, []byte(view))
}

// TestGoldenRefusedHierarchyGoes: a hierarchy file that does not fit its
// column is refused on the status line; the refusal goes with the next
// change (here a method switch) and does not come back with an export.
func TestGoldenRefusedHierarchyGoes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "zip.csv"), []byte("91110;911**;*\n"), 0o644)
	var refused, switched, exported string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "2", "f")
		d, ok := a.dialog.(*fileDialog)
		if !ok {
			t.Fatalf("f opened %T", a.dialog)
		}
		_, cmd := d.picked("zip.csv")
		a.dialog = nil
		settle(t, a, cmd)
		refused = a.View()
		if !a.st.StatusErr {
			t.Fatalf("the file was not refused: %q", a.st.Status)
		}
		press(t, a, "4", "M")
		settle(t, a, a.schedule())
		switched = a.View()
		press(t, a, "7", "enter")
		exported = a.View()
		if a.st.StatusErr {
			t.Fatalf("the refusal is still on the status line: %q", a.st.Status)
		}
	})
	for _, v := range []string{switched, exported} {
		if strings.Contains(v, "zip.csv") {
			t.Fatalf("the refusal survived:\n%s", v)
		}
	}
	t.Run("refused", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(refused)) })
	t.Run("after a method switch", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(switched)) })
}

// TestGoldenSweepClearedOnMethodChange: a sweep's table and charts
// belong to the settings that made them: another method (or any other
// change) clears them, and a sweep still running is stopped.
func TestGoldenSweepClearedOnMethodChange(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "8", "enter")
	// The table's header names the columns: a sweep is on screen.
	swept := a.View()
	if !strings.Contains(swept, "groups viol") {
		t.Fatalf("the sweep did not run:\n%s", swept)
	}
	press(t, a, "4", "M", "8")
	if strings.Contains(a.View(), "groups viol") || !strings.Contains(a.View(), "The last sweep (distribution) was of earlier settings") {
		t.Fatalf("kja's Sweep pane shows distribution's sweep:\n%s", a.View())
	}
	cleared := a.View()
	// A running sweep stops and its answer is dropped.
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if !strings.Contains(a.View(), "sweeping…") {
		t.Fatalf("enter did not start a sweep:\n%s", a.View())
	}
	a.st.SetParam("k", "3")
	press(t, a, "8")
	settle(t, a, cmd)
	if v := a.View(); strings.Contains(v, "sweeping…") || strings.Contains(v, "groups viol") {
		t.Fatalf("the sweep of earlier settings landed:\n%s", v)
	}
	t.Run("swept", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(swept)) })
	t.Run("cleared", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(cleared)) })
}

// TestExportDirIsTheProjectsFolder: a project opened from another
// working directory writes its release beside the project file, as its
// other paths are read, and the Export pane shows the absolute path;
// the saved project names the release relative to itself (issue 35.5).
func TestExportDirIsTheProjectsFolder(t *testing.T) {
	root := t.TempDir()
	proj, elsewhere := filepath.Join(root, "proj"), filepath.Join(root, "elsewhere")
	os.MkdirAll(proj, 0o755)
	os.MkdirAll(elsewhere, 0o755)
	if err := (pipeline.Project{Input: "dataset:employees", Method: "distribution"}).Save(filepath.Join(proj, "project.json")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(proj, "release-employees-distribution")
	inDir(t, elsewhere, func() {
		p, err := pipeline.LoadProject("../proj/project.json")
		if err != nil {
			t.Fatal(err)
		}
		a := newApp(testEnv, p)
		a.st.Now = fixedClock
		a.st.ProjectPath = "../proj/project.json"
		a.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
		settle(t, a, a.schedule())
		press(t, a, "7")
		if view := ansi.Strip(a.View()); !strings.Contains(view, "directory  "+want+"   (e: edit)") {
			t.Fatalf("the Export pane does not show %s:\n%s", want, view)
		}
		press(t, a, "enter")
		settle(t, a, nil)
		if a.st.Status != "exported "+want {
			t.Errorf("status %q", a.st.Status)
		}
		press(t, a, "ctrl+s")
	})
	if _, err := os.Stat(filepath.Join(want, "manifest.json")); err != nil {
		t.Errorf("no release beside the project: %v", err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "release-employees-distribution")); err == nil {
		t.Error("the release was written in the working directory")
	}
	b, _ := os.ReadFile(filepath.Join(proj, "project.json"))
	if !strings.Contains(string(b), `"dir": "release-employees-distribution"`) {
		t.Errorf("the saved project does not name the release relative to itself:\n%s", b)
	}
}
