package kja

import (
	"errors"
	"testing"

	"privlab/model"
)

// TestDecode: kja's parameters are read once into its Config; a bad
// value is refused by its declaration, naming the parameter.
func TestDecode(t *testing.T) {
	c, err := Decode(model.Values{"k": "7", "split": SplitRoundRobin, "grouping": "column:AT", "seed": "3"}, 100)
	if err != nil || c.K != 7 || c.Split != SplitRoundRobin || c.Grouping != "column:AT" || c.Seed != 3 || c.Values["k"] != "7" {
		t.Fatalf("Decode: %+v, %v", c, err)
	}
	if c, err = Decode(nil, 100); err != nil || c.K != 5 || c.Split != SplitWidest || c.Grouping != GroupingAlgorithm {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	var pe *model.ParamError
	if _, err := Decode(model.Values{"split": "tallest"}, 100); !errors.As(err, &pe) || pe.Param != "split" {
		t.Fatalf("split tallest: %v", err)
	}
}
