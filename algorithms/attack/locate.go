package attack

import (
	"encoding/binary"
	"errors"
	"fmt"
	bits2 "math/bits"
	"runtime"
	"sort"
	"strings"
	"sync"

	"privlab/algorithms/risk"
	"privlab/model"
)

// placed is a table of people placed among a view's regions: its rows
// grouped into distinct quasi-identifier tuples (people with the same
// values are placed alike), and each tuple's candidate regions, the
// regions whose cells cover every one of its values. Covers are computed
// once per QI and distinct value, and each tuple's candidates by
// intersecting per-QI posting lists (cell -> regions), starting from the
// QI with the fewest: never people times regions.
type placed struct {
	table *model.Table
	what  string // "population" or "original"
	// rowsOf names the table its rows are numbered in ("": what's).
	rowsOf string
	cols   []*model.Column
	// tupleOf gives each row's tuple; count and first each tuple's people
	// and its first row; codes its value codes (model.Missing: missing),
	// tuple t's at codes[t*len(cols):], one slice for all.
	tupleOf []int32
	count   []int32
	first   []int32
	codes   []uint32
	// covers[i][code] are the cells of QI i covering a value code (the
	// last entry: a missing value, read as "?").
	covers [][][]uint32
	// start and regions list each tuple's candidate regions (sorted):
	// regions[start[t]:start[t+1]].
	start   []int32
	regions []int32
}

// candidates are tuple t's candidate regions.
func (p *placed) candidates(t int) []int32 { return p.regions[p.start[t]:p.start[t+1]] }

// cover is the cells of QI i that cover tuple t's value.
func (p *placed) cover(t, i int) []uint32 {
	c := p.codes[int(t)*len(p.cols)+i]
	if c == model.Missing {
		c = uint32(len(p.cols[i].Dict))
	}
	return p.covers[i][c]
}

// place places the rows of t (which must have the view's QI columns)
// among the view's regions.
func place(t *model.Table, what string, v *risk.View, e *risk.Exposure) (*placed, error) {
	cols, err := t.MustColumns(what, v.QIs)
	if err != nil {
		return nil, withColumnsFix(err, t, what)
	}
	p := &placed{table: t, what: what, cols: cols, tupleOf: make([]int32, t.Rows), covers: make([][][]uint32, len(cols))}
	for i, c := range cols {
		raw := append(append(make([]string, 0, len(c.Dict)+1), c.Dict...), "?")
		p.covers[i] = e.Cover[i](raw)
	}
	p.group()
	p.locate(v, e)
	return p, nil
}

// group finds the distinct tuples, numbered in the order they first
// appear.
func (p *placed) group() {
	if span, ok := p.radix(); ok {
		p.groupBy(span)
		return
	}
	index := map[string]int32{}
	key := make([]byte, 4*len(p.cols))
	for row := range p.tupleOf {
		for i, c := range p.cols {
			binary.LittleEndian.PutUint32(key[4*i:], c.Codes[row])
		}
		t, ok := index[string(key)]
		if !ok {
			t = p.newTuple(row)
			index[string(key)] = t
		}
		p.count[t]++
		p.tupleOf[row] = t
	}
}

// newTuple numbers the tuple of row.
func (p *placed) newTuple(row int) int32 {
	t := int32(len(p.count))
	p.count = append(p.count, 0)
	p.first = append(p.first, int32(row))
	for _, c := range p.cols {
		p.codes = append(p.codes, c.Codes[row])
	}
	return t
}

// radix is the number of possible tuples when a tuple's codes fit one
// integer (each column's codes and the missing value, in mixed radix).
func (p *placed) radix() (uint64, bool) {
	span := uint64(1)
	for _, c := range p.cols {
		n := uint64(len(c.Dict)) + 1
		if span > (1<<62)/n {
			return 0, false
		}
		span *= n
	}
	return span, true
}

