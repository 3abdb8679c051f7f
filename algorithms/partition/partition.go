// Package partition splits a table's rows into groups over the
// quasi-identifiers: by equal keys, or by Mondrian's median splits
// (LeFevre et al., as summarised in Sacharidis et al., Section 2.2). The
// methods use it to form groups; it knows nothing about sensitive values.
package partition

import (
	"context"
	"runtime"
	"slices"
	"sort"

	"privlab/model"
	"privlab/model/hierarchy"
)

// Dim is one quasi-identifier seen as an ordered axis: every row has a
// rank, and Value gives the position of a rank on the axis (for numeric
// attributes the value itself, for categorical ones the leaf position in
// the hierarchy, so that nearby ranks are similar values). Ranks are in
// value order: Value is increasing.
type Dim struct {
	Rank  []int32   // per table row
	Value []float64 // per rank
}

func (d Dim) span() float64 {
	if len(d.Value) == 0 {
		return 0
	}
	lo, hi := d.Value[0], d.Value[0]
	for _, v := range d.Value {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return hi - lo
}

// Mondrian splits rows recursively at the median of one dimension until no
// split leaves both sides with at least minSize rows (strict Mondrian,
// LeFevre et al. 2006). Each step cuts the dimension with the widest range
// relative to the whole table (normalised width) among those that can be
// cut, which keeps groups compact in every attribute; rows with equal
// values always stay together. Groups come out in left-to-right order.
func Mondrian(ctx context.Context, rows []int32, dims []Dim, minSize int) ([][]int32, error) {
	return MondrianWith(ctx, rows, dims, minSize, Options{})
}

// Rule picks the dimension a Mondrian step cuts.
type Rule int

const (
	// Widest cuts the dimension with the widest normalised range in the
	// partition (falling back to the next widest when it cannot be cut).
	Widest Rule = iota
	// RoundRobin cuts dimension depth mod d, as Sacharidis et al. (Section
	// 2.2) describe Mondrian: the first split along the first QI, the
	// halves along the second, and so on (falling back to the following
	// dimensions, in order, when that one cannot be cut).
	RoundRobin
)

// Options tune MondrianWith.
type Options struct {
	Rule Rule
	// Keep, when set, is asked about every partition before it is split
	// further: a partition it rejects is dropped with everything inside it
	// (k-join-anonymity discards partitions without a microdata tuple,
	// Sacharidis et al., Section 4). It must be safe to call concurrently
	// (MondrianWith splits halves on separate cores).
	Keep func(rows []int32) bool
	// OnSplit, when set, sees every split: the dimension cut and the two
	// parts (a tour shows Mondrian's cuts with it).
	OnSplit func(dim int, left, right []int32)
}

// MondrianWith is Mondrian with a split rule and an optional filter.
// Without OnSplit (whose calls follow the splits' order), the two halves
// of the first cuts are split on separate cores (each subtree's groups
// depend on its rows alone, and they are joined left then right, so the
// groups and their order are those of one core); Keep is then called
// from several goroutines at once.
func MondrianWith(ctx context.Context, rows []int32, dims []Dim, minSize int, opt Options) ([][]int32, error) {
	if minSize < 1 {
		minSize = 1
	}
	spans := make([]float64, len(dims))
	for i, d := range dims {
		spans[i] = d.span()
	}
	m := &mondrianRun{ctx: ctx, dims: dims, spans: spans, minSize: minSize, opt: opt}
	rows = slices.Clone(rows) // cut in place: the caller's slice is left as it was
	levels := 0
	if opt.OnSplit == nil {
		for procs := runtime.GOMAXPROCS(0); procs > 1 && levels < maxParallelLevels; procs = (procs + 1) / 2 {
			levels++
		}
	}
	return m.split(rows, 0, levels)
}

// maxParallelLevels is how many levels of Mondrian's first cuts at most
// give their halves goroutines of their own (up to 2^levels at once).
const maxParallelLevels = 3

// parallelRows is the fewest rows whose halves are split concurrently:
// below it a goroutine costs more than it saves.
const parallelRows = 4096

// mondrianRun is one MondrianWith call's settings.
type mondrianRun struct {
	ctx     context.Context
	dims    []Dim
	spans   []float64
	minSize int
	opt     Options
}

// split is Mondrian on rows (at the given depth): while levels are left
// and rows are many, the partition is cut here and its halves are split
// concurrently, the left half's groups first; else sequentially.
func (m *mondrianRun) split(rows []int32, depth, levels int) ([][]int32, error) {
	if levels == 0 || len(rows) < parallelRows {
		return m.sequential(rows, depth)
	}
	if m.opt.Keep != nil && !m.opt.Keep(rows) {
		return nil, nil
	}
	var scratch splitScratch
	left, right, _, ok := bestSplit(rows, m.dims, m.spans, m.minSize, m.opt.Rule, depth, &scratch)
	if !ok {
		return [][]int32{rows[:len(rows):len(rows)]}, nil
	}
	var rightOut [][]int32
	var rightErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		rightOut, rightErr = m.split(right, depth+1, levels-1)
	}()
	out, err := m.split(left, depth+1, levels-1)
	<-done
	if err == nil {
		err = rightErr
	}
	if err != nil {
		return nil, err
	}
	return append(out, rightOut...), nil
}

