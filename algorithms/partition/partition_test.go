package partition

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
)

// seqDim is a dimension whose ranks are given per row and whose axis
// position of rank r is values[r] (or r itself when values is nil).
func seqDim(ranks []int32, values []float64) Dim {
	if values == nil {
		max := int32(0)
		for _, r := range ranks {
			if r > max {
				max = r
			}
		}
		values = make([]float64, max+1)
		for i := range values {
			values[i] = float64(i)
		}
	}
	return Dim{Rank: ranks, Value: values}
}

func allRows(n int) []int32 {
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	return rows
}

func mustMondrian(t *testing.T, rows []int32, dims []Dim, minSize int) [][]int32 {
	t.Helper()
	got, err := Mondrian(context.Background(), rows, dims, minSize)
	if err != nil {
		t.Fatalf("Mondrian: %v", err)
	}
	return got
}

func groupsString(gs [][]int32) string {
	var parts []string
	for _, g := range gs {
		parts = append(parts, fmt.Sprint(g))
	}
	return strings.Join(parts, " ")
}

func TestMondrianOneDimension1To10(t *testing.T) {
	// Values 1..10, one row each (row i holds value i+1, rank i).
	ranks := make([]int32, 10)
	for i := range ranks {
		ranks[i] = int32(i)
	}
	vals := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	d := Dim{Rank: ranks, Value: vals}
	cases := []struct {
		minSize int
		want    string
	}{
		// 10 rows: the cut closest to 5 with both sides >= 3 is after 5;
		// halves of 5 rows cannot be cut into two sides of >= 3.
		{3, "[0 1 2 3 4] [5 6 7 8 9]"},
		// minSize 2: 10 -> 5+5; 5 -> 2+3 (left side closest to 5/2 = 2).
		{2, "[0 1] [2 3 4] [5 6] [7 8 9]"},
		// minSize 1: 10 -> 5+5 -> (2+3)+(2+3) -> ((1+1)+(1+2))... down to singletons.
		{1, "[0] [1] [2] [3] [4] [5] [6] [7] [8] [9]"},
		// minSize 5: exactly two halves.
		{5, "[0 1 2 3 4] [5 6 7 8 9]"},
		// minSize 6: no cut leaves 6 on both sides.
		{6, "[0 1 2 3 4 5 6 7 8 9]"},
		// minSize 4: 10 -> 5+5, then no cut of 5 into 4+4.
		{4, "[0 1 2 3 4] [5 6 7 8 9]"},
		// minSize 0 is treated as 1.
		{0, "[0] [1] [2] [3] [4] [5] [6] [7] [8] [9]"},
	}
	for _, c := range cases {
		got := groupsString(mustMondrian(t, allRows(10), []Dim{d}, c.minSize))
		if got != c.want {
			t.Errorf("minSize %d: got %s, want %s", c.minSize, got, c.want)
		}
	}
}

