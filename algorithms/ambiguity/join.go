package ambiguity

import (
	"math"
	"math/big"
	"math/bits"

	"privlab/model"
)

// joinSize is prod_i |G_ATi|, the denominator of Wang's presence
// probability |G| / prod_i |G_ATi| (Theorem 5.1), kept exactly: in 64
// bits while the product fits, as a big.Int beyond. Presence is held
// against alpha on these integers, never through a float64.
type joinSize struct {
	n   uint64
	big *big.Int // set once the product overflows 64 bits
}

// oneJoin is the empty product.
func oneJoin() joinSize { return joinSize{n: 1} }

// times multiplies the join by m >= 0.
func (j joinSize) times(m int) joinSize {
	if j.big != nil {
		return joinSize{big: new(big.Int).Mul(j.big, big.NewInt(int64(m)))}
	}
	hi, lo := bits.Mul64(j.n, uint64(m))
	if hi != 0 {
		return joinSize{big: new(big.Int).Mul(new(big.Int).SetUint64(j.n), big.NewInt(int64(m)))}
	}
	return joinSize{n: lo}
}

// float is the join as a float64 (for figures and charts).
func (j joinSize) float() float64 {
	if j.big != nil {
		f, _ := new(big.Float).SetInt(j.big).Float64()
		return f
	}
	return float64(j.n)
}

// presence is |G| / join as an exact rational.
func (j joinSize) presence(size int) *big.Rat {
	d := j.big
	if d == nil {
		d = new(big.Int).SetUint64(j.n)
	}
	if d.Sign() == 0 {
		return new(big.Rat).SetInt64(int64(size))
	}
	return new(big.Rat).SetFrac(big.NewInt(int64(size)), d)
}

// within reports whether size / join <= alpha exactly (alpha-presence).
func (j joinSize) within(alpha model.Bound, size int) bool {
	if j.big == nil && j.n <= math.MaxInt64 {
		return alpha.Allows(size, int(j.n))
	}
	d := j.big
	if d == nil {
		d = new(big.Int).SetUint64(j.n)
	}
	return alpha.AllowsBig(big.NewInt(int64(size)), d)
}
