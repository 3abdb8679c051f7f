package hierarchy

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/hierarchy -update

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/ui/common"
	"privlab/ui/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
}

// censusState is the workbench's state on the census dataset with its
// declared roles, loaded and prepared (the hierarchies the pane draws).
func censusState(t *testing.T) *common.State {
	t.Helper()
	env := pipeline.Env{Datasets: datasets.Catalog{}}
	st := &common.State{Session: session.Session{Env: env}, Styles: common.DefaultStyles(), Keys: common.DefaultKeyMap()}
	st.Project = env.WithDefaults(pipeline.Project{Input: "dataset:census", Method: "distribution"})
	tbl, err := env.LoadTable(st.Project)
	if err != nil {
		t.Fatal(err)
	}
	st.Table = tbl
	if st.Prep, err = env.Prepare(st.Project, tbl); err != nil {
		t.Fatal(err)
	}
	return st
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestGoldenSizes: the attribute list beside the first attribute's tree
// (its root unfolded), then the tree focused with its third node (20-39)
// unfolded too, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"120x34", 120, 34}} {
		t.Run(size.name, func(t *testing.T) {
			p := New(censusState(t))
			p.SetSize(size.w, size.h)
			golden(t, "list_"+size.name, p.View())
			p.Update(tea.KeyMsg{Type: tea.KeyRight})
			p.Update(runes("j"))
			p.Update(runes("j"))
			p.Update(tea.KeyMsg{Type: tea.KeyEnter})
			golden(t, "tree_"+size.name, p.View())
		})
	}
}

// TestNoRolesSaysWhereToSetThem: without quasi-identifiers the pane
// names the Data pane by its tab.
func TestNoRolesSaysWhereToSetThem(t *testing.T) {
	st := censusState(t)
	st.Project.Roles.QIs, st.Project.Roles.SA = nil, ""
	p := New(st)
	p.SetSize(80, 24)
	if got, want := p.View(), "Choose quasi-identifiers and the sensitive attribute in the Data pane (1) first."; got != want {
		t.Errorf("view %q, want %q", got, want)
	}
}

// TestFileKeyAsksTheRootForAPicker: f cannot show a dialog from the
// pane; it asks the root for a picker of the selected attribute's file.
func TestFileKeyAsksTheRootForAPicker(t *testing.T) {
	p := New(censusState(t))
	cmd := p.Update(runes("f"))
	if cmd == nil {
		t.Fatal("f returned no command")
	}
	msg, ok := cmd().(common.PickFileMsg)
	if !ok || msg.Title != "Pick a hierarchy file for age (value;level1;...;*)" || msg.OnPick == nil {
		t.Fatalf("f sent %#v", msg)
	}
}
