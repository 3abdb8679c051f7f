package distribution

import (
	"reflect"
	"strings"
	"testing"

	"privlab/model/hierarchy"
)

// Issue 25, item 11: target weights of 1e308 each are the uniform target
// (their sum overflowed to +Inf: every mass 0, effective_vs_requested_emd
// 0.5 instead of 0).
func TestHugeTargetWeightsNormaliseWithoutOverflow(t *testing.T) {
	sal := tree(t)(hierarchy.Balanced("salary", []string{"30000", "40000", "50000", "60000"}, 2))
	for _, c := range []struct {
		csv  string
		want []float64
	}{
		{"30000,1e308\n40000,1e308\n50000,1e308\n60000,1e308\n", []float64{0.25, 0.25, 0.25, 0.25}},
		{"30000,1.5e308\n40000,0.5e308\n50000,1e308\n60000,1e308\n", []float64{0.375, 0.125, 0.25, 0.25}},
	} {
		tg, err := ParseTargetCSV("w.csv", strings.NewReader(c.csv))
		if err != nil {
			t.Fatal(err)
		}
		m, err := tg.Masses(sal, nil)
		if err != nil || !reflect.DeepEqual(m, c.want) {
			t.Fatalf("masses %v (%v), want %v", m, err, c.want)
		}
		a := Annotate(sal, m, 8)
		if emd := a.EMD(); emd != 0 {
			t.Errorf("%q: effective vs requested EMD %v, want 0", c.csv, emd)
		}
	}
}
