package query

import (
	"strings"
	"testing"

	"privlab/model"
)

// roundTripNames are column names no bare word can spell: a backslash or
// a tab broke every method's generated workload (issue 32, item 7).
var roundTripNames = []string{`a\b`, `a\\b`, "ge\tnder", `quo"te`, `""`, "o'k", "a,b", "a b", " lead", "日本", "ü\u202eß", `\t`, "x\x1b]0;T\x07", "(", "AND"}

// Every name and value written by Writer (and by QuoteName and
// QuoteLiteral) is the name and value Parse reads back, exactly:
// the writer and the lexer agree on quoting (names double-quoted with a
// doubled ", values single-quoted with a doubled ', nothing else
// escaped).
func TestQueryNamesRoundTrip(t *testing.T) {
	values := []string{`r\s`, "t\tu", "it's", `"`, "a,b", "x y", "v\u202ew", "30", "1\\0", "2\t0"}
	for _, name := range roundTripNames {
		for _, v := range values {
			w := NewWriter(Avg, name)
			w.Equal(name, v)
			col := &model.Column{Name: name, Kind: model.Categorical, Dict: []string{v, "other"}}
			w.In(NewLiterals(col), []uint32{1, 0})
			text := w.b.String()
			for _, q := range []struct {
				how string
				get func() (*Query, error)
			}{{"writer", w.Query}, {"Parse", func() (*Query, error) { return Parse(text) }}} {
				got, err := q.get()
				if err != nil {
					t.Fatalf("%s %q: %v", q.how, text, err)
				}
				if got.Column != name || len(got.Preds) != 2 || got.Preds[0].Column != name || got.Preds[1].Column != name {
					t.Fatalf("%s %q: column %q, predicates %+v; want %q", q.how, text, got.Column, got.Preds, name)
				}
				if got.Preds[0].Values[0].Text != v || got.Preds[1].Values[0].Text != "other" || got.Preds[1].Values[1].Text != v {
					t.Fatalf("%s %q: values %+v %+v; want %q", q.how, text, got.Preds[0].Values, got.Preds[1].Values, v)
				}
			}
		}
		q, err := Parse("COUNT(*) WHERE " + QuoteName(name) + " = " + QuoteLiteral("x\\y"))
		if err != nil || q.Preds[0].Column != name || q.Preds[0].Values[0].Text != `x\y` {
			t.Fatalf("QuoteName(%q) = %s: %+v %v", name, QuoteName(name), q, err)
		}
	}
	if got := QuoteName("a\\b\t\"c"); got != "\"a\\b\t\"\"c\"" {
		t.Errorf("QuoteName = %s", got)
	}
}

// A query on a column named with a backslash and a tab is answered on a
// table that has it (the workload's "no column" error before).
func TestQueryNamedWithEscapesAnswers(t *testing.T) {
	tb := &model.Table{Rows: 3, Columns: []*model.Column{
		{Name: `zi\p`, Kind: model.Categorical, Dict: []string{"1\\0", "2\t0"}, Codes: []uint32{0, 1, 1}},
		{Name: "ge\tnder", Kind: model.Numeric, Dict: []string{"1", "2", "4"}, Nums: []float64{1, 2, 4}, Codes: []uint32{0, 1, 2}},
	}}
	w := NewWriter(Sum, "ge\tnder")
	w.Equal(`zi\p`, "2\t0")
	q, err := w.Query()
	if err != nil {
		t.Fatal(err)
	}
	a, err := q.Truth(tb)
	if err != nil || a.Value != 6 {
		t.Fatalf("%q: %+v %v", q.Text, a, err)
	}
}

// The caret stands under the bad token of the query as shown, escaped:
// a tab and a bidi override before it widen the line.
func TestCaretUnderTheEscapedQuery(t *testing.T) {
	_, err := Parse("COUNT(*) WHERE \"a\tb\u202e\" = 1 AND ! x")
	qe, ok := err.(*Error)
	if !ok {
		t.Fatalf("%v", err)
	}
	want := "COUNT(*) WHERE \"a\\tb\\u202e\" = 1 AND ! x\n" + strings.Repeat(" ", 36) + "^"
	if got := qe.Caret(); got != want {
		t.Errorf("caret\n%s\nwant\n%s", got, want)
	}
}
