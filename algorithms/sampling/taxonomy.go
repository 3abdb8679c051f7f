package sampling

import (
	"fmt"
	"math"
	"privlab/algorithms/sampling/format"

	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/query"
)

// Attribute, Node and Value are the public knowledge as the manifest
// publishes it (the format package declares them).
type (
	Attribute = format.Attribute
	Node      = format.Node
	Value     = format.Value
)

// taxonomy is an Attribute read into arrays: everything the algorithm,
// the answerer and the figures need about one quasi-identifier. The run
// builds it from the Attribute it publishes, and OpenRelease from the
// manifest, so both answer from the same structure.
type taxonomy struct {
	name   string
	label  []string
	parent []int32
	depth  []int32
	// first and last are the leaf positions a node covers.
	first, last []int32
	leaves      []int32 // node of each leaf position
	// height is the largest leaf depth: the maximal level of Definition
	// 10, with the root at level 0 (SPEC 2.3).
	height int32
	// below is the height of the subtree under a node (0 for a leaf).
	below []int32
	// mass is the public probability of a node's subdomain: the sum of
	// its leaves' probabilities, added in leaf order.
	mass []float64
	// lds is the left domain size of a node (Definition 11).
	lds     []int32
	numeric bool
	value   []float64 // parsed leaf labels (numeric taxonomies)
	byLabel map[string]int32
	byNum   map[float64]int32
}

// exportAttribute writes hierarchy h as the manifest's Attribute with the
// probability of each leaf given by prob (indexed by h's node id).
func exportAttribute(h *hierarchy.Hierarchy, name string, prob func(node int) float64) Attribute {
	a := Attribute{Name: name}
	var walk func(n, parent int)
	walk = func(n, parent int) {
		idx := len(a.Nodes)
		nd := Node{Value: h.Nodes[n].Label, Parent: parent}
		if h.IsLeaf(n) {
			nd.P = prob(n)
		}
		a.Nodes = append(a.Nodes, nd)
		for _, c := range h.Nodes[n].Children {
			walk(c, idx)
		}
	}
	walk(0, -1)
	return a
}

// preorder maps h's node ids to their depth-first index (the order
// exportAttribute writes).
func preorder(h *hierarchy.Hierarchy) []int32 {
	out := make([]int32, len(h.Nodes))
	next := int32(0)
	var walk func(n int)
	walk = func(n int) {
		out[n] = next
		next++
		for _, c := range h.Nodes[n].Children {
			walk(c)
		}
	}
	walk(0)
	return out
}

// newTaxonomy validates an Attribute and builds its arrays. Labels must be
// unique (a release names a generalized value by its label), parents must
// precede children, leaves' probabilities must lie in [0,1] and sum to at
// most 1.
func newTaxonomy(a Attribute) (*taxonomy, error) {
	n := len(a.Nodes)
	if n == 0 {
		return nil, fmt.Errorf("taxonomy of %s has no nodes", a.Name)
	}
	t := &taxonomy{name: a.Name, label: make([]string, n), parent: make([]int32, n), depth: make([]int32, n),
		first: make([]int32, n), last: make([]int32, n), below: make([]int32, n), mass: make([]float64, n),
		lds: make([]int32, n), byLabel: make(map[string]int32, n)}
	children, err := t.readNodes(a)
	if err != nil {
		return nil, err
	}
	t.orderLeaves(children)
	if err := t.checkProbabilities(a, children); err != nil {
		return nil, err
	}
	t.fillMasses(a)
	t.fillHeights()
	t.readNumbers()
	return t, nil
}

// readNodes checks and copies each node's label, parent and depth, and
// returns each node's children in file order.
func (t *taxonomy) readNodes(a Attribute) ([][]int32, error) {
	children := make([][]int32, len(a.Nodes))
	for i, nd := range a.Nodes {
		if _, dup := t.byLabel[nd.Value]; dup {
			return nil, fmt.Errorf("taxonomy of %s has two nodes labelled %q", a.Name, nd.Value)
		}
		t.byLabel[nd.Value] = int32(i)
		t.label[i] = nd.Value
		switch {
		case i == 0 && nd.Parent != -1:
			return nil, fmt.Errorf("taxonomy of %s: the first node must be the root (parent -1)", a.Name)
		case i > 0 && (nd.Parent < 0 || nd.Parent >= i):
			return nil, fmt.Errorf("taxonomy of %s: node %q must come after its parent", a.Name, nd.Value)
		}
		t.parent[i] = int32(nd.Parent)
		if i > 0 {
			t.depth[i] = t.depth[nd.Parent] + 1
			children[nd.Parent] = append(children[nd.Parent], int32(i))
		}
		if math.IsNaN(nd.P) || nd.P < 0 || nd.P > 1 {
			return nil, fmt.Errorf("taxonomy of %s: value %q has probability %v, not in [0,1]", a.Name, nd.Value, nd.P)
		}
	}
	return children, nil
}

