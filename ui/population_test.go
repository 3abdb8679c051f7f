package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/ui/common"
)

// TestGoldenPopulationNamed: a population file without a header row
// fails the attacks with a hint to press N on the Export pane; N opens
// the import wizard on it, which names its columns, and the project
// records them as population_columns (issue 35.1).
func TestGoldenPopulationNamed(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for _, r := range []string{"Alice,91110,F", "Bob,91110,M", "Carol,91110,M", "Debra,91130,F", "Elaine,91210,F", "Grace,91220,F",
		"Helen,91240,F", "Jason,91310,M", "Kyle,91320,M", "Leo,91330,M", "Nancy,91340,F", "Oscar,91110,M", "Paula,91130,F", "Quinn,91330,M"} {
		b.WriteString(r + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "town.data"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var wizard, named string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 100, 40)
		press(t, a, "7", "P", "ctrl+u", "town.data", "enter")
		settle(t, a, a.schedule())
		if a.st.AttacksErr == nil {
			t.Fatal("a header-less population read without names")
		}
		if hint := a.st.Hint(a.st.AttacksErr); hint != "press N in the Export pane (7) to name its columns (the import wizard) if the population file has no header row; columns are: c1, c2, c3" {
			t.Errorf("hint %q", hint)
		}
		press(t, a, "N")
		d, ok := a.dialog.(*importDialog)
		if !ok || !d.population || d.header || !slices.Equal(d.names, []string{"c1", "c2", "c3"}) {
			t.Fatalf("N opened %T (header %v, names %v), want the wizard on the header-less population", a.dialog, d != nil && d.header, d)
		}
		press(t, a, "N")
		d.edit.Input.SetValue("name,zipcode,gender")
		press(t, a, "enter")
		wizard = a.View()
		press(t, a, "enter")
		settle(t, a, a.schedule())
		if a.dialog != nil || a.active != common.PaneExport {
			t.Fatalf("enter left dialog %T, pane %d", a.dialog, a.active)
		}
		if got := a.st.Project.PopulationColumns; !slices.Equal(got, []string{"name", "zipcode", "gender"}) || a.st.Project.Population != "town.data" {
			t.Fatalf("population %q columns %v", a.st.Project.Population, got)
		}
		if a.st.AttacksErr != nil {
			t.Fatalf("attacks error with named columns: %v", a.st.AttacksErr)
		}
		named = a.View()
		if !strings.Contains(ansi.Strip(named), "membership: not bounded · measured 1") {
			t.Errorf("membership not measured against the named population:\n%s", named)
		}
		// N again starts from the recorded names.
		press(t, a, "N")
		if d := a.dialog.(*importDialog); !slices.Equal(d.names, []string{"name", "zipcode", "gender"}) || d.header {
			t.Errorf("the wizard reopens with %v", d.names)
		}
		press(t, a, "esc")
		if err := a.st.save(filepath.Join(dir, "p.json")); err != nil {
			t.Fatal(err)
		}
	})
	p, _ := os.ReadFile(filepath.Join(dir, "p.json"))
	if !strings.Contains(string(p), "\"population_columns\": [\n    \"name\",\n    \"zipcode\",\n    \"gender\"\n  ]") {
		t.Errorf("the project does not record population_columns:\n%s", p)
	}
	t.Run("wizard", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(wizard)) })
	t.Run("named", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(named)) })
}
