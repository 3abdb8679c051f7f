package model

import (
	"fmt"
	"math"
)

// MaxMagnitude bounds the numeric values privlab computes with: ranges,
// sums, averages and relative errors of values beyond it overflow float64
// or lose their integer precision (2^53 is about 9e15), and a release
// could not state them.
const MaxMagnitude = 1e15

// CheckMagnitudes refuses a numeric value beyond ±MaxMagnitude in the
// named columns (those a run computes with), naming the file, the line,
// the column and the value. Columns that are not numeric, or not in t,
// are skipped.
func (t *Table) CheckMagnitudes(file string, cols []string) error {
	for _, name := range cols {
		i := t.ColumnIndex(name)
		if i < 0 || t.Columns[i].Kind != Numeric {
			continue
		}
		c := t.Columns[i]
		for code, x := range c.Nums {
			if math.Abs(x) <= MaxMagnitude {
				continue
			}
			return &InputError{File: file, Line: c.FirstLine(code), Column: i + 1, Field: c.Name,
				Msg:   fmt.Sprintf("value %s is beyond ±1e15: ranges, sums and relative errors of it overflow or lose precision", c.Dict[code]),
				Hint:  fmt.Sprintf("rescaling %s (e.g. to thousands) works too", c.Name),
				Fixes: []Fix{{Setting: SetKind, Attr: c.Name, Value: "categorical"}}}
		}
	}
	return nil
}
