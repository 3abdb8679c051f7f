package ambiguity

import (
	"fmt"
	"math/big"
	"math/bits"
	"sort"
	"strings"
	"sync"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
)

// scheme is an ambiguity scheme (Wang, Definition 3.3) as published: one
// auxiliary table per quasi-identifier, a duplicate-free list of (value,
// group) pairs, and the sensitive table of (group, value, frequency)
// rows. The run builds it from its groups and OpenRelease from the files,
// so the privacy figures and the query estimates of a run and of its
// exported release come from the same code and agree exactly.
type scheme struct {
	qis    []string
	sa     string
	groups int
	// ids are the GroupIDs of a scheme read from files (nil for a run's).
	ids []string
	// size is |G| per group: the sum of its ST frequencies.
	size []int
	// maxFreq is the largest ST frequency per group.
	maxFreq []int32
	at      []valueTable // per QI
	st      valueTable   // the sensitive table (freq set)
	// bits are every group's values as bitsets, for Answer (made on
	// its first query).
	bitsOnce sync.Once
	bits     *groupBits
	// rowsLater: a scheme read from files whose tables inGroupOrder
	// puts group by group on the first query (rowsOnce).
	rowsLater bool
	rowsOnce  sync.Once
	// spare holds *countBufs for estimator.counts: a count query returns
	// up to one contribution per group, which a workload of a thousand
	// queries on 500k groups made over half a gigabyte of garbage.
	spare sync.Pool
}

// countBufs are estimator.counts' working slices: a block's groups and
// their products, and the contributions it returns.
type countBufs struct {
	alive []int32
	x     []float64
	out   []float64
}

// groupBits holds, for every table of at most maxBitWords x 64 values,
// each group's values as a bitset (tableSets): Answer counts a group's
// values meeting a condition with a few ANDs instead of a scan of its
// rows. st is set only when every frequency is 1 (then a group's count
// of matching sensitive values is the bits' count too).
type groupBits struct {
	at []tableSets // per QI
	st tableSets
}

// tableSets are one table's bitsets, one per group: of one word in the
// narrowest of 8, 16, 32 and 64 bits that holds its values (a workload
// reads them all for every query: the fewer bytes, the sooner), else
// of words 64-bit words (group g's at [g*words, (g+1)*words)); all nil
// when the table has more than maxBitWords x 64 values.
type tableSets struct {
	w8    []uint8
	w16   []uint16
	w32   []uint32
	w64   []uint64
	wide  []uint64
	words int
	// counted: every group's count (valueTable.count) is the number of
	// its bits, so counts need not read it.
	counted bool
}

// maxBitWords bounds a group's bitset (256 values).
const maxBitWords = 4

// groupBits makes the bitsets once.
func (s *scheme) groupBits() *groupBits {
	s.bitsOnce.Do(func() {
		b := &groupBits{at: make([]tableSets, len(s.at))}
		for i := range s.at {
			b.at[i] = tableBits(&s.at[i], s.groups)
		}
		ones := true
		for _, f := range s.st.freq {
			ones = ones && f == 1
		}
		if ones {
			b.st = tableBits(&s.st, s.groups)
		}
		s.bits = b
	})
	return s.bits
}

// tableBits is every group's values of t as bitsets (none when t has
// more than maxBitWords x 64 values).
func tableBits(t *valueTable, groups int) tableSets {
	w := (len(t.text) + 63) / 64
	if w > maxBitWords {
		return tableSets{}
	}
	if w > 1 {
		out := make([]uint64, groups*w)
		for r, code := range t.code {
			out[int(t.group[r])*w+int(code>>6)] |= 1 << uint(code&63)
		}
		return tableSets{wide: out, words: w}
	}
	var ts tableSets
	switch n := len(t.text); {
	case n <= 8:
		ts.w8 = narrowBits[uint8](t, groups)
		ts.counted = counted(ts.w8, t.count)
	case n <= 16:
		ts.w16 = narrowBits[uint16](t, groups)
		ts.counted = counted(ts.w16, t.count)
	case n <= 32:
		ts.w32 = narrowBits[uint32](t, groups)
		ts.counted = counted(ts.w32, t.count)
	default:
		ts.w64 = narrowBits[uint64](t, groups)
		ts.counted = counted(ts.w64, t.count)
	}
	return ts
}

