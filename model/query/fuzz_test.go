package query

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"privlab/model"
)

// FuzzParseQuery: Parse never panics; errors point inside the text;
// parsing is deterministic; and a parsed query printed back in canonical
// form parses to the same query.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"COUNT(*)",
		"AVG(salary) WHERE gender = 'F' AND age BETWEEN 30 AND 40",
		"count(x) where a in (1, 'b', c) and d <> -1.5e3",
		"SUM(*)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			var qe *Error
			if !errors.As(err, &qe) {
				t.Fatalf("error %T: %v", err, err)
			}
			if qe.Pos < 1 || qe.Pos > utf8.RuneCountInString(s)+1 {
				t.Fatalf("error position %d outside 1..%d: %v", qe.Pos, utf8.RuneCountInString(s)+1, err)
			}
			_ = qe.Caret()
			return
		}
		q2, err := Parse(s)
		if err != nil || !reflect.DeepEqual(q, q2) {
			t.Fatalf("re-parsing %q gave %+v, %v; first %+v", s, q2, err, q)
		}
		canon := formatQuery(q)
		q3, err := Parse(canon)
		if err != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", canon, s, err)
		}
		if !reflect.DeepEqual(querySemantics(q), querySemantics(q3)) {
			t.Fatalf("canonical form %q of %q means %+v, not %+v", canon, s, querySemantics(q3), querySemantics(q))
		}
	})
}

// formatQuery prints a query in canonical form: column names in double
// quotes, text values in single quotes, numbers as written.
func formatQuery(q *Query) string {
	ident := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	lit := func(l Literal) string {
		if l.IsNum && l.Text == strings.TrimSpace(l.Text) {
			if _, ok := model.ParseNumber(l.Text); ok {
				return l.Text
			}
		}
		return "'" + strings.ReplaceAll(l.Text, "'", "''") + "'"
	}
	var b strings.Builder
	b.WriteString(q.Agg.String() + "(")
	if q.Column == "" {
		b.WriteString("*")
	} else {
		b.WriteString(ident(q.Column))
	}
	b.WriteString(")")
	for i, p := range q.Preds {
		if i == 0 {
			b.WriteString(" WHERE ")
		} else {
			b.WriteString(" AND ")
		}
		b.WriteString(ident(p.Column) + " " + p.Op.String() + " ")
		switch p.Op {
		case OpBetween:
			b.WriteString(lit(p.Values[0]) + " AND " + lit(p.Values[1]))
		case OpIn:
			var parts []string
			for _, v := range p.Values {
				parts = append(parts, lit(v))
			}
			b.WriteString("(" + strings.Join(parts, ", ") + ")")
		default:
			b.WriteString(lit(p.Values[0]))
		}
	}
	return b.String()
}

// querySemantics is a query without the text positions.
func querySemantics(q *Query) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v(%q)", q.Agg, q.Column)
	for _, p := range q.Preds {
		fmt.Fprintf(&b, " [%q %v", p.Column, p.Op)
		for _, v := range p.Values {
			fmt.Fprintf(&b, " %q/%v/%v", v.Text, v.IsNum, v.Num)
		}
		b.WriteString("]")
	}
	return b.String()
}
