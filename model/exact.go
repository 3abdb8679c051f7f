package model

import (
	"math"
	"math/big"
	"math/bits"
)

// Bound is an exact bound on a fraction of counts: alpha of (alpha,k)
// and alpha-presence, beta of beta-association, a sampling rate. Counts
// are held against it as integers (count <= bound x size is
// count x den <= num x size), never through a float64, so alpha =
// 0.4999999999 refuses a class whose value makes up 1/2 of it and 1/3
// breaks alpha = 0.3333333333333333. The zero Bound is 0.
type Bound struct {
	rat *big.Rat
	// num/den is the bound in lowest terms when both fit in 64 bits.
	num, den uint64
	small    bool
}

// NewBound makes a bound of a non-negative rational (a negative one is
// taken as 0).
func NewBound(r *big.Rat) Bound {
	if r == nil || r.Sign() < 0 {
		r = new(big.Rat)
	}
	b := Bound{rat: new(big.Rat).Set(r)}
	if n, d := b.rat.Num(), b.rat.Denom(); n.IsUint64() && d.IsUint64() {
		b.num, b.den, b.small = n.Uint64(), d.Uint64(), true
	}
	return b
}

// ParseBound reads a bound from a parameter's text (see ParseExact).
func ParseBound(s string) (Bound, bool) {
	r, ok := ParseExact(s)
	if !ok {
		return NewBound(nil), false
	}
	return NewBound(r), true
}

// Rat returns the bound's value (a copy).
func (b Bound) Rat() *big.Rat {
	if b.rat == nil {
		return new(big.Rat)
	}
	return new(big.Rat).Set(b.rat)
}

// Float is the float64 nearest the bound (for display and charts only).
func (b Bound) Float() float64 {
	if b.rat == nil {
		return 0
	}
	f, _ := b.rat.Float64()
	return f
}

// String renders the bound in lowest terms ("1/2"; "3" when whole).
func (b Bound) String() string { return b.Rat().RatString() }

// Allows reports whether count <= bound x size exactly (count, size >= 0).
func (b Bound) Allows(count, size int) bool {
	if count <= 0 {
		return true
	}
	if b.small && size >= 0 {
		h1, l1 := bits.Mul64(uint64(count), b.den)
		h2, l2 := bits.Mul64(b.num, uint64(size))
		return h1 < h2 || (h1 == h2 && l1 <= l2)
	}
	return b.AllowsBig(big.NewInt(int64(count)), big.NewInt(int64(size)))
}

// AllowsBig is Allows for counts beyond 64 bits (a product of counts, as
// Wang's presence denominator prod_i |G_ATi|).
func (b Bound) AllowsBig(count, size *big.Int) bool {
	r := b.Rat()
	lhs := new(big.Int).Mul(count, r.Denom())
	rhs := new(big.Int).Mul(r.Num(), size)
	return lhs.Cmp(rhs) <= 0
}

// AllowsRat reports whether x <= bound exactly.
func (b Bound) AllowsRat(x *big.Rat) bool { return x.Cmp(b.Rat()) <= 0 }

// MinSize is the smallest size of which count may make up at most the
// bound: ceil(count / bound) (count > 0, bound > 0). Anatomy's l =
// ceil(1/alpha) is MinSize(1).
func (b Bound) MinSize(count int) int {
	if count <= 0 {
		return 0
	}
	if b.Float() <= 0 {
		return math.MaxInt
	}
	r := b.Rat()
	n := new(big.Int).Mul(big.NewInt(int64(count)), r.Denom())
	q, m := new(big.Int).QuoRem(n, r.Num(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > math.MaxInt {
		return math.MaxInt
	}
	return int(q.Int64())
}

// Floor is floor(bound x n) (n >= 0): the records a sampling rate takes
// of n.
func (b Bound) Floor(n int) int {
	r := b.Rat()
	x := new(big.Int).Mul(r.Num(), big.NewInt(int64(n)))
	return int(x.Quo(x, r.Denom()).Int64())
}
