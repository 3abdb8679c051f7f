package check

import (
	"math"
	"runtime"
	"sync"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
)

// placement is which box holds each microdata tuple: by the audit
// record's row map, which pins every jat.csv row to its tuple, or without
// it by the box that contains each microdata tuple (contained). What the
// checks after it count is here too.
type placement struct {
	in *inputs
	// pts and ext are JT's public tuples the boxes hold: none under plain
	// k-anonymity (the public tuples read for the domain take no part).
	pts pubPoints
	ext points
	// byAudit: the audit record's row map placed the rows; misfit: it
	// does not fit jat.csv (nothing more is compared).
	byAudit, misfit bool
	siMap           []int
	mtCount         []int     // microdata tuples per box
	groupVals       [][]int32 // the sensitive values (codes) of each group's microdata tuples
	boxOfMT         []int
	// done: every microdata tuple is placed (the figures follow).
	done bool
	// With the audit record: rows not distinct tuples of JT, microdata
	// tuples not published, tuples outside their box, boxes not their
	// members' MBB, and the input order of jat.csv's rows.
	badRows, uncovered, outside, loose int
	order                              []int
	// Without it: tuples in no box or in several, plain boxes whose rows
	// are not their microdata tuples.
	ambiguous, short int
	// chosen: a matching placed the tuples in several boxes (decide);
	// unplaceable: no placement gives every sensitive group its values;
	// undecided: the matching found breaks a check another placement
	// might pass (why).
	chosen, unplaceable bool
	undecided           string
}

// placementOf places the microdata tuples in the boxes once.
func (c *release) placementOf() (*placement, error) {
	return c.placing.Get(func() (*placement, error) {
		b, err := c.boxesOf()
		if err != nil {
			return nil, err
		}
		g, err := c.groupsOf()
		if err != nil {
			return nil, err
		}
		in := c.fitting()
		if in == nil {
			return nil, nil
		}
		p := &placement{in: in, mtCount: make([]int, len(b.list)), boxOfMT: make([]int, len(in.mt.rows))}
		if in.kja {
			p.pts, p.ext = in.pts, in.ext
		}
		p.groupVals = groupRoom(g.n)
		for i := range p.boxOfMT {
			p.boxOfMT[i] = -1
		}
		if a := c.opt.Audit; a != nil {
			p.byAudit = true
			rowMap := a.RowMap[format.FileJAT]
			if rm := a.RowMap[format.FileSI]; len(rm) == c.si.Rows {
				p.siMap = rm
			}
			if p.misfit = len(rowMap) != c.jat.Rows; !p.misfit {
				p.pinned(c, b, rowMap)
			}
			return p, nil
		}
		p.contained(c, b, g)
		return p, nil
	})
}

// groupRoom makes room for each group's sensitive values, as many as
// si.csv gives it, in one array (a group given more grows apart).
func groupRoom(n []int) [][]int32 {
	total := 0
	for _, k := range n {
		total += k
	}
	all := make([]int32, total)
	out := make([][]int32, len(n))
	at := 0
	for g, k := range n {
		out[g] = all[at:at:min(at+k, total)]
		at += k
	}
	return out
}

// add puts microdata tuple i in box bi (of sensitive group g).
func (p *placement) add(i, bi, g int) {
	p.mtCount[bi]++
	p.boxOfMT[i] = bi
	p.groupVals[g] = append(p.groupVals[g], p.in.mt.sa[i])
}

