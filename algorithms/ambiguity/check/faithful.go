package check

import (
	"encoding/binary"

	"privlab/algorithms/verify"
	"privlab/model"
)

// Membership without the audit record. Which group holds a record only
// the audit record says; without it a maximum flow decides whether some
// assignment of original records to groups is consistent with the
// files: every group receives, for each sensitive value st.csv lists,
// exactly its frequency of records with that value, each covered by the
// group (each of its QI values in the group's at_<qi>.csv; Lemma 5.1),
// no record twice. The network is over distinct value combinations (a QI
// tuple with its sensitive value, and its count of records), not rows,
// and splits into one network per sensitive value. Its edges are not
// stored: a group's tuples are its auxiliary tables' value combinations,
// enumerated and looked up when needed (box), so that memory stays that
// of the files (see matcher).

// tuples are the original records a group could hold, grouped by their
// QI value codes and sensitive value code (in the files' dictionaries),
// with their rows; records with a value no table holds are left out.
type tuples struct {
	codes [][]uint32 // QI codes, then the sensitive code last
	rows  [][]int
	// bySA lists the tuples of each sensitive code.
	bySA map[uint32][]int32
}

func originalTuples(rl *release, o *verify.Original) *tuples {
	tabs := append(append([]*table(nil), rl.at...), rl.st)
	cols := append(append([]*model.Column(nil), o.QIs...), o.SA)
	code := make([][]int32, len(tabs)) // per column, per original code
	radix := make([]uint64, len(tabs))
	for ti, tb := range tabs {
		code[ti] = tableCodes(tb, cols[ti], o)
		radix[ti] = uint64(len(tb.value.Dict))
	}
	ts := &tuples{bySA: map[uint32][]int32{}}
	ids := verify.NewTupleKeys(radix)
	codes := make([]uint32, len(tabs))
row:
	for r, kept := range o.Kept {
		if !kept {
			continue
		}
		for ti, c := range cols {
			tc := code[ti][verify.Code(c, r)]
			if tc < 0 {
				continue row
			}
			codes[ti] = uint32(tc)
		}
		i := int(ids.ID(codes))
		if i == len(ts.codes) {
			ts.codes = append(ts.codes, append([]uint32(nil), codes...))
			ts.rows = append(ts.rows, nil)
			ts.bySA[codes[len(codes)-1]] = append(ts.bySA[codes[len(codes)-1]], int32(i))
		}
		ts.rows[i] = append(ts.rows[i], r)
	}
	return ts
}

// keyIndex finds the entry of a combination of codes: the codes as a
// mixed-radix number (a dense table when the key space is small, a map
// otherwise), or as bytes when the number would not fit in 64 bits. A
// key space of at most hasKeys keys also has a bitset of the keys held
// (has), which a cache holds where the table or the map would miss: most
// combinations of a group's values are no entry.
type keyIndex struct {
	mult   []uint64 // per code position: the product of the radices before it
	dense  []int32  // entry + 1 by key
	sparse map[uint64]int32
	wide   map[string]int32
	space  uint64
	has    []uint64 // bit key set: an entry has the key
}

// denseKeys bounds the dense table, hasKeys the bitset.
const (
	denseKeys = 1 << 22
	hasKeys   = 1 << 25
)

// newKeyIndex indexes keys (entry i is keys[i]), the codes of position p
// being below radix[p].
func newKeyIndex(radix []int, keys [][]uint32) *keyIndex {
	return newKeyIndexBy(radix, keys, denseKeys, hasKeys)
}

// newKeyIndexBy is newKeyIndex with a dense table of at most dense keys
// and a bitset of at most has keys.
func newKeyIndexBy(radix []int, keys [][]uint32, dense, has uint64) *keyIndex {
	ix := &keyIndex{}
	space := uint64(1)
	for _, r := range radix {
		r := uint64(max(r, 1))
		ix.mult = append(ix.mult, space)
		if space > (1<<62)/r {
			ix.mult, ix.wide = nil, map[string]int32{}
			break
		}
		space *= r
	}
	switch {
	case ix.wide != nil:
	case space <= dense:
		ix.dense = make([]int32, space)
	default:
		ix.sparse = make(map[uint64]int32, len(keys))
	}
	if ix.wide == nil && space <= has {
		ix.space, ix.has = space, make([]uint64, (space+63)/64)
	}
	for i, c := range keys {
		switch {
		case ix.dense != nil:
			ix.dense[ix.key(c)] = int32(i) + 1
		case ix.sparse != nil:
			ix.sparse[ix.key(c)] = int32(i) + 1
		default:
			ix.wide[wideKey(c)] = int32(i) + 1
		}
		if ix.has != nil {
			k := ix.key(c)
			ix.has[k/64] |= 1 << (k % 64)
		}
	}
	return ix
}

