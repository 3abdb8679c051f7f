package risk

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// builders drives the new Builder and the oracle with the same calls.
type builders struct {
	nb *Builder
	ob *oldBuilder
	// beliefs registered in both, by position (new id, old id).
	nIDs, oIDs []int32
}

func (bs *builders) belief(p []float64) {
	bs.nIDs = append(bs.nIDs, bs.nb.Belief(p))
	bs.oIDs = append(bs.oIDs, bs.ob.Belief(p))
}

func (bs *builders) counts(c []int) {
	bs.nIDs = append(bs.nIDs, bs.nb.Counts(c))
	bs.oIDs = append(bs.oIDs, bs.ob.Counts(c))
}

// randomDist is a distribution over m values with zeros, tiny values
// and repeats (so that beliefs are shared).
func randomDist(rng *rand.Rand, m int) []float64 {
	p := make([]float64, m)
	if rng.IntN(4) == 0 {
		p[rng.IntN(m)] = 1
		return p
	}
	var sum float64
	for i := range p {
		switch rng.IntN(4) {
		case 0:
			p[i] = rng.Float64()
		case 1:
			p[i] = 1e-13
		}
		sum += p[i]
	}
	if sum == 0 {
		p[0], sum = 1, 1
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// randomViews builds one random release view with both builders: QI
// cells from domains of 1 to 40 values, records with registered beliefs,
// known values or none, losses, populations; or group regions only.
func randomViews(rng *rand.Rand) (*View, *oldView) {
	m := 1 + rng.IntN(12)
	if rng.IntN(4) == 0 {
		m = 50 + rng.IntN(300)
	}
	q := rng.IntN(5)
	qis := make([]string, q)
	doms := make([]int, q)
	for i := range qis {
		qis[i] = fmt.Sprintf("q%d", i)
		doms[i] = 1 + rng.IntN(40)
	}
	values := make([]string, m)
	for i := range values {
		values[i] = fmt.Sprintf("v%03d", i)
	}
	numeric, sa := rng.IntN(2) == 0, "s"
	if rng.IntN(8) == 0 {
		sa = ""
	}
	bs := &builders{nb: NewBuilder(qis, sa, values, numeric), ob: newOldBuilder(qis, sa, values, numeric)}
	for k := rng.IntN(6); k >= 0; k-- {
		bs.belief(randomDist(rng, m))
		c := make([]int, m)
		for i := range c {
			c[i] = rng.IntN(3) * rng.IntN(3)
		}
		bs.counts(c)
	}
	if rng.IntN(5) == 0 { // ambiguity's groups
		for g := rng.IntN(40); g >= 0; g-- {
			k := rng.IntN(len(bs.nIDs))
			presence := math.NaN()
			if rng.IntN(2) == 0 {
				presence = rng.Float64()
			}
			n, loss := rng.IntN(12), rng.Float64()
			bs.nb.AddRegion(n, bs.nIDs[k], loss, presence)
			bs.ob.AddRegion(n, bs.oIDs[k], loss, presence)
		}
	} else {
		addRecords(rng, bs, doms, m)
	}
	rowsIn := rng.IntN(5000)
	suppressed, gen := rng.IntN(50), rng.IntN(2) == 0
	return bs.nb.View(rowsIn, suppressed, gen, "a note."), bs.ob.view(rowsIn, suppressed, gen, "a note.")
}

func addRecords(rng *rand.Rand, bs *builders, doms []int, m int) {
	cells := make([]string, len(doms))
	skew := 1 + rng.IntN(6)
	for r := rng.IntN(1500); r >= 0; r-- {
		for i, d := range doms {
			cells[i] = fmt.Sprintf("c%d", min(rng.IntN(d), rng.IntN(d*skew)))
		}
		var nb, ob int32 = -1, -1
		switch rng.IntN(10) {
		case 0, 1, 2, 3:
			v := rng.IntN(m)
			nb, ob = bs.nb.Value(v), bs.ob.Value(v)
		case 4:
		default:
			k := rng.IntN(len(bs.nIDs))
			nb, ob = bs.nIDs[k], bs.oIDs[k]
		}
		loss := float64(rng.IntN(7)) / 6
		bs.nb.Add(cells, nb, loss)
		bs.ob.Add(cells, ob, loss)
	}
	for k := rng.IntN(30); k > 0; k-- {
		for i, d := range doms {
			cells[i] = fmt.Sprintf("c%d", rng.IntN(d+1))
		}
		n := rng.IntN(100)
		bs.nb.SetPopulation(cells, n)
		bs.ob.SetPopulation(cells, n)
	}
}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// sameViews compares two views region by region: cells, records,
// population, loss, presence and the belief's probabilities, bit for bit.
func sameViews(t *testing.T, nv *View, ov *oldView) {
	t.Helper()
	if !reflect.DeepEqual(nv.Cells, ov.Cells) || len(nv.Regions) != len(ov.Regions) {
		t.Fatalf("cells %v / %d regions, before %v / %d", nv.Cells, len(nv.Regions), ov.Cells, len(ov.Regions))
	}
	m := len(nv.SAValues)
	for r, n := range nv.Regions {
		o := ov.Regions[r]
		if nv.CellKey(n) != oldCellKey(ov, o) || n.Records != o.Records || n.Population != o.Population ||
			!sameFloat(n.Loss, o.Loss) || !sameFloat(n.Presence, o.Presence) || (n.Belief < 0) != (o.Belief < 0) {
			t.Fatalf("region %d: %+v, before %+v", r, n, o)
		}
		if n.Belief < 0 {
			continue
		}
		np, op := nv.Beliefs[n.Belief].Dense(m), ov.Beliefs[o.Belief]
		for i := range np {
			if !sameFloat(np[i], op[i]) && !(np[i] == 0 && op[i] == 0) {
				t.Fatalf("region %d: belief %v, before %v", r, np, op)
			}
		}
		if !reflect.DeepEqual(nv.Sorted(n.Belief), ov.Sorted(o.Belief)) {
			t.Fatalf("region %d: sorted %v, before %v", r, nv.Sorted(n.Belief), ov.Sorted(o.Belief))
		}
	}
}

func oldCellKey(v *oldView, r Region) string {
	nv := &View{Cells: v.Cells}
	return nv.CellKey(r)
}

// sameReports compares every figure (value bit for bit, name, help,
// limit), the size bands, the pairs and the summary.
func sameReports(t *testing.T, n, o *Report) {
	t.Helper()
	if len(n.Figures) != len(o.Figures) {
		t.Fatalf("%d figures, before %d", len(n.Figures), len(o.Figures))
	}
	for i, f := range n.Figures {
		g := o.Figures[i]
		if !sameFloat(f.Value, g.Value) {
			t.Fatalf("%s = %v, before %v", f.Key, f.Value, g.Value)
		}
		f.Value, g.Value = 0, 0
		if f != g {
			t.Fatalf("figure %+v, before %+v", f, g)
		}
	}
	if !reflect.DeepEqual(n.Sizes, o.Sizes) || !reflect.DeepEqual(n.Pairs, o.Pairs) || n.Summary != o.Summary {
		t.Fatalf("sizes %v pairs %v summary %q\nbefore %v %v %q", n.Sizes, n.Pairs, n.Summary, o.Sizes, o.Pairs, o.Summary)
	}
}

// The new Builder and Compute give the views and figures the code before
// them gave (the oracle in oracle_test.go), bit for bit, on random views.
func TestSameFiguresAsBefore(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(20, 2))
	kinds := map[string]int{}
	for trial := 0; trial < 120; trial++ {
		nv, ov := randomViews(rng)
		sameViews(t, nv, ov)
		th := []float64{0, 0.2, 0.5, 1, rng.Float64()}[rng.IntN(5)]
		n, o := Compute(nv, Options{Threshold: th}), oldCompute(ov, Options{Threshold: th})
		sameReports(t, n, o)
		if _, ok := n.Get(KeyUniquePair); ok {
			kinds["pairs"]++
		}
		if f, ok := n.Get(KeyTCloseness); ok && f.Value > 0 {
			kinds["closeness"]++
		}
		if _, ok := n.Get(KeyPresence); ok {
			kinds["presence"]++
		}
		if _, ok := n.Get(KeyJournMax); ok {
			kinds["journalist"]++
		}
	}
	for _, k := range []string{"pairs", "closeness", "presence", "journalist"} {
		if kinds[k] < 10 {
			t.Errorf("only %d random views gave %s: the comparison does not see them", kinds[k], k)
		}
	}
}

// CountsOf is Counts of the bag given by its values; AddCodes is Add with
// codes into declared dictionaries (an empty cell as model.Missing).
func TestCountsOfAndAddCodes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	b := NewBuilder([]string{"a", "b"}, "s", []string{"x", "y", "z", "w"}, false)
	for k := 0; k < 50; k++ {
		counts := make([]int, 4)
		var bag []int32
		for j := rng.IntN(9); j >= 0; j-- {
			v := rng.IntN(4)
			counts[v]++
			bag = append(bag, int32(v))
		}
		if got, want := b.CountsOf(bag), b.Counts(counts); got != want {
			t.Fatalf("CountsOf(%v) = belief %d, Counts(%v) = %d", bag, got, counts, want)
		}
	}
	dictA, dictB := []string{"p", "q", "r"}, []string{"", "1", "2"}
	text := NewBuilder([]string{"a", "b"}, "s", []string{"x", "y"}, false)
	coded := NewBuilder([]string{"a", "b"}, "s", []string{"x", "y"}, false)
	coded.Add([]string{"q", "7"}, coded.Value(1), 0) // text first: codes differ from the dictionaries'
	text.Add([]string{"q", "7"}, text.Value(1), 0)
	coded.Cells(0, dictA)
	coded.Cells(1, dictB[1:])
	for k := 0; k < 400; k++ {
		a, bc := uint32(rng.IntN(3)), uint32(rng.IntN(3))
		v := rng.IntN(2)
		cell := dictB[bc]
		code := bc - 1 // dictB[1:]: "" is Missing
		text.Add([]string{dictA[a], cell}, text.Value(v), float64(k%3))
		coded.AddCodes([]uint32{a, code}, coded.Value(v), float64(k%3))
	}
	tv, cv := text.View(400, 0, true), coded.View(400, 0, true)
	if len(tv.Regions) != len(cv.Regions) {
		t.Fatalf("%d regions by codes, %d by text", len(cv.Regions), len(tv.Regions))
	}
	for r := range tv.Regions {
		if tv.CellKey(tv.Regions[r]) != cv.CellKey(cv.Regions[r]) || tv.Regions[r].Records != cv.Regions[r].Records ||
			!reflect.DeepEqual(tv.Beliefs[tv.Regions[r].Belief], cv.Beliefs[cv.Regions[r].Belief]) {
			t.Fatalf("region %d: by codes %+v, by text %+v", r, cv.Regions[r], tv.Regions[r])
		}
	}
	sameFigs := func(a, b *Report) bool {
		return reflect.DeepEqual(a.Figures, b.Figures) && reflect.DeepEqual(a.Pairs, b.Pairs)
	}
	if !sameFigs(Compute(tv, Options{}), Compute(cv, Options{})) {
		t.Fatal("figures by codes differ from figures by text")
	}
}

