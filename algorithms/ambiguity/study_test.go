package ambiguity

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
)

// lab is a study lab over census rows whose registry holds ambiguity and,
// when base is set, a stand-in "kja" that returns base's groups.
func lab(t *testing.T, base func(in *method.Input) (*method.Result, error)) *method.Lab {
	in := censusInput(t, 3000)
	in.Values = model.Values{"alpha": "0.5", "beta": "0.25", "seed": "1"}
	calls := 0
	return &method.Lab{Input: in,
		Run: func(ctx context.Context, name, variant string, v model.Values, in *method.Input) (*method.Result, error) {
			switch {
			case name == Name:
				run := *in
				run.Values = v
				return Method{}.Run(ctx, &run)
			case name == "kja" && base != nil:
				// The first run is the studied one: beta 0.25, groups of 4.
				if calls++; variant != "mondrian" || (calls == 1 && v["k"] != "4") {
					t.Errorf("baseline run %d as %s with %v; want mondrian, first with k = 4 (the average group size)", calls, variant, v)
				}
				return base(in)
			}
			return nil, &model.ParamError{Param: "method", Value: name, Reason: "unknown method"}
		}}
}

// TestStudyWithoutBaseline: without kja the study says so and still
// measures ambiguity on every batch of the paper's workload; the closing
// lines say nothing was compared.
func TestStudyWithoutBaseline(t *testing.T) {
	secs, err := study(context.Background(), lab(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 4 || len(secs[0].Rows) != 9 || len(secs[2].Rows) != 4 {
		t.Fatalf("sections %+v", secs)
	}
	if !strings.Contains(strings.Join(secs[0].Notes, "\n"), "generalization baseline (kja mondrian) not available") {
		t.Errorf("notes %v", secs[0].Notes)
	}
	for _, r := range secs[0].Rows {
		if r[3] == "—" || r[4] != "n/a" {
			t.Errorf("row %v", r)
		}
	}
	for _, i := range []int{1, 3} {
		if strings.Join(secs[i].Notes, "|") != "no row compares with generalization" {
			t.Errorf("closing lines %q", secs[i].Notes)
		}
	}
}

// TestStudyWithBaseline: a baseline's result is measured on the same
// queries, compared, and its groups give the Theorem 6.1 column. The
// stand-in returns groups of 4 consecutive rows answered by their own
// ambiguity scheme, so the Thm 6.1 column equals the baseline's (a tie
// in every row, which the closing line reports as not beating it).
func TestStudyWithBaseline(t *testing.T) {
	base := func(in *method.Input) (*method.Result, error) {
		var groups []method.Group
		for r := 0; r+4 <= in.Table.Rows; r += 4 {
			groups = append(groups, method.Group{Rows: []int32{int32(r), int32(r + 1), int32(r + 2), int32(r + 3)}})
		}
		res := &method.Result{Spec: method.Spec{Name: "kja"}, Groups: groups, Values: model.Values{"k": "4"}}
		res.Answerer = sameGroups(in, res)
		return res, nil
	}
	secs, err := study(context.Background(), lab(t, base))
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(secs[0].Notes, "\n")
	for _, want := range []string{"Thm 6.1: the ambiguity scheme of the generalization's own 750 groups",
		"generalization: kja mondrian with k = 4 (the scheme's average group size, rounded); its 750 groups hold 4.00 records on average"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	for _, r := range secs[0].Rows {
		if len(r) != 8 || r[4] != r[6] || r[4] == "n/a" || r[5] == "" || r[7] != "tie" {
			t.Errorf("row %v", r)
		}
	}
	if got := secs[1].Notes[1]; got != "the Theorem 6.1 scheme (the generalization's own groups) does not beat generalization in 9 of 9 rows (marked LOSES or tie), although Theorem 6.1 says it always does" {
		t.Errorf("closing line %q", got)
	}
	if !strings.HasPrefix(secs[3].Notes[0], "generalization wins ") || !strings.Contains(secs[3].Notes[0], " of 4 rows against Algorithm 2's scheme") {
		t.Errorf("closing line of Figure 8: %q", secs[3].Notes)
	}
}

// TestTally: the closing lines count rows exactly and say when
// generalization wins them all.
func TestTally(t *testing.T) {
	var x tally
	for _, c := range []struct {
		a, g float64
		want string
	}{{0.5, 0.1, "LOSES"}, {0.1, 0.5, "wins"}, {0.2, 0.2, "tie"}, {math.NaN(), 0.1, ""}, {0.9, 0.3, "LOSES"}} {
		if got := x.add(c.a, c.g); got != c.want {
			t.Errorf("add(%v, %v) = %q, want %q", c.a, c.g, got, c.want)
		}
	}
	if got := x.line("A"); got != "generalization wins 2 of 4 rows against A (1 ties)" {
		t.Errorf("line %q", got)
	}
	all := tally{rows: 3, generalization: 3}
	if got := all.line("A"); got != "generalization wins 3 of 3 rows against A: contrary to the paper, which says ambiguity always has the smaller error (Theorem 6.1; Section 8.3)" {
		t.Errorf("line %q", got)
	}
	if got := (tally{rows: 9, ambiguity: 9}).theorem61(); got != "the Theorem 6.1 scheme (the generalization's own groups) beats generalization in all 9 rows, as the theorem says" {
		t.Errorf("theorem61 %q", got)
	}
}

// TestTheorem61Note: a generalization whose groups are records with the
// same QI values (as Mondrian's often are) has a join of one combination
// per group, so Theorem 5.1's |G|/J is the group's size, above 1 for
// every group of two or more; counting distinct combinations the worst
// presence is 1. The counts are recomputed here from the table.
func TestTheorem61Note(t *testing.T) {
	in := censusInput(t, 3000)
	in.Values = model.Values{"alpha": "0.5"}
	byTuple := map[string][]int32{}
	var keys []string
	for r := 0; r < in.Table.Rows; r++ {
		var k []string
		for _, q := range in.Roles.QIs {
			k = append(k, in.Table.Column(q).Value(r))
		}
		key := strings.Join(k, "|")
		if byTuple[key] == nil {
			keys = append(keys, key)
		}
		byTuple[key] = append(byTuple[key], int32(r))
	}
	base := &method.Result{}
	over, largest := 0, 0
	for _, key := range keys {
		base.Groups = append(base.Groups, method.Group{Rows: byTuple[key]})
		if n := len(byTuple[key]); n > 1 {
			over++
			largest = max(largest, n)
		}
	}
	got := theorem61Note(in, base, sameGroups(in, base))
	want := []string{
		fmt.Sprintf("Thm 6.1: the ambiguity scheme of the generalization's own %d groups (Wang, proof of Theorem 6.1); "+
			"counting each group's distinct QI combinations d_G, its worst presence d_G/prod|G_ATi| is 1 (alpha 0.5)", len(keys)),
		fmt.Sprintf("  %d of its groups repeat QI combinations and hold more records than their join has combinations: "+
			"Theorem 5.1's |G|/prod|G_ATi| (which assumes |G| distinct combinations) reaches %d there and is no probability", over, largest),
	}
	if over == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("note\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
