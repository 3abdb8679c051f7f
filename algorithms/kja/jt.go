package kja

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/partition"
	"privlab/model"
)

// axis is one quasi-identifier seen as an ordered numeric axis
// (Sacharidis et al., Section 2.1: "categorical values can be trivially
// mapped to an integer domain"). A numeric QI is its values; a
// categorical one is the position of its value in the order of its
// hierarchy's leaves, so that a range of positions is a run of similar
// values and a box reads as [lowest value, highest value].
type axis struct {
	name    string
	numeric bool
	// values are the categorical domain in hierarchy order (pos -> text).
	values []string
	pos    map[string]int
	// lo, hi is the domain every QI is normalised by: the extent over JT
	// (MT and the public tuples read) for numeric QIs, 0..|values|-1 for
	// categorical ones.
	lo, hi float64
}

// scale is 1/extent (0 for a one-value domain, which costs nothing).
func (a *axis) scale() float64 {
	if a.hi > a.lo {
		return 1 / (a.hi - a.lo)
	}
	return 0
}

// text writes an axis position as the release publishes it.
func (a *axis) text(x float64) string {
	if a.numeric {
		return model.FormatNumber(x)
	}
	return a.values[int(x)]
}

// jt is the join table JT of Sacharidis et al., Section 3.1: the full
// outer join of MT and the publisher's public database PD on the
// identifier, without the identifier. Tuples 0..mt-1 are MT's rows (rows of
// Input.Table, in order); tuples mt.. are the external ones, PD rows that
// join no MT row (pd holds their row in Input.Public). Coordinates are
// stored tuple-major: x[i*d+a].
type jt struct {
	d    int
	n    int
	mt   int
	pd   []int32
	x    []float64
	axes []axis
	// sc[a] is axes[a].scale(): normalised extent = (hi-lo)*sc.
	sc []float64
	// rank[a][i] is tuple i's rank on axis a among the values present in
	// JT, and val[a][r] the axis position of rank r (partition.Dim).
	rank [][]int32
	val  [][]float64
	// Notes on what the join did.
	joined, duplicates, unknown, differ int
	joinCols                            []string
	// fixedDomain is set on the study's draws (jt.subset): the domain is
	// the universe's, for the algorithms as for NCP, in every variant.
	fixedDomain bool
	// qiPaired counts the public rows no identifier joined that equal a
	// microdata tuple on the QIs and are counted as that person, not as
	// another JT tuple (see pairByQIs).
	qiPaired int
}

func (t *jt) isMT(i int32) bool { return int(i) < t.mt }

func (t *jt) coord(i int32, a int) float64 { return t.x[int(i)*t.d+a] }

// codeValues maps every Dict code of c to its axis position (NaN when the
// axis does not know the value: a public value outside the hierarchy).
func codeValues(c *model.Column, ax *axis) []float64 {
	out := make([]float64, len(c.Dict))
	for code, v := range c.Dict {
		switch {
		case ax.numeric && c.Kind == model.Numeric:
			out[code] = c.Nums[code]
		case ax.numeric:
			if x, ok := model.ParseNumber(v); ok {
				out[code] = x
			} else {
				out[code] = math.NaN()
			}
		default:
			if p, ok := ax.pos[v]; ok {
				out[code] = float64(p)
			} else {
				out[code] = math.NaN()
			}
		}
	}
	return out
}

// newAxes describes every QI: numeric columns as numbers, categorical
// ones in the order of their hierarchy's leaves (text order without one,
// over the values of both tables).
func newAxes(in *method.Input, public *model.Table) ([]axis, error) {
	out := make([]axis, len(in.Roles.QIs))
	for i, name := range in.Roles.QIs {
		c := in.Table.Column(name)
		if c == nil {
			return nil, &model.ParamError{Param: "qi", Value: name, Reason: "no such column"}
		}
		if c.MissingCount > 0 {
			return nil, &model.ParamError{Param: "qi", Value: name, Reason: "the quasi-identifier has missing values",
				Hint: "a tuple without a value has no place in a G-box", Fixes: []model.Fix{{Setting: model.SetMissing, Value: "drop"}}}
		}
		ax := axis{name: name, numeric: c.Kind == model.Numeric}
		if !ax.numeric {
			ax.pos = map[string]int{}
			if h := in.Hierarchies[name]; h != nil {
				for _, l := range h.Leaves {
					ax.pos[h.Nodes[l].Label] = len(ax.values)
					ax.values = append(ax.values, h.Nodes[l].Label)
				}
				for _, v := range c.Dict {
					if _, ok := ax.pos[v]; !ok {
						return nil, &model.ParamError{Param: "hierarchy " + name, Value: v,
							Reason: "the hierarchy does not list this value of the table",
							Hint:   "categorical QIs are ordered by their hierarchy's leaves; give a hierarchy that lists every value"}
					}
				}
			} else {
				seen := map[string]bool{}
				var vals []string
				for _, t := range []*model.Table{in.Table, public} {
					if t == nil {
						continue
					}
					if pc := t.Column(name); pc != nil {
						for _, v := range pc.Dict {
							if !seen[v] {
								seen[v] = true
								vals = append(vals, v)
							}
						}
					}
				}
				sort.Strings(vals)
				for _, v := range vals {
					ax.pos[v] = len(ax.values)
					ax.values = append(ax.values, v)
				}
			}
			ax.lo, ax.hi = 0, float64(max(0, len(ax.values)-1))
		}
		out[i] = ax
	}
	return out, nil
}

