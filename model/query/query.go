package query

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"privlab/model"
)

// The query language of SPEC Section 4:
//
//	COUNT(*) | SUM(sa) | AVG(sa) | MIN(sa) | MAX(sa)
//	  [WHERE pred {AND pred}]
//	pred := col = v | col != v | col < v | col <= v | col > v | col >= v
//	      | col BETWEEN a AND b | col IN (v1, v2, ...)
//
// Keywords are case-insensitive. Column names may contain letters, digits,
// '_', '-' and '.', or be written in double quotes or backticks. Values are
// numbers, 'single-quoted' text or bare words.

// Agg is an aggregate function.
type Agg int

const (
	Count Agg = iota
	Sum
	Avg
	Min
	Max
)

var aggNames = []string{"COUNT", "SUM", "AVG", "MIN", "MAX"}

func (a Agg) String() string { return aggNames[a] }

// Op is a comparison in a predicate.
type Op int

const (
	OpEq Op = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpBetween
	OpIn
)

var opNames = []string{"=", "!=", "<", "<=", ">", ">=", "BETWEEN", "IN"}

func (o Op) String() string { return opNames[o] }

// Literal is a value in a predicate.
type Literal struct {
	Text string
	Num  float64
	// Pos is the 1-based column in the query text: 32 bits, so that a
	// literal takes 32 bytes, not 40 (a generated workload holds a
	// million of them: 100 IN lists of thousands of values; Parse
	// takes no query of MaxBytes or more, so it fits).
	Pos   int32
	IsNum bool
}

// MaxBytes bounds a query's text, so that every column of it fits
// a Literal's Pos.
const MaxBytes = 1 << 30

// Pred is one condition of a WHERE clause. A parsed predicate's Values
// are not to be modified: a long IN list is indexed once (see inSet).
type Pred struct {
	Column string
	Pos    int
	Op     Op
	Values []Literal
	// in indexes a long IN list's values, built by Parse, so that
	// MatchValue costs one lookup instead of one comparison per value:
	// with a comparison per value, deciding every value of a column with
	// an IN list over a share of its values is quadratic in its distinct
	// values (issue 20).
	in *inSet
	// codes are the dictionary codes a Writer wrote the list from.
	codes *codeHint
}

// inList is the IN list length from which Parse indexes the list
// (shorter lists are scanned: as fast, and no map).
const inList = 8

// inSet is an IN list's values as sets: their texts, compared exactly,
// and their numbers (Literal.Num, 0 for text), compared by value, each
// built the first time it is asked for (a query may be answered on
// several goroutines at once; a list bound by its codes never needs
// them). first and n identify the Values slice it was made for, so that
// a predicate whose list was replaced is scanned, never answered from a
// stale set.
type inSet struct {
	values   []Literal
	first    *Literal
	n        int
	textOnce sync.Once
	text     map[string]struct{}
	numOnce  sync.Once
	num      map[float64]struct{}
	// nan is set when a value is NaN: MatchValue's comparison finds a
	// NaN neither below nor above any number, so it matches everything.
	nan bool
}

func newInSet(values []Literal) *inSet {
	return &inSet{values: values, first: &values[0], n: len(values)}
}

// of reports whether the set was made for values.
func (s *inSet) of(values []Literal) bool {
	return s != nil && len(values) == s.n && &values[0] == s.first
}

// has reports whether a value is in the set: the same answer as
// comparing it with each value of the list (map keys compare with ==, so
// 0 and -0 are one number as they are to <, > and ==; a NaN, which the
// comparison finds equal to every number, matches a non-empty list).
func (s *inSet) has(text string, num float64, numeric bool) bool {
	if numeric {
		s.numOnce.Do(func() {
			s.num = make(map[float64]struct{}, len(s.values))
			for _, v := range s.values {
				s.num[v.Num] = struct{}{}
				s.nan = s.nan || math.IsNaN(v.Num)
			}
		})
		if s.nan || math.IsNaN(num) {
			return true
		}
		_, ok := s.num[num]
		return ok
	}
	s.textOnce.Do(func() {
		s.text = make(map[string]struct{}, len(s.values))
		for _, v := range s.values {
			s.text[v.Text] = struct{}{}
		}
	})
	_, ok := s.text[text]
	return ok
}