// find returns the entry of the codes, or -1.
func (ix *keyIndex) find(codes []uint32) int32 {
	switch {
	case ix.dense != nil:
		return ix.dense[ix.key(codes)] - 1
	case ix.sparse != nil:
		return ix.sparse[ix.key(codes)] - 1
	}
	return ix.wide[wideKey(codes)] - 1
}

// entry is the entry of a key (not for a wide index), or -1; the bitset
// answers for a key no entry has.
func (ix *keyIndex) entry(key uint64) int32 {
	if key < ix.space && ix.has[key/64]&(1<<(key%64)) == 0 {
		return -1
	}
	if ix.dense != nil {
		return ix.dense[key] - 1
	}
	return ix.sparse[key] - 1
}

// eachFound calls fn with the entry of every combination of vals from
// position i on that the index holds, key holding the positions before
// (the keys summed as they are enumerated; not for a wide index).
func (ix *keyIndex) eachFound(vals [][]uint32, i int, key uint64, fn func(j int32)) {
	if i == len(vals) {
		if j := ix.entry(key); j >= 0 {
			fn(j)
		}
		return
	}
	m := ix.mult[i]
	if i == len(vals)-1 { // the last position: its keys looked up here
		for _, c := range vals[i] {
			if j := ix.entry(key + uint64(c)*m); j >= 0 {
				fn(j)
			}
		}
		return
	}
	for _, c := range vals[i] {
		ix.eachFound(vals, i+1, key+uint64(c)*m, fn)
	}
}

func (ix *keyIndex) key(codes []uint32) uint64 {
	k := uint64(0)
	for i, c := range codes {
		k += uint64(c) * ix.mult[i]
	}
	return k
}

func wideKey(codes []uint32) string {
	b := make([]byte, 0, 4*len(codes))
	for _, c := range codes {
		b = binary.LittleEndian.AppendUint32(b, c)
	}
	return string(b)
}

// radices are the dictionary sizes of the auxiliary tables (then of
// st.csv, with sa).
func radices(rl *release, sa bool) []int {
	var out []int
	for _, at := range rl.at {
		out = append(out, len(at.value.Dict))
	}
	if sa {
		out = append(out, len(rl.st.value.Dict))
	}
	return out
}

// enumBudget bounds the QI combinations of one group that are enumerated
// and looked up; a group with more is matched by a scan instead.
const enumBudget = 1 << 14

// groupValues holds, per group and QI, the value codes of its auxiliary
// tables: the group covers every combination of them (Lemma 5.1).
type groupValues [][][]uint32

func newGroupValues(rl *release) groupValues {
	gc := newGroupCodes(rl)
	k := len(rl.at)
	gv := make(groupValues, rl.groups)
	lists := make([][]uint32, rl.groups*k) // carved: one allocation per QI, not per group
	for g := range gv {
		gv[g] = lists[g*k : (g+1)*k : (g+1)*k]
		gc.fill(int32(g), gv[g])
	}
	return gv
}

// groupCodes is groupValues without a list per group and QI: group g's
// codes of QI i are codes[i][start[i][g]:start[i][g+1]] (fill lists them).
type groupCodes struct {
	start [][]int32
	codes [][]uint32
}

func newGroupCodes(rl *release) groupCodes {
	gc := groupCodes{start: make([][]int32, len(rl.at)), codes: make([][]uint32, len(rl.at))}
	for i, at := range rl.at {
		gc.start[i], gc.codes[i] = at.start, at.codes // in the file's order
	}
	return gc
}

// fill sets vals[i] to group g's codes of QI i (nil: none).
func (gc groupCodes) fill(g int32, vals [][]uint32) {
	for i, start := range gc.start {
		vals[i] = nil
		if lo, hi := start[g], start[g+1]; lo < hi {
			vals[i] = gc.codes[i][lo:hi:hi]
		}
	}
}

