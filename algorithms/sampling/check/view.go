package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"

	"privlab/algorithms/risk"
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
	pub, err := rel.Table("published.csv")
	if err != nil {
		return nil, err
	}
	nq := len(m.QIs)
	if len(pub.Columns) != nq+1 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "published.csv"), Msg: "published.csv does not have the shape of a sampling release"}
	}
	var det struct {
		Rate      float64 `json:"sampling_rate"`
		Knowledge []struct {
			Attribute string `json:"attribute"`
			Nodes     []struct {
				Value  string `json:"value"`
				Parent int    `json:"parent"`
			} `json:"nodes"`
		} `json:"public_knowledge"`
	}
	b, _ := json.Marshal(m.Details)
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&det); err != nil {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: "details: " + err.Error()}
	}
	// Every taxonomy node's leaves: their count and numeric range.
	type cover struct {
		n      int
		lo, hi float64
		num    bool
	}
	covers := map[string]map[string]*cover{}
	roots := map[string]*cover{}
	for _, k := range det.Knowledge {
		nodes := k.Nodes
		children := make([]int, len(nodes))
		for _, nd := range nodes {
			if nd.Parent >= 0 && nd.Parent < len(nodes) {
				children[nd.Parent]++
			}
		}
		cs := make([]*cover, len(nodes))
		for i := range nodes {
			cs[i] = &cover{lo: math.Inf(1), hi: math.Inf(-1), num: true}
		}
		for i, nd := range nodes {
			if children[i] > 0 {
				continue
			}
			x, isNum := model.ParseNumber(nd.Value)
			for j, steps := i, 0; j >= 0 && j < len(nodes) && steps <= len(nodes); j, steps = nodes[j].Parent, steps+1 {
				c := cs[j]
				c.n++
				c.num = c.num && isNum
				c.lo, c.hi = math.Min(c.lo, x), math.Max(c.hi, x)
			}
		}
		covers[k.Attribute] = map[string]*cover{}
		for i, nd := range nodes {
			covers[k.Attribute][nd.Value] = cs[i]
			if nd.Parent < 0 {
				roots[k.Attribute] = cs[i]
			}
		}
	}
	numeric := pub.Columns[nq].Kind == model.Numeric
	values, pos := risk.Ordered(pub.Columns[nq].Dict, numeric)
	bld := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	cells := make([]string, nq)
	for row := 0; row < pub.Rows; row++ {
		var loss float64
		for i, q := range m.QIs {
			cells[i] = pub.Columns[i].Value(row)
			c, root := covers[q][cells[i]], roots[q]
			switch {
			case c == nil || root == nil:
			case c.num && root.num:
				loss += risk.NumericLoss(c.lo, c.hi, root.lo, root.hi)
			default:
				loss += risk.SetLoss(c.n, root.n)
			}
		}
		bld.Add(cells, bld.Value(pos[pub.Columns[nq].Value(row)]), loss/float64(max(1, nq)))
	}
	return bld.View(m.RowsIn, m.Suppressed, true,
		fmt.Sprintf("Sampling publishes a record with probability %s, so an attacker is unsure anyone is in the release; these figures assume the attacker knows the person is.", model.FormatNumber(det.Rate))), nil
}
