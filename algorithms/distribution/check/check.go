// Package check is the independent checker of distribution releases
// (Koudas et al. 2009): it reads qi.csv, sa.csv and hierarchy.csv and
// re-checks Definition 3.2 per group, the fake budget and, with the
// original, Definition 3.1. It imports model, algorithms/verify and
// algorithms/risk only, never the method, so a bug in the method cannot
// hide itself here.
package check

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

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
	ids      map[string]int // NodeID -> row
	root     int
	numeric  bool
	table    *model.Table // hierarchy.csv as read
	first    []int        // leaf index range of every node
	last     []int
}

// leafCount is the number of values under node x.
func (a *annotated) leafCount(x int) int { return a.last[x] - a.first[x] + 1 }

// readHierarchy parses and validates hierarchy.csv: a single root, parents
// that exist, no cycles, every internal node's children tile its range
// without overlap, integer weights >= 0 with a positive sum per node.
func readHierarchy(rel *verify.Release) (*annotated, error) {
	t, err := rel.Table("hierarchy.csv")
	if err != nil {
		return nil, err
	}
	bad := func(line int, msg string) error {
		return &model.InputError{File: rel.Dir + "/hierarchy.csv", Line: line, Msg: msg}
	}
	if !verify.CheckHeader(t, []string{"NodeID", "ParentID", "Low", "High", "Weight"}) {
		return nil, bad(1, "expected header NodeID,ParentID,Low,High,Weight")
	}
	n := t.Rows
	a := &annotated{parent: make([]int, n), children: make([][]int, n), low: make([]string, n), high: make([]string, n),
		lowNum: make([]float64, n), highNum: make([]float64, n), weight: make([]int64, n), byBounds: map[[2]string]int{}, root: -1,
		table: t, first: make([]int, n), last: make([]int, n)}
	id := map[string]int{}
	for r := 0; r < n; r++ {
		id[t.Columns[0].Value(r)] = r
	}
	if len(id) != n {
		return nil, bad(0, "duplicate NodeID")
	}
	a.ids = id
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
	// A numeric tree reads in value order whatever the file's row order.
	if numeric {
		for x := range a.children {
			ch := a.children[x]
			sort.SliceStable(ch, func(i, j int) bool { return a.lowNum[ch[i]] < a.lowNum[ch[j]] })
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
		return nil, bad(0, "the children of some node do not tile its Low..High range, or a leaf has Low != High")
	}
	a.numeric = numeric
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

// fileDomain lists the sensitive attribute's domain under its name.
const fileDomain = "sa_domain.csv"

// Check verifies a distribution release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	m := rel.Manifest
	qi, err := rel.Table("qi.csv")
	if err != nil {
		return err
	}
	sa, err := rel.Table("sa.csv")
	if err != nil {
		return err
	}
	h, err := readHierarchy(rel)
	if err != nil {
		return err
	}
	wantQI := append([]string{"GroupID"}, m.QIs...)
	r.Add(verify.CheckHeader(qi, wantQI), "columns", "qi.csv holds GroupID and the %d quasi-identifiers only (no identifier, no sensitive value)", len(m.QIs))
	r.Add(verify.CheckHeader(sa, []string{"GroupID", "Low", "High"}), "sa columns", "sa.csv holds GroupID, Low, High only")
	// sa_domain.csv names the sensitive attribute in its header and lists
	// hierarchy.csv's leaves in order: the manifest's name is bound to it.
	dom, err := rel.Table(fileDomain)
	if err != nil {
		return err
	}
	if r.BindNames(fileDomain, dom, []string{m.SA}) {
		bad := dom.Rows != len(h.leaves)
		for i := 0; !bad && i < dom.Rows; i++ {
			bad = dom.Columns[0].Value(i) != h.low[h.leaves[i]]
		}
		r.Add(!bad, "sa domain", "%s lists the %d values of %s, hierarchy.csv's leaves in order", fileDomain, dom.Rows, m.SA)
	}
	leafIndex := make([]int, len(h.parent))
	for i, l := range h.leaves {
		leafIndex[l] = i
	}
	r.Add(true, "hierarchy", "%d nodes over %d values; children tile their parent", len(h.parent), len(h.leaves))

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
	r.Add(unknownGroup == 0 && unknownNode == 0, "subdomains", "every sa.csv row names a group of qi.csv and a node of hierarchy.csv (%d unknown groups, %d unknown subdomains)", unknownGroup, unknownNode)

	// Group weights: hierarchy.csv's, or per group from group_weights.csv.
	groupWeights, gw, err := readGroupWeights(rel, groupIdx, h)
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
	facts := groupFacts{sizes: sizes, nsub: nsub, qiGroup: qiGroup, qis: m.QIs,
		sor: make([]float64, len(sizes)), conf: make([]float64, len(sizes)), post: make([]float64, len(sizes))}
	for gi := range sizes {
		w := weightsOf(gi)
		target := h.mixture(w, map[int]float64{h.root: 1}, len(h.leaves), leafIndex)
		if nsub[gi] == 0 {
			worst, worstGroup = math.Inf(1), ids[gi]
			facts.post[gi] = math.Inf(1)
			continue
		}
		mix := h.mixture(w, subs[gi], len(h.leaves), leafIndex)
		for i := range mix {
			d := math.Abs(mix[i]/float64(nsub[gi]) - target[i])
			if d < 1e-12 {
				d = 0 // floating-point noise, as the method rounds it
			}
			facts.post[gi] = math.Max(facts.post[gi], d)
			if d > worst {
				worst, worstGroup = d, ids[gi]
			}
		}
	}
	// A target that gives one value probability 1 discloses every value of
	// its group, however private the generalization.
	certain, maxConf := 0, 0.0
	for gi := range sizes {
		top := 0.0
		for _, p := range h.mixture(weightsOf(gi), map[int]float64{h.root: 1}, len(h.leaves), leafIndex) {
			top = math.Max(top, p)
		}
		maxConf = math.Max(maxConf, top)
		facts.conf[gi] = top
		if top >= 1-1e-6 {
			certain++
		}
	}
	ok := worst <= 1e-9
	if ok {
		r.Add(true, "P'-privacy", "in all %d groups every value's posterior equals the effective target (Definition 3.2; max deviation %.2g)", len(sizes), worst)
	} else {
		r.Add(false, "P'-privacy", "group %s: posterior deviates from the target by %.4g (Definition 3.2)", worstGroup, worst)
	}

	r.Add(certain == 0, "disclosure", "no group's target gives one value probability 1 (%d groups do)", certain)

	// Fakes: each group needs at least one subdomain per tuple, and the
	// extra ones (fakes) must fit the budget.
	budget, berr := parseFakes(orDefault(m.Parameters["fakes"], "0"))
	short, over, fakes := 0, 0, 0
	for gi := range sizes {
		f := nsub[gi] - sizes[gi]
		if f < 0 {
			short++
			continue
		}
		fakes += f
		if berr == nil && f > budget(sizes[gi]) {
			over++
		}
	}
	r.Add(short == 0, "tuples covered", "every group has at least one subdomain per published tuple (%d groups short)", short)
	r.Add(over == 0 && berr == nil, "fake budget", "%d fake values in all, every group within the budget %s (%d groups over)", fakes, orDefault(m.Parameters["fakes"], "0"), over)

	// The claims: the manifest's counts, worst cases and utility against
	// the files. Ranges are max-min of numeric subdomains and the number
	// of values minus one of categorical ones (footnote 3).
	sor := 0.0
	for gi := range subs {
		for x, c := range subs[gi] {
			if h.numeric {
				facts.sor[gi] += c * (h.highNum[x] - h.lowNum[x])
			} else {
				facts.sor[gi] += c * float64(h.leafCount(x)-1)
			}
		}
		sor += facts.sor[gi]
	}
	facts.qiValues = make([][]string, qi.Rows)
	for row := range facts.qiValues {
		for _, c := range qi.Columns[1:] {
			facts.qiValues[row] = append(facts.qiValues[row], c.Value(row))
		}
	}
	rc := verify.Recomputed{Groups: len(sizes), Published: qi.Rows,
		Tables: map[string]*model.Table{"qi.csv": qi, "sa.csv": sa, "hierarchy.csv": h.table},
		Figures: map[string]float64{
			"posterior deviation (max)": worst, "max P'(v) in a group": maxConf,
			"sum of ranges": sor, "avg range per subdomain": sor / math.Max(1, float64(sa.Rows)),
		},
		Holds: map[string]bool{"posterior deviation (max)": worst <= 1e-9, "max P'(v) in a group": maxConf <= 1-1e-6},
		Later: map[string]bool{"members with P'(v) = 0": true},
		// Definition 3.2 holds exactly, no value may be certain, no member
		// impossible: the method's fixed limits.
		Limits:   map[string]string{"posterior deviation (max)": "0", "max P'(v) in a group": "< 1", "members with P'(v) = 0": "0"},
		Complete: true,
	}
	if gw != nil {
		rc.Tables["group_weights.csv"] = gw
	}
	if opt.Original != nil {
		targetOf := func(gi int) []float64 {
			return h.mixture(weightsOf(gi), map[int]float64{h.root: 1}, len(h.leaves), leafIndex)
		}
		zero, err := checkAgainstOriginal(m, qi, qiGroup, subs, h, leafIndex, targetOf, opt.Original, opt.Audit, r)
		if err != nil {
			return err
		}
		if zero != nil {
			impossible := sumFloats(zero)
			rc.Figures["members with P'(v) = 0"] = impossible
			rc.Holds["members with P'(v) = 0"] = impossible == 0
			facts.zero = zero
		}
	}
	r.Compare(rel, rc, opt)
	checkDetails(rel, h, weightsOf, gw != nil, facts, opt, r)
	return nil
}

// parseFakes reads the fake budget "N" or "P%" (Koudas et al. 2009,
// Sections 5 and 6.2) and returns the budget of a group of n tuples.
func parseFakes(s string) (func(n int) int, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(x >= 0) || x > 1000 {
			return nil, fmt.Errorf("bad percentage %q", s)
		}
		return func(n int) int { return int(math.Floor(x*float64(n)/100 + 1e-9)) }, nil
	}
	c, err := strconv.Atoi(s)
	if err != nil || c < 0 {
		return nil, fmt.Errorf("bad count %q", s)
	}
	return func(int) int { return c }, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// readGroupWeights reads group_weights.csv (per-group targets), if the
// release has one: each group's weight for every node, by NodeID, with the
// same rule as hierarchy.csv (every internal node's children's weights
// have a positive sum).
func readGroupWeights(rel *verify.Release, groupIdx map[string]int, h *annotated) ([][]int64, *model.Table, error) {
	if !rel.Has("group_weights.csv") {
		return nil, nil, nil
	}
	t, err := rel.Table("group_weights.csv")
	if err != nil {
		return nil, nil, err
	}
	file := rel.Dir + "/group_weights.csv"
	if !verify.CheckHeader(t, []string{"GroupID", "NodeID", "Weight"}) {
		return nil, nil, &model.InputError{File: file, Line: 1, Msg: "expected header GroupID,NodeID,Weight"}
	}
	nodes := len(h.parent)
	out := make([][]int64, len(groupIdx))
	seen := make([][]bool, len(groupIdx))
	for row := 0; row < t.Rows; row++ {
		gi, ok := groupIdx[t.Columns[0].Value(row)]
		node, known := h.ids[t.Columns[1].Value(row)]
		w, err := strconv.ParseInt(t.Columns[2].Value(row), 10, 64)
		if !ok || !known || err != nil || w < 0 {
			return nil, nil, &model.InputError{File: file, Line: row + 2, Msg: "unknown GroupID or NodeID, or a Weight that is not an integer >= 0"}
		}
		if out[gi] == nil {
			out[gi] = make([]int64, nodes)
			seen[gi] = make([]bool, nodes)
		}
		if seen[gi][node] {
			return nil, nil, &model.InputError{File: file, Line: row + 2, Msg: "weight given twice for this group and node"}
		}
		out[gi][node], seen[gi][node] = w, true
	}
	for gi, ws := range out {
		if ws == nil {
			continue
		}
		for x := range h.children {
			if !seen[gi][x] {
				return nil, nil, &model.InputError{File: file, Msg: fmt.Sprintf("a group lacks the weight of NodeID %s", nodeName(h, x))}
			}
			if len(h.children[x]) == 0 {
				continue
			}
			var sum int64
			for _, c := range h.children[x] {
				sum += ws[c]
			}
			if sum <= 0 {
				return nil, nil, &model.InputError{File: file, Msg: fmt.Sprintf("in a group the children of NodeID %s have weights summing to 0", nodeName(h, x))}
			}
		}
	}
	return out, t, nil
}

func nodeName(h *annotated, x int) string {
	for id, i := range h.ids {
		if i == x {
			return id
		}
	}
	return strconv.Itoa(x)
}

// checkAgainstOriginal compares the release with the original table and
// returns per group the members whose value the target makes impossible
// (nil when the comparison stopped early).
// Published tuples are matched with original rows by their QI values
// (after the release's missing-value policy); when the audit record is
// given it pins each published row to its input row instead. Definition
// 3.1 is then checked group by group as a maximum flow from the group's
// original values into the subdomains that contain them. Without the
// audit, that is exact only when every QI combination lies in one group;
// otherwise which original row is which published row is not fixed by the
// files, and the line says so and fails.
func checkAgainstOriginal(m *model.Manifest, qi *model.Table, qiGroup []int, subs []map[int]float64,
	h *annotated, leafIndex []int, targetOf func(int) []float64, orig *model.Table, audit *model.Audit, r *verify.Report) ([]float64, error) {
	o, err := verify.NewOriginals(orig, m)
	if err != nil {
		return nil, err
	}
	keys, same := o.SameTuples("qi.csv", qi.Columns[1:], qi.Rows, r)
	if !same {
		return nil, nil
	}
	groupsOf := map[string]map[int]bool{}
	for row, k := range keys {
		if groupsOf[k] == nil {
			groupsOf[k] = map[int]bool{}
		}
		groupsOf[k][qiGroup[row]] = true
	}
	pinned, ok := o.Pin("qi.csv", keys, audit, func(k string) bool { return len(groupsOf[k]) <= 1 }, r)
	if !ok {
		return nil, nil
	}

	// Leaf of each original SA value in the hierarchy.
	leafOf := map[string]int{}
	numLeaf := map[float64]int{}
	for _, l := range h.leaves {
		leafOf[h.low[l]] = l
		numLeaf[h.lowNum[l]] = l
	}
	saCol := o.SA
	groupValues := make([]map[int]int, len(subs))
	for i, row := range pinned {
		v, _ := o.Text(saCol, row)
		l, ok := leafOf[v]
		if !ok && saCol.Kind == model.Numeric && !saCol.IsMissing(row) {
			l, ok = numLeaf[saCol.Num(row)]
		}
		if !ok {
			r.Add(false, "generalization", "original value %q of %s is not in hierarchy.csv", v, m.SA)
			return nil, nil
		}
		g := qiGroup[i]
		if groupValues[g] == nil {
			groupValues[g] = map[int]int{}
		}
		groupValues[g][l]++
	}
	// A value the target makes impossible is betrayed by its subdomain.
	impossible := 0
	zero := make([]float64, len(subs))
	for g, vals := range groupValues {
		if len(vals) == 0 {
			continue
		}
		tgt := targetOf(g)
		for l, c := range vals {
			if tgt[leafIndex[l]] == 0 {
				impossible += c
				zero[g] += float64(c)
			}
		}
	}
	r.Add(impossible == 0, "support", "every original value has positive probability under its group's target (%d do not)", impossible)
	matched, total := matchGroups(groupValues, subs, h)
	if matched == total {
		r.Add(true, "generalization", "every original value maps to a distinct subdomain of its group that contains it (Definition 3.1; %d values)", total)
	} else {
		r.Add(false, "generalization", "only %d of %d original values can be mapped into their groups' subdomains (Definition 3.1)", matched, total)
	}
	verify.Shuffled("qi.csv", pinned, len(groupsOf), r)
	return zero, nil
}

// matchGroups finds, per group, a maximum matching of its original values
// (leaf -> count) into its subdomains (node -> copies), where a value may
// take any subdomain on its leaf's path to the root.
func matchGroups(values []map[int]int, subs []map[int]float64, h *annotated) (matched, total int) {
	for g, vals := range values {
		if len(vals) == 0 {
			continue
		}
		f := verify.NewFlow()
		src, sink := f.Node(), f.Node()
		nodeOf := map[int]int{}
		for l, c := range vals {
			total += c
			v := f.Node()
			f.Edge(src, v, c)
			for x := l; x >= 0; x = h.parent[x] {
				cnt := int(subs[g][x])
				if cnt == 0 {
					continue
				}
				n, ok := nodeOf[x]
				if !ok {
					n = f.Node()
					nodeOf[x] = n
					f.Edge(n, sink, cnt)
				}
				f.Edge(v, n, c)
			}
		}
		matched += f.MaxFlow(src, sink)
	}
	return matched, total
}
