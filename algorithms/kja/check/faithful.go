package check

import (
	"fmt"
	"math"
	"privlab/algorithms/kja/format"
	"sort"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// faith is what the faithfulness checks read.
type faith struct {
	m      *model.Manifest
	det    format.Details
	method string
	axes   []*axis
	boxes  []*box
	boxOf  []int // per jat.csv row
	jat    *model.Table
	si     *model.Table
	sgIDs  map[string]int
	siVals []map[string]int
	k      string // the parameter as stated
}

// points are tuples of a table placed on the release's axes.
type points struct {
	rows []int       // the table row of each tuple
	x    [][]float64 // coordinates
	sa   []string    // sensitive values (microdata only)
	keys []string    // identifiers (for the join)
}

// text is a cell as the release reads it under its missing-value policy
// (false: the row is not published).
func text(c *model.Column, row int, category bool) (string, bool) {
	if c.IsMissing(row) {
		return "?", category && c.Kind != model.Numeric
	}
	return c.Value(row), true
}

// place reads the rows of t that the release's policy keeps, on the axes.
// bad is the first row with a value outside an axis's domain (-1: none);
// with skipUnknown such rows are left out instead (public tuples the
// method cannot place).
func place(t *model.Table, qis []*model.Column, sa *model.Column, ids []*model.Column, axes []*axis, category, skipUnknown bool) (p points, bad int, badText string) {
	bad = -1
rows:
	for row := 0; row < t.Rows; row++ {
		x := make([]float64, len(axes))
		texts := make([]string, len(axes))
		for a, c := range qis {
			v, ok := text(c, row, category)
			if !ok {
				continue rows
			}
			texts[a] = v
		}
		var s string
		if sa != nil {
			v, ok := text(sa, row, category)
			if !ok {
				continue rows
			}
			s = v
		}
		// Rows dropped for missing values are gone before a tuple is
		// read, so the position below counts kept rows only.
		keep := true
		for a, ax := range axes {
			v, ok := ax.value(texts[a])
			if !ok {
				if !skipUnknown && bad < 0 {
					bad, badText = row, fmt.Sprintf("%s = %q", ax.QI, texts[a])
				}
				keep = false
				break
			}
			x[a] = v
		}
		p.rows = append(p.rows, row)
		if !keep {
			p.x = append(p.x, nil)
		} else {
			p.x = append(p.x, x)
		}
		p.sa = append(p.sa, s)
		p.keys = append(p.keys, key(ids, row))
	}
	return p, bad, badText
}

// key is a row's identifier over the join columns (numbers in canonical
// form), "" when there is none.
func key(ids []*model.Column, row int) string {
	if len(ids) == 0 {
		return ""
	}
	var b strings.Builder
	for _, c := range ids {
		if c.IsMissing(row) {
			return ""
		}
		v := c.Value(row)
		if x, ok := model.ParseNumber(v); ok {
			v = model.FormatNumber(x)
		}
		b.WriteString(v)
		b.WriteByte(0)
	}
	return b.String()
}

func inBox(bx *box, x []float64) bool {
	for a, v := range x {
		if v < bx.lo[a] || v > bx.hi[a] {
			return false
		}
	}
	return true
}

// faithful compares the release with the original table (and the public
// table): the microdata's sensitive values, the domain, and, with the
// audit record pinning every jat.csv row to its tuple (or, without it, by
// which box contains each microdata tuple), coverage, boxes and groups;
// with the public table, the recount of every box's public rows (people).
func faithful(rel *verify.Release, opt verify.Options, r *verify.Report, rc *verify.Recomputed, f faith) error {
	in, ok, err := readInputs(opt, r, f)
	if err != nil || !ok {
		return err
	}
	sensitiveValues(r, f, in.mt)
	normaliser(r, f, in.mt, in.ext, in.eligible, in.domPub)
	if !in.kja {
		// Plain boxes hold microdata tuples only: the public tuples read
		// for the domain take no part in the box checks below.
		in.ext, in.eligible, in.pts = points{}, nil, pubPoints{}
	}
	var rowMap, siMap []int
	if opt.Audit != nil {
		if rm := opt.Audit.RowMap["jat.csv"]; len(rm) == f.jat.Rows {
			rowMap = rm
		}
		if rm := opt.Audit.RowMap["si.csv"]; len(rm) == f.si.Rows {
			siMap = rm
		}
		if rowMap == nil {
			r.Add(false, "audit", "the audit record's row map does not fit jat.csv")
			return nil
		}
	}
	a := newAssignment(f, in.mt)
	if rowMap != nil {
		if !pinned(r, f, in, rowMap, a.add, opt.Original.Rows) {
			return nil
		}
	} else if !contained(r, f, in, a.add) {
		return nil
	}
	if in.havePub && in.kja {
		recount(r, f, in.pts, a.mtCount)
	}
	a.lines(r, f)
	figures(*rc, f.boxes, f.axes, a.mtCount)
	if siMap != nil {
		siRows(r, f, in.mt, in.mtIndex, a.boxOfMT, siMap)
	}
	return nil
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
}

// readInputs places the original's rows and the public table's on the
// axes (false: the original does not fit the release, a line says why).
func readInputs(opt verify.Options, r *verify.Report, f faith) (*inputs, bool, error) {
	m := f.m
	category := m.MissingValues == "category"
	orig := opt.Original
	qis, err := orig.MustColumns("original", m.QIs)
	if err != nil {
		return nil, false, err
	}
	sa := orig.Column(m.SA)
	if sa == nil {
		return nil, false, &model.ParamError{Param: "original", Value: orig.Name, Reason: fmt.Sprintf("the original has no sensitive column %q", m.SA),
			Hint: "give the table the release was made from"}
	}
	in := &inputs{kja: f.method != plainKA}
	// The public table is read for JT's tuples (the KJA variants: boxes
	// hold them) and for the domain NCP is normalised by (every variant
	// whose manifest says the domain is JT's).
	var mtIDs, pdIDs []*model.Column
	pub := opt.Public
	if pub != nil && (in.kja || f.det.NCPDomain == "JT") {
		for _, c := range f.det.Join {
			mc, pc := orig.Column(c), pub.Column(c)
			if mc == nil || pc == nil {
				r.Add(false, "join", "the release says MT and PD were joined on %s, which is not a column of both tables", c)
				return nil, false, nil
			}
			mtIDs, pdIDs = append(mtIDs, mc), append(pdIDs, pc)
		}
		in.domPub, in.havePub = true, in.kja
	}
	var bad int
	var badText string
	if in.mt, bad, badText = place(orig, qis, sa, mtIDs, f.axes, category, false); bad >= 0 {
		r.Add(false, "domain", "original row %d has %s, outside the domain the manifest states", bad+2, badText)
		return nil, false, nil
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
			return nil, false, err
		}
		in.ext, _, _ = place(pub, pq, nil, pdIDs, f.axes, category, true)
		in.eligible = eligibleRows(in.mt, in.ext)
		in.pts = jtPublic(in.mt, in.ext, in.eligible, in.kja)
	}
	return in, true, nil
}