func TestMondrianKeepsInputOrderInsideGroups(t *testing.T) {
	// Rows listed in a scrambled order: groups hold the rows in the order
	// they were given, and come out left to right by value.
	ranks := []int32{9, 3, 0, 7, 5, 1, 8, 2, 6, 4} // row r has rank ranks[r]
	d := seqDim(ranks, nil)
	rows := []int32{6, 1, 4, 9, 0, 2, 7, 3, 8, 5}
	got := groupsString(mustMondrian(t, rows, []Dim{d}, 3))
	// left: ranks 0..4 = rows 2,5,7,1,9; in the given order: 1, 9, 2, 7, 5
	want := "[1 9 2 7 5] [6 4 0 3 8]"
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMondrianTiesStayTogether(t *testing.T) {
	// Values 1,1,1,1,2,3 with minSize 2: the median cut would be after
	// three rows, but the four 1s cannot be split; the only cut leaves
	// {1,1,1,1} and {2,3}.
	d := seqDim([]int32{0, 0, 1, 0, 2, 0}, []float64{1, 2, 3})
	got := groupsString(mustMondrian(t, allRows(6), []Dim{d}, 2))
	if want := "[0 1 3 5] [2 4]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	// minSize 3: the 1s (4 rows) vs 2 rows: not allowed; no cut.
	got = groupsString(mustMondrian(t, allRows(6), []Dim{d}, 3))
	if want := "[0 1 2 3 4 5]"; got != want {
		t.Fatalf("minSize 3: got %s, want %s", got, want)
	}
}

func TestMondrianWidestNormalisedDimensionFirst(t *testing.T) {
	// Eight rows. dim0: ranks 0..7 but its axis spans 0..70 (a ninth,
	// unused value at 70), so the rows cover 7/70 = 0.1 of it. dim1: two
	// values alternating over the rows, covering its whole axis (1.0).
	// dim1 is listed second but is wider, so it is cut first; then dim0
	// is the only dimension left.
	dim0 := seqDim([]int32{0, 1, 2, 3, 4, 5, 6, 7}, []float64{0, 1, 2, 3, 4, 5, 6, 7, 70})
	dim1 := seqDim([]int32{0, 1, 0, 1, 0, 1, 0, 1}, []float64{0, 1})
	got := groupsString(mustMondrian(t, allRows(8), []Dim{dim0, dim1}, 2))
	if want := "[0 2] [4 6] [1 3] [5 7]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	// Without the unused value at 70 both are equally wide (1.0) at the
	// root; the tie goes to the first listed dimension (dim0), and then
	// dim1 (1.0) is wider than dim0 in each half (3/7).
	dim0b := seqDim([]int32{0, 1, 2, 3, 4, 5, 6, 7}, nil)
	got = groupsString(mustMondrian(t, allRows(8), []Dim{dim0b, dim1}, 2))
	if want := "[0 2] [1 3] [4 6] [5 7]"; got != want {
		t.Fatalf("tie: got %s, want %s", got, want)
	}
}

func TestMondrianSameDimensionTwiceWhenStillWidest(t *testing.T) {
	// Not round-robin: dim0 (0..7 over an axis 0..7) stays wider than
	// dim1 (two adjacent values on an axis 0..10, width 0.1) after the
	// first cut, so dim0 is cut again.
	dim0 := seqDim([]int32{0, 1, 2, 3, 4, 5, 6, 7}, nil)
	dim1 := seqDim([]int32{0, 1, 0, 1, 0, 1, 0, 1}, []float64{0, 1, 10})
	got := groupsString(mustMondrian(t, allRows(8), []Dim{dim0, dim1}, 2))
	if want := "[0 1] [2 3] [4 5] [6 7]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMondrianFallsBackToACuttableDimension(t *testing.T) {
	// dim0 is wider (0..100) but its only cut leaves 1 row on the left
	// (minSize 2); dim1 can be cut 3+3.
	dim0 := seqDim([]int32{0, 1, 1, 1, 1, 1}, []float64{0, 100})
	dim1 := seqDim([]int32{0, 0, 0, 1, 1, 1}, []float64{0, 1})
	got := groupsString(mustMondrian(t, allRows(6), []Dim{dim0, dim1}, 2))
	if want := "[0 1 2] [3 4 5]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	// A dimension whose whole axis has a single value is never cut.
	flat := Dim{Rank: make([]int32, 6), Value: []float64{5}}
	got = groupsString(mustMondrian(t, allRows(6), []Dim{flat}, 1))
	if want := "[0 1 2 3 4 5]"; got != want {
		t.Fatalf("flat: got %s, want %s", got, want)
	}
	// No dimensions: one group.
	got = groupsString(mustMondrian(t, allRows(4), nil, 1))
	if want := "[0 1 2 3]"; got != want {
		t.Fatalf("no dims: got %s, want %s", got, want)
	}
}

func TestMondrianSparseRanksUseTheSortPath(t *testing.T) {
	// Ranks spread over a range far wider than 4n+64, so the median is
	// found by sorting rather than by a dense histogram; the result must
	// be the same as for the dense ranks 0..9.
	sparse := make([]int32, 10)
	for i := range sparse {
		sparse[i] = int32(i * 1000)
	}
	vals := make([]float64, 9001)
	for i := range vals {
		vals[i] = float64(i)
	}
	got := groupsString(mustMondrian(t, allRows(10), []Dim{{Rank: sparse, Value: vals}}, 2))
	if want := "[0 1] [2 3 4] [5 6] [7 8 9]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMondrianOnALoadedTable(t *testing.T) {
	// Age and zipcode as Mondrian axes built from a loaded table.
	csv := "age,zip,sex\n" +
		"30,91110,F\n" + // 0
		"31,91110,M\n" + // 1
		"52,91210,F\n" + // 2
		"53,91220,F\n" + // 3
		"30,91310,M\n" + // 4
		"32,91320,M\n" + // 5
		"54,91330,M\n" + // 6
		"55,91340,F\n" // 7
	tb, err := csvfile.Load(strings.NewReader(csv), csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	age := ColumnDim(tb.Column("age"), nil)
	zip := ColumnDim(tb.Column("zip"), nil)
	// Root: age spans 30..55 (1.0), zip 91110..91340 (1.0): tie -> age,
	// cut after 4 rows (ages <= 32 | >= 52).
	// Left {0,1,4,5}: age 30..32 = 2/25 = 0.08, zip 91110..91320 =
	// 210/230 = 0.91 -> zip: {0,1} (91110) | {4,5}.
	// Right {2,3,6,7}: age 52..55 = 3/25, zip 91210..91340 = 130/230 ->
	// zip: {2,3} | {6,7}.
	got := groupsString(mustMondrian(t, allRows(8), []Dim{age, zip}, 2))
	if want := "[0 1] [4 5] [2 3] [6 7]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMondrianCancelled(t *testing.T) {
	n := 5000
	ranks := make([]int32, n)
	for i := range ranks {
		ranks[i] = int32(i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := Mondrian(ctx, allRows(n), []Dim{seqDim(ranks, nil)}, 1)
	if !errors.Is(err, context.Canceled) || err != ctx.Err() {
		t.Fatalf("err = %v, want ctx.Err() = %v", err, ctx.Err())
	}
	if got != nil {
		t.Fatalf("groups returned with the error: %d", len(got))
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 0)
	defer cancel2()
	<-ctx2.Done()
	if _, err := Mondrian(ctx2, allRows(n), []Dim{seqDim(ranks, nil)}, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: err = %v", err)
	}
}

// refMondrian is an independent, plainly recursive statement of the
// algorithm: among the dimensions that vary inside the partition, in
// decreasing normalised width (ties by dimension order), take the first
// one with an allowable cut; its cut is the threshold between two present
// ranks whose left side is closest to n/2 (the lowest such threshold on a
// tie), both sides >= minSize.
func refMondrian(rows []int32, dims []Dim, minSize int) [][]int32 {
	if minSize < 1 {
		minSize = 1
	}
	spans := make([]float64, len(dims))
	for i, d := range dims {
		lo, hi := d.Value[0], d.Value[0]
		for _, v := range d.Value {
			lo, hi = min(lo, v), max(hi, v)
		}
		spans[i] = hi - lo
	}
	var rec func(rows []int32) [][]int32
	rec = func(rows []int32) [][]int32 {
		type cand struct {
			dim   int
			width float64
		}
		var cands []cand
		for i, d := range dims {
			if spans[i] <= 0 || len(rows) == 0 {
				continue
			}
			lo, hi := d.Rank[rows[0]], d.Rank[rows[0]]
			for _, r := range rows {
				lo, hi = min(lo, d.Rank[r]), max(hi, d.Rank[r])
			}
			if hi > lo {
				cands = append(cands, cand{i, (d.Value[hi] - d.Value[lo]) / spans[i]})
			}
		}
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].width > cands[b].width })
		n := len(rows)
		for _, c := range cands {
			d := dims[c.dim]
			var present []int32
			seen := map[int32]bool{}
			for _, r := range rows {
				if !seen[d.Rank[r]] {
					seen[d.Rank[r]] = true
					present = append(present, d.Rank[r])
				}
			}
			sort.Slice(present, func(a, b int) bool { return present[a] < present[b] })
			best, bestDiff := int32(-1), n+1
			for _, thr := range present[:len(present)-1] {
				cum := 0
				for _, r := range rows {
					if d.Rank[r] <= thr {
						cum++
					}
				}
				if cum < minSize || n-cum < minSize {
					continue
				}
				diff := cum - n/2
				if diff < 0 {
					diff = -diff
				}
				if diff < bestDiff {
					best, bestDiff = thr, diff
				}
			}
			if best < 0 {
				continue
			}
			var left, right []int32
			for _, r := range rows {
				if d.Rank[r] <= best {
					left = append(left, r)
				} else {
					right = append(right, r)
				}
			}
			return append(rec(left), rec(right)...)
		}
		return [][]int32{rows}
	}
	return rec(rows)
}

// randomDims makes nd dimensions over n rows: some with few values (many
// ties), some with sparse ranks over a wide axis (the sort path), axis
// values strictly increasing.
func randomDims(rng *model.Rand, n, nd int) []Dim {
	dims := make([]Dim, nd)
	for i := range dims {
		var nranks int
		switch rng.Intn(4) {
		case 0:
			nranks = 1 + rng.Intn(3)
		case 1:
			nranks = 1 + rng.Intn(12)
		case 2:
			nranks = 1 + rng.Intn(n+1)
		default:
			nranks = 1 + 4*n + 64 + rng.Intn(2000)
		}
		vals := make([]float64, nranks)
		x := float64(rng.Intn(100))
		for r := range vals {
			vals[r] = x
			x += 1 + float64(rng.Intn(20))
		}
		ranks := make([]int32, n)
		for r := range ranks {
			ranks[r] = int32(rng.Intn(nranks))
		}
		dims[i] = Dim{Rank: ranks, Value: vals}
	}
	return dims
}

// guillotine reports whether the sequence of groups can be produced left to
// right by recursive cuts: it splits into a prefix and a suffix separated
// by a threshold on some dimension, each part recursively so.
func guillotine(groups [][]int32, dims []Dim) bool {
	m := len(groups)
	lo := make([][]int32, m)
	hi := make([][]int32, m)
	for g, rows := range groups {
		lo[g] = make([]int32, len(dims))
		hi[g] = make([]int32, len(dims))
		for d, dim := range dims {
			lo[g][d], hi[g][d] = 1<<30, -1
			for _, r := range rows {
				lo[g][d] = min(lo[g][d], dim.Rank[r])
				hi[g][d] = max(hi[g][d], dim.Rank[r])
			}
		}
	}
	memo := map[[2]int]bool{}
	var ok func(i, j int) bool // groups[i:j]
	ok = func(i, j int) bool {
		if j-i <= 1 {
			return true
		}
		if v, seen := memo[[2]int{i, j}]; seen {
			return v
		}
		res := false
	split:
		for k := i + 1; k < j; k++ {
			for d := range dims {
				maxL, minR := int32(-1), int32(1<<30)
				for g := i; g < k; g++ {
					maxL = max(maxL, hi[g][d])
				}
				for g := k; g < j; g++ {
					minR = min(minR, lo[g][d])
				}
				if maxL < minR && ok(i, k) && ok(k, j) {
					res = true
					break split
				}
			}
		}
		memo[[2]int{i, j}] = res
		return res
	}
	return ok(0, m)
}

func TestMondrianPropertiesRandom(t *testing.T) {
	rng := model.NewRand(20240611)
	for iter := 0; iter < 400; iter++ {
		n := rng.Intn(120)
		if iter%10 == 0 {
			n = 300 + rng.Intn(300)
		}
		nd := 1 + rng.Intn(3)
		dims := randomDims(rng, n, nd)
		minSize := 1 + rng.Intn(12)
		// Rows in a random order (a subset sometimes).
		rows := make([]int32, 0, n)
		for _, p := range rng.Perm(n) {
			if iter%3 != 0 || rng.Intn(4) != 0 {
				rows = append(rows, int32(p))
			}
		}
		name := fmt.Sprintf("iter %d (n=%d dims=%d minSize=%d)", iter, len(rows), nd, minSize)
		got, err := Mondrian(context.Background(), rows, dims, minSize)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Every row in exactly one group.
		count := map[int32]int{}
		total := 0
		for _, g := range got {
			for _, r := range g {
				count[r]++
				total++
			}
		}
		if total != len(rows) {
			t.Fatalf("%s: %d rows in groups, want %d", name, total, len(rows))
		}
		for _, r := range rows {
			if count[r] != 1 {
				t.Fatalf("%s: row %d in %d groups", name, r, count[r])
			}
		}
		// Group sizes.
		for gi, g := range got {
			if len(rows) >= minSize && len(g) < minSize {
				t.Fatalf("%s: group %d has %d rows < minSize", name, gi, len(g))
			}
			if len(g) == 0 && len(rows) > 0 {
				t.Fatalf("%s: empty group %d", name, gi)
			}
		}
		// Rows equal on every dimension share a group.
		groupOf := map[int32]int{}
		for gi, g := range got {
			for _, r := range g {
				groupOf[r] = gi
			}
		}
		byKey := map[string]int{}
		for _, r := range rows {
			var b strings.Builder
			for _, d := range dims {
				fmt.Fprintf(&b, "%d,", d.Rank[r])
			}
			k := b.String()
			if g, seen := byKey[k]; seen && g != groupOf[r] {
				t.Fatalf("%s: rows with equal values split across groups %d and %d", name, g, groupOf[r])
			}
			byKey[k] = groupOf[r]
		}
		// No group can be cut further: on no dimension (with a non-zero
		// axis) does a threshold leave >= minSize rows on both sides.
		for gi, g := range got {
			for di, d := range dims {
				if d.Value[len(d.Value)-1]-d.Value[0] <= 0 {
					continue
				}
				ranks := make([]int32, len(g))
				for i, r := range g {
					ranks[i] = d.Rank[r]
				}
				sort.Slice(ranks, func(a, b int) bool { return ranks[a] < ranks[b] })
				for i := 0; i+1 < len(ranks); i++ {
					if ranks[i] != ranks[i+1] && i+1 >= minSize && len(ranks)-(i+1) >= minSize {
						t.Fatalf("%s: group %d (%d rows) could still be cut on dim %d after rank %d", name, gi, len(g), di, ranks[i])
					}
				}
			}
		}
		// Left to right: the groups are the leaves of a cut tree in order.
		if !guillotine(got, dims) {
			t.Fatalf("%s: groups are not in left-to-right cut order", name)
		}
		// Exactly the groups of the plain recursive statement.
		if want := refMondrian(rows, dims, minSize); len(rows) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %d groups, reference %d\n got %v\nwant %v", name, len(got), len(want), got, want)
		}
	}
}

