package advise

import (
	"privlab/algorithms/pipeline"
	"privlab/model/releasedir"
)

// ExportMap is the map an export of project p states and draws
// (pipeline.ExportOptions.Advisor): nil when p has no map or its map is
// stale (computed for other QIs, sensitive attribute, hierarchies,
// population or seed: it says nothing of this release). The adopted
// point is the front point whose settings the project has (the one
// adopted last first); none when the officer has since changed them.
// The picture rings it.
func ExportMap(p pipeline.Project) *pipeline.AdvisorExport {
	if p.Advisor == nil || p.Advisor.Stale(p) {
		return nil
	}
	points, adopted := SavedPoints(p.Advisor)
	at := -1
	if adopted >= 0 && points[adopted].Front && hasSettings(p, points[adopted]) {
		at = adopted
	}
	note := releasedir.AdvisorNote{Risk: p.Advisor.Risk, Points: len(points)}
	if note.Risk == "" {
		note.Risk = RiskWorst
	}
	for i, pt := range points {
		if !pt.Front {
			continue
		}
		note.Front++
		if at < 0 && hasSettings(p, pt) {
			at = i
		}
	}
	if at >= 0 {
		pt := points[at]
		note.Adopted = &releasedir.AdvisorAdopted{Method: pt.Method, Params: pt.Params(), Risk: pt.Risk, RiskInterval: pt.Interval, Loss: pt.Loss}
	}
	return &pipeline.AdvisorExport{Note: note, Write: func(path string) error { return WriteSVG(path, points, at) }}
}

// hasSettings reports whether project p has the point's method, variant
// and parameter values (p may set others, the seed among them).
func hasSettings(p pipeline.Project, pt Point) bool {
	if p.Method != pt.Method || p.Variant != pt.Variant {
		return false
	}
	for k, v := range pt.Values {
		if p.Params[k] != v {
			return false
		}
	}
	return true
}
