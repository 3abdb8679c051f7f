package hierarchy

import (
	"privlab/model"
	"privlab/model/csvfile"
	"slices"
	"testing"
)

// The automatic hierarchy of a numeric column climbs a ladder of round
// widths that nest (issue 35 polish: ages read 0-79, 80-159 when the
// widths doubled): ages 17..90 get 10 then 50, so 37 sits in 30-39 under
// 0-49; 1 goes to 5 and 10, 2 to 10, 5 to 10 and 50.
func TestAutoIntervalsClimbRoundWidths(t *testing.T) {
	for _, c := range []struct {
		vals []float64
		path []string // the first value's leaf up to the root
	}{
		{[]float64{37, 17, 25, 52, 90}, []string{"37", "30-39", "0-49", "*"}},
		{[]float64{0, 9}, []string{"0", "0-0", "0-4", "*"}},
		{[]float64{0, 19}, []string{"0", "0-1", "0-9", "*"}},
		{[]float64{0, 44}, []string{"0", "0-4", "0-9", "*"}},
		{[]float64{100, 990}, []string{"100", "100-199", "0-499", "*"}},
	} {
		h, err := Build("auto", numericColumn(t, "x", c.vals...))
		if err != nil {
			t.Fatalf("%v: %v", c.vals, err)
		}
		leaf, _ := h.Leaf(model.FormatNumber(c.vals[0]))
		var path []string
		for n := leaf; n >= 0; n = h.Nodes[n].Parent {
			path = append(path, h.Nodes[n].Label)
		}
		if !slices.Equal(path, c.path) {
			t.Errorf("%v: %v climbs %q, want %q", c.vals, c.vals[0], path, c.path)
		}
	}
}

// numericColumn is a numeric column of the values.
func numericColumn(t *testing.T, name string, vals ...float64) *model.Column {
	t.Helper()
	text := name + "\n"
	for _, v := range vals {
		text += model.FormatNumber(v) + "\n"
	}
	c := mustLoad(t, text, csvfile.LoadOptions{}).Column(name)
	if c.Kind != model.Numeric {
		t.Fatalf("%s is not numeric", name)
	}
	return c
}