// joinKey is the identifier of a row: the identifier columns' texts
// (numbers in canonical form, whatever the column's kind), "" when one is
// missing.
func joinKey(cols []*model.Column, row int) string {
	var b strings.Builder
	for _, c := range cols {
		if c.IsMissing(row) {
			return ""
		}
		v := c.Value(row)
		if x, ok := model.ParseNumber(v); ok {
			v = model.FormatNumber(x) // 7, 7.0 and 007 are one identifier
		}
		b.WriteString(v)
		b.WriteByte(0)
	}
	return b.String()
}

// jtUse says what the public table is read for.
type jtUse int

const (
	// pdCounts: PD's tuples join JT and count toward k (the KJA
	// variants, Sacharidis et al., Section 4), so an identifier that PD
	// and MT share must join them, or MT's people would count twice.
	pdCounts jtUse = iota
	// pdDomain: PD only widens the domain NCP is normalised by (the plain
	// baselines, so that their NCP compares with the KJA variants').
	pdDomain
)

// buildJT forms JT from MT and, when public is given, PD (Sacharidis et al.,
// Section 3.1, JT+ = PD full outer join MT+ on the ID, then JT = JT+
// without the ID). The identifier columns (Roles.IDs) join them: a PD row
// whose identifier is an MT row's is that MT tuple (MT's values are used),
// a repeated identifier in PD is the same person once. Without an
// identifier every PD row is another individual, so when PD's tuples count
// toward k (use pdCounts) an identifier PD lacks, or a column that looks
// like one shared by both tables without --id, is refused (see
// checkIdentifiers). PD rows with a categorical value outside the QI's
// hierarchy cannot be placed on its axis and are left out.
func buildJT(in *method.Input, public *model.Table, use jtUse) (*jt, error) {
	axes, err := newAxes(in, public)
	if err != nil {
		return nil, err
	}
	if public != nil && use == pdCounts {
		if err := checkIdentifiers(in, public); err != nil {
			return nil, err
		}
	}
	d := len(axes)
	t := &jt{d: d, mt: in.Table.Rows, axes: axes}
	mt := coded{cols: make([]*model.Column, d), vals: make([][]float64, d)}
	for a := range axes {
		mt.cols[a] = in.Table.Column(axes[a].name)
		mt.vals[a] = codeValues(mt.cols[a], &axes[a])
	}
	var pd coded
	if public != nil {
		pd = coded{cols: make([]*model.Column, d), vals: make([][]float64, d)}
		for a := range axes {
			pd.cols[a] = public.Column(axes[a].name)
			if pd.cols[a] == nil {
				return nil, &model.ParamError{Param: "public", Value: public.Name,
					Reason: fmt.Sprintf("the public table has no quasi-identifier column %q", axes[a].name),
					Hint:   "PD must hold every QI of the table (Sacharidis et al., Section 3.1)"}
			}
			pd.vals[a] = codeValues(pd.cols[a], &axes[a])
		}
		t.join(in, public, mt, pd, use)
	}
	t.place(mt, pd)
	t.rankCodes(mt.cols, pd.cols, mt.vals, pd.vals)
	return t, nil
}

// coded is a table's QI columns and the axis position of every code.
type coded struct {
	cols []*model.Column
	vals [][]float64
}

func (c coded) at(a, row int) float64 { return c.vals[a][c.cols[a].Codes[row]] }

// key appends a row's QI point to buf.
func (c coded) key(row int, buf []byte) []byte { return pointKey(buf, c.vals, c.cols, row) }

