package ui

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/ui/common"
)

// everyKey is every key a test presses: the printable characters, space,
// the named keys and ctrl+letter.
func everyKey() []tea.KeyMsg {
	var out []tea.KeyMsg
	for r := '!'; r <= '~'; r++ {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	for _, t := range []tea.KeyType{tea.KeySpace, tea.KeyEnter, tea.KeyEsc, tea.KeyTab, tea.KeyShiftTab, tea.KeyUp, tea.KeyDown,
		tea.KeyLeft, tea.KeyRight, tea.KeyHome, tea.KeyEnd, tea.KeyPgUp, tea.KeyPgDown, tea.KeyBackspace, tea.KeyDelete} {
		out = append(out, tea.KeyMsg{Type: t})
	}
	for t := tea.KeyCtrlA; t <= tea.KeyCtrlZ; t++ {
		out = append(out, tea.KeyMsg{Type: t})
	}
	return out
}

// inHelp reports whether one of the bindings holds the key.
func inHelp(k tea.KeyMsg, help []key.Binding) bool {
	for _, b := range help {
		if key.Matches(k, b) {
			return true
		}
	}
	return false
}

// fingerprint is what a key may change: the screen, the settings, the
// pane, the dialog and the status line.
func fingerprint(a *App) string {
	p, _ := json.Marshal(a.st.Project)
	return fmt.Sprintf("%s\n%s\n%d %v %T %q", a.View(), p, a.active, a.showAll, a.dialog, a.st.Status)
}

// shownHelp is the help the view shows: a dialog's keys while one is
// open (global keys do not reach it), else the full help of ?.
func shownHelp(a *App) []key.Binding {
	if d, ok := a.dialog.(*importDialog); ok {
		return wizardKeys(d) // the wizard's ? lists more than its footer
	}
	if a.dialog != nil {
		return a.dialog.help()
	}
	k := a.st.Keys
	help := append(k.GlobalFull(), a.panes[a.active].fullHelp()...)
	if a.showAll {
		help = append(help, k.Back)
	}
	return help
}

// TestEveryMatchedKeyIsInTheHelp is in the style of gh-dash's
// internal/tui/keys/keys_test.go: the help a view shows holds every key
// the view acts on. On every pane, the full help, the tour, the received
// release and the quit, dataset, tour and file dialogs, every key that is
// not in the view's help is pressed, and nothing may change; a key
// compared as a string instead of matched against a binding of the help
// fails here. The import wizard is visited (its keys are in the KeyMap);
// the save dialog and the error dialog are not visited here, and
// TestRebindingRenamesEveryKeyOnScreen draws them.
func TestEveryMatchedKeyIsInTheHelp(t *testing.T) {
	for name, setup := range keyViews(t) {
		t.Run(name, func(t *testing.T) {
			a := setup(t)
			if a.dialog == nil && a.panes[a.active].capturing() {
				t.Fatal("the view is typing text")
			}
			// The screen and state before a key is the one after the last
			// (a key that acted starts the view anew): drawn once a key.
			before := fingerprint(a)
			for _, k := range everyKey() {
				if inHelp(k, shownHelp(a)) {
					continue
				}
				_, cmd := a.Update(k)
				settle(t, a, cmd)
				after := fingerprint(a)
				if after != before {
					t.Errorf("%q acts but is not in the help", k.String())
					a = setup(t)
					after = fingerprint(a)
				}
				before = after
			}
		})
	}
}

// keyViews are the views the key tests visit: every pane and dialog,
// the import wizard among them, each built with the default keys.
func keyViews(t *testing.T) map[string]func(t *testing.T) *App {
	dir := t.TempDir()
	inDir(t, dir, func() {
		// A release to read, for the received release's views.
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
	})
	people := copyImport(t) + "/people.data"
	wizard := func(t *testing.T) *App {
		a := at(t, "1")
		_, cmd := a.Update(openDialogMsg{newImportDialog(a.st, people)})
		settle(t, a, cmd)
		return a
	}
	views := map[string]func(t *testing.T) *App{
		"import wizard":      wizard,
		"import wizard keys": func(t *testing.T) *App { a := wizard(t); press(t, a, "?"); return a },
		"import wizard header": func(t *testing.T) *App {
			a := wizard(t)
			press(t, a, "h")
			return a
		},
		"full help": func(t *testing.T) *App { a := at(t, "5"); press(t, a, "?"); return a },
		"hierarchy tree": func(t *testing.T) *App {
			a := at(t, "2")
			press(t, a, "right")
			return a
		},
		"group detail": func(t *testing.T) *App { a := at(t, "5"); a.View(); press(t, a, "enter"); return a },
		"kja data": func(t *testing.T) *App {
			a := at(t, "1")
			a.st.SetMethod("kja")
			settle(t, a, a.schedule())
			return a
		},
		"quit question":  func(t *testing.T) *App { a := at(t, "1"); a.st.Dirty = true; press(t, a, "q"); return a },
		"dataset dialog": func(t *testing.T) *App { a := at(t, "1"); press(t, a, "ctrl+l"); return a },
		"tour dialog":    func(t *testing.T) *App { a := at(t, "1"); press(t, a, "ctrl+t"); return a },
		"tour":           func(t *testing.T) *App { return tourApp(t, "lossyjoin", 80, 12) },
		"file dialog": func(t *testing.T) *App {
			a := at(t, "1")
			press(t, a, "ctrl+o")
			a.Update(a.dialog.(*fileDialog).init()())
			return a
		},
		"release":      func(t *testing.T) *App { return receivedApp(t, dir) },
		"check report": func(t *testing.T) *App { a := receivedApp(t, dir); press(t, a, "c"); return a },
	}
	for i, name := range []string{"data", "hierarchy", "target", "method", "preview", "query", "export", "sweep", "compare"} {
		views[name] = func(t *testing.T) *App { return at(t, fmt.Sprint(i+1)) }
	}
	return views
}

// atSize is the terminal at opens (the rebinding test draws at two).
var atSize = [2]int{80, 12}

// at is the employees example on pane n (its tab number), one group per
// combination of QI values: more groups than the table has room for.
func at(t *testing.T, n string) *App {
	a := ready(t, "dataset:employees", atSize[0], atSize[1])
	a.st.SetParam("grouping", "qi-sa")
	settle(t, a, a.schedule())
	a.st.Dirty = false
	press(t, a, n)
	return a
}

// receivedApp opens the release in dir for reading.
func receivedApp(t *testing.T, dir string) *App {
	a := newApp(testEnv, pipeline.Project{})
	a.st.Now = fixedClock
	a.st.ReceivedDir = dir + "/release-employees-distribution"
	a.active = common.PaneRelease
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, a, a.schedule())
	return a
}