// word is an unsigned integer a narrow bitset is held in.
type word interface {
	uint8 | uint16 | uint32 | uint64
}

// narrowBits is every group's values of t (at most T's bits of them) as
// one T each.
func narrowBits[T word](t *valueTable, groups int) []T {
	out := make([]T, groups)
	for r, code := range t.code {
		out[t.group[r]] |= 1 << uint(code)
	}
	return out
}

// counted tells whether every group's count is the number of its bits.
func counted[T word](b []T, count []int32) bool {
	if len(count) != len(b) {
		return false
	}
	for g, v := range b {
		if int32(bits.OnesCount64(uint64(v))) != count[g] {
			return false
		}
	}
	return true
}

// has reports whether the table has bitsets.
func (ts *tableSets) has() bool {
	return ts.w8 != nil || ts.w16 != nil || ts.w32 != nil || ts.w64 != nil || ts.wide != nil
}

// matching is the number of group g's values in want (a bitset of the
// table's values), from its bitset (has must hold).
func (ts *tableSets) matching(g int, want []uint64) int32 {
	switch {
	case ts.w8 != nil:
		return int32(bits.OnesCount64(uint64(ts.w8[g]) & want[0]))
	case ts.w16 != nil:
		return int32(bits.OnesCount64(uint64(ts.w16[g]) & want[0]))
	case ts.w32 != nil:
		return int32(bits.OnesCount64(uint64(ts.w32[g]) & want[0]))
	case ts.w64 != nil:
		return int32(bits.OnesCount64(ts.w64[g] & want[0]))
	}
	return common(ts.wide[g*ts.words:(g+1)*ts.words], want)
}

// wanted is the bitset of the values a condition selects (all of them
// when match is nil).
func wanted(match []bool, values int) []uint64 {
	w := make([]uint64, max((values+63)/64, 1))
	for v := 0; v < values; v++ {
		if match == nil || match[v] {
			w[v>>6] |= 1 << uint(v&63)
		}
	}
	return w
}

// common counts the bits set in both a and b.
func common(a, b []uint64) int32 {
	n := 0
	for k := range a {
		n += bits.OnesCount64(a[k] & b[k])
	}
	return int32(n)
}

// valueTable is one published table: a dictionary of values and its rows
// as (value index, group index[, frequency]).
type valueTable struct {
	name  string
	kind  model.Kind
	col   *model.Column // the values' column: text is its Dict, num its Nums
	text  []string
	num   []float64
	code  []int32
	group []int32
	freq  []int32 // ST only
	// count is the number of rows per group: |G_ATi| for an AT, the
	// number of distinct sensitive values for ST.
	count []int32
	// start, in a run's scheme, is where each group's rows begin (rows
	// come group by group); in a scheme read from files, nil until
	// inGroupOrder sorts the table.
	start []int32
}

// rowsOf is the range of group g's rows in a run's scheme.
func (t *valueTable) rowsOf(g int) (int, int) {
	return int(t.start[g]), int(t.start[g+1])
}

// presence is Pr(t in T) = |G| / prod_i |G_ATi| for every record covered
// by group g (Wang, Theorem 5.1): the join of the group's auxiliary
// tables has prod_i |G_ATi| combinations, |G| of them are real, so a
// given one is real with probability C(J-1,|G|-1)/C(J,|G|) = |G|/J.
func (s *scheme) presence(g int) float64 {
	return float64(s.size[g]) / s.join(g)
}

// join is prod_i |G_ATi|, the size of the join of group g's auxiliary
// tables.
func (s *scheme) join(g int) float64 {
	j := 1.0
	for _, at := range s.at {
		j *= float64(at.count[g])
	}
	return j
}

// exactJoin is join(g) exactly.
func (s *scheme) exactJoin(g int) joinSize {
	j := oneJoin()
	for _, at := range s.at {
		j = j.times(int(at.count[g]))
	}
	return j
}

