package check

import (
	"privlab/algorithms/verify"
	"privlab/model"
)

// joinOriginal is nss.csv and ss.csv held to the original: the QI and
// SA multisets, every class's sensitive values its records' (the Temp
// table of Section 3, projected), and row order linking nothing. With
// the audit record's row map of nss.csv the records are pinned exactly;
// without it (local recoding splits identical QI tuples across classes,
// so the files alone cannot pin them) the check decides whether an
// assignment of the original records to the classes exists (assignable)
// and tests the row order statistically (positionLink).
type joinOriginal struct {
	o      *verify.Original
	tuples *tupleRows
	match  *verify.TupleMatch
	// saDiffer counts the sensitive values whose counts differ.
	saDiffer int
	// nssOf is the class of each nss.csv row (-1: a ClassID ss.csv
	// lacks, which "one record per row" has failed); classOf the class
	// of each QI tuple's rows (by match's tuple ids: noClass when no row
	// of nss.csv has the tuple, manyClasses when its rows lie in more
	// than one class).
	nssOf   []int
	classOf []int
	byAudit bool
	// With the audit record: its pinning of nss.csv, a row named twice,
	// the classes whose values are not their records'.
	pin        *verify.Pinning
	twice      bool
	badClasses int
	// faithful is the classes faithful line; order the input rows behind
	// nss.csv's pinned rows (distinct: their tuples; keys, pinned without
	// the audit record, each row's tuple's first input row: ShuffledKeys)
	// for the shuffle line; link the position link line.
	faithful verify.Line
	order    []int
	keys     []int
	distinct int
	link     *verify.Line
	// ss.csv by the audit record's row map (nil: none): whether it fits,
	// and its sensitive values.
	ssRows   []int
	ssFits   bool
	ssValues int
}

// tupleRows gives every nss.csv row its QI tuple's text (once per tuple,
// not per row) and every tuple its original rows.
type tupleRows struct {
	keys []string // per nss.csv row
	ids  map[string]int32
	m    *verify.TupleMatch
}

func newTupleRows(m *verify.TupleMatch, cols []*model.Column) *tupleRows {
	t := &tupleRows{keys: make([]string, len(m.Pub)), ids: map[string]int32{}, m: m}
	text := make([]string, m.Tuples)
	done := make([]bool, m.Tuples)
	for row, id := range m.Pub {
		if !done[id] {
			text[id], done[id] = verify.PublishedKey(cols, row), true
			t.ids[text[id]] = id
		}
		t.keys[row] = text[id]
	}
	return t
}

// rows are the original rows of a tuple, in row order.
func (t *tupleRows) rows(key string) []int {
	var out []int
	for _, row := range t.m.Rows(t.ids[key]) {
		out = append(out, int(row))
	}
	return out
}

// joinOriginalOf compares the release with the original once.
func (c *ctx) joinOriginalOf() (*joinOriginal, error) {
	return c.joinOrig.Get(func() (*joinOriginal, error) {
		o, err := verify.NewOriginal(c.opt.Original, c.m)
		if err != nil {
			return nil, err
		}
		nq := len(c.m.QIs)
		f := &joinOriginal{o: o, match: o.Match(fileNSS, c.nss.Columns[:nq], c.nss.Rows)}
		f.saDiffer = saDiffer(o, c.ss.Columns[1])
		if !f.match.Same() {
			return f, nil
		}
		f.classes(c)
		if f.byAudit = c.opt.Audit != nil && len(c.opt.Audit.RowMap[fileNSS]) > 0; f.byAudit {
			f.pinned(c)
		} else {
			f.tuples = newTupleRows(f.match, c.nss.Columns[:nq])
			f.withoutAudit(c)
		}
		return f, nil
	})
}

// classes reads every nss.csv row's class and the classes of each tuple.
func (f *joinOriginal) classes(c *ctx) {
	j := c.joinedOf()
	nssClass := c.nss.Columns[len(c.m.QIs)]
	byCode := make([]int, len(nssClass.Dict)+1)
	for code := range byCode {
		i, ok := j.index[textOf(nssClass, code)]
		byCode[code] = map[bool]int{true: i, false: -1}[ok]
	}
	f.nssOf = make([]int, c.nss.Rows)
	f.classOf = make([]int, f.match.Tuples)
	for id := range f.classOf {
		f.classOf[id] = noClass
	}
	for row, id := range f.match.Pub {
		i := byCode[verify.Code(nssClass, row)]
		f.nssOf[row] = i
		switch f.classOf[id] {
		case noClass:
			f.classOf[id] = i
		case i, manyClasses:
		default:
			f.classOf[id] = manyClasses
		}
	}
}

