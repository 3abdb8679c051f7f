package query

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"privlab/model/csvfile"
)

func TestParseQueryForms(t *testing.T) {
	num := func(text string, v float64, pos int32) Literal {
		return Literal{Text: text, Num: v, IsNum: true, Pos: pos}
	}
	str := func(text string, pos int32) Literal { return Literal{Text: text, Pos: pos} }
	tests := []struct {
		in   string
		want Query
	}{
		{"COUNT(*)", Query{Agg: Count}},
		{"SUM(salary)", Query{Agg: Sum, Column: "salary", ColPos: 5}},
		{"AVG(salary) WHERE gender = 'F'", Query{Agg: Avg, Column: "salary", ColPos: 5,
			Preds: []Pred{{Column: "gender", Pos: 19, Op: OpEq, Values: []Literal{str("F", 28)}}}}},
		{"MIN(x) WHERE a != 3", Query{Agg: Min, Column: "x", ColPos: 5,
			Preds: []Pred{{Column: "a", Pos: 14, Op: OpNe, Values: []Literal{num("3", 3, 19)}}}}},
		{"max(x) where a <> -3.5", Query{Agg: Max, Column: "x", ColPos: 5,
			Preds: []Pred{{Column: "a", Pos: 14, Op: OpNe, Values: []Literal{num("-3.5", -3.5, 19)}}}}},
		{"COUNT(*) WHERE a < 1 AND b <= 2 AND c > 3 AND d >= 1e3", Query{Agg: Count, Preds: []Pred{
			{Column: "a", Pos: 16, Op: OpLt, Values: []Literal{num("1", 1, 20)}},
			{Column: "b", Pos: 26, Op: OpLe, Values: []Literal{num("2", 2, 31)}},
			{Column: "c", Pos: 37, Op: OpGt, Values: []Literal{num("3", 3, 41)}},
			{Column: "d", Pos: 47, Op: OpGe, Values: []Literal{num("1e3", 1000, 52)}},
		}}},
		{"COUNT(*) WHERE age BETWEEN 30 AND 40", Query{Agg: Count, Preds: []Pred{
			{Column: "age", Pos: 16, Op: OpBetween, Values: []Literal{num("30", 30, 28), num("40", 40, 35)}}}}},
		{"COUNT(*) WHERE zip IN (91110, '91130', abc)", Query{Agg: Count, Preds: []Pred{
			{Column: "zip", Pos: 16, Op: OpIn, Values: []Literal{num("91110", 91110, 24), num("91130", 91130, 31), str("abc", 40)}}}}},
		{`COUNT(*) WHERE "marital status" = 'Never-married' AND ` + "`capital-loss`" + ` > .5`, Query{Agg: Count, Preds: []Pred{
			{Column: "marital status", Pos: 16, Op: OpEq, Values: []Literal{str("Never-married", 35)}},
			{Column: "capital-loss", Pos: 55, Op: OpGt, Values: []Literal{num(".5", 0.5, 72)}}}}},
		{"COUNT(*) WHERE name = 'O''Brien' AND salary = 50K", Query{Agg: Count, Preds: []Pred{
			{Column: "name", Pos: 16, Op: OpEq, Values: []Literal{str("O'Brien", 23)}},
			{Column: "salary", Pos: 38, Op: OpEq, Values: []Literal{str("50K", 47)}}}}},
		{"COUNT(*) WHERE ü = 'é'", Query{Agg: Count, Preds: []Pred{{Column: "ü", Pos: 16, Op: OpEq, Values: []Literal{str("é", 20)}}}}},
	}
	for _, tt := range tests {
		q, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		tt.want.Text = tt.in
		if !reflect.DeepEqual(*q, tt.want) {
			t.Errorf("Parse(%q)\n got %+v\nwant %+v", tt.in, *q, tt.want)
		}
	}
	q, _ := Parse("COUNT(*) WHERE a = 1 AND b IN (2, 3) AND a > 0")
	if got := q.Columns(); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("Columns() = %v", got)
	}
}