// Query is a parsed query.
type Query struct {
	Text   string
	Agg    Agg
	Column string // "" for COUNT(*)
	ColPos int
	Preds  []Pred
}

// Error is a parse or binding error at a column of the query text.
type Error struct {
	Query string
	Pos   int // 1-based
	Msg   string
	Hint  string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("query:1:%d: %s", e.Pos, e.Msg)
	if e.Hint != "" {
		s += " (hint: " + e.Hint + ")"
	}
	return s
}

// Caret renders the query with a ^ under the bad token. The query is
// shown escaped (TermText: a tab as \t), so the caret is placed under
// the escaped text.
func (e *Error) Caret() string {
	rs := []rune(e.Query)
	pos := min(max(e.Pos-1, 0), len(rs))
	pad := utf8.RuneCountInString(model.TermText(string(rs[:pos])))
	return model.TermText(e.Query) + "\n" + strings.Repeat(" ", pad) + "^"
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tSym
)

type token struct {
	kind tokKind
	text string
	pos  int // 1-based rune column
	num  float64
}

func lexQuery(s string) ([]token, error) {
	toks := make([]token, 0, 16+2*strings.Count(s, ","))
	rs := []rune(s)
	i := 0
	for i < len(rs) {
		r := rs[i]
		var tok token
		var err error
		switch {
		case unicode.IsSpace(r):
			i++
			continue
		case r == '\'' || r == '"' || r == '`':
			tok, i, err = lexQuoted(s, rs, i)
		case startsNumber(rs, i):
			tok, i, err = lexNumber(s, rs, i)
		case unicode.IsLetter(r) || r == '_':
			tok, i = lexWord(rs, i, i+1)
		default:
			tok, i, err = lexSymbol(s, rs, i)
		}
		if err != nil {
			return nil, err
		}
		toks = append(toks, tok)
	}
	toks = append(toks, token{kind: tEOF, pos: len(rs) + 1})
	return toks, nil
}

// startsNumber reports whether a number starts at rs[i]: a digit, or a
// sign or point before a digit or point.
func startsNumber(rs []rune, i int) bool {
	r := rs[i]
	return unicode.IsDigit(r) || ((r == '-' || r == '+' || r == '.') && i+1 < len(rs) && (unicode.IsDigit(rs[i+1]) || rs[i+1] == '.'))
}

// lexQuoted reads the quoted text at rs[i]: a string in single quotes, a
// column name in double quotes or backquotes. It returns the token and
// the index after it.
func lexQuoted(s string, rs []rune, i int) (token, int, error) {
	r, pos := rs[i], i+1
	text, j := quoted(rs, i)
	if j >= len(rs) {
		return token{}, 0, &Error{Query: s, Pos: pos, Msg: "unterminated quoted text", Hint: "close it with " + string(r)}
	}
	kind := tString
	if r != '\'' {
		kind = tIdent // "name" and `name` quote column names
		if text == "" {
			// An empty name would read as * in COUNT("").
			return token{}, 0, &Error{Query: s, Pos: pos, Msg: "empty column name", Hint: "write the column's name between the quotes"}
		}
	}
	return token{kind: kind, text: text, pos: pos}, j + 1, nil
}

// lexNumber reads the number at rs[i]; a number glued to letters (e.g.
// 50K) is a bare word.
func lexNumber(s string, rs []rune, i int) (token, int, error) {
	j := i + 1
	for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' || rs[j] == 'e' || rs[j] == 'E' ||
		((rs[j] == '-' || rs[j] == '+') && (rs[j-1] == 'e' || rs[j-1] == 'E'))) {
		j++
	}
	if j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '_') {
		tok, next := lexWord(rs, i, j)
		return tok, next, nil
	}
	text := string(rs[i:j])
	v, ok := model.ParseNumber(text)
	if !ok {
		return token{}, 0, &Error{Query: s, Pos: i + 1, Msg: fmt.Sprintf("bad number %q", text)}
	}
	return token{kind: tNumber, text: text, pos: i + 1, num: v}, j, nil
}

