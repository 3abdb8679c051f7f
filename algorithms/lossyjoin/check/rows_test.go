package check

import (
	"math"
	"math/rand/v2"
	"testing"
)

// distinctRows and rowIndex give what a map gives (the last position of
// a value given twice), dense ranges or not, extreme values included.
func TestRowIndexIsAMap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	cases := [][]int{nil, {0}, {5, 5}, {-3, 2, -3}, {math.MinInt, math.MaxInt}, {math.MaxInt, 0, math.MaxInt}}
	for n := 0; n < 300; n++ {
		rows := make([]int, rng.IntN(40))
		span := []int{3, 50, 1 << 40}[n%3]
		for i := range rows {
			rows[i] = rng.IntN(span) - span/4
		}
		cases = append(cases, rows)
	}
	for _, rows := range cases {
		want := map[int]int{}
		for i, r := range rows {
			want[r] = i
		}
		if got := distinctRows(rows); got != (len(want) == len(rows)) {
			t.Fatalf("%v: distinctRows = %v", rows, got)
		}
		x := newRowIndex(rows)
		probes := append([]int{math.MinInt, math.MaxInt, -1, 0, 1 << 41}, rows...)
		for _, r := range probes {
			for _, q := range []int{r - 1, r, r + 1} {
				i, ok := x.at(q)
				j, wok := want[q]
				if ok != wok || i != j {
					t.Fatalf("%v: at(%d) = %d, %v; a map gives %d, %v", rows, q, i, ok, j, wok)
				}
			}
		}
	}
}