// size is the number of combinations of group g (capped just above
// enumBudget).
func (gv groupValues) size(g int32) int {
	p := 1
	for _, v := range gv[g] {
		if p *= len(v); p > enumBudget {
			return p
		}
	}
	return p
}

// combos writes every combination of group g's values into the first
// positions of codes and calls fn with each, until fn returns false.
func (gv groupValues) combos(g int32, codes []uint32, fn func() bool) {
	vals := gv[g]
	var walk func(i int) bool
	walk = func(i int) bool {
		if i == len(vals) {
			return fn()
		}
		for _, c := range vals[i] {
			codes[i] = c
			if !walk(i + 1) {
				return false
			}
		}
		return true
	}
	walk(0)
}

// covers reports whether group g covers the QI codes.
func (gv groupValues) covers(g int32, tuple []uint32) bool {
	for i, c := range tuple {
		found := false
		for _, v := range gv[g][i] {
			found = found || v == c
		}
		if !found {
			return false
		}
	}
	return true
}

// boxes enumerates the tuples (QI values and sensitive value) a group
// covers: its combinations looked up in the tuples' index (their keys
// summed as they are enumerated), or a scan of the tuples for a group
// with more than enumBudget combinations.
type boxes struct {
	k     int
	gv    groupValues
	sizes []int
	ix    *keyIndex
	ts    *tuples
}

func newBoxes(rl *release, ts *tuples) *boxes {
	b := &boxes{k: len(rl.at), gv: newGroupValues(rl), ix: newKeyIndex(radices(rl, true), ts.codes), ts: ts}
	b.sizes = make([]int, rl.groups)
	for g := range b.sizes {
		b.sizes[g] = b.gv.size(int32(g))
	}
	return b
}

// each calls fn with every tuple of sensitive code sa that group g
// covers, until fn returns false.
func (b *boxes) each(g int32, sa uint32, fn func(t int32) bool) {
	switch {
	case b.sizes[g] > enumBudget:
		for _, t := range b.ts.bySA[sa] {
			if b.gv.covers(g, b.ts.codes[t][:b.k]) && !fn(t) {
				return
			}
		}
	case b.ix.wide != nil:
		codes := make([]uint32, b.k+1)
		codes[b.k] = sa
		b.gv.combos(g, codes, func() bool {
			if t := b.ix.find(codes); t >= 0 {
				return fn(t)
			}
			return true
		})
	default:
		b.walk(b.gv[g], 0, uint64(sa)*b.ix.mult[b.k], fn)
	}
}

// walk enumerates the keys of the combinations of vals from position i
// on, key holding the positions before.
func (b *boxes) walk(vals [][]uint32, i int, key uint64, fn func(t int32) bool) bool {
	if i == len(vals) {
		t := b.ix.entry(key)
		return t < 0 || fn(t)
	}
	m := b.ix.mult[i]
	for _, c := range vals[i] {
		if !b.walk(vals, i+1, key+uint64(c)*m, fn) {
			return false
		}
	}
	return true
}

// value is one row of an auxiliary table: its QI, group and value code.
type value struct {
	qi    int
	group int32
	code  uint32
}

// impossible counts, of values no member has in the assignment found,
// those that no original record the group could hold has either (covered
// by it, with a sensitive value it lists): fabricated whatever the
// assignment.
func impossible(rl *release, b *boxes, fabricated []value) int {
	sas := make([][]uint32, rl.groups) // per group: its sensitive codes
	for row := 0; row < rl.st.t.Rows; row++ {
		g := rl.st.group[row]
		sas[g] = append(sas[g], rl.st.value.Codes[row])
	}
	n := 0
	for _, v := range fabricated {
		if v.group < 0 || !b.held(v, sas[v.group]) {
			n++
		}
	}
	return n
}

// held reports whether a tuple the group covers, of one of its sensitive
// codes, has the value: the group's combinations with that value fixed.
func (b *boxes) held(v value, sas []uint32) bool {
	g := v.group
	vals := b.gv[g][v.qi]
	b.gv[g][v.qi] = []uint32{v.code}
	defer func() { b.gv[g][v.qi] = vals }()
	found := false
	for _, sa := range sas {
		b.each(g, sa, func(int32) bool {
			found = true
			return false
		})
		if found {
			return true
		}
	}
	return false
}
