package partitionplan

import (
	"math"
	"sort"

	"privlab/algorithms/partition"
	"privlab/model"
)

// Build chooses a plan's cuts on a sample of t the way Mondrian chooses
// its splits (LeFevre, DeWitt, Ramakrishnan 2006, Mondrian): a partition
// is cut on the quasi-identifier whose range in the partition is widest
// relative to its range in the whole sample (normalised width), at the
// median value, falling back to the next widest when no cut of a column
// leaves both halves with at least MinRows estimated rows. Cutting stops
// once a partition's estimated rows are at most MaxRows, so a partition
// that cannot be cut may stay larger. Values are ordered as Mondrian
// orders them (partition.CodeRanks: numbers by value, categories by
// hierarchy leaf or by text, missing values first). The sample is drawn
// with rng (selection sampling, Knuth's Algorithm S) unless it is the
// whole table.
func Build(t *model.Table, qis []string, opt Options, rng *model.Rand) (*Plan, error) {
	size, err := opt.sampleSize(t.Rows)
	if err != nil {
		return nil, err
	}
	cols, err := t.MustColumns("qi", qis)
	if err != nil {
		return nil, err
	}
	sample := t
	if size < t.Rows {
		sample = t.SelectRows(sampleRows(t.Rows, size, rng))
	}
	total := t.Rows
	if opt.TableRows > 0 {
		total = opt.TableRows
	}
	b := &builder{opt: opt, scale: 1}
	if size > 0 {
		b.scale = float64(total) / float64(size)
	}
	plan := &Plan{SampleRows: size, TableRows: total}
	for _, c := range cols {
		b.addAxis(sample.Column(c.Name), opt)
		plan.Columns = append(plan.Columns, Column{Name: c.Name, Numeric: c.Kind == model.Numeric})
	}
	rows := make([]int32, size)
	for i := range rows {
		rows[i] = int32(i)
	}
	if opt.Partitions > 0 {
		plan.Root = b.buildLeaves(rows, opt.Partitions)
	} else {
		plan.Root = b.build(rows)
	}
	plan.Partitions = b.leaves
	return plan, nil
}

// sampleRows draws size of rows row indices without replacement, in
// order, each subset equally likely (Knuth's Algorithm S): it keeps
// only the sample in memory, not a permutation of the table.
func sampleRows(rows, size int, rng *model.Rand) []int {
	out := make([]int, 0, size)
	for r := 0; r < rows && len(out) < size; r++ {
		if float64(rows-r)*rng.Float64() < float64(size-len(out)) {
			out = append(out, r)
		}
	}
	return out
}

// axis is one quasi-identifier of the sample as Mondrian sees it.
type axis struct {
	col      *model.Column
	dim      partition.Dim
	codeRank []int32
	span     float64 // the axis's range over the whole sample
}

type builder struct {
	opt    Options
	scale  float64
	axes   []axis
	leaves int
}

func (b *builder) addAxis(c *model.Column, opt Options) {
	h := opt.Hierarchies[c.Name]
	codeRank, _ := partition.CodeRanks(c, h)
	d := partition.ColumnDim(c, h)
	span := d.Value[len(d.Value)-1] - d.Value[0]
	b.axes = append(b.axes, axis{col: c, dim: d, codeRank: codeRank, span: span})
}

// estimate is the table rows a count of sample rows stands for.
func (b *builder) estimate(count int) float64 { return float64(count) * b.scale }

// build cuts rows (sample row indices) until each part's estimate is at
// most MaxRows; leaves are numbered left to right.
func (b *builder) build(rows []int32) *Node {
	est := b.estimate(len(rows))
	if est > float64(b.opt.MaxRows) {
		for _, a := range b.widestFirst(rows) {
			if best, ok := b.medianRank(rows, a); ok {
				left, right := b.split(rows, a, best)
				n := &Node{Cut: b.cut(a, best), Partition: -1, EstimatedRows: est}
				n.Left = b.build(left)
				n.Right = b.build(right)
				return n
			}
		}
	}
	n := &Node{Partition: b.leaves, EstimatedRows: est}
	b.leaves++
	return n
}

