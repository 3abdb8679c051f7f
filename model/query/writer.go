package query

import (
	"strings"
	"sync"
	"unicode/utf8"

	"privlab/model"
)

// Writer writes a generated query's text and builds, as it writes,
// the Query that Parse reads from that text: a random workload's IN
// lists run to thousands of values per query (a 20,000-value attribute),
// and lexing them back cost more than answering them. Column names are
// written double-quoted, values as QuoteLiteral writes them, numbers as
// given. Whatever the writer cannot vouch for (a name that needs
// escaping, text that is not UTF-8, a number ParseNumber does not read)
// makes Query parse the text instead, so the result is always
// Parse's (TestQueryWriterIsParseQuery).
type Writer struct {
	b      strings.Builder
	runes  int
	q      Query
	parse  bool // read the text back with Parse
	nPreds int
}

// NewWriter starts a query: COUNT(*) when column is "", else
// AGG("column").
func NewWriter(agg Agg, column string) *Writer {
	w := &Writer{q: Query{Agg: agg}}
	w.write(agg.String() + "(")
	if column == "" {
		w.write("*)")
		return w
	}
	w.q.Column, w.q.ColPos = column, w.name(column)
	w.write(")")
	return w
}

func (w *Writer) write(s string) {
	w.b.WriteString(s)
	w.runes += utf8.RuneCountInString(s)
}

// name writes a column name (QuoteName) and returns its 1-based column.
func (w *Writer) name(name string) int {
	pos := w.runes + 1
	if name == "" || !utf8.ValidString(name) {
		w.parse = true // the lexer refuses the one and reads the other as U+FFFD
	}
	w.write(QuoteName(name))
	return pos
}