func TestParseQueryErrors(t *testing.T) {
	tests := []struct {
		in  string
		pos int
		msg string
	}{
		{"", 1, "expected COUNT, SUM, AVG, MIN or MAX, found end of query"},
		{"CNT(*)", 1, `expected COUNT, SUM, AVG, MIN or MAX, found "CNT"`},
		{"COUNT *", 7, `expected "(", found "*"`},
		{"SUM(*)", 5, "SUM(*) is not defined"},
		{"COUNT(*", 8, `expected ")", found end of query`},
		{"COUNT()", 7, "expected a column name or *"},
		{"COUNT(*) WHER x = 1", 10, `expected WHERE or the end of the query, found "WHER"`},
		{"COUNT(*) WHERE", 15, "expected a column name, found end of query"},
		{"COUNT(*) WHERE x = ", 20, "expected a value, found end of query"},
		{"COUNT(*) WHERE x == 1", 19, `expected a value, found "="`},
		{"COUNT(*) WHERE x ! 1", 18, "unexpected '!'"},
		{"COUNT(*) WHERE x ~ 1", 18, "unexpected character '~'"},
		{"COUNT(*) WHERE x = 'abc", 20, "unterminated quoted text"},
		{"COUNT(*) WHERE \"x = 1", 16, "unterminated quoted text"},
		{`COUNT(*) WHERE "" = 1`, 16, "empty column name"},
		{`MIN("")`, 5, "empty column name"},
		{"COUNT(*) WHERE x IN (1, 2", 26, "expected , or ) in the IN list, found end of query"},
		{"COUNT(*) WHERE x IN 1", 21, `expected "(", found "1"`},
		{"COUNT(*) WHERE x IN ()", 22, `expected a value, found ")"`},
		{"COUNT(*) WHERE x BETWEEN 1 OR 2", 28, `expected AND in BETWEEN a AND b, found "OR"`},
		{"COUNT(*) WHERE x = 1 OR y = 2", 22, `expected AND or the end of the query, found "OR"`},
		{"COUNT(*) WHERE x = 1.2.3", 20, `bad number "1.2.3"`},
		{"COUNT(*) WHERE x = AND", 20, `expected a value, found "AND"`},
		{"COUNT(*) WHERE 5 = x", 16, `expected a column name, found "5"`},
		{"COUNT(*) WHERE ü = 'é' @", 24, "unexpected character '@'"},
		{"COUNT(*) WHERE x = '\xff'", 1, "not valid UTF-8"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var qe *Error
		if !errors.As(err, &qe) {
			t.Errorf("Parse(%q): got %v, want a query error", tt.in, err)
			continue
		}
		if qe.Pos != tt.pos || !strings.Contains(qe.Msg, tt.msg) {
			t.Errorf("Parse(%q): error at %d %q, want at %d %q", tt.in, qe.Pos, qe.Msg, tt.pos, tt.msg)
		}
		if !strings.HasPrefix(err.Error(), "query:1:") {
			t.Errorf("error text %q", err)
		}
	}
	_, err := Parse("COUNT(*) WHERE x == 1")
	var qe *Error
	errors.As(err, &qe)
	if want := "COUNT(*) WHERE x == 1\n" + strings.Repeat(" ", 18) + "^"; qe.Caret() != want {
		t.Errorf("caret\n%s\nwant\n%s", qe.Caret(), want)
	}
	if want := `query:1:19: expected a value, found "=" (hint: quote text values: 'F')`; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

// queryTable has numeric and categorical columns with missing values.
const queryTable = `name,age,sex,salary
a,30,F,30000
b,40,M,40000
c,50,F,50000
d,?,M,60000
e,25,F,?
f,60,?,70000
`

func TestQueryTruth(t *testing.T) {
	tb := mustLoad(t, queryTable, csvfile.LoadOptions{})
	tests := []struct {
		q     string
		value float64
		count int
		empty bool
	}{
		{"COUNT(*)", 6, 6, false},
		{"COUNT(salary)", 5, 5, false},
		{"COUNT(*) WHERE sex = 'F'", 3, 3, false},
		{"COUNT(*) WHERE sex = F", 3, 3, false},
		{"COUNT(*) WHERE sex != 'F'", 2, 2, false}, // f's sex is missing: it never matches
		{"COUNT(*) WHERE sex IN ('M', 'X')", 2, 2, false},
		{"COUNT(*) WHERE name < 'c'", 2, 2, false},
		{"COUNT(*) WHERE name BETWEEN 'b' AND 'd'", 3, 3, false},
		{"COUNT(*) WHERE age = 30", 1, 1, false},
		{"COUNT(*) WHERE age = '30.0'", 1, 1, false},
		{"COUNT(*) WHERE age != 30", 4, 4, false}, // d's age is missing
		{"COUNT(*) WHERE age < 40", 2, 2, false},
		{"COUNT(*) WHERE age <= 40", 3, 3, false},
		{"COUNT(*) WHERE age > 40", 2, 2, false},
		{"COUNT(*) WHERE age >= 40", 3, 3, false},
		{"COUNT(*) WHERE age BETWEEN 30 AND 50", 3, 3, false},
		{"COUNT(*) WHERE age BETWEEN 50 AND 30", 0, 0, true},
		{"COUNT(*) WHERE age IN (25, 60, 99)", 2, 2, false},
		{"COUNT(*) WHERE sex = 'M' AND age > 30", 1, 1, false},
		{"SUM(salary)", 250000, 5, false},
		{"SUM(salary) WHERE sex = 'F'", 80000, 2, false}, // e's salary is missing
		{"AVG(salary) WHERE sex = 'F'", 40000, 2, false},
		{"AVG(age)", 41, 5, false},
		{"MIN(salary) WHERE age >= 40", 40000, 3, false},
		{"MAX(salary) WHERE age >= 40", 70000, 3, false},
		{"MAX(age) WHERE sex IN ('F')", 50, 3, false},
		{"SUM(salary) WHERE age > 100", 0, 0, true},
		{"AVG(salary) WHERE age > 100", 0, 0, true},
		{"MIN(salary) WHERE age > 100", 0, 0, true},
	}
	for _, tt := range tests {
		q, err := Parse(tt.q)
		if err != nil {
			t.Fatalf("%s: %v", tt.q, err)
		}
		a, err := q.Truth(tb)
		if err != nil {
			t.Errorf("%s: %v", tt.q, err)
			continue
		}
		if a.Value != tt.value || a.Count != tt.count || a.Empty != tt.empty || math.IsInf(a.Value, 0) {
			t.Errorf("%s = %+v, want value %v count %d empty %v", tt.q, a, tt.value, tt.count, tt.empty)
		}
	}
	errs := []struct {
		q   string
		pos int
		msg string
	}{
		{"COUNT(*) WHERE height > 3", 16, `no column "height"`},
		{"COUNT(*) WHERE age = 'old'", 22, `age is numeric but "old" is not a number`},
		{"COUNT(*) WHERE age IN (1, x)", 27, `age is numeric but "x" is not a number`},
		{"SUM(sex)", 5, "SUM(sex) needs a numeric column"},
		{"AVG(nosuch)", 5, `no column "nosuch"`},
	}
	for _, e := range errs {
		q, err := Parse(e.q)
		if err != nil {
			t.Fatalf("%s: %v", e.q, err)
		}
		_, err = q.Truth(tb)
		var qe *Error
		if !errors.As(err, &qe) || qe.Pos != e.pos || !strings.Contains(qe.Msg, e.msg) {
			t.Errorf("%s: got %v, want an error at %d %q", e.q, err, e.pos, e.msg)
		}
	}
	// The matcher decides each predicate once per distinct value.
	q, _ := Parse("COUNT(*) WHERE sex = 'F' AND age < 45")
	m, err := q.Bind(tb)
	if err != nil {
		t.Fatal(err)
	}
	var rows []int
	for r := 0; r < tb.Rows; r++ {
		if m.Match(r) {
			rows = append(rows, r)
		}
	}
	if !reflect.DeepEqual(rows, []int{0, 4}) {
		t.Errorf("matching rows %v, want [0 4]", rows)
	}
}
