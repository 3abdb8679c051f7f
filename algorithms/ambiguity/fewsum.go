package ambiguity

import (
	"math"
	"slices"
)

// fewSlots is the size of fewSum's hash table, fewMax the most distinct
// values it takes before giving up (the table stays half empty).
const (
	fewSlots = 512
	fewMax   = fewSlots / 2
)

// fewSum is sortedSum(x) when x holds at most fewMax distinct values
// and no NaN (false otherwise, x untouched): each distinct value's
// occurrences counted by its bits, then the values taken in increasing
// order and each added as many times as it occurs, one addition after
// another. That is the very sequence of additions of the sorted slice:
// sort.Float64s leaves equal values side by side, and equal values have
// equal bits but for -0 and +0, whose order does not matter (the sum
// starts at +0 and is never -0, and adding a zero to it changes nothing
// else).
func fewSum(x []float64) (float64, bool) {
	var keys [fewSlots]uint64
	var count [fewSlots]int32
	distinct := 0
	for _, v := range x {
		if v != v {
			return 0, false
		}
		b := math.Float64bits(v)
		h := b * 0x9E3779B97F4A7C15 >> (64 - 9)
		for count[h] != 0 && keys[h] != b {
			h = (h + 1) & (fewSlots - 1)
		}
		if count[h] == 0 {
			if distinct == fewMax {
				return 0, false
			}
			distinct++
			keys[h] = b
		}
		count[h]++
	}
	type run struct {
		v float64
		n int32
	}
	runs := make([]run, 0, distinct)
	for h, n := range count {
		if n != 0 {
			runs = append(runs, run{math.Float64frombits(keys[h]), n})
		}
	}
	slices.SortFunc(runs, func(a, b run) int {
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	s := 0.0
	for _, r := range runs {
		for k := int32(0); k < r.n; k++ {
			s += r.v
		}
	}
	return s, true
}
