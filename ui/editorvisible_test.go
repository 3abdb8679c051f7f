package ui

import (
	"strings"
	"testing"
)

// TestTargetEditorIsOnScreenAt80x24: enter on the target in the Target
// and Method panes opens its editor where it is seen at 80x24, and a
// refused value's reason too (the editor was drawn under the presets and
// the definition, past the pane's last row: typing went unseen).
func TestTargetEditorIsOnScreenAt80x24(t *testing.T) {
	for _, pane := range []string{"3", "4"} {
		a := ready(t, "dataset:census", 80, 24)
		press(t, a, pane, "enter")
		if v := a.View(); !strings.Contains(v, "target: ") {
			t.Fatalf("pane %s: the editor is not on screen:\n%s", pane, v)
		}
		press(t, a, "ctrl+u", "normal:abc", "enter")
		if v := a.View(); !strings.Contains(v, "refused: ") {
			t.Errorf("pane %s: the refusal is not on screen:\n%s", pane, v)
		}
	}
}
