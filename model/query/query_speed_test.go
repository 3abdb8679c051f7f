package query

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"privlab/model"
	"privlab/model/csvfile"
)

// scanMatchValue is MatchValue as it was before long IN lists were
// indexed (one comparison per listed value): the oracle the indexed
// lists are held to.
func scanMatchValue(pr Pred, text string, num float64, numeric bool) bool {
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

// speedValues are literal texts that differ only where an index could
// go wrong: numbers written two ways, -0, text that reads as a number,
// case, a quote, unicode, the empty string.
var speedValues = []string{"0", "-0", "0.0", "1", "1.0", "1e3", "1000", "-2.5", "3", "17", "1e400", "-1e400",
	"a", "A", "b", "abc", "O'Brien", "é", "e", "x y", "", "91110", "050", "50"}

func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// randomIn parses an IN list of n values drawn from speedValues (quoted
// or bare when they are numbers), with duplicates.
func randomIn(t *testing.T, rng *rand.Rand, n int) Pred {
	vals := make([]string, n)
	for i := range vals {
		v := speedValues[rng.IntN(len(speedValues))]
		if _, ok := model.ParseNumber(v); !ok || rng.IntN(2) == 0 {
			v = quoteLit(v)
		}
		vals[i] = v
	}
	q, err := Parse("COUNT(*) WHERE c IN (" + strings.Join(vals, ", ") + ")")
	if err != nil {
		t.Fatal(err)
	}
	return q.Preds[0]
}

// Indexed IN lists answer every value as the per-value scan did: texts
// exactly, numbers by value (0 and -0, 1e3 and 1000 alike), NaN and
// infinities as the comparisons order them, on lists short and long.
func TestInListIndexMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	probesNum := []float64{0, math.Copysign(0, -1), 1, 1000, -2.5, 3, 17, 4, math.Inf(1), math.Inf(-1), math.NaN(), 91110, 50}
	indexed := 0
	for trial := 0; trial < 400; trial++ {
		pr := randomIn(t, rng, 1+rng.IntN(40))
		if pr.in != nil {
			indexed++
		}
		for _, text := range speedValues {
			if got, want := pr.MatchValue(text, 0, false), scanMatchValue(pr, text, 0, false); got != want {
				t.Fatalf("%v IN %d values, text %q: %v, the scan says %v", pr.Op, len(pr.Values), text, got, want)
			}
		}
		for _, x := range probesNum {
			if got, want := pr.MatchValue("", x, true), scanMatchValue(pr, "", x, true); got != want {
				t.Fatalf("IN %d values, number %v: %v, the scan says %v", len(pr.Values), x, got, want)
			}
		}
	}
	if indexed < 100 {
		t.Fatalf("only %d of 400 lists were indexed: the test would not see the index", indexed)
	}
}

// A predicate whose list was replaced after parsing is scanned, never
// answered from the index of the old list.
func TestInListIndexNotStale(t *testing.T) {
	q, err := Parse("COUNT(*) WHERE c IN (a, b, c, d, e, f, g, h, i, j)")
	if err != nil {
		t.Fatal(err)
	}
	pr := q.Preds[0]
	if pr.in == nil {
		t.Fatal("a 10-value list is not indexed")
	}
	if !pr.MatchValue("j", 0, false) || pr.MatchValue("z", 0, false) {
		t.Fatal("indexed list answers wrongly")
	}
	pr.Values = pr.Values[:3]
	if pr.MatchValue("j", 0, false) || !pr.MatchValue("c", 0, false) {
		t.Fatal("a shortened list is answered from the old list's index")
	}
	pr.Values = append([]Literal{{Text: "z"}}, q.Preds[0].Values...)
	if !pr.MatchValue("z", 0, false) {
		t.Fatal("a replaced list is answered from the old list's index")
	}
	nan := Pred{Op: OpIn, Values: make([]Literal, 12)}
	nan.Values[5].Num = math.NaN()
	nan.in = newInSet(nan.Values)
	if got, want := nan.MatchValue("", 7, true), scanMatchValue(nan, "", 7, true); got != want {
		t.Fatalf("a NaN in the list: %v, the scan says %v", got, want)
	}
}

