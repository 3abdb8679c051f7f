package attack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"privlab/algorithms/risk"
	"privlab/model"
)

// handWorld is a release of two groups that list their values (as
// ambiguity's do): group 0 lists a {1, 2} and b {x, y} and holds 3
// records, group 1 lists a {3}, b {y} and holds 1. The data's people are
// (1,x), (2,y), (2,y), (3,y); the population holds them and two people
// outside the data, (2,x) and (3,x).
func handWorld() (*risk.View, *risk.Exposure, *model.Table, *model.Table) {
	v := &risk.View{QIs: []string{"a", "b"}, Cells: [][]string{{"1", "2", "3"}, {"x", "y"}},
		Regions: []risk.Region{{Records: 3, Cells: []uint32{0, 0}, Belief: -1}, {Records: 1, Cells: []uint32{2, 1}, Belief: -1}}}
	e := &risk.Exposure{Unit: "group", KBy: "no anonymity claimed", Witnessed: true,
		Cover: []func([]string) [][]uint32{risk.ExactCover(v.Cells[0]), risk.ExactCover(v.Cells[1])},
		Sets:  [][][]uint32{{{0, 1}, {0, 1}}, {{2}, {1}}}}
	data := [][]string{{"1", "x"}, {"2", "y"}, {"2", "y"}, {"3", "y"}}
	orig := table("original", []string{"a", "b"}, data)
	pop := table("population", []string{"a", "b"}, append(slices.Clone(data), []string{"2", "x"}, []string{"3", "x"}))
	return v, e, pop, orig
}

// TestSinglingOutByHand: the attacker's predicates on handWorld are every
// published value on one QI, in the order they first appear (a=1, a=2,
// b=x, b=y, a=3), then every conjunction of a group's values ((1,x),
// (1,y), (2,x), (2,y) from group 0, (3,y) from group 1): 10 predicates.
// In the population a=1 isolates (1,x), in the data; (1,x) isolates the
// same person; (3,y) isolates (3,y), in the data; (2,x) isolates (2,x),
// outside it; every other matches 0 or at least 2 people. Rate 3/10,
// control 1/10, 2 people singled out.
func TestSinglingOutByHand(t *testing.T) {
	v, e, pop, orig := handWorld()
	popAt, err := place(pop, "population", v, e)
	if err != nil {
		t.Fatal(err)
	}
	origAt, _ := place(orig, "original", v, e)
	k := &risk.Knowledge{Population: pop, Original: orig, PopulationName: "six people"}
	f := singlingOut(v, e, popAt, origAt, "six people", k)
	pl := makePlan(v, e, popAt, Predicates)
	var labels []string
	for _, q := range pl.main {
		labels = append(labels, q.label(v, e, popAt))
	}
	want := "a 1; a 2; b x; b y; a 3; a 1 and b x; a 1 and b y; a 2 and b x; a 2 and b y; a 3 and b y"
	if got := strings.Join(labels, "; "); got != want {
		t.Fatalf("predicates %s, want %s", got, want)
	}
	if f.Trials != 10 || f.Successes != 3 || f.Measured != 0.3 || f.Control != 0.1 || f.Records != 2 || !math.IsNaN(f.Bound) || f.Holds() != -1 {
		t.Fatalf("by hand: %d trials, %v successes, measured %v, control %v, %d people, bound %v, holds %d; want 10, 3, 0.3, 0.1, 2, NaN, not bounded",
			f.Trials, f.Successes, f.Measured, f.Control, f.Records, f.Bound, f.Holds())
	}
	if want := "the predicate a 1 isolates one person of the data: row 1 of the population (a 1, b x)"; f.Example != want {
		t.Errorf("example %q, want %q", f.Example, want)
	}
	if want := []string{"population", "original"}; !slices.Equal(f.Needs, want) {
		t.Errorf("needs %v, want %v", f.Needs, want)
	}
	// The baseline guesses on the same QIs, and its rate is what its
	// predicates give, counted one person at a time.
	b := 0
	for j, q := range pl.base {
		if !slices.Equal(q.qis, pl.main[j].qis) || !q.raw {
			t.Fatalf("baseline predicate %d on %v (raw %v), the attack's on %v", j, q.qis, q.raw, pl.main[j].qis)
		}
		if who := naiveMatch(pop, q, nil); len(who) == 1 && holdsRow(orig, pop, who[0]) {
			b++
		}
	}
	if f.Baseline != float64(b)/10 {
		t.Errorf("baseline %v, counted %d of 10", f.Baseline, b)
	}
	want = fmt.Sprintf("3 of 10 predicates (5 on one quasi-identifier, 5 on several) isolate one person of the data; 1 isolate one person outside it; "+
		"without the release, %d of 10 predicates of values drawn from the population's marginals on the same quasi-identifiers do; 2 people singled out", b)
	if f.Detail != want {
		t.Errorf("detail %q, want %q", f.Detail, want)
	}
	// Without the original, the population's people are not known to be
	// in the data: a predicate isolating anyone counts, and no control.
	f = singlingOut(v, e, popAt, nil, "six people", &risk.Knowledge{Population: pop, PopulationName: "six people"})
	if f.Successes != 4 || !math.IsNaN(f.Control) || !slices.Equal(f.Needs, []string{"population"}) {
		t.Errorf("without the original: %v successes, control %v, needs %v; want 4, NaN, [population]", f.Successes, f.Control, f.Needs)
	}
	// The original as the population: a=1, b=x, a=3, (1,x) and (3,y)
	// isolate one of its people; no one outside the data, no control.
	f = singlingOut(v, e, origAt, origAt, "the original's 4 people", &risk.Knowledge{Original: orig})
	if f.Successes != 5 || !math.IsNaN(f.Control) {
		t.Errorf("on the original: %v successes, control %v; want 5 (a=1, b=x, a=3, (1,x), (3,y)), NaN", f.Successes, f.Control)
	}
}