// join reads PD's rows into JT (t.pd): a row whose identifier is an MT
// row's is that MT tuple, a repeated identifier is read once, a row with a
// value outside an axis is left out; then, when PD's tuples count
// (pdCounts), the rows no identifier joins are paired on the QIs
// (pairByQIs).
func (t *jt) join(in *method.Input, public *model.Table, mt, pd coded, use jtUse) {
	var mtID, pdID []*model.Column
	for _, id := range in.Roles.IDs {
		mc, pc := in.Table.Column(id), public.Column(id)
		if mc != nil && pc != nil {
			mtID, pdID = append(mtID, mc), append(pdID, pc)
			t.joinCols = append(t.joinCols, id)
		}
	}
	var mtRowOf map[string]int
	if len(mtID) > 0 {
		mtRowOf = make(map[string]int, in.Table.Rows)
		for r := 0; r < in.Table.Rows; r++ {
			if k := joinKey(mtID, r); k != "" {
				if _, dup := mtRowOf[k]; !dup {
					mtRowOf[k] = r
				}
			}
		}
	}
	seen := map[string]bool{}
	matched := make([]bool, in.Table.Rows) // MT rows an identifier joined
	var anon []int                         // t.pd positions of rows no identifier joins
rows:
	for r := 0; r < public.Rows; r++ {
		k := ""
		if mtRowOf != nil {
			k = joinKey(pdID, r)
		}
		if m, ok := mtRowOf[k]; ok && k != "" {
			matched[m] = true
			if !seen[k] {
				t.joined++
				for a := range t.axes {
					if pd.at(a, r) != mt.at(a, m) {
						t.differ++
						break
					}
				}
			}
			seen[k] = true
			continue
		}
		if k != "" && seen[k] {
			t.duplicates++
			continue
		}
		seen[k] = true
		for a := range t.axes {
			if code := pd.cols[a].Codes[r]; code == model.Missing || math.IsNaN(pd.vals[a][code]) {
				t.unknown++
				continue rows
			}
		}
		if k == "" {
			anon = append(anon, len(t.pd))
		}
		t.pd = append(t.pd, int32(r))
	}
	if use == pdCounts {
		t.pairByQIs(matched, anon, mt.key, pd.key)
	}
}

// place lays out JT's coordinates (MT's rows, then the public tuples) and
// the numeric axes' extents over them.
func (t *jt) place(mt, pd coded) {
	d := t.d
	t.n = t.mt + len(t.pd)
	t.x = make([]float64, t.n*d)
	for a := range t.axes {
		for r := 0; r < t.mt; r++ {
			t.x[r*d+a] = mt.at(a, r)
		}
		for j, r := range t.pd {
			t.x[(t.mt+j)*d+a] = pd.at(a, int(r))
		}
	}
	t.sc = make([]float64, d)
	for a := range t.axes {
		ax := &t.axes[a]
		if ax.numeric {
			ax.lo, ax.hi = math.Inf(1), math.Inf(-1)
			for i := 0; i < t.n; i++ {
				v := t.x[i*d+a]
				ax.lo, ax.hi = math.Min(ax.lo, v), math.Max(ax.hi, v)
			}
			if t.n == 0 {
				ax.lo, ax.hi = 0, 0
			}
		}
		t.sc[a] = ax.scale()
	}
}

