package check

import (
	"fmt"
	"path/filepath"
	"privlab/algorithms/kja/format"
	"strconv"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// View is a k-join-anonymity release as an attacker reads it
// (risk.View): a region is a G-box of jat.csv (its rows are the join
// table's tuples inside it, microdata and public ones alike), a member's
// belief is its sensitive group's values in si.csv (Sacharidis et al.,
// Section 3.2), and a box's loss is the share of each QI's domain it
// spans (Section 2.1). Every tuple of a box is an individual of the
// public population, so the journalist's candidates are the prosecutor's
// (Theorem 2 bounds both by 1/|box|).
func View(rel *verify.Release) (*risk.View, error) {
	m := rel.Manifest
	jat, err := rel.Table(format.FileJAT)
	if err != nil {
		return nil, err
	}
	si, err := rel.Table(format.FileSI)
	if err != nil {
		return nil, err
	}
	det, err := format.Read(m)
	if err != nil {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: err.Error()}
	}
	if len(det.Domain) != len(m.QIs) || len(jat.Columns) != 2+2*len(m.QIs) || len(si.Columns) != 2 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: "the release's domain, jat.csv or si.csv does not have the shape of a kja release"}
	}
	// The sensitive values, in order, and each sensitive group's belief,
	// read on codes.
	sgCol, saCol := si.Columns[0], si.Columns[1]
	numeric := saCol.Kind == model.Numeric
	values, pos := risk.Ordered(saCol.Dict, numeric)
	at := make([]int, len(saCol.Dict)+1)
	for code, v := range saCol.Dict {
		at[code] = pos[v]
	}
	// Each group's values as a bag (CountsOf), not a count per value of
	// the domain: groups x values was quadratic on a wide domain.
	bags := make([][]int32, len(sgCol.Dict)+1)
	for row := 0; row < si.Rows; row++ {
		sg := verify.Code(sgCol, row)
		bags[sg] = append(bags[sg], int32(at[verify.Code(saCol, row)]))
	}
	bld := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	beliefOf := map[string]int32{}
	for code, bag := range bags {
		if bag != nil && code < len(sgCol.Dict) {
			beliefOf[sgCol.Dict[code]] = bld.CountsOf(bag)
		}
	}
	jatSG := jat.Columns[1]
	beliefs := make([]int32, len(jatSG.Dict)+1)
	for code := range beliefs {
		beliefs[code] = -1
		if b, ok := beliefOf[textOf(jatSG, code)]; ok && code < len(jatSG.Dict) {
			beliefs[code] = b
		}
	}
	cells := newBoxCells(jat, det.Domain, bld)
	for row := 0; row < jat.Rows; row++ {
		codes, loss := cells.row(row)
		belief := beliefs[verify.Code(jatSG, row)]
		if belief < 0 {
			return nil, &model.InputError{File: filepath.Join(rel.Dir, format.FileJAT), Line: row + 2, Msg: fmt.Sprintf("SG %s has no row in si.csv", jatSG.Value(row))}
		}
		bld.AddCoded(codes, belief, loss/float64(len(m.QIs)))
	}
	var notes []string
	if det.PublicRows > 0 {
		notes = append(notes, "A box holds public-database individuals beside the microdata ones, and the attacker cannot tell them apart (Sacharidis et al., Theorem 2).")
	}
	v := bld.View(m.RowsIn, m.Suppressed, true, notes...)
	for i := range v.Regions {
		v.Regions[i].Population = v.Regions[i].Records
	}
	return v, nil
}

// boxCells reads a jat.csv row's box as the attacker's cells (coded by
// the builder) and loss per QI: boxes repeat, so each pair of bound
// codes is read, and its cell text coded, once.
type boxCells struct {
	jat    *model.Table
	domain []format.DomainEntry
	bld    *risk.Builder
	at     []map[string]int // categorical: value -> position
	seen   []map[uint64]cellOf
	// dense, per QI when its pairs of codes are few (denseCells): the
	// cell of each pair, read by index rather than hashed (0: not read
	// yet, else 1 + its place in cells).
	dense [][]int32
	cells [][]cellOf
	codes []uint32
}

// denseCells is the most pairs of bound codes a QI's cells are kept for
// by index (4 MB each).
var denseCells = 1 << 20

type cellOf struct {
	code uint32 // the builder's code of the cell's text
	loss float64
}

func newBoxCells(jat *model.Table, dom []format.DomainEntry, bld *risk.Builder) *boxCells {
	c := &boxCells{jat: jat, domain: dom, bld: bld, at: make([]map[string]int, len(dom)), seen: make([]map[uint64]cellOf, len(dom)),
		dense: make([][]int32, len(dom)), cells: make([][]cellOf, len(dom)), codes: make([]uint32, len(dom))}
	for a, d := range dom {
		c.seen[a] = map[uint64]cellOf{}
		if n := (len(jat.Columns[2+2*a].Dict) + 1) * (len(jat.Columns[3+2*a].Dict) + 1); n <= denseCells {
			c.dense[a] = make([]int32, n)
		}
		if d.Kind != "numeric" {
			c.at[a] = map[string]int{}
			for i, v := range d.Values {
				c.at[a][v] = i
			}
		}
	}
	return c
}

// row is the row's cells' codes (reused between calls) and its summed
// loss.
func (c *boxCells) row(row int) ([]uint32, float64) {
	var loss float64
	for a, d := range c.domain {
		loCol, hiCol := c.jat.Columns[2+2*a], c.jat.Columns[3+2*a]
		var cell cellOf
		if dense := c.dense[a]; dense != nil {
			at := int(loCol.Codes[row]+1)*(len(hiCol.Dict)+1) + int(hiCol.Codes[row]+1) // Missing + 1 == 0
			if i := dense[at]; i > 0 {
				cell = c.cells[a][i-1]
			} else {
				cell = c.read(a, d, loCol, hiCol, row)
				c.cells[a] = append(c.cells[a], cell)
				dense[at] = int32(len(c.cells[a]))
			}
		} else {
			key := uint64(loCol.Codes[row])<<32 | uint64(hiCol.Codes[row])
			var ok bool
			if cell, ok = c.seen[a][key]; !ok {
				cell = c.read(a, d, loCol, hiCol, row)
				c.seen[a][key] = cell
			}
		}
		c.codes[a] = cell.code
		loss += cell.loss
	}
	return c.codes, loss
}

// read codes the cell of QI a on the row (first met) and measures its
// loss.
func (c *boxCells) read(a int, d format.DomainEntry, loCol, hiCol *model.Column, row int) cellOf {
	var cell cellOf
	lo, hi := loCol.Value(row), hiCol.Value(row)
	text := lo
	if hi != lo {
		text = lo + ".." + hi
	}
	cell.code = c.bld.CellCode(a, text)
	if c.at[a] == nil {
		x, _ := strconv.ParseFloat(lo, 64)
		y, _ := strconv.ParseFloat(hi, 64)
		cell.loss = risk.NumericLoss(x, y, d.Low, d.High)
	} else {
		cell.loss = risk.SetLoss(c.at[a][hi]-c.at[a][lo]+1, len(d.Values))
	}
	return cell
}
