package check

import (
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
)

// View is a distribution release as an attacker reads it (risk.View):
// the quasi-identifiers are published unchanged, so a region is a
// distinct QI tuple of qi.csv, and a member's sensitive value appears to
// follow its group's effective target P' (Definition 3.2), mixed over the
// groups a QI tuple lies in.
func View(rel *verify.Release) (*risk.View, error) {
	m := rel.Manifest
	qi, err := rel.Table("qi.csv")
	if err != nil {
		return nil, err
	}
	h, err := readHierarchy(rel)
	if err != nil {
		return nil, err
	}
	groupIdx := map[string]int{}
	for row := 0; row < qi.Rows; row++ {
		g := qi.Columns[0].Value(row)
		if _, ok := groupIdx[g]; !ok {
			groupIdx[g] = len(groupIdx)
		}
	}
	groupWeights, _, err := readGroupWeights(rel, groupIdx, h)
	if err != nil {
		return nil, err
	}
	leafIndex := make([]int, len(h.parent))
	values := make([]string, len(h.leaves))
	for i, l := range h.leaves {
		leafIndex[l] = i
		values[i] = h.low[l]
	}
	b := risk.NewBuilder(m.QIs, m.SA, values, h.numeric)
	belief := make([]int32, len(groupIdx))
	for gi := range belief {
		w := h.weight
		if groupWeights != nil && groupWeights[gi] != nil {
			w = groupWeights[gi]
		}
		belief[gi] = b.Belief(h.mixture(w, map[int]float64{h.root: 1}, len(h.leaves), leafIndex))
	}
	cells := make([]string, len(m.QIs))
	for row := 0; row < qi.Rows; row++ {
		for i := range cells {
			cells[i] = qi.Columns[i+1].Value(row)
		}
		b.Add(cells, belief[groupIdx[qi.Columns[0].Value(row)]], 0)
	}
	return b.View(m.RowsIn, m.Suppressed, false,
		"Quasi-identifiers are published unchanged: distribution-based anonymization hides the sensitive value (each tuple's appears to follow the target), not who is in the release."), nil
}
