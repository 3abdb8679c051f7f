package risk

import (
	"math"
	"testing"
)

// Figures on a view small enough to count by hand: classes of 1, 2 and 3
// records; beliefs (1,0), (1/2,1/2) and (1/3,2/3) over two values.
func TestComputeByHand(t *testing.T) {
	b := NewBuilder([]string{"a", "b"}, "s", []string{"x", "y"}, false)
	one := b.Belief([]float64{1, 0})
	half := b.Belief([]float64{0.5, 0.5})
	third := b.Belief([]float64{1.0 / 3, 2.0 / 3})
	b.Add([]string{"1", "p"}, one, 0)
	b.Add([]string{"2", "p"}, half, 0.5)
	b.Add([]string{"2", "p"}, half, 0.5)
	b.Add([]string{"3", "q"}, third, 1)
	b.Add([]string{"3", "q"}, third, 1)
	b.Add([]string{"3", "q"}, third, 1)
	v := b.View(8, 2, true)
	rep := Compute(v, Options{Threshold: 0.4})
	// overall = (1*1 + 2*1/2 + 3*1/3)/6 = 1/2 for x.
	want := map[string]float64{
		KeyRecords: 6, KeyClasses: 3, KeySmallest: 1, KeyUnique: 1, KeyUniqueShare: 1.0 / 6,
		KeyProsMax: 1, KeyProsAvg: 3.0 / 6, KeyAtRisk: 3, // classes of 1 and 2 exceed 0.4
		KeyDistinctL: 1, KeyEntropyL: 1, KeyTopBelief: 1, KeyTCloseness: 0.5,
		KeyNCP: (0 + 2*0.5 + 3*1) / 6.0, KeyDM: 1 + 4 + 9 + 2*8, KeySuppressed: 0.25,
		KeyUniquePair: 1,
	}
	for k, w := range want {
		f, ok := rep.Get(k)
		if !ok || math.Abs(f.Value-w) > 1e-12 {
			t.Errorf("%s = %v (%v), want %v", k, f.Value, ok, w)
		}
	}
	if rep.Sizes[0].Records != 1 || rep.Sizes[1].Records != 2 || rep.Sizes[2].Records != 3 {
		t.Errorf("sizes %+v", rep.Sizes[:3])
	}
	if _, ok := rep.Get(KeyPresence); ok {
		t.Error("presence reported where no region models it")
	}
}

// A QI tuple whose records lie in two classes gets both classes' values,
// weighted by its records in each.
func TestBuilderMixesBeliefs(t *testing.T) {
	b := NewBuilder([]string{"a"}, "s", []string{"x", "y", "z"}, false)
	p := b.Belief([]float64{1, 0, 0})
	q := b.Belief([]float64{0, 0.5, 0.5})
	b.Add([]string{"k"}, p, 0)
	b.Add([]string{"k"}, q, 0)
	b.Add([]string{"k"}, q, 0)
	v := b.View(3, 0, false)
	got := v.Beliefs[v.Regions[0].Belief].Dense(3)
	want := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("mixed belief %v, want %v", got, want)
		}
	}
}

// EMD: ordered distance over m values divides the cumulative differences
// by m-1; equal distance is half the L1 distance (Li et al. 2007's
// examples: {3k,4k,5k} against nine salaries gives 0.375).
func TestEMD(t *testing.T) {
	// Li, Li and Venkatasubramanian's salary example: P uniform over 9
	// values, Q1 = {3k, 4k, 5k} (the three lowest): EMD 0.375.
	p := make([]float64, 9)
	q := make([]float64, 9)
	for i := range p {
		q[i] = 1.0 / 9
	}
	p[0], p[1], p[2] = 1.0/3, 1.0/3, 1.0/3
	if d := EMD(p, q, true); math.Abs(d-0.375) > 1e-12 {
		t.Fatalf("ordered EMD %v, want 0.375", d)
	}
	if d := EMD([]float64{1, 0, 0}, []float64{0, 0.5, 0.5}, false); d != 1 {
		t.Fatalf("equal-distance EMD %v, want 1", d)
	}
}

func TestParseRangeAndLoss(t *testing.T) {
	for _, c := range []struct {
		s      string
		lo, hi float64
		ok     bool
	}{{"5", 5, 5, true}, {"20-29", 20, 29, true}, {"[1,4]", 1, 4, true}, {"-3", -3, -3, true}, {"3..9", 3, 9, true}, {"Male", 0, 0, false}} {
		lo, hi, ok := ParseRange(c.s)
		if ok != c.ok || ok && (lo != c.lo || hi != c.hi) {
			t.Errorf("%q: %v %v %v", c.s, lo, hi, ok)
		}
	}
	if NumericLoss(20, 29, 0, 90) != 0.1 || SetLoss(3, 5) != 0.5 || SetLoss(1, 5) != 0 {
		t.Fatal("loss")
	}
}

// TestBeliefAtSearchesValues: At (a binary search) gives what a scan of
// the belief gives, for every value it holds and the values between.
func TestBeliefAtSearchesValues(t *testing.T) {
	bl := Belief{Values: []int32{1, 4, 5, 9, 20000}, P: []float64{0.1, 0.2, 0.3, 0.15, 0.25}}
	for i := -1; i <= 20001; i++ {
		want := 0.0
		for k, v := range bl.Values {
			if int(v) == i {
				want = bl.P[k]
			}
		}
		if got := bl.At(i); got != want {
			t.Fatalf("At(%d) = %v, want %v", i, got, want)
		}
	}
	if got := (Belief{}).At(0); got != 0 {
		t.Fatalf("empty belief At(0) = %v", got)
	}
}

// TestBuilderRefusesUnorderedPairs: Pairs takes its values as given, and
// a belief out of order would make At read wrong figures: it panics
// rather than state them.
func TestBuilderRefusesUnorderedPairs(t *testing.T) {
	b := NewBuilder([]string{"q"}, "s", []string{"a", "b", "c"}, false)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on values out of order")
		}
	}()
	b.Pairs([]int32{2, 0}, []int{1, 1})
}

// SingleValued counts the records of regions whose belief is one value
// with certainty, each belief looked at once however many regions share
// it: regions sharing a certain belief, an uncertain one, none, and
// empty regions.
func TestSingleValuedSharedBeliefs(t *testing.T) {
	v := &View{SAValues: []string{"a", "b", "c"}, Beliefs: []Belief{
		{Values: []int32{0, 1}, P: []float64{0.5, 0.5}},
		{Values: []int32{2}, P: []float64{1}},
		{Values: []int32{0, 1, 2}, P: []float64{1 - 1e-13, 0, 1e-13}},
	}, Regions: []Region{
		{Records: 3, Belief: 1}, {Records: 4, Belief: 0}, {Records: 5, Belief: 1}, {Records: 0, Belief: 1},
		{Records: 7, Belief: -1}, {Records: 2, Belief: 2}, {Records: 6, Belief: 0},
	}}
	if got := SingleValued(v); got != 3+5+2 {
		t.Errorf("SingleValued = %d, want 10", got)
	}
}