// groupBy is group with a tuple's codes as one integer: a slice over
// every possible tuple when there are few, else a map.
func (p *placed) groupBy(span uint64) {
	var dense []int32 // tuple + 1
	var index map[uint64]int32
	if span <= uint64(4*len(p.tupleOf)+1024) {
		dense = make([]int32, span)
	} else {
		index = map[uint64]int32{}
	}
	for row := range p.tupleOf {
		key := uint64(0)
		for _, c := range p.cols {
			code := uint64(c.Codes[row])
			if code >= uint64(len(c.Dict)) {
				code = uint64(len(c.Dict)) // the missing value
			}
			key = key*(uint64(len(c.Dict))+1) + code
		}
		var t int32
		if dense != nil {
			if t = dense[key] - 1; t < 0 {
				t = p.newTuple(row)
				dense[key] = t + 1
			}
		} else {
			var ok bool
			if t, ok = index[key]; !ok {
				t = p.newTuple(row)
				index[key] = t
			}
		}
		p.count[t]++
		p.tupleOf[row] = t
	}
}

// locate fills every tuple's candidate regions.
func (p *placed) locate(v *risk.View, e *risk.Exposure) {
	labels := e.Labels(v)
	if tryExact && p.exact(v, e) || tryEnumerate && p.enumerate(v, e, labels) {
		return
	}
	post := make([][][]int32, len(p.cols))
	for i := range post {
		post[i] = make([][]int32, len(labels[i]))
	}
	for r := range v.Regions {
		for i := range post {
			for _, c := range e.RegionCells(v, r, i) {
				if int(c) < len(post[i]) {
					post[i][c] = append(post[i][c], int32(r))
				}
			}
		}
	}
	if p.bitsets(v, e, post) {
		return
	}
	s := &scratch{region: fill(len(v.Regions)), cell: make([][]int32, len(p.cols))}
	for i := range s.cell {
		s.cell[i] = fill(len(labels[i]))
	}
	p.start = make([]int32, 1, len(p.count)+1)
	for t := range p.count {
		p.regions = p.appendCandidates(p.regions, t, v, e, post, s)
		p.start = append(p.start, int32(len(p.regions)))
	}
}

// tryExact lets exact place a release it can (the tests switch it off to
// compare the other ways with a brute force).
var tryExact = true

// exact places the tuples by looking their cells up when every value is
// published as one cell and every region has one cell per QI (the exact
// quasi-identifiers of distribution and lossyjoin): the candidates are
// the region of the tuple's cells. False (and nothing done) otherwise.
func (p *placed) exact(v *risk.View, e *risk.Exposure) bool {
	if e.Sets != nil {
		return false
	}
	for i := range p.covers {
		for _, c := range p.covers[i] {
			if len(c) > 1 {
				return false
			}
		}
	}
	index := make(map[string]int32, len(v.Regions))
	key := make([]byte, 4*len(p.cols))
	for r, reg := range v.Regions {
		for i, c := range reg.Cells {
			binary.LittleEndian.PutUint32(key[4*i:], c)
		}
		if _, dup := index[string(key)]; !dup {
			index[string(key)] = int32(r)
		}
	}
	if len(index) != len(v.Regions) {
		return false // two regions with the same cells: not a partition
	}
	p.start = make([]int32, 1, len(p.count)+1)
	for t := range p.count {
		found := true
		for i := range p.cols {
			c := p.cover(t, i)
			if len(c) == 0 {
				found = false
				break
			}
			binary.LittleEndian.PutUint32(key[4*i:], c[0])
		}
		if r, ok := index[string(key)]; ok && found {
			p.regions = append(p.regions, r)
		}
		p.start = append(p.start, int32(len(p.regions)))
	}
	return true
}

// tryEnumerate lets enumerate place a release it can (the tests switch
// it off to compare the other ways with a brute force).
var tryEnumerate = true

