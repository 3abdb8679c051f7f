package check

import (
	"math/big"
	"testing"

	"privlab/model"
)

// TestFiguresJoinSizes: a group's join size prod_i |G_ATi| and the
// alpha-presence verdict |G| <= alpha x join are exact whether the
// product fits an int (60), exceeds it within 64 bits (2^63 + 2^32 =
// 2^32 x 3 x 715827883) or overflows 64 bits (3 x 2^64), against
// big-integer arithmetic (each count one a table can hold).
func TestFiguresJoinSizes(t *testing.T) {
	counts := [][]int{{3, 4, 5}, {1 << 16, 1 << 16, 3, 715827883}, {1 << 16, 1 << 16, 1 << 16, 1 << 16, 3}}
	for _, tc := range []struct {
		size  int
		alpha string
		holds bool
	}{{30, "0.5", true}, {31, "0.5", false}} {
		for gi, c := range counts {
			rl := &release{groups: 1, size: []int{tc.size}, maxF: []int{1}, st: &table{start: []int32{0, 3}}}
			for _, n := range c {
				rl.at = append(rl.at, &table{start: []int32{0, int32(n)}})
			}
			if gi > 0 {
				rl.size[0] = 1 << 40 // far below half of any of these joins
			}
			alpha, _ := model.ParseBound(tc.alpha)
			beta, _ := model.ParseBound("0.5")
			f := figuresOf(rl, alpha, beta)
			j := big.NewInt(1)
			for _, n := range c {
				j.Mul(j, big.NewInt(int64(n)))
			}
			want, _ := new(big.Float).SetInt(j).Float64()
			wantHolds := gi > 0 || tc.holds
			if f.join[0] != want || f.holdsP != wantHolds || f.pres[0] != float64(rl.size[0])/want {
				t.Errorf("counts %v, |G| %d: join %v, holds %v, presence %v; want %v, %v", c, rl.size[0], f.join[0], f.holdsP, f.pres[0], want, wantHolds)
			}
		}
	}
	if j, ok := joinSize(&release{at: []*table{{start: []int32{0, 1 << 16}}, {start: []int32{0, 1 << 16}}, {start: []int32{0, 3}}, {start: []int32{0, 715827883}}}}, 0); ok {
		t.Errorf("2^63 + 2^32 read as the int %d", j)
	}
}