// Every binding has keys and a help text, and no global key shadows a
// key of a pane.
func TestKeyMapHelpIsComplete(t *testing.T) {
	k := common.DefaultKeyMap()
	v := reflect.ValueOf(k)
	for i := 0; i < v.NumField(); i++ {
		b := v.Field(i).Interface().(key.Binding)
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("binding %s lacks keys or help", v.Type().Field(i).Name)
		}
	}
	global := map[string]bool{}
	for _, b := range k.GlobalFull() {
		for _, s := range b.Keys() {
			global[s] = true
		}
	}
	for _, b := range []key.Binding{k.ToggleQI, k.SetSA, k.ToggleID, k.ClearRole, k.ToggleKind, k.ToggleMissing, k.Public, k.PublicPath,
		k.Builder, k.Wider, k.Narrow, k.File, k.FilePath, k.Widths, k.Edit, k.Method, k.Variant, k.Sort, k.Reverse, k.Filter, k.JumpTo,
		k.PageUp, k.PageDown, k.Top, k.Bottom, k.EditText, k.Rerun, k.CheckReport, k.Population, k.PopulationPath} {
		for _, s := range b.Keys() {
			if global[s] {
				t.Errorf("pane key %q is also a global key", s)
			}
		}
	}
}

// wizardKeys is every key the import wizard matches: the footer's and
// the cursor's (listed by ?).
func wizardKeys(d *importDialog) []key.Binding {
	k := d.st.Keys
	return append([]key.Binding{k.Up, k.Down}, d.help()...)
}
