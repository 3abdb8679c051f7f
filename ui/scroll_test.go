package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/ui/common"
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
			p := a.panes[common.PaneExport].(*exportPane)
			below := p.scroll.Lines - p.scroll.Room
			press(t, a, "j", "down")
			if p.scroll.Offset != 2 {
				t.Errorf("j, ↓: offset %d, want 2", p.scroll.Offset)
			}
			press(t, a, "G")
			end := a.View()
			if p.scroll.Offset != below || !strings.Contains(end, "what an attacker can still do") || strings.Contains(end, "more lines ·") {
				t.Errorf("end: offset %d of %d, the attacks are not on screen:\n%s", p.scroll.Offset, below, end)
			}
			press(t, a, "home")
			if p.scroll.Offset != 0 || a.View() != top {
				t.Errorf("home: offset %d, want the first screen again", p.scroll.Offset)
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
	if view := ansi.Strip(a.View()); !strings.Contains(view, "↓ 4 more lines · ↓/j pgdn/f scroll") || strings.Contains(view, "* the best of a line") {
		t.Fatalf("the comparison does not say 4 lines are below:\n%s", view)
	}
	press(t, a, "G")
	p := a.panes[common.PaneCompare].(*comparePane)
	if view := ansi.Strip(a.View()); p.scroll.Offset != 3 || !strings.Contains(view, "* the best of a line") || !strings.Contains(view, "↑ 4 more lines above") {
		t.Errorf("end: offset %d:\n%s", p.scroll.Offset, view)
	}
	press(t, a, "b")
	if p.scroll.Offset != 0 {
		t.Errorf("page up: offset %d", p.scroll.Offset)
	}
}
