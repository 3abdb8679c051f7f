package distribution

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"privlab/model/hierarchy"
)

// uniformSolver builds the balanced binary hierarchy over lo..hi (step) with
// the uniform target, as Koudas et al. 2009 use in Examples 2-5.
func uniformSolver(t testing.TB, lo, hi, step int) *Solver {
	t.Helper()
	var vals []string
	for v := lo; v <= hi; v += step {
		vals = append(vals, fmt.Sprint(v))
	}
	h, err := hierarchy.Balanced("sa", vals, 2)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Target{Kind: TargetUniform}.Masses(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewSolver(Annotate(h, m, 8))
}

func leavesOf(t testing.TB, s *Solver, vals ...int) []int32 {
	t.Helper()
	out := make([]int32, len(vals))
	for i, v := range vals {
		l, ok := s.h.Leaf(fmt.Sprint(v))
		if !ok {
			t.Fatalf("value %d not in hierarchy", v)
		}
		out[i] = int32(l)
	}
	return out
}

// describe renders a generalization as sorted "lo-hi xN" items.
func describe(s *Solver, g *Generalization) string {
	var parts []string
	for _, c := range g.Copies {
		lo, hi := s.h.Bounds(int(c.Node))
		item := "[" + lo + "-" + hi + "]"
		if lo == hi {
			item = "[" + lo + "]"
		}
		if c.Count > 1 {
			item += fmt.Sprintf("x%d", c.Count)
		}
		parts = append(parts, item)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// allocation is the maximum m-bound allocation n_i = j*w_i (weights
// reduced first), from maxBound.
func allocation(counts []int64, weights []int64, m int64) []int64 {
	var g, sum int64
	for _, w := range weights {
		g = gcd(g, w)
	}
	if g == 0 {
		return make([]int64, len(weights)) // every weight is 0
	}
	w := make([]int64, len(weights))
	for i := range weights {
		w[i] = weights[i] / g
		sum += w[i]
	}
	j := maxBound(m, sum, len(w), func(i int) int64 { return counts[i] }, func(i int) int64 { return w[i] })
	out := make([]int64, len(w))
	for i := range w {
		out[i] = j * w[i]
	}
	return out
}

func TestMaxBoundAllocationSection41(t *testing.T) {
	// Koudas et al. 2009, Section 4.1: N=(3,8,6,9), W=(1,2,2,1).
	got := allocation([]int64{3, 8, 6, 9}, []int64{1, 2, 2, 1}, 15)
	if fmt.Sprint(got) != "[2 4 4 2]" {
		t.Fatalf("m=15: got %v, want [2 4 4 2]", got)
	}
	got = allocation([]int64{3, 8, 6, 9}, []int64{1, 2, 2, 1}, 5)
	if fmt.Sprint(got) != "[0 0 0 0]" {
		t.Fatalf("m=5: got %v, want [0 0 0 0]", got)
	}
	// Unreduced weights behave like reduced ones.
	got = allocation([]int64{4, 2}, []int64{2, 2}, 6)
	if fmt.Sprint(got) != "[2 2]" {
		t.Fatalf("got %v, want [2 2]", got)
	}
}

func TestExample1(t *testing.T) {
	// Example 1: {30K,30K,40K,40K,50K,60K} against Figure 3 (uniform).
	s := uniformSolver(t, 30000, 60000, 10000)
	g := s.MinSumOfRange(leavesOf(t, s, 30000, 30000, 40000, 40000, 50000, 60000))
	want := "[30000-60000]x2 [30000] [40000] [50000] [60000]"
	if got := describe(s, g); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if g.SumOfRanges != 60000 {
		t.Fatalf("sum of ranges %v, want 60000", g.SumOfRanges)
	}
}

func solveCost(t *testing.T, s *Solver, budget int, vals ...int) *Generalization {
	t.Helper()
	g, err := s.SolveContext(context.Background(), leavesOf(t, s, vals...), budget)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestExample2OneFakeSevenOrEight(t *testing.T) {
	s := uniformSolver(t, 1, 8, 1)
	g := solveCost(t, s, 2, 1, 3, 5)
	if g.NumFakes != 1 {
		t.Fatalf("fakes used %d, want 1 (%s)", g.NumFakes, describe(s, g))
	}
	lo, _ := s.h.Bounds(int(g.Fakes[0].Node))
	if lo != "7" && lo != "8" {
		t.Fatalf("fake value %s, want 7 or 8", lo)
	}
	if g.SumOfRanges != 4 {
		t.Fatalf("cost %v, want 4", g.SumOfRanges)
	}
	// Any two fakes are worse: the exact-two optimum costs more.
	dp := s
	dp.load(leavesOf(t, s, 1, 3, 5))
	two := newFakeDP(dp).f(0, 2, 0)
	dp.reset()
	if two <= 4 {
		t.Fatalf("exactly two fakes cost %v, want > 4", two)
	}
}

func TestExample3(t *testing.T) {
	s := uniformSolver(t, 1, 8, 1)
	if g := s.MinSumOfRange(leavesOf(t, s, 1, 3, 5, 7, 1, 5)); g.SumOfRanges != 10 {
		t.Fatalf("f={1,5}: %v, want 10 (%s)", g.SumOfRanges, describe(s, g))
	}
	if g := s.MinSumOfRange(leavesOf(t, s, 1, 3, 5, 7, 2, 4, 6, 8)); g.SumOfRanges != 0 {
		t.Fatalf("f={2,4,6,8}: %v, want 0", g.SumOfRanges)
	}
	g := solveCost(t, s, 4, 1, 3, 5, 7)
	if g.SumOfRanges != 0 || g.NumFakes != 4 {
		t.Fatalf("optimum with t=4: cost %v fakes %d, want 0 and 4", g.SumOfRanges, g.NumFakes)
	}
}

func TestExample4(t *testing.T) {
	s := uniformSolver(t, 1, 16, 1)
	g := []int{1, 1, 1, 2, 3, 4, 5, 6, 7, 9, 9, 11, 11, 13, 13, 15, 15}
	with := func(f int) float64 {
		return s.MinSumOfRange(leavesOf(t, s, append(append([]int(nil), g...), f)...)).SumOfRanges
	}
	if c := with(8); c != 38 {
		t.Fatalf("adding 8: %v, want 38", c)
	}
	for _, f := range []int{9, 11, 13, 15} {
		if c := with(f); c != 46 {
			t.Fatalf("adding %d: %v, want 46", f, c)
		}
	}
	for _, f := range []int{10, 12, 14, 16} {
		if c := with(f); c != 44 {
			t.Fatalf("adding %d: %v, want 44", f, c)
		}
	}
}

func TestExample5(t *testing.T) {
	s := uniformSolver(t, 1, 8, 1)
	vals := []int{1, 2, 3, 5, 6, 7, 7}
	if g := solveCost(t, s, 0, vals...); g.SumOfRanges != 17 {
		t.Fatalf("no fake: %v, want 17", g.SumOfRanges)
	}
	g := solveCost(t, s, 1, vals...)
	if g.SumOfRanges != 2 || g.NumFakes != 1 {
		t.Fatalf("one fake: cost %v fakes %d, want 2 and 1", g.SumOfRanges, g.NumFakes)
	}
	if lo, _ := s.h.Bounds(int(g.Fakes[0].Node)); lo != "4" {
		t.Fatalf("fake %s, want 4", lo)
	}
	s.load(leavesOf(t, s, vals...))
	two := newFakeDP(s).f(0, 2, 0)
	s.reset()
	if two != 7 {
		t.Fatalf("exactly two fakes: %v, want 7", two)
	}
}

// boundsFor bounds AVG over all of a group's tuples from its subdomains.
func avgBoundsAll(s *Solver, g *Generalization, tuples int) (float64, float64) {
	var lows, highs []float64
	for _, c := range g.Copies {
		for k := int32(0); k < c.Count; k++ {
			lows = append(lows, s.h.Nodes[c.Node].Low)
			highs = append(highs, s.h.Nodes[c.Node].High)
		}
	}
	b := newBoundsIndex(nil, nil, nil, "", true, [][]float64{lows}, [][]float64{highs}, saDomain{}, nil)
	return b.lowSum[0][tuples] / float64(tuples), b.highSum[0][tuples] / float64(tuples)
}

func TestSection2FakeValueExamples(t *testing.T) {
	s := uniformSolver(t, 30000, 60000, 10000)
	// Group 2 of Figure 2 is {40K, 30K, 50K}: without fakes its AVG is
	// bounded by [110K/3, 160K/3]; the fake 60K removes all generalization
	// and gives [40K, 50K].
	g2 := solveCost(t, s, 0, 40000, 30000, 50000)
	if lo, hi := avgBoundsAll(s, g2, 3); lo != 110000.0/3 || hi != 160000.0/3 {
		t.Fatalf("group 2 without fakes: [%v, %v], want [110K/3, 160K/3]", lo, hi)
	}
	g2f := solveCost(t, s, 1, 40000, 30000, 50000)
	if g2f.NumFakes != 1 || g2f.SumOfRanges != 0 {
		t.Fatalf("group 2 with t=1: %d fakes, cost %v", g2f.NumFakes, g2f.SumOfRanges)
	}
	if lo, _ := s.h.Bounds(int(g2f.Fakes[0].Node)); lo != "60000" {
		t.Fatalf("group 2's fake is %s, want 60000", lo)
	}
	if lo, hi := avgBoundsAll(s, g2f, 3); lo != 40000 || hi != 50000 {
		t.Fatalf("group 2 with the fake: [%v, %v], want [40K, 50K]", lo, hi)
	}
	// Group 3 is {40K, 60K, 60K, 60K}: generalization alone gives
	// [140K/4, 220K/4]; the fakes three 30K, two 40K and three 50K make it
	// uniform without generalization but widen the bounds to [130K/4, 230K/4].
	g3 := solveCost(t, s, 0, 40000, 60000, 60000, 60000)
	if lo, hi := avgBoundsAll(s, g3, 4); lo != 140000.0/4 || hi != 220000.0/4 {
		t.Fatalf("group 3 without fakes: [%v, %v], want [140K/4, 220K/4]", lo, hi)
	}
	g3f := s.MinSumOfRange(leavesOf(t, s, 40000, 60000, 60000, 60000, 30000, 30000, 30000, 40000, 40000, 50000, 50000, 50000))
	if g3f.SumOfRanges != 0 {
		t.Fatalf("group 3 with the eight fakes still generalizes: %v", g3f.SumOfRanges)
	}
	if lo, hi := avgBoundsAll(s, g3f, 4); lo != 130000.0/4 || hi != 230000.0/4 {
		t.Fatalf("group 3 with eight fakes: [%v, %v], want [130K/4, 230K/4]", lo, hi)
	}
}