// scanTruth is Truth as it was before predicates were decided once per
// distinct value and rows a block at a time: every row's cells compared
// as text (or number) with every predicate, the aggregate taken in row
// order.
func scanTruth(q *Query, t *model.Table) Answer {
	var col *model.Column
	if q.Column != "" {
		col = t.Column(q.Column)
	}
	a := Answer{Empty: true}
	switch q.Agg {
	case Min:
		a.Value = math.Inf(1)
	case Max:
		a.Value = math.Inf(-1)
	}
	for r := 0; r < t.Rows; r++ {
		if !scanMatchRow(q, t, r) || col != nil && col.Codes[r] == model.Missing {
			continue
		}
		a.Count++
		a.Empty = false
		if col == nil || q.Agg == Count {
			continue
		}
		x := col.Nums[col.Codes[r]]
		switch q.Agg {
		case Sum, Avg:
			a.Value += x
		case Min:
			a.Value = math.Min(a.Value, x)
		case Max:
			a.Value = math.Max(a.Value, x)
		}
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
	return a
}

func scanMatchRow(q *Query, t *model.Table, r int) bool {
	for _, p := range q.Preds {
		c := t.Column(p.Column)
		code := c.Codes[r]
		if code == model.Missing {
			return false
		}
		num := 0.0
		if c.Kind == model.Numeric {
			num = c.Nums[code]
		}
		if !scanMatchValue(p, c.Dict[code], num, c.Kind == model.Numeric) {
			return false
		}
	}
	return true
}

// Truth on tables with many distinct values (and missing cells) gives
// the row-by-row scan's answers bit for bit.
func TestTruthMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	selected := 0
	defer func() {
		if selected < 200 {
			t.Errorf("only %d of 600 queries selected a row: the comparison sees too little", selected)
		} else {
			t.Logf("%d of 600 queries selected rows", selected)
		}
	}()
	for trial := 0; trial < 30; trial++ {
		rows := 50 + rng.IntN(300) + rng.IntN(2)*5000 // more than a block of rows
		distinct := 1 + rng.IntN(200)
		var b strings.Builder
		b.WriteString("c,n,s,x\n")
		for r := 0; r < rows; r++ {
			c := fmt.Sprintf("v%d", rng.IntN(distinct))
			if rng.IntN(20) == 0 {
				c = ""
			}
			x := fmt.Sprint(rng.NormFloat64() * 1e3)
			if rng.IntN(15) == 0 {
				x = ""
			}
			fmt.Fprintf(&b, "%s,%d,%s,%s\n", c, rng.IntN(distinct), speedValues[rng.IntN(len(speedValues))], x)
		}
		tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "t.csv"})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 20; k++ {
			var cs, ns []string
			for i := 0; i < 1+rng.IntN(distinct); i++ {
				cs = append(cs, fmt.Sprintf("'v%d'", rng.IntN(distinct+5)))
				ns = append(ns, fmt.Sprint(rng.IntN(distinct+5)))
			}
			var ss []string
			for i := 0; i < 1+rng.IntN(2*len(speedValues)); i++ {
				ss = append(ss, quoteLit(speedValues[rng.IntN(len(speedValues))]))
			}
			text := fmt.Sprintf("SUM(n) WHERE c IN (%s) AND n IN (%s) AND s IN (%s)", strings.Join(cs, ", "), strings.Join(ns, ", "), strings.Join(ss, ", "))
			text = strings.Replace(text, "SUM(n)", []string{"COUNT(*)", "COUNT(x)", "SUM(x)", "AVG(x)", "MIN(x)", "MAX(x)", "SUM(n)"}[k%7], 1)
			if k%5 == 4 {
				text = text[:strings.Index(text, " AND ")] // one condition: wider selections
			}
			q, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.Truth(tb)
			if err != nil {
				t.Fatal(err)
			}
			if want := scanTruth(q, tb); got != want {
				t.Fatalf("%s: %+v, the scan gives %+v", text, got, want)
			}
			if !got.Empty {
				selected++
			}
		}
	}
}

