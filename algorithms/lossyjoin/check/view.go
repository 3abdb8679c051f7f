package check

import (
	"math"
	"path/filepath"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
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
	b, beliefs := classBeliefs(m, ss, nss.Columns[nq])
	cells := newCellCodes(b, nss.Columns[:nq])
	for row := 0; row < nss.Rows; row++ {
		b.AddCoded(cells.row(row), beliefs[verify.Code(nss.Columns[nq], row)], 0)
	}
	return b.View(m.RowsIn, m.Suppressed, false,
		"Quasi-identifiers are published exactly: the lossy join hides which sensitive value belongs to a record, not who is in the release."), nil
}

// cellCodes are the builder's codes of a table's QI cells, each value's
// asked for once, when first met (Builder.CellCode: the codes Add gives
// the texts, in the order Add would first meet them), not once per row.
type cellCodes struct {
	b     *risk.Builder
	cols  []*model.Column
	known [][]uint32 // per QI, per code + 1 (0: missing): 1 + the cell's code, 0 until met
	codes []uint32
}

func newCellCodes(b *risk.Builder, cols []*model.Column) *cellCodes {
	c := &cellCodes{b: b, cols: cols, known: make([][]uint32, len(cols)), codes: make([]uint32, len(cols))}
	for i, col := range cols {
		c.known[i] = make([]uint32, len(col.Dict)+1)
	}
	return c
}

// row is the row's cells' codes (reused between calls).
func (c *cellCodes) row(row int) []uint32 {
	for i, col := range c.cols {
		at := col.Codes[row] + 1 // Missing + 1 == 0
		k := c.known[i][at]
		if k == 0 {
			k = c.b.CellCode(i, col.Value(row)) + 1
			c.known[i][at] = k
		}
		c.codes[i] = k - 1
	}
	return c.codes
}

// classBeliefs registers every class's sensitive values (ss.csv) as a
// belief, and gives each code of nss.csv's ClassID column its class's
// (-1: a class without ss.csv rows, which the check fails).
func classBeliefs(m *releasedir.Manifest, ss *model.Table, nssClass *model.Column) (*risk.Builder, []int32) {
	values, numeric, pos := saValues(ss.Columns[1])
	at := make([]int, len(ss.Columns[1].Dict)+1)
	for code, v := range ss.Columns[1].Dict {
		at[code] = pos[v]
	}
	idCol := ss.Columns[0]
	// Each class's values as a bag (CountsOf), not a count per value of
	// the domain: classes x values was quadratic on a wide domain.
	bags := make([][]int32, len(idCol.Dict)+1)
	for row := 0; row < ss.Rows; row++ {
		id := verify.Code(idCol, row)
		bags[id] = append(bags[id], int32(at[verify.Code(ss.Columns[1], row)]))
	}
	b := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	beliefOf := map[string]int32{}
	for code, bag := range bags {
		if bag != nil {
			beliefOf[textOf(idCol, code)] = b.CountsOf(bag)
		}
	}
	beliefs := make([]int32, len(nssClass.Dict)+1)
	for code := range beliefs {
		belief, ok := beliefOf[textOf(nssClass, code)]
		beliefs[code] = map[bool]int32{true: belief, false: -1}[ok]
	}
	return b, beliefs
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
	loss := labelLosses(m, gen, dom)
	values, numeric, pos := saValues(gen.Columns[nq])
	b := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	belief := make([]int32, len(gen.Columns[nq].Dict)+1)
	for code, v := range gen.Columns[nq].Dict {
		belief[code] = b.Value(pos[v])
	}
	cells := make([]string, nq)
	for row := 0; row < gen.Rows; row++ {
		var sum float64
		for i := range cells {
			cells[i] = gen.Columns[i].Value(row)
			sum += loss[i][verify.Code(gen.Columns[i], row)]
		}
		b.Add(cells, belief[verify.Code(gen.Columns[nq], row)], sum/float64(nq))
	}
	return b.View(m.RowsIn, m.Suppressed, true), nil
}

// span is a label's (or a domain's) values: their count and numeric
// range.
type span struct {
	n      int
	lo, hi float64
	num    bool
}

func (sp *span) extend(x float64, isNum bool) {
	sp.n++
	sp.num = sp.num && isNum
	sp.lo, sp.hi = math.Min(sp.lo, x), math.Max(sp.hi, x)
}

func newSpan() *span { return &span{lo: math.Inf(1), hi: math.Inf(-1), num: true} }

// labelLosses is the loss of each published label of generalized.csv,
// per QI and code: the share of the attribute's domain its values cover
// (domains.csv; a cell no label lists is an exact value, which the
// domain then holds too).
func labelLosses(m *releasedir.Manifest, gen, dom *model.Table) [][]float64 {
	labels := map[[2]string]*span{}
	domain := map[string]*span{}
	seen := map[[2]string]bool{}
	add := func(attr string, v string, x float64, isNum bool) {
		if !seen[[2]string{attr, v}] {
			seen[[2]string{attr, v}] = true
			if domain[attr] == nil {
				domain[attr] = newSpan()
			}
			domain[attr].extend(x, isNum)
		}
	}
	for row := 0; row < dom.Rows; row++ {
		attr, label, v := dom.Columns[0].Value(row), dom.Columns[1].Value(row), dom.Columns[2].Value(row)
		x, isNum := model.ParseNumber(v)
		if labels[[2]string{attr, label}] == nil {
			labels[[2]string{attr, label}] = newSpan()
		}
		labels[[2]string{attr, label}].extend(x, isNum)
		add(attr, v, x, isNum)
	}
	for i, q := range m.QIs {
		for _, v := range gen.Columns[i].Dict {
			if labels[[2]string{q, v}] == nil {
				x, isNum := model.ParseNumber(v)
				add(q, v, x, isNum)
			}
		}
	}
	loss := make([][]float64, len(m.QIs))
	for i, q := range m.QIs {
		col := gen.Columns[i]
		loss[i] = make([]float64, len(col.Dict)+1)
		for code, v := range col.Dict {
			sp, d := labels[[2]string{q, v}], domain[q]
			switch {
			case sp == nil || d == nil:
			case sp.num && d.num:
				loss[i][code] = risk.NumericLoss(sp.lo, sp.hi, d.lo, d.hi)
			default:
				loss[i][code] = risk.SetLoss(sp.n, d.n)
			}
		}
	}
	return loss
}

// saValues lists a sensitive column's values in the view's order.
func saValues(c *model.Column) ([]string, bool, map[string]int) {
	numeric := c.Kind == model.Numeric
	values, pos := risk.Ordered(c.Dict, numeric)
	return values, numeric, pos
}