// lexWord reads the bare word starting at rs[i], whose runes before
// rs[j] are already known to belong to it.
func lexWord(rs []rune, i, j int) (token, int) {
	for j < len(rs) && isIdentRune(rs[j]) {
		j++
	}
	return token{kind: tIdent, text: string(rs[i:j]), pos: i + 1}, j
}

// lexSymbol reads the punctuation or comparison at rs[i]; <> reads as !=.
func lexSymbol(s string, rs []rune, i int) (token, int, error) {
	r, pos := rs[i], i+1
	switch {
	case strings.ContainsRune("(),*", r):
		return token{kind: tSym, text: string(r), pos: pos}, i + 1, nil
	case r == '=':
		return token{kind: tSym, text: "=", pos: pos}, i + 1, nil
	case r == '!' || r == '<' || r == '>':
		if i+1 < len(rs) && (rs[i+1] == '=' || (r == '<' && rs[i+1] == '>')) {
			t := string(rs[i : i+2])
			if t == "<>" {
				t = "!="
			}
			return token{kind: tSym, text: t, pos: pos}, i + 2, nil
		}
		if r == '!' {
			return token{}, 0, &Error{Query: s, Pos: pos, Msg: "unexpected '!'", Hint: "not-equal is != or <>"}
		}
		return token{kind: tSym, text: string(r), pos: pos}, i + 1, nil
	}
	return token{}, 0, &Error{Query: s, Pos: pos, Msg: fmt.Sprintf("unexpected character %q", r)}
}

// quoted reads the text quoted by rs[i] (a doubled quote stands for
// one) and returns it with the index of the closing quote (len(rs) when
// there is none).
func quoted(rs []rune, i int) (string, int) {
	q := rs[i]
	doubled := false
	j := i + 1
	for ; j < len(rs); j++ {
		if rs[j] == q {
			if j+1 < len(rs) && rs[j+1] == q {
				doubled = true
				j++
				continue
			}
			break
		}
	}
	if !doubled {
		return string(rs[i+1 : min(j, len(rs))]), j
	}
	var b strings.Builder
	for k := i + 1; k < j; k++ {
		b.WriteRune(rs[k])
		if rs[k] == q {
			k++ // the doubled quote's second half
		}
	}
	return b.String(), j
}

func isIdentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.'
}

type parser struct {
	q    string
	toks []token
	i    int
}

func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }
func (p *parser) errAt(t token, msg, hint string) error {
	return &Error{Query: p.q, Pos: t.pos, Msg: msg, Hint: hint}
}
func (p *parser) isKeyword(t token, kw string) bool {
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}
func (p *parser) expectSym(s, hint string) (token, error) {
	t := p.next()
	if t.kind != tSym || t.text != s {
		return t, p.errAt(t, fmt.Sprintf("expected %q, found %s", s, describe(t)), hint)
	}
	return t, nil
}

func describe(t token) string {
	if t.kind == tEOF {
		return "end of query"
	}
	return fmt.Sprintf("%q", t.text)
}

// Parse parses the query language; errors give the column of the bad
// token.
func Parse(s string) (*Query, error) { return parseQuery(s, MaxBytes) }