// enumerate places the tuples from the regions' side when regions list
// several cells per QI (e.Sets: ambiguity's groups, a few values each):
// region r covers exactly the tuples whose value on every QI is one its
// cells cover, the product of those value lists, each looked up among
// the distinct tuples. The work is the sum of the products over the
// regions; false (and nothing done) when it exceeds the bitsets' tuples
// x words, or the tuples' codes do not fit a 64-bit key.
func (p *placed) enumerate(v *risk.View, e *risk.Exposure, labels [][]string) bool {
	if e.Sets == nil {
		return false
	}
	raw := make([][][]int32, len(p.cols)) // per QI and cell: the value codes it covers
	for i := range raw {
		raw[i] = make([][]int32, len(labels[i]))
		for x, cov := range p.covers[i] {
			for _, c := range cov {
				if int(c) < len(raw[i]) {
					raw[i][c] = append(raw[i][c], int32(x))
				}
			}
		}
	}
	index, shift, ok := p.tupleKeys()
	if !ok || !p.enumerable(v, e, raw) {
		return false
	}
	// The tuples each region covers, region after region, found in
	// parts of the regions at once on every core (a part's regions end
	// at its end[r]), in chunks: no copy as they grow.
	parts := make([]regionPart, partsOf(len(v.Regions)))
	inParts(len(v.Regions), func(i, lo, hi int) {
		pt := &parts[i]
		pt.lo, pt.end = lo, make([]int, 0, hi-lo)
		values := make([][]int32, len(p.cols))
		mark := make([][]int32, len(p.cols)) // region+1 that listed the value
		for i := range mark {
			mark[i] = make([]int32, len(p.covers[i]))
		}
		var keys, spare []uint64
		for r := lo; r < hi; r++ {
			if p.regionValues(e, r, raw, values, mark) {
				keys, spare = appendKeys(keys[:0], spare, values, shift)
				index.findAll(keys, &pt.found)
			}
			pt.end = append(pt.end, pt.found.n)
		}
	})
	p.byTuple(parts)
	return true
}

// regionPart is the tuples found for the regions from lo on: region
// lo+j's end at end[j] in found.
type regionPart struct {
	lo    int
	found chunks
	end   []int
}

// partItems is the fewest items (regions, tuples) worth a part of their
// own, and maxParts the most parts (the tests change both to split tiny
// releases).
var (
	partItems = 1 << 14
	maxParts  = func() int { return runtime.GOMAXPROCS(0) }
)

// partsOf is how many parts inParts cuts n items into: one per core, one
// when there are few.
func partsOf(n int) int { return max(1, min(maxParts(), n/partItems)) }

// inParts calls fn(i, lo, hi) on the parts of the items 0..n-1 at once,
// part i holding lo..hi-1, and waits for them.
func inParts(n int, fn func(i, lo, hi int)) {
	k := partsOf(n)
	atOnce(k, func(i int) { fn(i, n*i/k, n*(i+1)/k) })
}

// atOnce calls fn(0..k-1) at once and waits for them; a panic in one is
// raised again here (where the command's recover turns it into an
// internal error), never as a crash of the process.
func atOnce(k int, fn func(i int)) {
	var wg sync.WaitGroup
	panics := make([]any, k)
	for i := 1; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			fn(i)
		}()
	}
	if k > 0 {
		fn(0)
	}
	wg.Wait()
	for _, v := range panics {
		if v != nil {
			panic(v)
		}
	}
}

// regionValues lists in values[i] the value codes region r's cells of
// QI i cover, each once; false when a QI has none.
func (p *placed) regionValues(e *risk.Exposure, r int, raw [][][]int32, values, mark [][]int32) bool {
	for i := range p.cols {
		values[i] = values[i][:0]
		for _, c := range e.Sets[r][i] {
			if int(c) >= len(raw[i]) {
				continue
			}
			for _, x := range raw[i][c] {
				if mark[i][x] != int32(r+1) {
					mark[i][x] = int32(r + 1)
					values[i] = append(values[i], x)
				}
			}
		}
		if len(values[i]) == 0 {
			return false
		}
	}
	return true
}

