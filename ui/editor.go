package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/ui/common"
)

// lineEditor is the one-line text input a pane opens to type a value:
// enter submits it (the pane may refuse it with a reason, and the editor
// stays open showing that reason), esc closes it. While it is open the
// pane captures every key.
type lineEditor struct {
	input  textinput.Model
	active bool
	err    string
}

// editorKeys are the keys an open editor acts on (enter, esc); every
// other key is typed. Panes show them as their help while it is open.
var editorKeys = common.DefaultKeyMap()

func newLineEditor(width int) lineEditor {
	in := textinput.New()
	in.Width = width
	return lineEditor{input: in}
}

// open shows the editor with a prompt and a starting value.
func (e *lineEditor) open(prompt, value string) tea.Cmd {
	e.active, e.err = true, ""
	e.input.Prompt = prompt
	e.input.SetValue(value)
	e.input.CursorEnd()
	e.input.Focus()
	return textinput.Blink
}

func (e *lineEditor) close() {
	e.active, e.err = false, ""
	e.input.Blur()
}

// update handles a message while the editor is open. submit receives the
// typed text on enter; a non-nil error keeps the editor open with the
// error as the reason.
func (e *lineEditor) update(msg tea.Msg, submit func(string) error) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, editorKeys.Back):
			e.close()
			return nil
		case key.Matches(k, editorKeys.Enter):
			if err := submit(e.input.Value()); err != nil {
				e.err = editorText(err)
				return nil
			}
			e.close()
			return nil
		}
	}
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	return cmd
}

// view renders the input, and the refusal reason below it, wrapped to w.
func (e *lineEditor) view(s *Styles, w int, refused string) string {
	out := e.input.View() + "\n"
	if e.err != "" {
		out += s.Error.Render(common.Wrap(refused+e.err, w)) + "\n"
	}
	return out
}
