package ui

import (
	"strings"
	"testing"
)

// TestTypedValueIsOnScreenUnderALongPrompt: at 80x24 what is typed
// after a long prompt is on screen (the population's prompt took 120
// cells, the public table's 85, the missing values' 70: the typed path or
// tokens were past the right edge, typed blind).
func TestTypedValueIsOnScreenUnderALongPrompt(t *testing.T) {
	for _, c := range []struct{ keys []string }{
		{[]string{"7", "P", "ctrl+u", "people/population.csv"}},
		{[]string{"1", "v", "ctrl+u", `"",?,NA,NULL,n/a,unknown`}},
	} {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, c.keys...)
		typed := c.keys[len(c.keys)-1]
		if v := a.View(); !strings.Contains(v, typed) {
			t.Errorf("%v: %q is not on screen:\n%s", c.keys[:2], typed, v)
		}
	}
}

// TestHierarchyPathIsOnScreenWhileTyped: the Hierarchy pane's editor is
// in its right column (46 cells at 80x24); a typed path of 40 cells is on
// screen whole (the input took 50 cells after its prompt: cut with "…").
func TestHierarchyPathIsOnScreenWhileTyped(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	path := "hierarchies/zipcode-by-district-2024.csv"
	press(t, a, "2", "F", "ctrl+u", path)
	if v := a.View(); !strings.Contains(v, path) {
		t.Errorf("%q is not on screen:\n%s", path, v)
	}
}
