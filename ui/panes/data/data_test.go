package data

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/data -update

import (
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// TestGoldenSizes: the columns with the census dataset's roles, then
// after the cursor moved down and the column was made the sensitive
// attribute, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(panetest.State(t, "dataset:census", "distribution"))
			p.Refresh()
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "columns_"+size.Name, p.View())
			p.Update(panetest.Runes("j"))
			p.Update(panetest.Runes("a"))
			panetest.Golden(t, "sa_"+size.Name, p.View())
		})
	}
}

// TestRoleKeysChangeTheSession: the role keys change the roles through
// the session and mark a recomputation.
func TestRoleKeysChangeTheSession(t *testing.T) {
	st := panetest.State(t, "dataset:census", "distribution")
	p := New(st)
	p.Refresh()
	col := st.Table.Columns[0].Name
	if !slices.Contains(st.Project.Roles.QIs, col) {
		t.Fatalf("%s is not a quasi-identifier of census: %+v", col, st.Project.Roles)
	}
	changes := st.Changes
	p.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	if slices.Contains(st.Project.Roles.QIs, col) || st.Changes != changes+1 || !st.NeedRun {
		t.Errorf("space left %s a QI (roles %+v, changes %d)", col, st.Project.Roles, st.Changes)
	}
	p.Update(panetest.Runes("i"))
	if !slices.Contains(st.Project.Roles.IDs, col) {
		t.Errorf("i did not make %s an identifier: %+v", col, st.Project.Roles)
	}
}

// TestPublicKeyAsksTheRootForAPicker: p (for a method that reads a
// public table) asks the root for a picker of the formats a table is
// read from.
func TestPublicKeyAsksTheRootForAPicker(t *testing.T) {
	st := panetest.State(t, "dataset:census", "kja")
	if st.Spec().Public == method.NoPublic {
		t.Fatal("kja reads no public table")
	}
	p := New(st)
	p.Refresh()
	cmd := p.Update(panetest.Runes("p"))
	if cmd == nil {
		t.Fatal("p returned no command")
	}
	msg, ok := cmd().(common.PickFileMsg)
	if !ok || msg.Title != "Pick the public table" || len(msg.Types) == 0 || msg.OnPick == nil {
		t.Fatalf("p sent %#v", msg)
	}
	msg.OnPick("public.csv")
	if st.Project.Public != "public.csv" {
		t.Errorf("the pick set the public table to %q", st.Project.Public)
	}
}