// eligibleRows are the public rows JT holds by the identifier
// (Sacharidis et al., Section 3.1): not joined with a microdata row, an
// identifier once, values the axes can place.
func eligibleRows(mt, ext points) []bool {
	mtKeys := map[string]bool{}
	for _, k := range mt.keys {
		if k != "" {
			mtKeys[k] = true
		}
	}
	seen := map[string]bool{}
	eligible := make([]bool, len(ext.rows))
	for j, k := range ext.keys {
		if k != "" {
			if mtKeys[k] || seen[k] {
				continue
			}
			seen[k] = true
		}
		eligible[j] = ext.x[j] != nil
	}
	return eligible
}

// sensitiveValues: si.csv holds exactly the microdata's sensitive values.
func sensitiveValues(r *verify.Report, f faith, mt points) {
	want := map[string]int{}
	for _, s := range mt.sa {
		want[s]++
	}
	got := map[string]int{}
	for row := 0; row < f.si.Rows; row++ {
		got[f.si.Columns[1].Value(row)]++
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
	r.Add(differ == 0 && f.si.Rows == len(mt.rows), "sensitive values", "si.csv holds exactly the %d sensitive values of the microdata (%d values differ in count)", len(mt.rows), differ)
}

// assignment is which box holds each microdata tuple.
type assignment struct {
	mt        points
	mtCount   []int // per box
	groupVals []map[string]int
	boxOfMT   []int
}

func newAssignment(f faith, mt points) *assignment {
	a := &assignment{mt: mt, mtCount: make([]int, len(f.boxes)), groupVals: make([]map[string]int, len(f.siVals)), boxOfMT: make([]int, len(mt.rows))}
	for i := range a.boxOfMT {
		a.boxOfMT[i] = -1
	}
	return a
}

// add puts microdata tuple i in box b (of sensitive group g).
func (a *assignment) add(i, b, g int) {
	a.mtCount[b]++
	a.boxOfMT[i] = b
	if a.groupVals[g] == nil {
		a.groupVals[g] = map[string]int{}
	}
	a.groupVals[g][a.mt.sa[i]]++
}

// lines: every box holds a microdata tuple, and every group's sensitive
// values are its microdata tuples'.
func (a *assignment) lines(r *verify.Report, f faith) {
	noMT := 0
	for _, n := range a.mtCount {
		if n == 0 {
			noMT++
		}
	}
	r.Add(noMT == 0, "microdata per box", "every box holds at least one microdata tuple (%d hold none; Section 4)", noMT)
	wrong := 0
	for g := range f.siVals {
		if !sameBag(a.groupVals[g], f.siVals[g]) {
			wrong++
		}
	}
	r.Add(wrong == 0, "sensitive groups", "the sensitive values of every group in si.csv are those of its microdata tuples (%d groups differ; Section 3.2)", wrong)
}

// siRows holds si.csv's rows to the audit record's pins.
func siRows(r *verify.Report, f faith, mt points, mtIndex, boxOfMT, siMap []int) {
	badSI := 0
	seen := make([]bool, len(mt.rows))
	pins := make([]int, len(siMap))
	for row, e := range siMap {
		pins[row] = e
		i := -1
		if e >= 0 && e < len(mtIndex) {
			i = mtIndex[e]
		}
		if i < 0 || seen[i] || mt.sa[i] != f.si.Columns[1].Value(row) || boxOfMT[i] < 0 ||
			f.sgIDs[f.si.Columns[0].Value(row)] != f.boxes[boxOfMT[i]].sg {
			badSI++
			continue
		}
		seen[i] = true
	}
	r.Add(badSI == 0, "si rows", "the audit record pins every si.csv row to a microdata tuple of its group with its value (%d do not)", badSI)
	distinct := map[string]bool{}
	for _, s := range mt.sa {
		distinct[s] = true
	}
	verify.Shuffled("si.csv", pins, len(distinct), r)
}

// normaliser checks the domain NCP is normalised by (Sacharidis et al.,
// Section 2.1: a box's extent over the domain's, per QI): each numeric
// QI's low and high are the extent over MT when the manifest says MT (the
// plain variants without a public table), and over JT, the microdata and
// the eligible public tuples, when it says JT, which only the public
// table can confirm. Without it the line is named unconfirmed, after the
// one thing the original proves: the domain covers the microdata.
func normaliser(r *verify.Report, f faith, mt points, ext points, eligible []bool, havePub bool) {
	extent := func(a int, withPD bool) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, x := range mt.x {
			lo, hi = math.Min(lo, x[a]), math.Max(hi, x[a])
		}
		if withPD {
			for j, x := range ext.x {
				if eligible[j] {
					lo, hi = math.Min(lo, x[a]), math.Max(hi, x[a])
				}
			}
		}
		return lo, hi
	}
	over := f.det.NCPDomain
	if over == "JT" && !havePub {
		uncovered := 0
		for a, ax := range f.axes {
			if lo, hi := extent(a, false); ax.numeric && len(mt.x) > 0 && (ax.Low > lo || ax.High < hi) {
				uncovered++
			}
		}
		r.Add(uncovered == 0, "NCP normaliser unconfirmed",
			"the stated domain is JT's (microdata and public tuples), which only --public can confirm; it covers the microdata (%d QIs do not)", uncovered)
		return
	}
	wrong := 0
	for a, ax := range f.axes {
		if !ax.numeric || len(mt.x) == 0 {
			continue
		}
		lo, hi := extent(a, over == "JT")
		if !r.Claim("details.domain."+ax.QI+".low", ax.Low, lo) || !r.Claim("details.domain."+ax.QI+".high", ax.High, hi) {
			wrong++
		}
	}
	what := map[string]string{"JT": "JT's extent (microdata and public tuples)", "MT": "the microdata's extent"}[over]
	r.Add(wrong == 0, "NCP normaliser", "every numeric quasi-identifier's domain is %s, recomputed (%d are not)", what, wrong)
}