// Bind decides an IN list over a share of a column's values in time
// linear in its distinct values (a benchmark that doubles them: the
// ns/op doubles, it does not quadruple).
func BenchmarkBindInList(b *testing.B) {
	for _, distinct := range []int{5_000, 10_000, 20_000} {
		c := &model.Column{Name: "c", Kind: model.Categorical, Codes: make([]uint32, distinct)}
		vals := make([]string, 0, distinct/2)
		for i := 0; i < distinct; i++ {
			c.Dict = append(c.Dict, fmt.Sprintf("v%06d", i))
			c.Codes[i] = uint32(i)
			if i%2 == 0 {
				vals = append(vals, quoteLit(c.Dict[i]))
			}
		}
		tb := &model.Table{Columns: []*model.Column{c}, Rows: distinct}
		q, err := Parse("COUNT(*) WHERE c IN (" + strings.Join(vals, ", ") + ")")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("distinct=%d", distinct), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if a, err := q.Truth(tb); err != nil || a.Count != distinct/2 {
					b.Fatal(a, err)
				}
			}
		})
	}
}

// BenchmarkParseLongIn parses a count-in query with an IN list of
// 11,000 quoted values (a 20,000-value SA at issue 20's selectivity).
func BenchmarkParseLongIn(b *testing.B) {
	vals := make([]string, 11_000)
	for i := range vals {
		vals[i] = fmt.Sprintf("'s%06d'", i)
	}
	text := `COUNT(*) WHERE "age" BETWEEN 20 AND 40 AND "diag" IN (` + strings.Join(vals, ", ") + ")"
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

// withoutIndexes is a query with its predicates' IN indexes and code
// hints dropped (what parsing the text gives, field for field).
func withoutIndexes(q *Query) Query {
	c := *q
	c.Preds = append([]Pred(nil), q.Preds...)
	for i := range c.Preds {
		c.Preds[i].in, c.Preds[i].codes = nil, nil
	}
	return c
}

// writerNames and writerValues are the names and values a generated
// query may meet: plain, needing escapes, unicode, not UTF-8, numbers
// of every form.
var (
	writerNames  = []string{"age", "marital-status", "a b", `quo"te`, `back\slash`, "tab\there", "ü", "日本", "x\xffy", "new\nline", "o'k"}
	writerValues = append([]string{"", " ", "5 ", "x y", "it's", "''", `"`, "\xff", "日本", "1e400", "NaN", "Inf", "+5", "-.5", ".5", "5.",
		"1e5", "1E+5", "5e-3", "0x10", "1_000", "٣", "5abc", "abc5", "-", "+", ".", "e5", "1e", "1.2.3", "--5"}, speedValues...)
)

// A Writer's query is what Parse reads from its text, field by
// field, and its error when the text does not parse: for every shape of
// condition, name and value a workload writes.
func TestQueryWriterIsParseQuery(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	number := func() string {
		x := []float64{rng.NormFloat64() * 1e3, float64(rng.IntN(100)), 1e21, -1e-7, math.NaN(), math.Inf(1), 0.1 + 0.2}[rng.IntN(7)]
		return model.FormatNumber(x)
	}
	direct, parsed := 0, 0
	for trial := 0; trial < 3000; trial++ {
		col := &model.Column{Name: pick(writerNames), Kind: model.Kind(rng.IntN(2))}
		for i := 0; i < 1+rng.IntN(12); i++ {
			col.Dict = append(col.Dict, pick(writerValues))
		}
		agg, on := Count, ""
		if rng.IntN(3) == 0 {
			agg, on = Avg, pick(writerNames)
		}
		w := NewWriter(agg, on)
		for k := 0; k < 1+rng.IntN(3); k++ {
			switch rng.IntN(3) {
			case 0:
				w.Between(pick(writerNames), number(), number())
			case 1:
				w.Equal(pick(writerNames), pick(writerValues))
			default:
				codes := make([]uint32, 1+rng.IntN(len(col.Dict)))
				for i := range codes {
					codes[i] = uint32(rng.IntN(len(col.Dict)))
				}
				w.In(NewLiterals(col), codes)
			}
		}
		if !w.parse {
			direct++
		} else {
			parsed++
		}
		got, gerr := w.Query()
		want, werr := Parse(w.b.String())
		if (gerr != nil) != (werr != nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%q: writer error %v, Parse %v", w.b.String(), gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(withoutIndexes(got), withoutIndexes(want)) {
			t.Fatalf("%q:\nwriter %+v\nparsed %+v", w.b.String(), withoutIndexes(got), withoutIndexes(want))
		}
	}
	if direct < 300 || parsed < 300 {
		t.Fatalf("%d queries built directly, %d parsed: the test does not see both", direct, parsed)
	}
}

// A list written from a categorical column's codes binds to that column
// by its codes, to the same rows as the parsed text's list: on the column
// (even with duplicate codes and long lists) and not on a copy of it.
func TestCodeHintBindsAsParsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(40)
		tb := &model.Table{Rows: 300}
		c := &model.Column{Name: "c", Kind: model.Categorical}
		for i := 0; i < n; i++ {
			c.Dict = append(c.Dict, pick2(rng, i))
		}
		for r := 0; r < tb.Rows; r++ {
			code := uint32(rng.IntN(n + 1))
			if int(code) == n {
				code = model.Missing
			}
			c.Codes = append(c.Codes, code)
		}
		tb.Columns = []*model.Column{c}
		codes := make([]uint32, 1+rng.IntN(n))
		for i := range codes {
			codes[i] = uint32(rng.IntN(n))
		}
		w := NewWriter(Count, "")
		w.In(NewLiterals(c), codes)
		q, err := w.Query()
		if err != nil {
			t.Fatal(err)
		}
		if q.Preds[0].codes == nil {
			t.Fatal("a categorical list carries no codes")
		}
		parsed, err := Parse(q.Text)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := q.Truth(tb)
		want, _ := parsed.Truth(tb)
		if got != want {
			t.Fatalf("%s: by codes %+v, parsed %+v", q.Text, got, want)
		}
		// The same values in another dictionary order: the codes do not
		// apply, the values are compared.
		other := &model.Column{Name: "c", Kind: model.Categorical, Dict: append([]string(nil), c.Dict...), Codes: c.Codes}
		if q.Preds[0].codes.of(q.Preds[0].Values, other) {
			t.Fatal("the codes apply to another dictionary")
		}
	}
}

