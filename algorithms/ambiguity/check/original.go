package check

import (
	"fmt"
	"math"

	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// original is the release held to the original: which records a group
// holds comes from the audit record's group map, or, when there is none,
// from maximum flows that find an assignment consistent with the files
// (membersByFlow); then every published record must be covered by its
// group, each group's tables must hold exactly its members' values, and
// the frequencies must be its members' sensitive values.
type original struct {
	o       *verify.Original
	members [][]int
	// audit is the audit record's line (nil: no group map); stop says
	// the comparison stops after it, or after the flow's line.
	audit  *verify.Line
	stop   bool
	byFlow bool
	placed int
	flows  *flows
	// Per table (the auxiliary tables, then st.csv): its held values.
	held []heldValues
}

// heldValues is one table against the members (againstMembers).
type heldValues struct {
	uncovered, freqOff int
	fabricated         []value
	// first is the smallest input row behind each table row (the
	// shuffle check reads it), when the members are the audit record's.
	first []int32
}

// originalRows is the original as the release would publish it, read
// once: the figures across groups (claims) need it, not the comparison
// (originalOf), and go on while another check compares.
func (c *ctx) originalRows() (*verify.Original, error) {
	return c.orig.Get(func() (*verify.Original, error) { return verify.NewOriginal(c.opt.Original, c.m) })
}

// originalOf compares the release with the original once.
func (c *ctx) originalOf() (*original, error) {
	return c.original.Get(func() (*original, error) {
		o, err := c.originalRows()
		if err != nil {
			return nil, err
		}
		f := &original{o: o}
		published := c.figuresOf().published
		f.members, f.audit = membersFromAudit(c.rl, o, c.opt.Audit, published)
		if f.stop = f.audit != nil && !f.audit.OK; f.stop {
			return f, nil
		}
		if f.byFlow = f.members == nil; f.byFlow {
			f.members, f.placed, f.flows = membersByFlow(c.rl, o)
			if f.stop = f.placed < published; f.stop {
				return f, nil
			}
		}
		tabs := append(append([]*table(nil), c.rl.at...), c.rl.st)
		place := memberPlaces(f.members, o.Table.Rows)
		for ti, tb := range tabs {
			f.held = append(f.held, againstMembers(tb, ti, tb == c.rl.st, f.members, place, o, c.rl, !f.byFlow))
		}
		return f, nil
	})
}

// compared is the comparison when it went through (nil otherwise).
func (c *ctx) compared() *original {
	f, err := c.originalOf()
	if err != nil || f.stop {
		return nil
	}
	return f
}

// rowsSuppressed: the records not published are the original's others.
func rowsSuppressed(c *ctx, r *verify.Report) error {
	r.Claim("rows_suppressed", float64(c.m.Suppressed), float64(c.opt.Original.Rows-c.figuresOf().published))
	return nil
}

// auditMembers: the audit record's group map gives every group as many
// distinct published input records as st.csv says.
func auditMembers(c *ctx, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil {
		return err
	}
	if f.audit != nil {
		r.Lines = append(r.Lines, *f.audit)
	}
	return nil
}

// faithful: without the audit record, distinct original records can be
// assigned to the groups so that each holds exactly its st.csv
// frequencies of records it covers (Lemma 5.1).
func faithful(c *ctx, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil || !f.byFlow || f.audit != nil && !f.audit.OK {
		return nil
	}
	if published := c.figuresOf().published; f.placed < published {
		r.Add(false, "faithful", "no assignment of distinct original records to the groups gives each group its st.csv frequencies of records it covers (Lemma 5.1): at most %d of the %d published records (maximum flow, without the audit record)", f.placed, published)
		return nil
	}
	r.Add(true, "faithful", "distinct original records can be assigned to the groups so that each group holds exactly its st.csv frequencies of records it covers (Lemma 5.1; maximum flow over value combinations, without the audit record, which alone says which group holds whom)")
	return nil
}

// shuffled: with the audit record, no table's rows are in the input's
// order; without it, no table's rows follow it by a key read from their
// content alone (orderKeys).
func shuffled(c *ctx, r *verify.Report) error {
	f := c.compared()
	if f == nil {
		return nil
	}
	tabs := append(append([]*table(nil), c.rl.at...), c.rl.st)
	if f.byFlow {
		for ti, keys := range orderKeys(c.rl, f.o) {
			verify.OrderByKeys(tabs[ti].file, keys, r)
		}
		return nil
	}
	for ti, h := range f.held {
		if h.first != nil {
			verify.Shuffled(tabs[ti].file, h.first, c.rl.groups, r)
		}
	}
	return nil
}

// coverage: every published record is covered by the group that holds
// it: each of its values is in that group's tables (Lemma 5.1).
func coverage(c *ctx, r *verify.Report) error {
	if f := c.compared(); f != nil {
		uncovered := 0
		for _, h := range f.held {
			uncovered += h.uncovered
		}
		r.Add(uncovered == 0, "coverage", "every one of the %d published records is covered by the group that holds it: each of its values is in that group's tables (Lemma 5.1; %d values missing)",
			c.figuresOf().published, uncovered)
	}
	return nil
}

// values: every published value is a value of a member of its group.
// With the audit record the members are known. Without it the flow's
// assignment is one of possibly many: a value none of its members has
// fails when no record the group could hold has it, or when no faithful
// assignment gives the group a member holding it (Wang, Algorithm 2: a
// group's tables are its members' values; possible); which member holds
// it stays unsettled.
func values(c *ctx, r *verify.Report) error {
	f := c.compared()
	if f == nil {
		return nil
	}
	var fabricated []value
	for _, h := range f.held {
		fabricated = append(fabricated, h.fabricated...)
	}
	if !f.byFlow || len(fabricated) == 0 {
		r.Add(len(fabricated) == 0, "values", "every published value is a value of a member of its group (%d are not)", len(fabricated))
		return nil
	}
	var bad []value
	for _, v := range fabricated {
		if impossible(c.rl, f.flows.b, []value{v}) > 0 || !f.flows.possible(v) {
			bad = append(bad, v)
		}
	}
	if len(bad) > 0 {
		r.Add(false, "values", "every published value is the value of a member of its group in some faithful assignment of the original's records (%d are not, first %s)",
			len(bad), valueName(c.rl, bad[0]))
		return nil
	}
	// Each value alone could be a member's, but the assignment found
	// holds not all of them: a value added to a group's table (a female
	// in a male-only group) passes this test as long as some swap of
	// records would give the group a female, so the tables are
	// unconfirmed, not confirmed (issue 32.9).
	r.Add(true, "values", "every published value is the value of a member of its group in some faithful assignment of the original's records (0 are not; "+
		"which member holds which value only the audit record settles)")
	r.Unprove("values", "%d values the auxiliary tables list are held by no member of the faithful assignment the check found, though each alone is some "+
		"assignment's (first %s): that one assignment holds them all, as Wang's Algorithm 2 makes the tables, only the audit record settles",
		len(fabricated), valueName(c.rl, fabricated[0]))
	return nil
}

// frequencies: st.csv lists exactly the members' sensitive values with
// their frequencies, group by group.
func frequencies(c *ctx, r *verify.Report) error {
	if f := c.compared(); f != nil {
		off := 0
		for _, h := range f.held {
			off += h.freqOff
		}
		r.Add(off == 0, "frequencies", "%s lists exactly the members' sensitive values with their frequencies, group by group (%d differ)", c.rl.st.file, off)
	}
	return nil
}

// membersFromAudit reads the audit record's group map (nil members and
// line when there is none; a failing line when it does not fit).
func membersFromAudit(rl *release, o *verify.Original, audit *releasedir.Audit, published int) ([][]int, *verify.Line) {
	if audit == nil || len(audit.RowMap[auditGroups]) == 0 {
		return nil, nil
	}
	rows := audit.RowMap[auditGroups]
	if len(rows) != published {
		return nil, &verify.Line{Name: "audit", Text: fmt.Sprintf("the audit record's group map lists %d records; the release publishes %d", len(rows), published)}
	}
	members := make([][]int, rl.groups)
	used := make([]bool, o.Table.Rows)
	off := 0
	for gi := 0; gi < rl.groups; gi++ {
		members[gi] = rows[off : off+rl.size[gi]]
		off += rl.size[gi]
		for _, row := range members[gi] {
			ok := row >= 0 && row < o.Table.Rows && !used[row]
			// A kept row publishes every QI and the sensitive value; the
			// others are looked at value by value.
			for i := 0; ok && !o.Kept[row] && i < len(o.QIs); i++ {
				_, ok = o.Text(o.QIs[i], row)
			}
			if !ok {
				return nil, &verify.Line{Name: "audit", Text: fmt.Sprintf("the audit record's group map does not fit this original: row %d is not a published record, or listed twice", row)}
			}
			if !o.Kept[row] {
				if _, ok := o.Text(o.SA, row); !ok {
					return nil, &verify.Line{Name: "audit", Text: fmt.Sprintf("the audit record's group map lists row %d, which has no sensitive value", row)}
				}
			}
			used[row] = true
		}
	}
	return members, &verify.Line{OK: true, Name: "audit", Text: fmt.Sprintf("the audit record assigns %d distinct input records to the %d groups, as many per group as st.csv says", len(rows), rl.groups)}
}

// againstMembers holds one table to the members: the member values the
// table lacks, the sensitive values and frequencies that differ (st.csv),
// and the table's values no member has (auxiliary tables); with shuffle,
// the input row behind each table row, for the shuffle check. A member's
// value is looked up among its group's few table rows.
func againstMembers(tb *table, ti int, isST bool, members [][]int, place []int32, o *verify.Original, rl *release, shuffle bool) heldValues {
	col := o.SA
	if !isST {
		col = o.QIs[ti]
	}
	code := memberCodes(tableCodes(tb, col, o), col, members, place)
	var h heldValues
	first, count, lacking := matchMembers(tb, code, members, rl.groups, &h)
	h.uncovered += lacking
	for row := 0; row < tb.t.Rows; row++ {
		switch {
		case first[row] < 0:
			h.fabricated = append(h.fabricated, value{ti, tb.groupOf(row), uint32(verify.Code(tb.value, row))})
		case isST && int(count[row]) != rl.freq[row]:
			h.freqOff++
		}
	}
	if shuffle && len(h.fabricated) == 0 {
		h.first = first
	}
	if isST {
		// In st.csv a value missing or extra is a frequency that differs.
		h.freqOff, h.uncovered, h.fabricated = h.freqOff+h.uncovered+len(h.fabricated), 0, nil
	}
	return h
}

// matchMembers finds each member's value among its group's table rows
// (the last row of that value; code is every member's table code,
// memberCodes): per table row the smallest member row
// behind it (-1: none) and how many members it holds; members whose value
// the table has no code for count in h.uncovered, and lacking is the
// distinct (group, value) pairs the table lacks. The rows are handled
// group by group, at their place in the table's list (tb.rows: a group's
// rows are together there, not scattered over the table).
func matchMembers(tb *table, code []int32, members [][]int, groups int, h *heldValues) (first, count []int32, lacking int) {
	start, byGroup := tb.start, tb.rows
	vals := tb.codes // the value of each listed row (a missing one no code c)
	firstAt, countAt := make([]int32, len(byGroup)), make([]int32, len(byGroup))
	for p := range firstAt {
		firstAt[p] = -1
	}
	lacks := map[uint64]bool{} // group<<32 | code of member values the table lacks
	q := 0
	for gi, rows := range members {
		for _, row := range rows {
			c := code[q]
			q++
			if c < 0 {
				h.uncovered++
				continue
			}
			j := int32(-1)
			for p := start[gi]; p < start[gi+1]; p++ {
				if vals[p] == uint32(c) {
					j = p
				}
			}
			if j < 0 {
				lacks[uint64(gi)<<32|uint64(c)] = true
				continue
			}
			if firstAt[j] < 0 || int32(row) < firstAt[j] {
				firstAt[j] = int32(row)
			}
			countAt[j]++
		}
	}
	first, count = make([]int32, tb.t.Rows), make([]int32, tb.t.Rows)
	for i := range first {
		first[i] = -1
	}
	for p, k := range byGroup {
		first[k], count[k] = firstAt[p], countAt[p]
	}
	return first, count, len(lacks)
}

// memberPlaces is the place of every original row among the members,
// listed group after group (-1: no member), or nil when a row is listed
// twice (or is no row).
func memberPlaces(members [][]int, rows int) []int32 {
	place := make([]int32, rows)
	for i := range place {
		place[i] = -1
	}
	q := int32(0)
	for _, list := range members {
		for _, row := range list {
			if row < 0 || row >= rows || place[row] >= 0 {
				return nil
			}
			place[row] = q
			q++
		}
	}
	return place
}

// memberCodes is code (tableCodes) of every member's value of col, the
// members listed group after group. With their places (memberPlaces)
// the original's codes are read in row order, and each written at its
// member's place, rather than read at the members' rows, scattered over
// the original.
func memberCodes(code []int32, col *model.Column, members [][]int, place []int32) []int32 {
	n := 0
	for _, list := range members {
		n += len(list)
	}
	out := make([]int32, n)
	if place == nil {
		q := 0
		for _, list := range members {
			for _, row := range list {
				out[q] = code[verify.Code(col, row)]
				q++
			}
		}
		return out
	}
	for row, q := range place {
		if q >= 0 {
			out[q] = code[verify.Code(col, row)]
		}
	}
	return out
}

// tableCodes maps every code of an original column (its missing value
// last) to the code of the table's value column with the text the
// release publishes for it (-1: the table has no such value).
func tableCodes(tb *table, col *model.Column, o *verify.Original) []int32 {
	codes := make(map[string]int32, len(tb.value.Dict))
	for c, v := range tb.value.Dict {
		codes[v] = int32(c)
	}
	texts := o.Texts(col)
	out := make([]int32, len(texts))
	for code, text := range texts {
		c, ok := codes[text]
		out[code] = map[bool]int32{true: c, false: -1}[ok]
	}
	return out
}

// acrossGroups recomputes the figures across groups from the files and
// the original: how many of the input's records (published or not) are
// covered by more than one group, each of their values being in that
// group's auxiliary table, and the largest 1 - prod_G (1 - p_G) over the
// groups G covering a record, p_G being the presence recomputed from the
// files. Records with the same QI values are counted once: each group's
// combinations are enumerated and looked up among them (a group with
// more than enumBudget combinations scans them instead).
func acrossGroups(rl *release, o *verify.Original, pres []float64) (many int, combined float64) {
	return acrossGroupsBy(rl, o, pres, acrossBlock)
}

// acrossGroupsBy is acrossGroups looking block groups up at a time.
func acrossGroupsBy(rl *release, o *verify.Original, pres []float64, block int) (many int, combined float64) {
	keys, count := coveredTuples(rl, o)
	ix := newKeyIndex(radices(rl, false), keys)
	gc := newGroupCodes(rl)
	covering := make([]int, len(keys))
	absent := make([]float64, len(keys))
	for j := range absent {
		absent[j] = 1
	}
	// A block of groups at a time, its halves looked up at once, then
	// the tuples found applied group after group (the products multiplied
	// in group order, as one loop would).
	half := [2]coveredBy{newCoveredBy(len(rl.at)), newCoveredBy(len(rl.at))}
	for lo := 0; lo < rl.groups; lo += block {
		hi := min(lo+block, rl.groups)
		mid := (lo + hi) / 2
		atOnce(2, func(h int) {
			if h == 0 {
				half[0].find(gc, ix, keys, lo, mid)
			} else {
				half[1].find(gc, ix, keys, mid, hi)
			}
		})
		for _, c := range half {
			k := int32(0)
			for x, end := range c.end {
				g := c.lo + x
				for ; k < end; k++ {
					j := c.found[k]
					covering[j]++
					absent[j] *= 1 - pres[g]
				}
			}
		}
	}
	for j := range keys {
		if covering[j] > 1 {
			many += count[j]
		}
		if covering[j] > 0 {
			combined = math.Max(combined, 1-absent[j])
		}
	}
	return many, combined
}

// acrossBlock is the groups acrossGroups looks up before it applies what
// they cover.
const acrossBlock = 1 << 15

// coveredBy is the tuples each group of lo.. covers: group lo+x's are
// found[end[x-1]:end[x]], in the order one loop over the group's
// combinations finds them.
type coveredBy struct {
	lo    int
	found []int32
	end   []int32
	tuple []uint32
	one   groupValues // the group at hand
}

func newCoveredBy(k int) coveredBy {
	return coveredBy{tuple: make([]uint32, k), one: groupValues{make([][]uint32, k)}}
}

// find lists the tuples the groups lo..hi-1 cover.
func (c *coveredBy) find(gc groupCodes, ix *keyIndex, keys [][]uint32, lo, hi int) {
	c.lo, c.found, c.end = lo, c.found[:0], c.end[:0]
	add := func(j int32) { c.found = append(c.found, j) }
	for g := int32(lo); int(g) < hi; g++ {
		one := c.one
		gc.fill(g, one[0])
		switch {
		case one.size(0) > enumBudget:
			for j, t := range keys {
				if one.covers(0, t) {
					add(int32(j))
				}
			}
		case ix.wide != nil:
			one.combos(0, c.tuple, func() bool {
				if j := ix.find(c.tuple); j >= 0 {
					add(j)
				}
				return true
			})
		default:
			ix.eachFound(one[0], 0, 0, add)
		}
		c.end = append(c.end, int32(len(c.found)))
	}
}

// coveredTuples are the input's distinct QI tuples (the records the
// release publishes) whose every value some group holds, in the
// auxiliary tables' codes, with their records.
func coveredTuples(rl *release, o *verify.Original) (keys [][]uint32, count []int) {
	k := len(rl.at)
	code := make([][]int32, k)
	radix := make([]uint64, k)
	for i, at := range rl.at {
		code[i] = tableCodes(at, o.QIs[i], o)
		radix[i] = uint64(len(at.value.Dict))
	}
	ids := verify.NewTupleKeys(radix)
	tuple := make([]uint32, k)
rows:
	for row, kept := range o.Kept {
		if !kept {
			continue
		}
		for i, col := range o.QIs {
			c := code[i][verify.Code(col, row)]
			if c < 0 {
				continue rows // a value no group holds: covered by none
			}
			tuple[i] = uint32(c)
		}
		if id := ids.ID(tuple); int(id) == len(keys) {
			keys, count = append(keys, append([]uint32(nil), tuple...)), append(count, 1)
		} else {
			count[id]++
		}
	}
	return keys, count
}
