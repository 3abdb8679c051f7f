package ui

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/ui/common"
)

// hostile is a table whose header and cells hold what a file may bring
// to a terminal: an OSC title ended by BEL, CSI sequences (clear the
// screen, reverse video), a C1 CSI, a tab, a backslash, a bidi override
// (issue 32, item 6). Every name and value but two holds a colour
// sequence (SGR), which the screen's last defence (termScreen) lets
// through as it cannot tell it from its own styles: so each place that
// shows one escapes it.
var (
	hostileHeader = []string{"id", "age", "a\x1b]0;PWNED\x07", "zi\\p\x1b[7m", "ge\tn\x1b[7mder", "dis\u202eea\x1b[7mse"}
	hostileCats   = []string{"x\x1b[2Jy", "p\x07q\x1b[7m", "r\\s\x1b[7m", "t\tu\x1b[7m", "v\u202ew\x1b[7m"}
	hostileZips   = []string{"1\\0\x1b[7m", "2\t0\x1b[7m", "30"}
	hostileSexes  = []string{"M\x1b[7m", "F\x1b[31m"}
	hostileSAs    = []string{"flu\x1b]0;X\x07\x1b[7m", "hiv\x1b[7m", "c\u009bold\x1b[7m", "d\u202eq\x1b[7m"}
)