// pinned places the rows by the audit record's row map: every jat.csv
// row is a microdata tuple (its input row) or a public tuple (-1-j for
// row j of the public table), each once and inside its box, public ones
// no more at a QI point than JT holds there; every microdata tuple is
// published; and, with the public table, every box is the MBB of its
// members. The rows are pinned in order (the first row of a tuple takes
// it), then measured against their boxes on every core (placedIn).
func (p *placement) pinned(c *release, b *boxes, rowMap []int) {
	in := p.in
	usedMT := make([]bool, len(in.mt.rows))
	usedPD := map[int]bool{}
	atPoint := make([]int, len(p.pts.cap))
	p.order = make([]int, len(rowMap))
	// at is each row's tuple: a microdata tuple i >= 0, a public tuple
	// j as -2-j, or -1 for a row that pins none.
	at := make([]int32, len(rowMap))
	for row, e := range rowMap {
		at[row] = -1
		bi := b.of[row]
		if e >= 0 {
			p.order[row] = e
			i := -1
			if e < len(in.mtIndex) {
				i = in.mtIndex[e]
			}
			if i < 0 || usedMT[i] {
				p.badRows++
				continue
			}
			usedMT[i] = true
			p.add(i, bi, b.list[bi].sg)
			at[row] = int32(i)
		} else {
			j := -1 - e
			p.order[row] = c.opt.Original.Rows + j
			if c.method == format.PlainKA || usedPD[j] {
				p.badRows++
				continue
			}
			usedPD[j] = true
			if in.havePub {
				// j counts the public rows kept under the missing-value
				// policy, which place keeps in order.
				if j >= len(p.ext.rows) || p.pts.of[j] < 0 {
					p.badRows++
					continue
				}
				atPoint[p.pts.of[j]]++
				at[row] = int32(-2 - j)
			}
		}
	}
	for at, n := range atPoint {
		p.badRows += max(0, n-p.pts.cap[at]) // more than JT holds there
	}
	for _, u := range usedMT {
		if !u {
			p.uncovered++
		}
	}
	var mbb *bounds
	p.outside, mbb = p.placedIn(b, at)
	p.loose, p.done = mbb.loose(), true
}

// placedIn counts the pinned rows outside their box and builds the
// boxes' members' bounds, in parts on every core (a count and minima and
// maxima: the parts' order does not change them). at is pinned's.
func (p *placement) placedIn(b *boxes, at []int32) (outside int, mbb *bounds) {
	cores := runtime.GOMAXPROCS(0)
	if placedParts > 0 {
		cores = placedParts
	}
	parts := max(1, min(cores, len(at)/placedPartRows))
	outs := make([]int, parts)
	mbbs := make([]*bounds, parts)
	var wg sync.WaitGroup
	for k := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newBounds(b.list)
			for row := len(at) * k / parts; row < len(at)*(k+1)/parts; row++ {
				var x []float64
				switch e := at[row]; {
				case e >= 0:
					x = p.in.mt.x[e]
				case e < -1:
					x = p.ext.x[-2-e]
				default:
					continue
				}
				bi := b.of[row]
				if x != nil && !inBox(b.list[bi], x) {
					outs[k]++
				}
				m.add(bi, x)
			}
			mbbs[k] = m
		}()
	}
	wg.Wait()
	for k := range parts {
		outside += outs[k]
		if k > 0 {
			mbbs[0].merge(mbbs[k])
		}
	}
	return outside, mbbs[0]
}

// placedPartRows is the fewest rows placedIn measures as a part of their
// own, placedParts the most parts (0: one per core); a test sets them.
var placedPartRows, placedParts = 1 << 14, 0

// contained places each microdata tuple in the box that contains it. A
// tuple inside several boxes (TopDown's boxes overlap) is placed by a
// matching (decide). Every face of a box must be touched by a tuple
// inside it (the MBB's necessary condition): a microdata tuple, or, with
// the public table, a public tuple of JT; a tuple inside several boxes
// may touch each, being any one's member. Plain boxes hold their
// microdata tuples only; a KJA box's public rows are recounted (recount).
func (p *placement) contained(c *release, b *boxes, g *sgroups) {
	ix := newIndex(b.list)
	t := newTouches(b.list)
	var amb []choice
	for i, x := range p.in.mt.x {
		var in []int
		ix.stab(x, func(bi int) { in = append(in, bi) })
		switch len(in) {
		case 0:
			p.uncovered++
		case 1:
			p.add(i, in[0], b.list[in[0]].sg)
		default:
			amb = append(amb, choice{i, in})
		}
		for _, bi := range in {
			t.touch(bi, x)
		}
	}
	for at, x := range p.pts.x {
		if p.pts.cap[at] > 0 {
			ix.stab(x, func(bi int) { t.touch(bi, x) })
		}
	}
	p.ambiguous, p.loose, p.done = len(amb), t.loose(), true
	if len(amb) > 0 {
		p.decide(c, b, g, amb)
	}
	for bi, bx := range b.list {
		if bx.rows != p.mtCount[bi] {
			p.short++
		}
	}
}

