package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model/releasedir"
	"privlab/ui/common"
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
		if _, err := os.Stat("release-employees-distribution"); err == nil { // the export's default directory
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
	a := newApp(testEnv, pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: "kja", Variant: ex.Variant, Params: ex.Params.Clone()})
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
		a.active = common.PaneExport
		if v := a.View(); strings.Contains(v, "will write") {
			t.Fatalf("an export plan without a result of %s:\n%s", a.st.Project.Method, v)
		}
		a.active = common.PaneMethod
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
		if !strings.Contains(a.View(), common.Clip(f.Key, 7)) {
			t.Errorf("the live preview lacks lossyjoin's %s column:\n%s", f.Key, a.View())
		}
	}
}

// exportEmployees writes release-employees-distribution (and its audit
// record) in the working directory.
func exportEmployees(t *testing.T) {
	t.Helper()
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "7", "enter")
	if !isRelease("release-employees-distribution") {
		t.Fatalf("no release written:\n%s", a.View())
	}
}

// TestReleaseFromThePickerUsesItsOwnInput: a release opened over another
// table is checked against the input its audit record names, never
// against the table that happened to be loaded; without a usable audit
// record it is checked from its files alone. Leaving it (ctrl+l) goes
// back to the workbench.
func TestReleaseFromThePickerUsesItsOwnInput(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		exportEmployees(t)
		a := ready(t, "dataset:census", 100, 30)
		if a.st.Result == nil {
			t.Fatal("census did not run")
		}
		_, cmd := a.Update(openReleaseMsg{dir: "release-employees-distribution"})
		if a.st.Result != nil || a.st.Table != nil {
			t.Fatal("census is still loaded while the release is read")
		}
		settle(t, a, cmd)
		r := a.st.Received
		if r == nil || !r.CheckOK || a.st.Table == nil || a.st.Table.Rows != 11 {
			t.Fatalf("the release was not checked against employees: %v %+v", a.st.ReceivedErr, r)
		}
		v := a.View()
		for _, want := range []string{"original employees (11 rows)", "passes every check against its input dataset:employees", "1 Release  2 Query  3 Data"} {
			if !strings.Contains(v, want) {
				t.Errorf("the release view lacks %q:\n%s", want, v)
			}
		}
		if strings.Contains(v, "✓ private") || strings.Contains(v, "139 groups") {
			t.Errorf("the summary bar shows the workbench's result in release mode:\n%s", v)
		}
		// Every check line, in a scrollable list.
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		press(t, a, "c")
		v = a.View()
		if !strings.Contains(v, fmt.Sprintf("Check report (%d lines)", len(r.Check))) || !strings.Contains(v, prefix(r.Check[0], 40)) {
			t.Errorf("c does not list the check report:\n%s", v)
		}
		last := prefix(r.Check[len(r.Check)-1], 40)
		if strings.Contains(v, last) {
			t.Fatalf("the whole report fits at 80x24; the scrolling is not tested:\n%s", v)
		}
		for range r.Check {
			press(t, a, "down")
		}
		if v = a.View(); !strings.Contains(v, last) {
			t.Errorf("the last check line is not reachable:\n%s", v)
		}
		press(t, a, "esc")

		// Leaving: ctrl+l loads a dataset and the workbench is back.
		press(t, a, "ctrl+l", "enter")
		settle(t, a, a.schedule())
		if a.st.ReceivedDir != "" || a.st.Received != nil || a.active == common.PaneRelease {
			t.Fatalf("still in release mode after ctrl+l: %q, pane %d", a.st.ReceivedDir, a.active)
		}
		if v := a.View(); !strings.Contains(v, "1 Data") || !strings.Contains(v, "6 Query") {
			t.Fatalf("the workbench's tabs are not back:\n%s", v)
		}

		// Without its audit record, the release is read from its files.
		if err := os.Rename(releasedir.AuditPath("release-employees-distribution"), "elsewhere.json"); err != nil {
			t.Fatal(err)
		}
		_, cmd = a.Update(openReleaseMsg{dir: "release-employees-distribution"})
		settle(t, a, cmd)
		if a.st.Received == nil || a.st.Table != nil {
			t.Fatalf("without an audit record: table %v, err %v", a.st.Table != nil, a.st.ReceivedErr)
		}
		if v := a.View(); !strings.Contains(strings.Join(strings.Fields(v), " "), "from its files alone (no audit record beside it names its input)") {
			t.Errorf("the view does not say the check read the files alone:\n%s", v)
		}
	})
}