// The EMD from a belief's values and prefix sums (used when beliefs times
// SA values exceed exactBudget) is the value-by-value EMD to within
// 1e-12, on domains up to 20,000 values, both distances.
func TestFastEMD(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 28; trial++ {
		m := []int{1, 2, 3, 10, 100, 2000, 20000}[trial%7]
		q := randomDist(rng, m)
		for _, ordered := range []bool{false, true} {
			exact, fast := exactEMD(q, ordered), newFastEMD(q, ordered)
			for k := 0; k < 20; k++ {
				var b Belief
				if k%2 == 0 {
					b = denseBelief(randomDist(rng, m))
				} else {
					b = denseBelief(make([]float64, m))
					for j := 0; j < 1+rng.IntN(5); j++ {
						b.Values = append(b.Values, int32(rng.IntN(m)))
					}
					b = denseBelief(spread(b.Values, m))
				}
				want := EMD(b.Dense(m), q, ordered)
				if got := exact(b); !sameFloat(got, want) {
					t.Fatalf("m=%d ordered=%v: exactEMD %v, EMD %v", m, ordered, got, want)
				}
				if got := fast(b); math.Abs(got-want) > 1e-12 {
					t.Fatalf("m=%d ordered=%v: fast EMD %v, EMD %v (%g apart)", m, ordered, got, want, got-want)
				}
			}
		}
	}
}

