package ambiguity

import (
	"context"
	"math"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/query"
)

// runPatients runs the method on Figure 1(a) with the given values.
func runPatients(t *testing.T, values model.Values) (*method.Result, error) {
	t.Helper()
	tb := patients(t)
	hs := map[string]*hierarchy.Hierarchy{}
	for _, name := range []string{"age", "gender", "zipcode", "disease"} {
		h, err := hierarchy.Build("flat", tb.Column(name))
		if err != nil {
			t.Fatal(err)
		}
		hs[name] = h
	}
	return Method{}.Run(context.Background(), &method.Input{Table: tb, Roles: patientRoles, Hierarchies: hs, Values: values})
}

// TestGivenGroupingFigure2 (issue 24): grouping=column:gender publishes
// Figure 2 as the paper does, from the method itself: Pr(Alan in T) =
// 1/3 (Algorithm 2's own grouping of this table gives 1/6), Pr(Alice in
// T) = 4/9, associations 1/4 and 1/2, Q2 = 7/18; the women's group holds
// leukemia twice, which Algorithm 2 never does and the checker refuses,
// so that group is marked and the result says why.
func TestGivenGroupingFigure2(t *testing.T) {
	res, err := runPatients(t, model.Values{"alpha": "0.5", "beta": "0.5", "grouping": "column:gender", "seed": "1"})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Answerer.(*scheme)
	tb := patients(t)
	alan, alice := row(t, tb, "Alan"), row(t, tb, "Alice")
	groupOf := func(r int) int {
		for gi, g := range res.Groups {
			for _, x := range g.Rows {
				if int(x) == r {
					return gi
				}
			}
		}
		t.Fatalf("row %d is in no group", r)
		return -1
	}
	ga, gb := groupOf(alan), groupOf(alice)
	if p := s.presence(ga); p != 1.0/3 {
		t.Errorf("Pr(Alan in T) = %v, want 1/3", p)
	}
	if p := s.presence(gb); p != 4.0/9 {
		t.Errorf("Pr(Alice in T) = %v, want 4/9", p)
	}
	if a := s.associationOf(ga, "diabetes"); a != 1.0/4 {
		t.Errorf("Pr((Alan, diabetes) | Alan) = %v, want 1/4", a)
	}
	if a := s.associationOf(gb, "leukemia"); a != 1.0/2 {
		t.Errorf("Pr((Alice, leukemia) | Alice) = %v, want 1/2", a)
	}
	q, _ := query.Parse("COUNT(*) WHERE age >= 50 AND zipcode = 23000 AND disease = 'diabetes'")
	if b, err := s.Answer(q); err != nil || math.Abs(b.Estimate-7.0/18) > 1e-15 {
		t.Errorf("Q2 = %v (%v), want 7/18", b.Estimate, err)
	}
	if res.Groups[ga].Violation || !res.Groups[gb].Violation || res.Satisfied() {
		t.Errorf("violations: men %v, women %v, satisfied %v; want only the women's group (leukemia twice)",
			res.Groups[ga].Violation, res.Groups[gb].Violation, res.Satisfied())
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "leukemia more than once") ||
		!strings.HasPrefix(res.Notes[0], "the QI-groups are given by column gender (2 groups)") {
		t.Errorf("warnings %q, notes %q", res.Warnings, res.Notes)
	}
	// Algorithm 2's own groups of the same table do not give Alan 1/3.
	own, err := runPatients(t, model.Values{"alpha": "0.5", "beta": "0.5", "seed": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if gi := func() int {
		for i, g := range own.Groups {
			for _, x := range g.Rows {
				if int(x) == alan {
					return i
				}
			}
		}
		return -1
	}(); gi >= 0 && own.Groups[gi].Figures[FigPresence] == 1.0/3 {
		t.Errorf("Algorithm 2 gives Alan 1/3 by itself: the test no longer shows what the grouping adds")
	}
}

// TestGivenGroupingErrors: a grouping names a column of the table.
func TestGivenGroupingErrors(t *testing.T) {
	for value, want := range map[string]string{"column:nosuch": "no such column", "gender": "must be algorithm or column:NAME"} {
		_, err := runPatients(t, model.Values{"grouping": value})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("grouping %s: %v, want %q", value, err, want)
		}
	}
}