// parseQuery is Parse taking queries shorter than limit bytes.
func parseQuery(s string, limit int) (*Query, error) {
	if !utf8.ValidString(s) {
		return nil, &Error{Query: s, Pos: 1, Msg: "query is not valid UTF-8"}
	}
	if len(s) >= limit {
		return nil, &Error{Query: s, Pos: 1, Msg: fmt.Sprintf("query of %d bytes: privlab reads queries shorter than %d", len(s), limit), Hint: "split the IN list into several queries"}
	}
	toks, err := lexQuery(s)
	if err != nil {
		return nil, err
	}
	p := &parser{q: s, toks: toks}
	q := &Query{Text: s}
	t := p.next()
	found := false
	for i, n := range aggNames {
		if p.isKeyword(t, n) {
			q.Agg, found = Agg(i), true
		}
	}
	if !found {
		return nil, p.errAt(t, fmt.Sprintf("expected COUNT, SUM, AVG, MIN or MAX, found %s", describe(t)), "e.g. AVG(salary) WHERE gender = 'F'")
	}
	if _, err := p.expectSym("(", "write "+aggNames[q.Agg]+"(column)"); err != nil {
		return nil, err
	}
	t = p.next()
	switch {
	case t.kind == tSym && t.text == "*":
		if q.Agg != Count {
			return nil, p.errAt(t, aggNames[q.Agg]+"(*) is not defined", "aggregate a column, e.g. "+aggNames[q.Agg]+"(salary)")
		}
	case t.kind == tIdent:
		q.Column, q.ColPos = t.text, t.pos
	default:
		return nil, p.errAt(t, "expected a column name or *, found "+describe(t), "")
	}
	if _, err := p.expectSym(")", "close the aggregate with )"); err != nil {
		return nil, err
	}
	t = p.next()
	if t.kind == tEOF {
		return q, nil
	}
	if !p.isKeyword(t, "WHERE") {
		return nil, p.errAt(t, "expected WHERE or the end of the query, found "+describe(t), "")
	}
	for {
		pr, err := p.pred()
		if err != nil {
			return nil, err
		}
		q.Preds = append(q.Preds, pr)
		t = p.next()
		if t.kind == tEOF {
			return q, nil
		}
		if !p.isKeyword(t, "AND") {
			return nil, p.errAt(t, "expected AND or the end of the query, found "+describe(t), "conditions are joined with AND")
		}
	}
}

func (p *parser) literal() (Literal, error) {
	t := p.next()
	switch t.kind {
	case tNumber:
		return Literal{Text: t.text, Num: t.num, IsNum: true, Pos: int32(t.pos)}, nil
	case tString:
		v, ok := model.ParseNumber(t.text)
		return Literal{Text: t.text, Num: v, IsNum: ok, Pos: int32(t.pos)}, nil
	case tIdent:
		if p.isKeyword(t, "AND") || p.isKeyword(t, "WHERE") {
			break
		}
		return Literal{Text: t.text, Pos: int32(t.pos)}, nil
	}
	return Literal{}, p.errAt(t, "expected a value, found "+describe(t), "quote text values: 'F'")
}

func (p *parser) pred() (Pred, error) {
	t := p.next()
	if t.kind != tIdent {
		return Pred{}, p.errAt(t, "expected a column name, found "+describe(t), "")
	}
	pr := Pred{Column: t.text, Pos: t.pos}
	op := p.next()
	switch {
	case op.kind == tSym && op.text == "=":
		pr.Op = OpEq
	case op.kind == tSym && op.text == "!=":
		pr.Op = OpNe
	case op.kind == tSym && op.text == "<":
		pr.Op = OpLt
	case op.kind == tSym && op.text == "<=":
		pr.Op = OpLe
	case op.kind == tSym && op.text == ">":
		pr.Op = OpGt
	case op.kind == tSym && op.text == ">=":
		pr.Op = OpGe
	case p.isKeyword(op, "BETWEEN"):
		pr.Op = OpBetween
		a, err := p.literal()
		if err != nil {
			return pr, err
		}
		and := p.next()
		if !p.isKeyword(and, "AND") {
			return pr, p.errAt(and, "expected AND in BETWEEN a AND b, found "+describe(and), "")
		}
		b, err := p.literal()
		if err != nil {
			return pr, err
		}
		pr.Values = []Literal{a, b}
		return pr, nil
	case p.isKeyword(op, "IN"):
		pr.Op = OpIn
		if _, err := p.expectSym("(", "IN takes a list: col IN (a, b)"); err != nil {
			return pr, err
		}
		for {
			v, err := p.literal()
			if err != nil {
				return pr, err
			}
			pr.Values = append(pr.Values, v)
			sep := p.next()
			if sep.kind == tSym && sep.text == ")" {
				if len(pr.Values) > inList {
					pr.in = newInSet(pr.Values)
				}
				return pr, nil
			}
			if sep.kind != tSym || sep.text != "," {
				return pr, p.errAt(sep, "expected , or ) in the IN list, found "+describe(sep), "")
			}
		}
	default:
		return pr, p.errAt(op, "expected an operator (=, !=, <, <=, >, >=, BETWEEN, IN), found "+describe(op), "")
	}
	v, err := p.literal()
	if err != nil {
		return pr, err
	}
	pr.Values = []Literal{v}
	return pr, nil
}

