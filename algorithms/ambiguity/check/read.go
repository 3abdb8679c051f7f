package check

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// table is one value table read back: its value column (codes of the
// file's column) and its rows group by group (group indexes).
type table struct {
	file  string
	t     *model.Table
	value *model.Column
	// The rows of a group st.csv has, group by group: group g's are
	// rows[start[g]:start[g+1]], in row order (byGroup); codes are
	// their value codes (value.Codes), in the same order.
	start, rows []int32
	codes       []uint32
	// group is st.csv's group of every row; of is an auxiliary table's
	// group of every GroupID code (-1: not a group of st.csv).
	group, of []int32
}

// count is the rows of group g.
func (tb *table) count(g int) int {
	return int(tb.start[g+1] - tb.start[g])
}

// groupOf is the group of a row (-1: none).
func (tb *table) groupOf(row int) int32 {
	if tb.group != nil {
		return tb.group[row]
	}
	return tb.of[verify.Code(tb.t.Columns[1], row)]
}

// byGroup lists rows 0..n-1 group by group, each group's in row order
// (a counting sort: group(row) < groups; -1 leaves a row out), and
// carry[row] of every row listed at its place (carried: none without
// carry), read in row order rather than later at the rows listed.
func byGroup(n, groups int, group func(row int) int32, carry []uint32) (start, rows []int32, carried []uint32) {
	start = make([]int32, groups+1)
	for row := 0; row < n; row++ {
		if g := group(row); g >= 0 {
			start[g+1]++
		}
	}
	for g := 0; g < groups; g++ {
		start[g+1] += start[g]
	}
	rows = make([]int32, start[groups])
	if carry != nil {
		carried = make([]uint32, start[groups])
	}
	next := append([]int32(nil), start[:groups]...)
	for row := 0; row < n; row++ {
		if g := group(row); g >= 0 {
			rows[next[g]] = int32(row)
			if carry != nil {
				carried[next[g]] = carry[row]
			}
			next[g]++
		}
	}
	return start, rows, carried
}

// byCode is byGroup of the rows of a column's codes (the missing value
// the last code of of), of giving the group of every code, when no two
// codes have the same group (ok; a group's rows are then its code's, in
// row order): rows are counted and placed by their code, the group of
// each code looked up once rather than each row's.
func byCode(codes []uint32, of []int32, groups int, carry []uint32) (start, rows []int32, carried []uint32, ok bool) {
	last := uint32(len(of) - 1)
	next := make([]int32, len(of)) // rows of each code, then where its next goes (-1: no group)
	for _, c := range codes {
		next[min(c, last)]++ // model.Missing is the largest code
	}
	start = make([]int32, groups+1)
	taken := make([]uint64, groups/64+1)
	for c, g := range of {
		if g < 0 {
			continue
		}
		if taken[g/64]&(1<<(g%64)) != 0 {
			return nil, nil, nil, false
		}
		taken[g/64] |= 1 << (g % 64)
		start[g+1] = next[c]
	}
	for g := 0; g < groups; g++ {
		start[g+1] += start[g]
	}
	for c, g := range of {
		next[c] = -1
		if g >= 0 {
			next[c] = start[g]
		}
	}
	rows, carried = make([]int32, start[groups]), make([]uint32, start[groups])
	for row, c := range codes {
		c = min(c, last)
		if p := next[c]; p >= 0 {
			rows[p], carried[p] = int32(row), carry[row]
			next[c]++
		}
	}
	return start, rows, carried, true
}

// release is the tables as the checks read them.
type release struct {
	groups int
	base   int   // format.Details.GroupIDBase
	ids    []int // GroupID of each group index (base+1..base+groups)
	at     []*table
	st     *table
	freq   []int // per st row
	size   []int // per group
	maxF   []int
}

// tablesRead is readTables' result: the tables, the lines it printed and
// its verdict.
type tablesRead struct {
	rl    *release
	lines []verify.Line
	err   error
}

// readTables reads st.csv and every auxiliary table and checks their
// form: headers bound to the manifest's names, GroupIDs base+1..base+G, positive
// whole frequencies, no duplicate rows (Definition 3.3), every group in
// every table. Nothing more is read when they do not hold. It reads the
// files and the manifest alone, so the checks that share the files (an
// export's full check and its check from the files alone) read them once
// (verify.Release.FileFact) and print the same lines.
func readTables(c *ctx, r *verify.Report) error {
	v, _ := c.rel.FileFact("ambiguity/tables", func() (any, error) {
		var lines verify.Report
		rl, err := readRelease(c, &lines)
		return &tablesRead{rl: rl, lines: lines.Lines, err: err}, nil
	})
	read := v.(*tablesRead)
	r.Lines = append(r.Lines, read.lines...)
	c.rl = read.rl
	return read.err
}

