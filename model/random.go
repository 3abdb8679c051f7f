package model

import (
	crand "crypto/rand"
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
)

// Rand is the one source of randomness for shuffling, sampling and
// tie-breaking (SPEC 7.3). It is a PCG generator, so a fixed seed gives the
// same sequence on every platform and Go version; the bounded draws and the
// shuffle are written here for the same reason.
type Rand struct{ src *rand.PCG }

// NewRand returns a generator for the seed.
func NewRand(seed uint64) *Rand {
	return &Rand{src: rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

// CryptoSeed draws a seed from crypto/rand: the default when the user fixes
// none, so releases cannot be reproduced by guessing the seed.
func CryptoSeed() uint64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the OS entropy source is gone; nothing safe to do
	}
	return binary.LittleEndian.Uint64(b[:])
}

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 { return r.src.Uint64() }

// Intn returns a uniform integer in [0, n) without modulo bias (Lemire's
// method). n must be > 0.
func (r *Rand) Intn(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), un)
		}
	}
	return int(hi)
}

// Float64 returns a uniform number in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Shuffle permutes n items with Fisher-Yates.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Intn(i+1))
	}
}

// PermUint32 is Perm(len(p)) written into p (the same draws, the same
// permutation), for a caller that draws many into one buffer.
func (r *Rand) PermUint32(p []uint32) {
	for i := range p {
		p[i] = uint32(i)
	}
	for i := len(p) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}

// Perm returns a random permutation of 0..n-1.
func (r *Rand) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// NormFloat64 returns a standard normal draw (Box-Muller, so the sequence
// depends only on this generator).
func (r *Rand) NormFloat64() float64 {
	for {
		u := r.Float64()
		if u > 0 {
			v := r.Float64()
			return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*v)
		}
	}
}
