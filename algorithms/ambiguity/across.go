package ambiguity

import (
	"context"
	"math"
	"math/bits"
	"sort"

	"privlab/model"
)

// across describes how the groups of a scheme overlap on the input's
// records. Theorem 5.1 (Wang, Section 5) bounds the presence of a record
// within one group: the attacker joins that group's auxiliary tables.
// A record is covered by a group when each of its QI values is in the
// group's auxiliary tables (Lemma 5.1), and nothing keeps it from being
// covered by several: its own and others that happen to hold the same
// values. An attacker who reads each covering group as independent
// evidence believes the record present with probability
// 1 - prod_G (1 - p_G) over the groups G covering it, which can exceed
// every p_G and alpha. The paper's model does not consider this; the
// figures below are informational and stated as outside it.
type across struct {
	// Multi counts the input records covered by more than one group.
	Multi int
	// MaxCombined is the largest 1 - prod_G (1 - p_G) over the input
	// records covered by at least one group (0 when none is).
	MaxCombined float64
}

// acrossGroups computes the figures over every input record that takes
// part (no missing value), published or suppressed: an attacker who
// knows a person's QI values computes the same belief whether or not the
// record was published.
//
// Cost: per QI an index from each value to the groups whose auxiliary
// table holds it (sorted, built in one pass over the tables). The
// records' distinct QI combinations are sorted, most selective QI first
// (distinctTuples: linear), and walked as a trie: the groups that may
// cover the combinations under a node are those of its parent that hold
// the node's value, so each distinct prefix filters a list that shrinks
// with depth, and records with the same values share one answer. Testing
// whether a group holds a value is one bit for QIs with at most 64
// values, else a scan of the group's few values. The work is about the
// number of (combination prefix, covering group) pairs, which the answer
// itself needs at the last level (docs/performance.md has the figures on
// census).
func (s *scheme) acrossGroups(ctx context.Context, qiCols []*model.Column, sa *model.Column) (across, error) {
	k := len(s.at)
	if k == 0 || s.groups == 0 {
		return across{}, nil
	}
	holders, distinct := s.holderIndexes()
	w := &acrossWalk{
		ctx:     ctx,
		s:       s,
		k:       k,
		holders: holders,
		mask:    s.valueMasks(),
		keep:    s.absentChances(),
		order:   qisByDistinct(distinct),
	}
	cols := make([]*model.Column, k)
	for level, qi := range w.order {
		cols[level] = qiCols[qi]
	}
	w.tuples, w.counts = distinctTuples(cols, sa)
	w.bufs = make([][]int32, k)
	w.child = make([][]int32, k)
	for level, qi := range w.order {
		w.child[level] = make([]int32, len(qiCols[qi].Dict))
		for v := range w.child[level] {
			w.child[level][v] = -1
		}
	}
	if len(w.counts) > 0 {
		w.walk(0, 0, len(w.counts), nil)
	}
	return w.out, ctx.Err()
}

// holderIndex lists, per value code v, the groups whose auxiliary table
// of one QI holds v: groups[off[v]:off[v+1]], increasing (a run's tables
// come group by group).
type holderIndex struct{ off, groups []int32 }

// holderIndexes builds the holderIndex of each QI in one pass over its
// auxiliary table, and counts each QI's distinct values held.
func (s *scheme) holderIndexes() (holders []holderIndex, distinct []int) {
	holders = make([]holderIndex, len(s.at))
	distinct = make([]int, len(s.at))
	for i := range s.at {
		at := &s.at[i]
		off := make([]int32, len(at.text)+1)
		for _, code := range at.code {
			off[code+1]++
		}
		for v := 1; v < len(off); v++ {
			if off[v] > 0 {
				distinct[i]++
			}
			off[v] += off[v-1]
		}
		groups := make([]int32, len(at.code))
		fill := append([]int32(nil), off[:len(at.text)]...)
		for r, code := range at.code {
			groups[fill[code]] = at.group[r]
			fill[code]++
		}
		holders[i] = holderIndex{off: off, groups: groups}
	}
	return holders, distinct
}

// valueMasks gives, per QI with at most 64 values, mask[i][g] with bit v
// set when group g's AT_i holds v; nil for the other QIs.
func (s *scheme) valueMasks() [][]uint64 {
	mask := make([][]uint64, len(s.at))
	for i := range s.at {
		at := &s.at[i]
		if len(at.text) > 64 {
			continue
		}
		mask[i] = make([]uint64, s.groups)
		for r, code := range at.code {
			mask[i][at.group[r]] |= 1 << uint(code)
		}
	}
	return mask
}

// absentChances gives keep[g] = 1 - p_G, the chance group g does not
// hold a given combination it covers (Wang, Section 5, Theorem 5.1).
func (s *scheme) absentChances() []float64 {
	keep := make([]float64, s.groups)
	for g := range keep {
		keep[g] = 1 - s.presence(g)
	}
	return keep
}

