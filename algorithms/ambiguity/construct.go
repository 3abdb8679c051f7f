package ambiguity

import (
	"context"
	"math/bits"
	"sort"

	"privlab/model"
)

// codes is the input of Algorithm 2: every record's quasi-identifier
// values and sensitive value as dictionary codes.
type codes struct {
	n, k  int
	vals  []uint32 // row-major: vals[r*k+i] is record r's code on QI i
	sa    []uint32
	dom   []int // number of distinct values per QI
	saDom int
	// skip marks records that take no part (a missing value): they are
	// suppressed.
	skip []bool
}

// stats describes a construction.
type stats struct {
	Picks int // calls of pick
	// Cut counts the picks that returned the best of the first `window`
	// candidates of a bucket without reaching the bound the bucket index
	// proves: the only place the construction may differ from the
	// paper's exhaustive pick.
	Cut   int
	Step2 int // groups built by Step 2
	// Parked counts the groups Step 2 gave up on: each stayed above alpha
	// with one record from every non-empty bucket, and its seed record was
	// set aside for Step 3 (see build).
	Parked     int
	Placed     int // residues added to groups by Step 3 (parked seeds included)
	Suppressed int // residues no group could take, and skipped records
}

// defaultWindow bounds the candidates pick evaluates in one bucket.
const defaultWindow = 32

// counter counts unpicked records per (sensitive value, QI value): a flat
// array when the product of the domains is small, a map otherwise.
type counter struct {
	flat   []int32
	m      map[uint64]int32
	stride uint64
}

func newCounter(saDom, dom int) counter {
	if uint64(saDom)*uint64(dom) <= 1<<22 {
		return counter{flat: make([]int32, saDom*dom), stride: uint64(dom)}
	}
	return counter{m: map[uint64]int32{}, stride: uint64(dom)}
}

func (c *counter) get(s, v uint32) int32 {
	if c.flat != nil {
		return c.flat[uint64(s)*c.stride+uint64(v)]
	}
	return c.m[uint64(s)*c.stride+uint64(v)]
}

func (c *counter) add(s, v uint32, d int32) int32 {
	key := uint64(s)*c.stride + uint64(v)
	if c.flat != nil {
		c.flat[key] += d
		return c.flat[key]
	}
	x := c.m[key] + d
	if x == 0 {
		delete(c.m, key)
	} else {
		c.m[key] = x
	}
	return x
}

// builder holds the state of Algorithm 2 (Wang, Section 7).
type builder struct {
	c      *codes
	alpha  model.Bound
	g      int // ceil(1/beta)
	window int

	// Step 1: the hash buckets. bucket[s] lists the unpicked records
	// with sensitive value s; H_QIi is kept as counts of unpicked records
	// per (s, value of QI_i) so that pick can bound what a bucket offers.
	bucket [][]int32
	// bcodes[s] holds the QI codes of bucket s's records, k per record in
	// bucket order, so that pick reads a bucket sequentially.
	bcodes  [][]uint32
	pos     []int32 // position of a record in its bucket, -1 once picked
	cnt     []counter
	nonzero [][]int32 // per QI, per s: values with a positive count

	// The sensitive buckets sorted by unpicked size, largest first
	// (Algorithm 2, line 3), kept sorted as sizes drop by one: ge[c] is
	// the number of buckets with at least c records, which occupy
	// order[0:ge[c]].
	order []int32
	where []int32
	// cur is where pick's scan of each bucket resumes.
	cur      []int32
	ordCount []int32
	ge       []int32

	// The group under construction: mark[i][v] == stamp when value v of
	// QI_i is in it; vset[i] lists those values.
	stamp   int32
	mark    [][]int32
	vset    [][]uint32
	members []int32
	// parked lists the seed records of the groups Step 2 gave up on, in
	// the order they were set aside: out of their buckets, residues for
	// Step 3.
	parked []int32

	stats stats
	// hook, when set (tests), sees every pick before it is added.
	hook func(b *builder, s int32, picked int32)
}

