package ambiguity

import (
	"math"
	"slices"
	"sort"
	"testing"

	"privlab/model"
)

// TestFewSum holds sortedSum to the plain sort-then-add on random slices
// of few distinct values (each occurring many times, of every mantissa,
// positive, negative and both zeros) and of many (sorted instead), bit
// for bit, and fewSum to declining on a NaN or more than fewMax
// distinct values. Adding a value times its count, or in another order,
// fails.
func TestFewSum(t *testing.T) {
	rng := model.NewRand(9)
	for trial := 0; trial < 300; trial++ {
		distinct := 1 + rng.Intn(fewMax+40)
		vals := make([]float64, distinct)
		for i := range vals {
			switch rng.Intn(4) {
			case 0:
				vals[i] = float64(rng.Intn(7)) / float64(1+rng.Intn(9))
			case 1:
				vals[i] = rng.Float64() * 1e3
			case 2:
				vals[i] = -rng.Float64() * float64(rng.Intn(50))
			default:
				vals[i] = math.Copysign(0, float64(rng.Intn(2)*2-1))
			}
		}
		x := make([]float64, rng.Intn(20000))
		for i := range x {
			x[i] = vals[rng.Intn(distinct)]
		}
		if trial%50 == 0 && len(x) > 0 {
			x[rng.Intn(len(x))] = math.NaN()
		}
		ref := slices.Clone(x)
		sort.Float64s(ref)
		want := 0.0
		for _, v := range ref {
			want += v
		}
		seen := map[uint64]bool{}
		nan := false
		for _, v := range x {
			seen[math.Float64bits(v)] = true
			nan = nan || v != v
		}
		before := slices.Clone(x)
		s, ok := fewSum(x)
		if wantOK := !nan && len(seen) <= fewMax; ok != wantOK {
			t.Fatalf("trial %d: %d distinct values (NaN %v): fewSum took them %v", trial, len(seen), nan, ok)
		}
		if ok && math.Float64bits(s) != math.Float64bits(want) {
			t.Fatalf("trial %d: fewSum %v, sorted sum %v", trial, s, want)
		}
		if !ok && !slices.Equal(math64bits(x), math64bits(before)) {
			t.Fatalf("trial %d: declining changed x", trial)
		}
		if got := sortedSum(x); math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
			t.Fatalf("trial %d: sortedSum %v, want %v", trial, got, want)
		}
	}
}

func math64bits(x []float64) []uint64 {
	out := make([]uint64, len(x))
	for i, v := range x {
		out[i] = math.Float64bits(v)
	}
	return out
}
