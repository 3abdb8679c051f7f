package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/ui/common"

	tea "github.com/charmbracelet/bubbletea"
)

// writePeople writes a small table every method runs on: age, zip, sex
// and disease, 200 rows.
func writePeople(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("age,zip,sex,disease\n")
	diseases := []string{"flu", "cold", "asthma", "ulcer", "gastritis", "bronchitis"}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "%d,%d,%s,%s\n", 20+(i*7)%50, 91100+10*((i*3)%6), []string{"F", "M"}[i%2], diseases[(i*5)%len(diseases)])
	}
	path := filepath.Join(dir, "people.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOneDefaultPerParameter: every parameter of every method starts at
// the value its method declares, in the workbench (opened on the method,
// or switched to it) and the comparison (headless, and opened from the
// Compare pane), except the values the comparison sets to make the
// methods comparable. The
// workbench used to start from values of its own (ambiguity's beta 0.25,
// kja's k 10, distribution's grouping mondrian:50) while help, run and
// Compare used the declared defaults. (ui/cli's
// TestHelpAndRunStartAtTheDeclaredDefaults holds privlab help and privlab
// run to the same declaration.)
func TestOneDefaultPerParameter(t *testing.T) {
	dir := t.TempDir()
	input := writePeople(t, dir)
	roles := model.Roles{QIs: []string{"age", "zip", "sex"}, SA: "disease"}
	proj := pipeline.Project{Input: input, Roles: roles}
	table, err := testEnv.LoadTable(proj)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := pipeline.Compare(context.Background(), testEnv, proj, table,
		pipeline.CompareOptions{K: 10, Workload: workload.Options{Queries: 5, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range catalog.All() {
		spec := m.Spec()
		fresh := newApp(testEnv, pipeline.Project{Input: input, Method: spec.Name, Roles: roles})
		switched := newApp(testEnv, pipeline.Project{Input: input, Method: catalog.Names()[(i+1)%len(catalog.All())], Roles: roles})
		switched.st.SetMethod(spec.Name)
		// The Compare pane's column i opened (its comparison's settings
		// are the headless one's: the workload's size changes no setting).
		opened := newApp(testEnv, pipeline.Project{Input: input, Method: catalog.Names()[0], Roles: roles})
		opened.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, opened, opened.schedule())
		press(t, opened, "9", "enter")
		for range i {
			press(t, opened, "l")
		}
		press(t, opened, "enter")
		if opened.active != common.PanePreview || opened.st.Project.Method != spec.Name {
			t.Fatalf("%s: the Compare pane opened %s in pane %d:\n%s", spec.Name, opened.st.Project.Method, opened.active, opened.View())
		}
		var comparable model.Values
		if spec.Compare != nil {
			_, comparable = spec.Compare(10, table, roles, false)
		}
		compared := model.Values{}
		if prep, err := testEnv.Prepare(rows[i].Project, table); err == nil {
			compared = prep.Values
		} else {
			t.Errorf("%s: the comparison's settings do not prepare: %v", spec.Name, err)
		}
		for _, p := range spec.Params {
			got := map[string]string{"workbench": fresh.st.Value(p.Name), "workbench after M": switched.st.Value(p.Name)}
			if _, set := comparable[p.Name]; !set {
				got["compare"], got["compare pane"] = compared[p.Name], opened.st.Value(p.Name)
			}
			for where, v := range got {
				if v != p.Default {
					t.Errorf("%s %s: %s starts at %q, the declaration at %q", spec.Name, p.Name, where, v, p.Default)
				}
			}
		}
	}
}