// exact returns group g's presence and association as exact rationals,
// aligned with figures (nil for the join and the distinct count).
func (s *scheme) exact(g int) []*big.Rat {
	return []*big.Rat{s.exactJoin(g).presence(s.size[g]), big.NewRat(int64(s.maxFreq[g]), int64(s.size[g])), nil, nil}
}

// association is the largest Pr((t, v) in T | t in T) = c / |G| over the
// sensitive values v of group g, c being v's frequency (Wang, Theorem 5.2).
func (s *scheme) association(g int) float64 {
	return float64(s.maxFreq[g]) / float64(s.size[g])
}

// associationOf is Pr((t, v) in T | t in T) = c / |G| for the sensitive
// value v (0 when the group does not hold it).
func (s *scheme) associationOf(g int, v string) float64 {
	for r, code := range s.st.code {
		if int(s.st.group[r]) == g && s.st.text[code] == v {
			return float64(s.st.freq[r]) / float64(s.size[g])
		}
	}
	return 0
}

// groupFigures returns, per group, the figures of Spec().Figures.
func (s *scheme) figures() [][]float64 {
	out := make([][]float64, s.groups)
	all := make([]float64, 4*s.groups)
	for g := range out {
		f := all[4*g : 4*g+4 : 4*g+4]
		f[0], f[1], f[2], f[3] = s.presence(g), s.association(g), s.join(g), float64(s.st.count[g])
		out[g] = f
	}
	return out
}

// finish derives the per-group counts, sizes and largest frequencies from
// the table rows.
func (s *scheme) finish() {
	for i := range s.at {
		s.at[i].count = countPerGroup(s.at[i].group, s.groups)
	}
	s.st.count = countPerGroup(s.st.group, s.groups)
	s.size = make([]int, s.groups)
	s.maxFreq = make([]int32, s.groups)
	for r, g := range s.st.group {
		s.size[g] += int(s.st.freq[r])
		s.maxFreq[g] = max(s.maxFreq[g], s.st.freq[r])
	}
}

func countPerGroup(group []int32, groups int) []int32 {
	c := make([]int32, groups)
	for _, g := range group {
		c[g]++
	}
	return c
}

// estimateNote says how an answer is obtained.
const estimateNote = "estimate (Wang, Section 6, Algorithm 1 as in Example 6.1): per group, the ST count of matching sensitive values " +
	"times, for every condition on a quasi-identifier, the fraction of the group's AT values that satisfy it"

