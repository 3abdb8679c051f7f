package sampling

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
)

// chunks is a stand-in for the Mondrian baseline: rows sorted by their QI
// values and cut into groups of at least k. It answers with the truth.
func chunks(in *method.Input, k int) *method.Result {
	rows := make([]int32, in.Table.Rows)
	for i := range rows {
		rows[i] = int32(i)
	}
	cols, _ := in.Table.MustColumns("qi", in.Roles.QIs)
	sort.SliceStable(rows, func(a, b int) bool {
		for _, c := range cols {
			if x, y := c.Value(int(rows[a])), c.Value(int(rows[b])); x != y {
				return x < y
			}
		}
		return false
	})
	res := &method.Result{Answerer: truth{in.Table}}
	for start := 0; start < len(rows); start += k {
		end := start + k
		if len(rows)-end < k {
			end = len(rows)
		}
		res.Groups = append(res.Groups, method.Group{Rows: rows[start:end]})
		if end == len(rows) {
			break
		}
	}
	return res
}

type truth struct{ t *model.Table }

func (a truth) Answer(q *model.Query) (method.Bounds, error) {
	ans, err := q.Truth(a.t)
	return method.Bounds{Estimate: ans.Value, HasEst: true}, err
}

func TestStudy(t *testing.T) {
	in := censusInput(t, 3000, "occupation", model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "3"})
	var ks []string
	lab := &method.Lab{Input: in, Queries: 50, Seed: 1,
		Run: func(ctx context.Context, name, variant string, v model.Values, in *method.Input) (*method.Result, error) {
			if name != baselineMethod || variant != baselineVariant {
				t.Fatalf("the study runs %s/%s", name, variant)
			}
			ks = append(ks, v["k"])
			return chunks(in, v.Int("k")), nil
		}}
	secs, err := study(context.Background(), lab)
	if err != nil {
		t.Fatal(err)
	}
	head := secs[0]
	if len(head.Rows) != 1 || head.Rows[0][7] == "—" || head.Rows[0][7] == "none" {
		t.Fatalf("no Max.k: %+v", head)
	}
	errs := secs[1]
	if len(errs.Rows) != 3 || !strings.HasPrefix(errs.Rows[1][0], "Mondrian") || !strings.HasPrefix(errs.Rows[2][0], "Mondrian") {
		t.Fatalf("query errors: %+v", errs)
	}
	if !strings.Contains(errs.Rows[2][3], "0.000") {
		t.Errorf("the truth-answering baseline has an error: %v", errs.Rows[2])
	}
	if secs[2].Header[0] != "k" || len(ks) < 2 {
		t.Fatalf("Max.k search: %+v (k tried %v)", secs[2], ks)
	}

	// Without the baseline the study says so and still measures the
	// method.
	lab.Run = func(context.Context, string, string, model.Values, *method.Input) (*method.Result, error) {
		return nil, &model.ParamError{Param: "method", Value: "kja", Reason: "unknown method"}
	}
	secs, err = study(context.Background(), lab)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(secs[0].Notes, " "), "generalization baseline (kja mondrian) not available") || len(secs[1].Rows) != 1 {
		t.Fatalf("without the baseline: %+v", secs)
	}
}

// On UCI Adult (../shared/data/adult, skipped when absent) the study adds
// a second dataset.
func TestStudyAdult(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data", "adult")
	if _, err := os.Stat(filepath.Join(dir, "adult.csv")); err != nil {
		t.Skip("UCI Adult is not in ../shared/data/adult")
	}
	defer func(old string) { adultDir = old }(adultDir)
	adultDir = dir
	in := censusInput(t, 1000, "occupation", model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "3"})
	lab := &method.Lab{Input: in, Queries: 20, Seed: 1,
		Run: func(ctx context.Context, name, variant string, v model.Values, in *method.Input) (*method.Result, error) {
			return chunks(in, v.Int("k")), nil
		}}
	secs, err := study(context.Background(), lab)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range secs {
		if strings.Contains(s.Title, "UCI Adult") {
			found = true
			if s.Rows[0][0] != "30162" {
				t.Errorf("Adult has %s records, want 30162", s.Rows[0][0])
			}
		}
	}
	if !found {
		t.Fatalf("no Adult section: %+v", secs)
	}
}
