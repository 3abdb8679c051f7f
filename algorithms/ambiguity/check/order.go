package check

import (
	"privlab/algorithms/verify"
)

// rowSums are the input rows of some records, summed, and their number.
type rowSums struct {
	rows  float64
	count int
}

// coveredRecords are the input's distinct QI tuples some group's values
// cover (coveredTuples), with their records' input rows summed, and
// summed per sensitive value (st.csv's value codes).
type coveredRecords struct {
	keys  [][]uint32
	count []int
	sums  []float64
	bySA  []map[int32]*rowSums
}

func newCoveredRecords(rl *release, o *verify.Original) *coveredRecords {
	keys, count := coveredTuples(rl, o)
	cr := &coveredRecords{keys: keys, count: count, sums: make([]float64, len(keys)), bySA: make([]map[int32]*rowSums, len(keys))}
	ix := newKeyIndex(radices(rl, false), keys)
	code := make([][]int32, len(rl.at))
	for i, at := range rl.at {
		code[i] = tableCodes(at, o.QIs[i], o)
	}
	saCode := tableCodes(rl.st, o.SA, o)
	tuple := make([]uint32, len(rl.at))
rows:
	for row, kept := range o.Kept {
		if !kept {
			continue
		}
		for i, col := range o.QIs {
			c := code[i][verify.Code(col, row)]
			if c < 0 {
				continue rows
			}
			tuple[i] = uint32(c)
		}
		j := ix.find(tuple)
		if j < 0 {
			continue
		}
		cr.sums[j] += float64(row)
		s := saCode[verify.Code(o.SA, row)]
		if cr.bySA[j] == nil {
			cr.bySA[j] = map[int32]*rowSums{}
		}
		if cr.bySA[j][s] == nil {
			cr.bySA[j][s] = &rowSums{}
		}
		cr.bySA[j][s].rows += float64(row)
		cr.bySA[j][s].count++
	}
	return cr
}

// orderKeys gives every row of every table (the auxiliary tables, then
// st.csv) a key read from its content alone: the mean input row of the
// records its group covers (Lemma 5.1) that hold its value. A table in
// the input's order puts its keys close to that order, which a uniform
// shuffle does not (verify.OrderByKeys): without the audit record, which
// pins the members, the order is tested this way.
func orderKeys(rl *release, o *verify.Original) [][]float64 {
	cr := newCoveredRecords(rl, o)
	ix := newKeyIndex(radices(rl, false), cr.keys)
	gc := newGroupCodes(rl)
	k := len(rl.at)
	// at[i][g<<32|code] and st[g<<32|code]: the covered records' rows.
	at := make([]map[uint64]*rowSums, k)
	for i := range at {
		at[i] = map[uint64]*rowSums{}
	}
	st := map[uint64]*rowSums{}
	add := func(m map[uint64]*rowSums, key uint64, rows float64, count int) {
		if m[key] == nil {
			m[key] = &rowSums{}
		}
		m[key].rows += rows
		m[key].count += count
	}
	cb := newCoveredBy(k)
	for lo := 0; lo < rl.groups; lo += acrossBlock {
		cb.find(gc, ix, cr.keys, lo, min(lo+acrossBlock, rl.groups))
		start := int32(0)
		for x, end := range cb.end {
			g := uint64(cb.lo+x) << 32
			for _, j := range cb.found[start:end] {
				for i, c := range cr.keys[j] {
					add(at[i], g|uint64(c), cr.sums[j], cr.count[j])
				}
				for s, sums := range cr.bySA[j] {
					if s >= 0 {
						add(st, g|uint64(uint32(s)), sums.rows, sums.count)
					}
				}
			}
			start = end
		}
	}
	tabs := append(append([]*table(nil), rl.at...), rl.st)
	sums := append(at, st)
	keys := make([][]float64, len(tabs))
	for ti, tb := range tabs {
		keys[ti] = make([]float64, tb.t.Rows)
		for row := range keys[ti] {
			g := tb.groupOf(row)
			if g < 0 {
				continue
			}
			if s := sums[ti][uint64(g)<<32|uint64(uint32(verify.Code(tb.value, row)))]; s != nil && s.count > 0 {
				keys[ti][row] = s.rows / float64(s.count)
			}
		}
	}
	return keys
}
