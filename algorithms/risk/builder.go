package risk

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"privlab/model"
)

// Builder collects a release's published records into a View: records
// with the same published QI cells form one region, whose belief is the
// mix of its records' beliefs (a QI tuple whose records lie in two groups
// gets both groups' values, weighted by its records in each). Checkers
// use it to build their views.
//
// A record costs one dictionary lookup per cell given as text (Add), or
// none given as codes (AddCodes), and one hash probe on its codes: no
// allocation per record or cell, no text key. Beliefs are stored by the
// values they give a probability, so that a sensitive attribute of many
// values costs nothing per value a belief leaves out.
type Builder struct {
	v     *View
	dicts []map[string]uint32
	// remap[i] maps the codes of the dictionary given with Cells to
	// the builder's codes of QI i.
	remap [][]uint32
	// regions: arena holds each region's codes (q per region, at
	// cellAt[r]; -1 for AddRegion's), slots the hash table of regions
	// (index+1; 0 empty).
	arena  []uint32
	cellAt []int32
	slots  []int32
	// mixHead[r] starts the list (in nodes) of region r's records per
	// belief once it holds more than one belief (-1 before); big holds
	// those of more than mixSmall beliefs.
	mixHead []int32
	nodes   []mixNode
	big     map[int32]map[int32]int
	mixBuf  []beliefCount
	loss    []float64
	belief  map[uint64][]int32
	value   []int32 // the belief of each known value (Value), 0 unset
	codes   []uint32
	// scratch is a dense accumulator over the SA values for mixing
	// (touched lists the entries in use); tmp is a belief being built.
	scratch []float64
	touched []int32
	tmp     Belief
	// vals and probs are the stored beliefs' arenas (filled chunk by
	// chunk: a belief's slices never move).
	vals  []int32
	probs []float64
}

type mixNode struct {
	belief int32
	next   int32
	n      int
}

type beliefCount struct {
	belief int32
	n      int
}

// mixSmall is the number of beliefs a region's mix lists before it is
// kept in a map.
const mixSmall = 16

// NewBuilder starts a view of a release with the given QIs and
// sensitive attribute (its values in order; numeric orders them by value).
func NewBuilder(qis []string, sa string, saValues []string, numeric bool) *Builder {
	b := &Builder{
		v:      &View{QIs: qis, SA: sa, SAValues: saValues, SANumeric: numeric, Cells: make([][]string, len(qis))},
		dicts:  make([]map[string]uint32, len(qis)),
		remap:  make([][]uint32, len(qis)),
		belief: map[uint64][]int32{},
		codes:  make([]uint32, len(qis)),
	}
	for i := range b.dicts {
		b.dicts[i] = map[string]uint32{}
	}
	return b
}

// Belief registers a distribution over the SA values (equal ones are
// stored once) and returns its index.
func (b *Builder) Belief(p []float64) int32 {
	bl := b.start()
	for i, x := range p {
		if x != 0 {
			bl.Values = append(bl.Values, int32(i))
			bl.P = append(bl.P, x)
		}
	}
	return b.register(*bl)
}

// start empties the belief under construction.
func (b *Builder) start() *Belief {
	b.tmp.Values, b.tmp.P = b.tmp.Values[:0], b.tmp.P[:0]
	return &b.tmp
}

// register stores a belief unless an equal one is stored (equal values
// and probabilities, bit for bit).
func (b *Builder) register(bl Belief) int32 {
	h := uint64(14695981039346656037)
	for k, i := range bl.Values {
		if k > 0 && i <= bl.Values[k-1] {
			// Belief.At searches Values: a caller that broke their order
			// (Pairs takes them as given) would read wrong figures.
			panic("risk: a belief's values out of increasing order")
		}
		h = mix64(h ^ uint64(uint32(i)))
		h = mix64(h ^ math.Float64bits(bl.P[k]))
	}
	for _, id := range b.belief[h] {
		o := b.v.Beliefs[id]
		if slices.Equal(o.Values, bl.Values) && sameBits(o.P, bl.P) {
			return id
		}
	}
	id := int32(len(b.v.Beliefs))
	b.v.Beliefs = append(b.v.Beliefs, b.store(bl))
	b.belief[h] = append(b.belief[h], id)
	return id
}

