package check

import (
	"errors"
	"sort"
	"strconv"
	"sync"

	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// annotated is hierarchy.csv read back: a tree with integer edge weights
// (Koudas et al. 2009, Section 3: the weights give the target P').
type annotated struct {
	parent   []int
	children [][]int
	low      []string
	high     []string
	lowNum   []float64
	highNum  []float64
	weight   []int64
	leaves   []int // leaf nodes
	byBounds map[[2]string]int
	ids      map[string]int // NodeID -> row
	root     int
	numeric  bool
	table    *model.Table // hierarchy.csv as read
	first    []int        // leaf index range of every node
	last     []int
	// leafIndex is every leaf node's position among the leaves.
	leafIndex []int
	// byText and byNum are the leaves' positions by value (leafAt),
	// built once for the checks that share the tree.
	textOnce, numOnce sync.Once
	byText            map[string]int
	byNum             map[float64]int
}

// leafAt is, for every code of the original's sensitive column col
// (texts: its codes' texts), the position among the leaves of the leaf
// with that value: by its text, else, for a numeric column, by its
// number (-1: none; of leaves with equal values, the last).
func (a *annotated) leafAt(col *model.Column, texts []string) []int {
	a.textOnce.Do(func() {
		a.byText = make(map[string]int, len(a.leaves))
		for i, l := range a.leaves {
			a.byText[a.low[l]] = i
		}
	})
	numeric := col.Kind == model.Numeric
	if numeric {
		a.numOnce.Do(func() {
			a.byNum = make(map[float64]int, len(a.leaves))
			for i, l := range a.leaves {
				a.byNum[a.lowNum[l]] = i
			}
		})
	}
	at := make([]int, len(texts))
	for code, text := range texts {
		i, ok := a.byText[text]
		if !ok && numeric && code < len(col.Dict) {
			i, ok = a.byNum[col.Nums[code]]
		}
		if !ok {
			i = -1
		}
		at[code] = i
	}
	return at
}

// leafCount is the number of values under node x.
func (a *annotated) leafCount(x int) int { return a.last[x] - a.first[x] + 1 }

// hierarchyError is a problem of hierarchy.csv at a line (0: the file).
type hierarchyError func(line int, msg string) error

// readHierarchy is hierarchy.csv parsed and validated (parseHierarchy)
// once for the checks and the attacker's view that share the release's
// files (verify.Release.FileFact): it is read only.
// A fault of the file is named in the caller's release directory.
func readHierarchy(rel *verify.Release) (*annotated, error) {
	v, err := rel.FileFact("distribution/hierarchy", func() (any, error) { return parseHierarchy(rel) })
	if f := (*hierarchyFault)(nil); errors.As(err, &f) {
		return nil, &model.InputError{File: rel.Dir + "/" + format.FileHierarchy, Line: f.line, Msg: f.msg}
	}
	if err != nil {
		return nil, err
	}
	return v.(*annotated), nil
}

// hierarchyFault is what parseHierarchy finds wrong at a line of
// hierarchy.csv (0: the file), before readHierarchy names the file.
type hierarchyFault struct {
	line int
	msg  string
}

func (f *hierarchyFault) Error() string { return f.msg }

// parseHierarchy parses and validates hierarchy.csv: a single root, parents
// that exist, no cycles, every internal node's children tile its range
// without overlap, integer weights >= 0 with a positive sum per node.
func parseHierarchy(rel *verify.Release) (*annotated, error) {
	t, err := rel.Table(format.FileHierarchy)
	if err != nil {
		return nil, err
	}
	bad := hierarchyError(func(line int, msg string) error { return &hierarchyFault{line: line, msg: msg} })
	if !verify.CheckHeader(t, format.HierarchyHeader) {
		return nil, bad(1, "expected header NodeID,ParentID,Low,High,Weight")
	}
	a, err := parseNodes(t, bad)
	if err != nil {
		return nil, err
	}
	for _, step := range []func(hierarchyError) error{a.connected, a.tiled, a.ordered, a.weighted} {
		if err := step(bad); err != nil {
			return nil, err
		}
	}
	a.leafIndex = make([]int, len(a.parent))
	for i, l := range a.leaves {
		a.leafIndex[l] = i
	}
	return a, nil
}

// parseNodes reads every row: its id, parent, bounds and weight.
func parseNodes(t *model.Table, bad hierarchyError) (*annotated, error) {
	n := t.Rows
	a := &annotated{parent: make([]int, n), children: make([][]int, n), low: make([]string, n), high: make([]string, n),
		lowNum: make([]float64, n), highNum: make([]float64, n), weight: make([]int64, n), byBounds: make(map[[2]string]int, n), root: -1,
		table: t, first: make([]int, n), last: make([]int, n), ids: make(map[string]int, n), numeric: true}
	for r := 0; r < n; r++ {
		a.ids[t.Columns[0].Value(r)] = r
	}
	if len(a.ids) != n {
		return nil, bad(0, "duplicate NodeID")
	}
	for r := 0; r < n; r++ {
		if p := t.Columns[1].Value(r); p == "" {
			if a.root >= 0 {
				return nil, bad(r+2, "second root")
			}
			a.root, a.parent[r] = r, -1
		} else if pi, ok := a.ids[p]; ok {
			a.parent[r] = pi
			a.children[pi] = append(a.children[pi], r)
		} else {
			return nil, bad(r+2, "ParentID "+p+" does not exist")
		}
		a.low[r], a.high[r] = t.Columns[2].Value(r), t.Columns[3].Value(r)
		lo, ok1 := model.ParseNumber(a.low[r])
		hi, ok2 := model.ParseNumber(a.high[r])
		a.numeric = a.numeric && ok1 && ok2
		a.lowNum[r], a.highNum[r] = lo, hi
		w, err := strconv.ParseInt(t.Columns[4].Value(r), 10, 64)
		if err != nil || w < 0 {
			return nil, bad(r+2, "Weight must be an integer >= 0")
		}
		a.weight[r] = w
	}
	if a.root < 0 {
		return nil, bad(0, "no root (a node with an empty ParentID)")
	}
	return a, nil
}

// connected: every node is reached from the root once (no cycle).
func (a *annotated) connected(bad hierarchyError) error {
	seen := make([]bool, len(a.parent))
	stack := []int{a.root}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			return bad(x+2, "cycle in the hierarchy")
		}
		seen[x] = true
		stack = append(stack, a.children[x]...)
	}
	for x := range seen {
		if !seen[x] {
			return bad(x+2, "node not connected to the root")
		}
	}
	return nil
}