// pick2 is a dictionary entry: distinct texts, some numbers.
func pick2(rng *rand.Rand, i int) string {
	if rng.IntN(3) == 0 {
		return fmt.Sprint(i)
	}
	return fmt.Sprintf("v'%d", i)
}

// A list written from a dictionary's codes decides a text, and binds to a
// categorical column of another dictionary (another order, other values,
// texts repeated in a hand-made dictionary), as the list of its texts
// does: what Parse reads from the query's text.
func TestCodeHintMatchesTextsAsParsed(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(60)
		src := &model.Column{Name: "c", Kind: model.Categorical}
		for i := 0; i < n; i++ {
			src.Dict = append(src.Dict, fmt.Sprintf("v%d", rng.IntN(n+n/4+1))) // some repeated
		}
		codes := make([]uint32, 1+rng.IntN(n))
		for i := range codes {
			codes[i] = uint32(rng.IntN(n))
		}
		lits := NewLiterals(src)
		w := NewWriter(Count, "")
		w.In(lits, codes)
		q, err := w.Query()
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := Parse(q.Text)
		if err != nil {
			t.Fatal(err)
		}
		if q.Preds[0].codes == nil || len(codes) > inList && q.Preds[0].in == nil {
			t.Fatal("the list carries no codes or no set")
		}
		other := &model.Column{Name: "c", Kind: model.Categorical}
		for i := 0; i < 1+rng.IntN(2*n); i++ {
			other.Dict = append(other.Dict, fmt.Sprintf("v%d", rng.IntN(2*n)))
		}
		for r := 0; r < 50; r++ {
			code := uint32(rng.IntN(len(other.Dict) + 1))
			if int(code) == len(other.Dict) {
				code = model.Missing
			}
			other.Codes = append(other.Codes, code)
		}
		tb := &model.Table{Rows: 50, Columns: []*model.Column{other}}
		for round := 0; round < 2; round++ { // the second binds from the translation kept
			for _, text := range other.Dict {
				if got, want := q.Preds[0].MatchValue(text, 0, false), parsed.Preds[0].MatchValue(text, 0, false); got != want {
					t.Fatalf("%s: %q by codes %v, parsed %v", q.Text, text, got, want)
				}
			}
			got, _ := q.Truth(tb)
			want, _ := parsed.Truth(tb)
			if got != want {
				t.Fatalf("%s on %v: by codes %+v, parsed %+v", q.Text, other.Dict, got, want)
			}
		}
	}
}

