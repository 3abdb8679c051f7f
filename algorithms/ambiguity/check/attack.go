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
	region, err := groupOrder(rel, det.SensitiveTable)
	if err != nil {
		return nil, err
	}
	if len(region) != len(v.Regions) {
		return nil, fmt.Errorf("the view has %d groups, %s %d", len(v.Regions), det.SensitiveTable, len(region))
	}
	e := &risk.Exposure{Unit: "group", Witnessed: true, Cells: make([][]string, len(m.QIs)), Sets: make([][][]uint32, len(v.Regions)),
		KBy: "ambiguity claims no anonymity: it bounds presence and association (Wang, Theorems 5.1-5.2)"}
	for r := range e.Sets {
		e.Sets[r] = make([][]uint32, len(m.QIs))
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
		for row := 0; row < t.Rows; row++ {
			if r, ok := region[t.Columns[1].Value(row)]; ok && t.Columns[0].Codes[row] != model.Missing {
				e.Sets[r][i] = append(e.Sets[r][i], t.Columns[0].Codes[row])
			}
		}
		e.Cover = append(e.Cover, risk.ExactCover(e.Cells[i]))
	}
	for r := range e.Sets {
		for i := range e.Sets[r] {
			e.Sets[r][i] = risk.SortedUnique(e.Sets[r][i])
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
	e.PosteriorBy = fmt.Sprintf("beta = %s (association c/|G|, Wang, Theorem 5.2)", m.Parameters["beta"])
	e.Presence = bound("alpha")
	e.PresenceBy = fmt.Sprintf("alpha = %s (presence |G|/prod_i |G_ATi|, Wang, Theorem 5.1)", m.Parameters["alpha"])
	return e, nil
}

// groupOrder gives each group's region in the view: groups in order of
// first appearance in the sensitive table, as View adds them.
func groupOrder(rel *verify.Release, file string) (map[string]int, error) {
	st, err := rel.Table(file)
	if err != nil {
		return nil, err
	}
	if len(st.Columns) != 3 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, file), Msg: "the sensitive table does not have the shape GroupID, <sa>, Frequency"}
	}
	out := map[string]int{}
	for row := 0; row < st.Rows; row++ {
		g := st.Columns[0].Value(row)
		if _, ok := out[g]; !ok {
			out[g] = len(out)
		}
	}
	return out, nil
}
