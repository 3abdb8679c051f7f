package check

import (
	"fmt"
	"slices"
	"strings"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
)

// choice is a microdata tuple that lies inside several boxes.
type choice struct {
	mt    int
	boxes []int
}

// groupValue is a sensitive group and one of its values.
type groupValue struct {
	sg int
	v  string
}

// decide places the microdata tuples that lie inside several boxes, as
// the other methods' checkers match published rows to tuples: a maximum
// flow (verify.Flow) takes each tuple into one of its boxes, each
// sensitive group taking as many tuples of each value as si.csv lists
// beyond those placed already (Sacharidis et al., Section 3.2). With
// none, no placement gives every group its values (unplaceable, as the
// group check would fail on any). A box the flow leaves without a
// microdata tuple or with a face no member touches is then given a tuple
// inside it that mends it, when a flow still places the rest (repair).
// The placement must pass the checks that read it (breaks); when it does
// not, another placement might (undecided), and those checks are not run.
func (p *placement) decide(c *release, b *boxes, g *sgroups, amb []choice) {
	need := make(map[groupValue]int)
	for sg, vals := range g.vals {
		for v, n := range vals {
			need[groupValue{sg, v}] += n
		}
	}
	for sg, codes := range p.groupVals {
		for _, code := range codes {
			need[groupValue{sg, p.in.mt.saTexts[code]}]--
		}
	}
	total, negative := 0, false
	for _, n := range need {
		total += n
		negative = negative || n < 0
	}
	var boxOf []int
	if !negative && total == len(amb) {
		boxOf = p.match(b, need, amb, nil)
	}
	if boxOf == nil {
		p.unplaceable, p.done = true, false
		return
	}
	boxOf = p.repair(b, need, amb, boxOf)
	for k, ch := range amb {
		p.add(ch.mt, boxOf[k], b.list[boxOf[k]].sg)
	}
	p.chosen = true
	if p.undecided = p.breaks(c, b); p.undecided != "" {
		p.done = false
	}
}

// match is the flow of decide: the box of every tuple of amb (nil when
// not every one is placed); a tuple forced to a box goes there only.
func (p *placement) match(b *boxes, need map[groupValue]int, amb []choice, forced map[int]int) []int {
	fl := verify.NewFlow()
	src, sink := fl.Node(), fl.Node()
	nodes := map[groupValue]int{}
	edges := make([][]int, len(amb))
	for k, ch := range amb {
		t := fl.Node()
		fl.Edge(src, t, 1)
		v := p.in.mt.saTexts[p.in.mt.sa[ch.mt]]
		for _, bi := range ch.boxes {
			if f, ok := forced[k]; ok && f != bi {
				edges[k] = append(edges[k], -1)
				continue
			}
			key := groupValue{b.list[bi].sg, v}
			n, ok := nodes[key]
			if !ok {
				n = fl.Node()
				nodes[key] = n
				fl.Edge(n, sink, max(0, need[key]))
			}
			edges[k] = append(edges[k], fl.Edge(t, n, 1))
		}
	}
	if fl.MaxFlow(src, sink) < len(amb) {
		return nil
	}
	boxOf := make([]int, len(amb))
	for k, ch := range amb {
		for j, e := range edges[k] {
			if e >= 0 && fl.Used(e) > 0 {
				boxOf[k] = ch.boxes[j]
			}
		}
	}
	return boxOf
}

// repairRounds bounds repair's rounds; repairWork the edges of all the
// flows it tries, so that a release of many tuples inside several boxes
// is left unconfirmed (undecided) rather than searched at length.
const repairRounds, repairWork = 8, 1 << 20

// repair gives each box the placement leaves without a microdata tuple,
// or with a face no member touches, a tuple inside it that mends it
// (forced there), kept when a flow still places every tuple.
func (p *placement) repair(b *boxes, need map[groupValue]int, amb []choice, boxOf []int) []int {
	forced := map[int]int{}
	edges := 1
	for _, ch := range amb {
		edges += len(ch.boxes)
	}
	tries := repairWork / edges
	for round := 0; round < repairRounds && tries > 0; round++ {
		t, count, bad := p.membersOf(b, amb, boxOf)
		if len(bad) == 0 {
			break
		}
		mended := false
		for _, bi := range bad {
			for k, ch := range amb {
				if _, ok := forced[k]; ok || boxOf[k] == bi || !slices.Contains(ch.boxes, bi) || !t.mends(bi, p.in.mt.x[ch.mt], count[bi]) {
					continue
				}
				if tries--; tries < 0 {
					return boxOf
				}
				forced[k] = bi
				if next := p.match(b, need, amb, forced); next != nil {
					boxOf, mended = next, true
					break
				}
				delete(forced, k)
			}
		}
		if !mended {
			break
		}
	}
	return boxOf
}

