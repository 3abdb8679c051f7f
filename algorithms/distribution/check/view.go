package check

import (
	"privlab/algorithms/distribution/format"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// View is a distribution release as an attacker reads it (risk.View):
// the quasi-identifiers are published unchanged, so a region is a
// distinct QI tuple of qi.csv, and a member's sensitive value appears to
// follow its group's effective target P' (Definition 3.2), mixed over the
// groups a QI tuple lies in.
func View(rel *verify.Release) (*risk.View, error) {
	m := rel.Manifest
	qi, err := rel.Table(format.FileQI)
	if err != nil {
		return nil, err
	}
	h, err := readHierarchy(rel)
	if err != nil {
		return nil, err
	}
	if len(qi.Columns) < len(m.QIs)+1 {
		return nil, &model.InputError{File: rel.Dir + "/" + format.FileQI, Line: 1, Msg: "expected the columns GroupID and the quasi-identifiers"}
	}
	g := groupRows(qi)
	w, err := readGroupWeights(rel, g, h)
	if err != nil {
		return nil, err
	}
	b := risk.NewBuilder(m.QIs, m.SA, h.values(), h.numeric)
	belief := make([]int32, len(g.sizes))
	for gi := range belief {
		belief[gi] = b.Belief(w.targetOf(gi))
	}
	cells := make([]string, len(m.QIs))
	for row := 0; row < qi.Rows; row++ {
		for i := range cells {
			cells[i] = qi.Columns[i+1].Value(row)
		}
		b.Add(cells, belief[g.of[row]], 0)
	}
	return b.View(m.RowsIn, m.Suppressed, false,
		"Quasi-identifiers are published unchanged: distribution-based anonymization hides the sensitive value (each tuple's appears to follow the target), not who is in the release."), nil
}
