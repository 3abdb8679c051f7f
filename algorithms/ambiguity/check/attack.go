package check

import (
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/ambiguity/format"
	"strconv"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// Expose is what an ambiguity release shows an attacker beyond its view
// (risk.Exposure): a person lies in every group whose auxiliary tables
// hold each of their values, and every value a group lists is the value
// of at least one of its records (Witnessed: an attacker who holds the
// population knows that someone it covers is in the data). The method
// bounds presence by alpha (Wang, Theorem 5.1) and the belief in a
// sensitive value by beta (Theorem 5.2); it claims no anonymity.
func Expose(rel *verify.Release, v *risk.View) (*risk.Exposure, error) {
	m := rel.Manifest
	det, err := format.Read(m)
	if err != nil || det.SensitiveTable == "" || len(det.AuxiliaryTables) != len(m.QIs) {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: "details do not name the auxiliary and sensitive tables of an ambiguity release" + errText(err)}
	}
	st, err := rel.Table(det.SensitiveTable)
	if err != nil {
		return nil, err
	}
	if len(st.Columns) != 3 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, det.SensitiveTable), Msg: "the sensitive table does not have the shape GroupID, <sa>, Frequency"}
	}
	sg := sharedSTGroups(rel, det.SensitiveTable, st, det.GroupIDBase) // the view's regions, in its order
	groups := sg.n
	if groups != len(v.Regions) {
		return nil, fmt.Errorf("the view has %d groups, %s %d", len(v.Regions), det.SensitiveTable, groups)
	}
	nQI := len(m.QIs)
	e := &risk.Exposure{Unit: "group", Witnessed: true, Cells: make([][]string, nQI), Sets: make([][][]uint32, groups),
		KBy: "ambiguity claims no anonymity: it bounds presence and association (Wang, Theorems 5.1-5.2)"}
	sets := make([][]uint32, groups*nQI)
	for r := range e.Sets {
		e.Sets[r] = sets[r*nQI : (r+1)*nQI : (r+1)*nQI]
	}
	// The tables are read at once, each into arrays of its own; the
	// groups' cells are set after, group after group.
	cells := make([]groupCells, nQI)
	e.Cover = make([]func([]string) [][]uint32, nQI)
	errs := make([]error, nQI)
	atOnce(nQI, func(i int) {
		aux := det.AuxiliaryTables[i]
		t, err := rel.Table(aux.File)
		if err != nil {
			errs[i] = err
			return
		}
		if len(t.Columns) != 2 {
			errs[i] = &model.InputError{File: filepath.Join(rel.Dir, aux.File), Msg: "an auxiliary table has the shape <qi>, GroupID"}
			return
		}
		e.Cells[i] = t.Columns[0].Dict
		if sg.ofID != nil {
			cells[i] = groupCellsOf(sharedATGroups(rel, aux.File, t, groups, sg.base), sg.ofID)
		} else {
			cells[i] = newGroupCells(groups, t, sharedGroupsOf(rel, det.SensitiveTable, aux.File, t.Columns[1], sg.keys))
		}
		e.Cover[i] = risk.ExactCover(e.Cells[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err // the first table's, as read in order
		}
	}
	for g, set := range e.Sets {
		for i := range set {
			set[i] = cells[i].of(g)
		}
	}
	bound := func(name string) float64 {
		x, err := strconv.ParseFloat(m.Parameters[name], 64)
		if err != nil {
			return math.NaN()
		}
		return x
	}
	beta := bound("beta")
	e.Posterior = func(int, int) float64 { return beta }
	e.PosteriorBy = fmt.Sprintf("beta = %s (association c/|G|, Wang, Theorem 5.2)", format.ParamBeta.Text(m.Parameters))
	e.PosteriorPerBelief = true // one bound for every region
	e.Presence = bound("alpha")
	e.PresenceBy = fmt.Sprintf("alpha = %s (presence |G|/prod_i |G_ATi|, Wang, Theorem 5.1)", format.ParamAlpha.Text(m.Parameters))
	return e, nil
}

// groupCells are the cells of one QI of every group: the codes of the
// values its auxiliary table lists for the group, sorted and each once,
// codes[start[g]:end[g]] (the rest up to start[g+1]: repeats).
type groupCells struct {
	start, end []int32
	codes      []uint32
}

// newGroupCells reads the auxiliary table t (of: the group of each
// GroupID code). Each row's group is looked up once (the lookups miss
// the cache: the rows are shuffled).
func newGroupCells(groups int, t *model.Table, of []int32) groupCells {
	start := make([]int32, groups+1)
	vals, ids := t.Columns[0], t.Columns[1]
	rowGroup := make([]int32, t.Rows) // -1: a row of no group, or no value
	for row := 0; row < t.Rows; row++ {
		g := of[verify.Code(ids, row)]
		if vals.Codes[row] == model.Missing {
			g = -1
		}
		rowGroup[row] = g
		if g >= 0 {
			start[g+1]++
		}
	}
	for g := range groups {
		start[g+1] += start[g]
	}
	cells := make([]uint32, start[groups])
	next := append([]int32(nil), start[:groups]...)
	for row, g := range rowGroup {
		if g >= 0 {
			cells[next[g]] = vals.Codes[row]
			next[g]++
		}
	}
	for g := range groups {
		next[g] = start[g] + int32(len(sortedUnique(cells[start[g]:start[g+1]:start[g+1]])))
	}
	return groupCells{start: start, end: next, codes: cells}
}

// groupCellsOf is newGroupCells off the value codes the checks list
// group by group (ag), group g being the group of GroupID id+1 where
// ofID[id] = g (every group has one): the groups' codes are read in the
// order listed, none looked up at its row, and each group's written
// together.
func groupCellsOf(ag *atGroups, ofID []int32) groupCells {
	n := len(ofID)
	c := groupCells{start: make([]int32, n+1), end: make([]int32, n)}
	for id, g := range ofID {
		k := int32(0)
		for _, code := range ag.codes[ag.start[id]:ag.start[id+1]] {
			if code != model.Missing {
				k++
			}
		}
		c.start[g+1] = k
	}
	for g := range n {
		c.start[g+1] += c.start[g]
	}
	c.codes = make([]uint32, c.start[n])
	for id, g := range ofID {
		p := c.start[g]
		for _, code := range ag.codes[ag.start[id]:ag.start[id+1]] {
			if code != model.Missing {
				c.codes[p] = code
				p++
			}
		}
	}
	for g := range n {
		c.end[g] = c.start[g] + int32(len(sortedUnique(c.codes[c.start[g]:c.start[g+1]:c.start[g+1]])))
	}
	return c
}

// of is group g's cells (nil when the table lists none for it).
func (c groupCells) of(g int) []uint32 {
	if c.start[g] == c.start[g+1] {
		return nil
	}
	return c.codes[c.start[g]:c.end[g]:c.start[g+1]]
}

// sortedUnique sorts c in place and drops repeats (risk.SortedUnique,
// by insertion for the few values of a group).
func sortedUnique(c []uint32) []uint32 {
	switch {
	case len(c) < 2:
		return c
	case len(c) == 2: // most groups hold two or three values
		if c[0] == c[1] {
			return c[:1]
		}
		if c[1] < c[0] {
			c[0], c[1] = c[1], c[0]
		}
		return c
	case len(c) > 12:
		return risk.SortedUnique(c)
	}
	for x := 1; x < len(c); x++ {
		for y := x; y > 0 && c[y] < c[y-1]; y-- {
			c[y], c[y-1] = c[y-1], c[y]
		}
	}
	out := c[:0]
	for x, v := range c {
		if x == 0 || v != c[x-1] {
			out = append(out, v)
		}
	}
	return out
}