// Columns lists the columns the WHERE clause reads.
func (q *Query) Columns() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range q.Preds {
		if !seen[p.Column] {
			seen[p.Column] = true
			out = append(out, p.Column)
		}
	}
	return out
}

// Matcher evaluates a query's WHERE clause on the rows of a table. Each
// predicate is decided once per distinct value, so a row costs one lookup
// per predicate. This is the one query evaluator: truth answers and the
// release answers of every method use it.
type Matcher struct {
	// codes[i] are the rows' codes of predicate i's column; pass[i][c+1]
	// is 1 when code c satisfies it and pass[i][0] is 0: Missing + 1
	// wraps to 0 in uint32, so a missing value never matches and a row
	// costs no branch per predicate.
	codes [][]uint32
	pass  [][]byte
}

// Bind resolves the query's columns on t and checks value types; errors
// point at the bad token.
func (q *Query) Bind(t *model.Table) (*Matcher, error) {
	m := &Matcher{}
	for _, pr := range q.Preds {
		c := t.Column(pr.Column)
		if c == nil {
			return nil, &Error{Query: q.Text, Pos: pr.Pos, Msg: fmt.Sprintf("no column %q", pr.Column),
				Hint: "columns are: " + strings.Join(t.Names(), ", ")}
		}
		if c.Kind == model.Numeric {
			for _, v := range pr.Values {
				if !v.IsNum {
					return nil, &Error{Query: q.Text, Pos: int(v.Pos), Msg: fmt.Sprintf("%s is numeric but %q is not a number", c.Name, v.Text)}
				}
			}
		}
		m.codes = append(m.codes, c.Codes)
		m.pass = append(m.pass, pr.Pass(c))
	}
	return m, nil
}

// Pass decides the predicate on every value of c's dictionary: pass[code+1]
// is 1 when code satisfies it, pass[0] (the missing value) is 0. An IN
// list written from a dictionary's codes is decided by its codes, with no
// text compared: on that very dictionary directly, on another categorical
// column through that column's translation to it (made once for all the
// queries written from it). Value types are not checked here (Bind does).
func (pr Pred) Pass(c *model.Column) []byte {
	pass := make([]byte, len(c.Dict)+1)
	switch {
	case pr.Op == OpIn && pr.codes.of(pr.Values, c):
		for _, code := range pr.codes.codes {
			pass[code+1] = 1
		}
	case pr.Op == OpIn && c.Kind == model.Categorical && pr.codes.listed(pr.Values):
		pr.codes.bindTo(c, pass)
	default:
		for code := range c.Dict {
			if evalPred(c, uint32(code), pr) {
				pass[code+1] = 1
			}
		}
	}
	return pass
}

func evalPred(c *model.Column, code uint32, pr Pred) bool {
	if c.Kind == model.Numeric {
		return pr.MatchValue(c.Dict[code], c.Nums[code], true)
	}
	return pr.MatchValue(c.Dict[code], 0, false)
}

