package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
)

// moreLines and moreAbove find a scrolled pane's notes of the lines
// below and above the screen (components.Scroller).
var (
	moreLines = regexp.MustCompile(`↓ \d+ more lines`)
	moreAbove = regexp.MustCompile(`↑ \d+ more lines above`)
)

// TestGoldenExportScrolls: the export plan runs past the screen at
// 80x24 and 120x34; its last line says how many lines are below, and ↓,
// j, the page keys and end bring the attacks on screen (issue 35.2).
func TestGoldenExportScrolls(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 34}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := ready(t, "dataset:employees", size[0], size[1])
			press(t, a, "7")
			top := a.View()
			if !strings.Contains(top, " more lines · ↓/j pgdn/f scroll") {
				t.Fatalf("the export plan does not say lines are below:\n%s", top)
			}
			// The note on the last line counts the lines below it and
			// itself: the text is first+more-1 lines longer than the room.
			var first, more int
			if _, err := fmt.Sscanf(moreLines.FindString(top), "↓ %d more lines", &more); err != nil {
				t.Fatalf("no count of the lines below: %v\n%s", err, top)
			}
			press(t, a, "j", "down")
			// Two lines scrolled: the note counts those above (and, at the
			// end, itself) and those below.
			wantJ := fmt.Sprintf("↑ 2 above · ↓ %d more lines ·", more-2)
			if more-1 == 2 {
				wantJ = "↑ 3 more lines above ·"
			}
			if v := a.View(); !strings.Contains(v, wantJ) {
				t.Errorf("j, ↓: want %q:\n%s", wantJ, v)
			}
			press(t, a, "G")
			end := a.View()
			if _, err := fmt.Sscanf(moreAbove.FindString(end), "↑ %d more lines above", &first); err != nil || first != more ||
				!strings.Contains(end, "what an attacker can still do") || strings.Contains(end, "more lines ·") {
				t.Errorf("end: %d lines above, want %d (%v); the attacks are not on screen:\n%s", first, more, err, end)
			}
			press(t, a, "home")
			if a.View() != top {
				t.Errorf("home: want the first screen again:\n%s", a.View())
			}
			teatest.RequireEqualOutput(t, []byte(top+"\n"+end))
		})
	}
}

// TestGoldenBangShowsWarnings: the bar cuts the first warning; ! shows
// every current warning in full, also when there is no error, and any
// key closes it (issue 35.6).
func TestGoldenBangShowsWarnings(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 34}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := ready(t, "dataset:employees", size[0], size[1])
			if a.st.shownError() != nil {
				t.Fatalf("an error on screen: %v", a.st.shownError())
			}
			ws, _ := a.st.ShownWarnings()
			if len(ws) != 1 {
				t.Fatalf("warnings %q, want 1", ws)
			}
			press(t, a, "!")
			d, ok := a.dialog.(*errorDialog)
			if !ok {
				t.Fatalf("! opened %T, want the error dialog", a.dialog)
			}
			view := a.View()
			flat := strings.Join(strings.Fields(ansi.Strip(view)), " ")
			for _, want := range []string{"1 warning", "! 82% of the published records are unique on the published quasi-identifiers (above 5%): whoever knows a person's quasi-identifiers finds their record"} {
				if !strings.Contains(strings.ReplaceAll(flat, "│ ", ""), want) {
					t.Errorf("! does not show %q:\n%s", want, view)
				}
			}
			if d.err != nil {
				t.Errorf("the dialog shows an error: %v", d.err)
			}
			teatest.RequireEqualOutput(t, []byte(view))
			press(t, a, "x")
			if a.dialog != nil {
				t.Errorf("a key did not close the dialog")
			}
		})
	}
}

// TestCompareScrolls: the comparison runs past 80x24; its last line says
// how many lines are below and end brings the legend on screen.
func TestCompareScrolls(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "9", "enter")
	settle(t, a, nil)
	top := a.View()
	if view := ansi.Strip(top); !strings.Contains(view, "↓ 41 more lines · ↓/j pgdn/f scroll") || strings.Contains(view, "* the best of a line") {
		t.Fatalf("the comparison (and its glossary) does not say 41 lines are below:\n%s", view)
	}
	press(t, a, "G")
	// 40 lines scrolled: the note on the first line counts them and
	// itself; the glossary's last line is on screen.
	if view := ansi.Strip(a.View()); !strings.Contains(view, "bound width / truth:") || !strings.Contains(view, "↑ 41 more lines above") {
		t.Errorf("end: not 40 lines scrolled to the glossary's end:\n%s", view)
	}
	press(t, a, "b", "b", "b")
	if a.View() != top {
		t.Errorf("three pages up: not the first screen:\n%s", a.View())
	}
}
