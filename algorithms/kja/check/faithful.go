package check

import (
	"fmt"
	"math"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// points are tuples of a table placed on the release's axes.
type points struct {
	rows []int       // the table row of each tuple
	x    [][]float64 // coordinates (nil: a value off the axes)
	sa   []int32     // sensitive values (microdata only), as codes
	// saTexts are the sensitive values' texts by code.
	saTexts []string
	keys    []int32 // identifiers over the join columns (-1: none)
}

// placer places a table's rows on the axes, reading each column's codes:
// a code's position on its axis is found once, not once per row.
type placer struct {
	at       [][]float64 // per QI, per code (the missing value last): the position
	placed   [][]bool    // ... and whether the axis holds it
	kept     [][]bool    // ... and whether the release publishes it
	texts    [][]string
	category bool
}

func newPlacer(qis []*model.Column, axes []*axis, category bool) *placer {
	p := &placer{category: category}
	for a, c := range qis {
		n := len(c.Dict) + 1
		at, placed, kept, texts := make([]float64, n), make([]bool, n), make([]bool, n), make([]string, n)
		for code := 0; code < n; code++ {
			texts[code], kept[code] = "?", category && c.Kind != model.Numeric
			if code < len(c.Dict) {
				texts[code], kept[code] = c.Dict[code], true
			}
			at[code], placed[code] = axes[a].value(texts[code])
		}
		p.at, p.placed, p.kept, p.texts = append(p.at, at), append(p.placed, placed), append(p.kept, kept), append(p.texts, texts)
	}
	return p
}

// keeps says whether the release publishes a cell under its missing-value
// policy.
func keeps(c *model.Column, row int, category bool) bool {
	return !c.IsMissing(row) || category && c.Kind != model.Numeric
}

// place reads the rows of t that the release's policy keeps, on the axes.
// bad is the first row with a value outside an axis's domain (-1: none);
// with skipUnknown such rows are kept unplaced instead (public tuples
// the method cannot place). Rows dropped for missing values are gone
// before a tuple is read, so positions count kept rows only.
func place(qis []*model.Column, sa *model.Column, ids *joinKeys, axes []*axis, category, skipUnknown bool) (pts points, bad int, badText string) {
	p := newPlacer(qis, axes, category)
	bad = -1
	rows := 0
	if len(qis) > 0 {
		rows = len(qis[0].Codes)
	} else if sa != nil {
		rows = len(sa.Codes)
	}
	flat := make([]float64, 0, rows*len(axes))
	// Room for every row (a policy keeps all or nearly all): growing
	// the slices a row at a time copied them over and over.
	pts.rows, pts.x, pts.keys = make([]int, 0, rows), make([][]float64, 0, rows), make([]int32, 0, rows)
	if sa != nil {
		pts.sa = make([]int32, 0, rows)
		pts.saTexts = append(append([]string{}, sa.Dict...), "?")
	}
rows:
	for row := 0; row < rows; row++ {
		for a, c := range qis {
			if !p.kept[a][verify.Code(c, row)] {
				continue rows
			}
		}
		if sa != nil && !keeps(sa, row, category) {
			continue
		}
		start, placed := len(flat), true
		for a, c := range qis {
			code := verify.Code(c, row)
			if placed = p.placed[a][code]; !placed {
				if !skipUnknown && bad < 0 {
					bad, badText = row, fmt.Sprintf("%s = %q", axes[a].QI, p.texts[a][code])
				}
				flat = flat[:start]
				break
			}
			flat = append(flat, p.at[a][code])
		}
		pts.rows = append(pts.rows, row)
		pts.x = append(pts.x, nil)
		if placed {
			pts.x[len(pts.x)-1] = flat[start:len(flat):len(flat)]
		}
		if sa != nil {
			pts.sa = append(pts.sa, int32(verify.Code(sa, row)))
		}
		pts.keys = append(pts.keys, ids.key(row))
	}
	return pts, bad, badText
}

// saBag counts sensitive values (codes) by their text.
func (p *points) saBag(codes []int32) map[string]int {
	n := make([]int, len(p.saTexts))
	for _, code := range codes {
		n[code]++
	}
	bag := map[string]int{}
	for code, c := range n {
		if c > 0 {
			bag[p.saTexts[code]] += c
		}
	}
	return bag
}

// joinKeys numbers the identifiers of two tables' join columns in one
// numbering (numbers in canonical form): equal identifiers, equal keys.
type joinKeys struct {
	cols  []*model.Column
	canon [][]uint32 // per column, per code (the missing value last)
	keys  *verify.TupleKeys
	buf   []uint32
}

// newJoinKeys reads the join columns of the microdata and the public
// table; key gives a row's key on the first, of another's on the second.
func newJoinKeys(mt, pd []*model.Column) (*joinKeys, *joinKeys) {
	a := &joinKeys{cols: mt, buf: make([]uint32, len(mt))}
	b := &joinKeys{cols: pd, buf: make([]uint32, len(pd))}
	radix := make([]uint64, len(mt))
	for i := range mt {
		dict := map[string]uint32{}
		a.canon = append(a.canon, canonical(mt[i], dict))
		b.canon = append(b.canon, canonical(pd[i], dict))
		radix[i] = uint64(len(dict))
	}
	a.keys = verify.NewTupleKeys(radix)
	b.keys = a.keys
	return a, b
}

// canonical numbers a column's values by their canonical text.
func canonical(c *model.Column, dict map[string]uint32) []uint32 {
	out := make([]uint32, len(c.Dict)+1)
	for code, v := range c.Dict {
		if x, ok := model.ParseNumber(v); ok {
			v = model.FormatNumber(x)
		}
		id, ok := dict[v]
		if !ok {
			id = uint32(len(dict))
			dict[v] = id
		}
		out[code] = id
	}
	return out
}

// key is a row's key over the join columns, -1 when there is none (no
// join column, or a missing identifier).
func (k *joinKeys) key(row int) int32 {
	if k == nil || len(k.cols) == 0 {
		return -1
	}
	for i, c := range k.cols {
		if c.IsMissing(row) {
			return -1
		}
		k.buf[i] = k.canon[i][c.Codes[row]]
	}
	return k.keys.ID(k.buf)
}

func inBox(bx *box, x []float64) bool {
	for a, v := range x {
		if v < bx.lo[a] || v > bx.hi[a] {
			return false
		}
	}
	return true
}

// inputs are the original's microdata tuples and, with the public table,
// JT's public tuples, on the release's axes.
type inputs struct {
	mt      points
	mtIndex []int // original row -> microdata tuple (-1: not published)
	ext     points
	// eligible says which public rows are in JT by the identifier (not
	// joined with a microdata row, an identifier once, placeable); pts
	// are JT's public tuples by QI point, after the pairing on the QIs.
	eligible []bool
	pts      pubPoints
	kja      bool // the public tuples count (a KJA variant)
	domPub   bool // the public table was read (for JT's domain)
	havePub  bool // ... and its tuples count
	// fail is the line that says the original does not fit the release
	// (nothing is compared then).
	fail *verify.Line
}

// inputsOf places the original's rows (and the public table's) once.
func (c *release) inputsOf() (*inputs, error) {
	return c.inputs.Get(func() (*inputs, error) {
		axes, err := c.axesOf()
		if err != nil {
			return nil, err
		}
		return readInputs(c, axes)
	})
}

// readInputs places the original's rows and the public table's on the
// axes. The public table is read for JT's tuples (the KJA variants:
// boxes hold them) and for the domain NCP is normalised by (every variant
// whose manifest says the domain is JT's).
func readInputs(c *release, axes []*axis) (*inputs, error) {
	m, orig, pub := c.m, c.opt.Original, c.opt.Public
	category := m.MissingValues == "category"
	qis, err := orig.MustColumns("original", m.QIs)
	if err != nil {
		return nil, err
	}
	sa := orig.Column(m.SA)
	if sa == nil {
		return nil, &model.ParamError{Param: "original", Value: orig.Name, Reason: fmt.Sprintf("the original has no sensitive column %q", m.SA),
			Hint: "give the table the release was made from"}
	}
	in := &inputs{kja: c.method != format.PlainKA}
	var mtIDs, pdIDs *joinKeys
	if pub != nil && (in.kja || c.det.NCPDomain == format.DomainJT) {
		var mc, pc []*model.Column
		for _, col := range c.det.Join {
			if orig.Column(col) == nil || pub.Column(col) == nil {
				in.fail = &verify.Line{Name: "join", Text: fmt.Sprintf("the release says MT and PD were joined on %s, which is not a column of both tables", col)}
				return in, nil
			}
			mc, pc = append(mc, orig.Column(col)), append(pc, pub.Column(col))
		}
		mtIDs, pdIDs = newJoinKeys(mc, pc)
		in.domPub, in.havePub = true, in.kja
	}
	var bad int
	var badText string
	if in.mt, bad, badText = place(qis, sa, mtIDs, axes, category, false); bad >= 0 {
		in.fail = &verify.Line{Name: "domain", Text: fmt.Sprintf("original row %d has %s, outside the domain the manifest states", bad+2, badText)}
		return in, nil
	}
	if mtIDs != nil {
		// A repeated identifier would join a public row to the wrong
		// microdata person: no original the release joined.
		if err := model.CheckIdentifiers(orig, orig.Name, c.det.Join, in.mt.rows); err != nil {
			return nil, err
		}
	}
	in.mtIndex = make([]int, orig.Rows)
	for i := range in.mtIndex {
		in.mtIndex[i] = -1
	}
	for i, row := range in.mt.rows {
		in.mtIndex[row] = i
	}
	if in.domPub {
		pq, err := pub.MustColumns("public", m.QIs)
		if err != nil {
			return nil, err
		}
		in.ext, _, _ = place(pq, nil, pdIDs, axes, category, true)
		in.eligible = eligibleRows(in.mt, in.ext)
		in.pts = jtPublic(in.mt, in.ext, in.eligible, in.kja)
	}
	return in, nil
}

// eligibleRows are the public rows JT holds by the identifier
// (Sacharidis et al., Section 3.1): not joined with a microdata row, an
// identifier once, values the axes can place.
func eligibleRows(mt, ext points) []bool {
	mtKeys := map[int32]bool{}
	for _, k := range mt.keys {
		if k >= 0 {
			mtKeys[k] = true
		}
	}
	seen := map[int32]bool{}
	eligible := make([]bool, len(ext.rows))
	for j, k := range ext.keys {
		if k >= 0 {
			if mtKeys[k] || seen[k] {
				continue
			}
			seen[k] = true
		}
		eligible[j] = ext.x[j] != nil
	}
	return eligible
}

// inputsFit: the original (and the public table) fit the release: the
// join columns are columns of both, every microdata value lies in the
// stated domain. Nothing is compared when they do not.
func inputsFit(c *release, r *verify.Report) error {
	in, err := c.inputsOf()
	if err != nil {
		return err
	}
	if in.fail != nil {
		r.Add(false, in.fail.Name, "%s", in.fail.Text)
	}
	return nil
}

// fitting is the inputs when they fit the release (nil otherwise).
func (c *release) fitting() *inputs {
	if c.opt.Original == nil {
		return nil
	}
	in, err := c.inputsOf()
	if err != nil || in.fail != nil {
		return nil
	}
	return in
}

// sensitiveValues: si.csv holds exactly the microdata's sensitive values.
func sensitiveValues(c *release, r *verify.Report) error {
	in := c.fitting()
	if in == nil {
		return nil
	}
	want := in.mt.saBag(in.mt.sa)
	col := c.si.Columns[1]
	got := map[string]int{}
	for code, n := range col.Counts() {
		got[col.Dict[code]] = n
	}
	differ := 0
	for v, n := range want {
		if got[v] != n {
			differ++
		}
	}
	for v := range got {
		if _, ok := want[v]; !ok {
			differ++
		}
	}
	r.Add(differ == 0 && c.si.Rows == len(in.mt.rows), "sensitive values", "si.csv holds exactly the %d sensitive values of the microdata (%d values differ in count)", len(in.mt.rows), differ)
	return nil
}

// normaliser checks the domain NCP is normalised by (Sacharidis et al.,
// Section 2.1: a box's extent over the domain's, per QI): each numeric
// QI's low and high are the extent over MT when the manifest says MT (the
// plain variants without a public table), and over JT, the microdata and
// the eligible public tuples, when it says JT, which only the public
// table can confirm. Without it the line is named unconfirmed, after the
// one thing the original proves: the domain covers the microdata.
func normaliser(c *release, r *verify.Report) error {
	in := c.fitting()
	if in == nil {
		return nil
	}
	axes, _ := c.axesOf()
	over := c.det.NCPDomain
	if over == format.DomainJT && !in.domPub {
		uncovered := 0
		for a, ax := range axes {
			if lo, hi := in.extent(a, false); ax.numeric && len(in.mt.x) > 0 && (ax.Low > lo || ax.High < hi) {
				uncovered++
			}
		}
		r.Add(uncovered == 0, "NCP normaliser unconfirmed",
			"the stated domain is JT's (microdata and public tuples), which only the public table can confirm; it covers the microdata (%d QIs do not)", uncovered)
		return nil
	}
	wrong := 0
	for a, ax := range axes {
		if !ax.numeric || len(in.mt.x) == 0 {
			continue
		}
		lo, hi := in.extent(a, over == format.DomainJT)
		if !r.Claim("details.domain."+ax.QI+".low", ax.Low, lo) || !r.Claim("details.domain."+ax.QI+".high", ax.High, hi) {
			wrong++
		}
	}
	what := map[string]string{format.DomainJT: "JT's extent (microdata and public tuples)", format.DomainMT: "the microdata's extent"}[over]
	r.Add(wrong == 0, "NCP normaliser", "every numeric quasi-identifier's domain is %s, recomputed (%d are not)", what, wrong)
	return nil
}

// extent is axis a's extent over the microdata (and, withPD, JT's
// eligible public tuples).
func (in *inputs) extent(a int, withPD bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range in.mt.x {
		lo, hi = math.Min(lo, x[a]), math.Max(hi, x[a])
	}
	if withPD {
		for j, x := range in.ext.x {
			if in.eligible[j] {
				lo, hi = math.Min(lo, x[a]), math.Max(hi, x[a])
			}
		}
	}
	return lo, hi
}