// qisByDistinct orders the QIs most distinct values first (stable), the
// order in which the walk splits the combinations.
func qisByDistinct(distinct []int) []int {
	order := make([]int, len(distinct))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return distinct[order[x]] > distinct[order[y]] })
	return order
}

// acrossWalk is the trie walk of acrossGroups over the records' distinct
// QI combinations (tuples, k codes each in order's QI order, with counts
// records each). A node holds tuples lo..hi-1 sharing their values on
// order[:level], and cand lists the groups holding all of them. A node
// splits its tuples into runs of one value of the next QI (its children)
// and hands each child the groups of cand that hold its value: one pass
// over cand, reading each group's values once, counts the groups per
// child, a second fills them in (in cand's order) into the level's
// buffer.
type acrossWalk struct {
	ctx     context.Context
	s       *scheme
	k       int
	order   []int
	holders []holderIndex
	mask    [][]uint64
	keep    []float64
	tuples  []uint32
	counts  []int
	bufs    [][]int32 // per level, the children's candidate groups
	child   [][]int32 // per level, value code -> child (-1: none)
	out     across
}

// heldBy appends to buf the values group g holds in AT_i.
func (w *acrossWalk) heldBy(i int, g int32, buf []uint32) []uint32 {
	if w.mask[i] != nil {
		for m := w.mask[i][g]; m != 0; m &= m - 1 {
			buf = append(buf, uint32(bits.TrailingZeros64(m)))
		}
		return buf
	}
	at := &w.s.at[i]
	lo, hi := at.rowsOf(int(g))
	for _, code := range at.code[lo:hi] {
		buf = append(buf, uint32(code))
	}
	return buf
}

// value is tuple t's code at the given level.
func (w *acrossWalk) value(t, level int) uint32 { return w.tuples[t*w.k+level] }

// leaf counts the records of tuple t, covered by `covering` groups none
// of which holds them with probability absent.
func (w *acrossWalk) leaf(t, covering int, absent float64) {
	if covering > 1 {
		w.out.Multi += w.counts[t]
	}
	if covering > 0 {
		w.out.MaxCombined = math.Max(w.out.MaxCombined, 1-absent)
	}
}

// walk visits the node of tuples lo..hi-1 at the given level, whose
// combinations may be covered by the groups of cand.
func (w *acrossWalk) walk(level, lo, hi int, cand []int32) {
	runs, vals := w.childRuns(level, lo, hi)
	if level == 0 {
		w.walkRoot(runs, vals)
		return
	}
	idx := w.child[level]
	for c, v := range vals {
		idx[v] = int32(c)
	}
	defer func() {
		for _, v := range vals {
			idx[v] = -1
		}
	}()
	if level == w.k-1 {
		w.coverLeaves(level, cand, runs, vals)
		return
	}
	w.walkChildren(level, cand, runs, vals)
}

// childRuns splits tuples lo..hi-1 into runs of one value at the level:
// the start of each run, then hi, and each run's value.
func (w *acrossWalk) childRuns(level, lo, hi int) (runs []int, vals []uint32) {
	for x := lo; x < hi; x++ {
		if x == lo || w.value(x, level) != w.value(x-1, level) {
			runs = append(runs, x)
			vals = append(vals, w.value(x, level))
		}
	}
	return append(runs, hi), vals
}

// walkRoot hands each child of the root the groups holding its value of
// the first QI, read from that QI's holder index; with a single QI the
// children are leaves.
func (w *acrossWalk) walkRoot(runs []int, vals []uint32) {
	h := w.holders[w.order[0]]
	for c, v := range vals {
		if w.ctx.Err() != nil {
			return // the caller returns the error
		}
		if int(v)+1 >= len(h.off) || h.off[v+1] == h.off[v] {
			continue // no group covers these records
		}
		next := h.groups[h.off[v]:h.off[v+1]]
		if w.k > 1 {
			w.walk(1, runs[c], runs[c+1], next)
			continue
		}
		absent := 1.0
		for _, g := range next {
			absent *= w.keep[g]
		}
		w.leaf(runs[c], len(next), absent)
	}
}

// coverLeaves handles a node whose children are leaves: it counts and
// multiplies the covering groups' absent chances at once.
func (w *acrossWalk) coverLeaves(level int, cand []int32, runs []int, vals []uint32) {
	qi, idx := w.order[level], w.child[level]
	covering := make([]int, len(vals))
	absent := make([]float64, len(vals))
	for c := range absent {
		absent[c] = 1
	}
	var hv []uint32
	for _, g := range cand {
		hv = w.heldBy(qi, g, hv[:0])
		for _, v := range hv {
			if c := idx[v]; c >= 0 {
				covering[c]++
				absent[c] *= w.keep[g]
			}
		}
	}
	for c := range vals {
		w.leaf(runs[c], covering[c], absent[c])
	}
}