// tiled lists the leaves in depth-first order (a numeric tree in value
// order, whatever the file's row order) and checks that every internal
// node's children tile its range.
func (a *annotated) tiled(bad hierarchyError) error {
	if a.numeric {
		for x := range a.children {
			ch := a.children[x]
			sort.SliceStable(ch, func(i, j int) bool { return a.lowNum[ch[i]] < a.lowNum[ch[j]] })
		}
	}
	var walk func(x int) (first, last int)
	walk = func(x int) (int, int) {
		if len(a.children[x]) == 0 {
			if a.low[x] != a.high[x] {
				return -1, -1
			}
			a.leaves = append(a.leaves, x)
			a.first[x], a.last[x] = len(a.leaves)-1, len(a.leaves)-1
			return len(a.leaves) - 1, len(a.leaves) - 1
		}
		first, last := -1, -1
		for _, c := range a.children[x] {
			f, l := walk(c)
			if f < 0 {
				return -1, -1
			}
			if first < 0 {
				first = f
			}
			last = l
		}
		if a.low[a.leaves[first]] != a.low[x] || a.high[a.leaves[last]] != a.high[x] {
			return -1, -1
		}
		a.first[x], a.last[x] = first, last
		return first, last
	}
	if f, _ := walk(a.root); f < 0 {
		return bad(0, "the children of some node do not tile its Low..High range, or a leaf has Low != High")
	}
	return nil
}

// ordered: a numeric tree's leaves increase, so subdomains are intervals.
func (a *annotated) ordered(bad hierarchyError) error {
	if !a.numeric {
		return nil
	}
	for i := 1; i < len(a.leaves); i++ {
		if !(a.lowNum[a.leaves[i-1]] < a.lowNum[a.leaves[i]]) {
			return bad(0, "leaves are not in increasing order: subdomains would not be intervals")
		}
	}
	return nil
}

// weighted: every internal node's children's weights have a positive
// sum; and the nodes by their bounds (the deepest of equal ones).
func (a *annotated) weighted(bad hierarchyError) error {
	for x := range a.children {
		if len(a.children[x]) > 0 {
			var s int64
			for _, c := range a.children[x] {
				s += a.weight[c]
			}
			if s <= 0 {
				return bad(x+2, "the children's weights sum to 0")
			}
		}
		key := [2]string{a.low[x], a.high[x]}
		if _, dup := a.byBounds[key]; !dup || len(a.children[x]) > 0 {
			a.byBounds[key] = x // prefer the deepest node with these bounds
		}
	}
	return nil
}

// mixture sums, per leaf index, P'(leaf | node) over the given copies of
// nodes, pushing each node's mass down by the children's weight shares.
func (a *annotated) mixture(weight []int64, copies map[int]float64) []float64 {
	out := make([]float64, len(a.leaves))
	var push func(x int, m float64)
	push = func(x int, m float64) {
		if len(a.children[x]) == 0 {
			out[a.leafIndex[x]] += m
			return
		}
		var s int64
		for _, c := range a.children[x] {
			s += weight[c]
		}
		for _, c := range a.children[x] {
			if weight[c] > 0 {
				push(c, m*float64(weight[c])/float64(s))
			}
		}
	}
	for x, m := range copies {
		push(x, m)
	}
	return out
}

// target is the distribution the weights give (the mixture of the root):
// Definition 3.2's P' of a group with these weights.
func (a *annotated) target(weight []int64) []float64 {
	return a.mixture(weight, map[int]float64{a.root: 1})
}

// values are the leaves' values, in order (the SA domain).
func (a *annotated) values() []string {
	out := make([]string, len(a.leaves))
	for i, l := range a.leaves {
		out[i] = a.low[l]
	}
	return out
}