func newBuilder(c *codes, alpha model.Bound, g int) *builder {
	b := &builder{c: c, alpha: alpha, g: g, window: defaultWindow}
	// Step 1: bucketization on the sensitive attribute and every QI
	// (Algorithm 2, lines 1-2).
	b.bucket = make([][]int32, c.saDom)
	b.cur = make([]int32, c.saDom)
	sizes := make([]int32, c.saDom)
	for r := 0; r < c.n; r++ {
		if !c.skip[r] {
			sizes[c.sa[r]]++
		}
	}
	b.bcodes = make([][]uint32, c.saDom)
	for s := range b.bucket {
		b.bucket[s] = make([]int32, 0, sizes[s])
		b.bcodes[s] = make([]uint32, 0, int(sizes[s])*c.k)
	}
	b.pos = make([]int32, c.n)
	b.cnt = make([]counter, c.k)
	b.nonzero = make([][]int32, c.k)
	b.mark = make([][]int32, c.k)
	b.vset = make([][]uint32, c.k)
	for i := 0; i < c.k; i++ {
		b.cnt[i] = newCounter(c.saDom, c.dom[i])
		b.nonzero[i] = make([]int32, c.saDom)
		b.mark[i] = make([]int32, c.dom[i])
	}
	for r := 0; r < c.n; r++ {
		if c.skip[r] {
			b.pos[r] = -1
			b.stats.Suppressed++
			continue
		}
		b.insert(int32(r))
	}
	// Line 3: sort the sensitive buckets by size, largest first (ties
	// in value order, so the run is deterministic).
	b.order = make([]int32, c.saDom)
	b.where = make([]int32, c.saDom)
	b.ordCount = sizes
	for s := range b.order {
		b.order[s] = int32(s)
	}
	sort.SliceStable(b.order, func(x, y int) bool { return sizes[b.order[x]] > sizes[b.order[y]] })
	maxSize := int32(0)
	for p, s := range b.order {
		b.where[s] = int32(p)
		maxSize = max(maxSize, sizes[s])
	}
	b.ge = make([]int32, maxSize+2)
	for _, sz := range sizes {
		b.ge[sz]++
	}
	for x := maxSize - 1; x >= 0; x-- {
		b.ge[x] += b.ge[x+1]
	}
	return b
}

// insert puts an unpicked record into its buckets.
func (b *builder) insert(r int32) {
	c := b.c
	s := c.sa[r]
	b.pos[r] = int32(len(b.bucket[s]))
	b.bucket[s] = append(b.bucket[s], r)
	b.bcodes[s] = append(b.bcodes[s], c.vals[int(r)*c.k:int(r)*c.k+c.k]...)
	for i := 0; i < c.k; i++ {
		if b.cnt[i].add(s, c.vals[int(r)*c.k+i], 1) == 1 {
			b.nonzero[i][s]++
		}
	}
}

// take removes a record from its buckets (Algorithm 2, line 17).
func (b *builder) take(r int32) {
	c := b.c
	s := c.sa[r]
	list := b.bucket[s]
	p := b.pos[r]
	last := list[len(list)-1]
	list[p] = last
	b.pos[last] = p
	b.bucket[s] = list[:len(list)-1]
	bc := b.bcodes[s]
	copy(bc[int(p)*c.k:int(p)*c.k+c.k], bc[len(bc)-c.k:])
	b.bcodes[s] = bc[:len(bc)-c.k]
	b.pos[r] = -1
	for i := 0; i < c.k; i++ {
		if b.cnt[i].add(s, c.vals[int(r)*c.k+i], -1) == 0 {
			b.nonzero[i][s]--
		}
	}
}

// shrink lowers bucket s's size in the sorted order by one.
func (b *builder) shrink(s int32) {
	x := b.ordCount[s]
	j := b.ge[x] - 1 // the last bucket of size x
	p := b.where[s]
	o := b.order[j]
	b.order[p], b.order[j] = o, s
	b.where[o], b.where[s] = p, j
	b.ge[x]--
	b.ordCount[s] = x - 1
}

// startGroup empties the group under construction.
func (b *builder) startGroup() {
	b.stamp++
	for i := range b.vset {
		b.vset[i] = b.vset[i][:0]
	}
	b.members = b.members[:0]
}

// add puts record r into the group.
func (b *builder) add(r int32) {
	c := b.c
	b.take(r)
	for i := 0; i < c.k; i++ {
		v := c.vals[int(r)*c.k+i]
		if b.mark[i][v] != b.stamp {
			b.mark[i][v] = b.stamp
			b.vset[i] = append(b.vset[i], v)
		}
	}
	b.members = append(b.members, r)
}

// present reports whether the group under construction meets
// alpha-presence, |G| / prod_i |G_ATi| <= alpha, exactly.
func (b *builder) present() bool {
	j := oneJoin()
	for i := range b.vset {
		j = j.times(len(b.vset[i]))
	}
	return j.within(b.alpha, len(b.members))
}

