package verify

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"privlab/model"
	"privlab/model/releasedir"
)

// Original is the table a release was made from, read as the release
// publishes it: a missing value is published as "?" under the category
// policy (a categorical column's) and drops its row otherwise. Its
// tuples are matched with a published file's on dictionary codes (Match),
// never on per-row text.
type Original struct {
	Table *model.Table
	QIs   []*model.Column
	SA    *model.Column // nil when the release has no sensitive attribute
	// Kept says which rows the release publishes; Rows counts them.
	Kept     []bool
	Rows     int
	category bool
}

// NewOriginal resolves the manifest's QIs and SA on the original; an
// original without them is an input error.
func NewOriginal(orig *model.Table, m *releasedir.Manifest) (*Original, error) {
	cols, err := orig.MustColumns("original", m.QIs)
	if err != nil {
		return nil, err
	}
	o := &Original{Table: orig, QIs: cols, Kept: make([]bool, orig.Rows), category: m.MissingValues == "category"}
	if m.SA != "" {
		if o.SA = orig.Column(m.SA); o.SA == nil {
			return nil, &model.ParamError{Param: "original", Value: orig.Name, Reason: fmt.Sprintf("the original has no sensitive column %q", m.SA),
				Hint: "give the table the release was made from"}
		}
	}
	used := append([]*model.Column{}, cols...)
	if o.SA != nil {
		used = append(used, o.SA)
	}
	for row := range o.Kept {
		o.Kept[row] = true
		for _, c := range used {
			if c.Codes[row] == model.Missing && !o.publishesMissing(c) {
				o.Kept[row] = false
				break
			}
		}
		if o.Kept[row] {
			o.Rows++
		}
	}
	return o, nil
}

// publishesMissing says whether a missing value of c is published ("?").
func (o *Original) publishesMissing(c *model.Column) bool {
	return o.category && c.Kind != model.Numeric
}

// Text is a cell as the release would publish it; false when the row is
// not published for it.
func (o *Original) Text(c *model.Column, row int) (string, bool) {
	if c.IsMissing(row) {
		return "?", o.publishesMissing(c)
	}
	return c.Value(row), true
}

// Texts lists what the release publishes for each of c's codes, the
// missing value's text last (index len(c.Dict)): a loop over rows reads
// a code's text, or anything derived from it, without a string per row.
func (o *Original) Texts(c *model.Column) []string {
	return append(append([]string{}, c.Dict...), "?")
}

// Code is a row's index into Texts(c).
func Code(c *model.Column, row int) int {
	if code := c.Codes[row]; code != model.Missing {
		return int(code)
	}
	return len(c.Dict)
}

// TupleMatch pairs the quasi-identifier tuples of a published file with
// the original's, as multisets: Pub and Orig give every row its tuple
// (-1: an original row the release does not publish).
type TupleMatch struct {
	File   string
	Pub    []int32
	Orig   []int32
	Tuples int
	// Differ counts the tuples whose rows differ in number between the
	// file and the original.
	Differ int
	// first and rows list each tuple's original rows, in row order.
	first, rows []int32
}

// Same reports whether the file's tuples are exactly the original's.
func (t *TupleMatch) Same() bool { return t.Differ == 0 }