// chunks is a list of int32 grown a chunk at a time.
type chunks struct {
	list [][]int32
	n    int
}

const chunkSize = 1 << 16

func (c *chunks) add(x int32) {
	if c.n%chunkSize == 0 {
		c.list = append(c.list, make([]int32, 0, chunkSize))
	}
	last := &c.list[len(c.list)-1]
	*last = append(*last, x)
	c.n++
}

func (c *chunks) at(k int) int32 { return c.list[k/chunkSize][k%chunkSize] }

// enumerable reports whether enumerate's products add up to no more than
// the bitsets' work.
func (p *placed) enumerable(v *risk.View, e *risk.Exposure, raw [][][]int32) bool {
	limit := len(p.count)*((len(v.Regions)+63)/64) + len(v.Regions)
	work := 0
	for r := range v.Regions {
		prod := 1
		for i := range p.cols {
			n := 0
			for _, c := range e.Sets[r][i] {
				if int(c) < len(raw[i]) {
					n += len(raw[i][c])
				}
			}
			if prod = min(prod*n, limit+1); prod == 0 {
				break
			}
		}
		if work += prod; work > limit {
			return false
		}
	}
	return true
}

// tupleKeys indexes the distinct tuples by their value codes (the
// missing value's len(Dict)) packed into 64 bits at the given shifts;
// false when they do not fit.
func (p *placed) tupleKeys() (*keyTable, []uint, bool) {
	shift := make([]uint, len(p.cols))
	at := uint(0)
	for i, c := range p.cols {
		shift[i] = at
		at += uint(bits2.Len(uint(len(c.Dict))))
	}
	if at > 64 {
		return nil, nil, false
	}
	index := newKeyTable(len(p.count))
	for t := range p.count {
		key := uint64(0)
		for i := range p.cols {
			c := p.codes[int(t)*len(p.cols)+i]
			if c == model.Missing {
				c = uint32(len(p.cols[i].Dict))
			}
			key |= uint64(c) << shift[i]
		}
		index.put(key, int32(t))
	}
	return index, shift, true
}

// keyTable maps the distinct tuples' keys to the tuples: open addressing
// with linear probing, at most a quarter full (enumerate looks up many
// keys no tuple has: a miss ends at the first empty slot). A slot holds
// its key and tuple side by side: one cache line per probe.
type keyTable struct {
	slots []keySlot
	shift uint
}

type keySlot struct {
	key uint64
	t   int32 // -1: empty
}

func newKeyTable(n int) *keyTable {
	bits := uint(bits2.Len(uint(4*n + 4)))
	x := &keyTable{slots: make([]keySlot, 1<<bits), shift: 64 - bits}
	for i := range x.slots {
		x.slots[i].t = -1
	}
	return x
}

func (x *keyTable) slot(key uint64) uint64 { return (key * 0x9E3779B97F4A7C15) >> x.shift }

// put sets key's tuple (a key put twice keeps the last).
func (x *keyTable) put(key uint64, t int32) {
	mask := uint64(len(x.slots) - 1)
	i := x.slot(key)
	for x.slots[i].t >= 0 && x.slots[i].key != key {
		i = (i + 1) & mask
	}
	x.slots[i] = keySlot{key, t}
}

// find is key's tuple (-1: none).
func (x *keyTable) find(key uint64) int32 {
	mask := uint64(len(x.slots) - 1)
	for i := x.slot(key); ; i = (i + 1) & mask {
		if s := x.slots[i]; s.t < 0 || s.key == key {
			return s.t
		}
	}
}

// findBlock is how many keys findAll reads the first slots of at once.
const findBlock = 16

