package hierarchy

import (
	"fmt"
	"sort"
	"strings"

	"privlab/model"
	"privlab/model/query"
)

// Hierarchy is a rooted tree over an attribute's domain (SPEC 2.3): every
// node is a subdomain, the children of a node partition it and the leaves
// are single values. Node 0 is the root. Depth counts from the root (depth
// 0); "levels up" count from a leaf, so a value generalized 2 levels up is
// its grandparent (zipcode 91110 -> 911** with digit masking).
type Hierarchy struct {
	Attr string
	// Numeric is true when every leaf value is a number; Low/High are then
	// the smallest and largest leaf value under each node.
	Numeric bool
	Nodes   []Node
	// Leaves lists the leaf node ids in leaf order (depth-first; for numeric
	// hierarchies children are ordered by value).
	Leaves []int
	leafOf map[string]int
	numOf  map[float64]int
}

// Node is one node (subdomain) of a Hierarchy.
type Node struct {
	Label    string
	Parent   int // -1 for the root
	Children []int
	Depth    int
	// First and Last are the positions in Hierarchy.Leaves of the first and
	// last leaf under the node: the node covers Leaves[First..Last].
	First, Last int
	Low, High   float64
	Value       float64 // the parsed leaf value (numeric leaves)
}

// IsLeaf reports whether node n has no children.
func (h *Hierarchy) IsLeaf(n int) bool { return len(h.Nodes[n].Children) == 0 }

// LeafCount is the number of leaves (domain values) under node n.
func (h *Hierarchy) LeafCount(n int) int { return h.Nodes[n].Last - h.Nodes[n].First + 1 }

// Range is the width of node n: max-min of its leaf values for numeric
// hierarchies, number of leaves minus one for categorical ones (Koudas et
// al. 2009, Section 3.1 and footnote 3).
func (h *Hierarchy) Range(n int) float64 {
	if h.Numeric {
		return h.Nodes[n].High - h.Nodes[n].Low
	}
	return float64(h.LeafCount(n) - 1)
}

// Height is the largest leaf depth.
func (h *Hierarchy) Height() int {
	m := 0
	for _, l := range h.Leaves {
		if d := h.Nodes[l].Depth; d > m {
			m = d
		}
	}
	return m
}

// Ancestor returns the node `up` levels above n (the root when the tree is
// not that deep).
func (h *Hierarchy) Ancestor(n, up int) int {
	for ; up > 0 && h.Nodes[n].Parent >= 0; up-- {
		n = h.Nodes[n].Parent
	}
	return n
}

// LeafPos returns the position in Leaves of leaf node n.
func (h *Hierarchy) LeafPos(n int) int { return h.Nodes[n].First }

// Leaf finds the leaf of a value given as text (and, for numeric
// hierarchies, as a number so that "30" and "30.0" match).
func (h *Hierarchy) Leaf(text string) (int, bool) {
	if n, ok := h.leafOf[text]; ok {
		return n, true
	}
	if h.Numeric {
		if v, ok := model.ParseNumber(text); ok {
			n, ok := h.numOf[v]
			return n, ok
		}
	}
	return 0, false
}

// IsBinary reports whether every internal node has at most two children.
func (h *Hierarchy) IsBinary() bool {
	for _, n := range h.Nodes {
		if len(n.Children) > 2 {
			return false
		}
	}
	return true
}

// MaxArity is the largest number of children of any node.
func (h *Hierarchy) MaxArity() int {
	m := 0
	for _, n := range h.Nodes {
		if len(n.Children) > m {
			m = len(n.Children)
		}
	}
	return m
}

// NodeLabel describes node n as a subdomain: its label, or [low-high] for a
// numeric internal node.
func (h *Hierarchy) NodeLabel(n int) string { return h.Nodes[n].Label }

// Bounds returns the text of the first and last value under node n: the
// Low and High that identify a subdomain in a release.
func (h *Hierarchy) Bounds(n int) (lo, hi string) {
	nd := h.Nodes[n]
	if h.Numeric {
		return model.FormatNumber(nd.Low), model.FormatNumber(nd.High)
	}
	return h.Nodes[h.Leaves[nd.First]].Label, h.Nodes[h.Leaves[nd.Last]].Label
}

