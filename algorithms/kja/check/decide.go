package check

import (
	"fmt"
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
// group check would fail on any). Else the placement must pass the
// checks that read it (breaks); when it does not, another placement might
// (undecided), and those checks are not run.
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
	fl := verify.NewFlow()
	src, sink := fl.Node(), fl.Node()
	nodes := map[groupValue]int{}
	edges := make([][]int, len(amb))
	for k, ch := range amb {
		t := fl.Node()
		fl.Edge(src, t, 1)
		v := p.in.mt.saTexts[p.in.mt.sa[ch.mt]]
		for _, bi := range ch.boxes {
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
	if negative || total != len(amb) || fl.MaxFlow(src, sink) < len(amb) {
		p.unplaceable, p.done = true, false
		return
	}
	for k, ch := range amb {
		for j, e := range edges[k] {
			if fl.Used(e) > 0 {
				p.add(ch.mt, ch.boxes[j], b.list[ch.boxes[j]].sg)
			}
		}
	}
	p.chosen = true
	if p.undecided = p.breaks(c, b); p.undecided != "" {
		p.done = false
	}
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