// readRelease is readTables on the files (nil: the tables do not hold).
func readRelease(c *ctx, r *verify.Report) (*release, error) {
	parseAll(c)
	rl, ok, err := readST(c, r)
	if err != nil || !ok {
		return nil, stopOr(err)
	}
	// The auxiliary tables are read at once, each into a report of its
	// own, added in order up to the first that does not hold (as if read
	// one after the other).
	auxs := c.det.AuxiliaryTables
	read := make([]struct {
		at  *table
		ok  bool
		err error
		r   verify.Report
	}, len(auxs))
	atOnce(len(auxs), func(i int) { read[i].at, read[i].ok, read[i].err = readAT(c, rl, auxs[i], &read[i].r) })
	missing := 0
	for i := range read {
		at, ok, err := read[i].at, read[i].ok, read[i].err
		r.Lines = append(r.Lines, read[i].r.Lines...)
		if err != nil || !ok {
			return nil, stopOr(err)
		}
		for g := 0; g < rl.groups; g++ {
			if at.count(g) == 0 {
				missing++
			}
		}
		rl.at = append(rl.at, at)
	}
	r.Add(missing == 0, "groups", "every group has values in every auxiliary table (%d gaps)", missing)
	if missing > 0 {
		return nil, verify.ErrStop
	}
	return rl, nil
}

// parseAll parses the tables readRelease reads at once on every core,
// before it reads them one after the other (the view reads them in the
// same order meanwhile: one at a time, the two would wait for the same
// table). A table that does not parse says so when read.
func parseAll(c *ctx) {
	names := []string{c.det.SensitiveTable}
	for _, a := range c.det.AuxiliaryTables {
		names = append(names, a.File)
	}
	atOnce(len(names), func(i int) {
		_, _ = c.rel.Table(names[i]) // an error counts where the table is read
	})
}

// atOnce calls fn(0..n-1) on every core and waits for them; a panic in
// one is raised again here, in the check or the viewer that called it
// (which report it), never as a crash of the process.
func atOnce(n int, fn func(i int)) {
	next := make(chan int, n)
	for i := range n {
		next <- i
	}
	close(next)
	workers := min(runtime.GOMAXPROCS(0), n)
	panics := make([]any, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[w] = recover() }()
			for i := range next {
				fn(i)
			}
		}()
	}
	wg.Wait()
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}

// stopOr is err, or ErrStop when there is none.
func stopOr(err error) error {
	if err != nil {
		return err
	}
	return verify.ErrStop
}

// readST reads st.csv: its names, GroupIDs and frequencies, each
// sensitive value once per group.
func readST(c *ctx, r *verify.Report) (*release, bool, error) {
	name := c.det.SensitiveTable
	st, err := c.rel.Table(name)
	if err != nil {
		return nil, false, err
	}
	if !r.BindNames(name, st, format.STHeader(c.m.SA)) {
		return nil, false, nil
	}
	if msg := c.det.GroupIDBaseProblem(); msg != "" {
		r.Add(false, "groups", "%s", msg)
		return nil, false, nil
	}
	rl := &release{freq: make([]int, st.Rows), base: c.det.GroupIDBase}
	stIDs, err := stRows(rl, st, filepath.Join(c.rel.Dir, name))
	if err != nil {
		return nil, false, err
	}
	if !groupIDs(rl, stIDs, name, r) {
		return nil, false, nil
	}
	rl.st = &table{file: name, t: st, value: st.Columns[1], group: make([]int32, st.Rows)}
	rl.size, rl.maxF = make([]int, rl.groups), make([]int, rl.groups)
	for row := 0; row < st.Rows; row++ {
		gi := int32(stIDs[row] - 1 - rl.base)
		rl.st.group[row] = gi
		rl.size[gi] += rl.freq[row]
		rl.maxF[gi] = max(rl.maxF[gi], rl.freq[row])
	}
	rl.st.start, rl.st.rows, rl.st.codes = byGroup(st.Rows, rl.groups, func(row int) int32 { return rl.st.group[row] }, st.Columns[1].Codes)
	sa := st.Columns[1]
	dups := repeated(rl.st, len(sa.Dict)+1)
	r.Add(dups == 0, "duplicate-free", "%s lists each sensitive value once per group (%d repeated)", name, dups)
	return rl, true, nil
}

// stRows reads every st.csv row's GroupID and Frequency, whole numbers
// of at least 1 written plainly (each distinct text read once).
func stRows(rl *release, st *model.Table, file string) ([]int, error) {
	idOf, freqOf := wholeCodes(st.Columns[0]), wholeCodes(st.Columns[2])
	ids := make([]int, st.Rows)
	for row := 0; row < st.Rows; row++ {
		id := idOf[verify.Code(st.Columns[0], row)]
		if id < 1 {
			return nil, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("GroupID %q is not a whole number >= 1", st.Columns[0].Value(row))}
		}
		f := freqOf[verify.Code(st.Columns[2], row)]
		if f < 1 {
			return nil, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("Frequency %q is not a whole number >= 1", st.Columns[2].Value(row))}
		}
		ids[row], rl.freq[row] = id, f
	}
	return ids, nil
}