// membersOf is the faces the members touch with the tuples of amb in
// boxOf, the microdata tuples of every box, and the boxes left without a
// microdata tuple or a face touched.
func (p *placement) membersOf(b *boxes, amb []choice, boxOf []int) (*touches, []int, []int) {
	t := newTouches(b.list)
	count := append([]int(nil), p.mtCount...)
	for i, bi := range p.boxOfMT {
		if bi >= 0 {
			t.touch(bi, p.in.mt.x[i])
		}
	}
	for k, ch := range amb {
		t.touch(boxOf[k], p.in.mt.x[ch.mt])
		count[boxOf[k]]++
	}
	ix := newIndex(b.list)
	for at, x := range p.pts.x {
		if p.pts.cap[at] > 0 {
			ix.stab(x, func(bi int) { t.touch(bi, x) })
		}
	}
	var bad []int
	for bi, faces := range t.touched {
		if count[bi] == 0 || slices.Contains(faces, false) {
			bad = append(bad, bi)
		}
	}
	return t, count, bad
}

// mends reports whether a tuple at x, put in box bi, touches a face of it
// no member touches, or is its first microdata tuple (n none so far).
func (t *touches) mends(bi int, x []float64, n int) bool {
	if n == 0 {
		return true
	}
	bx := t.boxes[bi]
	for a, v := range x {
		if v == bx.lo[a] && !t.touched[bi][2*a] || v == bx.hi[a] && !t.touched[bi][2*a+1] {
			return true
		}
	}
	return false
}

// breaks says which check the placement fails ("" for none): every box
// holds a microdata tuple (Section 4) and has every face touched by a
// member (a microdata tuple placed in it, or a public tuple of JT inside
// it), a plain box's rows are its microdata tuples, a KJA box holds no more microdata tuples than rows,
// and with the public table its public rows are distinct public tuples
// of JT inside it (recount).
func (p *placement) breaks(c *release, b *boxes) string {
	var why []string
	noMT, wrong := 0, 0
	for bi, bx := range b.list {
		n := p.mtCount[bi]
		if n == 0 {
			noMT++
		}
		if n > bx.rows || c.method == format.PlainKA && n != bx.rows {
			wrong++
		}
	}
	if noMT > 0 {
		why = append(why, fmt.Sprintf("leaves %d boxes without a microdata tuple", noMT))
	}
	if wrong > 0 {
		why = append(why, fmt.Sprintf("puts in %d boxes a number of microdata tuples their rows cannot be", wrong))
	}
	if loose := p.membersLoose(b); loose > 0 {
		why = append(why, fmt.Sprintf("leaves %d boxes with a face none of their members touches", loose))
	}
	if len(why) == 0 && p.in.havePub && p.in.kja {
		if rc := recount(b.list, p.pts, p.mtCount); rc.got != rc.need || rc.short > 0 {
			why = append(why, fmt.Sprintf("leaves %d public rows no public tuple of the join table inside their box can be", rc.need-rc.got))
		}
	}
	return strings.Join(why, " and ")
}

// membersLoose counts the boxes with a face that no microdata tuple
// placed in it, nor (with the public table) a public tuple of JT inside
// it, touches.
func (p *placement) membersLoose(b *boxes) int {
	t := newTouches(b.list)
	for i, bi := range p.boxOfMT {
		if bi >= 0 {
			t.touch(bi, p.in.mt.x[i])
		}
	}
	ix := newIndex(b.list)
	for at, x := range p.pts.x {
		if p.pts.cap[at] > 0 {
			ix.stab(x, func(bi int) { t.touch(bi, x) })
		}
	}
	return t.loose()
}