// Answer estimates a query from the scheme (Wang, Section 6, Algorithm
// 1). For every group, c is the count of the sensitive values meeting
// the condition on S (the group's size without one); each condition on a
// quasi-identifier QI_i scales it by l_i/m_i, the fraction of the group's
// values in AT_i that satisfy it. The pseudocode's loops read as a sum of
// c*l/m over the attributes, but Example 6.1 multiplies the fractions
// across attributes (1 x 2/4 x 1/3 + 1 x 2/3 x 1/3 = 7/18 for Q2): the
// estimate follows the example, which treats the attributes of a group
// as independent and uniform over their published values.
//
// SUM and AVG of the sensitive attribute or of a numeric quasi-identifier
// use the same model (the expected sum). MIN and MAX are not defined on
// the lossy join. The per-group contributions are summed in increasing
// order, so the answer does not depend on the order of groups or rows.
func (s *scheme) Answer(q *query.Query) (method.Bounds, error) {
	if q.Agg == query.Min || q.Agg == query.Max {
		return method.Bounds{}, &query.Error{Query: q.Text, Pos: 1, Msg: fmt.Sprintf("an ambiguity release estimates COUNT, SUM and AVG; %s is not defined on its lossy join", q.Agg),
			Hint: "ask COUNT(*) or AVG(col)"}
	}
	qiPreds, saPreds, err := s.splitPreds(q)
	if err != nil {
		return method.Bounds{}, err
	}
	aggQI, aggSA, err := s.aggregated(q)
	if err != nil {
		return method.Bounds{}, err
	}

	bits := s.groupBits()
	s.inGroupOrder(bits)
	e := estimator{s: s, match: matches(&s.st, saPreds), ms: make([][]bool, len(s.at)), read: make([]bool, len(s.at)),
		l: make([]int32, len(s.at)), aggQI: aggQI, aggSA: aggSA, bits: bits, want: make([][]uint64, len(s.at))}
	e.wantSA = wanted(e.match, len(s.st.text))
	for i := range s.at {
		e.ms[i] = matches(&s.at[i], qiPreds[i])
		e.read[i] = e.ms[i] != nil || i == aggQI
		e.want[i] = wanted(e.ms[i], len(s.at[i].text))
	}
	var counts, sums []float64
	if !aggSA && aggQI < 0 {
		counts = e.counts()
	} else {
		for g := 0; g < s.groups; g++ {
			if x, y, ok := e.group(g); ok {
				counts = append(counts, x)
				sums = append(sums, y)
			}
		}
	}
	count := sortedSum(counts)
	if e.bufs != nil {
		s.spare.Put(e.bufs) // counts (in e.bufs.out) is read no more
	}
	b := method.Bounds{HasEst: true, Note: estimateNote}
	// A published record meeting every condition puts its values in its
	// group's tables, so that group contributes: a count of 0 means no
	// published record is selected (suppressed ones may be), and SUM and
	// AVG have nothing to add up.
	if count == 0 && q.Agg != query.Count {
		b.Empty = true
		return b, nil
	}
	switch q.Agg {
	case query.Count:
		b.Estimate = count
	case query.Sum:
		b.Estimate = sortedSum(sums)
	case query.Avg:
		b.Estimate = sortedSum(sums) / count
	}
	return b, nil
}

// splitPreds sorts the query's predicates by the table each reads: a
// QI's auxiliary table or the sensitive table, refusing an unknown column
// and a non-number compared with a numeric one.
func (s *scheme) splitPreds(q *query.Query) (qiPreds [][]query.Pred, saPreds []query.Pred, err error) {
	qiPreds = make([][]query.Pred, len(s.at))
	for _, p := range q.Preds {
		t, i, err := s.column(q, p.Column, p.Pos)
		if err != nil {
			return nil, nil, err
		}
		if t.kind == model.Numeric {
			for _, v := range p.Values {
				if !v.IsNum {
					return nil, nil, &query.Error{Query: q.Text, Pos: int(v.Pos), Msg: fmt.Sprintf("%s is numeric but %q is not a number", p.Column, v.Text)}
				}
			}
		}
		if i < 0 {
			saPreds = append(saPreds, p)
		} else {
			qiPreds[i] = append(qiPreds[i], p)
		}
	}
	return qiPreds, saPreds, nil
}

// aggregated is the column a SUM or AVG aggregates: the QI (aggQI, -1
// for the SA or COUNT) or the sensitive attribute (aggSA). It refuses a
// categorical one.
func (s *scheme) aggregated(q *query.Query) (aggQI int, aggSA bool, err error) {
	aggQI = -1
	if q.Column == "" {
		return aggQI, false, nil
	}
	t, i, err := s.column(q, q.Column, q.ColPos)
	if err != nil {
		return -1, false, err
	}
	if q.Agg != query.Count {
		if t.kind != model.Numeric {
			return -1, false, &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("%s(%s) needs a numeric column", q.Agg, q.Column), Hint: "use COUNT(*) for categorical values"}
		}
		aggQI, aggSA = i, i < 0
	}
	return aggQI, aggSA, nil
}

// estimator is one query's estimate, group by group (Answer).
type estimator struct {
	s     *scheme
	match []bool   // the sensitive values meeting the conditions on S (nil: all)
	ms    [][]bool // per QI, the values meeting its conditions (nil: none)
	read  []bool   // the QIs whose l_i/m_i scale a group's count
	l     []int32  // per QI, l_i of the group at hand
	aggQI int
	aggSA bool
	// bits are the groups' values as bitsets, want the values each
	// condition selects (wantSA: on S) as one.
	bits   *groupBits
	want   [][]uint64
	wantSA []uint64
	// bufs are the slices counts used (from s.spare; nil: none).
	bufs *countBufs
}