// gain is the factor by which adding a record new on the QIs of mask
// multiplies the join size prod_i |G_ATi|.
func (b *builder) gain(mask uint64) float64 {
	x := 1.0
	for mask != 0 {
		i := bits.TrailingZeros64(mask)
		mask &= mask - 1
		m := float64(len(b.vset[i]))
		x *= (m + 1) / m
	}
	return x
}

// pick is Algorithm 4 restricted to one sensitive bucket s: the unpicked
// record of s whose addition covers the most buckets, i.e. gives the
// group the smallest presence probability. Algorithm 4 ranges over all
// unpicked records, but Step 2 takes "a tuple from a bucket" of the
// chosen sensitive buckets, so pick looks in the bucket Step 2 names
// (every candidate then adds one sensitive value, and fewest presence
// means largest join). The pseudocode keeps the
// record with the smallest count (m < max, with max starting at 100000),
// which contradicts its own title and the text ("pick the ones that cover
// the maximum number of buckets, i.e., produce the minimum presence
// probability"); we follow the text, and measure "most buckets" by the
// resulting presence probability, so that a new value on an attribute the
// group covers with few values counts for more (it multiplies the join
// size by (m+1)/m).
//
// The naive pick scans every unpicked record: O(n) per call and O(n^2)
// for the whole run. Here the bucket index bounds the best possible
// answer: QI_i can be new only if bucket s still holds a value of QI_i the
// group lacks, which the per-(s, value) counts tell in O(|G|). pick scans
// the bucket and stops at the first record new on every attribute the
// bound allows (an optimal answer). The scan of a bucket resumes where
// the previous one stopped, so records that did not suit one group are not
// re-read first by the next. When no record reaches the bound (its
// attributes cannot all be new at once), at most window records are
// scanned and the best of them is taken, counted in stats.Cut and in the
// run's notes: on census this happens in about 12-17% of picks, and
// against an exhaustive scan it changed the mean presence by under 2% and
// the workload error within noise (window 16..1024 vs unbounded, 45,000
// rows), while an exhaustive scan is O(n) per pick. With 7 QIs the bound
// is rarely reached, so the window sets the cost: 32 keeps census 45k
// with 7 QIs within the workbench's budget (SPEC 8), with the workload
// error no worse than at 256 (0.115 against 0.124 mean relative error).
func (b *builder) pick(s int32) int32 {
	b.stats.Picks++
	list := b.bucket[s]
	if len(b.members) == 0 {
		return list[0]
	}
	c := b.c
	var bound uint64
	for i := 0; i < c.k; i++ {
		covered := int32(0)
		for _, v := range b.vset[i] {
			if b.cnt[i].get(uint32(s), v) > 0 {
				covered++
			}
		}
		if b.nonzero[i][s] > covered {
			bound |= 1 << i
		}
	}
	best, bestGain, bestMask := list[0], -1.0, uint64(0)
	bc := b.bcodes[s]
	n := len(list)
	start := int(b.cur[s]) % n
	scan := min(n, b.window)
	for x := 0; x < scan; x++ {
		j := start + x
		if j >= n {
			j -= n
		}
		r := list[j]
		var mask uint64
		vals := bc[j*c.k : j*c.k+c.k]
		for i, v := range vals {
			if b.mark[i][v] != b.stamp {
				mask |= 1 << i
			}
		}
		if mask == bound {
			b.cur[s] = int32(j)
			return r
		}
		// A mask within the best one's cannot beat it (gain grows with
		// every new attribute).
		if mask&^bestMask == 0 && bestGain >= 0 {
			continue
		}
		if g := b.gain(mask); g > bestGain {
			best, bestGain, bestMask = r, g, mask
		}
	}
	b.cur[s] = int32((start + scan) % n)
	if scan < n {
		b.stats.Cut++
	}
	return best
}

// pickAdd picks from bucket s and adds the record.
func (b *builder) pickAdd(s int32) {
	r := b.pick(s)
	if b.hook != nil {
		b.hook(b, s, r)
	}
	b.add(r)
}

