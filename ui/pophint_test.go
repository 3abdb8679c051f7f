package ui

import (
	"strings"
	"testing"
)

// TestMissingPopulationHintNamesThePopulationKeys: a population path
// that does not exist is explained with the keys that pick or type the
// population, not with those that open another input table or load a
// dataset (ctrl+o, ctrl+l), which would not change the population.
func TestMissingPopulationHintNamesThePopulationKeys(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "P", "ctrl+u", "nope.csv", "enter")
		settle(t, a, a.schedule())
		press(t, a, "!")
		v := flatView(a)
		if !strings.Contains(v, "nope.csv") || !strings.Contains(v, "p picks the population") || strings.Contains(v, "ctrl+o opens another file") {
			t.Errorf("the population's error does not say how to change it:\n%s", a.View())
		}
	})
}
