package ui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
)

// deliver runs cmd (and the batches it holds) and hands the App only the
// messages of the given kinds, in order; every other message (a debounce
// tick, a run) is dropped, as if it had not arrived yet. It returns what
// the App scheduled last.
func deliver(t *testing.T, a *App, cmd tea.Cmd, keep func(tea.Msg) bool) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < 100; steps++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		m := runWithTimeout(t, c)
		if b, ok := m.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if keep(m) {
			_, next := a.Update(m)
			queue = append(queue, next)
		}
	}
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "ctrl+x":
		return tea.KeyMsg{Type: tea.KeyCtrlX}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// TestKindToggleThenCancelRefusesExport: a kind change reloads the table;
// cancelling the run that follows leaves the old result on screen, which
// is stale (it is of the old kind) and which export refuses.
func TestKindToggleThenCancelRefusesExport(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		old := a.st.Result
		press(t, a, "1", "down") // zipcode, numeric
		_, cmd := a.Update(keyMsg("t"))
		if a.st.Current() {
			t.Fatal("the result counts as current right after a kind change")
		}
		// The table reloads; the run after it is cancelled before it lands.
		deliver(t, a, cmd, func(m tea.Msg) bool { _, ok := m.(loadedMsg); return ok })
		if a.st.Table.Column("zipcode").Kind.String() != "categorical" {
			t.Fatalf("zipcode is %s after t", a.st.Table.Column("zipcode").Kind)
		}
		press(t, a, "ctrl+x")
		if a.st.Result != old || !a.st.Stale() || a.st.Current() {
			t.Fatalf("after cancel: stale %v current %v", a.st.Stale(), a.st.Current())
		}
		press(t, a, "7", "enter")
		v := a.View()
		if !strings.Contains(v, "not exported: the preview shows earlier settings") {
			t.Fatalf("export was not refused:\n%s", v)
		}
		if _, err := os.Stat(a.panes[paneExport].(*exportPane).dir()); err == nil {
			t.Fatal("a release was written from the old kind's result")
		}
		// ctrl+r recomputes with the new kind; then export goes ahead.
		press(t, a, "ctrl+r")
		settle(t, a, a.schedule())
		if !a.st.Current() || a.st.Result == old {
			t.Fatal("ctrl+r did not bring a current result")
		}
	})
}

// TestMethodSwitchDropsTheOldResult: right after M, nothing of the old
// method's result is drawn under the new method's headings (the Method
// pane's live preview, the export plan), and a public table the new
// method does not read is let go.
func TestMethodSwitchDropsTheOldResult(t *testing.T) {
	kja, err := catalog.Lookup("kja")
	if err != nil {
		t.Skip("kja is not registered")
	}
	if _, err := catalog.Lookup("lossyjoin"); err != nil {
		t.Skip("lossyjoin is not registered")
	}
	ex := kja.Spec().Example
	a := NewApp(testEnv, pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: "kja", Variant: ex.Variant, Params: ex.Params.Clone()})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	settle(t, a, a.schedule())
	if a.st.Result == nil || a.st.Result.Spec.Name != "kja" {
		t.Fatalf("no kja result: %v %v", a.st.LoadErr, a.st.RunErr)
	}
	press(t, a, "4")
	// M moves to the next method in the catalog; step until lossyjoin
	// without letting any run land.
	var cmd tea.Cmd
	for i := 0; i < len(catalog.All()) && a.st.Project.Method != "lossyjoin"; i++ {
		_, cmd = a.Update(keyMsg("M"))
		if a.st.Result != nil || a.st.Workload != nil {
			t.Fatalf("the %s result is still shown after switching to %s", "kja", a.st.Project.Method)
		}
		v := a.View()
		if strings.Contains(v, "p_br") || strings.Contains(v, "breach") {
			t.Fatalf("kja's figures under %s:\n%s", a.st.Project.Method, v)
		}
		a.active = paneExport
		if v := a.View(); strings.Contains(v, "will write") {
			t.Fatalf("an export plan without a result of %s:\n%s", a.st.Project.Method, v)
		}
		a.active = paneMethod
	}
	if a.st.Project.Public != "" {
		t.Fatalf("lossyjoin reads no public table, yet %q is kept", a.st.Project.Public)
	}
	a.st.SetParam("alpha", "0.5") // universe's occupations need it
	settle(t, a, tea.Batch(cmd, a.schedule()))
	if a.st.RunErr != nil || a.st.Result == nil || a.st.Result.Spec.Name != "lossyjoin" {
		t.Fatalf("after the switch: %v", a.st.RunErr)
	}
	for _, f := range a.st.Result.Spec.Figures {
		if !strings.Contains(a.View(), clip(f.Key, 7)) {
			t.Errorf("the live preview lacks lossyjoin's %s column:\n%s", f.Key, a.View())
		}
	}
}