// construct runs Algorithm 2 and returns the QI-groups (record lists) and
// the suppressed records.
//
// Step 2 (lines 7-18). Each group starts with ceil(1/beta) records from the
// ceil(1/beta) largest non-empty sensitive buckets, one per bucket, each
// chosen by pick (lines 10-11). The pseudocode's loop runs "for i=0 to
// ceil(1/beta)" and nests the alpha loop inside it; the text says the
// group starts with ceil(1/beta) records and only then keeps picking while
// the presence probability exceeds alpha. We follow the text: exactly
// ceil(1/beta) records, then the alpha loop (lines 13-15), which takes one
// record at a time from the next largest bucket the group does not cover
// yet, so that every sensitive value occurs once per group, as the proof
// of Theorem 7.1 requires. Bucket sizes are re-sorted after each group.
// Step 2 ends when fewer than ceil(1/beta) buckets are non-empty (line 18
// reads "until there are less than i <= ceil(1/beta) non-empty buckets";
// the text: "until there are less than ceil(1/beta) non-empty buckets,
// i.e., there are not enough tuples to construct a QI-group").
//
// A group can still exceed alpha after taking one record from every
// non-empty bucket: the pseudocode's alpha loop (lines 13-15) would then
// pick forever, and the text does not say what happens. Stopping Step 2
// there would hand every unpicked record to Step 3, yet a group seeded by
// another record may well reach alpha from the same buckets: the seed
// (line 10's first pick, the head of the largest bucket) fixes the
// values every later pick must add to. So the group is dissolved, its
// seed is parked (taken out of its bucket and kept for Step 3 as a
// residue: "residue tuples that are not assigned to any QI-group"), its
// other records go back to their buckets, and Step 2 goes on with the
// next seed. On census (10,000 rows, alpha = 0.01, beta = 0.25) stopping
// built 105 groups and published 1,304 records; parking and going on
// builds 163 groups and publishes 2,000 (Step 3 placing 198 residues);
// 80% of the records stay suppressed there, which the result warns
// about (method.go, suppressionWarning). Every round either builds a
// group or parks one record, so the buckets shrink every round and Step 2
// ends after at most n rounds; a round costs one pick per non-empty
// bucket, each at most `window` candidates, so the cost stays linear in n
// for a given sensitive domain. On the paper's own example (Figure 1(a),
// alpha = beta = 0.5) no group is given up on and the trace is the
// paper's.
//
// Step 3 (lines 19-26). Every residue record joins the first group (in
// construction order) that does not hold its sensitive value and whose
// presence probability with it stays within alpha (the text says "less
// than alpha", the pseudocode "<= alpha"; alpha-presence is <=).
// Residues that fit no group are suppressed: they are counted, never
// published in violation.
func construct(ctx context.Context, c *codes, alpha model.Bound, g int, progress func(float64)) ([][]int32, *builder, error) {
	b := newBuilder(c, alpha, g)
	groups, err := b.build(ctx, progress)
	return groups, b, err
}

// build runs Steps 2 and 3 on the buckets of Step 1.
func (b *builder) build(ctx context.Context, progress func(float64)) ([][]int32, error) {
	c, g := b.c, b.g
	arena := make([]int32, 0, c.n)
	var groups [][]int32
	picked := 0
	for round := 0; int(b.ge[1]) >= g; round++ {
		if round%512 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil && c.n > 0 {
				progress(0.9 * float64(picked+len(b.parked)) / float64(c.n))
			}
		}
		b.startGroup()
		next := 0
		for ; next < g; next++ {
			b.pickAdd(b.order[next])
		}
		failed := false
		for !b.present() {
			if next >= int(b.ge[1]) {
				failed = true
				break
			}
			b.pickAdd(b.order[next])
			next++
		}
		if failed {
			b.park()
			continue
		}
		// The sizes drop only now, so that the group read the buckets in
		// one order.
		for p := next - 1; p >= 0; p-- {
			b.shrink(b.order[p])
		}
		start := len(arena)
		arena = append(arena, b.members...)
		groups = append(groups, arena[start:len(arena):len(arena)])
		picked += len(b.members)
	}
	b.stats.Step2 = len(groups)
	if err := b.residues(ctx, groups); err != nil {
		return nil, err
	}
	return groups, nil
}

// park dissolves the group under construction, which stayed above alpha
// with a record from every non-empty bucket: its seed (the first record)
// leaves its bucket for Step 3, the others go back (see construct).
func (b *builder) park() {
	seed := b.members[0]
	for _, r := range b.members[1:] {
		b.insert(r)
	}
	b.shrink(int32(b.c.sa[seed]))
	b.parked = append(b.parked, seed)
	b.stats.Parked++
}