// naiveMatch is the rows of t that satisfy q (a published cell's raw
// values from cellValues; nil: the cells' own labels), person by person.
func naiveMatch(t *model.Table, q predicate, cellValues [][][]string) []int {
	var out []int
	for row := 0; row < t.Rows; row++ {
		ok := true
		for j, i := range q.qis {
			raw := t.Columns[i].Value(row)
			if q.raw {
				ok = ok && t.Columns[i].Codes[row] == q.values[j]
			} else {
				ok = ok && contains(cellValues[i][q.values[j]], raw)
			}
		}
		if ok {
			out = append(out, row)
		}
	}
	return out
}

// holdsRow reports whether the original holds a person with population
// row's values.
func holdsRow(orig, pop *model.Table, row int) bool {
	for o := 0; o < orig.Rows; o++ {
		same := true
		for i := range pop.Columns {
			same = same && orig.Columns[i].Value(o) == pop.Columns[i].Value(row)
		}
		if same {
			return true
		}
	}
	return false
}

// TestSinglingOutAgainstBruteForce holds the attack to a brute force on
// random tiny releases of each shape: the predicates are the distinct
// ones the published regions offer (all of them when they are no more
// than asked for), each matched against every person of the population,
// and the rate, control, baseline and people singled out counted from
// those matches; the people's presence in the data looked up both ways.
func TestSinglingOutAgainstBruteForce(t *testing.T) {
	defer func(p bool) { tryPacked = p }(tryPacked)
	for _, kind := range []string{"exact", "intervals", "sets"} {
		rng := rand.New(rand.NewPCG(11, uint64(len(kind))))
		for trial := 0; trial < 300; trial++ {
			w := randomWorld(rng, kind)
			tryPacked = trial%2 == 0 // else the original's tuples by their codes as text
			name := fmt.Sprintf("%s/%d (packed %v)", kind, trial, tryPacked)
			n := []int{Predicates, 3, 6}[trial%3]
			checkSinglingOut(t, name, w, n)
		}
	}
}

func checkSinglingOut(t *testing.T, name string, w *world, n int) {
	pop, err := place(w.pop, "population", w.v, w.e)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := place(w.orig, "original", w.v, w.e)
	offered := offeredByBruteForce(w)
	pl := makePlan(w.v, w.e, pop, n)
	keys := map[string]bool{}
	uni := 0
	for _, q := range pl.main {
		if !offered[q.key()] || keys[q.key()] {
			t.Fatalf("%s: predicate %v offered by no region, or twice", name, q)
		}
		keys[q.key()] = true
		if len(q.qis) == 1 {
			uni++
		}
	}
	offeredUni := 0
	for k := range offered {
		if len(k) == 8 {
			offeredUni++
		}
	}
	if uni != pl.univariate || uni != min(offeredUni, n-(len(pl.main)-uni)) || uni < min(offeredUni, n/2) || len(pl.main) > n ||
		len(offered) <= n && len(pl.main) != len(offered) {
		t.Fatalf("%s: %d predicates (%d univariate) of %d offered (%d univariate), asked %d", name, len(pl.main), uni, len(offered), offeredUni, n)
	}
	s := newSingler(pop, dataPeople(pop, orig, &risk.Knowledge{Population: w.pop, Original: w.orig}))
	got := s.score(pl.main)
	inside, outside, people := 0, 0, map[int]bool{}
	for _, q := range pl.main {
		who := naiveMatch(w.pop, q, w.values)
		switch {
		case len(who) != 1:
		case holdsRow(w.orig, w.pop, who[0]):
			inside++
			people[who[0]] = true
		default:
			outside++
		}
	}
	base := 0
	for _, q := range pl.base {
		if who := naiveMatch(w.pop, q, nil); len(who) == 1 && holdsRow(w.orig, w.pop, who[0]) {
			base++
		}
	}
	if gb := s.score(pl.base); got.inside != inside || got.outside != outside || len(got.people) != len(people) || gb.inside != base {
		t.Fatalf("%s: %d inside, %d outside, %d people, baseline %d; brute force %d, %d, %d, %d", name, got.inside, got.outside, len(got.people), gb.inside, inside, outside, len(people), base)
	}
}