// MapColumn returns, for each Dict code of c, its leaf node. A value the
// hierarchy does not cover is an error naming the value and where it first
// occurs.
func (h *Hierarchy) MapColumn(c *model.Column) ([]int, error) {
	out := make([]int, len(c.Dict))
	for code, v := range c.Dict {
		n, ok := h.Leaf(v)
		if !ok && c.Kind == model.Numeric && h.Numeric {
			n, ok = h.numOf[c.Nums[code]]
		}
		if !ok {
			where := ""
			if line := c.FirstLine(code); line > 0 {
				where = fmt.Sprintf(" (first on line %d)", line)
			}
			return nil, fmt.Errorf("hierarchy for %q does not cover the value %q%s", h.Attr, v, where)
		}
		out[code] = n
	}
	return out, nil
}

// CheckIntervals verifies that every node covers a contiguous run of the
// sorted domain, as a subdomain of a numeric attribute must (Koudas et al.
// 2009, Section 3.1).
func (h *Hierarchy) CheckIntervals() error {
	if !h.Numeric {
		return nil
	}
	for i := 1; i < len(h.Leaves); i++ {
		a, b := h.Nodes[h.Leaves[i-1]], h.Nodes[h.Leaves[i]]
		if !(a.Value < b.Value) {
			return fmt.Errorf("hierarchy for %q: nodes are not intervals of the sorted values (%s comes before %s in the tree)",
				h.Attr, a.Label, b.Label)
		}
	}
	return nil
}

// nodeSpec is a node under construction: a label and its parent's index
// (-1 for the root).
type nodeSpec struct {
	label  string
	parent int
	line   int // input line for error messages, 0 when built
}

// newHierarchy finishes a tree given as nodes with parent links: it orders
// children (by value for numeric trees), numbers leaves depth-first and
// computes depths and covered ranges. specs[0] must be the root.
func newHierarchy(attr string, specs []nodeSpec) (*Hierarchy, error) {
	h := &Hierarchy{Attr: attr, Nodes: make([]Node, len(specs))}
	if len(specs) == 0 {
		return nil, fmt.Errorf("hierarchy for %q is empty", attr)
	}
	if err := h.link(specs); err != nil {
		return nil, err
	}
	h.Numeric = h.parseLeafValues()
	if h.Numeric {
		h.setLowHigh(0)
	}
	h.numberLeaves()
	if err := h.checkDistinctLeaves(); err != nil {
		return nil, err
	}
	return h, nil
}

// link makes the nodes of specs and their child lists.
func (h *Hierarchy) link(specs []nodeSpec) error {
	for i, s := range specs {
		h.Nodes[i] = Node{Label: s.label, Parent: s.parent}
		if i > 0 {
			if s.parent < 0 || s.parent >= len(specs) {
				return fmt.Errorf("hierarchy for %q: node %q has no parent", h.Attr, s.label)
			}
			h.Nodes[s.parent].Children = append(h.Nodes[s.parent].Children, i)
		}
	}
	return nil
}

// parseLeafValues sets each leaf's Value and reports whether every leaf
// parses as a number (the hierarchy is then numeric).
func (h *Hierarchy) parseLeafValues() bool {
	for i := range h.Nodes {
		if len(h.Nodes[i].Children) == 0 {
			v, ok := model.ParseNumber(h.Nodes[i].Label)
			if !ok {
				return false
			}
			h.Nodes[i].Value = v
		}
	}
	return true
}

// setLowHigh sets Low and High of node n and the nodes under it, bottom-up,
// and orders each node's children by Low (numeric trees only).
func (h *Hierarchy) setLowHigh(n int) {
	nd := &h.Nodes[n]
	if len(nd.Children) == 0 {
		nd.Low, nd.High = nd.Value, nd.Value
		return
	}
	for i, c := range nd.Children {
		h.setLowHigh(c)
		cn := h.Nodes[c]
		if i == 0 || cn.Low < nd.Low {
			nd.Low = cn.Low
		}
		if i == 0 || cn.High > nd.High {
			nd.High = cn.High
		}
	}
	ch := nd.Children
	sort.SliceStable(ch, func(a, b int) bool { return h.Nodes[ch[a]].Low < h.Nodes[ch[b]].Low })
}

