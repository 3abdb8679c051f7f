package ui

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"privlab/ui/common"
)

// runeMap renames key names rune by rune: every rune of a default key
// name gets a letter of its own that no screen holds otherwise and that
// is as wide, so a screen drawn with the renamed keys has the layout of
// the default one.
type runeMap struct {
	to, back map[rune]rune
	next     rune
}

// name renames s rune by rune, but for "/" between names and "-", where
// a line may wrap ("1-9", "+/-").
func (m *runeMap) name(s string) string {
	parts := strings.Split(s, "/")
	if s == "/" {
		parts = []string{"/"}
	}
	for i, p := range parts {
		var b strings.Builder
		for _, r := range p {
			if r == '-' {
				b.WriteRune(r)
				continue
			}
			n, ok := m.to[r]
			if !ok {
				n = m.fresh()
				m.to[r], m.back[n] = n, r
			}
			b.WriteRune(n)
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, "/")
}

// undo turns the renamed keys of a screen back into the default ones.
func (m *runeMap) undo(s string) string {
	return strings.Map(func(r rune) rune {
		if o, ok := m.back[r]; ok {
			return o
		}
		return r
	}, s)
}

// The tests' apps take testKeys instead of the default keys when set,
// and press sends the key renamedPress gives for a default key.
var (
	testKeys     *KeyMap
	renamedPress map[string]rune
)

// fresh is a letter no screen holds and no name was given yet.
func (m *runeMap) fresh() rune {
	for {
		m.next++
		if c := string(m.next); unicode.IsLetter(m.next) && ansi.StringWidth(c) == 1 && ansi.StringWidth(c+c) == 2 {
			return m.next
		}
	}
}

// renamedKeys is the default KeyMap with every binding's keys and help
// key renamed (its descriptions kept), the key each default key became
// (a letter of its own, so that a test presses it), and the default key
// names.
func renamedKeys() (KeyMap, *runeMap, map[string]rune, []string) {
	m := &runeMap{to: map[rune]rune{}, back: map[rune]rune{}, next: 0x17f}
	k := common.DefaultKeyMap()
	v := reflect.ValueOf(&k).Elem()
	var old []string
	press := map[string]rune{}
	for i := 0; i < v.NumField(); i++ {
		b := v.Field(i).Interface().(key.Binding)
		var keys []string
		for _, s := range b.Keys() {
			if _, ok := press[s]; !ok && len([]rune(s)) == 1 {
				press[s] = []rune(m.name(s))[0] // as a screen names it (tabs, "(or /)")
			} else if !ok {
				press[s] = m.fresh()
			}
			keys = append(keys, string(press[s]))
		}
		old = append(old, b.Help().Key)
		v.Field(i).Set(reflect.ValueOf(key.NewBinding(key.WithKeys(keys...), key.WithHelp(m.name(b.Help().Key), b.Help().Desc))))
	}
	return k, m, press, old
}

// oldKeyPatterns find a default key name left on a screen drawn with the
// renamed keys, where a screen names a key: a name of several letters
// ("enter", "ctrl+r", "pgup/b") as a word; one character as "(e: ",
// "(v)", "press e ", "· e ", "e/P", "(e ..." or before the verbs the
// screens use after a key.
func oldKeyPatterns(old []string) []*regexp.Regexp {
	seen := map[string]bool{}
	var out []*regexp.Regexp
	verbs := `(opens|lists|runs|stops|toggles|marks|closes|types|picks|cycles|shows|recomputes|back|next|edit|enters|folds|comes|keep|load|save|cancel|replace|yes|no|again|to|renames|names|doubles|halves)`
	for _, o := range old {
		for _, name := range append(strings.Split(o, "/"), o) {
			if name == "" || name == "-" || seen[name] {
				continue
			}
			seen[name] = true
			q := regexp.QuoteMeta(name)
			if len([]rune(name)) > 1 {
				out = append(out, regexp.MustCompile(`(^|[^\pL\pN+])`+q+`($|[^\pL\pN+])`))
				continue
			}
			out = append(out, regexp.MustCompile(`(^|\s)\(`+q+`(: |\))|press `+q+` |(^|[\s(])`+q+` `+verbs+`\b|(^|[\s(])`+q+`/[^\s/]{1,5}[\s)]|(^|[\s(])`+q+` in the \pL+ pane`))
		}
	}
	return out
}

// TestRebindingRenamesEveryKeyOnScreen renames every key of the KeyMap
// and draws every pane, dialog and the import wizard at 120x34 and
// 80x24: the screen reads as with the default keys but for the names
// (so each name comes from its binding and nothing else moved), and no
// default key name is left where a screen names a key.
func TestRebindingRenamesEveryKeyOnScreen(t *testing.T) {
	renamed, m, press, old := renamedKeys()
	patterns := oldKeyPatterns(old)
	defer func() { testKeys, renamedPress = nil, nil }()
	for name, setup := range rebindViews(t) {
		t.Run(name, func(t *testing.T) {
			defer func() { atSize = [2]int{80, 12} }()
			for _, size := range [][2]int{{120, 34}, {80, 24}} {
				// Each view is set up at its size: a resize may close
				// what the setup opened (a group's detail).
				atSize = size
				testKeys, renamedPress = nil, nil
				a := setup(t)
				testKeys, renamedPress = &renamed, press
				r := setup(t)
				testKeys, renamedPress = nil, nil
				for _, app := range []*App{a, r} {
					if app.width != size[0] || app.height != size[1] {
						app.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					}
				}
				want, got := a.View(), r.View()
				if m := reached[name]; !strings.Contains(want, m) {
					t.Fatalf("the view does not show %q:\n%s", m, want)
				}
				if back := m.undo(got); back != want {
					t.Errorf("%dx%d: with renamed keys the screen differs beyond the names:\n%s", size[0], size[1], lineDiff(back, want))
				}
				if name == "file dialog" {
					// The picker's own keys (bubbles/filepicker's KeyMap)
					// are not the workbench's: only its title and / are.
					got = strings.Split(got, "\n↑/↓ move")[0]
				}
				for _, p := range patterns {
					if loc := p.FindStringIndex(got); loc != nil {
						t.Errorf("%dx%d: a default key name is left: %q in\n%s", size[0], size[1], got[max(0, loc[0]-20):min(len(got), loc[1]+20)], got)
					}
				}
			}
		})
	}
}

// reached is what a view shows once its setup reached it.
var reached = map[string]string{
	"compare result": "workload error", "sweep result": "worst case", "hierarchy tree": "» ", "cancelled": "stale: earlier settings",
	"export refused": "not exported", "quit question": "Quit anyway?", "error dialog": "The error", "wizard naming": "column names",
	"import wizard keys": "Keys  of the import wizard", "group detail": "Group ", "check report": "Check report",
	"save dialog": "Save the project as another file", "charts": "Target", "no roles": "parameter sa", "failed": "✗ parameter grouping",
	"query input": "leave the input", "advisor": "no map yet", "advisor map": "on the front", "plain variant": "picks one)", "sweep values": "keep", "hierarchy widths": "cancel", "file dialog": "Open a data file",
}

// rebindViews are the key tests' views and the states whose texts name
// keys: typing, a question, errors, a stale preview, a step's tables.
func rebindViews(t *testing.T) map[string]func(t *testing.T) *App {
	views := keyViews(t)
	views["save dialog"] = func(t *testing.T) *App { a := at(t, "1"); press(t, a, "S"); return a }
	views["query input"] = func(t *testing.T) *App { a := at(t, "6"); press(t, a, "enter"); return a }
	views["sweep values"] = func(t *testing.T) *App { a := at(t, "8"); press(t, a, "e"); return a }
	views["hierarchy widths"] = func(t *testing.T) *App { a := at(t, "2"); press(t, a, "w"); return a }
	views["no roles"] = func(t *testing.T) *App {
		a := at(t, "5")
		a.st.Project.Roles.SA = ""
		a.st.Changed()
		settle(t, a, a.schedule())
		return a
	}
	cancelled := func(t *testing.T) *App {
		a := at(t, "1")
		a.st.SetParam("fakes", "1")
		a.schedule()
		press(t, a, "ctrl+x")
		return a
	}
	views["cancelled"] = func(t *testing.T) *App { a := cancelled(t); press(t, a, "5"); return a }
	views["export refused"] = func(t *testing.T) *App { a := cancelled(t); press(t, a, "7", "enter"); return a }
	views["failed"] = func(t *testing.T) *App {
		a := at(t, "5")
		a.st.SetParam("grouping", "column:nosuch")
		settle(t, a, a.schedule())
		return a
	}
	views["error dialog"] = func(t *testing.T) *App { a := views["failed"](t); press(t, a, "!"); return a }
	views["charts"] = func(t *testing.T) *App { a := at(t, "1"); a.active = common.PaneCharts; return a }
	views["sweep result"] = func(t *testing.T) *App { a := at(t, "8"); press(t, a, "enter"); return a }
	views["compare result"] = func(t *testing.T) *App { a := at(t, "9"); press(t, a, "enter"); return a }
	views["wizard naming"] = func(t *testing.T) *App { a := views["import wizard"](t); press(t, a, "N"); return a }
	// kja without a public table: the Method pane names the key that
	// picks one.
	views["plain variant"] = func(t *testing.T) *App { a := views["kja data"](t); press(t, a, "4"); return a }
	views["advisor"] = func(t *testing.T) *App { a := at(t, "1"); press(t, a, "A"); return a }
	views["advisor map"] = func(t *testing.T) *App {
		a := at(t, "1")
		press(t, a, "A")
		pressDriving(t, a, "r")
		return a
	}
	return views
}

// lineDiff is the lines where got and want differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var out []string
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			out = append(out, "-"+wl, "+"+gl)
		}
	}
	return strings.Join(out, "\n")
}

