package sampling

import "math"

// The formulas of Sattar et al., Sections 3-5. The checker has its own
// copy (it may not import this package); both evaluate them in the same
// order so that the figures agree to the last bit.

// RecordProbability is Pr(t) = Pr(q'_1) x ... x Pr(q'_d) x Pr(s)
// (Definition 5): QIs and the sensitive value independent, the
// probability of a generalized value the mass of its subtree.
func RecordProbability(qi []float64, s float64) float64 {
	p := 1.0
	for _, q := range qi {
		p *= q
	}
	return p * s
}

// ExpectedConfidence is the probability that a record of probability p
// occurs at least once in a hypothesized data set of n records drawn from
// the record space: 1 - (1 - p)^n (Definition 6, Eq. 1). It is computed as
// -expm1(n log1p(-p)), exact for tiny p and large n.
func ExpectedConfidence(p float64, n int) float64 {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	return -math.Expm1(float64(n) * math.Log1p(-p))
}

// GroupConfidence is #s/|E|, the confidence of inferring a sensitive value
// from an equivalence group (Definition 9).
func GroupConfidence(count, size int) float64 {
	if size <= 0 {
		return 0
	}
	return float64(count) / float64(size)
}

// ObservedConfidence is beta x #s/|E| (Eq. 2): the probability of
// publishing a victim's record (the sampling rate, Definition 7) times the
// group confidence of the value.
func ObservedConfidence(beta float64, count, size int) float64 {
	if size <= 0 {
		return 0
	}
	return beta * float64(count) / float64(size)
}

// Distortion is Definition 10 (Eq. 4): the mean over the QIs of 1 -
// current level / maximal level, with the root at level 0 and leaves at
// the maximal level. terms holds each attribute's 1 - level/max.
func Distortion(terms []float64) float64 {
	if len(terms) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range terms {
		s += x
	}
	return s / float64(len(terms))
}

// LevelTerm is one attribute's share of the distortion: 1 - level/max
// (0 for a taxonomy of a single value, which cannot lose anything).
func LevelTerm(level, max int) float64 {
	if max <= 0 {
		return 0
	}
	return 1 - float64(level)/float64(max)
}

// Satisfies is the privacy criterion of Eq. 3: observed <= expected.
func Satisfies(observed, expected float64) bool { return observed <= expected }

// toMove is the smallest number x of the count records of one sensitive
// value in a group of size that must leave the group (be generalized
// further or suppressed) so that the ones left satisfy Eq. 3 with
// expected confidence e: beta (count-x)/(size-x) <= e. It is what the
// paper's record-by-record pass does (Algorithm 1, steps 5-10: each record
// that still violates is generalized, and the confidences of the next
// one are recomputed). It returns count when no smaller number will do.
func toMove(beta, e float64, count, size int) int {
	ok := func(c, m int) bool { return c == 0 || Satisfies(ObservedConfidence(beta, c, m), e) }
	if ok(count, size) {
		return 0
	}
	if e >= beta {
		return 0 // cannot happen: observed <= beta <= e
	}
	x := int(math.Ceil((beta*float64(count) - e*float64(size)) / (beta - e)))
	x = max(1, min(x, count))
	for x < count && !ok(count-x, size-x) {
		x++
	}
	for x > 1 && ok(count-x+1, size-x+1) {
		x--
	}
	return x
}