// saCount is c and the sum of the matching sensitive values of group g.
func (e *estimator) saCount(g int) (c, sv float64) {
	s := e.s
	if st := &e.bits.st; st.has() && !e.aggSA {
		return float64(st.matching(g, e.wantSA)), 0
	}
	lo, hi := s.st.rowsOf(g)
	for r := lo; r < hi; r++ {
		if code := s.st.code[r]; e.match == nil || e.match[code] {
			c += float64(s.st.freq[r])
			if e.aggSA {
				sv += float64(s.st.freq[r]) * s.st.num[code]
			}
		}
	}
	return c, sv
}

// qiCount is l_i of group g, and the sum of its matching values when QI
// i is the one aggregated.
func (e *estimator) qiCount(g, i int) (n int32, qsum float64) {
	if at := &e.bits.at[i]; at.has() && i != e.aggQI {
		return at.matching(g, e.want[i]), 0
	}
	at, m := &e.s.at[i], e.ms[i]
	lo, hi := at.rowsOf(g)
	for r := lo; r < hi; r++ {
		if code := at.code[r]; m == nil || m[code] {
			n++
			if i == e.aggQI {
				qsum += at.num[code]
			}
		}
	}
	return n, qsum
}

// counts are the groups' contributions to a count (as group gives
// them, in group order), computed a block of countBlock groups at a
// time, a QI at a time over the block's groups still contributing: each
// group's factors are applied in the same order, and the groups'
// products, independent of each other, follow one another in the
// processor instead of one group's waiting for the last. The block's
// working slices stay in the processor's cache; only the bitsets and
// the per-group counts are read from memory, once per query.
func (e *estimator) counts() []float64 {
	s := e.s
	b, _ := s.spare.Get().(*countBufs)
	if b == nil || len(b.alive) < countBlock {
		b = &countBufs{alive: make([]int32, countBlock), x: make([]float64, countBlock)}
	}
	e.bufs = b
	out := b.out[:0]
	for lo := 0; lo < s.groups; lo += countBlock {
		n := e.saBlock(lo, min(lo+countBlock, s.groups), b.alive, b.x)
		for i := range s.at {
			if e.read[i] && n > 0 {
				n = e.scale(i, b.alive[:n], b.x[:n])
			}
		}
		for _, v := range b.x[:n] {
			if v != 0 {
				out = append(out, v)
			}
		}
	}
	b.out = out
	return out
}

// countBlock is how many groups counts takes at a time.
var countBlock = 2048

// saBlock puts the groups lo..hi-1 whose count c of matching sensitive
// values is not 0 into alive, c into x, and returns how many there are.
func (e *estimator) saBlock(lo, hi int, alive []int32, x []float64) int {
	if st := &e.bits.st; !e.aggSA {
		switch {
		case st.w8 != nil:
			return saBits(st.w8[lo:hi], uint8(e.wantSA[0]), lo, alive, x)
		case st.w16 != nil:
			return saBits(st.w16[lo:hi], uint16(e.wantSA[0]), lo, alive, x)
		case st.w32 != nil:
			return saBits(st.w32[lo:hi], uint32(e.wantSA[0]), lo, alive, x)
		case st.w64 != nil:
			return saBits(st.w64[lo:hi], e.wantSA[0], lo, alive, x)
		}
	}
	n := 0
	for g := lo; g < hi; g++ {
		if c, _ := e.saCount(g); c != 0 {
			alive[n], x[n] = int32(g), c
			n++
		}
	}
	return n
}

// saBits is saBlock on one-word bitsets (b: the block's, of groups lo on).
func saBits[T word](b []T, want T, lo int, alive []int32, x []float64) int {
	n := 0
	for k, v := range b {
		c := bits.OnesCount64(uint64(v & want))
		alive[n], x[n] = int32(lo+k), float64(c)
		n += kept(int32(c), 1)
	}
	return n
}

