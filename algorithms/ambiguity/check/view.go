package check

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// View is an ambiguity release as an attacker reads it (risk.View): the
// quasi-identifiers are published in one table each, apart from each
// other, so there are no record-level cells; a region is a QI-group
// (|G| records, the frequencies of st.csv), a member's belief is the
// group's sensitive values (association c/|G|, Wang, Theorem 5.2) and
// the group's presence probability is |G| / prod_i |G_ATi| (Theorem 5.1).
func View(rel *verify.Release) (*risk.View, error) {
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
	width, err := widths(rel, det)
	if err != nil {
		return nil, err
	}
	numeric := st.Columns[1].Kind == model.Numeric
	values, pos := risk.Ordered(st.Columns[1].Dict, numeric)
	counts, order, err := groupCounts(rel, det, st, values, pos)
	if err != nil {
		return nil, err
	}
	bld := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	for _, g := range order {
		size := 0
		for _, c := range counts[g] {
			size += c
		}
		combos := 1.0
		for _, w := range width[g] {
			combos *= float64(w)
		}
		presence := math.NaN()
		if width[g] != nil && combos > 0 {
			presence = math.Min(1, float64(size)/combos)
		}
		bld.AddRegion(size, bld.Counts(counts[g]), 0, presence)
	}
	return bld.View(m.RowsIn, m.Suppressed, false,
		"Quasi-identifiers are published apart from each other: an attacker who knows nothing beyond the release cannot tell which combination of a group's values is a real record."), nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// widths counts every group's values in each auxiliary table, by its
// GroupID text (counted per code).
func widths(rel *verify.Release, det format.Details) (map[string][]int, error) {
	width := map[string][]int{}
	for a, aux := range det.AuxiliaryTables {
		t, err := rel.Table(aux.File)
		if err != nil {
			return nil, err
		}
		if len(t.Columns) != 2 {
			return nil, &model.InputError{File: filepath.Join(rel.Dir, aux.File), Msg: "an auxiliary table has the shape <qi>, GroupID"}
		}
		ids := t.Columns[1]
		n := make([]int, len(ids.Dict)+1)
		for row := 0; row < t.Rows; row++ {
			n[verify.Code(ids, row)]++
		}
		for code, k := range n {
			if k == 0 {
				continue
			}
			g := labelOf(ids, code)
			if width[g] == nil {
				width[g] = make([]int, len(det.AuxiliaryTables))
			}
			width[g][a] += k
		}
	}
	return width, nil
}

// groupCounts counts every group's sensitive values in st.csv (by its
// GroupID text, groups in order of first appearance).
func groupCounts(rel *verify.Release, det format.Details, st *model.Table, values []string, pos map[string]int) (map[string][]int, []string, error) {
	counts := map[string][]int{}
	var order []string
	at := make([]int, len(st.Columns[1].Dict)+1)
	for code, v := range st.Columns[1].Dict {
		at[code] = pos[v]
	}
	for row := 0; row < st.Rows; row++ {
		g := st.Columns[0].Value(row)
		f, err := strconv.Atoi(st.Columns[2].Value(row))
		if err != nil || f < 0 {
			return nil, nil, &model.InputError{File: filepath.Join(rel.Dir, det.SensitiveTable), Line: row + 2, Msg: fmt.Sprintf("Frequency %q is not a count", st.Columns[2].Value(row))}
		}
		if counts[g] == nil {
			counts[g] = make([]int, len(values))
			order = append(order, g)
		}
		counts[g][at[verify.Code(st.Columns[1], row)]] += f
	}
	return counts, order, nil
}
