package check

import (
	"encoding/binary"
	"math"
	"strings"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
)

// pubPoints are JT's public tuples grouped by QI point: JT holds cap[p]
// public tuples at point x[p]. of gives every public row's point (-1: the
// row is not in JT by the identifier: joined, repeated or not placeable).
type pubPoints struct {
	x      [][]float64
	cap    []int
	of     []int
	paired int // public rows counted as a microdata person on their QIs
}

// pointKey is a point's coordinates as a map key.
func pointKey(buf []byte, x []float64) []byte {
	for _, v := range x {
		if v == 0 {
			v = 0 // -0 and 0 are one value
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	return buf
}

// jtPublic builds JT's public part (Sacharidis et al., Section 3.1),
// independently of the method: the eligible public rows (eligibleRows),
// less, when they count toward k (pair), the rows no identifier joins
// that may be a microdata person: a public row without an identifier (none
// named, or its own missing) equal on every QI to a microdata tuple that
// no identifier joined may be that person, so at each QI point v
// min(free_v, anon_v) of them are that microdata person, not another JT
// tuple. Every JT tuple is then a distinct person whoever the public rows
// are.
func jtPublic(mt, ext points, eligible []bool, pair bool) pubPoints {
	p := pubPoints{of: make([]int, len(ext.rows))}
	index := map[string]int{}
	anon := map[int]int{}
	var buf []byte
	for j, ok := range eligible {
		p.of[j] = -1
		if !ok {
			continue
		}
		buf = pointKey(buf[:0], ext.x[j])
		at, seen := index[string(buf)]
		if !seen {
			at = len(p.x)
			index[string(buf)] = at
			p.x, p.cap = append(p.x, ext.x[j]), append(p.cap, 0)
		}
		p.of[j] = at
		p.cap[at]++
		if ext.keys[j] < 0 {
			anon[at]++
		}
	}
	if !pair || len(anon) == 0 {
		return p
	}
	// Microdata tuples no identifier joined (the method joins an
	// identifier to its first microdata row), by point.
	pdKeys := map[int32]bool{}
	for _, k := range ext.keys {
		if k >= 0 {
			pdKeys[k] = true
		}
	}
	first := map[int32]bool{}
	free := map[int]int{}
	for i, k := range mt.keys {
		if k >= 0 && pdKeys[k] && !first[k] {
			first[k] = true
			continue
		}
		if at, ok := index[string(pointKey(buf[:0], mt.x[i]))]; ok {
			free[at]++
		}
	}
	for at, n := range anon {
		m := min(n, free[at])
		p.cap[at] -= m
		p.paired += m
	}
	return p
}

// recounted is the flow of every box's public rows into JT's public
// tuples inside it (recount).
type recounted struct {
	need, got, short int
	paired           int
}

// recount proves that every box's public rows are distinct public tuples
// of JT inside it, so that a box's rows are that many distinct people
// (Sacharidis et al., Definition 6 and Theorem 2 count people): a flow
// from each box, carrying its rows less its microdata tuples, to the QI
// points of JT's public tuples inside it, each point passing on as many
// as JT holds there. A flow of every public row is such a matching;
// anything less means rows repeated, moved out of the boxes that could
// hold them, or counting a person twice.
func recount(boxes []*box, pts pubPoints, mtCount []int) recounted {
	fl := verify.NewFlow()
	src, sink := fl.Node(), fl.Node()
	boxNode := make([]int, len(boxes))
	rc := recounted{paired: pts.paired}
	for b, bx := range boxes {
		boxNode[b] = fl.Node()
		pub := bx.rows - mtCount[b]
		if pub < 0 {
			rc.short++
			continue
		}
		rc.need += pub
		fl.Edge(src, boxNode[b], pub)
	}
	ix := newIndex(boxes)
	for p, x := range pts.x {
		if pts.cap[p] == 0 {
			continue
		}
		node := fl.Node()
		fl.Edge(node, sink, pts.cap[p])
		ix.stab(x, func(b int) { fl.Edge(boxNode[b], node, pts.cap[p]) })
	}
	rc.got = fl.MaxFlow(src, sink)
	return rc
}

// people: with the original and the public table, every box's public
// rows are distinct public tuples of JT inside it (recount), so its rows
// are distinct people: k holds, and the breach probability is at most
// 1/k (Theorem 2).
func people(c *release, r *verify.Report) error {
	p := c.placed()
	if p == nil || !p.done || !p.in.havePub || !p.in.kja {
		return nil
	}
	b, _ := c.boxesOf()
	rc := recount(b.list, p.pts, p.mtCount)
	r.Claim("details.qi_paired", float64(c.det.QIPaired), float64(rc.paired))
	join := "MT and PD joined on " + strings.Join(c.det.Join, ",")
	if len(c.det.Join) == 0 {
		join = "no identifier joins MT and PD"
	}
	k := format.ParamK.Text(c.m.Parameters)
	r.Add(rc.got == rc.need && rc.short == 0, "people",
		"the %d public rows of jat.csv match distinct public tuples of the join table, each inside its box (%s; %d public rows equal to a microdata tuple on every QI "+
			"and joined by no identifier count as that person): every box's rows are distinct people, so k = %s holds and the breach probability is at most 1/%s "+
			"(Theorem 2) (%d rows unmatched, %d boxes with fewer rows than microdata tuples)",
		rc.need, join, rc.paired, k, k, rc.need-rc.got, rc.short)
	return nil
}
