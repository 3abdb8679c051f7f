package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
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
			p := a.panes[paneExport].(*exportPane)
			below := p.scroll.lines - p.scroll.room
			press(t, a, "j", "down")
			if p.scroll.offset != 2 {
				t.Errorf("j, ↓: offset %d, want 2", p.scroll.offset)
			}
			press(t, a, "G")
			end := a.View()
			if p.scroll.offset != below || !strings.Contains(end, "what an attacker can still do") || strings.Contains(end, "more lines ·") {
				t.Errorf("end: offset %d of %d, the attacks are not on screen:\n%s", p.scroll.offset, below, end)
			}
			press(t, a, "home")
			if p.scroll.offset != 0 || a.View() != top {
				t.Errorf("home: offset %d, want the first screen again", p.scroll.offset)
			}
			teatest.RequireEqualOutput(t, []byte(top+"\n"+end))
		})
	}
}
