package ambiguity

import (
	"testing"

	"privlab/algorithms/method"
)

// checkGroups holds a result to the definitions, recomputed here from the
// table: the groups partition the published records, each group's
// presence |G| / prod_i (distinct values of QI_i) <= alpha, every
// sensitive value occurs once and at least ceil(1/beta) of them
// (Theorems 7.1, 7.2), and the figures the result states are these.
func checkGroups(t *testing.T, in *method.Input, res *method.Result) {
	t.Helper()
	alpha, beta := res.Values.Float("alpha"), res.Values.Float("beta")
	g := 1
	for 1/float64(g) > beta {
		g++
	}
	seen := make([]bool, in.Table.Rows)
	published := 0
	sa := in.Table.Column(in.Roles.SA)
	for _, grp := range res.Groups {
		join := 1.0
		for _, q := range in.Roles.QIs {
			c := in.Table.Column(q)
			vals := map[string]bool{}
			for _, r := range grp.Rows {
				vals[c.Value(int(r))] = true
			}
			join *= float64(len(vals))
		}
		sens := map[string]int{}
		for _, r := range grp.Rows {
			if seen[r] {
				t.Fatalf("row %d is in two groups", r)
			}
			seen[r] = true
			sens[sa.Value(int(r))]++
		}
		published += len(grp.Rows)
		p := float64(len(grp.Rows)) / join
		if p > alpha+1e-12 {
			t.Errorf("group %d: presence %v > alpha %v", grp.ID, p, alpha)
		}
		if p != grp.Figures[FigPresence] || join != grp.Figures[FigJoin] {
			t.Errorf("group %d: figures %v, recomputed presence %v join %v", grp.ID, grp.Figures, p, join)
		}
		if len(sens) < g || len(sens) != len(grp.Rows) {
			t.Errorf("group %d: %d records with %d distinct sensitive values; want all distinct, at least %d", grp.ID, len(grp.Rows), len(sens), g)
		}
		if a := 1 / float64(len(grp.Rows)); a != grp.Figures[FigAssociation] || a > beta+1e-12 {
			t.Errorf("group %d: association %v (stated %v), beta %v", grp.ID, a, grp.Figures[FigAssociation], beta)
		}
	}
	if published != res.Published || published+res.Suppressed != in.Table.Rows {
		t.Errorf("%d records in groups, %d published, %d suppressed, %d rows", published, res.Published, res.Suppressed, in.Table.Rows)
	}
}