// scale multiplies x, the products of the groups alive, by QI i's
// l_i/m_i as x*l_i/m_i, drops the groups it makes 0 (x would stay 0
// whatever follows) and returns how many are left.
func (e *estimator) scale(i int, alive []int32, x []float64) int {
	ts, count, want := &e.bits.at[i], e.s.at[i].count, e.want[i]
	if ts.counted {
		count = nil
	}
	switch {
	case ts.w8 != nil && count == nil:
		return scaleBytes(ts.w8, uint8(want[0]), alive, x)
	case ts.w8 != nil:
		return scaleBits(ts.w8, uint8(want[0]), count, alive, x)
	case ts.w16 != nil:
		return scaleBits(ts.w16, uint16(want[0]), count, alive, x)
	case ts.w32 != nil:
		return scaleBits(ts.w32, uint32(want[0]), count, alive, x)
	case ts.w64 != nil:
		return scaleBits(ts.w64, want[0], count, alive, x)
	}
	count, keep := e.s.at[i].count, 0
	if ts.words == 2 {
		return scaleTwoWords(ts.wide, want[0], want[1], count, alive, x)
	}
	for k, g := range alive {
		var n int32
		if ts.wide != nil {
			n = common(ts.wide[int(g)*ts.words:int(g+1)*ts.words], want)
		} else {
			n, _ = e.qiCount(int(g), i)
		}
		v, m := times(x[k], n, count[g])
		alive[keep], x[keep] = g, v
		keep += kept(n, m)
	}
	return keep
}

// scaleTwoWords is scale on bitsets of two words (65 to 128 values).
func scaleTwoWords(b []uint64, want0, want1 uint64, count []int32, alive []int32, x []float64) int {
	keep := 0
	for k, g := range alive {
		w := b[2*g : 2*g+2 : 2*g+2]
		n := int32(bits.OnesCount64(w[0]&want0) + bits.OnesCount64(w[1]&want1))
		m := count[g]
		alive[keep], x[keep] = g, x[k]*float64(n)/float64(m)
		keep += kept(n, m)
	}
	return keep
}

// byteFactor is what a group whose one-byte bitset is v does to x in
// scaleBytes: x*n/m, kept as kept(n, m) says.
type byteFactor struct {
	n, m float64
	keep int
}

// scaleBytes is scaleBits on one-byte bitsets whose count is the number
// of their bits, n and m of each of the 256 bitsets worked out once:
// the same x*n/m of the same float64s, with no counting per group.
func scaleBytes(b []uint8, want uint8, alive []int32, x []float64) int {
	var lut [256]byteFactor
	for v := range lut {
		n := int32(bits.OnesCount8(uint8(v) & want))
		m := int32(bits.OnesCount8(uint8(v)))
		lut[v] = byteFactor{n: float64(n), m: float64(m), keep: kept(n, m)}
	}
	keep := 0
	for k, g := range alive {
		f := &lut[b[g]]
		alive[keep], x[keep] = g, x[k]*f.n/f.m
		keep += f.keep
	}
	return keep
}

// scaleBits is scale on one-word bitsets; count is nil when each
// group's is the number of its bits.
func scaleBits[T word](b []T, want T, count []int32, alive []int32, x []float64) int {
	keep := 0
	for k, g := range alive {
		v := b[g]
		n := int32(bits.OnesCount64(uint64(v & want)))
		var m int32
		if count == nil {
			m = int32(bits.OnesCount64(uint64(v)))
		} else {
			m = count[g]
		}
		p, _ := times(x[k], n, m)
		alive[keep], x[keep] = g, p
		keep += kept(n, m)
	}
	return keep
}

// kept is 1 when n != 0 || m <= 0 (a group saBits or scale keeps), else
// 0, without a branch: whether a group keeps is as good as random.
func kept(n, m int32) int {
	nz := uint64(uint32(n) | uint32(1-min(m, 1)))
	return int((nz + 1<<32 - 1) >> 32)
}