// bounds are the boxes' members' bounding boxes, built up.
type bounds struct {
	boxes  []*box
	lo, hi [][]float64
}

func newBounds(boxes []*box) *bounds {
	b := &bounds{boxes: boxes, lo: make([][]float64, len(boxes)), hi: make([][]float64, len(boxes))}
	for i, bx := range boxes {
		d := len(bx.lo)
		b.lo[i], b.hi[i] = make([]float64, d), make([]float64, d)
		for a := 0; a < d; a++ {
			b.lo[i][a], b.hi[i][a] = math.Inf(1), math.Inf(-1)
		}
	}
	return b
}

func (b *bounds) add(i int, x []float64) {
	lo, hi := b.lo[i], b.hi[i]
	for a, v := range x {
		// The built-in min and max are math.Min and math.Max (NaN, -0),
		// without the call.
		lo[a], hi[a] = min(lo[a], v), max(hi[a], v)
	}
}

// merge adds o's members to b's (of the same boxes).
func (b *bounds) merge(o *bounds) {
	for i, lo := range b.lo {
		hi := b.hi[i]
		for a := range lo {
			lo[a], hi[a] = min(lo[a], o.lo[i][a]), max(hi[a], o.hi[i][a])
		}
	}
}

// loose counts the boxes that are not their members' MBB.
func (b *bounds) loose() int {
	n := 0
	for i, bx := range b.boxes {
		for a := range bx.lo {
			if b.lo[i][a] != bx.lo[a] || b.hi[i][a] != bx.hi[a] {
				n++
				break
			}
		}
	}
	return n
}

// touches records which faces of each box a tuple inside it touches.
type touches struct {
	boxes   []*box
	touched [][]bool
}

func newTouches(boxes []*box) *touches {
	t := &touches{boxes: boxes, touched: make([][]bool, len(boxes))}
	for i, bx := range boxes {
		t.touched[i] = make([]bool, 2*len(bx.lo))
	}
	return t
}