// MatchValue reports whether one value satisfies the predicate: num is
// compared when numeric is set, text otherwise (exactly, case and all).
func (pr Pred) MatchValue(text string, num float64, numeric bool) bool {
	if pr.Op == OpIn && pr.in.of(pr.Values) {
		if !numeric && pr.codes.listed(pr.Values) {
			return pr.codes.hasText(text)
		}
		return pr.in.has(text, num, numeric)
	}
	cmp := func(l Literal) int {
		if numeric {
			switch {
			case num < l.Num:
				return -1
			case num > l.Num:
				return 1
			}
			return 0
		}
		return strings.Compare(text, l.Text)
	}
	switch pr.Op {
	case OpEq:
		return cmp(pr.Values[0]) == 0
	case OpNe:
		return cmp(pr.Values[0]) != 0
	case OpLt:
		return cmp(pr.Values[0]) < 0
	case OpLe:
		return cmp(pr.Values[0]) <= 0
	case OpGt:
		return cmp(pr.Values[0]) > 0
	case OpGe:
		return cmp(pr.Values[0]) >= 0
	case OpBetween:
		return cmp(pr.Values[0]) >= 0 && cmp(pr.Values[1]) <= 0
	case OpIn:
		for _, v := range pr.Values {
			if cmp(v) == 0 {
				return true
			}
		}
	}
	return false
}

// Overlap is the fraction of the interval [lo, hi] that a numeric
// predicate selects, with values spread uniformly over it (the
// uniform-within-range estimate of generalized releases). A point
// interval (lo == hi) gives 0 or 1. = and IN select points: on an
// interval with whole ends each point counts as one of its hi-lo+1
// integers, on any other interval as nothing.
func (pr Pred) Overlap(lo, hi float64) float64 {
	if lo == hi {
		if pr.MatchValue("", lo, true) {
			return 1
		}
		return 0
	}
	clip := func(a, b float64) float64 { // length of [a,b] inside [lo,hi]
		a, b = math.Max(a, lo), math.Min(b, hi)
		if b <= a {
			return 0
		}
		return b - a
	}
	w := hi - lo
	whole := lo == math.Trunc(lo) && hi == math.Trunc(hi)
	point := func(x float64) float64 {
		if x < lo || x > hi {
			return 0
		}
		if whole {
			return 1 / (w + 1)
		}
		return 0
	}
	v := func(i int) float64 { return pr.Values[i].Num }
	switch pr.Op {
	case OpEq:
		return point(v(0))
	case OpNe:
		return 1 - point(v(0))
	case OpLt, OpLe:
		return clip(math.Inf(-1), v(0)) / w
	case OpGt, OpGe:
		return clip(v(0), math.Inf(1)) / w
	case OpBetween:
		return clip(v(0), v(1)) / w
	case OpIn:
		f := 0.0
		for i := range pr.Values {
			f += point(v(i))
		}
		return math.Min(1, f)
	}
	return 0
}

// Match reports whether row r satisfies every predicate (missing values
// never match).
func (m *Matcher) Match(r int) bool {
	for i, codes := range m.codes {
		if m.pass[i][codes[r]+1] == 0 {
			return false
		}
	}
	return true
}

// matchBlock is the rows per call of Matcher.block.
const matchBlock = 2048

// block sets hit[j] to 1 when row from+j matches and 0 otherwise, for
// the rows from..from+len(hit)-1, a predicate at a time (no branch per
// row); it reports whether any row matched.
func (m *Matcher) block(from int, hit []byte) bool {
	if len(m.codes) == 0 {
		for j := range hit {
			hit[j] = 1
		}
		return len(hit) > 0
	}
	pass := m.pass[0]
	for j, c := range m.codes[0][from : from+len(hit)] {
		hit[j] = pass[c+1]
	}
	for i := 1; i < len(m.codes); i++ {
		if !anyHit(hit) {
			return false
		}
		pass := m.pass[i]
		for j, c := range m.codes[i][from : from+len(hit)] {
			hit[j] &= pass[c+1]
		}
	}
	return anyHit(hit)
}

