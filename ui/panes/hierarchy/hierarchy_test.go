package hierarchy

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/hierarchy -update

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// TestGoldenSizes: the attribute list beside the first attribute's tree
// (its root unfolded), then the tree focused with its third node (20-39)
// unfolded too, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(panetest.State(t, "dataset:census", "distribution"))
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "list_"+size.Name, p.View())
			p.Update(tea.KeyMsg{Type: tea.KeyRight})
			p.Update(panetest.Runes("j"))
			p.Update(panetest.Runes("j"))
			p.Update(tea.KeyMsg{Type: tea.KeyEnter})
			panetest.Golden(t, "tree_"+size.Name, p.View())
		})
	}
}

// TestNoRolesSaysWhereToSetThem: without quasi-identifiers the pane
// names the Data pane by its tab.
func TestNoRolesSaysWhereToSetThem(t *testing.T) {
	st := panetest.State(t, "dataset:census", "distribution")
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
	p := New(panetest.State(t, "dataset:census", "distribution"))
	cmd := p.Update(panetest.Runes("f"))
	if cmd == nil {
		t.Fatal("f returned no command")
	}
	msg, ok := cmd().(common.PickFileMsg)
	if !ok || msg.Title != "Pick a hierarchy file for age (value;level1;...;*)" || msg.OnPick == nil {
		t.Fatalf("f sent %#v", msg)
	}
}

// TestBuilderCycleComesBackToTheDatasetsDefault: census's age starts at
// its default intervals:5,10,20; b cycles through the builders and comes
// back to those widths, not to intervals of the column's own width.
func TestBuilderCycleComesBackToTheDatasetsDefault(t *testing.T) {
	p := New(panetest.State(t, "dataset:census", "distribution"))
	spec := func() string { return strings.Fields(p.spec("age"))[0] }
	if got := spec(); got != "intervals:5,10,20" {
		t.Fatalf("age starts at %q, want the dataset's intervals:5,10,20", got)
	}
	var seen []string
	for range 10 {
		p.Update(panetest.Runes("b"))
		seen = append(seen, spec())
		if spec() == "intervals:5,10,20" {
			return
		}
	}
	t.Fatalf("b went through %q and never back to intervals:5,10,20", seen)
}