// residues is Step 3: it places what is left in the sensitive buckets,
// and the parked seeds, which count as their buckets' residues.
func (b *builder) residues(ctx context.Context, groups [][]int32) error {
	left, res, idx := b.residueBuckets()
	if len(res) == 0 {
		return nil
	}
	m := len(groups)
	has, join := b.residueMarks(groups, res, idx)
	for j, s := range res {
		todo := left[s]
		// Groups before start hold s and never lose it.
		start := nextClear(has[j], 0, m)
		for x, t := range todo {
			if x%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if start >= m {
				b.stats.Suppressed += len(todo) - x
				break
			}
			if !b.placeResidue(groups, join, has[j], start, t) {
				b.stats.Suppressed++
			}
			start = nextClear(has[j], start, m)
		}
	}
	return nil
}

// residueBuckets lists the residues of each sensitive value (left: what
// is left in its bucket, then its parked seeds in the order they were
// parked) and the residue buckets' values, largest first (res; ties in
// the order of Step 2's sorted buckets, itself in value order on ties),
// with each value's place in res (idx, -1 for none).
func (b *builder) residueBuckets() (left [][]int32, res []int32, idx []int32) {
	c := b.c
	left = make([][]int32, c.saDom)
	for s := range left {
		left[s] = append(left[s], b.bucket[s]...)
	}
	for _, r := range b.parked {
		left[c.sa[r]] = append(left[c.sa[r]], r)
	}
	idx = make([]int32, c.saDom)
	for s := range idx {
		idx[s] = -1
	}
	for _, s := range b.order {
		if len(left[s]) > 0 {
			res = append(res, s)
		}
	}
	sort.SliceStable(res, func(x, y int) bool { return len(left[res[x]]) > len(left[res[y]]) })
	for j, s := range res {
		idx[s] = int32(j)
	}
	return left, res, idx
}

// residueMarks gives has[j], the bitset of the groups holding residue
// value res[j], and each group's join size.
func (b *builder) residueMarks(groups [][]int32, res, idx []int32) (has [][]uint64, join []joinSize) {
	c := b.c
	m := len(groups)
	words := (m + 63) / 64
	has = make([][]uint64, len(res))
	for j := range has {
		has[j] = make([]uint64, words)
	}
	join = make([]joinSize, m)
	for gi, grp := range groups {
		for _, r := range grp {
			if j := idx[c.sa[r]]; j >= 0 {
				has[j][gi/64] |= 1 << (gi % 64)
			}
		}
		join[gi] = b.joinWith(grp, -1)
	}
	return has, join
}

// placeResidue puts residue t in the first group from start that lacks
// its value (has) and keeps its join size within alpha with it, and says
// whether one did.
func (b *builder) placeResidue(groups [][]int32, join []joinSize, has []uint64, start int, t int32) bool {
	m := len(groups)
	for gi := start; gi < m; gi = nextClear(has, gi+1, m) {
		size := len(groups[gi]) + 1
		// A record can only raise the join size: when the group
		// takes one more record without a new value, it takes t.
		if !join[gi].within(b.alpha, size) && !b.joinWith(groups[gi], t).within(b.alpha, size) {
			continue
		}
		if b.pos[t] >= 0 { // a parked seed has left its bucket already
			b.take(t)
		}
		groups[gi] = append(groups[gi], t)
		join[gi] = b.joinWith(groups[gi], -1)
		has[gi/64] |= 1 << (gi % 64)
		b.stats.Placed++
		return true
	}
	return false
}

// joinWith is prod_i |G_ATi| of the records of grp, plus record t when t
// >= 0.
func (b *builder) joinWith(grp []int32, t int32) joinSize {
	c := b.c
	b.stamp++
	j := oneJoin()
	for i := 0; i < c.k; i++ {
		m := 0
		for _, r := range grp {
			v := c.vals[int(r)*c.k+i]
			if b.mark[i][v] != b.stamp {
				b.mark[i][v] = b.stamp
				m++
			}
		}
		if t >= 0 && b.mark[i][c.vals[int(t)*c.k+i]] != b.stamp {
			m++
		}
		j = j.times(m)
	}
	return j
}

// nextClear is the first index >= from and < n whose bit is clear (n when
// none is).
func nextClear(set []uint64, from, n int) int {
	for w := from / 64; w < len(set); w++ {
		x := ^set[w]
		if w == from/64 {
			x &= ^uint64(0) << (from % 64)
		}
		if x != 0 {
			i := w*64 + bits.TrailingZeros64(x)
			if i >= n {
				return n
			}
			return i
		}
	}
	return n
}
