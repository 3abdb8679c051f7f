package verify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"privlab/model"
)

// pairing counts on codes what reading the texts row by row counts: the
// positions that agree and the chance that independent shuffles agree,
// for columns with shared, unshared, empty and missing values.
func TestPairingCountsTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	column := func(rows int) *model.Column {
		c := &model.Column{Name: "g"}
		index := map[string]uint32{}
		for range rows {
			if rng.IntN(10) == 0 {
				c.Codes = append(c.Codes, model.Missing)
				continue
			}
			text := fmt.Sprintf("v%d", rng.IntN(6))
			if rng.IntN(12) == 0 {
				text = ""
			}
			code, ok := index[text]
			if !ok {
				code = uint32(len(c.Dict))
				index[text] = code
				c.Dict = append(c.Dict, text)
			}
			c.Codes = append(c.Codes, code)
		}
		return c
	}
	for trial := range 300 {
		rowsA, rowsB := 1+rng.IntN(60), 1+rng.IntN(60)
		a, b := column(rowsA), column(rowsB)
		m := min(rowsA, rowsB)
		agree, p := pairing(a, rowsA, b, rowsB, m)
		wantAgree := 0
		for i := range m {
			if a.Value(i) == b.Value(i) {
				wantAgree++
			}
		}
		countA, countB := map[string]int{}, map[string]int{}
		for i := range rowsA {
			countA[a.Value(i)]++
		}
		for i := range rowsB {
			countB[b.Value(i)]++
		}
		wantP := 0.0
		for text, n := range countA {
			wantP += float64(n) / float64(rowsA) * float64(countB[text]) / float64(rowsB)
		}
		if agree != wantAgree || math.Abs(p-wantP) > 1e-12 {
			t.Fatalf("trial %d: agree %d, p %v; by text %d, %v", trial, agree, p, wantAgree, wantP)
		}
	}
}