// findAll adds to found the tuple of each key that has one, in the keys'
// order. The first slot of a block of keys is read in a loop of its own,
// whose loads do not wait for one another (the table is larger than the
// caches and a region's keys land anywhere in it); a key whose first slot
// is neither empty nor its own probes on as find does.
func (x *keyTable) findAll(keys []uint64, found *chunks) {
	var first [findBlock]keySlot
	for len(keys) > 0 {
		block := keys[:min(findBlock, len(keys))]
		keys = keys[len(block):]
		for j, key := range block {
			first[j] = x.slots[x.slot(key)]
		}
		for j, key := range block {
			t := first[j].t
			if t >= 0 && first[j].key != key {
				t = x.find(key)
			}
			if t >= 0 {
				found.add(t)
			}
		}
	}
}

// appendKeys appends to keys the key of every combination of values (the
// first QI's value varying slowest), built QI after QI in keys and spare;
// it returns the two buffers, the keys first.
func appendKeys(keys, spare []uint64, values [][]int32, shift []uint) ([]uint64, []uint64) {
	keys = append(keys[:0], 0)
	for i, vs := range values {
		spare = spare[:0]
		for _, key := range keys {
			for _, x := range vs {
				spare = append(spare, key|uint64(x)<<shift[i])
			}
		}
		keys, spare = spare, keys
	}
	return keys, spare
}

// byTuple sets every tuple's candidates from the tuples found region
// after region (the parts in order): each part counts its tuples, then
// writes its regions after those of the parts before it, at once.
func (p *placed) byTuple(parts []regionPart) {
	counts := make([][]int32, len(parts))
	atOnce(len(parts), func(i int) {
		c, found := make([]int32, len(p.count)), &parts[i].found
		for k := 0; k < found.n; k++ {
			c[found.at(k)]++
		}
		counts[i] = c
	})
	p.start = make([]int32, len(p.count)+1)
	next := make([][]int32, len(parts)) // per part: where its next region of each tuple goes
	for i := range next {
		next[i] = make([]int32, len(p.count))
	}
	for t := range p.count {
		at := p.start[t]
		for i, c := range counts {
			next[i][t] = at
			at += c[t]
		}
		p.start[t+1] = at
	}
	p.regions = make([]int32, p.start[len(p.count)])
	atOnce(len(parts), func(i int) {
		pt, next := &parts[i], next[i]
		k := 0
		for j, e := range pt.end {
			for ; k < e; k++ {
				t := pt.found.at(k)
				p.regions[next[t]] = int32(pt.lo + j)
				next[t]++
			}
		}
	})
}

// bitsetBudget bounds the words of the per-value region bitsets (128 MB);
// a larger release is placed through the posting lists alone.
var bitsetBudget = 1 << 24

// bitsets places the tuples with one bitset of regions per QI and
// distinct value (the regions whose cells cover it): a tuple's candidates
// are the AND of its values' bitsets, read in region order. False (and
// nothing done) when the bitsets would exceed bitsetBudget words.
func (p *placed) bitsets(v *risk.View, e *risk.Exposure, post [][][]int32) bool {
	words := (len(v.Regions) + 63) / 64
	total := 0
	for i := range p.cols {
		total += (len(post[i]) + len(p.covers[i])) * words
	}
	if total > bitsetBudget {
		return false
	}
	byValue := make([][][]uint64, len(p.cols))
	for i := range p.cols {
		cell := make([][]uint64, len(post[i]))
		for c, regions := range post[i] {
			cell[c] = make([]uint64, words)
			for _, r := range regions {
				cell[c][r>>6] |= 1 << (uint(r) & 63)
			}
		}
		byValue[i] = make([][]uint64, len(p.covers[i]))
		for x, cov := range p.covers[i] {
			b := make([]uint64, words)
			for _, c := range cov {
				for w, bits := range cell[c] {
					b[w] |= bits
				}
			}
			byValue[i][x] = b
		}
	}
	acc := make([]uint64, words)
	p.start = make([]int32, 1, len(p.count)+1)
	for t := range p.count {
		p.regions = p.andCandidates(p.regions, t, byValue, acc)
		p.start = append(p.start, int32(len(p.regions)))
	}
	return true
}

