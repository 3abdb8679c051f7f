package kja

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/datasets"
	"privlab/model"
)

// figureInput is an embedded MT (and PD) with the points' roles, a
// variant and values, as the command line prepares them.
func figureInput(t *testing.T, mt, pd, variant string, values model.Values) *method.Input {
	t.Helper()
	load := func(name string) *model.Table {
		d, err := datasets.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := d.Load(0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	var pub *model.Table
	if pd != "" {
		pub = load(pd)
	}
	in := testInput(load(mt), pub, []string{"QI1", "QI2"}, "SA", []string{"name"})
	in.Variant, in.Values = variant, values
	return in
}

// boxesOf lists a run's boxes as sorted tuple names, with their raw
// half-perimeters, and the raw NCP and DM of Sections 2.1 and 3.3.
func boxesOf(r *run) (names []string, halves []float64, ncp, dm float64) {
	for _, b := range r.boxes {
		names = append(names, r.names(b.tuples))
		_, h := r.rawBox(b.b)
		halves = append(halves, h)
		ncp += float64(b.mt) * h
		dm += float64(b.mt * b.mt)
	}
	return names, halves, ncp, dm
}

// TestGivenGroupingFigure2 (issue 24): grouping=column:AT publishes
// Figure 2's AT of the seven points as given (half-perimeters 8 and 10,
// NCP 8*4 + 10*3 = 62, DM 25), and Refinement of it with Figure 1's PD
// gives Figure 5's JAT: {A,B,U} {C,D,V} {E,F,Y} {G,G1,G2}, NCP 2*4 + 2*4 +
// 2*4 + 1*0 = 24 (the paper prints 32), DM 13; the range count of Figure
// 7 is 11/3 from AT and 2 from JAT with SI. Before the parameter existed
// no variant could produce AT: one Mondrian cut gives neither its boxes
// nor Figure 7's coverages.
func TestGivenGroupingFigure2(t *testing.T) {
	ctx := context.Background()
	vals := model.Values{"k": "3", "grouping": "column:AT", "seed": "1"}
	at, err := newRun(ctx, figureInput(t, "kja-fig1", "kja-fig1-pd", MondrianPlain, vals))
	if err != nil {
		t.Fatal(err)
	}
	names, halves, ncp, dm := boxesOf(at)
	if strings.Join(names, " ") != "ABCD EFG" || halves[0] != 8 || halves[1] != 10 || ncp != 62 || dm != 25 {
		t.Fatalf("AT: boxes %v, half-perimeters %v, NCP %v, DM %v; want ABCD EFG, 8 and 10, 62, 25", names, halves, ncp, dm)
	}
	jat, err := newRun(ctx, figureInput(t, "kja-fig1", "kja-fig1-pd", MondrianRefine, vals))
	if err != nil {
		t.Fatal(err)
	}
	names, halves, ncp, dm = boxesOf(jat)
	if strings.Join(names, ",") != "ABU,CDV,EFY,G G1 G2" || ncp != 24 || dm != 13 {
		t.Fatalf("JAT: boxes %v (half-perimeters %v), NCP %v, DM %v; want ABU CDV EFY G G1 G2, 24, 13", names, halves, ncp, dm)
	}
	for _, c := range []struct {
		r    *run
		want float64
	}{{at, 11.0 / 3}, {jat, 2}} {
		if _, err := c.r.result(Method{}.Spec()); err != nil {
			t.Fatal(err)
		}
		got, truth, err := c.r.estimate("COUNT(*) WHERE QI1 BETWEEN 0 AND 4 AND QI2 > 2 AND QI2 <= 4")
		if err != nil || math.Abs(got-c.want) > 1e-12 || truth != 2 {
			t.Fatalf("Figure 7: estimate %v (truth %v, %v), want %v (truth 2)", got, truth, err, c.want)
		}
	}
}

// TestFigure8Refinement: Refinement of Figure 3's groups with the public
// points N-Z discards the second-round group T, U, V, W (no microdata
// tuple) and drops Z from the group L, M, Y, Z (it only enlarges the
// box), under both split rules.
func TestFigure8Refinement(t *testing.T) {
	for _, split := range []string{SplitRoundRobin, SplitWidest} {
		r, err := newRun(context.Background(), figureInput(t, "kja-fig3", "kja-fig8", MondrianRefine, model.Values{"k": "3", "split": split, "seed": "1"}))
		if err != nil {
			t.Fatal(err)
		}
		names, _, _, _ := boxesOf(r)
		if got := strings.Join(names, " "); got != "ABDN CHI EFGO JPQ LMY KRX" {
			t.Fatalf("%s: boxes %s, want ABDN CHI EFGO JPQ LMY KRX", split, got)
		}
		rounds, err := r.secondRounds(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var inner []string
		for _, g := range rounds[3].inner {
			inner = append(inner, r.names(g))
		}
		if got := strings.Join(inner, " "); got != "JPQ LMYZ KRSX" {
			t.Fatalf("%s: second round in JKLM's box %s, want JPQ LMYZ KRSX (T, U, V, W pruned: no microdata)", split, got)
		}
	}
}

// TestGivenGroupingErrors: a given grouping is refused for Direct (it has
// no first round), with a group under k, and without its column.
func TestGivenGroupingErrors(t *testing.T) {
	for _, c := range []struct {
		variant, grouping, k, want string
	}{
		{MondrianDirect, "column:AT", "3", "no first-round grouping"},
		{MondrianPlain, "column:AT", "4", `group AT = "g2" holds 3 records, fewer than k = 4`},
		{MondrianRefine, "column:nosuch", "3", "no such column"},
		{MondrianPlain, "AT", "3", "must be algorithm or column:NAME"},
	} {
		_, err := Method{}.Run(context.Background(), figureInput(t, "kja-fig1", "kja-fig1-pd", c.variant, model.Values{"k": c.k, "grouping": c.grouping}))
		var pe *model.ParamError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s k=%s: %v, want a parameter error saying %q", c.variant, c.grouping, c.k, err, c.want)
		}
	}
}