// orderLeaves lists the leaves in depth-first order, children in file
// order, with each node's range of leaves and the tree's height.
func (t *taxonomy) orderLeaves(children [][]int32) {
	var walk func(x int32)
	walk = func(x int32) {
		t.first[x] = int32(len(t.leaves))
		if len(children[x]) == 0 {
			t.leaves = append(t.leaves, x)
		}
		for _, c := range children[x] {
			walk(c)
		}
		t.last[x] = int32(len(t.leaves)) - 1
	}
	walk(0)
	for _, l := range t.leaves {
		if t.depth[l] > t.height {
			t.height = t.depth[l]
		}
	}
}

// checkProbabilities refuses a probability on an inner node and leaves'
// probabilities summing to more than 1.
func (t *taxonomy) checkProbabilities(a Attribute, children [][]int32) error {
	sum := 0.0
	for _, l := range t.leaves {
		sum += a.Nodes[l].P
	}
	for x := range children {
		if len(children[x]) > 0 && a.Nodes[x].P != 0 {
			return fmt.Errorf("taxonomy of %s: the inner node %q carries a probability; only values (leaves) do", a.Name, a.Nodes[x].Value)
		}
	}
	if sum > 1+1e-9 {
		return fmt.Errorf("taxonomy of %s: the values' probabilities sum to %v > 1", a.Name, sum)
	}
	return nil
}

// fillMasses sums each node's leaves' probabilities, in leaf order.
func (t *taxonomy) fillMasses(a Attribute) {
	for x := range t.mass {
		m := 0.0
		for i := t.first[x]; i <= t.last[x]; i++ {
			m += a.Nodes[t.leaves[i]].P
		}
		t.mass[x] = m
	}
}

// fillHeights sets each node's subtree height and its left domain size
// (the nodes at its depth or above).
func (t *taxonomy) fillHeights() {
	for _, l := range t.leaves {
		for x, up := l, int32(0); x >= 0; x, up = t.parent[x], up+1 {
			if up > t.below[x] {
				t.below[x] = up
			}
		}
	}
	perDepth := make([]int32, t.height+2)
	for _, d := range t.depth {
		perDepth[d]++
	}
	cum := make([]int32, len(perDepth))
	for d := range perDepth {
		cum[d] = perDepth[d]
		if d > 0 {
			cum[d] += cum[d-1]
		}
	}
	for x, d := range t.depth {
		t.lds[x] = cum[d]
	}
}

// readNumbers makes the taxonomy numeric when every leaf label is a
// number, with each leaf's value and a leaf by value.
func (t *taxonomy) readNumbers() {
	t.numeric = len(t.leaves) > 0
	t.value = make([]float64, len(t.leaves))
	for i, l := range t.leaves {
		v, ok := model.ParseNumber(t.label[l])
		if !ok {
			t.numeric = false
			break
		}
		t.value[i] = v
	}
	if t.numeric {
		t.byNum = make(map[float64]int32, len(t.leaves))
		for i, l := range t.leaves {
			t.byNum[t.value[i]] = l
		}
	} else {
		t.value = nil
	}
}

// up returns the node levels above x (the root when the tree is not that
// deep).
func (t *taxonomy) up(x int32, levels int) int32 {
	for ; levels > 0 && t.parent[x] >= 0; levels-- {
		x = t.parent[x]
	}
	return x
}

// term is one attribute's share of Definition 10's distortion: 1 - current
// level / maximal level, with the root at level 0. An attribute whose
// taxonomy is a single value loses nothing (0).
func (t *taxonomy) term(x int32) float64 {
	if t.height == 0 {
		return 0
	}
	return 1 - float64(t.depth[x])/float64(t.height)
}

// fraction is the share of node x's values that satisfy the predicate:
// the uniform-within-subdomain estimate of how many records generalized
// to x match it (Sattar et al., Section 6.1.1; the same rule as
// hierarchy.Hierarchy.LeafFraction).
func (t *taxonomy) fraction(x int32, pr query.Pred) float64 {
	match := 0
	for i := t.first[x]; i <= t.last[x]; i++ {
		v := 0.0
		if t.numeric {
			v = t.value[i]
		}
		if pr.MatchValue(t.label[t.leaves[i]], v, t.numeric) {
			match++
		}
	}
	return float64(match) / float64(t.last[x]-t.first[x]+1)
}
