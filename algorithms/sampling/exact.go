package sampling

import (
	"fmt"
	"math/big"
	"math/bits"

	"privlab/model"
)

// distScale holds Definition 10's distortion as a ratio of integers, so
// that it is held against delta' exactly: with L the least common
// multiple of the taxonomy heights H_i, a record's distortion
// (1/d) sum_i (1 - level_i/H_i) is units / (d x L), units = sum_i
// (H_i - level_i) x L/H_i.
type distScale struct {
	mult []int64 // L / H_i (0 for a taxonomy of one value: it loses nothing)
	den  int64   // d x L
}

// maxUnits keeps units and den far from overflow.
const maxUnits = 1 << 52

// newDistScale builds the scale of the taxonomies; it fails when the
// heights' least common multiple is too large to count in 64 bits (a
// hundred taxonomies of distinct prime heights), never on real data.
func newDistScale(tax []*taxonomy) (distScale, error) {
	l := uint64(1)
	for _, t := range tax {
		if t.height <= 0 {
			continue
		}
		h := uint64(t.height)
		hi, lo := bits.Mul64(l/gcd(l, h), h)
		if hi != 0 || lo > maxUnits {
			return distScale{}, fmt.Errorf("the taxonomy heights have a least common multiple above 2^52")
		}
		l = lo
	}
	s := distScale{mult: make([]int64, len(tax)), den: int64(len(tax)) * int64(l)}
	for i, t := range tax {
		if t.height > 0 {
			s.mult[i] = int64(l) / int64(t.height)
		}
	}
	if len(tax) > 0 && s.den/int64(len(tax)) != int64(l) {
		return distScale{}, fmt.Errorf("the taxonomy heights have a least common multiple above 2^52")
	}
	return s, nil
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// units is the numerator of the distortion of a record generalized to
// nodes.
func (s distScale) units(tax []*taxonomy, nodes []int32) int64 {
	u := int64(0)
	for i, x := range nodes {
		u += int64(tax[i].height-tax[i].depth[x]) * s.mult[i]
	}
	return u
}

// within reports whether units / den <= delta exactly.
func (s distScale) within(delta model.Bound, units int64) bool {
	return delta.Allows(int(units), int(s.den))
}

// rat is units / den as an exact rational.
func (s distScale) rat(units int64) *big.Rat {
	if s.den == 0 {
		return new(big.Rat)
	}
	return big.NewRat(units, s.den)
}