// The tuple classes that are not a class (classOf).
const (
	noClass     = -3
	manyClasses = -2
)

// tuplesPublished counts the QI tuples nss.csv holds.
func (f *joinOriginal) tuplesPublished() int {
	n := 0
	for _, c := range f.classOf {
		if c != noClass {
			n++
		}
	}
	return n
}

// saDiffer counts the sensitive values whose published count differs
// from the original's.
func saDiffer(o *verify.Original, sa *model.Column) int {
	count := map[string]int{}
	for code, n := range sa.Counts() {
		count[sa.Dict[code]] += n
	}
	texts := o.Texts(o.SA)
	orig := make([]int, len(texts))
	for row, kept := range o.Kept {
		if kept {
			orig[verify.Code(o.SA, row)]++
		}
	}
	for code, n := range orig {
		count[texts[code]] -= n
	}
	differ := 0
	for _, n := range count {
		if n != 0 {
			differ++
		}
	}
	return differ
}

// withoutAudit decides whether the original records can be distributed
// over the classes (assignable), and pins the rows whose tuple lies in
// one class (interchangeable records: the original's order of the
// tuple's rows) for the shuffle line and, position by position, against
// ss.csv (positionLink).
func (f *joinOriginal) withoutAudit(c *ctx) {
	cl := c.joinedOf().cl
	f.faithful = assignable(f.tuples, f.o, f.nssOf, cl)
	next := make([]int, f.match.Tuples)
	distinct := 0
	allowed := make([][]string, len(f.match.Pub))
	valuesOf := make([][]string, f.match.Tuples)
	for row, id := range f.match.Pub {
		if f.classOf[id] < 0 || f.nssOf[row] < 0 {
			continue
		}
		rows := f.match.Rows(id)
		f.order = append(f.order, int(rows[next[id]]))
		f.keys = append(f.keys, int(rows[0]))
		if next[id] == 0 {
			distinct++
			seen := map[string]bool{}
			for _, in := range rows {
				if v, _ := f.o.Text(f.o.SA, int(in)); !seen[v] {
					seen[v] = true
					valuesOf[id] = append(valuesOf[id], v)
				}
			}
		}
		next[id]++
		allowed[row] = valuesOf[id]
	}
	f.distinct = distinct
	link := positionLink(f.nssOf, allowed, "the QI values pin (their tuple lies in one class)", c.ss, c.joinedOf().ssOf, cl)
	f.link = &link
}

// pinned reads the audit record's row maps: nss.csv's pins every row to
// its record (each once), whose sensitive values make up its class's;
// ss.csv's, when there is one, pins every ss.csv row to a record of
// nss.csv with its class and value, else ss.csv's order is tested.
func (f *joinOriginal) pinned(c *ctx) {
	f.pin = f.match.Pin(c.opt.Audit, nil)
	if f.pin.Rows == nil {
		return
	}
	if f.twice = !distinctRows(f.pin.Rows); f.twice {
		return
	}
	cl := c.joinedOf().cl
	origCounts := make([]map[string]int, len(cl.ids))
	f.badClasses = 0
	for row, in := range f.pin.Rows {
		i := f.nssOf[row]
		if i < 0 {
			f.badClasses++
			continue
		}
		if origCounts[i] == nil {
			origCounts[i] = map[string]int{}
		}
		v, _ := f.o.Text(f.o.SA, in)
		origCounts[i][v]++
	}
	for i := range cl.ids {
		if !sameCounts(origCounts[i], cl.counts[i]) {
			f.badClasses++
		}
	}
	f.faithful = verify.Line{OK: f.badClasses == 0, Name: "classes faithful",
		Text: sprintf("every class's ss.csv values are the original values of its nss.csv records (%d classes differ)", f.badClasses)}
	f.order, f.distinct = f.pin.Rows, f.tuplesPublished()
	if f.ssRows = c.opt.Audit.RowMap[fileSS]; len(f.ssRows) == 0 {
		allowed := make([][]string, len(f.pin.Rows))
		for row, in := range f.pin.Rows {
			v, _ := f.o.Text(f.o.SA, in)
			allowed[row] = []string{v}
		}
		link := positionLink(f.nssOf, allowed, "the audit record pins", c.ss, c.joinedOf().ssOf, cl)
		f.link = &link
		return
	}
	f.pinnedSS(c)
}

