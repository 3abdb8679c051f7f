package attack

import (
	"math/rand/v2"
	"slices"
	"testing"

	"privlab/model"
)

// Keying the last table's rows on integers gives every row the key, and
// the keys the numbers, that keying them on strings gives: values equal
// once trimmed and read as numbers share a key, a missing value has none.
func TestKeyerIntegerKeysAreTheStringKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	texts := []string{"5", " 5", "5.0", "05", "x", "y ", "y", "-0", "0", "1e3", "1000"}
	for trial := range 200 {
		rows := rng.IntN(300)
		var cols []*model.Column
		for range 1 + rng.IntN(4) {
			c := &model.Column{Name: "q"}
			dict := texts[:1+rng.IntN(len(texts))]
			c.Dict = slices.Clone(dict)
			for range rows {
				code := uint32(rng.IntN(len(dict)))
				if rng.IntN(15) == 0 {
					code = model.Missing
				}
				c.Codes = append(c.Codes, code)
			}
			cols = append(cols, c)
		}
		byInt, byString := newKeyer(len(cols)), newKeyer(len(cols))
		got, want := byInt.rows(cols, rows, true), byString.rows(cols, rows, false)
		if !slices.Equal(got, want) || byInt.n != byString.n {
			t.Fatalf("trial %d: integer keys %v (%d), string keys %v (%d)", trial, got, byInt.n, want, byString.n)
		}
	}
}
