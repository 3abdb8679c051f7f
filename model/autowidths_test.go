package model

import (
	"slices"
	"testing"
)

// The automatic hierarchy of a numeric column climbs a ladder of round
// widths that nest (issue 35 polish: ages read 0-79, 80-159 when the
// widths doubled): ages 17..90 get 10 then 50, so 37 sits in 30-39 under
// 0-49.
func TestAutoWidthsClimbRoundWidths(t *testing.T) {
	age := numericColumn(t, "age", 17, 25, 37, 52, 90)
	if got := AutoWidths(age); !slices.Equal(got, []float64{10, 50}) {
		t.Fatalf("age widths %v, want [10 50]", got)
	}
	h, err := BuildHierarchy("auto", age)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := h.Leaf("37")
	var path []string
	for n := leaf; n >= 0; n = h.Nodes[n].Parent {
		path = append(path, h.Nodes[n].Label)
	}
	if !slices.Equal(path, []string{"37", "30-39", "0-49", "*"}) {
		t.Fatalf("37 climbs %v", path)
	}
	// Widths 1, 5, 10, 50, ... and 2 then 10: each nests in the next.
	for _, c := range []struct {
		vals []float64
		want []float64
	}{
		{[]float64{0, 9}, []float64{1, 5}},
		{[]float64{0, 19}, []float64{2, 10}},
		{[]float64{0, 44}, []float64{5, 10}},
		{[]float64{0, 990}, []float64{100, 500}},
		{[]float64{-40, 40}, []float64{10, 50}},
	} {
		col := numericColumn(t, "x", c.vals...)
		if got := AutoWidths(col); !slices.Equal(got, c.want) {
			t.Errorf("%v: widths %v, want %v", c.vals, got, c.want)
		}
		if _, err := BuildHierarchy("auto", col); err != nil {
			t.Errorf("%v: %v", c.vals, err)
		}
	}
}

// numericColumn is a numeric column of the values.
func numericColumn(t *testing.T, name string, vals ...float64) *Column {
	t.Helper()
	text := name + "\n"
	for _, v := range vals {
		text += FormatNumber(v) + "\n"
	}
	c := mustLoad(t, text, LoadOptions{}).Column(name)
	if c.Kind != Numeric {
		t.Fatalf("%s is not numeric", name)
	}
	return c
}