// TestImportWizardHelp: ? in the import wizard lists its keys with what
// they do and closes again on ? or esc (the wizard stays open); at 80x24
// the footer names every key, wrapped rather than cut; a run error about
// roles, which cannot be set before the file loads, is a neutral hint
// while the wizard is open.
func TestImportWizardHelp(t *testing.T) {
	a := keyViews(t)["import wizard"](t)
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	lines := strings.Split(a.View(), "\n")
	foot := strings.Join(lines[len(lines)-2:], "\n")
	want := "d delimiter • h header row • t numeric/categorical • v missing values • r rename\n" +
		"N name all • enter load • esc back • ? help                                     "
	if foot != want {
		t.Fatalf("the footer at 80x24 is\n%q\nwant\n%q", foot, want)
	}
	for _, close := range []string{"?", "esc"} {
		press(t, a, "?")
		view := a.View()
		for _, s := range []string{"Keys  of the import wizard · esc or ? closes", "↑/k up      d     delimiter", "            N     name all",
			"            enter load", "esc/? close help"} {
			if !strings.Contains(view, s) {
				t.Fatalf("? does not show %q:\n%s", s, view)
			}
		}
		press(t, a, close)
		if d, ok := a.dialog.(*importDialog); !ok || d.showKeys || !strings.Contains(a.View(), "Import ") {
			t.Fatalf("%s did not go back to the wizard: %T", close, a.dialog)
		}
	}
	a.st.Project.Roles.SA = ""
	a.st.Changed()
	settle(t, a, a.schedule())
	if a.st.RunErr == nil {
		t.Fatal("no run error without a sensitive attribute")
	}
	lines = strings.Split(a.View(), "\n")
	if got := lines[len(lines)-3]; !strings.HasPrefix(got, "the roles are set in the Data pane once the file is loaded │") {
		t.Fatalf("the summary bar under the wizard reads %q", got)
	}
	press(t, a, "esc")
	lines = strings.Split(a.View(), "\n")
	if got := lines[len(lines)-2]; !strings.HasPrefix(got, "✗ parameter sa: no sensit… (! full) │") {
		t.Fatalf("after the wizard the summary bar reads %q", got)
	}
}
