package common

import (
	"reflect"
	"testing"
)

// Binned rows sum counts but keep a limit's largest value (lossyjoin's
// alpha bar doubled when two values shared a row), and ranges join as
// one range ("0-0.1" and "0.1-0.2" read "0-0.2", not "<=0.1–<=0.2";
// issue 35.8).
func TestBinsSumCountsAndKeepLimits(t *testing.T) {
	labels := []string{"0-0.1", "0.1-0.2", "0.2-0.3", "11", "12+"}
	counts := []float64{1, 2, 3, 4, 5}
	alpha := []float64{0.3, 0.3, 0.3, 0.3, 0.3}
	lbls, ser := Bins(labels, [][]float64{counts, alpha}, []bool{false, true}, 3)
	if want := []string{"0-0.1", "0.1-0.3", "11–12+"}; !reflect.DeepEqual(lbls, want) {
		t.Errorf("labels %q, want %q", lbls, want)
	}
	if want := []float64{1, 5, 9}; !reflect.DeepEqual(ser[0], want) {
		t.Errorf("counts %v, want %v (summed)", ser[0], want)
	}
	if want := []float64{0.3, 0.3, 0.3}; !reflect.DeepEqual(ser[1], want) {
		t.Errorf("alpha %v, want %v (the largest, never the sum)", ser[1], want)
	}
	if l, _ := Bins(labels, [][]float64{counts}, nil, 5); !reflect.DeepEqual(l, labels) {
		t.Errorf("with room for every label: %q", l)
	}
}

// Two names that clip to the same text keep their ends instead (the
// Method pane showed "effective vs requested targe…" twice at 80x24);
// a name that clips to a text of its own is clipped as usual.
func TestClipDistinctNeverShowsTwoIdenticalLabels(t *testing.T) {
	got := ClipDistinct([]string{"effective vs requested target EMD", "effective vs requested target max |diff|", "groups", "a rather long unique name"}, 20)
	want := []string{"effective…target EMD", "effective…max |diff|", "groups", "a rather long uniqu…"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ClipDistinct gave %q, want %q", got, want)
	}
}