func sameBag(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, n := range a {
		if b[k] != n {
			return false
		}
	}
	return true
}

// pinned checks the release with the audit record's row map: every
// jat.csv row is a microdata tuple (its input row) or a public tuple (-1-j
// for row j of the public table), each once and inside its box, public
// ones no more at a QI point than JT holds there; every microdata tuple
// is published; and, with the public table, every box is the MBB of its
// members.
func pinned(r *verify.Report, f faith, in *inputs, rowMap []int, add func(i, b, g int), origRows int) bool {
	mbb := newBounds(f)
	usedMT := make([]bool, len(in.mt.rows))
	usedPD := map[int]bool{}
	atPoint := make([]int, len(in.pts.cap))
	badRows, outside := 0, 0
	order := make([]int, len(rowMap))
	for row, e := range rowMap {
		b := f.boxOf[row]
		var x []float64
		if e >= 0 {
			order[row] = e
			i := -1
			if e < len(in.mtIndex) {
				i = in.mtIndex[e]
			}
			if i < 0 || usedMT[i] {
				badRows++
				continue
			}
			usedMT[i] = true
			add(i, b, f.boxes[b].sg)
			x = in.mt.x[i]
		} else {
			j := -1 - e
			order[row] = origRows + j
			if f.method == plainKA || usedPD[j] {
				badRows++
				continue
			}
			usedPD[j] = true
			if in.havePub {
				// j counts the public rows kept under the missing-value
				// policy, which place keeps in order.
				if j >= len(in.ext.rows) || in.pts.of[j] < 0 {
					badRows++
					continue
				}
				atPoint[in.pts.of[j]]++
				x = in.ext.x[j]
			}
		}
		if x != nil && !inBox(f.boxes[b], x) {
			outside++
		}
		mbb.add(b, x)
	}
	for p, n := range atPoint {
		badRows += max(0, n-in.pts.cap[p]) // more than JT holds there
	}
	r.Add(true, "audit", "the audit record pins every jat.csv row to a microdata or public tuple")
	uncovered := 0
	for _, u := range usedMT {
		if !u {
			uncovered++
		}
	}
	r.Add(badRows == 0, "tuples", "every jat.csv row is a distinct tuple of the join table%s (%d are not)",
		map[bool]string{true: "", false: " (public tuples unconfirmed without --public)"}[in.havePub || f.method == plainKA], badRows)
	r.Add(uncovered == 0, "coverage", "every one of the %d microdata tuples is published in exactly one box (%d are not)", len(in.mt.rows), uncovered)
	r.Add(outside == 0, "inside", "every tuple lies inside its box (%d do not)", outside)
	if in.havePub || f.method == plainKA {
		r.Add(mbb.loose() == 0, "MBB", "every box is the minimum bounding box of its members (%d are not; Section 4)", mbb.loose())
	} else {
		r.Add(true, "MBB", "unconfirmed without --public: the boxes' tightness over their public tuples")
	}
	verify.Shuffled("jat.csv", order, len(f.boxes), r)
	return true
}