// writeHostile writes the table (80 records) as name in dir and returns
// its path.
func writeHostile(t *testing.T, dir, name string) string {
	t.Helper()
	rows := [][]string{hostileHeader}
	for i := 0; i < 80; i++ {
		rows = append(rows, []string{strconv.Itoa(1000 + i), strconv.Itoa(20 + (i*7)%40), hostileCats[i%5], hostileZips[i%3],
			hostileSexes[i%2], hostileSAs[(i*3)%4]})
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// noRawControl fails the test when the screen holds a character a
// terminal would act on or reorder text by: a control other than
// newline (the test renders without colour, so no ESC at all), a C1
// control, a bidi override.
func noRawControl(t *testing.T, what, screen string) {
	t.Helper()
	for _, r := range screen {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e') {
			var bad []string
			for _, l := range strings.Split(screen, "\n") {
				if strings.ContainsAny(l, "\x1b\x07\t\u202e\u009b") {
					bad = append(bad, strconv.Quote(l))
				}
			}
			t.Errorf("%s shows a raw %q in:\n%s", what, r, strings.Join(bad, "\n"))
			return
		}
	}
}

// The workbench on a hostile table, under each of the five methods:
// every pane (data with each column under the cursor, hierarchy,
// charts, method, preview and a group's detail, query with an answer
// and an error, export, sweep, compare), the import wizard and the
// status bar show the names and values escaped, never a raw control
// character.
func TestWorkbenchEscapesNamesAndValues(t *testing.T) {
	dir := t.TempDir()
	path := writeHostile(t, dir, "mt.csv")
	for _, m := range []struct {
		name    string
		variant string
		params  model.Values
	}{{"distribution", "", nil}, {"kja", "mondrian", model.Values{"k": "4"}}, {"lossyjoin", "", nil},
		{"sampling", "", model.Values{"max-distortion": "1"}}, {"ambiguity", "", nil}} {
		p := pipeline.Project{Input: path, Method: m.name, Variant: m.variant, Params: m.params,
			Roles: model.Roles{IDs: []string{"id"}, QIs: hostileHeader[1:5], SA: hostileHeader[5]}}
		a := newApp(testEnv, p)
		a.st.Now = fixedClock
		a.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
		settle(t, a, a.schedule())
		if a.st.Result == nil || a.st.RunErr != nil {
			t.Fatalf("%s: no result: %v %v", m.name, a.st.LoadErr, a.st.RunErr)
		}
		look := func(what string) { t.Helper(); noRawControl(t, m.name+": "+what, a.View()) }
		for _, pane := range a.visible() {
			a.active = pane
			look("pane " + strconv.Itoa(pane))
		}
		a.active = common.PaneData
		for range hostileHeader {
			press(t, a, "down")
			look("data pane, a column under the cursor")
		}
		a.active = common.PaneHierarchy
		for range hostileHeader {
			press(t, a, "down")
			look("hierarchy pane")
			press(t, a, "right")
			look("hierarchy tree")
			press(t, a, "left")
		}
		a.active = common.PanePreview
		press(t, a, "enter")
		look("group detail")
		press(t, a, "esc")
		a.active = common.PaneQuery
		press(t, a, "enter")
		for _, text := range []string{"COUNT(*) WHERE age > 30", "COUNT(*) WHERE nope = 1"} {
			press(t, a, "ctrl+u", text, "enter")
			settle(t, a, nil)
			look("query pane: " + text)
		}
		// The first query is answered (its next line is the true
		// answer), the second refused (no column nope).
		answered := regexp.MustCompile(`> COUNT\(\*\) WHERE age > 30 *\ntrue `)
		refused := regexp.MustCompile(`> COUNT\(\*\) WHERE nope = 1 *\nquery:1:16: no column "nope"`)
		if v := ansi.Strip(a.View()); !answered.MatchString(v) || !refused.MatchString(v) {
			t.Errorf("%s: the queries:\n%s", m.name, v)
		}
		a.active = common.PaneExport
		press(t, a, "e", "ctrl+u", filepath.Join(dir, "rel-"+m.name), "enter", "enter")
		look("export pane")
		if v := a.View(); !strings.Contains(v, "✓ wrote") || strings.Contains(v, "✗ ") {
			t.Errorf("%s: export failed:\n%s", m.name, v)
		}
		_, cmd := a.Update(openReleaseMsg{dir: filepath.Join(dir, "rel-"+m.name)})
		settle(t, a, cmd)
		if a.st.Received == nil || !a.st.Received.CheckOK {
			t.Errorf("%s: the exported release does not open and pass: %+v", m.name, a.st.Received)
		}
		if v := a.View(); !strings.Contains(v, `QIs age,a\x1b]0;PWNED\x07,zi\p\x1b[7m,ge\tn\x1b[7mder · SA dis\u202eea\x1b[7mse`) {
			t.Errorf("%s: the release read does not show its names escaped:\n%s", m.name, v)
		}
		look("the release read")
		press(t, a, "c")
		look("the release's check report")
		press(t, a, "esc")
		a = newApp(testEnv, p)
		a.st.Now = fixedClock
		a.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
		settle(t, a, a.schedule())
		a.active = common.PaneSweep
		press(t, a, "enter")
		look("sweep pane")
		a.active = common.PaneData
		if v := a.View(); !strings.Contains(v, `a\x1b]0;PWNED\x07`) || !strings.Contains(v, `SA: dis\u202eea\x1b[7mse`) {
			t.Errorf("%s: the data pane does not show the names escaped:\n%s", m.name, v)
		}
		if m.name == "distribution" {
			press(t, a, "9", "enter")
			look("compare pane")
			// Every method has a column (the first one selected).
			v := ansi.Strip(a.View())
			head := v[strings.Index(v, "▸"):]
			head = head[:strings.IndexByte(head, '\n')]
			for _, m := range catalog.Names() {
				if !strings.Contains(head, m[:min(len(m), 6)]) {
					t.Errorf("compare: no column for %s:\n%s", m, v)
				}
			}
			a.st.RunErr = &model.ParamError{Param: "grouping", Value: "column:" + hostileHeader[2], Reason: "no column " + hostileHeader[4]}
			press(t, a, "!")
			look("error dialog")
			press(t, a, "esc")
			_, cmd := a.Update(openDialogMsg{newImportDialog(a.st, path)})
			settle(t, a, cmd)
			look("import wizard")
		}
	}
}

// The screen keeps the styles' colour sequences and the newlines, and
// shows every other control or format character escaped: an OSC title,
// a BEL, a screen clear, a C1 CSI, a bidi override.
func TestTermScreenKeepsOnlyColours(t *testing.T) {
	in := "\x1b[1mtitle\x1b[0m a\x1b]0;PWNED\x07 b\x1b[2J\nc\u009b1m \u202ed\t\x1b[38;5;203mred\x1b[0m\x1b"
	want := "\x1b[1mtitle\x1b[0m a\\x1b]0;PWNED\\x07 b\\x1b[2J\nc\\x9b1m \\u202ed\\t\x1b[38;5;203mred\x1b[0m\\x1b"
	if got := common.TermScreen(in); got != want {
		t.Errorf("termScreen = %q, want %q", got, want)
	}
}
