package datasets

import (
	"sort"

	"privlab/model"
)

// sampler draws an index with probability proportional to integer weights.
// Integer arithmetic keeps draws identical on every platform.
type sampler struct {
	cum   []int // cum[i] = weights[0] + ... + weights[i]
	total int
}

// newSampler builds a sampler over weights, or over fallback when every
// weight is zero (an empty cell of a conditional table).
func newSampler(weights, fallback []int) sampler {
	s := sampler{cum: make([]int, len(weights))}
	for i, w := range weights {
		s.total += w
		s.cum[i] = s.total
	}
	if s.total == 0 && fallback != nil {
		return newSampler(fallback, nil)
	}
	return s
}

// draw returns an index i with probability weights[i]/total.
func (s sampler) draw(r *model.Rand) int {
	x := r.Intn(s.total)
	return sort.Search(len(s.cum), func(i int) bool { return s.cum[i] > x })
}

// sum adds up counts.
func sum(counts []int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}
