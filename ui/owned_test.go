package ui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// TestSaveNeverOverwritesWhatTheProjectReads: ctrl+s refuses to write
// the project over its input table, its population or a hierarchy file
// (whatever is answered), and asks y/n before replacing any other
// existing file (issue 32, item 10).
func TestSaveNeverOverwritesWhatTheProjectReads(t *testing.T) {
	dir := t.TempDir()
	writePeople(t, dir)
	inDir(t, dir, func() { saveRefusals(t) })
}

func saveRefusals(t *testing.T) {
	input, hier, pop, other := "people.csv", "zip.csv", "pop.csv", "notes.json"
	data := readBytes(t, input)
	for _, f := range []string{hier, pop, other} {
		os.WriteFile(f, []byte("mine\n"), 0o644)
	}
	a := newApp(testEnv, pipeline.Project{Input: input, Roles: model.Roles{QIs: []string{"age", "zip", "sex"}, SA: "disease"}})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	settle(t, a, a.schedule())
	a.st.Project.Hierarchies = map[string]string{"zip": hier}
	a.st.Project.Population = pop

	for _, path := range []string{input, hier, pop} {
		press(t, a, "ctrl+s")
		d, ok := a.dialog.(*saveDialog)
		if !ok {
			t.Fatalf("ctrl+s opened %T", a.dialog)
		}
		d.input.SetValue(path)
		press(t, a, "enter", "y")
		want := "not saved: " + path + " is a file the project reads, never overwritten; save the project under another name"
		if a.dialog != d || d.err != want || d.replace != "" {
			t.Fatalf("saving over %s: dialog %T, error %q, asking %q", path, a.dialog, d.err, d.replace)
		}
		if !strings.Contains(a.View(), "is a file the project reads") {
			t.Errorf("the refusal is not shown:\n%s", a.View())
		}
		press(t, a, "esc")
	}
	if string(readBytes(t, input)) != string(data) || string(readBytes(t, hier)) != "mine\n" || string(readBytes(t, pop)) != "mine\n" {
		t.Fatal("an input file was overwritten")
	}

	// Another existing file: asked; n keeps it, y replaces it.
	press(t, a, "ctrl+s")
	d := a.dialog.(*saveDialog)
	d.input.SetValue(other)
	press(t, a, "enter")
	if d.replace != other || !strings.Contains(a.View(), "notes.json exists: replace it with the project? (y/n)") {
		t.Fatalf("not asked before replacing %s (asking %q):\n%s", other, d.replace, a.View())
	}
	press(t, a, "n")
	if a.dialog != d || d.replace != "" || string(readBytes(t, other)) != "mine\n" || a.st.ProjectPath != "" {
		t.Fatalf("n: dialog %T, asking %q, project path %q", a.dialog, d.replace, a.st.ProjectPath)
	}
	press(t, a, "enter", "y")
	if a.dialog != nil || a.st.ProjectPath != other {
		t.Fatalf("y: dialog %T, project path %q", a.dialog, a.st.ProjectPath)
	}
	if p, err := pipeline.LoadProject(other); err != nil || p.Roles.SA != "disease" {
		t.Fatalf("the replaced file does not hold the project: %v", err)
	}
	// ctrl+s then writes back to it without asking; were it the input
	// (a project path that names it), it refuses.
	press(t, a, "ctrl+s")
	if a.dialog != nil {
		t.Fatalf("ctrl+s on the saved project asked again: %T", a.dialog)
	}
	a.st.ProjectPath = input
	press(t, a, "ctrl+s")
	if string(readBytes(t, input)) != string(data) || !strings.Contains(a.st.Status, "is a file the project reads") {
		t.Fatalf("ctrl+s wrote over the input; status %q", a.st.Status)
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
