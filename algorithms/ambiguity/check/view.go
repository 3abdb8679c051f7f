package check

import (
	"math"
	"path/filepath"
	"sort"

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
	sg := sharedSTGroups(rel, det.SensitiveTable, st, det.GroupIDBase)
	of, groups := sg.of, sg.n
	numeric := st.Columns[1].Kind == model.Numeric
	values, pos := risk.Ordered(st.Columns[1].Dict, numeric)
	// The widths and the bags read different tables: at once.
	var width []int
	var bag *bags
	var werr, berr error
	atOnce(2, func(i int) {
		if i == 0 {
			width, werr = widths(rel, det, sg)
		} else {
			bag, berr = groupBags(filepath.Join(rel.Dir, det.SensitiveTable), st, of, groups, pos)
		}
	})
	if werr != nil {
		return nil, werr
	}
	if berr != nil {
		return nil, berr
	}
	bld := risk.NewBuilder(m.QIs, m.SA, values, numeric)
	bld.Grow(groups)
	nAT := len(det.AuxiliaryTables)
	for g := 0; g < groups; g++ {
		size := 0
		for _, c := range bag.counts[bag.start[g]:bag.start[g+1]] {
			size += c
		}
		combos := 1.0
		for _, w := range width[g*nAT : (g+1)*nAT] {
			combos *= float64(w)
		}
		presence := math.NaN()
		if combos > 0 {
			presence = math.Min(1, float64(size)/combos)
		}
		bld.AddRegion(size, bld.Pairs(bag.values[bag.start[g]:bag.start[g+1]], bag.counts[bag.start[g]:bag.start[g+1]]), 0, presence)
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

// widths counts every group's values in each auxiliary table (groups
// as stGroups numbers them, found by their GroupID text; a GroupID the
// sensitive table lacks is no group of the view): groups x tables
// counts, 0 where a table has no value of the group.
func widths(rel *verify.Release, det format.Details, sg *stGrouping) ([]int, error) {
	nAT, groups := len(det.AuxiliaryTables), sg.n
	per := make([][]int32, nAT) // per table: every group's count (each table its own, counted at once)
	errs := make([]error, nAT)
	atOnce(nAT, func(a int) { per[a], errs[a] = tableWidths(rel, det, a, sg) })
	for _, err := range errs {
		if err != nil {
			return nil, err // the first table's, as read in order
		}
	}
	width := make([]int, groups*nAT)
	for g := range groups {
		for a, w := range per {
			width[g*nAT+a] = int(w[g])
		}
	}
	return width, nil
}

// tableWidths counts every group's values in auxiliary table a: off
// the rows the checks list group by group when the GroupIDs are base+1..base+G
// (sg.byID), else by GroupID code.
func tableWidths(rel *verify.Release, det format.Details, a int, sg *stGrouping) ([]int32, error) {
	aux := det.AuxiliaryTables[a]
	t, err := rel.Table(aux.File)
	if err != nil {
		return nil, err
	}
	if len(t.Columns) != 2 {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, aux.File), Msg: "an auxiliary table has the shape <qi>, GroupID"}
	}
	width := make([]int32, sg.n)
	if sg.byID != nil {
		ag := sharedATGroups(rel, aux.File, t, sg.n, sg.base)
		for g, id := range sg.byID {
			width[g] = ag.start[id+1] - ag.start[id]
		}
		return width, nil
	}
	ids := t.Columns[1]
	n := make([]int32, len(ids.Dict)+1)
	for row := 0; row < t.Rows; row++ {
		n[verify.Code(ids, row)]++
	}
	for code, g := range sharedGroupsOf(rel, det.SensitiveTable, aux.File, ids, sg.keys) {
		if g >= 0 {
			width[g] += n[code]
		}
	}
	return width, nil
}

// bags are every group's sensitive values with their counts (summed
// frequencies), in value order: group g's are values[start[g]:start[g+1]].
type bags struct {
	start  []int32
	values []int32
	counts []int
}

// groupBags counts every group's sensitive values in st.csv (file;
// groups as stGroups numbers them; pos orders the values): each row's
// value and frequency are placed at its group's next place as the rows
// are read, then every group's are sorted and merged, moved down over
// the repeats of the groups before.
func groupBags(file string, st *model.Table, of []int32, groups int, pos map[string]int) (*bags, error) {
	freq, err := stFrequencies(st, file)
	if err != nil {
		return nil, err
	}
	ids, sa := st.Columns[0], st.Columns[1]
	at := make([]int32, len(sa.Dict)+1)
	for code, v := range sa.Dict {
		at[code] = int32(pos[v])
	}
	b := &bags{start: make([]int32, groups+1), values: make([]int32, st.Rows), counts: make([]int, st.Rows)}
	for row := 0; row < st.Rows; row++ {
		b.start[of[verify.Code(ids, row)]+1]++
	}
	for g := 0; g < groups; g++ {
		b.start[g+1] += b.start[g]
	}
	next := append([]int32(nil), b.start[:groups]...)
	for row := 0; row < st.Rows; row++ {
		g := of[verify.Code(ids, row)]
		b.values[next[g]], b.counts[next[g]] = at[verify.Code(sa, row)], freq[row]
		next[g]++
	}
	w := 0
	for g := 0; g < groups; g++ {
		lo, hi := b.start[g], b.start[g+1]
		v, c := b.values[lo:hi], b.counts[lo:hi]
		sortPairs(pairs{v, c})
		b.start[g] = int32(w)
		for x := range v {
			if x > 0 && v[x] == b.values[w-1] {
				b.counts[w-1] += c[x]
				continue
			}
			b.values[w], b.counts[w] = v[x], c[x]
			w++
		}
	}
	b.start[groups] = int32(w)
	b.values, b.counts = b.values[:w], b.counts[:w]
	return b, nil
}

// pairs sorts values with their counts.
type pairs struct {
	v []int32
	c []int
}

func (p pairs) Len() int           { return len(p.v) }
func (p pairs) Less(i, j int) bool { return p.v[i] < p.v[j] }
func (p pairs) Swap(i, j int) {
	p.v[i], p.v[j] = p.v[j], p.v[i]
	p.c[i], p.c[j] = p.c[j], p.c[i]
}

// sortPairs sorts by value: by insertion when there are a few (a group
// holds a few sensitive values).
func sortPairs(p pairs) {
	if len(p.v) > 12 {
		sort.Sort(p)
		return
	}
	for x := 1; x < len(p.v); x++ {
		for y := x; y > 0 && p.Less(y, y-1); y-- {
			p.Swap(y, y-1)
		}
	}
}