// walkChildren hands each child the groups of cand holding its value
// (counted in one pass, filled into the level's buffer in a second) and
// walks the children that some group covers.
func (w *acrossWalk) walkChildren(level int, cand []int32, runs []int, vals []uint32) {
	qi, idx := w.order[level], w.child[level]
	var hv []uint32
	start := make([]int, len(vals)+1)
	for _, g := range cand {
		hv = w.heldBy(qi, g, hv[:0])
		for _, v := range hv {
			if c := idx[v]; c >= 0 {
				start[c+1]++
			}
		}
	}
	for c := 1; c < len(start); c++ {
		start[c] += start[c-1]
	}
	buf := w.bufs[level]
	if cap(buf) < start[len(vals)] {
		buf = make([]int32, start[len(vals)])
	}
	buf = buf[:start[len(vals)]]
	fill := append([]int(nil), start[:len(vals)]...)
	for _, g := range cand {
		hv = w.heldBy(qi, g, hv[:0])
		for _, v := range hv {
			if c := idx[v]; c >= 0 {
				buf[fill[c]] = g
				fill[c]++
			}
		}
	}
	w.bufs[level] = buf
	for c := range vals {
		if next := buf[start[c]:start[c+1]]; len(next) > 0 { // else no group covers these records
			w.walk(level+1, runs[c], runs[c+1], next)
		}
	}
}

// distinctTuples lists the distinct combinations of the columns' codes
// over the records with no missing value (in cols and sa), sorted by
// cols[0], then cols[1], ..., flat (len(cols) codes per combination),
// with the number of records of each. When the codes fit in 64 bits each
// record's combination is packed into one key, built column by column and
// radix-sorted; otherwise the records are sorted by a stable counting
// sort per column, last column first.
func distinctTuples(cols []*model.Column, sa *model.Column) (tuples []uint32, counts []int) {
	n := len(sa.Codes)
	ok := make([]bool, n)
	for row := range ok {
		ok[row] = sa.Codes[row] != model.Missing
	}
	for _, c := range cols {
		for row, v := range c.Codes {
			ok[row] = ok[row] && v != model.Missing
		}
	}
	width := make([]uint, len(cols))
	total := uint(0)
	for i, c := range cols {
		width[i] = uint(bits.Len(uint(len(c.Dict))))
		total += width[i]
	}
	if total <= 64 {
		return distinctPacked(cols, ok, width, total)
	}
	return distinctSorted(cols, ok)
}

// distinctPacked is distinctTuples when the codes fit in 64 bits: each
// taking part (ok) record's combination is packed into one key, built
// column by column (width bits each, total in all) and radix-sorted.
func distinctPacked(cols []*model.Column, ok []bool, width []uint, total uint) (tuples []uint32, counts []int) {
	keys := make([]uint64, 0, len(ok))
	for row := range ok {
		if ok[row] {
			keys = append(keys, 0)
		}
	}
	for i, c := range cols {
		x := 0
		for row, v := range c.Codes {
			if ok[row] {
				keys[x] = keys[x]<<width[i] | uint64(v)
				x++
			}
		}
	}
	radixSort(keys, total)
	for x, key := range keys {
		if x > 0 && key == keys[x-1] {
			counts[len(counts)-1]++
			continue
		}
		counts = append(counts, 1)
		shift := total
		for i := range cols {
			shift -= width[i]
			tuples = append(tuples, uint32(key>>shift&(1<<width[i]-1)))
		}
	}
	return tuples, counts
}

// distinctSorted is distinctTuples when the codes do not fit in 64 bits:
// the taking part (ok) records are sorted by a stable counting sort per
// column, last column first.
func distinctSorted(cols []*model.Column, ok []bool) (tuples []uint32, counts []int) {
	k := len(cols)
	rows := make([]int32, 0, len(ok))
	for row := range ok {
		if ok[row] {
			rows = append(rows, int32(row))
		}
	}
	tmp := make([]int32, len(rows))
	for i := k - 1; i >= 0; i-- {
		codes := cols[i].Codes
		count := make([]int, len(cols[i].Dict)+1)
		for _, r := range rows {
			count[codes[r]+1]++
		}
		for v := 1; v < len(count); v++ {
			count[v] += count[v-1]
		}
		for _, r := range rows {
			tmp[count[codes[r]]] = r
			count[codes[r]]++
		}
		rows, tmp = tmp, rows
	}
	for x, r := range rows {
		same := x > 0
		for i := 0; i < k && same; i++ {
			same = cols[i].Codes[r] == cols[i].Codes[rows[x-1]]
		}
		if same {
			counts[len(counts)-1]++
			continue
		}
		counts = append(counts, 1)
		for _, c := range cols {
			tuples = append(tuples, c.Codes[r])
		}
	}
	return tuples, counts
}

// radixSort sorts keys of the given number of bits, 16 bits per pass.
func radixSort(keys []uint64, width uint) {
	tmp := make([]uint64, len(keys))
	count := make([]int, 1<<16+1)
	for shift := uint(0); shift < width; shift += 16 {
		clear(count)
		for _, key := range keys {
			count[key>>shift&0xffff+1]++
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for _, key := range keys {
			d := key >> shift & 0xffff
			tmp[count[d]] = key
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	if (width+15)/16%2 == 1 {
		copy(tmp, keys) // the sorted keys are in the scratch slice
	}
}
