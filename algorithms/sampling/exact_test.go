package sampling

import (
	"context"
	"testing"

	"privlab/model"
)

// TestBoundsExact: the sample's size and delta' are exact (issue 18.5).
// A rate of 0.9999999999999 samples floor(999.9999999999) = 999 of 1,000
// records (a tolerance of 1e-9 took all 1,000, so a record's chance to
// be published was 1 > beta, Definition 7). The distortion example of
// Section 4 (5/8 = 0.625) is within delta' = 0.625 and not within
// 0.62499999999999999999, whose float64 is 0.625.
func TestBoundsExact(t *testing.T) {
	for rate, want := range map[string]int{"0.9999999999999": 999, "0.9": 900, "1": 1000, "0.0015": 1} {
		in := censusInput(t, 1000, "occupation", model.Values{paramRate: rate, paramMaxDist: "1", "seed": "1"})
		r, err := execute(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if r.sampled != want {
			t.Errorf("rate %s of 1000 records: %d sampled, want %d", rate, r.sampled, want)
		}
	}
	age := taxonomyOf(t, "age", ageLevels4, nil)
	sex := taxonomyOf(t, "sex", sexTree, nil)
	nodes := []int32{node(t, age, "20-40"), node(t, sex, "any")}
	for delta, kept := range map[string]bool{"0.625": true, "0.62499999999999999999": false, "0.6250000000000000001": true} {
		rec, err := newRecoder([]*taxonomy{age, sex}, 1, model.Values{"d": delta}.Bound("d"), []float64{1})
		if err != nil {
			t.Fatal(err)
		}
		rec.add(0, nodes, 0)
		if got := len(rec.supp) == 0; got != kept {
			t.Errorf("distortion 5/8 against delta' %s: kept %v, want %v", delta, got, kept)
		}
	}
}