// QuoteName writes a column name as the query lexer reads it back: in
// double quotes, a double quote doubled, every other character as it is
// (a backslash or a tab is no escape), so that any name round-trips.
func QuoteName(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// pred starts a condition on a column.
func (w *Writer) pred(column string, op Op) *Pred {
	if w.nPreds == 0 {
		w.write(" WHERE ")
	} else {
		w.write(" AND ")
	}
	w.nPreds++
	w.q.Preds = append(w.q.Preds, Pred{Column: column, Op: op})
	p := &w.q.Preds[len(w.q.Preds)-1]
	p.Pos = w.name(column)
	return p
}

// number writes a number as given (FormatNumber's text) as a literal.
func (w *Writer) number(text string) Literal {
	l := Literal{Text: text, Pos: int32(w.runes + 1), IsNum: true}
	var ok bool
	if l.Num, ok = model.ParseNumber(text); !ok || !bareNumber(text) {
		w.parse = true
	}
	w.write(text)
	return l
}

// bareNumber reports whether the lexer reads text, a number ParseNumber
// reads, as one number token: it starts as the lexer's numbers start and
// holds only what they hold.
func bareNumber(text string) bool {
	if text == "" || !(text[0] >= '0' && text[0] <= '9') &&
		!(len(text) > 1 && strings.ContainsRune("+-.", rune(text[0])) && (text[1] >= '0' && text[1] <= '9' || text[1] == '.')) {
		return false
	}
	for i := 1; i < len(text); i++ {
		c := text[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || (c == '-' || c == '+') && (text[i-1] == 'e' || text[i-1] == 'E')) {
			return false
		}
	}
	return true
}

// value writes a value as QuoteLiteral does and returns its literal.
func (w *Writer) value(v string) Literal {
	pos := w.runes + 1
	num, ok := model.ParseNumber(v)
	if !utf8.ValidString(v) {
		w.parse = true
	}
	if ok && !strings.ContainsAny(v, " '") { // bare: a number
		if !bareNumber(v) {
			w.parse = true
		}
		w.write(v)
		return Literal{Text: v, Num: num, IsNum: true, Pos: int32(pos)}
	}
	w.write(quote(v))
	return Literal{Text: v, Num: num, IsNum: ok, Pos: int32(pos)}
}

// Between adds column BETWEEN lo AND hi (numbers as text).
func (w *Writer) Between(column, lo, hi string) {
	p := w.pred(column, OpBetween)
	w.write(" BETWEEN ")
	a := w.number(lo)
	w.write(" AND ")
	p.Values = []Literal{a, w.number(hi)}
}

// Equal adds column = value.
func (w *Writer) Equal(column, value string) {
	p := w.pred(column, OpEq)
	w.write(" = ")
	p.Values = []Literal{w.value(value)}
}

// Literals are a column's values as query literals, written once for all
// the queries of a workload that list them (NewLiterals): all at once
// when a list first needs them, each followed by the ", " that separates
// it from the next, in one text, so that a list of thousands of values
// is copied value by value from it.
type Literals struct {
	c      *model.Column
	built  bool
	text   []byte  // every value as written, each followed by ", "
	off    []int32 // code -> where its text starts (off[n]: the end)
	runes  []int32 // code -> its text's runes
	lits   []Literal
	parse  []bool
	anyBad bool // some value needs Parse
	index  *listIndex
}

// NewLiterals starts the literals of c's values.
func NewLiterals(c *model.Column) *Literals {
	return &Literals{c: c, index: &listIndex{dict: c.Dict}}
}

// build writes every value as Writer.value does.
func (l *Literals) build() {
	if l.built {
		return
	}
	l.built = true
	n := len(l.c.Dict)
	l.off, l.runes = make([]int32, n+1), make([]int32, n)
	l.lits, l.parse = make([]Literal, n), make([]bool, n)
	for code, v := range l.c.Dict {
		var w Writer
		l.lits[code] = w.value(v)
		l.lits[code].Pos = 0
		l.off[code] = int32(len(l.text))
		l.text = append(append(l.text, w.b.String()...), ", "...)
		l.runes[code] = int32(w.runes)
		l.parse[code] = w.parse
		l.anyBad = l.anyBad || w.parse
	}
	l.off[n] = int32(len(l.text))
}

// InInto adds column IN (the values of the column's codes), the list's
// values written into values (of length len(codes)), which the query
// then holds: a categorical column's list also carries the codes, so
// that binding it to that column sets them without reading the
// dictionary (codeHint); a caller that lets go of its queries a few at a
// time (workload.Measure) hands the lists of those it let go to the next
// ones.
func (w *Writer) InInto(l *Literals, codes []uint32, values []Literal) {
	c := l.c
	p := w.pred(c.Name, OpIn)
	w.write(" IN (")
	p.Values = values[:len(codes):len(codes)]
	l.build()
	size := 0
	for _, code := range codes {
		size += int(l.off[code+1] - l.off[code])
	}
	w.b.Grow(size + 1)
	for i, code := range codes {
		if i > 0 {
			w.runes += 2 // the ", " written after the previous value
		}
		p.Values[i] = l.lits[code]
		p.Values[i].Pos = int32(w.runes + 1)
		text := l.text[l.off[code]:l.off[code+1]]
		if i == len(codes)-1 {
			text = text[:len(text)-2]
		}
		w.b.Write(text)
		w.runes += int(l.runes[code])
		if l.anyBad && l.parse[code] {
			w.parse = true
		}
	}
	w.write(")")
	if len(p.Values) > inList {
		p.in = newInSet(p.Values)
	}
	if c.Kind == model.Categorical && len(codes) > 0 {
		p.codes = &codeHint{dict: &c.Dict[0], n: len(c.Dict), codes: codes, first: &p.Values[0], values: len(p.Values), index: l.index}
	}
}

// Query returns the query: the one built, or Parse's reading of the
// text when the writer could not vouch for it.
func (w *Writer) Query() (*Query, error) { return w.query(MaxBytes) }

// query is Query for queries shorter than limit bytes (a longer one is
// parseQuery's error).
func (w *Writer) query(limit int) (*Query, error) {
	text := w.b.String()
	if w.parse || len(text) >= limit {
		return parseQuery(text, limit)
	}
	w.q.Text = text
	q := w.q
	return &q, nil
}

// QuoteLiteral writes a value as a query literal: a number as it is, text
// in single quotes with ” for a quote.
func QuoteLiteral(v string) string {
	if _, ok := model.ParseNumber(v); ok && !strings.ContainsAny(v, " '") {
		return v
	}
	return quote(v)
}

func quote(v string) string {
	if !strings.Contains(v, "'") {
		return "'" + v + "'"
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// codeHint is an IN list written from a categorical column's codes: the
// values are that dictionary's entries at codes, so a column with that
// very dictionary (its first entry's address and length) matches exactly
// the codes (a dictionary holds each text once). first and values
// identify the list, as in inSet.
//
// The list's texts are then known as a set of the dictionary's codes
// too: a text is in the list when the dictionary's index (shared by every
// query written from it) gives it a code the list holds. So a long list
// is decided without a set of its texts built per query (thousands of
// map entries for each of a workload's queries), and a list is bound to
// a categorical column of another table (a release's) through that
// column's translation to this dictionary, made once for all the
// queries.
type codeHint struct {
	dict   *string
	n      int
	codes  []uint32
	first  *Literal
	values int
	index  *listIndex
	// in holds the list's codes (index.first's), made when first asked.
	inOnce sync.Once
	in     []uint64
}

// of reports whether the hint holds for the list and column.
func (h *codeHint) of(values []Literal, c *model.Column) bool {
	return h.listed(values) && c.Kind == model.Categorical && len(c.Dict) == h.n && &c.Dict[0] == h.dict
}

// listed reports whether the hint holds for the list (values).
func (h *codeHint) listed(values []Literal) bool {
	return h != nil && h.n > 0 && len(values) == h.values && len(values) > 0 && &values[0] == h.first
}

// set is the list's codes as a bit set over index.first's codes.
func (h *codeHint) set() []uint64 {
	h.inOnce.Do(func() {
		first := h.index.firsts()
		h.in = make([]uint64, (h.n+63)/64)
		for _, c := range h.codes {
			f := first[c]
			h.in[f/64] |= 1 << (f % 64)
		}
	})
	return h.in
}

// hasText reports whether text is one of the list's values.
func (h *codeHint) hasText(text string) bool {
	f, ok := h.index.code(text)
	return ok && h.set()[f/64]&(1<<(f%64)) != 0
}

// bindTo sets pass[code+1] for every code of the categorical column c
// whose text is one of the list's values: the list's codes are taken to
// c's through the translation's inverse, a step per listed value rather
// than per value of c.
func (h *codeHint) bindTo(c *model.Column, pass []byte) {
	tr := h.index.translate(c)
	first := h.index.firsts()
	for _, code := range h.codes {
		f := first[code]
		for _, t := range tr.of[tr.start[f]:tr.start[f+1]] {
			pass[t+1] = 1
		}
	}
}

// listIndex indexes a dictionary's texts for the lists written from it.
// A text's code is the first code that holds it (a column's dictionary
// holds each text once; a hand-made one may not).
type listIndex struct {
	dict   []string
	once   sync.Once
	byText map[string]int32
	first  []int32 // code -> the first code of its text
	// trans maps a categorical column (by address, with its dictionary's
	// address and length) to each of its codes' code here (-1: none).
	trans sync.Map
}

// translation is a column's codes as a dictionary's (codes, -1: none)
// and its inverse: of[start[f]:start[f+1]] are the column's codes whose
// text is the dictionary's code f (the first code of its text).
type translation struct {
	dict  *string
	n     int
	codes []int32
	start []int32
	of    []int32
}

func (x *listIndex) build() {
	x.once.Do(func() {
		x.byText = make(map[string]int32, len(x.dict))
		x.first = make([]int32, len(x.dict))
		for i, s := range x.dict {
			f, seen := x.byText[s]
			if !seen {
				f = int32(i)
				x.byText[s] = f
			}
			x.first[i] = f
		}
	})
}

func (x *listIndex) firsts() []int32 {
	x.build()
	return x.first
}

func (x *listIndex) code(text string) (int32, bool) {
	x.build()
	f, ok := x.byText[text]
	return f, ok
}

// translate is c's codes as codes here, made once per column.
func (x *listIndex) translate(c *model.Column) *translation {
	if v, ok := x.trans.Load(c); ok {
		if tr := v.(*translation); len(c.Dict) == tr.n && (tr.n == 0 || &c.Dict[0] == tr.dict) {
			return tr
		}
	}
	tr := &translation{n: len(c.Dict), codes: make([]int32, len(c.Dict))}
	if tr.n > 0 {
		tr.dict = &c.Dict[0]
	}
	for t, s := range c.Dict {
		f, ok := x.code(s)
		if !ok {
			f = -1
		}
		tr.codes[t] = f
	}
	tr.start = make([]int32, len(x.dict)+1)
	for _, f := range tr.codes {
		if f >= 0 {
			tr.start[f+1]++
		}
	}
	for f := range x.dict {
		tr.start[f+1] += tr.start[f]
	}
	tr.of = make([]int32, tr.start[len(x.dict)])
	next := append([]int32(nil), tr.start[:len(x.dict)]...)
	for t, f := range tr.codes {
		if f >= 0 {
			tr.of[next[f]] = int32(t)
			next[f]++
		}
	}
	x.trans.Store(c, tr)
	return tr
}
