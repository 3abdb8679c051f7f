package advise

import (
	"math"
	"path/filepath"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// TestSavedMapRoundTrip: the points, their figures (unmeasured ones
// too), the variant, the front and the adopted point come back from the
// project file as they went in, and the map is not stale for the
// project it was saved with.
func TestSavedMapRoundTrip(t *testing.T) {
	nan := math.NaN()
	points := []Point{
		{Setting: Setting{Method: "kja", Variant: "mondrian", Values: model.Values{"k": "10"}}, Holds: true,
			Risk: 0.012, Interval: [2]float64{0.004, 0.02}, Attack: "linkage", Loss: 0.083, Front: true},
		{Setting: Setting{Method: "distribution", Values: model.Values{"t": "0.2"}}, Risk: nan,
			Interval: [2]float64{nan, nan}, Loss: nan, Err: "no query answered"},
	}
	p := pipeline.Project{Input: "dataset:census", Method: "kja", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "income"},
		Params: model.Values{"seed": "3"}}
	p.Advisor = SavedMap(p, RiskWorst, points, 0)
	path := filepath.Join(t.TempDir(), "project.json")
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	q, err := pipeline.LoadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	got, adopted := SavedPoints(q.Advisor)
	if adopted != 0 || q.Advisor.Stale(q) || q.Advisor.Risk != RiskWorst || len(got) != 2 {
		t.Fatalf("adopted %d, stale %v, risk %q, %d points", adopted, q.Advisor.Stale(q), q.Advisor.Risk, len(got))
	}
	if !sameFigures(got, points) {
		t.Errorf("figures changed:\n%+v\n%+v", got, points)
	}
	for i := range points {
		if got[i].String() != points[i].String() || got[i].Variant != points[i].Variant || len(got[i].Values) != len(points[i].Values) {
			t.Errorf("point %d: %v (variant %q), saved %v", i, got[i], got[i].Variant, points[i])
		}
	}
	if pts, at := SavedPoints(nil); pts != nil || at != -1 {
		t.Error("no map gives points")
	}
}