// numberLeaves numbers the leaves depth-first into Leaves, sets each
// node's Depth and First..Last, and indexes the leaves by label (and by
// value for numeric trees).
func (h *Hierarchy) numberLeaves() {
	leaves := 0
	for i := range h.Nodes {
		if len(h.Nodes[i].Children) == 0 {
			leaves++
		}
	}
	if leaves > 0 && h.Leaves == nil {
		h.Leaves = make([]int, 0, leaves)
	}
	h.leafOf = make(map[string]int, leaves)
	if h.Numeric {
		h.numOf = make(map[float64]int, leaves)
	}
	h.numberFrom(0, 0)
}

// numberFrom is numberLeaves' depth-first walk from node n at depth.
func (h *Hierarchy) numberFrom(n, depth int) {
	nd := &h.Nodes[n]
	nd.Depth = depth
	if len(nd.Children) == 0 {
		nd.First = len(h.Leaves)
		nd.Last = nd.First
		h.Leaves = append(h.Leaves, n)
		if prev, dup := h.leafOf[nd.Label]; dup && prev != n {
			return
		}
		h.leafOf[nd.Label] = n
		if h.Numeric {
			h.numOf[nd.Value] = n
		}
		return
	}
	nd.First = len(h.Leaves)
	for _, c := range nd.Children {
		h.numberFrom(c, depth+1)
	}
	nd.Last = len(h.Leaves) - 1
}

// checkDistinctLeaves fails when two leaves have the same label or, in a
// numeric tree, the same number.
func (h *Hierarchy) checkDistinctLeaves() error {
	if len(h.leafOf) != len(h.Leaves) {
		seen := map[string]bool{}
		for _, l := range h.Leaves {
			if seen[h.Nodes[l].Label] {
				return fmt.Errorf("hierarchy for %q: value %q appears as more than one leaf", h.Attr, h.Nodes[l].Label)
			}
			seen[h.Nodes[l].Label] = true
		}
	}
	if h.Numeric && len(h.numOf) != len(h.Leaves) {
		first := map[float64]string{}
		for _, l := range h.Leaves {
			nd := h.Nodes[l]
			if prev, dup := first[nd.Value]; dup {
				return fmt.Errorf("hierarchy for %q: leaves %q and %q are the same number", h.Attr, prev, nd.Label)
			}
			first[nd.Value] = nd.Label
		}
	}
	return nil
}

// Rows returns the hierarchy in the leaf-first CSV layout the loader reads:
// one row per leaf, the leaf value first and the root last. Leaves nearer
// the root than the deepest one repeat their own value so every row has the
// same length.
func (h *Hierarchy) Rows() [][]string {
	height := h.Height()
	out := make([][]string, 0, len(h.Leaves))
	for _, l := range h.Leaves {
		var path []string
		for n := l; n >= 0; n = h.Nodes[n].Parent {
			path = append(path, h.Nodes[n].Label)
		}
		// path: leaf ... root; pad after the leaf.
		for len(path) < height+1 {
			path = append(path[:1], append([]string{path[0]}, path[1:]...)...)
		}
		out = append(out, path)
	}
	return out
}

// String draws the tree, one node per line, for debugging and tests.
func (h *Hierarchy) String() string {
	var b strings.Builder
	var walk func(n int)
	walk = func(n int) {
		nd := h.Nodes[n]
		b.WriteString(strings.Repeat("  ", nd.Depth))
		b.WriteString(nd.Label)
		b.WriteByte('\n')
		for _, c := range nd.Children {
			walk(c)
		}
	}
	walk(0)
	return b.String()
}

// LeafFraction is the fraction of the values under node n that satisfy
// the predicate: the uniform-within-subdomain estimate of how many records
// generalized to n match it (Wong et al. and Sattar et al. estimate count
// queries on generalized tables this way).
func (h *Hierarchy) LeafFraction(n int, pr query.Pred) float64 {
	nd := h.Nodes[n]
	match := 0
	for i := nd.First; i <= nd.Last; i++ {
		l := h.Nodes[h.Leaves[i]]
		if pr.MatchValue(l.Label, l.Value, h.Numeric) {
			match++
		}
	}
	return float64(match) / float64(nd.Last-nd.First+1)
}
