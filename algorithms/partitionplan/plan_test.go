package partitionplan

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
)

var educations = []string{"Bachelors", "HS-grad", "Masters", "Doctorate", "Some-college", "11th"}

// randomTable is a table with a numeric and two categorical QIs; with
// missing set, about one cell in twenty of each QI is empty.
func randomTable(t *testing.T, rng *model.Rand, rows int, missing bool, extra ...string) *model.Table {
	t.Helper()
	var b strings.Builder
	b.WriteString("age,sex,education,income\n")
	cell := func(s string) string {
		if missing && rng.Intn(20) == 0 {
			return ""
		}
		return s
	}
	edus := append(append([]string{}, educations...), extra...)
	for r := 0; r < rows; r++ {
		fmt.Fprintf(&b, "%s,%s,%s,%d\n", cell(fmt.Sprint(17+rng.Intn(70))),
			cell([]string{"F", "M"}[rng.Intn(2)]), cell(edus[rng.Intn(len(edus))]), rng.Intn(100000))
	}
	tab, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "random"})
	if err != nil {
		t.Fatal(err)
	}
	if c := tab.Column("age"); c.Kind != model.Numeric && rows > 0 {
		t.Fatalf("age read as %v", c.Kind)
	}
	return tab
}

var qis = []string{"age", "sex", "education"}

func partitionSizes(t *testing.T, p *Plan, tab *model.Table) []int {
	t.Helper()
	parts, err := p.AssignTable(tab)
	if err != nil {
		t.Fatal(err)
	}
	sizes := make([]int, p.Partitions)
	for r, i := range parts {
		if i < 0 || i >= p.Partitions {
			t.Fatalf("row %d assigned to partition %d of %d", r, i, p.Partitions)
		}
		sizes[i]++
	}
	return sizes
}