// checkIdentifiers refuses a join that cannot be what the user means.
// Sacharidis et al. (Section 3.1) join MT and PD on the identifier: a
// person in both is one JT tuple. An identifier column PD lacks would be
// silently ignored, counting everyone twice; and a column both tables
// hold that identifies MT's rows (no value repeated) and
// shares values with PD's, when no identifier is named at all, says PD
// holds MT's people, who would then count twice toward k: both are
// parameter errors with the fix in the hint.
func checkIdentifiers(in *method.Input, public *model.Table) error {
	for _, id := range in.Roles.IDs {
		if in.Table.Column(id) != nil && public.Column(id) == nil {
			return &model.ParamError{Param: "id", Value: id,
				Reason: fmt.Sprintf("the public table %s has no column %q to join the tables on", public.Name, id),
				Hint: "the identifier joins MT and PD so that a person in both counts once (Sacharidis et al., Section 3.1): " +
					"add the column to the public table if it identifies PD's people " +
					"(k-join-anonymity publishes no column but the quasi-identifiers and the sensitive attribute)",
				Fixes: []model.Fix{{Setting: model.SetID, Change: model.Leave, Value: id, Why: "if it does not identify PD's people"}}}
		}
	}
	if len(in.Roles.IDs) > 0 {
		return nil
	}
	best, bestCommon := "", 0
	for _, c := range in.Table.Columns {
		if c.Name == in.Roles.SA || in.Roles.Of(c.Name) == model.QuasiIdentifier {
			continue
		}
		pc := public.Column(c.Name)
		if pc == nil {
			continue
		}
		mtVals := presentValues(c)
		if len(mtVals) == 0 || len(mtVals) < in.Table.Rows-c.MissingCount {
			continue // two rows share a value: not an identifier (never proposed for --id)
		}
		common := 0
		for v := range presentValues(pc) {
			if mtVals[v] {
				common++
			}
		}
		if common > bestCommon {
			best, bestCommon = c.Name, common
		}
	}
	if bestCommon > 0 {
		return &model.ParamError{Param: "id",
			Reason: fmt.Sprintf("the table and the public table %s share column %s with %d common values, and no identifier joins them: "+
				"every person in both would count twice toward k", public.Name, best, bestCommon),
			Hint:  "if the public table really holds other people, rename the column in one of the tables",
			Fixes: []model.Fix{{Setting: model.SetID, Value: best, Why: "to join the tables on it (Sacharidis et al., Section 3.1)"}}}
	}
	return nil
}

// presentValues is the set of values a column's rows hold, numbers in
// canonical form (7, 7.0 and 007 are one value, as in joinKey).
func presentValues(c *model.Column) map[string]bool {
	out := map[string]bool{}
	for code, n := range c.Counts() {
		if n == 0 {
			continue
		}
		v := c.Dict[code]
		if x, ok := model.ParseNumber(v); ok {
			v = model.FormatNumber(x)
		}
		out[v] = true
	}
	return out
}