// pinnedSS holds ss.csv's row map to nss.csv's: each ss.csv row the
// sensitive value and class of one record of nss.csv; and counts the
// positions where both files give the same record.
func (f *joinOriginal) pinnedSS(c *ctx) {
	ss, nssClass := c.ss, c.nss.Columns[len(c.m.QIs)]
	nssAt := newRowIndex(f.pin.Rows)
	f.ssFits = len(f.ssRows) == ss.Rows && distinctRows(f.ssRows)
	for row := 0; f.ssFits && row < ss.Rows; row++ {
		in := f.ssRows[row]
		nrow, ok := nssAt.at(in)
		v := ""
		if ok {
			v, _ = f.o.Text(f.o.SA, in)
		}
		f.ssFits = ok && v == ss.Columns[1].Value(row) && ss.Columns[0].Value(row) == nssClass.Value(nrow)
	}
	if !f.ssFits {
		return
	}
	f.ssValues = len(ss.Columns[1].Dict)
	coincide := 0
	for i := range f.pin.Rows {
		if f.pin.Rows[i] == f.ssRows[i] {
			coincide++
		}
	}
	n := len(f.pin.Rows)
	linked := coincide >= 10 || (n >= 3 && coincide == n)
	f.link = &verify.Line{OK: !linked, Name: "position link",
		Text: sprintf("row i of nss.csv and row i of ss.csv are the same record at %d of %d positions (independent shuffles give about one)", coincide, n)}
}

// compared is the comparison when the tuples are the original's.
func (c *ctx) compared() *joinOriginal {
	f, err := c.joinOriginalOf()
	if err != nil || !f.match.Same() {
		return nil
	}
	return f
}

// joinTuples: nss.csv's QI tuples are exactly the original's.
func joinTuples(c *ctx, r *verify.Report) error {
	f, err := c.joinOriginalOf()
	if err != nil {
		return err
	}
	r.AddTuples(f.match)
	return nil
}

// joinSensitiveValues: ss.csv's sensitive values are exactly the
// original's.
func joinSensitiveValues(c *ctx, r *verify.Report) error {
	if f, err := c.joinOriginalOf(); err == nil {
		r.Add(f.saDiffer == 0, "sensitive values", "the sensitive values of %s are exactly the original's (%d values differ in count)", fileSS, f.saDiffer)
	}
	return nil
}

// nssAudit: the audit record pins every nss.csv row to a distinct input
// record with its QI values.
func nssAudit(c *ctx, r *verify.Report) error {
	f := c.compared()
	if f == nil || !f.byAudit {
		return nil
	}
	if r.AddPinning(f.pin) && f.twice {
		r.Add(false, "audit", "the audit record's row map of nss.csv names an input row twice")
	}
	return nil
}

// pinnedOK is the comparison when the rows are pinned (by the audit
// record, or by the files for what they fix).
func (c *ctx) pinnedOK() *joinOriginal {
	f := c.compared()
	if f == nil || f.byAudit && (f.pin.Rows == nil || f.twice) {
		return nil
	}
	return f
}

// classesFaithful: every class's sensitive values are those of its
// records (by the audit record; without it, an assignment of the
// original records to the classes exists).
func classesFaithful(c *ctx, r *verify.Report) error {
	if f := c.pinnedOK(); f != nil {
		r.Lines = append(r.Lines, f.faithful)
	}
	return nil
}

// nssShuffled: nss.csv's rows are not in the input's order.
func nssShuffled(c *ctx, r *verify.Report) error {
	if f := c.pinnedOK(); f != nil {
		verify.ShuffledKeys(fileNSS, f.order, f.keys, f.distinct, r)
	}
	return nil
}

// ssAudit: the audit record pins every ss.csv row to the record of
// nss.csv with the same class and an equal sensitive value.
func ssAudit(c *ctx, r *verify.Report) error {
	f := c.pinnedOK()
	if f == nil || len(f.ssRows) == 0 {
		return nil
	}
	if !f.ssFits {
		r.Add(false, "audit", "the audit record's row map of ss.csv does not fit this original and nss.csv (each ss.csv row must be the sensitive value and class of one record of nss.csv)")
		return nil
	}
	r.Add(true, "audit", "the audit record pins every row of ss.csv to the record of nss.csv with the same class and an equal sensitive value")
	return nil
}

