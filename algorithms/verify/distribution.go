package verify

import (
	"math"
	"strconv"

	"privlab/model"
)

func init() { checkers["distribution"] = checkDistribution }

// annotated is hierarchy.csv read back: a tree with integer edge weights.
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
	root     int
}

// readHierarchy parses and validates hierarchy.csv: a single root, parents
// that exist, no cycles, every internal node's children tile its range
// without overlap, integer weights >= 0 with a positive sum per node.
func readHierarchy(dir string) (*annotated, error) {
	t, err := loadCSV(dir, "hierarchy.csv")
	if err != nil {
		return nil, err
	}
	bad := func(line int, msg string) error {
		return &model.InputError{File: dir + "/hierarchy.csv", Line: line, Msg: msg}
	}
	if !checkHeader(t, []string{"NodeID", "ParentID", "Low", "High", "Weight"}) {
		return nil, bad(1, "expected header NodeID,ParentID,Low,High,Weight")
	}
	n := t.Rows
	a := &annotated{parent: make([]int, n), children: make([][]int, n), low: make([]string, n), high: make([]string, n),
		lowNum: make([]float64, n), highNum: make([]float64, n), weight: make([]int64, n), byBounds: map[[2]string]int{}, root: -1}
	id := map[string]int{}
	for r := 0; r < n; r++ {
		id[t.Columns[0].Value(r)] = r
	}
	if len(id) != n {
		return nil, bad(0, "duplicate NodeID")
	}
	numeric := true
	for r := 0; r < n; r++ {
		p := t.Columns[1].Value(r)
		if p == "" {
			if a.root >= 0 {
				return nil, bad(r+2, "second root")
			}
			a.root, a.parent[r] = r, -1
		} else {
			pi, ok := id[p]
			if !ok {
				return nil, bad(r+2, "ParentID "+p+" does not exist")
			}
			a.parent[r] = pi
			a.children[pi] = append(a.children[pi], r)
		}
		a.low[r], a.high[r] = t.Columns[2].Value(r), t.Columns[3].Value(r)
		lo, ok1 := model.ParseNumber(a.low[r])
		hi, ok2 := model.ParseNumber(a.high[r])
		if !ok1 || !ok2 {
			numeric = false
		}
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
	// Reachability from the root (also rules out cycles).
	seen := make([]bool, n)
	stack := []int{a.root}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			return nil, bad(x+2, "cycle in the hierarchy")
		}
		seen[x] = true
		stack = append(stack, a.children[x]...)
	}
	for x := range seen {
		if !seen[x] {
			return nil, bad(x+2, "node not connected to the root")
		}
	}
	// Leaves in depth-first order, and the tiling of each internal node.
	var walk func(x int) (first, last int)
	walk = func(x int) (int, int) {
		if len(a.children[x]) == 0 {
			if a.low[x] != a.high[x] {
				return -1, -1
			}
			a.leaves = append(a.leaves, x)
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
		return first, last
	}
	if f, _ := walk(a.root); f < 0 {
		return nil, bad(0, "the children of some node do not tile its Low..High range, or a leaf has Low != High")
	}
	if numeric {
		for i := 1; i < len(a.leaves); i++ {
			if !(a.lowNum[a.leaves[i-1]] < a.lowNum[a.leaves[i]]) {
				return nil, bad(0, "leaves are not in increasing order: subdomains would not be intervals")
			}
		}
	}
	for x := range a.children {
		if len(a.children[x]) > 0 {
			var s int64
			for _, c := range a.children[x] {
				s += a.weight[c]
			}
			if s <= 0 {
				return nil, bad(x+2, "the children's weights sum to 0")
			}
		}
		key := [2]string{a.low[x], a.high[x]}
		if _, dup := a.byBounds[key]; !dup || len(a.children[x]) > 0 {
			a.byBounds[key] = x // prefer the deepest node with these bounds
		}
	}
	return a, nil
}

