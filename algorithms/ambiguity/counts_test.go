package ambiguity

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"testing"

	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"

	"privlab/algorithms/method"
)

// TestCountsExact holds Answer's count queries (estimator.counts: blocks
// of groups, bitsets of 8 to 64 bits and of several words, a count taken
// from the bits, a division by a power of two as a multiplication) to
// the same estimate computed group by group from the tables' rows, as
// x*l_i/m_i with a division: bit for bit, whatever the block size. The
// quasi-identifiers have 5, 12, 25, 50, 100 and 300 values (one byte, two,
// four, eight, two words, no bitset), the sensitive attribute 7, 40, 100
// and 300 (no bitset: its rows are read).
func TestCountsExact(t *testing.T) {
	doms := []int{5, 12, 25, 50, 100, 300}
	for _, beta := range []string{"0.5", "0.2"} {
		for _, sdom := range []int{7, 40, 100, 300} {
			in := countsInput(t, doms, sdom, 4000)
			in.Values = model.Values{"alpha": "0.5", "beta": beta, "seed": "3"}
			res, err := (Method{}).Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			s := res.Answerer.(*scheme)
			qs, err := workload.Generate(in.Table, in.Roles, workload.Options{Shape: workload.CountIn, Queries: 40, Seed: 5, Dims: 3})
			if err != nil {
				t.Fatal(err)
			}
			more, err := workload.Generate(in.Table, in.Roles, workload.Options{Shape: workload.CountIn, Queries: 20, Seed: 6, Dims: 6, Selectivity: 0.3})
			if err != nil {
				t.Fatal(err)
			}
			qs = append(qs, more...)
			defer func(b int) { countBlock = b }(countBlock)
			nonzero := 0
			for _, block := range []int{1, 7, 2048} {
				countBlock = block
				for _, q := range qs {
					want := rowsEstimate(t, s, q)
					b, err := s.Answer(q)
					if err != nil {
						t.Fatal(err)
					}
					if b.Estimate != want {
						t.Fatalf("beta %s, %d sensitive values, block %d: %s: counts %v, group by group %v", beta, sdom, block, q.Text, b.Estimate, want)
					}
					if want != 0 {
						nonzero++
					}
				}
			}
			if nonzero < len(qs) {
				t.Fatalf("beta %s: only %d estimates not 0", beta, nonzero)
			}
		}
	}
}

// TestCountsCoverBitsets: the runs of TestCountsExact have bitsets of
// every width, counted and not, for the sensitive table and not.
func TestCountsCoverBitsets(t *testing.T) {
	doms := []int{5, 12, 25, 50, 100, 300}
	seen := map[string]bool{}
	for _, sdom := range []int{7, 40, 100, 300} {
		in := countsInput(t, doms, sdom, 4000)
		in.Values = model.Values{"alpha": "0.5", "beta": "0.2", "seed": "3"}
		res, err := (Method{}).Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Answerer.(*scheme).groupBits()
		for _, ts := range append(append([]tableSets(nil), b.at...), b.st) {
			seen[fmt.Sprintf("8:%v 16:%v 32:%v 64:%v wide:%d", ts.w8 != nil, ts.w16 != nil, ts.w32 != nil, ts.w64 != nil, ts.words)] = true
		}
		seen[fmt.Sprintf("st %v", b.st.has())] = true
	}
	for _, want := range []string{"8:true 16:false 32:false 64:false wide:0", "8:false 16:true 32:false 64:false wide:0",
		"8:false 16:false 32:true 64:false wide:0", "8:false 16:false 32:false 64:true wide:0", "8:false 16:false 32:false 64:false wide:2",
		"8:false 16:false 32:false 64:false wide:0", "st true", "st false"} {
		if !seen[want] {
			t.Errorf("no table with %s (seen %v)", want, seen)
		}
	}
}

// countsInput is a table of n rows with a QI per domain size (numeric
// for even positions) and an SA over sdom values.
func countsInput(t *testing.T, doms []int, sdom, n int) *method.Input {
	t.Helper()
	rng := model.NewRand(11)
	var b strings.Builder
	var qis []string
	for i := range doms {
		qis = append(qis, fmt.Sprintf("q%d", i))
		fmt.Fprintf(&b, "q%d,", i)
	}
	b.WriteString("s\n")
	for r := 0; r < n; r++ {
		for i, d := range doms {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%d,", rng.Intn(d))
			} else {
				fmt.Fprintf(&b, "v%d,", rng.Intn(d))
			}
		}
		fmt.Fprintf(&b, "s%d\n", rng.Intn(sdom))
	}
	tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "counts"})
	if err != nil {
		t.Fatal(err)
	}
	return &method.Input{Table: tb, Roles: model.Roles{QIs: qis, SA: "s"}}
}

// rowsEstimate is a count query's estimate from the tables' rows, group
// by group (estimator.group with no bitsets).
func rowsEstimate(t *testing.T, s *scheme, q *query.Query) float64 {
	t.Helper()
	e := estimator{s: s, ms: make([][]bool, len(s.at)), read: make([]bool, len(s.at)), l: make([]int32, len(s.at)),
		aggQI: -1, bits: &groupBits{at: make([]tableSets, len(s.at))}}
	var saPreds []query.Pred
	qiPreds := make([][]query.Pred, len(s.at))
	for _, p := range q.Preds {
		_, i, err := s.column(q, p.Column, p.Pos)
		if err != nil {
			t.Fatal(err)
		}
		if i < 0 {
			saPreds = append(saPreds, p)
		} else {
			qiPreds[i] = append(qiPreds[i], p)
		}
	}
	e.match = matches(&s.st, saPreds)
	for i := range s.at {
		e.ms[i] = matches(&s.at[i], qiPreds[i])
		e.read[i] = e.ms[i] != nil
	}
	var x []float64
	for g := 0; g < s.groups; g++ {
		if v, _, ok := e.group(g); ok {
			x = append(x, v)
		}
	}
	return sortedSum(x)
}