func TestEveryRowInExactlyOnePartition(t *testing.T) {
	rng := model.NewRand(1)
	tab := randomTable(t, rng, 5000, true)
	p, err := Build(tab, qis, Options{MaxRows: 400, MinRows: 50, SampleRate: 0.2}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if p.Partitions < 8 || p.SampleRows != 1000 {
		t.Fatalf("%d partitions from %d sample rows; want >= 8 from 1000", p.Partitions, p.SampleRows)
	}
	sizes := partitionSizes(t, p, tab)
	total := 0
	for _, s := range sizes {
		total += s
	}
	if total != tab.Rows {
		t.Fatalf("partitions hold %d rows of %d", total, tab.Rows)
	}
	// Assign agrees with the builder's own split, missing values included:
	// with the whole table as sample each partition's count is its estimate.
	whole, err := Build(tab, qis, Options{MaxRows: 400, MinRows: 50}, rng)
	if err != nil {
		t.Fatal(err)
	}
	sizes = partitionSizes(t, whole, tab)
	for i, est := range leafEstimates(whole.Root, nil) {
		if est != float64(sizes[i]) || sizes[i] < 50 {
			t.Errorf("partition %d: estimate %g, count %d (M 50)", i, est, sizes[i])
		}
	}
}

func rowValues(tab *model.Table, r int) []string {
	out := make([]string, len(qis))
	for i, q := range qis {
		out[i] = tab.Column(q).Value(r)
	}
	return out
}

// With the whole table as sample the estimates are counts: every
// partition holds at most N rows (each can be cut, the ages being many)
// and at least M, and its count is its estimate. With a 10% sample the
// stated tolerance is 1.5 N and M / 2.
func TestPartitionSizes(t *testing.T) {
	rng := model.NewRand(2)
	tab := randomTable(t, rng, 20000, false)
	for _, c := range []struct {
		rate, over, under float64
	}{{0, 1, 1}, {0.1, 1.5, 0.5}} {
		const n, m = 1000, 200
		p, err := Build(tab, qis, Options{MaxRows: n, MinRows: m, SampleRate: c.rate}, model.NewRand(3))
		if err != nil {
			t.Fatal(err)
		}
		sizes := partitionSizes(t, p, tab)
		for i, s := range sizes {
			if float64(s) > c.over*n || float64(s) < c.under*m {
				t.Errorf("rate %g: partition %d holds %d rows; want within [%g, %g]", c.rate, i, s, c.under*m, c.over*n)
			}
		}
		if c.rate == 0 {
			for i, est := range leafEstimates(p.Root, nil) {
				if est != float64(sizes[i]) {
					t.Errorf("partition %d: estimate %g, count %d", i, est, sizes[i])
				}
			}
		}
	}
}

func leafEstimates(n *Node, out []float64) []float64 {
	if n.Cut == nil {
		return append(out, n.EstimatedRows)
	}
	return leafEstimates(n.Right, leafEstimates(n.Left, out))
}

func TestDeterministicWithSeed(t *testing.T) {
	tab := randomTable(t, model.NewRand(4), 3000, true)
	plan := func(seed uint64) string {
		p, err := Build(tab, qis, Options{MaxRows: 200, MinRows: 20, SampleRows: 300}, model.NewRand(seed))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := plan(7), plan(7); a != b {
		t.Fatalf("same seed, different plans:\n%s\n%s", a, b)
	}
	if plan(7) == plan(8) {
		t.Fatal("seeds 7 and 8 drew the same plan: the sample ignores the seed")
	}
}

// A second table with the same QIs (a population, say) splits by the same
// cuts: ages outside the sample's range go by threshold, an education the
// sample never held goes right at every education cut.
func TestAssignSecondTable(t *testing.T) {
	tab := randomTable(t, model.NewRand(5), 4000, false)
	p, err := Build(tab, qis, Options{MaxRows: 300, MinRows: 40}, model.NewRand(6))
	if err != nil {
		t.Fatal(err)
	}
	other := randomTable(t, model.NewRand(9), 3000, true, "Preschool")
	sizes := partitionSizes(t, p, other)
	if len(sizes) != p.Partitions {
		t.Fatalf("%d sizes for %d partitions", len(sizes), p.Partitions)
	}
	educationCuts := 0
	for _, values := range [][]string{{"5", "F", "Preschool"}, {"140", "M", "Preschool"}, {"", "", "Preschool"}} {
		for n := p.Root; n.Cut != nil; {
			left := p.goesLeft(n.Cut, values[n.Cut.Column])
			if p.Columns[n.Cut.Column].Name == "education" {
				educationCuts++
				if left {
					t.Fatalf("unseen education went left at a cut %+v", n.Cut)
				}
			}
			if left {
				n = n.Left
			} else {
				n = n.Right
			}
		}
	}
	if educationCuts == 0 {
		t.Fatal("no education cut on the paths tried: the test proves nothing")
	}
	if _, err := p.AssignTable(&model.Table{Name: "bare"}); err == nil {
		t.Fatal("a table without the plan's columns was assigned")
	}
}

// TestCutsBruteForce checks every node of plans on small tables (sample =
// table, so estimates are counts) against a direct reading of Mondrian:
// a node over N rows is cut on the column of widest normalised range that
// has an allowed cut, at the threshold whose left side is closest to half
// (lowest on a tie); a node is a leaf when it is at most N or has no
// allowed cut.
func TestCutsBruteForce(t *testing.T) {
	rng := model.NewRand(10)
	for trial := 0; trial < 200; trial++ {
		tab := randomTable(t, rng, 10+rng.Intn(80), false)
		n, m := 2+rng.Intn(12), 1+rng.Intn(5)
		p, err := Build(tab, qis, Options{MaxRows: n, MinRows: m}, rng)
		if err != nil {
			t.Fatal(err)
		}
		all := make([]int, tab.Rows)
		for i := range all {
			all[i] = i
		}
		bf := newBruteTable(tab)
		checkNode(t, p, p.Root, all, bf, n, m)
	}
}

// bruteTable holds every QI as positions on its axis: numbers by value,
// categories by their index among the table's sorted distinct texts.
type bruteTable struct {
	tab  *model.Table
	pos  [][]float64 // per QI, per row
	span []float64
}

func newBruteTable(tab *model.Table) bruteTable {
	bf := bruteTable{tab: tab}
	for _, q := range qis {
		c := tab.Column(q)
		sorted := append([]string{}, c.Dict...)
		sort.Strings(sorted)
		pos := make([]float64, tab.Rows)
		for r := range pos {
			if c.Kind == model.Numeric {
				pos[r] = c.Num(r)
			} else {
				pos[r] = float64(sort.SearchStrings(sorted, c.Value(r)))
			}
		}
		lo, hi := minMax(pos, nil)
		bf.pos = append(bf.pos, pos)
		bf.span = append(bf.span, hi-lo)
	}
	return bf
}

func minMax(pos []float64, rows []int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	if rows == nil {
		for _, x := range pos {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		return lo, hi
	}
	for _, r := range rows {
		lo, hi = math.Min(lo, pos[r]), math.Max(hi, pos[r])
	}
	return lo, hi
}

// bruteCut is the column and threshold position Mondrian cuts rows at, or
// ok false.
func (bf bruteTable) bruteCut(rows []int, m int) (col int, at float64, ok bool) {
	type cand struct {
		col   int
		width float64
	}
	var cands []cand
	for i := range qis {
		if lo, hi := minMax(bf.pos[i], rows); bf.span[i] > 0 && hi > lo {
			cands = append(cands, cand{i, (hi - lo) / bf.span[i]})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].width > cands[b].width })
	for _, c := range cands {
		best, bestDiff := 0.0, -1
		for _, r := range rows {
			v := bf.pos[c.col][r]
			left := 0
			for _, s := range rows {
				if bf.pos[c.col][s] <= v {
					left++
				}
			}
			if left == len(rows) || left < m || len(rows)-left < m {
				continue
			}
			diff := left - len(rows)/2
			if diff < 0 {
				diff = -diff
			}
			if bestDiff < 0 || diff < bestDiff || diff == bestDiff && v < best {
				best, bestDiff = v, diff
			}
		}
		if bestDiff >= 0 {
			return c.col, best, true
		}
	}
	return 0, 0, false
}

func checkNode(t *testing.T, p *Plan, node *Node, rows []int, bf bruteTable, n, m int) {
	t.Helper()
	col, at, ok := bf.bruteCut(rows, m)
	if len(rows) <= n || !ok {
		if node.Cut != nil {
			t.Fatalf("%d rows (N %d, M %d) cut, want a leaf", len(rows), n, m)
		}
		return
	}
	if node.Cut == nil || node.Cut.Column != col {
		t.Fatalf("%d rows (N %d, M %d): cut %+v, want column %s at %g", len(rows), n, m, node.Cut, qis[col], at)
	}
	var left, right []int
	for _, r := range rows {
		values := rowValues(bf.tab, r)
		want := bf.pos[col][r] <= at
		if got := p.goesLeft(node.Cut, values[col]); got != want {
			t.Fatalf("row %v: cut %+v sends it left=%v, want %v (at %g)", values, node.Cut, got, want, at)
		}
		if want {
			left = append(left, r)
		} else {
			right = append(right, r)
		}
	}
	checkNode(t, p, node.Left, left, bf, n, m)
	checkNode(t, p, node.Right, right, bf, n, m)
}

func TestJSONRoundTrip(t *testing.T) {
	tab := randomTable(t, model.NewRand(11), 2000, true)
	p, err := Build(tab, qis, Options{MaxRows: 150, MinRows: 30, SampleRate: 0.5}, model.NewRand(12))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, back) {
		t.Fatalf("round trip changed the plan:\n%s", data)
	}
	a, _ := p.AssignTable(tab)
	b, _ := back.AssignTable(tab)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the decoded plan assigns rows differently")
	}
	for _, bad := range []string{
		`{"columns":[{"name":"a","numeric":true}],"partitions":1}`,
		`{"columns":[{"name":"a","numeric":true}],"root":{"partition":1},"partitions":1}`,
		`{"columns":[{"name":"a","numeric":true}],"root":{"cut":{"column":1},"left":{"partition":0},"right":{"partition":1}},"partitions":2}`,
		`{"columns":[{"name":"a","numeric":true}],"root":{"cut":{"column":0},"left":{"partition":0},"right":{"partition":0}},"partitions":2}`,
		`{"columns":[{"name":"a","numeric":true}],"root":{"cut":{"column":0},"left":{"partition":0}},"partitions":1}`,
		`{"columns":[{"name":"a","numeric":true}],"root":{"partition":0},"partitions":2}`,
	} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode accepted %s", bad)
		}
	}
}