// With the budget lowered so that the fast EMD is used, t-closeness is
// the oracle's to within 1e-12 and every other figure is the oracle's.
func TestFastEMDInCompute(t *testing.T) {
	saved := exactBudget
	exactBudget = 0
	defer func() { exactBudget = saved }()
	rng := rand.New(rand.NewPCG(8, 8))
	for trial := 0; trial < 40; trial++ {
		nv, ov := randomViews(rng)
		n, o := Compute(nv, Options{}), oldCompute(ov, Options{})
		nf, _ := n.Get(KeyTCloseness)
		of, _ := o.Get(KeyTCloseness)
		if math.Abs(nf.Value-of.Value) > 1e-12 {
			t.Fatalf("t-closeness %v, before %v", nf.Value, of.Value)
		}
		for i := range n.Figures {
			if n.Figures[i].Key == KeyTCloseness {
				n.Figures[i].Value = o.Figures[i].Value
			}
		}
		sameReports(t, n, o)
	}
}

func denseBelief(p []float64) Belief {
	var b Belief
	for i, x := range p {
		if x != 0 {
			b.Values = append(b.Values, int32(i))
			b.P = append(b.P, x)
		}
	}
	return b
}

// spread is the uniform distribution over the listed values.
func spread(values []int32, m int) []float64 {
	p := make([]float64, m)
	for _, v := range values {
		p[v] += 1 / float64(len(values))
	}
	return p
}