// sequential is Mondrian on rows on one core: a partition's halves are
// split left first, so groups come out in left-to-right order.
func (m *mondrianRun) sequential(rows []int32, depth int) ([][]int32, error) {
	var out [][]int32
	type task struct {
		rows  []int32
		depth int
	}
	stack := []task{{rows, depth}}
	steps := 0
	var scratch splitScratch
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		steps++
		if steps%256 == 0 {
			if err := m.ctx.Err(); err != nil {
				return nil, err
			}
		}
		if m.opt.Keep != nil && !m.opt.Keep(t.rows) {
			continue
		}
		left, right, dim, ok := bestSplit(t.rows, m.dims, m.spans, m.minSize, m.opt.Rule, t.depth, &scratch)
		if !ok {
			out = append(out, t.rows[:len(t.rows):len(t.rows)])
			continue
		}
		if m.opt.OnSplit != nil {
			m.opt.OnSplit(dim, left, right)
		}
		// Right first so that left is processed (and emitted) first.
		stack = append(stack, task{right, t.depth + 1}, task{left, t.depth + 1})
	}
	return out, nil
}

type candidate struct {
	dim      int
	width    float64
	min, max int32 // rank range inside the partition
}

// bestSplit tries dimensions in the rule's order (widest normalised range
// first, or round-robin from depth mod d) and returns the first allowable
// median split and the dimension it cuts.
func bestSplit(rows []int32, dims []Dim, spans []float64, minSize int, rule Rule, depth int, scratch *splitScratch) (left, right []int32, dim int, ok bool) {
	if len(rows) < 2*minSize {
		return nil, nil, 0, false
	}
	var cands []candidate
	for i, d := range dims {
		if spans[i] <= 0 {
			continue
		}
		lo, hi := d.Rank[rows[0]], d.Rank[rows[0]]
		for _, r := range rows {
			x := d.Rank[r]
			if x < lo {
				lo = x
			}
			if x > hi {
				hi = x
			}
		}
		if hi > lo {
			cands = append(cands, candidate{i, (d.Value[hi] - d.Value[lo]) / spans[i], lo, hi})
		}
	}
	if rule == RoundRobin {
		first := depth % len(dims)
		sort.SliceStable(cands, func(a, b int) bool {
			return (cands[a].dim-first+len(dims))%len(dims) < (cands[b].dim-first+len(dims))%len(dims)
		})
	} else {
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].width > cands[b].width })
	}
	for _, c := range cands {
		if l, r, ok := medianSplit(rows, dims[c.dim], c.min, c.max, minSize, scratch); ok {
			return l, r, c.dim, true
		}
	}
	return nil, nil, 0, false
}

