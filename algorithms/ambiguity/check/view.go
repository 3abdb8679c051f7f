package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

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
	var det struct {
		Aux []struct {
			QI   string `json:"qi"`
			File string `json:"file"`
		} `json:"auxiliary_tables"`
		ST string `json:"sensitive_table"`
	}
	b, _ := json.Marshal(m.Details)
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&det); err != nil || det.ST == "" || len(det.Aux) != len(m.QIs) {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: "details do not name the auxiliary and sensitive tables of an ambiguity release"}
	}
	st, err := rel.Table(det.ST)
	if err != nil {
		return nil, err
	}
	if len(st.Columns) != 3 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, det.ST), Msg: "the sensitive table does not have the shape GroupID, <sa>, Frequency"}
	}
	// Values per group in each auxiliary table.
	width := map[string][]int{}
	for a, aux := range det.Aux {
		t, err := rel.Table(aux.File)
		if err != nil {
			return nil, err
		}
		if len(t.Columns) != 2 {
			return nil, &model.InputError{File: filepath.Join(rel.Dir, aux.File), Msg: "an auxiliary table has the shape <qi>, GroupID"}
		}
		for row := 0; row < t.Rows; row++ {
			g := t.Columns[1].Value(row)
			if width[g] == nil {
				width[g] = make([]int, len(det.Aux))
			}
			width[g][a]++
		}
	}
	numeric := st.Columns[1].Kind == model.Numeric
	values, pos := risk.Ordered(st.Columns[1].Dict, numeric)
	counts := map[string][]int{}
	var order []string
	for row := 0; row < st.Rows; row++ {
		g := st.Columns[0].Value(row)
		f, err := strconv.Atoi(st.Columns[2].Value(row))
		if err != nil || f < 0 {
			return nil, &model.InputError{File: filepath.Join(rel.Dir, det.ST), Line: row + 2, Msg: fmt.Sprintf("Frequency %q is not a count", st.Columns[2].Value(row))}
		}
		if counts[g] == nil {
			counts[g] = make([]int, len(values))
			order = append(order, g)
		}
		counts[g][pos[st.Columns[1].Value(row)]] += f
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
