package distribution

import (
	"fmt"
	"testing"

	"privlab/model"
)

// The maximum m-bound allocation (Koudas et al. 2009, Section 4.1)
// against a brute force over every allocation.

func TestOracleMaxBoundAllocationProperty(t *testing.T) {
	r := model.NewRand(41)
	for iter := 0; iter < 400; iter++ {
		k := 1 + r.Intn(4)
		counts := make([]int, k)
		w := make([]int64, k)
		for i := range counts {
			counts[i] = r.Intn(7)
			w[i] = int64(r.Intn(5))
		}
		m := r.Intn(22)
		got := allocation(toInt64(counts), w, int64(m))
		want := bruteMaxAllocation(counts, w, m)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("allocation(%v, %v, %d) = %v, want %v", counts, w, m, got, want)
		}
	}
}

// bruteMaxAllocation enumerates every (n'_1..n'_k) with n'_i <= counts_i,
// n' = lambda * w for some lambda >= 0 (only zeros when every weight is 0)
// and sum n'_i <= m, and returns the one with the largest sum (the
// allocations are a chain, so that one is the maximum).
func bruteMaxAllocation(counts []int, w []int64, m int) []int {
	k := len(counts)
	best, bestSum := make([]int, k), 0
	cur := make([]int, k)
	allZero := true
	for _, x := range w {
		if x != 0 {
			allZero = false
		}
	}
	var rec func(i, sum int)
	rec = func(i, sum int) {
		if sum > m {
			return
		}
		if i == k {
			for a := 0; a < k; a++ {
				if allZero && cur[a] != 0 {
					return
				}
				for b := 0; b < k; b++ {
					if int64(cur[a])*w[b] != int64(cur[b])*w[a] {
						return
					}
				}
			}
			if sum > bestSum {
				bestSum = sum
				copy(best, cur)
			}
			return
		}
		for x := 0; x <= counts[i]; x++ {
			cur[i] = x
			rec(i+1, sum+x)
		}
		cur[i] = 0
	}
	rec(0, 0)
	return best
}

func toInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}