// medianSplit cuts rows by rank at the threshold whose left side is
// closest to half the rows, with both sides >= minSize. Ranks are in value
// order, so counting rows per rank (a dense histogram over the partition's
// rank range, or a sort when that range is much wider than the partition)
// finds the median without comparing values.
func medianSplit(rows []int32, d Dim, lo, hi int32, minSize int, scratch *splitScratch) (left, right []int32, ok bool) {
	n := len(rows)
	span := int(hi-lo) + 1
	best, bestDiff := int32(-1), n+1
	consider := func(rank int32, cum int) {
		if cum < minSize || n-cum < minSize {
			return
		}
		diff := cum - n/2
		if diff < 0 {
			diff = -diff
		}
		if diff < bestDiff {
			best, bestDiff = rank, diff
		}
	}
	if span <= 4*n+64 {
		if cap(scratch.hist) < span {
			scratch.hist = make([]int32, span)
		}
		hist := scratch.hist[:span]
		for i := range hist {
			hist[i] = 0
		}
		for _, r := range rows {
			hist[d.Rank[r]-lo]++
		}
		cum := 0
		for i := 0; i < span-1; i++ {
			if hist[i] == 0 {
				continue
			}
			cum += int(hist[i])
			consider(lo+int32(i), cum)
		}
	} else {
		ranks := make([]int32, n)
		for i, r := range rows {
			ranks[i] = d.Rank[r]
		}
		sort.Slice(ranks, func(a, b int) bool { return ranks[a] < ranks[b] })
		for i := 0; i < n-1; i++ {
			if ranks[i] != ranks[i+1] {
				consider(ranks[i], i+1)
			}
		}
	}
	if best < 0 {
		return nil, nil, false
	}
	// A stable partition in place: the left half's rows keep their order
	// at the front, the right half's follow in theirs (as two new slices
	// would hold them, without allocating them at every cut).
	moved := scratch.right[:0]
	k := 0
	for _, r := range rows {
		if d.Rank[r] <= best {
			rows[k] = r
			k++
		} else {
			moved = append(moved, r)
		}
	}
	copy(rows[k:], moved)
	scratch.right = moved[:0]
	return rows[:k:k], rows[k:], true
}

// splitScratch is the memory one goroutine's cuts reuse: the histogram
// of a dimension's ranks and the right half's rows while a partition is
// cut in place.
type splitScratch struct {
	hist, right []int32
}

// ByKey groups rows by an integer key per row; groups are ordered by key.
func ByKey(rows []int32, key func(r int32) uint64) [][]int32 {
	idx := map[uint64]int{}
	var keys []uint64
	var groups [][]int32
	for _, r := range rows {
		k := key(r)
		g, ok := idx[k]
		if !ok {
			g = len(groups)
			idx[k] = g
			keys = append(keys, k)
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], r)
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	out := make([][]int32, len(groups))
	for i, o := range order {
		out[i] = groups[o]
	}
	return out
}

// CodeRanks orders a column's Dict codes: numeric columns by value,
// categorical ones by leaf position in the hierarchy h when given, else by
// text. It returns each code's rank (equal values share a rank) and the
// axis position of every rank (the value for numeric columns, the rank
// otherwise). Keys built from ranks, unlike Dict codes, carry nothing of
// the input's row order.
func CodeRanks(c *model.Column, h *hierarchy.Hierarchy) (rank []int32, value []float64) {
	n := len(c.Dict)
	keys := make([]float64, n)
	order := make([]int, n)
	for code := range c.Dict {
		order[code] = code
		switch {
		case c.Kind == model.Numeric:
			keys[code] = c.Nums[code]
		case h != nil:
			if l, ok := h.Leaf(c.Dict[code]); ok {
				keys[code] = float64(h.LeafPos(l))
			}
		}
	}
	if c.Kind != model.Numeric && h == nil {
		sort.Slice(order, func(a, b int) bool { return c.Dict[order[a]] < c.Dict[order[b]] })
		for i, code := range order {
			keys[code] = float64(i)
		}
	} else {
		sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	}
	rank = make([]int32, n)
	r := int32(-1)
	for i, code := range order {
		if i == 0 || keys[code] != keys[order[i-1]] {
			r++
			if c.Kind == model.Numeric {
				value = append(value, keys[code])
			} else {
				value = append(value, float64(r))
			}
		}
		rank[code] = r
	}
	return rank, value
}

// ColumnDim is a column as a Mondrian axis over the table's rows (missing
// values take rank 0).
func ColumnDim(c *model.Column, h *hierarchy.Hierarchy) Dim {
	codeRank, value := CodeRanks(c, h)
	d := Dim{Rank: make([]int32, len(c.Codes)), Value: value}
	for r, code := range c.Codes {
		if code != model.Missing {
			d.Rank[r] = codeRank[code]
		}
	}
	if len(d.Value) == 0 {
		d.Value = []float64{0}
	}
	return d
}