func TestMondrianFewerRowsThanMinSize(t *testing.T) {
	d := seqDim([]int32{0, 1, 2}, nil)
	got := groupsString(mustMondrian(t, allRows(3), []Dim{d}, 5))
	if want := "[0 1 2]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMondrianNoRows(t *testing.T) {
	d := seqDim([]int32{0, 1, 2}, nil)
	got := mustMondrian(t, []int32{}, []Dim{d}, 2)
	n := 0
	for _, g := range got {
		n += len(g)
	}
	if n != 0 {
		t.Fatalf("no rows in, %d rows out", n)
	}
}

func TestByKeyOrdersByKey(t *testing.T) {
	rows := []int32{0, 1, 2, 3, 4, 5, 6, 7}
	keys := []uint64{30, 10, 30, 20, 10, ^uint64(0), 0, 20}
	got := ByKey(rows, func(r int32) uint64 { return keys[r] })
	want := "[6] [1 4] [3 7] [0 2] [5]"
	if s := groupsString(got); s != want {
		t.Fatalf("got %s, want %s", s, want)
	}
	// Rows given in another order keep that order inside each group.
	got = ByKey([]int32{7, 6, 5, 4, 3, 2, 1, 0}, func(r int32) uint64 { return keys[r] })
	if s, want := groupsString(got), "[6] [4 1] [7 3] [2 0] [5]"; s != want {
		t.Fatalf("reordered: got %s, want %s", s, want)
	}
	if got := ByKey(nil, func(r int32) uint64 { return 0 }); len(got) != 0 {
		t.Fatalf("no rows: %v", got)
	}
}

