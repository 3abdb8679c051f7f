package check

import (
	"fmt"
	"math"
	"path/filepath"

	"privlab/algorithms/risk"
	"privlab/algorithms/sampling/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// View is a sampling release as an attacker reads it (risk.View): a
// region is an equivalence group of published.csv (records with the same
// generalized quasi-identifiers, Sattar et al., Definition 8), a member's
// belief is the group's sensitive value frequencies (the observed
// confidence of Eq. 2 before the sampling rate), and a cell's loss is the
// share of its attribute's taxonomy leaves it covers (the public
// knowledge the manifest lists).
func View(rel *verify.Release) (*risk.View, error) {
	m := rel.Manifest
	pub, err := rel.Table(file)
	if err != nil {
		return nil, err
	}
	nq := len(m.QIs)
	if len(pub.Columns) != nq+1 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, file), Msg: "published.csv does not have the shape of a sampling release"}
	}
	det, err := format.Read(m)
	if err != nil {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: err.Error()}
	}
	loss := make([][]float64, nq) // per QI, per code of published.csv
	for i, q := range m.QIs {
		loss[i] = cellLosses(pub.Columns[i], knowledgeOf(det, q))
	}
	saCol := pub.Columns[nq]
	numeric := saCol.Kind == model.Numeric
	values, pos := risk.Ordered(saCol.Dict, numeric)
	bld := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	belief := make([]int32, len(saCol.Dict)+1)
	for code, v := range saCol.Dict {
		belief[code] = bld.Value(pos[v])
	}
	cells := make([]string, nq)
	for row := 0; row < pub.Rows; row++ {
		var sum float64
		for i := range cells {
			cells[i] = pub.Columns[i].Value(row)
			sum += loss[i][verify.Code(pub.Columns[i], row)]
		}
		bld.Add(cells, belief[verify.Code(saCol, row)], sum/float64(max(1, nq)))
	}
	return bld.View(m.RowsIn, m.Suppressed, true,
		fmt.Sprintf("Sampling publishes a record with probability %s; these figures assume the attacker knows the person is in the release (the membership attack measures whether they can tell).", model.FormatNumber(det.SamplingRate))), nil
}

// knowledgeOf is a QI's taxonomy in the public knowledge (the last one
// named so; nil: none).
func knowledgeOf(det format.Details, qi string) []format.Node {
	var nodes []format.Node
	for _, a := range det.Attributes {
		if a.Name == qi {
			nodes = a.Nodes
		}
	}
	return nodes
}

// cover is a taxonomy node's leaves: their count and numeric range.
type cover struct {
	n      int
	lo, hi float64
	num    bool
}

// cellLosses is the loss of each published label of a column: the share
// of its taxonomy's leaves (or numeric range) it covers, 0 for a label
// the taxonomy lacks.
func cellLosses(col *model.Column, nodes []format.Node) []float64 {
	children := make([]int, len(nodes))
	for _, nd := range nodes {
		if nd.Parent >= 0 && nd.Parent < len(nodes) {
			children[nd.Parent]++
		}
	}
	cs := make([]cover, len(nodes))
	for i := range cs {
		cs[i] = cover{lo: math.Inf(1), hi: math.Inf(-1), num: true}
	}
	byLabel := map[string]int{}
	root := -1
	for i, nd := range nodes {
		byLabel[nd.Value] = i
		if nd.Parent < 0 {
			root = i
		}
		if children[i] > 0 {
			continue
		}
		x, isNum := model.ParseNumber(nd.Value)
		for j, steps := i, 0; j >= 0 && j < len(nodes) && steps <= len(nodes); j, steps = nodes[j].Parent, steps+1 {
			c := &cs[j]
			c.n++
			c.num = c.num && isNum
			c.lo, c.hi = math.Min(c.lo, x), math.Max(c.hi, x)
		}
	}
	out := make([]float64, len(col.Dict)+1)
	for code := range col.Dict {
		i, ok := byLabel[col.Dict[code]]
		switch {
		case !ok || root < 0:
		case cs[i].num && cs[root].num:
			out[code] = risk.NumericLoss(cs[i].lo, cs[i].hi, cs[root].lo, cs[root].hi)
		default:
			out[code] = risk.SetLoss(cs[i].n, cs[root].n)
		}
	}
	return out
}