// mixture sums, per leaf index, P'(leaf | node) over the given copies of
// nodes, pushing each node's mass down by the children's weight shares.
func (a *annotated) mixture(weight []int64, copies map[int]float64, nLeaves int, leafIndex []int) []float64 {
	out := make([]float64, nLeaves)
	var push func(x int, m float64)
	push = func(x int, m float64) {
		if len(a.children[x]) == 0 {
			out[leafIndex[x]] += m
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

func checkDistribution(dir string, m *model.Manifest, opt Options, r *Report) error {
	qi, err := loadCSV(dir, "qi.csv")
	if err != nil {
		return err
	}
	sa, err := loadCSV(dir, "sa.csv")
	if err != nil {
		return err
	}
	h, err := readHierarchy(dir)
	if err != nil {
		return err
	}
	wantQI := append([]string{"GroupID"}, m.QIs...)
	r.add(checkHeader(qi, wantQI), "columns", "qi.csv holds GroupID and the %d quasi-identifiers only (no identifier, no sensitive value)", len(m.QIs))
	r.add(checkHeader(sa, []string{"GroupID", "Low", "High"}), "sa columns", "sa.csv holds GroupID, Low, High only")
	leafIndex := make([]int, len(h.parent))
	for i, l := range h.leaves {
		leafIndex[l] = i
	}
	r.add(true, "hierarchy", "%d nodes over %d values; children tile their parent", len(h.parent), len(h.leaves))

	// Group sizes and subdomains.
	groupIdx := map[string]int{}
	var sizes []int
	qiGroup := make([]int, qi.Rows)
	for row := 0; row < qi.Rows; row++ {
		g := qi.Columns[0].Value(row)
		gi, ok := groupIdx[g]
		if !ok {
			gi = len(sizes)
			groupIdx[g] = gi
			sizes = append(sizes, 0)
		}
		sizes[gi]++
		qiGroup[row] = gi
	}
	subs := make([]map[int]float64, len(sizes))
	nsub := make([]int, len(sizes))
	unknownGroup, unknownNode := 0, 0
	for row := 0; row < sa.Rows; row++ {
		gi, ok := groupIdx[sa.Columns[0].Value(row)]
		if !ok {
			unknownGroup++
			continue
		}
		x, ok := h.byBounds[[2]string{sa.Columns[1].Value(row), sa.Columns[2].Value(row)}]
		if !ok {
			unknownNode++
			continue
		}
		if subs[gi] == nil {
			subs[gi] = map[int]float64{}
		}
		subs[gi][x]++
		nsub[gi]++
	}
	r.add(unknownGroup == 0 && unknownNode == 0, "subdomains", "every sa.csv row names a group of qi.csv and a node of hierarchy.csv (%d unknown groups, %d unknown subdomains)", unknownGroup, unknownNode)

	// Group weights: hierarchy.csv's, or per group from group_weights.csv.
	groupWeights, err := readGroupWeights(dir, groupIdx, len(h.parent))
	if err != nil {
		return err
	}
	weightsOf := func(gi int) []int64 {
		if groupWeights != nil && groupWeights[gi] != nil {
			return groupWeights[gi]
		}
		return h.weight
	}

	// Definition 3.2: for every group and value t,
	// P'(t) = (1/n) sum_i P'(t | D_i).
	worst, worstGroup := 0.0, ""
	ids := make([]string, len(sizes))
	for id, gi := range groupIdx {
		ids[gi] = id
	}
	for gi := range sizes {
		w := weightsOf(gi)
		target := h.mixture(w, map[int]float64{h.root: 1}, len(h.leaves), leafIndex)
		if nsub[gi] == 0 {
			worst, worstGroup = math.Inf(1), ids[gi]
			continue
		}
		mix := h.mixture(w, subs[gi], len(h.leaves), leafIndex)
		for i := range mix {
			d := math.Abs(mix[i]/float64(nsub[gi]) - target[i])
			if d > worst {
				worst, worstGroup = d, ids[gi]
			}
		}
	}
	ok := worst <= 1e-9
	if ok {
		r.add(true, "P'-privacy", "in all %d groups every value's posterior equals the effective target (Definition 3.2; max deviation %.2g)", len(sizes), worst)
	} else {
		r.add(false, "P'-privacy", "group %s: posterior deviates from the target by %.4g (Definition 3.2)", worstGroup, worst)
	}

	// Fakes: each group needs at least one subdomain per tuple, and the
	// extra ones (fakes) must fit the budget.
	budget, berr := model.ParseFakes(orDefault(m.Parameters["fakes"], "0"))
	short, over, fakes := 0, 0, 0
	for gi := range sizes {
		f := nsub[gi] - sizes[gi]
		if f < 0 {
			short++
			continue
		}
		fakes += f
		if berr == nil && f > budget.For(sizes[gi]) {
			over++
		}
	}
	r.add(short == 0, "tuples covered", "every group has at least one subdomain per published tuple (%d groups short)", short)
	r.add(over == 0 && berr == nil, "fake budget", "%d fake values in all, every group within the budget %s (%d groups over)", fakes, orDefault(m.Parameters["fakes"], "0"), over)

	if opt.Original != nil {
		checkAgainstOriginal(m, qi, qiGroup, sizes, subs, h, leafIndex, opt.Original, r)
	}
	return nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func readGroupWeights(dir string, groupIdx map[string]int, nodes int) ([][]int64, error) {
	t, err := loadCSV(dir, "group_weights.csv")
	if err != nil {
		if ie, ok := err.(*model.InputError); ok && ie.Msg == "file does not exist" {
			return nil, nil
		}
		return nil, err
	}
	if !checkHeader(t, []string{"GroupID", "NodeID", "Weight"}) {
		return nil, &model.InputError{File: dir + "/group_weights.csv", Line: 1, Msg: "expected header GroupID,NodeID,Weight"}
	}
	out := make([][]int64, len(groupIdx))
	for row := 0; row < t.Rows; row++ {
		gi, ok := groupIdx[t.Columns[0].Value(row)]
		node, err1 := strconv.Atoi(t.Columns[1].Value(row))
		w, err2 := strconv.ParseInt(t.Columns[2].Value(row), 10, 64)
		if !ok || err1 != nil || err2 != nil || node < 0 || node >= nodes || w < 0 {
			return nil, &model.InputError{File: dir + "/group_weights.csv", Line: row + 2, Msg: "bad GroupID, NodeID or Weight"}
		}
		if out[gi] == nil {
			out[gi] = make([]int64, nodes)
		}
		out[gi][node] = w
	}
	return out, nil
}

// checkAgainstOriginal matches the published tuples with the original
// rows by their QI values and checks Definition 3.1: the group's real
// values can be mapped one-to-one into its subdomains (a maximum flow:
// rows -> groups holding their QI tuple -> subdomains containing their
// value). It also checks that rows are shuffled.
func checkAgainstOriginal(m *model.Manifest, qi *model.Table, qiGroup []int, sizes []int, subs []map[int]float64,
	h *annotated, leafIndex []int, orig *model.Table, r *Report) {
	cols, err := orig.MustColumns("qi", m.QIs)
	if err != nil {
		r.add(false, "original", "%v", err)
		return
	}
	saCol := orig.Column(m.SA)
	if saCol == nil {
		r.add(false, "original", "the original has no sensitive column %q", m.SA)
		return
	}
	keyOf := func(t *model.Table, cs []*model.Column, row int) string {
		b := make([]byte, 0, 32)
		for _, c := range cs {
			b = append(b, c.Value(row)...)
			b = append(b, 0)
		}
		return string(b)
	}
	qiCols := qi.Columns[1:]
	// Original rows by QI key (rows with a missing SA cannot be published).
	origByKey := map[string][]int{}
	for row := 0; row < orig.Rows; row++ {
		if saCol.IsMissing(row) {
			continue
		}
		k := keyOf(orig, cols, row)
		origByKey[k] = append(origByKey[k], row)
	}
	pubByKey := map[string]map[int]int{} // key -> group -> count
	pubOrder := make([]string, qi.Rows)
	for row := 0; row < qi.Rows; row++ {
		k := keyOf(qi, qiCols, row)
		pubOrder[row] = k
		if pubByKey[k] == nil {
			pubByKey[k] = map[int]int{}
		}
		pubByKey[k][qiGroup[row]]++
	}
	mismatch := 0
	for k, gs := range pubByKey {
		n := 0
		for _, c := range gs {
			n += c
		}
		if n != len(origByKey[k]) {
			mismatch++
		}
	}
	r.add(mismatch == 0, "tuples", "the published QI tuples are exactly the original's (%d QI combinations differ in count)", mismatch)
	if mismatch > 0 {
		return
	}

	// Leaf of each original SA value in the hierarchy.
	leafOf := map[string]int{}
	numLeaf := map[float64]int{}
	for _, l := range h.leaves {
		leafOf[h.low[l]] = l
		numLeaf[h.lowNum[l]] = l
	}
	missingValue := ""
	// Flow network: source -> (key,value) -> (group,value) -> (group,node) -> sink.
	f := newFlow()
	src, sink := f.node(), f.node()
	groupValue := map[[2]int]int{}
	groupNode := map[[2]int]int{}
	total := 0
	for k, rows := range origByKey {
		gs := pubByKey[k]
		byValue := map[int]int{}
		for _, row := range rows {
			v := saCol.Value(row)
			l, ok := leafOf[v]
			if !ok && saCol.Kind == model.Numeric {
				l, ok = numLeaf[saCol.Num(row)]
			}
			if !ok {
				missingValue = v
				continue
			}
			byValue[l]++
		}
		for l, c := range byValue {
			kv := f.node()
			f.edge(src, kv, c)
			total += c
			for g, gc := range gs {
				gv, ok := groupValue[[2]int{g, l}]
				if !ok {
					gv = f.node()
					groupValue[[2]int{g, l}] = gv
					// (group, value) -> every subdomain of the group containing it
					for x := l; x >= 0; x = h.parent[x] {
						if cnt := subs[g][x]; cnt > 0 {
							gn, ok := groupNode[[2]int{g, x}]
							if !ok {
								gn = f.node()
								groupNode[[2]int{g, x}] = gn
								f.edge(gn, sink, int(cnt))
							}
							f.edge(gv, gn, math.MaxInt32)
						}
					}
				}
				f.edge(kv, gv, gc)
			}
		}
	}
	if missingValue != "" {
		r.add(false, "generalization", "original value %q of %s is not in hierarchy.csv", missingValue, m.SA)
		return
	}
	flow := f.maxflow(src, sink)
	if flow == total {
		r.add(true, "generalization", "every original value maps to a distinct subdomain of its group that contains it (Definition 3.1; %d values)", total)
	} else {
		r.add(false, "generalization", "only %d of %d original values can be mapped into their groups' subdomains (Definition 3.1)", flow, total)
	}

	// Shuffle: the published order must not be the input order.
	if qi.Rows >= 8 && len(pubByKey) >= 2 {
		next := map[string]int{}
		prev, increasing := -1, true
		for _, k := range pubOrder {
			rows := origByKey[k]
			i := next[k]
			next[k] = i + 1
			if i >= len(rows) {
				continue
			}
			if rows[i] < prev {
				increasing = false
				break
			}
			prev = rows[i]
		}
		r.add(!increasing, "shuffled", "qi.csv rows are not in the input's order")
	}
}