func loadTable(t *testing.T, text string, opt csvfile.LoadOptions) *model.Table {
	t.Helper()
	tb, err := csvfile.Load(strings.NewReader(text), opt)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestCodeRanksNumeric(t *testing.T) {
	// Dict order is first appearance: 10, 2, 2.0, 5, -1. Equal values (2
	// and 2.0) share a rank; the axis holds the values.
	tb := loadTable(t, "x\n10\n2\n2.0\n5\n10\n-1\n", csvfile.LoadOptions{})
	c := tb.Column("x")
	if c.Kind != model.Numeric {
		t.Fatalf("kind %v", c.Kind)
	}
	if fmt.Sprint(c.Dict) != "[10 2 2.0 5 -1]" {
		t.Fatalf("dict %v (test assumes first-appearance order)", c.Dict)
	}
	rank, value := CodeRanks(c, nil)
	if fmt.Sprint(rank) != "[3 1 1 2 0]" || fmt.Sprint(value) != "[-1 2 5 10]" {
		t.Fatalf("rank %v value %v, want [3 1 1 2 0] [-1 2 5 10]", rank, value)
	}
	// A hierarchy does not change the order of a numeric column.
	h, err := hierarchy.Balanced("x", []string{"10", "5", "2", "-1"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	rank, value = CodeRanks(c, h)
	if fmt.Sprint(rank) != "[3 1 1 2 0]" || fmt.Sprint(value) != "[-1 2 5 10]" {
		t.Fatalf("with hierarchy: rank %v value %v", rank, value)
	}
}

func TestCodeRanksCategorical(t *testing.T) {
	tb := loadTable(t, "c\nb\na\nc\na\nd\n", csvfile.LoadOptions{})
	c := tb.Column("c")
	if fmt.Sprint(c.Dict) != "[b a c d]" {
		t.Fatalf("dict %v", c.Dict)
	}
	// By text without a hierarchy; the axis is the rank.
	rank, value := CodeRanks(c, nil)
	if fmt.Sprint(rank) != "[1 0 2 3]" || fmt.Sprint(value) != "[0 1 2 3]" {
		t.Fatalf("by text: rank %v value %v", rank, value)
	}
	// By leaf order of the hierarchy: d, c, b, a.
	h, err := hierarchy.Balanced("c", []string{"d", "c", "b", "a"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	rank, value = CodeRanks(c, h)
	if fmt.Sprint(rank) != "[2 3 1 0]" || fmt.Sprint(value) != "[0 1 2 3]" {
		t.Fatalf("by hierarchy: rank %v value %v, want [2 3 1 0] [0 1 2 3]", rank, value)
	}
	// A hierarchy with leaves the column does not use: ranks stay dense.
	h2, err := hierarchy.Flat("c", []string{"z", "d", "y", "a", "x", "c", "b"})
	if err != nil {
		t.Fatal(err)
	}
	rank, value = CodeRanks(c, h2)
	if fmt.Sprint(rank) != "[3 1 2 0]" || fmt.Sprint(value) != "[0 1 2 3]" {
		t.Fatalf("sparse hierarchy: rank %v value %v, want [3 1 2 0] [0 1 2 3]", rank, value)
	}
	// Numbers read as categorical text order by text ("10" < "9").
	tb2 := loadTable(t, "n\n9\n10\n", csvfile.LoadOptions{Kinds: map[string]model.Kind{"n": model.Categorical}})
	rank, _ = CodeRanks(tb2.Column("n"), nil)
	if fmt.Sprint(rank) != "[1 0]" {
		t.Fatalf("categorical numbers: rank %v, want [1 0]", rank)
	}
}

func TestColumnDim(t *testing.T) {
	tb := loadTable(t, "x,c\n5,b\nNA,a\n1,?\n5,b\n3,a\n", csvfile.LoadOptions{})
	d := ColumnDim(tb.Column("x"), nil)
	// values 1,3,5; the missing row takes rank 0.
	if fmt.Sprint(d.Rank) != "[2 0 0 2 1]" || fmt.Sprint(d.Value) != "[1 3 5]" {
		t.Fatalf("x: rank %v value %v", d.Rank, d.Value)
	}
	d = ColumnDim(tb.Column("c"), nil)
	if fmt.Sprint(d.Rank) != "[1 0 0 1 0]" || fmt.Sprint(d.Value) != "[0 1]" {
		t.Fatalf("c: rank %v value %v", d.Rank, d.Value)
	}
	// A column with only missing values: one rank at 0.
	tb2 := loadTable(t, "x,y\nNA,1\n,2\n", csvfile.LoadOptions{})
	d = ColumnDim(tb2.Column("x"), nil)
	if fmt.Sprint(d.Rank) != "[0 0]" || fmt.Sprint(d.Value) != "[0]" {
		t.Fatalf("all missing: rank %v value %v", d.Rank, d.Value)
	}
}

// Round-robin cuts dimension depth mod d (Sacharidis et al., Section 2.2):
// on a 4x4 grid with minSize 4 the first cut is along x, the second along
// y, whatever the widths; the widest rule cuts the wider y first.
func TestMondrianRoundRobinAndKeep(t *testing.T) {
	// 16 rows on a grid: row i at (i%4, i/4); y is stretched 10x.
	xs, ys := make([]int32, 16), make([]int32, 16)
	for i := range xs {
		xs[i], ys[i] = int32(i%4), int32(i/4)
	}
	dx := Dim{Rank: xs, Value: []float64{0, 1, 2, 3}}
	dy := Dim{Rank: ys, Value: []float64{0, 10, 20, 30}}
	rr, err := MondrianWith(context.Background(), allRows(16), []Dim{dx, dy}, 4, Options{Rule: RoundRobin})
	if err != nil {
		t.Fatal(err)
	}
	// x first: {x<=1} then y: {y<=1}; every group is a 2x2 block.
	if got := groupsString(rr); got != "[0 1 4 5] [8 9 12 13] [2 3 6 7] [10 11 14 15]" {
		t.Fatalf("round-robin: %s", got)
	}
	// Spans are normalised per dimension, so both have width 1: the widest
	// rule breaks the tie by dimension order, as before.
	if got := groupsString(mustMondrian(t, allRows(16), []Dim{dx, dy}, 4)); got != groupsString(rr) {
		t.Fatalf("widest: %s", got)
	}
	// With y first in round-robin order (dims swapped) the blocks are the same
	// sets in another order.
	yx, _ := MondrianWith(context.Background(), allRows(16), []Dim{dy, dx}, 4, Options{Rule: RoundRobin})
	if got := groupsString(yx); got != "[0 1 4 5] [2 3 6 7] [8 9 12 13] [10 11 14 15]" {
		t.Fatalf("round-robin y first: %s", got)
	}
	// Keep drops a partition and everything inside it: keep only partitions
	// holding row 0.
	kept, _ := MondrianWith(context.Background(), allRows(16), []Dim{dx, dy}, 4, Options{Rule: RoundRobin,
		Keep: func(rows []int32) bool { return rows[0] == 0 }})
	if got := groupsString(kept); got != "[0 1 4 5]" {
		t.Fatalf("keep: %s", got)
	}
}

// TestMondrianConcurrentHalvesAsOneCore holds the concurrent split (no
// OnSplit: the first cuts' halves on separate cores) to the one-core
// order (an OnSplit keeps MondrianWith on one core): the same groups, in
// the same order, with and without a Keep that drops some partitions.
func TestMondrianConcurrentHalvesAsOneCore(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // concurrent even on one core
	rng := model.NewRand(7)
	const n = 5 * parallelRows
	dims := make([]Dim, 3)
	for i := range dims {
		levels := []int{5, 40, 300}[i]
		dims[i] = Dim{Rank: make([]int32, n), Value: make([]float64, levels)}
		for v := range dims[i].Value {
			dims[i].Value[v] = float64(v * (i + 1))
		}
		for r := range dims[i].Rank {
			dims[i].Rank[r] = int32(rng.Intn(levels))
		}
	}
	rows := make([]int32, n)
	for i := range rows {
		rows[i] = int32(i)
	}
	dropOdd := func(g []int32) bool { return len(g) < 200 || g[0]%3 != 1 }
	for _, keep := range []func([]int32) bool{nil, dropOdd} {
		for _, rule := range []Rule{Widest, RoundRobin} {
			one, err := MondrianWith(context.Background(), rows, dims, 7, Options{Rule: rule, Keep: keep, OnSplit: func(int, []int32, []int32) {}})
			if err != nil {
				t.Fatal(err)
			}
			both, err := MondrianWith(context.Background(), rows, dims, 7, Options{Rule: rule, Keep: keep})
			if err != nil {
				t.Fatal(err)
			}
			if len(one) < 100 || !reflect.DeepEqual(one, both) {
				t.Fatalf("rule %v, keep %v: %d groups on one core, %d concurrently, or they differ", rule, keep != nil, len(one), len(both))
			}
		}
	}
}