// beliefChunk is the entries of the beliefs' arenas allocated at once.
const beliefChunk = 1 << 14

// store copies a belief into the arenas.
func (b *Builder) store(bl Belief) Belief {
	n := len(bl.Values)
	if cap(b.vals)-len(b.vals) < n {
		b.vals = make([]int32, 0, max(beliefChunk, n))
		b.probs = make([]float64, 0, max(beliefChunk, n))
	}
	at := len(b.vals)
	b.vals = append(b.vals, bl.Values...)
	b.probs = append(b.probs, bl.P...)
	return Belief{Values: b.vals[at : at+n : at+n], P: b.probs[at : at+n : at+n]}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// mix64 is a 64-bit finalizer (splitmix64's).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Pairs is Counts given sparsely: values (increasing, distinct) with
// their counts, so that a region costs its values, not the SA domain.
func (b *Builder) Pairs(values []int32, counts []int) int32 {
	var n int
	bl := b.start()
	for k, c := range counts {
		if c != 0 {
			n += c
			bl.Values = append(bl.Values, values[k])
			bl.P = append(bl.P, float64(c))
		}
	}
	for k := range bl.P {
		bl.P[k] /= float64(n)
	}
	if n == 0 {
		bl.Values, bl.P = bl.Values[:0], bl.P[:0]
	}
	return b.register(*bl)
}

// CountsOf is Counts of a bag given as its values' indexes, in any order
// and repeated as often as the value is counted: a class's values
// without a count per SA value.
func (b *Builder) CountsOf(values []int32) int32 {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	bl := b.start()
	n := float64(len(sorted))
	for k := 0; k < len(sorted); {
		j := k
		for j < len(sorted) && sorted[j] == sorted[k] {
			j++
		}
		bl.Values = append(bl.Values, sorted[k])
		bl.P = append(bl.P, float64(j-k)/n)
		k = j
	}
	return b.register(*bl)
}

// Value registers the belief of one known value (a record published
// with its sensitive value: a class's beliefs then mix its records').
func (b *Builder) Value(i int) int32 {
	if b.value == nil {
		b.value = make([]int32, len(b.v.SAValues))
	}
	if b.value[i] == 0 {
		bl := b.start()
		bl.Values, bl.P = append(bl.Values, int32(i)), append(bl.P, 1)
		b.value[i] = 1 + b.register(*bl)
	}
	return b.value[i] - 1
}

// code is the builder's code of QI i's cell text.
func (b *Builder) code(i int, s string) uint32 {
	code, ok := b.dicts[i][s]
	if !ok {
		code = uint32(len(b.v.Cells[i]))
		b.dicts[i][s] = code
		b.v.Cells[i] = append(b.v.Cells[i], s)
	}
	return code
}

// Add adds one published record with its QI cells (aligned with the
// QIs), the belief of its sensitive value (-1 for none) and its
// generalization loss.
func (b *Builder) Add(cells []string, belief int32, loss float64) {
	for i, c := range cells {
		b.codes[i] = b.code(i, c)
	}
	b.add(belief, loss)
}

// CellCode is the code Add gives cell text s of QI i (a text is coded
// in the order it is first given).
func (b *Builder) CellCode(i int, s string) uint32 { return b.code(i, s) }

// AddCoded is Add with the cells given as the codes CellCode returned.
func (b *Builder) AddCoded(codes []uint32, belief int32, loss float64) {
	copy(b.codes, codes)
	b.add(belief, loss)
}

// add adds a record with the cells in b.codes.
func (b *Builder) add(belief int32, loss float64) {
	r := b.find(b.codes)
	if r < 0 {
		r = int32(len(b.v.Regions))
		b.cellAt = append(b.cellAt, int32(len(b.arena)))
		b.arena = append(b.arena, b.codes...)
		b.v.Regions = append(b.v.Regions, Region{Belief: belief, Presence: math.NaN()})
		b.mixHead = append(b.mixHead, -1)
		b.loss = append(b.loss, 0)
		b.insert(r)
	}
	reg := &b.v.Regions[r]
	if reg.Belief != belief || b.mixHead[r] >= 0 {
		if b.mixHead[r] < 0 {
			b.mixHead[r] = int32(len(b.nodes))
			b.nodes = append(b.nodes, mixNode{belief: reg.Belief, next: -1, n: reg.Records})
		}
		b.mixIn(r, belief)
	}
	reg.Records++
	b.loss[r] += loss
}

// mixIn counts one more record of region r with the belief.
func (b *Builder) mixIn(r, belief int32) {
	if m := b.big[r]; m != nil {
		m[belief]++
		return
	}
	length := 0
	for k := b.mixHead[r]; k >= 0; k = b.nodes[k].next {
		if b.nodes[k].belief == belief {
			b.nodes[k].n++
			return
		}
		length++
	}
	b.nodes = append(b.nodes, mixNode{belief: belief, next: b.mixHead[r], n: 1})
	b.mixHead[r] = int32(len(b.nodes) - 1)
	if length+1 > mixSmall {
		if b.big == nil {
			b.big = map[int32]map[int32]int{}
		}
		m := map[int32]int{}
		for k := b.mixHead[r]; k >= 0; k = b.nodes[k].next {
			m[b.nodes[k].belief] += b.nodes[k].n
		}
		b.big[r] = m
	}
}

func hashCodes(codes []uint32) uint64 {
	h := uint64(len(codes))
	for _, c := range codes {
		h = mix64(h ^ uint64(c))
	}
	return h
}

// find returns the region of the codes, -1 when there is none.
func (b *Builder) find(codes []uint32) int32 {
	if len(b.slots) == 0 {
		return -1
	}
	mask := uint64(len(b.slots) - 1)
	for s := hashCodes(codes) & mask; ; s = (s + 1) & mask {
		r := b.slots[s] - 1
		if r < 0 {
			return -1
		}
		at := b.cellAt[r]
		if slices.Equal(b.arena[at:int(at)+len(codes)], codes) {
			return r
		}
	}
}

// insert puts region r (with cells) in the hash table, growing it (a
// power of two, probed with a mask) to keep it at most half full.
func (b *Builder) insert(r int32) {
	if 2*(int(r)+1) > len(b.slots) {
		b.slots = make([]int32, max(64, 1<<bits.Len(uint(4*(int(r)+1)))))
		for o := range r {
			if b.cellAt[o] >= 0 {
				b.place(o)
			}
		}
	}
	b.place(r)
}

func (b *Builder) place(r int32) {
	q := len(b.codes)
	at := b.cellAt[r]
	mask := uint64(len(b.slots) - 1)
	s := hashCodes(b.arena[at:int(at)+q]) & mask
	for b.slots[s] != 0 {
		s = (s + 1) & mask
	}
	b.slots[s] = r + 1
}

// Grow makes room for n more regions (a viewer that knows how many it
// adds spares the copies of growing one by one).
func (b *Builder) Grow(n int) {
	b.v.Regions = slices.Grow(b.v.Regions, n)
	b.cellAt = slices.Grow(b.cellAt, n)
	b.mixHead = slices.Grow(b.mixHead, n)
	b.loss = slices.Grow(b.loss, n)
}

// AddRegion adds a region that is not a set of record-level cells (a
// group of ambiguity's per-attribute tables): its records, belief,
// loss and presence. A view with such regions has no record-level cells.
func (b *Builder) AddRegion(records int, belief int32, loss, presence float64) {
	b.v.Cells = nil
	b.v.Regions = append(b.v.Regions, Region{Records: records, Belief: belief, Loss: loss, Presence: presence})
	b.cellAt = append(b.cellAt, -1)
	b.mixHead = append(b.mixHead, -1)
	b.loss = append(b.loss, loss*float64(records))
}

// View finishes the view: mixed regions get their mixed belief, every
// region its mean loss and its cells.
func (b *Builder) View(rowsIn, suppressed int, generalized bool, notes ...string) *View {
	v := b.v
	q := len(b.codes)
	for r := range v.Regions {
		reg := &v.Regions[r]
		if reg.Records > 0 {
			reg.Loss = b.loss[r] / float64(reg.Records)
		}
		if at := b.cellAt[r]; at >= 0 {
			reg.Cells = b.arena[at : int(at)+q : int(at)+q]
		}
		if b.mixHead[r] >= 0 {
			reg.Belief = b.mix(b.mixOf(int32(r)))
		}
	}
	v.RowsIn, v.Suppressed, v.Generalized, v.Notes = rowsIn, suppressed, generalized, notes
	return v
}

// mixOf lists region r's records per belief, by belief.
func (b *Builder) mixOf(r int32) []beliefCount {
	m := b.mixBuf[:0]
	if big := b.big[r]; big != nil {
		for id, n := range big {
			m = append(m, beliefCount{id, n})
		}
	} else {
		for k := b.mixHead[r]; k >= 0; k = b.nodes[k].next {
			m = append(m, beliefCount{b.nodes[k].belief, b.nodes[k].n})
		}
	}
	b.mixBuf = m
	slices.SortFunc(m, func(x, y beliefCount) int { return int(x.belief) - int(y.belief) })
	return m
}

// mix registers the records-weighted mix of beliefs (by belief): the
// sum, belief by belief, of each value's probability times the belief's
// records, over the records with a belief.
func (b *Builder) mix(m []beliefCount) int32 {
	if len(m) == 1 {
		return m[0].belief
	}
	if b.scratch == nil {
		b.scratch = make([]float64, len(b.v.SAValues))
	}
	var n float64
	b.touched = b.touched[:0]
	for _, bc := range m {
		if bc.belief < 0 {
			continue
		}
		bl := b.v.Beliefs[bc.belief]
		for k, i := range bl.Values {
			if b.scratch[i] == 0 {
				b.touched = append(b.touched, i)
			}
			b.scratch[i] += bl.P[k] * float64(bc.n)
		}
		n += float64(bc.n)
	}
	slices.Sort(b.touched)
	touched := slices.Compact(b.touched)
	out := b.start()
	for _, i := range touched {
		x := b.scratch[i] / math.Max(1, n)
		b.scratch[i] = 0
		if x != 0 {
			out.Values = append(out.Values, i)
			out.P = append(out.P, x)
		}
	}
	return b.register(*out)
}

// CellKey joins a region's cells for display ("17-30 | Male").
func (v *View) CellKey(r Region) string {
	if v.Cells == nil {
		return ""
	}
	parts := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		parts[i] = v.Cells[i][c]
	}
	return strings.Join(parts, " | ")
}

// NumericLoss is the share of a numeric domain [lo, hi] a range [a, b]
// covers (NCP of one cell, Xu et al. as used by Sacharidis et al.,
// Section 2.1).
func NumericLoss(a, b, lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	return math.Min(1, math.Max(0, (b-a)/(hi-lo)))
}

// SetLoss is the share of a categorical domain of size n that a cell
// covering k values loses: (k-1)/(n-1).
func SetLoss(k, n int) float64 {
	if n <= 1 || k <= 1 {
		return 0
	}
	return math.Min(1, float64(k-1)/float64(n-1))
}

// Ordered lists a sensitive column's distinct values in the view's order
// (numbers by value, text alphabetically) with each value's position: the
// SAValues of a view.
func Ordered(dict []string, numeric bool) ([]string, map[string]int) {
	values := append([]string(nil), dict...)
	if numeric {
		num := func(s string) float64 { x, _ := model.ParseNumber(s); return x }
		sort.SliceStable(values, func(i, j int) bool { return num(values[i]) < num(values[j]) })
	} else {
		sort.Strings(values)
	}
	pos := make(map[string]int, len(values))
	for i, v := range values {
		pos[v] = i
	}
	return values, pos
}
