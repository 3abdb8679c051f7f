package components

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/ui/common"
)

// LineEditor is the one-line text input a pane opens to type a value:
// enter submits it (the pane may refuse it with a reason, and the editor
// stays open showing that reason), esc closes it. While it is open the
// pane captures every key.
type LineEditor struct {
	Input textinput.Model
	// Active is true while the editor is open.
	Active bool
	// Err is why the last value was refused ("" when none was).
	Err string
}

// editorKeys are the keys an open editor acts on (enter, esc); every
// other key is typed. Panes show them as their help while it is open.
var editorKeys = common.DefaultKeyMap()

// NewLineEditor is a closed editor width cells wide.
func NewLineEditor(width int) LineEditor {
	in := textinput.New()
	in.Width = width
	return LineEditor{Input: in}
}

// Open shows the editor with a prompt and a starting value.
func (e *LineEditor) Open(prompt, value string) tea.Cmd {
	e.Active, e.Err = true, ""
	e.Input.Prompt = prompt
	e.Input.SetValue(value)
	e.Input.CursorEnd()
	e.Input.Focus()
	return textinput.Blink
}

func (e *LineEditor) Close() {
	e.Active, e.Err = false, ""
	e.Input.Blur()
}

// Update handles a message while the editor is open. submit receives the
// typed text on enter; a non-nil error keeps the editor open with the
// error as the reason.
func (e *LineEditor) Update(msg tea.Msg, submit func(string) error) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, editorKeys.Back):
			e.Close()
			return nil
		case key.Matches(k, editorKeys.Enter):
			if err := submit(e.Input.Value()); err != nil {
				e.Err = common.EditorText(err)
				return nil
			}
			e.Close()
			return nil
		}
	}
	var cmd tea.Cmd
	e.Input, cmd = e.Input.Update(msg)
	return cmd
}

// View renders the input, and the refusal reason below it, wrapped to w.
func (e *LineEditor) View(s *common.Styles, w int, refused string) string {
	out := e.Input.View() + "\n"
	if prompt := e.Input.Prompt; common.LenCells(prompt)+e.Input.Width+1 > w && w > 2 {
		// A prompt that leaves the value no room goes on lines of its
		// own, the value under it after "> ": what is typed stays on
		// screen (the population's prompt alone is 120 cells).
		in := e.Input
		in.Prompt = "> "
		out = common.Wrap(prompt, w) + "\n" + in.View() + "\n"
	}
	if e.Err != "" {
		out += s.Error.Render(common.Wrap(refused+e.Err, w)) + "\n"
	}
	return out
}