func TestBuildRejectsBadOptions(t *testing.T) {
	tab := randomTable(t, model.NewRand(13), 50, false)
	for _, o := range []Options{{MaxRows: 0}, {MaxRows: 5, MinRows: -1}, {MaxRows: 5, SampleRate: 1.5}, {MaxRows: 5, SampleRows: -2}} {
		if _, err := Build(tab, qis, o, model.NewRand(1)); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := Build(tab, []string{"age", "zip"}, Options{MaxRows: 5}, model.NewRand(1)); err == nil {
		t.Error("an unknown QI was accepted")
	}
	p, err := Build(tab.SelectRows(nil), qis, Options{MaxRows: 5}, model.NewRand(1))
	if err != nil || p.Partitions != 1 {
		t.Fatalf("empty table: %v, %+v", err, p)
	}
}

// Options.Partitions makes exactly that many partitions by cutting the
// largest one first: on the whole table as its own sample, the plan's
// leaves hold the table's rows once each, in N partitions, and no cut
// left unmade could have split a partition larger than every cut one
// (the largest leaf is at most the smallest cut node's rows).
func TestPartitionsAskedFor(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		rng := model.NewRand(seed)
		tab := randomTable(t, rng, 3000, seed%2 == 0)
		for _, n := range []int{1, 2, 3, 8, 13} {
			p, err := Build(tab, qis, Options{Partitions: n, MinRows: 10}, rng)
			if err != nil {
				t.Fatal(err)
			}
			if p.Partitions != n {
				t.Fatalf("seed %d: %d partitions, asked %d", seed, p.Partitions, n)
			}
			sizes := partitionSizes(t, p, tab)
			total, largest := 0, 0
			for _, s := range sizes {
				total += s
				largest = max(largest, s)
			}
			if total != tab.Rows {
				t.Fatalf("partitions hold %d rows of %d", total, tab.Rows)
			}
			var smallestCut float64 = math.Inf(1)
			var walk func(nd *Node)
			walk = func(nd *Node) {
				if nd.Cut != nil {
					smallestCut = math.Min(smallestCut, nd.EstimatedRows)
					walk(nd.Left)
					walk(nd.Right)
				}
			}
			walk(p.Root)
			if n > 1 && float64(largest) > smallestCut {
				t.Fatalf("seed %d n %d: a leaf of %d rows left uncut while a node of %v rows was cut", seed, n, largest, smallestCut)
			}
			again, _ := Build(tab, qis, Options{Partitions: n, MinRows: 10}, model.NewRand(99))
			a, _ := json.Marshal(p)
			b, _ := json.Marshal(again)
			if string(a) != string(b) {
				t.Fatalf("seed %d n %d: two builds differ", seed, n)
			}
		}
	}
}

// A decoded plan whose cut is not one of its column's kind is refused: a
// numeric cut on a categorical column would send every row right.
func TestDecodeRefusesACutOfTheOtherKind(t *testing.T) {
	for _, plan := range []string{
		`{"columns":[{"name":"a","numeric":false}],"root":{"cut":{"column":0,"at_most":3},"left":{"partition":0},"right":{"partition":1}},"partitions":2}`,
		`{"columns":[{"name":"a","numeric":true}],"root":{"cut":{"column":0,"left_values":["x"]},"left":{"partition":0},"right":{"partition":1}},"partitions":2}`,
	} {
		if _, err := Decode([]byte(plan)); err == nil {
			t.Errorf("Decode(%s) passed", plan)
		}
	}
	ok := `{"columns":[{"name":"a","numeric":false}],"root":{"cut":{"column":0,"left_values":["x"]},"left":{"partition":0},"right":{"partition":1}},"partitions":2}`
	if _, err := Decode([]byte(ok)); err != nil {
		t.Errorf("Decode(%s): %v", ok, err)
	}
}