// ssShuffled: ss.csv's rows are not in the input's order.
func ssShuffled(c *ctx, r *verify.Report) error {
	if f := c.pinnedOK(); f != nil && len(f.ssRows) > 0 && f.ssFits {
		verify.Shuffled(fileSS, f.ssRows, f.ssValues, r)
	}
	return nil
}

// ssOrder: when no audit row map pins ss.csv's rows, they are not in the
// input's order: each row's key, the mean input row of its class's
// records with its sensitive value (read from its content alone), must
// not follow the file's order (verify.OrderByKeys; SPEC 7.3). An ss.csv
// in the input's order gives whoever knows that order each record's
// sensitive value, whatever the lossy join hides (Wong et al., Section 5).
func ssOrder(c *ctx, r *verify.Report) error {
	f := c.pinnedOK()
	if f == nil || len(f.ssRows) > 0 {
		return nil
	}
	classOfInput := make([]int, f.o.Table.Rows)
	for i := range classOfInput {
		classOfInput[i] = -1
	}
	if f.pin != nil && f.pin.Rows != nil {
		for row, in := range f.pin.Rows {
			classOfInput[in] = f.nssOf[row]
		}
	} else {
		for id, cls := range f.classOf {
			for _, in := range f.match.Rows(int32(id)) {
				classOfInput[in] = cls
			}
		}
	}
	type classValue struct {
		class int
		sa    string
	}
	sum, count := map[classValue]float64{}, map[classValue]int{}
	for in, cls := range classOfInput {
		if cls >= 0 {
			v, _ := f.o.Text(f.o.SA, in)
			sum[classValue{cls, v}] += float64(in)
			count[classValue{cls, v}]++
		}
	}
	ssOf, sa := c.joinedOf().ssOf, c.ss.Columns[1]
	keys := make([]float64, c.ss.Rows)
	for row := range keys {
		if k := (classValue{ssOf[row], sa.Value(row)}); count[k] > 0 {
			keys[row] = sum[k] / float64(count[k])
		}
	}
	verify.OrderByKeys(fileSS, keys, r)
	return nil
}

// positionLinkLine: row order does not pair nss.csv with ss.csv (Section
// 5 publishes the two tables shuffled independently).
func positionLinkLine(c *ctx, r *verify.Report) error {
	if f := c.pinnedOK(); f != nil && f.link != nil {
		r.Lines = append(r.Lines, *f.link)
	}
	return nil
}

func distinctRows(rows []int) bool {
	lo, hi, dense := denseRange(rows)
	if dense {
		seen := make([]bool, hi-lo+1)
		for _, x := range rows {
			if seen[x-lo] {
				return false
			}
			seen[x-lo] = true
		}
		return true
	}
	seen := make(map[int]bool, len(rows))
	for _, x := range rows {
		if seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

// denseRange is the range of rows and whether a slice over it is small
// (at most four times the rows, plus a little): input rows usually are.
func denseRange(rows []int) (lo, hi int, dense bool) {
	if len(rows) == 0 {
		return 0, -1, true
	}
	lo, hi = rows[0], rows[0]
	for _, x := range rows {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi, uint64(hi)-uint64(lo) < uint64(4*len(rows)+1024)
}

// rowIndex is the position of each value of rows (the last, for a value
// given twice): a slice over their range when it is small, else a map.
type rowIndex struct {
	lo    int
	dense []int32 // position + 1; 0 for none
	m     map[int]int
}

func newRowIndex(rows []int) *rowIndex {
	lo, hi, dense := denseRange(rows)
	if !dense || len(rows) >= 1<<31-1 {
		x := &rowIndex{m: make(map[int]int, len(rows))}
		for i, r := range rows {
			x.m[r] = i
		}
		return x
	}
	x := &rowIndex{lo: lo, dense: make([]int32, hi-lo+1)}
	for i, r := range rows {
		x.dense[r-lo] = int32(i + 1)
	}
	return x
}

// at is the position of value r.
func (x *rowIndex) at(r int) (int, bool) {
	if x.m != nil {
		i, ok := x.m[r]
		return i, ok
	}
	if r < x.lo || uint64(r)-uint64(x.lo) >= uint64(len(x.dense)) || x.dense[r-x.lo] == 0 {
		return 0, false
	}
	return int(x.dense[r-x.lo]) - 1, true
}

func sameCounts(a, b map[string]int) bool {
	n := 0
	for k, x := range a {
		if x != 0 {
			n++
			if b[k] != x {
				return false
			}
		}
	}
	m := 0
	for _, x := range b {
		if x != 0 {
			m++
		}
	}
	return n == m
}