// pointKey appends a row's QI point (its axis positions) to buf.
func pointKey(buf []byte, vals [][]float64, cols []*model.Column, row int) []byte {
	for a, c := range cols {
		v := vals[a][c.Codes[row]]
		if v == 0 {
			v = 0 // -0 and 0 are one value
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	return buf
}

// pairByQIs counts no person twice when no identifier joins a public row
// (no --id, or the row's identifier is missing): such a row equal to a
// microdata tuple on every QI may be that person, so, in the worst case,
// it is. At every QI point v, min(mt_v, pd_v) of these public rows are
// paired with the point's microdata tuples that no identifier joined and
// leave JT (the first in row order: rows of one point are
// indistinguishable), each counted as the microdata person it may be.
// Every JT tuple left is then a distinct person whoever the public rows
// are, and a box's size is a count of people (Sacharidis et al., Theorem
// 2, counts people). anon lists positions in t.pd; t.qiPaired counts the
// rows dropped.
func (t *jt) pairByQIs(matched []bool, anon []int, mtPoint, pdPoint func(int, []byte) []byte) {
	if len(anon) == 0 {
		return
	}
	free := map[string]int{} // QI point -> microdata tuples not yet paired
	var buf []byte
	for r, m := range matched {
		if !m {
			buf = mtPoint(r, buf[:0])
			free[string(buf)]++
		}
	}
	drop := make([]bool, len(t.pd))
	for _, j := range anon {
		buf = pdPoint(int(t.pd[j]), buf[:0])
		if n := free[string(buf)]; n > 0 {
			free[string(buf)] = n - 1
			drop[j] = true
			t.qiPaired++
		}
	}
	kept := t.pd[:0]
	for j, r := range t.pd {
		if !drop[j] {
			kept = append(kept, r)
		}
	}
	t.pd = kept
}

// rankCodes ranks every tuple's value per axis among the values of both
// tables' dictionaries (the dimensions partition.Mondrian cuts): the
// distinct values are few next to the tuples, so ranks are found per
// dictionary code, and each tuple costs one lookup. compact then drops the
// values no tuple holds.
func (t *jt) rankCodes(mtCols, pdCols []*model.Column, mtVals, pdVals [][]float64) {
	t.rank = make([][]int32, t.d)
	t.val = make([][]float64, t.d)
	for a := 0; a < t.d; a++ {
		vals := make([]float64, 0, len(mtVals[a]))
		for _, v := range mtVals[a] {
			if !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		if pdVals != nil {
			for _, v := range pdVals[a] {
				if !math.IsNaN(v) {
					vals = append(vals, v)
				}
			}
		}
		sort.Float64s(vals)
		uniq := vals[:0]
		for i, v := range vals {
			if i == 0 || v != uniq[len(uniq)-1] {
				uniq = append(uniq, v)
			}
		}
		rankOf := func(v float64) int32 { return int32(sort.SearchFloat64s(uniq, v)) }
		mtRank := make([]int32, len(mtVals[a]))
		for code, v := range mtVals[a] {
			mtRank[code] = rankOf(v)
		}
		rk := make([]int32, t.n)
		for r, code := range mtCols[a].Codes {
			rk[r] = mtRank[code]
		}
		if pdVals != nil {
			pdRank := make([]int32, len(pdVals[a]))
			for code, v := range pdVals[a] {
				pdRank[code] = rankOf(v)
			}
			codes := pdCols[a].Codes
			for j, r := range t.pd {
				rk[t.mt+j] = pdRank[codes[r]]
			}
		}
		if len(uniq) == 0 {
			uniq = append(uniq, 0)
		}
		t.rank[a], t.val[a] = rk, append([]float64(nil), uniq...)
	}
	t.compact()
}

// compact renumbers the ranks of each axis over the values the tuples
// hold, so that a dimension spans exactly the tuples' values (Mondrian
// normalises its widths by that span).
func (t *jt) compact() {
	for a := 0; a < t.d; a++ {
		used := make([]int32, len(t.val[a])+1)
		for _, r := range t.rank[a][:t.n] {
			used[r+1] = 1
		}
		var vals []float64
		for r := range t.val[a] {
			if used[r+1] == 1 {
				vals = append(vals, t.val[a][r])
			}
			used[r+1] += used[r]
		}
		rk := make([]int32, t.n)
		for i, r := range t.rank[a][:t.n] {
			rk[i] = used[r]
		}
		if len(vals) == 0 {
			vals = []float64{0}
		}
		t.rank[a], t.val[a] = rk, vals
	}
}

// dims are JT's axes as partition dimensions.
func (t *jt) dims() []partition.Dim {
	out := make([]partition.Dim, t.d)
	for a := range out {
		out[a] = partition.Dim{Rank: t.rank[a], Value: t.val[a]}
	}
	return out
}

// mtOnly is JT restricted to its MT tuples, with axes ranked over MT's
// values alone: plain k-anonymity (and Refinement's first round) sees
// nothing of PD, so Mondrian's normalised widths are MT's.
func (t *jt) mtOnly() *jt {
	if t.n == t.mt {
		return t
	}
	s := &jt{d: t.d, n: t.mt, mt: t.mt, x: t.x[:t.mt*t.d], axes: t.axes, sc: append([]float64(nil), t.sc...),
		rank: append([][]int32(nil), t.rank...), val: append([][]float64(nil), t.val...)}
	s.compact()
	if t.fixedDomain {
		return s // the study's draws keep the universe's domain (jt.subset)
	}
	// TopDown's NCP is normalised by MT's own extents too.
	for a := range s.sc {
		if t.axes[a].numeric {
			if lo, hi := s.val[a][0], s.val[a][len(s.val[a])-1]; hi > lo {
				s.sc[a] = 1 / (hi - lo)
			} else {
				s.sc[a] = 0
			}
		}
	}
	return s
}

// box is an axis-parallel box (a G-box) in axis units.
type box struct{ lo, hi []float64 }

// mbb is the minimum bounding box of the tuples.
func (t *jt) mbb(tuples []int32) box {
	b := box{lo: make([]float64, t.d), hi: make([]float64, t.d)}
	for a := 0; a < t.d; a++ {
		b.lo[a], b.hi[a] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range tuples {
		p := t.x[int(i)*t.d : int(i)*t.d+t.d]
		for a, v := range p {
			if v < b.lo[a] {
				b.lo[a] = v
			}
			if v > b.hi[a] {
				b.hi[a] = v
			}
		}
	}
	return b
}

// perimeter is a box's normalised perimeter: the information loss NCP
// charges each MT tuple in it (Sacharidis et al., Section 2.1, after Xu et
// al.: the sum over QIs of the box's extent over the domain's).
func (t *jt) perimeter(b box) float64 {
	p := 0.0
	for a := 0; a < t.d; a++ {
		p += (b.hi[a] - b.lo[a]) * t.sc[a]
	}
	return p
}

// contains reports whether tuple i lies in the box.
func (t *jt) contains(b box, i int32) bool {
	for a := 0; a < t.d; a++ {
		v := t.x[int(i)*t.d+a]
		if v < b.lo[a] || v > b.hi[a] {
			return false
		}
	}
	return true
}