// Match numbers the tuples of cols (a published file's QI columns, in
// the manifest's order) and of the original's QIs in one numbering: each
// original code is translated once to the published column's code of the
// text the release would publish for it.
//
// A file with another number of columns shares no tuple with the
// original.
func (o *Original) Match(file string, cols []*model.Column, rows int) *TupleMatch {
	t := &TupleMatch{File: file, Pub: make([]int32, rows), Orig: make([]int32, o.Table.Rows)}
	trans := make([][]uint32, len(o.QIs))
	radix := make([]uint64, len(o.QIs))
	pubRadix := make([]uint64, len(cols))
	for i, c := range cols {
		pubRadix[i] = uint64(len(c.Dict) + 1)
	}
	for i, c := range o.QIs {
		trans[i], radix[i] = o.identity(c)
		if len(cols) == len(o.QIs) {
			trans[i], radix[i] = o.translate(c, cols[i])
		}
	}
	pub, orig := NewTupleKeys(pubRadix), NewTupleKeys(radix)
	if len(cols) == len(o.QIs) {
		pub = orig // one numbering, over the translated codes' ranges
	}
	codes := make([]uint32, len(cols))
	for row := 0; row < rows; row++ {
		for i, c := range cols {
			codes[i] = publishedCode(c, row)
		}
		t.Pub[row] = pub.ID(codes)
	}
	codes = make([]uint32, len(o.QIs))
	for row := range t.Orig {
		t.Orig[row] = -1
		if !o.Kept[row] {
			continue
		}
		for i, c := range o.QIs {
			codes[i] = trans[i][Code(c, row)]
		}
		t.Orig[row] = orig.ID(codes)
		if orig != pub {
			t.Orig[row] += int32(pub.n)
		}
	}
	t.Tuples = pub.n
	if orig != pub {
		t.Tuples += orig.n
	}
	t.count()
	return t
}

// identity numbers an original column's codes as they are (its missing
// value last).
func (o *Original) identity(c *model.Column) ([]uint32, uint64) {
	out := make([]uint32, len(c.Dict)+1)
	for i := range out {
		out[i] = uint32(i)
	}
	return out, uint64(len(out))
}

// publishedCode is a published cell's code, an empty cell (not a value
// of the dictionary) len(Dict).
func publishedCode(c *model.Column, row int) uint32 {
	if code := c.Codes[row]; code != model.Missing {
		return code
	}
	return uint32(len(c.Dict))
}

// translate maps each code of the original column (and its missing
// value, last) to the published column's code of the same text; a text
// the file does not hold gets a code of its own past the file's. It
// returns the map and the number of codes.
func (o *Original) translate(orig, pub *model.Column) ([]uint32, uint64) {
	at := make(map[string]uint32, len(pub.Dict)+1)
	for code, s := range pub.Dict {
		at[s] = uint32(code)
	}
	at[""] = uint32(len(pub.Dict))
	next := uint32(len(pub.Dict) + 1)
	texts := o.Texts(orig)
	out := make([]uint32, len(texts))
	for code, s := range texts {
		c, ok := at[s]
		if !ok {
			c, at[s] = next, next
			next++
		}
		out[code] = c
	}
	return out, uint64(next)
}

// count compares the tuples' counts and lists each tuple's original rows.
func (t *TupleMatch) count() {
	pub := make([]int32, t.Tuples)
	orig := make([]int32, t.Tuples+1)
	for _, id := range t.Pub {
		pub[id]++
	}
	for _, id := range t.Orig {
		if id >= 0 {
			orig[id+1]++
		}
	}
	for id := 0; id < t.Tuples; id++ {
		if pub[id] != orig[id+1] {
			t.Differ++
		}
		orig[id+1] += orig[id]
	}
	t.first = orig
	t.rows = make([]int32, orig[t.Tuples])
	next := append([]int32(nil), orig[:t.Tuples]...)
	for row, id := range t.Orig {
		if id >= 0 {
			t.rows[next[id]] = int32(row)
			next[id]++
		}
	}
}

// Rows lists a tuple's original rows, in row order.
func (t *TupleMatch) Rows(id int32) []int32 { return t.rows[t.first[id]:t.first[id+1]] }

// AddTuples adds the line that the file's tuples are the original's.
func (r *Report) AddTuples(t *TupleMatch) {
	r.Add(t.Same(), "tuples", "the quasi-identifier tuples of %s are exactly the original's (%d QI combinations differ in count)", t.File, t.Differ)
}

// TupleKeys numbers tuples of dictionary codes 0, 1, 2, ... in order of
// first appearance: a tuple is packed into one number when the codes'
// ranges allow it, else into bytes (never a text per row).
type TupleKeys struct {
	mult  []uint64 // nil: bytes
	small map[uint64]int32
	large map[string]int32
	buf   []byte
	n     int
}

