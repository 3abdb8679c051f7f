package check

import (
	"math"
	"sort"
)

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
