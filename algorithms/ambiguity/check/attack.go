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
	_, groups, keys := sharedSTGroups(rel, det.SensitiveTable, st) // the view's regions, in its order
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
	for i, aux := range det.AuxiliaryTables {
		t, err := rel.Table(aux.File)
		if err != nil {
			return nil, err
		}
		if len(t.Columns) != 2 {
			return nil, &model.InputError{File: filepath.Join(rel.Dir, aux.File), Msg: "an auxiliary table has the shape <qi>, GroupID"}
		}
		e.Cells[i] = t.Columns[0].Dict
		groupSets(e.Sets, i, t, sharedGroupsOf(rel, det.SensitiveTable, aux.File, t.Columns[1], keys))
		e.Cover = append(e.Cover, risk.ExactCover(e.Cells[i]))
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
	e.PosteriorBy = fmt.Sprintf("beta = %s (association c/|G|, Wang, Theorem 5.2)", m.Parameters["beta"])
	e.PosteriorPerBelief = true // one bound for every region
	e.Presence = bound("alpha")
	e.PresenceBy = fmt.Sprintf("alpha = %s (presence |G|/prod_i |G_ATi|, Wang, Theorem 5.1)", m.Parameters["alpha"])
	return e, nil
}

// groupSets sets every group's cells of QI i: the codes of the values
// the auxiliary table t lists for it (of: the group of each GroupID
// code), sorted and each once (nil when it lists none).
func groupSets(sets [][][]uint32, i int, t *model.Table, of []int32) {
	start := make([]int32, len(sets)+1)
	vals, ids := t.Columns[0], t.Columns[1]
	for row := 0; row < t.Rows; row++ {
		if g := of[verify.Code(ids, row)]; g >= 0 && vals.Codes[row] != model.Missing {
			start[g+1]++
		}
	}
	for g := range sets {
		start[g+1] += start[g]
	}
	cells := make([]uint32, start[len(sets)])
	next := append([]int32(nil), start[:len(sets)]...)
	for row := 0; row < t.Rows; row++ {
		if g := of[verify.Code(ids, row)]; g >= 0 && vals.Codes[row] != model.Missing {
			cells[next[g]] = vals.Codes[row]
			next[g]++
		}
	}
	for g := range sets {
		if c := cells[start[g]:start[g+1]:start[g+1]]; len(c) > 0 {
			sets[g][i] = sortedUnique(c)
		}
	}
}

// sortedUnique sorts c in place and drops repeats (risk.SortedUnique,
// by insertion for the few values of a group).
func sortedUnique(c []uint32) []uint32 {
	if len(c) > 12 {
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