// bounds are the boxes' members' bounding boxes, built up.
type bounds struct {
	f      faith
	lo, hi [][]float64
}

func newBounds(f faith) *bounds {
	d := len(f.axes)
	b := &bounds{f: f, lo: make([][]float64, len(f.boxes)), hi: make([][]float64, len(f.boxes))}
	for i := range f.boxes {
		b.lo[i], b.hi[i] = make([]float64, d), make([]float64, d)
		for a := 0; a < d; a++ {
			b.lo[i][a], b.hi[i][a] = math.Inf(1), math.Inf(-1)
		}
	}
	return b
}

func (b *bounds) add(i int, x []float64) {
	for a, v := range x {
		b.lo[i][a], b.hi[i][a] = math.Min(b.lo[i][a], v), math.Max(b.hi[i][a], v)
	}
}

// loose counts the boxes that are not their members' MBB.
func (b *bounds) loose() int {
	n := 0
	for i, bx := range b.f.boxes {
		for a := range bx.lo {
			if b.lo[i][a] != bx.lo[a] || b.hi[i][a] != bx.hi[a] {
				n++
				break
			}
		}
	}
	return n
}

// contained checks the release without the audit record: each microdata
// tuple is pinned to the box that contains it, which the files fix only
// when no tuple lies in two boxes (Mondrian's boxes are disjoint). Every
// face of a box must be touched by a tuple inside it (the MBB's necessary
// condition): a microdata tuple, or, with the public table, a public
// tuple of JT. Plain boxes hold their microdata tuples only; a KJA box's
// public rows are recounted (recount).
func contained(r *verify.Report, f faith, in *inputs, add func(i, b, g int)) bool {
	ix := newIndex(f.boxes)
	t := newTouches(f)
	uncovered, ambiguous := 0, 0
	mtIn := make([]int, len(f.boxes))
	for i, x := range in.mt.x {
		found, n := -1, 0
		ix.stab(x, func(b int) { found, n = b, n+1 })
		switch n {
		case 0:
			uncovered++
		case 1:
			add(i, found, f.boxes[found].sg)
			mtIn[found]++
			t.touch(found, x)
		default:
			ambiguous++
		}
	}
	r.Add(uncovered == 0, "coverage", "every one of the %d microdata tuples lies inside a box (%d do not)", len(in.mt.rows), uncovered)
	if ambiguous > 0 {
		r.Add(false, "pinning", "undetermined: %d microdata tuples lie in more than one box, so the files do not say which box holds them; check with the audit record written beside the release", ambiguous)
		return false
	}
	for p, x := range in.pts.x {
		if in.pts.cap[p] > 0 {
			ix.stab(x, func(b int) { t.touch(b, x) })
		}
	}
	switch {
	case f.method == plainKA:
		short := 0
		for b, bx := range f.boxes {
			if bx.rows != mtIn[b] {
				short++
			}
		}
		r.Add(short == 0, "tuples", "every box's rows are its microdata tuples (%d boxes are not)", short)
		r.Add(t.loose() == 0, "MBB", "every face of every box is touched by a tuple inside it (%d boxes are not tight)", t.loose())
	case in.havePub:
		r.Add(t.loose() == 0, "MBB", "every face of every box is touched by a tuple inside it (%d boxes are not tight)", t.loose())
	default:
		r.Add(true, "MBB", "unconfirmed without --public: the boxes' public tuples and tightness")
	}
	return true
}

