package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
)

// TestHierarchyCountsTheRowsARunReads: with rows that have a missing value
// dropped, the hierarchy tree counts the rows of the table the run reads
// (the raw UCI file showed "0 rows" on every node: the hierarchy is built
// on the kept rows, and a value only the dropped rows hold made counting
// the loaded table fail).
func TestHierarchyCountsTheRowsARunReads(t *testing.T) {
	dir := t.TempDir()
	// age 31 is only in the row whose job is missing.
	text := "age,job,disease\n30,a,flu\n31,?,flu\n32,b,cold\n30,b,cold\n30,a,flu\n"
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var view string
	inDir(t, dir, func() {
		a := newTestApp("t.csv")
		a.st.Project.Roles = model.Roles{QIs: []string{"age", "job"}, SA: "disease"}
		a.st.Project.Hierarchies = map[string]string{"age": "flat"}
		a.Update(teaSize(100, 30))
		settle(t, a, a.schedule())
		if a.st.Prep == nil || a.st.Prep.Dropped != 1 {
			t.Fatalf("prepared %v, run error %v", a.st.Prep, a.st.RunErr)
		}
		press(t, a, "2")
		view = a.View()
	})
	if !strings.Contains(view, "2 values · range 2 · 4 rows") || !strings.Contains(view, "30  range 0 · 3 rows") {
		t.Fatalf("the tree does not count the 4 rows the run reads:\n%s", view)
	}
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
