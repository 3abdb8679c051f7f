package check

import (
	"math"
	"path/filepath"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// View is a lossyjoin release as an attacker reads it (risk.View). With
// nss.csv and ss.csv (variants lossy and anatomy) the quasi-identifiers
// are exact, a region is a distinct QI tuple of nss.csv and a member's
// belief is its class's sensitive values in ss.csv (the lossy join of
// Wong et al., Section 5, mixed over the classes a tuple lies in). With
// generalized.csv (variant alpha) a region is a distinct generalized
// tuple, its belief the values published with it, and its loss the share
// of each QI's values its labels cover (domains.csv).
func View(rel *verify.Release) (*risk.View, error) {
	m := rel.Manifest
	if rel.Has(fileGen) {
		return generalizedView(rel)
	}
	nss, err := rel.Table(fileNSS)
	if err != nil {
		return nil, err
	}
	ss, err := rel.Table(fileSS)
	if err != nil {
		return nil, err
	}
	nq := len(m.QIs)
	if len(nss.Columns) != nq+1 || len(ss.Columns) != 2 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, fileNSS), Msg: "nss.csv and ss.csv do not have the shape of a lossyjoin release"}
	}
	values, numeric, pos := saValues(ss.Columns[1])
	counts := map[string][]int{}
	for row := 0; row < ss.Rows; row++ {
		id := ss.Columns[0].Value(row)
		if counts[id] == nil {
			counts[id] = make([]int, len(values))
		}
		counts[id][pos[ss.Columns[1].Value(row)]]++
	}
	b := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	beliefOf := map[string]int32{}
	for id, c := range counts {
		beliefOf[id] = b.Counts(c)
	}
	cells := make([]string, nq)
	for row := 0; row < nss.Rows; row++ {
		for i := range cells {
			cells[i] = nss.Columns[i].Value(row)
		}
		belief, ok := beliefOf[nss.Columns[nq].Value(row)]
		if !ok {
			belief = -1 // a class without ss.csv rows: the check fails it
		}
		b.Add(cells, belief, 0)
	}
	return b.View(m.RowsIn, m.Suppressed, false,
		"Quasi-identifiers are published exactly: the lossy join hides which sensitive value belongs to a record, not who is in the release."), nil
}

// generalizedView reads variant alpha's generalized.csv and domains.csv.
func generalizedView(rel *verify.Release) (*risk.View, error) {
	m := rel.Manifest
	gen, err := rel.Table(fileGen)
	if err != nil {
		return nil, err
	}
	dom, err := rel.Table(fileDom)
	if err != nil {
		return nil, err
	}
	nq := len(m.QIs)
	if len(gen.Columns) != nq+1 || len(dom.Columns) != 3 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, fileGen), Msg: "generalized.csv and domains.csv do not have the shape of a lossyjoin release"}
	}
	// Each label's values, and each attribute's domain.
	type span struct {
		n      int
		lo, hi float64
		num    bool
	}
	labels := map[[2]string]*span{}
	domain := map[string]*span{}
	seen := map[[2]string]bool{}
	extend := func(m map[string]*span, key string, x float64, isNum bool) {
		sp := m[key]
		if sp == nil {
			sp = &span{lo: math.Inf(1), hi: math.Inf(-1), num: true}
			m[key] = sp
		}
		sp.n++
		sp.num = sp.num && isNum
		sp.lo, sp.hi = math.Min(sp.lo, x), math.Max(sp.hi, x)
	}
	byLabel := map[string]*span{}
	for row := 0; row < dom.Rows; row++ {
		attr, label, v := dom.Columns[0].Value(row), dom.Columns[1].Value(row), dom.Columns[2].Value(row)
		x, isNum := model.ParseNumber(v)
		extend(byLabel, attr+"\x00"+label, x, isNum)
		labels[[2]string{attr, label}] = byLabel[attr+"\x00"+label]
		if !seen[[2]string{attr, v}] {
			seen[[2]string{attr, v}] = true
			extend(domain, attr, x, isNum)
		}
	}
	// A cell no label lists is an exact value; the domain then has it too.
	for i, q := range m.QIs {
		for _, v := range gen.Columns[i].Dict {
			if labels[[2]string{q, v}] == nil && !seen[[2]string{q, v}] {
				seen[[2]string{q, v}] = true
				x, isNum := model.ParseNumber(v)
				extend(domain, q, x, isNum)
			}
		}
	}
	values, numeric, pos := saValues(gen.Columns[nq])
	b := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	cells := make([]string, nq)
	for row := 0; row < gen.Rows; row++ {
		var loss float64
		for i, q := range m.QIs {
			cells[i] = gen.Columns[i].Value(row)
			sp, d := labels[[2]string{q, cells[i]}], domain[q]
			switch {
			case sp == nil || d == nil:
			case sp.num && d.num:
				loss += risk.NumericLoss(sp.lo, sp.hi, d.lo, d.hi)
			default:
				loss += risk.SetLoss(sp.n, d.n)
			}
		}
		b.Add(cells, b.Value(pos[gen.Columns[nq].Value(row)]), loss/float64(nq))
	}
	return b.View(m.RowsIn, m.Suppressed, true), nil
}

// saValues lists a sensitive column's values in the view's order.
func saValues(c *model.Column) ([]string, bool, map[string]int) {
	numeric := c.Kind == model.Numeric
	values, pos := risk.Ordered(c.Dict, numeric)
	return values, numeric, pos
}