// wholeCodes reads every code's text of col as a whole number written
// plainly (-1 where it is not one).
func wholeCodes(col *model.Column) []int {
	out := make([]int, len(col.Dict)+1)
	for code := range out {
		n, ok := plainID(labelOf(col, code))
		if !ok {
			n = -1
		}
		out[code] = n
	}
	return out
}

// groupIDs: the GroupIDs are base+1..base+G (the audit record lists
// groups in that order; base is 0 but in a partition of a partitioned
// run, format.Details.GroupIDBase).
func groupIDs(rl *release, stIDs []int, name string, r *verify.Report) bool {
	seen := make([]bool, len(stIDs)+1) // ids beyond: in far
	far := map[int]bool{}
	lo, hi := 0, 0
	for _, id := range stIDs {
		if id < len(seen) {
			if seen[id] {
				continue
			}
			seen[id] = true
		} else {
			if far[id] {
				continue
			}
			far[id] = true
		}
		if rl.groups == 0 || id < lo {
			lo = id
		}
		hi = max(hi, id)
		rl.groups++
	}
	if rl.groups == 0 {
		r.Add(false, "groups", "%s has no group", name)
		return false
	}
	if lo != rl.base+1 || hi != rl.base+rl.groups {
		r.Add(false, "groups", "the GroupIDs of %s are not %d..%d", name, rl.base+1, rl.base+rl.groups)
		return false
	}
	// Distinct, from base+1 to base+their number: they are base+1..base+G.
	rl.ids = make([]int, rl.groups)
	for i := range rl.ids {
		rl.ids[i] = rl.base + i + 1
	}
	return true
}

// readAT reads one auxiliary table: its names, each value once per group
// (Definition 3.3), every GroupID a group of st.csv.
func readAT(c *ctx, rl *release, a format.ATFile, r *verify.Report) (*table, bool, error) {
	t, err := c.rel.Table(a.File)
	if err != nil {
		return nil, false, err
	}
	if !r.BindNames(a.File, t, format.ATHeader(a.QI)) {
		return nil, false, nil
	}
	g := sharedATGroups(c.rel, a.File, t, rl.groups, rl.base)
	at := &table{file: a.File, t: t, value: t.Columns[0], of: g.of, start: g.start, rows: g.rows, codes: g.codes}
	unknown := t.Rows - len(at.rows)
	vals := t.Columns[0]
	dups := repeated(at, len(vals.Dict)+1)
	r.Add(dups == 0, "duplicate-free", "%s lists each value once per group (Definition 3.3; %d repeated)", a.File, dups)
	r.Add(unknown == 0, "groups", "every GroupID of %s is a group of %s (%d are not)", a.File, c.det.SensitiveTable, unknown)
	return at, true, nil
}

// atGroups are an auxiliary table's rows group by group, the groups of
// G numbered by GroupID (GroupID id, a whole number written plainly, is
// group id-1-base when base+1 <= id <= base+G; any other is no group; base
// is format.Details.GroupIDBase): of is the group
// of every GroupID code (-1: none), group g's rows are
// rows[start[g]:start[g+1]], in row order (byGroup), and codes are
// their value codes (the first column's), in the same order.
type atGroups struct {
	of, start, rows []int32
	codes           []uint32
}

// newATGroups reads the auxiliary table t (its second column, the
// GroupIDs) for G groups numbered from base+1.
func newATGroups(t *model.Table, groups, base int) *atGroups {
	ids := t.Columns[1]
	g := &atGroups{of: make([]int32, len(ids.Dict)+1)} // by GroupID code
	for code := range g.of {
		g.of[code] = -1
		if id, ok := plainID(labelOf(ids, code)); ok && id > base && id <= base+groups {
			g.of[code] = int32(id - 1 - base)
		}
	}
	var ok bool
	if g.start, g.rows, g.codes, ok = byCode(ids.Codes, g.of, groups, t.Columns[0].Codes); !ok {
		g.start, g.rows, g.codes = byGroup(t.Rows, groups, func(row int) int32 { return g.of[verify.Code(ids, row)] }, t.Columns[0].Codes)
	}
	return g
}

// sharedATGroups is newATGroups of the auxiliary table file (t, as the
// release reads it), read once for the checks and the attacker's view
// and exposure of the same bytes, built or written
// (verify.Release.DataFact: it reads the table's columns alone). It is
// read only.
func sharedATGroups(rel *verify.Release, file string, t *model.Table, groups, base int) *atGroups {
	v, _ := rel.DataFact(fmt.Sprintf("ambiguity/at-groups/%s/%d/%d", file, groups, base), func() (any, error) { return newATGroups(t, groups, base), nil })
	return v.(*atGroups)
}

// labelOf is a code's text ("" for the missing value, last).
func labelOf(col *model.Column, code int) string {
	if code < len(col.Dict) {
		return col.Dict[code]
	}
	return ""
}