// andCandidates appends the regions set in every one of tuple t's value
// bitsets, in order.
func (p *placed) andCandidates(out []int32, t int, byValue [][][]uint64, acc []uint64) []int32 {
	for i := range p.cols {
		c := p.codes[int(t)*len(p.cols)+i]
		if c == model.Missing {
			c = uint32(len(p.cols[i].Dict))
		}
		b := byValue[i][c]
		any := uint64(0)
		for w := range acc {
			if i == 0 {
				acc[w] = b[w]
			} else {
				acc[w] &= b[w]
			}
			any |= acc[w]
		}
		if any == 0 {
			return out
		}
	}
	for w, bits := range acc {
		for bits != 0 {
			out = append(out, int32(w<<6+bits2.TrailingZeros64(bits)))
			bits &= bits - 1
		}
	}
	return out
}

// scratch marks, for the tuple being placed, the regions already seen and
// the cells of each QI that cover its value.
type scratch struct {
	region []int32
	cell   [][]int32
}

func fill(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

// appendCandidates appends tuple t's candidate regions, sorted: those of
// the posting lists of the QI whose covering cells list the fewest
// regions, kept when their cells on every other QI cover the tuple.
func (p *placed) appendCandidates(out []int32, t int, v *risk.View, e *risk.Exposure, post [][][]int32, s *scratch) []int32 {
	best, size := -1, 0
	for i := range p.cols {
		n := 0
		for _, c := range p.cover(t, i) {
			n += len(post[i][c])
			s.cell[i][c] = int32(t)
		}
		if n == 0 {
			return out
		}
		if best < 0 || n < size {
			best, size = i, n
		}
	}
	from := len(out)
	for _, c := range p.cover(t, best) {
		for _, r := range post[best][c] {
			if s.region[r] == int32(t) {
				continue
			}
			s.region[r] = int32(t)
			if p.fits(t, int(r), best, v, e, s) {
				out = append(out, r)
			}
		}
	}
	cand := out[from:]
	sort.Slice(cand, func(a, b int) bool { return cand[a] < cand[b] })
	return out
}

// fits reports whether region r's cells cover tuple t on every QI but
// skip (the covering cells are marked in s).
func (p *placed) fits(t, r, skip int, v *risk.View, e *risk.Exposure, s *scratch) bool {
	for i := range p.cols {
		if i == skip {
			continue
		}
		if e.Sets == nil {
			if s.cell[i][v.Regions[r].Cells[i]] != int32(t) {
				return false
			}
			continue
		}
		hit := false
		for _, c := range e.Sets[r][i] {
			if s.cell[i][c] == int32(t) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// covered counts, per region, the people whose tuple it covers.
func (p *placed) covered(regions int) []int {
	m := make([]int, regions)
	for t := range p.count {
		for _, r := range p.candidates(t) {
			m[r] += int(p.count[t])
		}
	}
	return m
}

// withColumnsFix adds to a population's missing-column error the fix
// that names its columns: a file without a header row (UCI adult.data)
// is read with columns c1, c2, ..., which no release's QIs match.
func withColumnsFix(err error, t *model.Table, what string) error {
	var pe *model.ParamError
	if what != "population" || !errors.As(err, &pe) {
		return err
	}
	headerless := len(t.Columns) > 0
	for i, c := range t.Columns {
		headerless = headerless && c.Name == fmt.Sprintf("c%d", i+1)
	}
	if headerless && !strings.Contains(pe.Reason, "no header row") {
		pe.Reason += " (the file has no header row: its columns were read as c1, c2, ...)"
	}
	// The population's own columns flag, not the input's.
	pe.Fixes = []model.Fix{{Setting: model.SetPopulationCols, Why: "if the population file has no header row"}}
	return pe
}