// buildLeaves cuts the partition with the most rows (the first made on a
// tie), as build cuts, until there are leaves partitions or none can be
// cut; leaves are numbered left to right.
func (b *builder) buildLeaves(rows []int32, leaves int) *Node {
	root := &Node{Partition: -1}
	open := []*openLeaf{{root, rows}}
	all := map[*Node][]int32{root: rows}
	for count := 1; count < leaves && len(open) > 0; {
		at := 0
		for i, l := range open {
			if len(l.rows) > len(open[at].rows) {
				at = i
			}
		}
		l := open[at]
		open = append(open[:at], open[at+1:]...)
		if left, right, ok := b.cutLeaf(l.n, l.rows); ok {
			open = append(open, &openLeaf{l.n.Left, left}, &openLeaf{l.n.Right, right})
			all[l.n.Left], all[l.n.Right] = left, right
			count++
		}
	}
	b.number(root, all)
	return root
}

type openLeaf struct {
	n    *Node
	rows []int32
}

// cutLeaf cuts leaf n on the widest axis that has a cut and returns its
// halves' rows; false when no axis has one.
func (b *builder) cutLeaf(n *Node, rows []int32) (left, right []int32, ok bool) {
	for _, a := range b.widestFirst(rows) {
		if best, ok := b.medianRank(rows, a); ok {
			left, right := b.split(rows, a, best)
			n.Cut, n.EstimatedRows = b.cut(a, best), b.estimate(len(rows))
			n.Left, n.Right = &Node{Partition: -1}, &Node{Partition: -1}
			return left, right, true
		}
	}
	return nil, nil, false
}

// number gives the leaves their partitions, left to right, and their
// estimated rows.
func (b *builder) number(n *Node, rows map[*Node][]int32) {
	if n.Cut != nil {
		b.number(n.Left, rows)
		b.number(n.Right, rows)
		return
	}
	n.EstimatedRows = b.estimate(len(rows[n]))
	n.Partition = b.leaves
	b.leaves++
}

// widestFirst lists the axes that vary in rows, widest normalised range
// first (ties in column order).
func (b *builder) widestFirst(rows []int32) []int {
	type cand struct {
		axis  int
		width float64
	}
	var cands []cand
	for i, a := range b.axes {
		if a.span <= 0 || len(rows) == 0 {
			continue
		}
		lo, hi := a.dim.Rank[rows[0]], a.dim.Rank[rows[0]]
		for _, r := range rows {
			lo, hi = min(lo, a.dim.Rank[r]), max(hi, a.dim.Rank[r])
		}
		if hi > lo {
			cands = append(cands, cand{i, (a.dim.Value[hi] - a.dim.Value[lo]) / a.span})
		}
	}
	sort.SliceStable(cands, func(x, y int) bool { return cands[x].width > cands[y].width })
	out := make([]int, len(cands))
	for i, c := range cands {
		out[i] = c.axis
	}
	return out
}

// medianRank is the rank whose cut (ranks at most it go left) leaves the
// left side closest to half the rows (the lowest such rank on a tie), among
// the cuts whose halves both estimate at least MinRows.
func (b *builder) medianRank(rows []int32, axisIndex int) (int32, bool) {
	rank := b.axes[axisIndex].dim.Rank
	ranks := make([]int32, len(rows))
	for i, r := range rows {
		ranks[i] = rank[r]
	}
	sort.Slice(ranks, func(x, y int) bool { return ranks[x] < ranks[y] })
	n, best, bestDiff := len(ranks), int32(-1), math.MaxInt
	for i := 0; i < n-1; i++ {
		if ranks[i] == ranks[i+1] {
			continue
		}
		left := i + 1
		if b.estimate(left) < float64(b.opt.MinRows) || b.estimate(n-left) < float64(b.opt.MinRows) {
			continue
		}
		if diff := abs(left - n/2); diff < bestDiff {
			best, bestDiff = ranks[i], diff
		}
	}
	return best, best >= 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (b *builder) split(rows []int32, axisIndex int, best int32) (left, right []int32) {
	rank := b.axes[axisIndex].dim.Rank
	for _, r := range rows {
		if rank[r] <= best {
			left = append(left, r)
		} else {
			right = append(right, r)
		}
	}
	return left, right
}

// cut states a rank cut as values, so it places rows of any table: the
// threshold value for a numeric axis, the values ranked at most best (in
// text order) for a categorical one.
func (b *builder) cut(axisIndex int, best int32) *Cut {
	a := b.axes[axisIndex]
	c := &Cut{Column: axisIndex}
	if a.col.Kind == model.Numeric {
		c.AtMost = a.dim.Value[best]
		return c
	}
	for code, r := range a.codeRank {
		if r <= best {
			c.LeftValues = append(c.LeftValues, a.col.Dict[code])
		}
	}
	sort.Strings(c.LeftValues)
	return c
}
