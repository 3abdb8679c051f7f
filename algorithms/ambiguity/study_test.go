package ambiguity

import (
	"context"
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
// measures ambiguity on every batch of the paper's workload.
func TestStudyWithoutBaseline(t *testing.T) {
	secs, err := study(context.Background(), lab(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) != 2 || len(secs[0].Rows) != 9 || len(secs[1].Rows) != 4 {
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
}

// TestStudyWithBaseline: a baseline's result is measured on the same
// queries, compared, and its groups give the Theorem 6.1 column. The
// stand-in returns groups of 4 consecutive rows answered by their own
// ambiguity scheme, so the Thm 6.1 column equals the baseline's.
func TestStudyWithBaseline(t *testing.T) {
	base := func(in *method.Input) (*method.Result, error) {
		var groups []method.Group
		for r := 0; r+4 <= in.Table.Rows; r += 4 {
			groups = append(groups, method.Group{Rows: []int32{int32(r), int32(r + 1), int32(r + 2), int32(r + 3)}})
		}
		res := &method.Result{Spec: method.Spec{Name: "kja"}, Groups: groups}
		res.Answerer = sameGroups(in, res)
		return res, nil
	}
	secs, err := study(context.Background(), lab(t, base))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(secs[0].Notes, "\n"), "Thm 6.1: the ambiguity scheme of the generalization's own 750 groups") {
		t.Errorf("notes %v", secs[0].Notes)
	}
	for _, r := range secs[0].Rows {
		if len(r) != 7 || r[4] != r[6] || r[4] == "n/a" || r[5] == "" {
			t.Errorf("row %v", r)
		}
	}
}
