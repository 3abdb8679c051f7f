package ui

import (
	"os"
	"strings"
	"testing"

	"privlab/ui/common"

	"github.com/charmbracelet/x/ansi"
)

// TestSaveDialogFitsAt80Columns: the save dialog's refusal (a name the
// project reads) and its question (an existing file with a long name)
// wrap inside the box at 80x24, and the box stays inside the terminal
// (the refusal drew it 82 cells wide, cut at the right edge with the
// refusal's end).
func TestSaveDialogFitsAt80Columns(t *testing.T) {
	dir := t.TempDir()
	writePeople(t, dir)
	inDir(t, dir, func() {
		long := "a-project-file-with-a-rather-long-name-kept-beside-the-data.json"
		if err := os.WriteFile(long, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		a := ready(t, "people.csv", 80, 24)
		for _, c := range []struct{ name, want string }{
			{"people.csv", "is a file the project reads, never overwritten; save the project under another name"},
			{long, long + " exists: replace it with the project? (y/n)"},
		} {
			press(t, a, "S")
			a.dialog.(*saveDialog).input.SetValue(c.name)
			press(t, a, "enter")
			v := a.View()
			for i, line := range strings.Split(v, "\n") {
				if n := common.LenCells(line); n > 80 {
					t.Errorf("%s: line %d is %d cells wide: %q", c.name, i, n, ansi.Strip(line))
				}
			}
			if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(v), "│", " ")), " "), c.want) {
				t.Errorf("%s: the dialog does not read %q:\n%s", c.name, c.want, v)
			}
			press(t, a, "esc")
			if a.dialog != nil {
				press(t, a, "esc")
			}
		}
	})
}
