package kja

import (
	"math"
	"sort"
)

// boxIndex answers "which boxes contain this point" (Refinement's range
// queries, Sacharidis et al., Section 4, turned around: each external
// tuple finds its first-round box) with a bounding-volume hierarchy: boxes
// are split at the median of their centres along the node's widest
// normalised axis, down to a few per leaf. Mondrian's boxes are disjoint,
// so a point follows one path: O(log boxes) per tuple.
type boxIndex struct {
	boxes []box
	sc    []float64
	nodes []bvhNode
	order []int32
}

type bvhNode struct {
	b           box
	left, right int32 // children (-1 for a leaf)
	first, end  int32 // the leaf's boxes: order[first:end]
}

const bvhLeaf = 4

func newBoxIndex(boxes []box, sc []float64) *boxIndex {
	ix := &boxIndex{boxes: boxes, sc: sc, order: make([]int32, len(boxes))}
	for i := range ix.order {
		ix.order[i] = int32(i)
	}
	if len(boxes) > 0 {
		ix.build(0, int32(len(boxes)))
	}
	return ix
}

func (ix *boxIndex) build(first, end int32) int32 {
	d := len(ix.sc)
	b := box{lo: make([]float64, d), hi: make([]float64, d)}
	for a := 0; a < d; a++ {
		b.lo[a], b.hi[a] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range ix.order[first:end] {
		for a := 0; a < d; a++ {
			b.lo[a] = math.Min(b.lo[a], ix.boxes[i].lo[a])
			b.hi[a] = math.Max(b.hi[a], ix.boxes[i].hi[a])
		}
	}
	id := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, bvhNode{b: b, left: -1, right: -1, first: first, end: end})
	if end-first <= bvhLeaf {
		return id
	}
	axis, widest := 0, -1.0
	for a := 0; a < d; a++ {
		w := (b.hi[a] - b.lo[a]) * ix.sc[a]
		if ix.sc[a] == 0 {
			w = b.hi[a] - b.lo[a]
		}
		if w > widest {
			axis, widest = a, w
		}
	}
	part := ix.order[first:end]
	centre := func(i int32) float64 { return ix.boxes[i].lo[axis] + ix.boxes[i].hi[axis] }
	sort.Slice(part, func(x, y int) bool { return centre(part[x]) < centre(part[y]) })
	mid := first + (end-first)/2
	l := ix.build(first, mid)
	r := ix.build(mid, end)
	ix.nodes[id].left, ix.nodes[id].right = l, r
	return id
}

func inside(b box, p []float64) bool {
	for a, v := range p {
		if v < b.lo[a] || v > b.hi[a] {
			return false
		}
	}
	return true
}

// stab calls fn with every box that contains p.
func (ix *boxIndex) stab(p []float64, fn func(b int)) {
	if len(ix.nodes) == 0 {
		return
	}
	stack := [64]int32{0}
	top := 1
	for top > 0 {
		top--
		n := &ix.nodes[stack[top]]
		if !inside(n.b, p) {
			continue
		}
		if n.left < 0 {
			for _, i := range ix.order[n.first:n.end] {
				if inside(ix.boxes[i], p) {
					fn(int(i))
				}
			}
			continue
		}
		stack[top], stack[top+1] = n.left, n.right
		top += 2
	}
}