// TestReleaseAuditInputMustMatch: an audit record naming a file that has
// changed since the export does not make that file the original.
func TestReleaseAuditInputMustMatch(t *testing.T) {
	dir := copyImport(t)
	inDir(t, dir, func() {
		a := newTestApp("people.data")
		a.st.Project.Columns = []string{"age", "sex", "zip", "disease"}
		a.st.Project.Roles.QIs, a.st.Project.Roles.SA = []string{"age", "sex"}, "disease"
		a.st.Project.Params["grouping"] = "sa-only"
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		settle(t, a, a.schedule())
		press(t, a, "7", "enter")
		rel, _ := filepath.Abs("release-people-distribution") // the export's default directory
		if !isRelease(rel) {
			t.Fatalf("no release: %v %v\n%s", a.st.LoadErr, a.st.RunErr, a.View())
		}
		_, cmd := a.Update(openReleaseMsg{dir: rel})
		settle(t, a, cmd)
		if a.st.Table == nil || !strings.Contains(a.st.Received.Against, "against its input people.data") {
			t.Fatalf("the unchanged input was not used: %+v", a.st.Received)
		}
		f, _ := os.OpenFile("people.data", os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("99,F,99999,flu\n")
		f.Close()
		_, cmd = a.Update(openReleaseMsg{dir: rel})
		settle(t, a, cmd)
		if a.st.Table != nil || !strings.Contains(a.st.Received.Against, "people.data has changed since the export") {
			t.Fatalf("a changed input was used as the original: %q", a.st.Received.Against)
		}
	})
}

// TestPickerOpensReleaseFolders: enter on a folder holding a
// manifest.json, or on the manifest itself, reads the release.
func TestPickerOpensReleaseFolders(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		exportEmployees(t)
		st := ready(t, "dataset:employees", 80, 24).st
		d := newFileDialog(st)
		if !strings.Contains(d.title, "release folder") {
			t.Errorf("the picker's title does not mention releases: %q", d.title)
		}
		for _, path := range []string{"release-employees-distribution", filepath.Join("release-employees-distribution", "manifest.json")} {
			done, cmd := d.picked(path)
			if !done || cmd == nil {
				t.Fatalf("%s: not opened", path)
			}
			if m, ok := cmd().(openReleaseMsg); !ok || m.dir != "release-employees-distribution" {
				t.Fatalf("%s: %#v", path, m)
			}
		}
		// Through the picker's own keys: enter on the folder.
		d = newFileDialog(st)
		d.picker.CurrentDirectory = dir
		d.update(d.init()())
		_, cmd := d.update(keyMsg("enter"))
		if cmd == nil {
			t.Fatal("enter on the release folder did nothing")
		}
		if m, ok := cmd().(openReleaseMsg); !ok || filepath.Base(m.dir) != "release-employees-distribution" {
			t.Fatalf("enter on the release folder: %#v", m)
		}
	})
}

func prefix(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// kja's default variant joins the table with a public database: without
// one the workbench opens kja on its declared plain variant (not on an
// error), says so, and a public table brings the default variant back.
func TestKjaWithoutPublicRunsItsPlainVariant(t *testing.T) {
	for _, m := range methods() {
		if v := m.Spec().NoPublicVariant; v != "" && !slices.Contains(m.Spec().Variants, v) {
			t.Errorf("%s: the variant without a public table %q is not one of its variants", m.Spec().Name, v)
		}
	}
	a := ready(t, "dataset:census", 100, 30)
	a.st.SetMethod("kja")
	settle(t, a, a.schedule())
	if a.st.RunErr != nil || a.st.Result == nil || a.st.Prep.Project.Variant != "mondrian" {
		t.Fatalf("kja without a public table: %v", a.st.RunErr)
	}
	press(t, a, "4")
	if v := a.View(); !strings.Contains(v, "kja/mondrian") || !strings.Contains(v, "no public table: the plain variant") {
		t.Fatalf("the Method pane does not say which variant runs:\n%s", v)
	}
	if a.st.Project.Variant != "" {
		t.Fatalf("the fallback was written into the settings: %q", a.st.Project.Variant)
	}
	a.st.SetPublic("dataset:census")
	settle(t, a, a.schedule())
	if a.st.Prep == nil || a.st.Prep.Input().VariantOr(a.st.Spec()) != "mondrian-direct" {
		t.Fatalf("with a public table the default variant does not run: %v", a.st.RunErr)
	}
}

// A panic in background work becomes an error message naming the crash
// file that holds its stack; the session goes on.
func TestGuardedKeepsTheStackInAFile(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	msg := common.Guarded(func() tea.Msg { panic("boom") }, func(err error) tea.Msg { return err })()
	err, ok := msg.(error)
	if !ok || !strings.HasPrefix(err.Error(), "internal error: boom (please report it; details in "+os.Getenv("TMPDIR")) ||
		strings.Contains(err.Error(), "goroutine") {
		t.Fatalf("%v", msg)
	}
}

func methods() []method.Method { return catalog.All() }
