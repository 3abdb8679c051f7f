package check

import (
	"fmt"
	"math"
	"math/big"

	"privlab/algorithms/sampling/format"
	"privlab/model"
)

// tree is one taxonomy of the public knowledge, read back (Sattar et al.,
// Figure 1): depths, leaves in order, every node's leaf range and
// probability mass.
type tree struct {
	name    string
	nodes   []format.Node
	depth   []int
	height  int
	below   []int     // subtree height
	mass    []float64 // sum of the leaves' probabilities, in leaf order
	leaves  []int
	first   []int
	last    []int
	byLabel map[string]int
	numeric bool
	byNum   map[float64]int
}

// readTree reads and validates one taxonomy: the root first and a parent
// before its children, distinct labels, leaf probabilities in [0,1]
// summing to at most 1, none on an inner node.
func readTree(a format.Attribute) (*tree, error) {
	n := len(a.Nodes)
	if n == 0 {
		return nil, fmt.Errorf("the taxonomy of %s has no nodes", a.Name)
	}
	t := &tree{name: a.Name, nodes: a.Nodes, depth: make([]int, n), below: make([]int, n), mass: make([]float64, n),
		first: make([]int, n), last: make([]int, n), byLabel: map[string]int{}}
	children, err := t.link(a)
	if err != nil {
		return nil, err
	}
	t.walk(children)
	if err := t.masses(a, children); err != nil {
		return nil, err
	}
	t.numeric = true
	t.byNum = map[float64]int{}
	for _, l := range t.leaves {
		v, ok := model.ParseNumber(a.Nodes[l].Value)
		if !ok {
			t.numeric = false
			break
		}
		t.byNum[v] = l
	}
	return t, nil
}

// link reads every node's label, parent and probability.
func (t *tree) link(a format.Attribute) ([][]int, error) {
	children := make([][]int, len(a.Nodes))
	for i, nd := range a.Nodes {
		if _, dup := t.byLabel[nd.Value]; dup {
			return nil, fmt.Errorf("the taxonomy of %s has two nodes labelled %q", a.Name, nd.Value)
		}
		t.byLabel[nd.Value] = i
		if (i == 0) != (nd.Parent == -1) || nd.Parent >= i {
			return nil, fmt.Errorf("the taxonomy of %s: node %q has a bad parent (the root comes first, a parent before its children)", a.Name, nd.Value)
		}
		if math.IsNaN(nd.P) || nd.P < 0 || nd.P > 1 {
			return nil, fmt.Errorf("the taxonomy of %s: %q has probability %v, not in [0,1]", a.Name, nd.Value, nd.P)
		}
		if i > 0 {
			t.depth[i] = t.depth[nd.Parent] + 1
			children[nd.Parent] = append(children[nd.Parent], i)
		}
	}
	return children, nil
}

// walk lists the leaves in order, each node's leaf range, the height and
// every subtree's height.
func (t *tree) walk(children [][]int) {
	var walk func(x int)
	walk = func(x int) {
		t.first[x] = len(t.leaves)
		if len(children[x]) == 0 {
			t.leaves = append(t.leaves, x)
		}
		for _, c := range children[x] {
			walk(c)
		}
		t.last[x] = len(t.leaves) - 1
	}
	walk(0)
	for _, l := range t.leaves {
		t.height = max(t.height, t.depth[l])
		for x, up := l, 0; x >= 0; x, up = t.nodes[x].Parent, up+1 {
			t.below[x] = max(t.below[x], up)
			if x == 0 {
				break
			}
		}
	}
}

// masses sums the leaves' probabilities under every node.
func (t *tree) masses(a format.Attribute, children [][]int) error {
	sum := 0.0
	for _, l := range t.leaves {
		sum += a.Nodes[l].P
	}
	if sum > 1+1e-9 {
		return fmt.Errorf("the values of %s have probabilities summing to %v > 1", a.Name, sum)
	}
	for x := range a.Nodes {
		if len(children[x]) > 0 && a.Nodes[x].P != 0 {
			return fmt.Errorf("the taxonomy of %s gives the inner node %q a probability", a.Name, a.Nodes[x].Value)
		}
		m := 0.0
		for i := t.first[x]; i <= t.last[x]; i++ {
			m += a.Nodes[t.leaves[i]].P
		}
		t.mass[x] = m
	}
	return nil
}

// exactDistortion is Definition 10's distortion of a record generalized
// to nodes, as an exact rational: (1/d) sum_i (H_i - level_i) / H_i.
func exactDistortion(trees []*tree, nodes []int) *big.Rat {
	sum := new(big.Rat)
	for i, x := range nodes {
		if h := trees[i].height; h > 0 {
			sum.Add(sum, big.NewRat(int64(h-trees[i].depth[x]), int64(h)))
		}
	}
	if len(nodes) == 0 {
		return sum
	}
	return sum.Quo(sum, big.NewRat(int64(len(nodes)), 1))
}

// term is 1 - level/max level (Definition 10; root at level 0).
func (t *tree) term(x int) float64 {
	if t.height == 0 {
		return 0
	}
	return 1 - float64(t.depth[x])/float64(t.height)
}

// leaf finds an original value's leaf.
func (t *tree) leaf(text string) (int, bool) {
	if x, ok := t.byLabel[text]; ok && t.below[x] == 0 {
		return x, true
	}
	if t.numeric {
		if v, ok := model.ParseNumber(text); ok {
			x, ok := t.byNum[v]
			return x, ok
		}
	}
	return 0, false
}

// covers reports whether node x is leaf l or above it.
func (t *tree) covers(x, l int) bool { return t.first[x] <= t.first[l] && t.last[l] <= t.last[x] }

// expected is Eq. 1, 1 - (1 - p)^n, as -expm1(n log1p(-p)).
func expected(p float64, n int) float64 {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	return -math.Expm1(float64(n) * math.Log1p(-p))
}
