package components

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/ui/common"
)

// Scroller lets a pane whose text can exceed the screen scroll it (issue
// 35.2): ↑/↓, the page keys, home and end move the first line shown, and
// the last line says how many lines are below, as the tour's text does.
type Scroller struct {
	Offset int // the first line on screen
	Lines  int // the text's lines at the last draw
	Room   int // the lines on screen at the last draw
}

// ScrollKeys are the keys a scrolling pane matches, for its full help.
func ScrollKeys(k common.KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// Update moves the text for a scrolling key and reports whether msg was one.
func (sc *Scroller) Update(k common.KeyMap, msg tea.KeyMsg) bool {
	page := max(1, sc.Room-1)
	last := max(0, sc.Lines-sc.Room)
	switch {
	case key.Matches(msg, k.Down):
		sc.Offset++
	case key.Matches(msg, k.PageDown):
		sc.Offset += page
	case key.Matches(msg, k.Up):
		sc.Offset--
	case key.Matches(msg, k.PageUp):
		sc.Offset -= page
	case key.Matches(msg, k.Top):
		sc.Offset = 0
	case key.Matches(msg, k.Bottom):
		sc.Offset = last
	default:
		return false
	}
	sc.Offset = max(0, min(sc.Offset, last))
	return true
}

// View shows the part of text that fits h lines from the offset; when
// lines are below, the last line says how many and which keys scroll.
func (sc *Scroller) View(st *common.State, text string, w, h int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	sc.Lines, sc.Room = len(lines), max(1, h)
	if len(lines) <= h {
		sc.Offset = 0
		return text
	}
	sc.Offset = max(0, min(sc.Offset, len(lines)-sc.Room))
	shown := append([]string(nil), lines[sc.Offset:min(len(lines), sc.Offset+sc.Room)]...)
	if more := len(lines) - sc.Offset - len(shown); more > 0 {
		k := st.Keys
		note := fmt.Sprintf("↓ %d more lines · %s %s scroll", more+1, k.Down.Help().Key, k.PageDown.Help().Key)
		if sc.Offset > 0 {
			note = fmt.Sprintf("↑ %d above · ", sc.Offset) + note
		}
		shown[len(shown)-1] = st.Styles.Muted.Render(common.Fit(note, w))
	} else if sc.Offset > 0 {
		shown[0] = st.Styles.Muted.Render(common.Fit(fmt.Sprintf("↑ %d more lines above · %s %s scroll", sc.Offset+1, st.Keys.Up.Help().Key, st.Keys.PageUp.Help().Key), w))
	}
	return strings.Join(shown, "\n")
}