// times is x*n/m (and m), the division always made: a group's m is as
// good as random, and a branch on it (a power of two multiplied by its
// inverse instead) cost more in mispredictions than the division.
func times(x float64, n, m int32) (float64, int32) {
	return x * float64(n) / float64(m), m
}

// group is group g's contribution to the count (x) and to the sum (y),
// false when it adds nothing: c, the count of its matching sensitive
// values, times l_i/m_i for every QI read, multiplied in QI order. A
// group's rows are added in the tables' order.
func (e *estimator) group(g int) (x, y float64, ok bool) {
	s := e.s
	c, sv := e.saCount(g)
	if c == 0 {
		return 0, 0, false
	}
	x = c
	qsum := 0.0
	for i := range s.at {
		if !e.read[i] {
			continue
		}
		at := &s.at[i]
		n, sum := e.qiCount(g, i)
		if i == e.aggQI {
			qsum = sum
		}
		if n == 0 && at.count[g] > 0 {
			return 0, 0, false // x would stay 0 whatever follows
		}
		e.l[i] = n
		x = x * float64(n) / float64(at.count[g])
	}
	if x == 0 {
		return 0, 0, false
	}
	switch {
	case e.aggSA:
		y = sv
		for i := range s.at {
			if e.read[i] {
				y = y * float64(e.l[i]) / float64(s.at[i].count[g])
			}
		}
	case e.aggQI >= 0:
		// c x prod_{i != j} l_i/m_i x (sum of matching values of QI_j)/m_j
		y = c
		for i := range s.at {
			switch {
			case i == e.aggQI:
				y = y * qsum / float64(s.at[i].count[g])
			case e.read[i]:
				y = y * float64(e.l[i]) / float64(s.at[i].count[g])
			}
		}
	}
	return x, y, true
}

// column resolves a query column: an auxiliary table (i >= 0) or the
// sensitive table (i = -1).
func (s *scheme) column(q *query.Query, name string, pos int) (*valueTable, int, error) {
	for i, qi := range s.qis {
		if qi == name {
			return &s.at[i], i, nil
		}
	}
	if name == s.sa {
		return &s.st, -1, nil
	}
	cols := append(append([]string(nil), s.qis...), s.sa)
	return nil, 0, &query.Error{Query: q.Text, Pos: pos, Msg: fmt.Sprintf("the release has no column %q", name),
		Hint: "an ambiguity release publishes " + strings.Join(cols, ", ")}
}

// matches decides every predicate once per distinct value of a table (nil
// when there is no predicate: everything matches), on the table's column
// (query.Pred.Pass: a workload's IN list written from a dictionary's codes
// is decided by its codes, with no text compared).
func matches(t *valueTable, preds []query.Pred) []bool {
	if len(preds) == 0 {
		return nil
	}
	out := make([]bool, len(t.text))
	for i, p := range preds {
		pass := p.Pass(t.col)[1:]
		if i == 0 {
			for v := range out {
				out[v] = pass[v] != 0
			}
			continue
		}
		for v := range out {
			out[v] = out[v] && pass[v] != 0
		}
	}
	return out
}

// sortedSum adds the values in increasing order (a sum independent of
// the order the groups come in). A workload's count has some 25
// distinct contributions among 150k groups: fewSum adds them in the
// same order without sorting them; else x is sorted.
func sortedSum(x []float64) float64 {
	if s, ok := fewSum(x); ok {
		return s
	}
	sort.Float64s(x)
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// fraction renders a/b reduced, e.g. 4/12 -> "1/3" ("1" when b divides a).
func fraction(a, b int64) string {
	if b == 0 {
		return "—"
	}
	g := gcd(a, b)
	a, b = a/g, b/g
	if b == 1 {
		return fmt.Sprint(a)
	}
	return fmt.Sprintf("%d/%d", a, b)
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// ceilInv is ceil(1/beta), the smallest group size whose association
// 1/|G| stays within beta (Wang, Section 7, Step 2), exactly: beta =
// 0.3333333333333333 needs 4 (a third is above it).
func ceilInv(beta model.Bound) int {
	return max(beta.MinSize(1), 1)
}