// NewTupleKeys numbers tuples whose i-th code is below radix[i].
func NewTupleKeys(radix []uint64) *TupleKeys {
	k := &TupleKeys{mult: make([]uint64, len(radix)), small: map[uint64]int32{}}
	m := uint64(1)
	for i, r := range radix {
		k.mult[i] = m
		hi, lo := bits.Mul64(m, max(r, 1))
		if hi != 0 {
			return &TupleKeys{large: map[string]int32{}}
		}
		m = lo
	}
	return k
}

// ID is the tuple's number.
func (k *TupleKeys) ID(codes []uint32) int32 {
	if k.large != nil {
		k.buf = k.buf[:0]
		for _, c := range codes {
			k.buf = binary.LittleEndian.AppendUint32(k.buf, c)
		}
		id, ok := k.large[string(k.buf)]
		if !ok {
			id = int32(k.n)
			k.large[string(k.buf)] = id
			k.n++
		}
		return id
	}
	var key uint64
	for i, c := range codes {
		key += uint64(c) * k.mult[i]
	}
	id, ok := k.small[key]
	if !ok {
		id = int32(k.n)
		k.small[key] = id
		k.n++
	}
	return id
}

// Pinning gives the original row behind every published row of a file
// (Rows; nil when the files do not fix it).
type Pinning struct {
	File string
	Rows []int
	// ByAudit says the audit record's row map pinned the rows (Fits: to
	// rows with the same tuples); otherwise Spanning counts the tuples
	// whose rows are not interchangeable, which the files cannot pin.
	ByAudit, Fits bool
	Spanning      int
	// Keys are, when the files pinned the rows tuple by tuple, each
	// row's tuple's first original row (ShuffledKeys); nil by the audit.
	Keys []int
}

// Pin pins the file's rows: by the audit record's row map when it has
// one for the file (every row must name an original row of its tuple),
// else by tuple when each tuple's rows are interchangeable
// (interchangeable says whether a tuple's published rows can stand for
// any of its original rows; nil: all can), the j-th published row of a
// tuple taking its j-th original row. The tuples must be the same.
func (t *TupleMatch) Pin(audit *releasedir.Audit, interchangeable func(id int32) bool) *Pinning {
	p := &Pinning{File: t.File}
	if audit != nil && len(audit.RowMap[t.File]) > 0 {
		rows := audit.RowMap[t.File]
		p.ByAudit, p.Fits = true, len(rows) == len(t.Pub)
		for i := 0; p.Fits && i < len(rows); i++ {
			p.Fits = rows[i] >= 0 && rows[i] < len(t.Orig) && t.Orig[rows[i]] == t.Pub[i]
		}
		if p.Fits {
			p.Rows = append([]int(nil), rows...)
		}
		return p
	}
	for id := int32(0); int(id) < t.Tuples; id++ {
		if len(t.Rows(id)) > 0 && interchangeable != nil && !interchangeable(id) {
			p.Spanning++
		}
	}
	if p.Spanning > 0 {
		return p
	}
	p.Rows = make([]int, len(t.Pub))
	p.Keys = make([]int, len(t.Pub))
	next := make([]int32, t.Tuples)
	for i, id := range t.Pub {
		p.Rows[i] = int(t.rows[t.first[id]+next[id]])
		p.Keys[i] = int(t.rows[t.first[id]])
		next[id]++
	}
	return p
}

// AddPinning adds the line on how the rows were pinned (none when the
// files pin them) and reports whether they were.
func (r *Report) AddPinning(p *Pinning) bool {
	switch {
	case p.ByAudit && !p.Fits:
		r.Add(false, "audit", "the audit record's row map does not fit this original and %s", p.File)
	case p.ByAudit:
		r.Add(true, "audit", "the audit record pins every row of %s to an input row with the same QI values", p.File)
	case p.Rows == nil:
		r.Add(false, "pinning", "undetermined: %d QI combinations of %s lie in more than one group, so the files do not say which original row is which; check with the audit record written beside the release", p.Spanning, p.File)
	}
	return p.Rows != nil
}
