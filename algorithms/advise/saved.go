package advise

import (
	"math"

	"privlab/algorithms/pipeline"
)

// SavedMap is the map as project p's file keeps it (pipeline.AdvisorMap):
// the points with their figures, the adopted point (-1 for none), the
// risk measure and the digest of the settings p has now, which are the
// ones the points were computed for.
func SavedMap(p pipeline.Project, risk string, points []Point, adopted int) *pipeline.AdvisorMap {
	m := &pipeline.AdvisorMap{Digest: p.AdvisorDigest(), Risk: risk, Points: make([]pipeline.AdvisorPoint, len(points))}
	for i, pt := range points {
		m.Points[i] = pipeline.AdvisorPoint{Method: pt.Method, Params: pt.Params(), Holds: pt.Holds,
			Risk: savedFigure(pt.Risk), RiskInterval: [2]*float64{savedFigure(pt.Interval[0]), savedFigure(pt.Interval[1])},
			Attack: pt.Attack, Loss: savedFigure(pt.Loss), Front: pt.Front, Error: pt.Err}
	}
	if adopted >= 0 && adopted < len(points) {
		m.Adopted = &adopted
	}
	return m
}

// SavedPoints are the points of a saved map (nil for none), the variant
// taken out of the parameters again, and the index of the adopted point
// (-1 for none).
func SavedPoints(m *pipeline.AdvisorMap) ([]Point, int) {
	if m == nil {
		return nil, -1
	}
	out := make([]Point, len(m.Points))
	for i, sp := range m.Points {
		set := Setting{Method: sp.Method, Values: sp.Params.Clone()}
		if set.Values == nil {
			set.Values = map[string]string{}
		}
		set.Variant = set.Values[VariantParam]
		delete(set.Values, VariantParam)
		out[i] = Point{Setting: set, Holds: sp.Holds, Risk: readFigure(sp.Risk),
			Interval: [2]float64{readFigure(sp.RiskInterval[0]), readFigure(sp.RiskInterval[1])},
			Attack:   sp.Attack, Loss: readFigure(sp.Loss), Front: sp.Front, Err: sp.Error}
	}
	adopted := -1
	if m.Adopted != nil && *m.Adopted >= 0 && *m.Adopted < len(out) {
		adopted = *m.Adopted
	}
	return out, adopted
}

// savedFigure is a figure for JSON: nil when not measured (NaN).
func savedFigure(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// readFigure reads a saved figure (NaN for nil).
func readFigure(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}