// anyHit reports whether a block has a hit (eight rows per load).
func anyHit(hit []byte) bool {
	var or uint64
	i := 0
	for ; i+8 <= len(hit); i += 8 {
		or |= binary.LittleEndian.Uint64(hit[i:])
	}
	for ; i < len(hit); i++ {
		or |= uint64(hit[i])
	}
	return or != 0
}

// hits counts a block's hits (each byte 0 or 1: one bit per row).
func hits(hit []byte) int {
	n, i := 0, 0
	for ; i+8 <= len(hit); i += 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(hit[i:]))
	}
	for ; i < len(hit); i++ {
		n += int(hit[i])
	}
	return n
}

// Each calls fn with every matching row of the table's rows in order
// (the rows the matcher's columns hold).
func (m *Matcher) Each(rows int, fn func(r int)) {
	hit := make([]byte, matchBlock)
	for from := 0; from < rows; from += matchBlock {
		h := hit[:min(matchBlock, rows-from)]
		if !m.block(from, h) {
			continue
		}
		for j, x := range h {
			if x != 0 {
				fn(from + j)
			}
		}
	}
}

// Hits sets hit[r] to 1 for every matching row r among the first
// len(hit) rows and to 0 for the others: Each's rows as one slice, for a
// caller that reads every row's verdict (no call per row).
func (m *Matcher) Hits(hit []byte) {
	for from := 0; from < len(hit); from += matchBlock {
		h := hit[from:min(from+matchBlock, len(hit))]
		if !m.block(from, h) {
			clear(h)
		}
	}
}

// Count is the number of matching rows among the first rows.
func (m *Matcher) Count(rows int) int {
	hit := make([]byte, matchBlock)
	n := 0
	for from := 0; from < rows; from += matchBlock {
		h := hit[:min(matchBlock, rows-from)]
		if m.block(from, h) {
			n += hits(h)
		}
	}
	return n
}

// Answer is the exact answer of a query on a table.
type Answer struct {
	Value float64
	// Count is the number of selected rows with a value.
	Count int
	// Empty is true when no row was selected (SUM is then 0 and AVG, MIN,
	// MAX are undefined).
	Empty bool
}

// add counts row r of col into the answer (a missing value is not
// counted), in row order.
func (a *Answer) add(agg Agg, col *model.Column, r int) {
	code := col.Codes[r]
	if code == model.Missing {
		return
	}
	a.Count++
	a.Empty = false
	if agg == Count {
		return
	}
	x := col.Nums[code]
	switch agg {
	case Sum, Avg:
		a.Value += x
	case Min:
		a.Value = math.Min(a.Value, x)
	case Max:
		a.Value = math.Max(a.Value, x)
	}
}

// Truth answers q exactly on t.
func (q *Query) Truth(t *model.Table) (Answer, error) {
	m, err := q.Bind(t)
	if err != nil {
		return Answer{}, err
	}
	var col *model.Column
	if q.Column != "" {
		col = t.Column(q.Column)
		if col == nil {
			return Answer{}, &Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("no column %q", q.Column),
				Hint: "columns are: " + strings.Join(t.Names(), ", ")}
		}
		if q.Agg != Count && col.Kind != model.Numeric {
			return Answer{}, &Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("%s(%s) needs a numeric column", q.Agg, q.Column), Hint: "use COUNT(*) for categorical values"}
		}
	}
	a := Answer{Empty: true}
	switch q.Agg {
	case Min:
		a.Value = math.Inf(1)
	case Max:
		a.Value = math.Inf(-1)
	}
	if col == nil {
		a.Count = m.Count(t.Rows)
		a.Empty = a.Count == 0
	} else {
		m.Each(t.Rows, func(r int) { a.add(q.Agg, col, r) })
	}
	switch q.Agg {
	case Count:
		a.Value = float64(a.Count)
	case Avg:
		if a.Count > 0 {
			a.Value /= float64(a.Count)
		}
	case Min, Max:
		if a.Empty {
			a.Value = 0
		}
	}
	return a, nil
}