func (t *touches) touch(b int, x []float64) {
	for a, v := range x {
		if v == t.boxes[b].lo[a] {
			t.touched[b][2*a] = true
		}
		if v == t.boxes[b].hi[a] {
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

// placed is the placement when it was made (nil when the inputs do not
// fit or the audit record's row map does not fit jat.csv).
func (c *release) placed() *placement {
	p, err := c.placementOf()
	if err != nil || p == nil || p.misfit {
		return nil
	}
	return p
}

// auditFits: the audit record's row map fits jat.csv and pins every row
// to a microdata or public tuple.
func auditFits(c *release, r *verify.Report) error {
	p, err := c.placementOf()
	switch {
	case err != nil || p == nil || !p.byAudit:
	case p.misfit:
		r.Add(false, "audit", "the audit record's row map does not fit jat.csv")
	default:
		r.Add(true, "audit", "the audit record pins every jat.csv row to a microdata or public tuple")
	}
	return err
}

// containedCoverage: without the audit record, every microdata tuple
// lies inside a box.
func containedCoverage(c *release, r *verify.Report) error {
	if p := c.placed(); p != nil && !p.byAudit {
		r.Add(p.uncovered == 0, "coverage", "every one of the %d microdata tuples lies inside a box (%d do not)", len(p.in.mt.rows), p.uncovered)
	}
	return nil
}

// containedPinning: without the audit record, the microdata tuples that
// lie in several boxes are placed by a matching that passes every check
// (the files do not say which box holds them, but some placement is
// faithful); none gives every sensitive group its values: failed; the
// matching found fails another check: unconfirmed.
func containedPinning(c *release, r *verify.Report) error {
	p := c.placed()
	switch {
	case p == nil || p.byAudit || p.ambiguous == 0:
	case p.unplaceable:
		r.Add(false, "pinning", "no placement of the %d microdata tuples that lie in more than one box gives every sensitive group the values si.csv lists (Section 3.2)", p.ambiguous)
	case p.undecided != "":
		r.Unprove("pinning", "%d microdata tuples lie in more than one box, so the files do not say which box holds them, and the placement a matching found %s; "+
			"check with the audit record written beside the release", p.ambiguous, p.undecided)
	default:
		r.Add(true, "pinning", "the %d microdata tuples that lie in more than one box are placed by a matching that gives every sensitive group its values "+
			"and passes every check below (the files do not say which box holds them: figures that depend on it are unconfirmed)", p.ambiguous)
	}
	return nil
}

// tuples: with the audit record, every jat.csv row is a distinct tuple of
// JT; without it, a plain box's rows are its microdata tuples.
func tuples(c *release, r *verify.Report) error {
	p := c.placed()
	switch {
	case p == nil || !p.done:
	case p.byAudit:
		r.Add(p.badRows == 0, "tuples", "every jat.csv row is a distinct tuple of the join table%s (%d are not)",
			map[bool]string{true: "", false: " (public tuples unconfirmed without the public table)"}[p.in.havePub || c.method == format.PlainKA], p.badRows)
	case c.method == format.PlainKA:
		r.Add(p.short == 0, "tuples", "every box's rows are its microdata tuples (%d boxes are not)", p.short)
	}
	return nil
}

// pinnedCoverage: with the audit record, every microdata tuple is
// published in exactly one box.
func pinnedCoverage(c *release, r *verify.Report) error {
	if p := c.placed(); p != nil && p.byAudit {
		r.Add(p.uncovered == 0, "coverage", "every one of the %d microdata tuples is published in exactly one box (%d are not)", len(p.in.mt.rows), p.uncovered)
	}
	return nil
}

// inside: with the audit record, every tuple lies inside its box.
func inside(c *release, r *verify.Report) error {
	if p := c.placed(); p != nil && p.byAudit {
		r.Add(p.outside == 0, "inside", "every tuple lies inside its box (%d do not)", p.outside)
	}
	return nil
}

// mbb: every box is the minimum bounding box of its members (Section 4):
// with the audit record exactly, without it every face touched by a
// tuple inside; over public tuples only with the public table.
func mbb(c *release, r *verify.Report) error {
	p := c.placed()
	switch {
	case p == nil || !p.done:
	case p.byAudit && (p.in.havePub || c.method == format.PlainKA):
		r.Add(p.loose == 0, "MBB", "every box is the minimum bounding box of its members (%d are not; Section 4)", p.loose)
	case p.byAudit:
		r.Add(true, "MBB", "unconfirmed without the public table: the boxes' tightness over their public tuples")
	case c.method == format.PlainKA || p.in.havePub:
		r.Add(p.loose == 0, "MBB", "every face of every box is touched by a tuple inside it (%d boxes are not tight)", p.loose)
	default:
		r.Add(true, "MBB", "unconfirmed without the public table: the boxes' public tuples and tightness")
	}
	return nil
}

// jatShuffled: with the audit record, jat.csv's rows are not in the
// input's order; without it, each row's key is the mean input row of its
// box's microdata tuples (the same for every row of the box, read from
// its content alone), which must not follow the file's order
// (verify.OrderByKeys; SPEC 7.3).
func jatShuffled(c *release, r *verify.Report) error {
	p := c.placed()
	if p == nil {
		return nil
	}
	b, _ := c.boxesOf()
	switch {
	case p.byAudit:
		verify.Shuffled(format.FileJAT, p.order, len(b.list), r)
	case p.done:
		sum, count := make([]float64, len(b.list)), make([]int, len(b.list))
		for i, bi := range p.boxOfMT {
			if bi >= 0 {
				sum[bi] += float64(p.in.mt.rows[i])
				count[bi]++
			}
		}
		keys := make([]float64, len(b.of))
		for row, bi := range b.of {
			if bi >= 0 && count[bi] > 0 {
				keys[row] = sum[bi] / float64(count[bi])
			}
		}
		verify.OrderByKeys(format.FileJAT, keys, r)
	}
	return nil
}

// siOrder: without the audit record, si.csv's rows are not in the
// input's order: each row's key is the mean input row of its group's
// microdata tuples with its sensitive value (read from its content
// alone), which must not follow the file's order (verify.OrderByKeys;
// SPEC 7.3). A si.csv in the input's order gives whoever knows that
// order each person's sensitive value, whatever the groups hide.
func siOrder(c *release, r *verify.Report) error {
	p := c.placed()
	if p == nil || p.byAudit || !p.done {
		return nil
	}
	b, _ := c.boxesOf()
	type groupValue struct {
		sg int
		sa string
	}
	sum, count := map[groupValue]float64{}, map[groupValue]int{}
	for i, bi := range p.boxOfMT {
		if bi >= 0 {
			k := groupValue{b.list[bi].sg, p.in.mt.saTexts[p.in.mt.sa[i]]}
			sum[k] += float64(p.in.mt.rows[i])
			count[k]++
		}
	}
	sgCol, saCol := c.si.Columns[0], c.si.Columns[1]
	keys := make([]float64, c.si.Rows)
	for row := range keys {
		sg, ok := b.sgIDs[sgCol.Value(row)]
		if k := (groupValue{sg, saCol.Value(row)}); ok && count[k] > 0 {
			keys[row] = sum[k] / float64(count[k])
		}
	}
	verify.OrderByKeys(format.FileSI, keys, r)
	return nil
}

// microdataPerBox: every box holds at least one microdata tuple
// (Section 4).
func microdataPerBox(c *release, r *verify.Report) error {
	if p := c.placed(); p != nil && p.done {
		noMT := 0
		for _, n := range p.mtCount {
			if n == 0 {
				noMT++
			}
		}
		r.Add(noMT == 0, "microdata per box", "every box holds at least one microdata tuple (%d hold none; Section 4)", noMT)
	}
	return nil
}

// groupValues: the sensitive values of every group in si.csv are those
// of its microdata tuples (Section 3.2).
func groupValues(c *release, r *verify.Report) error {
	p := c.placed()
	g, err := c.groupsOf()
	if p == nil || !p.done || err != nil {
		return nil
	}
	wrong := 0
	for sg := range g.vals {
		if !sameBag(p.in.mt.saBag(p.groupVals[sg]), g.vals[sg]) {
			wrong++
		}
	}
	r.Add(wrong == 0, "sensitive groups", "the sensitive values of every group in si.csv are those of its microdata tuples (%d groups differ; Section 3.2)", wrong)
	return nil
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

// siRows: the audit record pins every si.csv row to a microdata tuple of
// its group, with its value; and si.csv's rows are not in the input's
// order.
func siRows(c *release, r *verify.Report) error {
	p := c.placed()
	if p == nil || !p.done || p.siMap == nil {
		return nil
	}
	b, _ := c.boxesOf()
	in, sgCol, saCol := p.in, c.si.Columns[0], c.si.Columns[1]
	sgOf := make([]int, len(sgCol.Dict)+1) // an unknown group reads as group 0, as a map's zero value
	for code := range sgCol.Dict {
		sgOf[code] = b.sgIDs[sgCol.Dict[code]]
	}
	bad := 0
	seen := make([]bool, len(in.mt.rows))
	for row, e := range p.siMap {
		i := -1
		if e >= 0 && e < len(in.mtIndex) {
			i = in.mtIndex[e]
		}
		if i < 0 || seen[i] || in.mt.saTexts[in.mt.sa[i]] != saCol.Value(row) || p.boxOfMT[i] < 0 ||
			sgOf[verify.Code(sgCol, row)] != b.list[p.boxOfMT[i]].sg {
			bad++
			continue
		}
		seen[i] = true
	}
	r.Add(bad == 0, "si rows", "the audit record pins every si.csv row to a microdata tuple of its group with its value (%d do not)", bad)
	verify.Shuffled(format.FileSI, p.siMap, len(in.mt.saBag(in.mt.sa)), r)
	return nil
}