// TestTimes: times(x, n, m) is x*n/m with the division, bit for bit,
// for m from 0 to 16 and x of every mantissa; kept(n, m) is 1 exactly
// when n != 0 or m <= 0.
func TestTimes(t *testing.T) {
	rng := model.NewRand(2)
	for i := 0; i < 20000; i++ {
		x := rng.Float64() * 20
		n, m := int32(rng.Intn(6)), int32(rng.Intn(17))
		got, gm := times(x, n, m)
		want := x * float64(n) / float64(m)
		if (got != want && !(got != got && want != want)) || gm != m {
			t.Fatalf("times(%v, %d, %d) = %v, %d; want %v", x, n, m, got, gm, want)
		}
	}
	for _, c := range []struct{ n, m int32 }{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {3, 7}, {0, -1}, {0, -1 << 31}, {-1, 3}, {1 << 30, 1 << 30}} {
		want := 0
		if c.n != 0 || c.m <= 0 {
			want = 1
		}
		if got := kept(c.n, c.m); got != want {
			t.Errorf("kept(%d, %d) = %d, want %d", c.n, c.m, got, want)
		}
	}
}

// TestScaleBytes holds scaleBytes (a byte's n and m looked up) to the
// plain loop on random one-byte bitsets and random products x of every
// mantissa: the groups kept, in order, and x*n/m bit for bit (x*(n/m),
// or a wrong n, m or keep, fails).
func TestScaleBytes(t *testing.T) {
	rng := model.NewRand(4)
	for trial := 0; trial < 200; trial++ {
		groups := 1 + rng.Intn(3000)
		b := make([]uint8, groups)
		for g := range b {
			b[g] = uint8(rng.Intn(256))
		}
		want := uint8(rng.Intn(256))
		alive, x := randomAlive(rng, groups)
		var wantAlive []int32
		var wantX []float64
		for k, g := range alive {
			n, m := bits.OnesCount8(b[g]&want), bits.OnesCount8(b[g])
			if n != 0 || m == 0 {
				wantAlive, wantX = append(wantAlive, g), append(wantX, x[k]*float64(n)/float64(m))
			}
		}
		kept := scaleBytes(b, want, alive, x)
		if kept != len(wantAlive) {
			t.Fatalf("trial %d: kept %d groups, want %d", trial, kept, len(wantAlive))
		}
		for k := range wantAlive {
			if alive[k] != wantAlive[k] || math.Float64bits(x[k]) != math.Float64bits(wantX[k]) {
				t.Fatalf("trial %d, position %d: group %d x %v, want group %d x %v", trial, k, alive[k], x[k], wantAlive[k], wantX[k])
			}
		}
	}
}

// randomAlive picks about two groups in three of groups, each with a
// random x (the groups a query still counts and their estimates).
func randomAlive(rng *model.Rand, groups int) (alive []int32, x []float64) {
	for g := 0; g < groups; g++ {
		if rng.Intn(3) > 0 {
			alive, x = append(alive, int32(g)), append(x, rng.Float64()*float64(1+rng.Intn(40)))
		}
	}
	return alive, x
}

// sparseBits is the AND of k random words: about one bit in 2^k set.
func sparseBits(rng *model.Rand, k int) uint64 {
	w := rng.Uint64()
	for i := 1; i < k; i++ {
		w &= rng.Uint64()
	}
	return w
}

// TestScaleTwoWords holds scaleTwoWords to the plain loop (common, and
// times' x*n/m) on random two-word bitsets, counts and x of every
// mantissa: the groups kept, in order, and their x bit for bit.
func TestScaleTwoWords(t *testing.T) {
	rng := model.NewRand(6)
	for trial := 0; trial < 200; trial++ {
		groups := 1 + rng.Intn(3000)
		b := make([]uint64, 2*groups)
		count := make([]int32, groups)
		for g := 0; g < groups; g++ {
			b[2*g], b[2*g+1] = sparseBits(rng, 2), sparseBits(rng, 3)
			count[g] = int32(bits.OnesCount64(b[2*g])+bits.OnesCount64(b[2*g+1])) + int32(rng.Intn(2))
		}
		want := []uint64{sparseBits(rng, 3), sparseBits(rng, 2)}
		alive, x := randomAlive(rng, groups)
		var wantAlive []int32
		var wantX []float64
		for k, g := range alive {
			n, m := common(b[2*g:2*g+2], want), count[g]
			if n != 0 || m <= 0 {
				wantAlive, wantX = append(wantAlive, g), append(wantX, x[k]*float64(n)/float64(m))
			}
		}
		kept := scaleTwoWords(b, want[0], want[1], count, alive, x)
		if kept != len(wantAlive) {
			t.Fatalf("trial %d: kept %d groups, want %d", trial, kept, len(wantAlive))
		}
		for k := range wantAlive {
			if alive[k] != wantAlive[k] || math.Float64bits(x[k]) != math.Float64bits(wantX[k]) {
				t.Fatalf("trial %d, position %d: group %d x %v, want group %d x %v", trial, k, alive[k], x[k], wantAlive[k], wantX[k])
			}
		}
	}
}