// offeredByBruteForce is every distinct predicate the published regions
// offer: for each region with a record, each non-empty set of QIs and
// each choice of one of its cells on each.
func offeredByBruteForce(w *world) map[string]bool {
	out := map[string]bool{}
	for r, reg := range w.v.Regions {
		if reg.Records == 0 {
			continue
		}
		for mask := 1; mask < 4; mask++ {
			var qis []int
			for i := 0; i < 2; i++ {
				if mask&(1<<i) != 0 {
					qis = append(qis, i)
				}
			}
			var walk func(j int, values []uint32)
			walk = func(j int, values []uint32) {
				if j == len(qis) {
					out[predicate{qis: qis, values: values}.key()] = true
					return
				}
				for _, c := range w.e.RegionCells(w.v, r, qis[j]) {
					walk(j+1, append(slices.Clone(values), c))
				}
			}
			walk(0, nil)
		}
	}
	return out
}

// TestSinglingOutDeterministic: the same release and tables give the
// same predicates and figures, placed afresh each time; another release
// draws other predicates.
func TestSinglingOutDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := 0; trial < 50; trial++ {
		w := randomWorld(rng, "intervals")
		var seen []string
		for range 2 {
			pop, _ := place(w.pop, "population", w.v, w.e)
			f := singlingOut(w.v, w.e, pop, nil, "test", &risk.Knowledge{Population: w.pop})
			pl := makePlan(w.v, w.e, pop, 3)
			seen = append(seen, fmt.Sprintf("%+v %v", f, pl.main))
		}
		if seen[0] != seen[1] {
			t.Fatalf("trial %d: two runs differ:\n%s\n%s", trial, seen[0], seen[1])
		}
	}
	v, e, _, _ := handWorld()
	a := releaseSeed(v, e)
	v.Regions[1].Records = 2
	if b := releaseSeed(v, e); a == b {
		t.Errorf("two releases hash alike: %x", a)
	}
}

// TestSinglingOutSampled: a release offering more predicates than the
// attacker tries gives exactly Predicates of them, half on one QI.
func TestSinglingOutSampled(t *testing.T) {
	const d, values = 3, 40
	v := &risk.View{QIs: []string{"a", "b", "c"}, Cells: make([][]string, d)}
	e := &risk.Exposure{Unit: "class"}
	var rows [][]string
	for i := 0; i < d; i++ {
		for x := 0; x < values; x++ {
			v.Cells[i] = append(v.Cells[i], fmt.Sprint(x))
		}
		e.Cover = append(e.Cover, risk.ExactCover(v.Cells[i]))
	}
	for x := 0; x < values*values; x++ {
		cells := []uint32{uint32(x % values), uint32(x / values % values), uint32(x * 7 % values)}
		v.Regions = append(v.Regions, risk.Region{Records: 1, Cells: cells, Belief: -1})
		rows = append(rows, []string{fmt.Sprint(cells[0]), fmt.Sprint(cells[1]), fmt.Sprint(cells[2])})
	}
	pop, _ := place(table("population", v.QIs, rows), "population", v, e)
	pl := makePlan(v, e, pop, Predicates)
	arity := map[int]int{}
	for _, q := range pl.main {
		arity[len(q.qis)]++
		if !sort.IntsAreSorted(q.qis) {
			t.Fatalf("predicate on %v", q.qis)
		}
	}
	// 120 distinct values on one QI, all taken; the rest conjunctions.
	if len(pl.main) != Predicates || pl.univariate != 120 || arity[1] != 120 || arity[2]+arity[3] != Predicates-120 || arity[2] == 0 || arity[3] == 0 {
		t.Errorf("%d predicates, %d univariate, arities %v", len(pl.main), pl.univariate, arity)
	}
}
