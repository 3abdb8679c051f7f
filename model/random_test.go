package model

import "testing"

// PermUint32 draws what Perm draws: the same permutation from the same
// generator, and the generator is left where Perm leaves it.
func TestPermUint32IsPerm(t *testing.T) {
	a, b := NewRand(9), NewRand(9)
	for _, n := range []int{0, 1, 2, 3, 10, 1000, 7, 20000} {
		want := a.Perm(n)
		got := make([]uint32, n)
		b.PermUint32(got)
		for i := range want {
			if int(got[i]) != want[i] {
				t.Fatalf("n=%d: PermUint32 %v..., Perm %v...", n, got[:min(n, 8)], want[:min(n, 8)])
			}
		}
	}
	if x, y := a.Intn(1<<30), b.Intn(1<<30); x != y {
		t.Fatalf("the generators part: %d, %d", x, y)
	}
}
