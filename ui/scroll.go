package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/ui/common"
)

// scroller lets a pane whose text can exceed the screen scroll it (issue
// 35.2): ↑/↓, the page keys, home and end move the first line shown, and
// the last line says how many lines are below, as the tour's text does.
type scroller struct {
	offset int // the first line on screen
	lines  int // the text's lines at the last draw
	room   int // the lines on screen at the last draw
}

// scrollKeys are the keys a scrolling pane matches, for its full help.
func scrollKeys(k KeyMap) []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// update moves the text for a scrolling key and reports whether msg was one.
func (sc *scroller) update(k KeyMap, msg tea.KeyMsg) bool {
	page := max(1, sc.room-1)
	last := max(0, sc.lines-sc.room)
	switch {
	case key.Matches(msg, k.Down):
		sc.offset++
	case key.Matches(msg, k.PageDown):
		sc.offset += page
	case key.Matches(msg, k.Up):
		sc.offset--
	case key.Matches(msg, k.PageUp):
		sc.offset -= page
	case key.Matches(msg, k.Top):
		sc.offset = 0
	case key.Matches(msg, k.Bottom):
		sc.offset = last
	default:
		return false
	}
	sc.offset = max(0, min(sc.offset, last))
	return true
}

// view shows the part of text that fits h lines from the offset; when
// lines are below, the last line says how many and which keys scroll.
func (sc *scroller) view(st *State, text string, w, h int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	sc.lines, sc.room = len(lines), max(1, h)
	if len(lines) <= h {
		sc.offset = 0
		return text
	}
	sc.offset = max(0, min(sc.offset, len(lines)-sc.room))
	shown := append([]string(nil), lines[sc.offset:min(len(lines), sc.offset+sc.room)]...)
	if more := len(lines) - sc.offset - len(shown); more > 0 {
		k := st.Keys
		note := fmt.Sprintf("↓ %d more lines · %s %s scroll", more+1, k.Down.Help().Key, k.PageDown.Help().Key)
		if sc.offset > 0 {
			note = fmt.Sprintf("↑ %d above · ", sc.offset) + note
		}
		shown[len(shown)-1] = st.Styles.Muted.Render(common.Fit(note, w))
	} else if sc.offset > 0 {
		shown[0] = st.Styles.Muted.Render(common.Fit(fmt.Sprintf("↑ %d more lines above · %s %s scroll", sc.offset+1, st.Keys.Up.Help().Key, st.Keys.PageUp.Help().Key), w))
	}
	return strings.Join(shown, "\n")
}
