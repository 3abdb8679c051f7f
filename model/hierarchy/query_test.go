package hierarchy

import (
	"testing"

	"privlab/model/query"
)

func TestLeafFractionAndOverlap(t *testing.T) {
	h, err := Balanced("a", []string{"10", "20", "30", "40"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	q, err := query.Parse("COUNT(*) WHERE a >= 20 AND a IN (30, 40, 50)")
	if err != nil {
		t.Fatal(err)
	}
	// The root covers 10..40: 3 of 4 values are >= 20, 2 of 4 are in the list.
	if f := h.LeafFraction(0, q.Preds[0]); f != 0.75 {
		t.Errorf("root >= 20: %v", f)
	}
	if f := h.LeafFraction(0, q.Preds[1]); f != 0.5 {
		t.Errorf("root IN: %v", f)
	}
	// Uniform within [10, 40]: >= 20 covers 20 of 30; = selects one of the
	// 31 integers of a whole interval, nothing of a fractional one.
	if f := q.Preds[0].Overlap(10, 40); f != 2.0/3 {
		t.Errorf("overlap >= 20: %v", f)
	}
	if f := q.Preds[1].Overlap(10, 40); f != 2.0/31 {
		t.Errorf("overlap IN: %v", f)
	}
	if f := q.Preds[1].Overlap(10.5, 40); f != 0 {
		t.Errorf("overlap IN, fractional ends: %v", f)
	}
	if q.Preds[0].Overlap(30, 30) != 1 || q.Preds[0].Overlap(10, 10) != 0 {
		t.Error("point intervals")
	}
	if !q.Preds[1].MatchValue("40", 40, true) || q.Preds[1].MatchValue("20", 20, true) {
		t.Error("MatchValue")
	}
}