// Hits marks exactly the rows Each calls back, over several blocks, with
// no predicate and with several (some blocks without a hit).
func TestMatcherHitsIsEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 40; trial++ {
		rows := rng.IntN(3*matchBlock + 10)
		tb := &model.Table{Rows: rows}
		for _, name := range []string{"a", "b"} {
			c := &model.Column{Name: name, Kind: model.Categorical, Dict: []string{"x", "y", "z"}}
			for r := 0; r < rows; r++ {
				code := uint32(rng.IntN(4))
				if code == 3 || r/matchBlock == 1 && name == "a" && trial%2 == 0 {
					code = model.Missing
				}
				c.Codes = append(c.Codes, code)
			}
			tb.Columns = append(tb.Columns, c)
		}
		for _, text := range []string{"COUNT(*)", "COUNT(*) WHERE a IN ('x', 'y') AND b <> 'z'", "COUNT(*) WHERE a = 'q'"} {
			q, err := Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			m, err := q.Bind(tb)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]byte, rows)
			m.Each(rows, func(r int) { want[r] = 1 })
			got := make([]byte, rows)
			for i := range got {
				got[i] = 7 // every verdict is written
			}
			m.Hits(got)
			if string(got) != string(want) {
				t.Fatalf("%s on %d rows: Hits differs from Each", text, rows)
			}
		}
	}
}

// TestLiteralSize holds a Literal to 32 bytes: a count-in workload on a
// 20,000-value attribute holds about a million of them at once (100 IN
// lists of ~9,500), and at 40 bytes (an int Pos) they were a fifth more
// of the whole run's memory (issue 20).
func TestLiteralSize(t *testing.T) {
	if n := unsafe.Sizeof(Literal{}); n != 32 {
		t.Fatalf("a Literal takes %d bytes, want 32", n)
	}
}

// TestQueryLengthLimit: a query of the limit's length or more is an
// error, from Parse and from a Writer alike, so that every
// column of an accepted query fits Literal.Pos; one byte shorter is read.
func TestQueryLengthLimit(t *testing.T) {
	text := "COUNT(*) WHERE a IN (1, 2)"
	if _, err := parseQuery(text, len(text)+1); err != nil {
		t.Fatalf("a query shorter than the limit: %v", err)
	}
	_, err := parseQuery(text, len(text))
	var qe *Error
	if !errors.As(err, &qe) || qe.Pos != 1 || !strings.Contains(qe.Msg, "query of 26 bytes") {
		t.Fatalf("a query of the limit's length: %v", err)
	}
	col := &model.Column{Name: "a", Kind: model.Categorical, Dict: []string{"1", "2"}}
	w := NewWriter(Count, "")
	w.In(NewLiterals(col), []uint32{0, 1})
	if w.b.String() != `COUNT(*) WHERE "a" IN (1, 2)` {
		t.Fatalf("written %q", w.b.String())
	}
	n := w.b.Len()
	if q, err := w.query(n + 1); err != nil || q.Preds[0].Values[1].Pos != 27 {
		t.Fatalf("written below the limit: %v, %+v", err, q)
	}
	if _, err := w.query(n); err == nil || !strings.Contains(err.Error(), "shorter than 28") {
		t.Fatalf("written at the limit: %v", err)
	}
}