// touches records which faces of each box a tuple inside it touches.
type touches struct {
	f       faith
	touched [][]bool
}

func newTouches(f faith) *touches {
	t := &touches{f: f, touched: make([][]bool, len(f.boxes))}
	for b := range t.touched {
		t.touched[b] = make([]bool, 2*len(f.axes))
	}
	return t
}

func (t *touches) touch(b int, x []float64) {
	for a, v := range x {
		if v == t.f.boxes[b].lo[a] {
			t.touched[b][2*a] = true
		}
		if v == t.f.boxes[b].hi[a] {
			t.touched[b][2*a+1] = true
		}
	}
}

// loose counts the boxes with a face no tuple touches.
func (t *touches) loose() int {
	n := 0
	for _, faces := range t.touched {
		for _, ok := range faces {
			if !ok {
				n++
				break
			}
		}
	}
	return n
}

// index finds the boxes that contain a point: a bounding-volume
// hierarchy over the boxes (split at the median centre of the widest
// axis, a few boxes per leaf).
type index struct {
	boxes []*box
	order []int
	nodes []node
}

type node struct {
	lo, hi      []float64
	left, right int
	first, end  int
}

func newIndex(boxes []*box) *index {
	ix := &index{boxes: boxes, order: make([]int, len(boxes))}
	for i := range ix.order {
		ix.order[i] = i
	}
	if len(boxes) > 0 {
		ix.build(0, len(boxes))
	}
	return ix
}

func (ix *index) build(first, end int) int {
	d := len(ix.boxes[0].lo)
	n := node{lo: make([]float64, d), hi: make([]float64, d), left: -1, right: -1, first: first, end: end}
	for a := 0; a < d; a++ {
		n.lo[a], n.hi[a] = math.Inf(1), math.Inf(-1)
		for _, i := range ix.order[first:end] {
			n.lo[a], n.hi[a] = math.Min(n.lo[a], ix.boxes[i].lo[a]), math.Max(n.hi[a], ix.boxes[i].hi[a])
		}
	}
	id := len(ix.nodes)
	ix.nodes = append(ix.nodes, n)
	if end-first <= 4 {
		return id
	}
	// Widest axis relative to the root's extent.
	root := ix.nodes[0]
	axis, widest := 0, -1.0
	for a := 0; a < d; a++ {
		w := n.hi[a] - n.lo[a]
		if ext := root.hi[a] - root.lo[a]; ext > 0 {
			w /= ext
		}
		if w > widest {
			axis, widest = a, w
		}
	}
	part := ix.order[first:end]
	sort.Slice(part, func(x, y int) bool {
		return ix.boxes[part[x]].lo[axis]+ix.boxes[part[x]].hi[axis] < ix.boxes[part[y]].lo[axis]+ix.boxes[part[y]].hi[axis]
	})
	mid := first + (end-first)/2
	l := ix.build(first, mid)
	rr := ix.build(mid, end)
	ix.nodes[id].left, ix.nodes[id].right = l, rr
	return id
}

func (ix *index) stab(x []float64, fn func(b int)) {
	if len(ix.nodes) == 0 {
		return
	}
	stack := []int{0}
	for len(stack) > 0 {
		n := &ix.nodes[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		in := true
		for a, v := range x {
			if v < n.lo[a] || v > n.hi[a] {
				in = false
				break
			}
		}
		if !in {
			continue
		}
		if n.left < 0 {
			for _, i := range ix.order[n.first:n.end] {
				if inBox(ix.boxes[i], x) {
					fn(i)
				}
			}
			continue
		}
		stack = append(stack, n.left, n.right)
	}
}
