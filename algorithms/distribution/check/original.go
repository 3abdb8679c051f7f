package check

import (
	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
)

// original is the release compared with the original table (Koudas et
// al. 2009, Definition 3.1). Published tuples are matched with original
// rows by their QI values (under the release's missing-value policy);
// the audit record, when given, pins each published row to its input row
// instead. Without it the pinning is exact only when every QI combination
// lies in one group; otherwise which original row is which published row
// is not fixed by the files (pinning fails and says so).
type original struct {
	o     *verify.Original
	match *verify.TupleMatch
	pin   *verify.Pinning // nil when the tuples differ
	// badValue is an original value hierarchy.csv lacks (bad: one was
	// found, and nothing further is compared).
	badValue string
	bad      bool
	// values counts every group's original values by leaf node; zero
	// counts the members whose value the group's target makes impossible.
	values     []map[int]int
	zero       []float64
	impossible int
}

// pinned reports whether the published rows are pinned to original rows
// whose values the hierarchy knows: the comparisons can be made.
func (f *original) pinned() bool { return f.pin != nil && f.pin.Rows != nil && !f.bad }

// originalOf compares the release with the original, once.
func (c *release) originalOf() (*original, error) {
	return c.original.Get(func() (*original, error) {
		o, err := verify.NewOriginal(c.opt.Original, c.m)
		if err != nil {
			return nil, err
		}
		f := &original{o: o, match: o.Match(format.FileQI, c.qi.Columns[1:], c.qi.Rows)}
		if !f.match.Same() {
			return f, nil
		}
		g := c.groupsOf()
		f.pin = f.match.Pin(c.opt.Audit, oneGroup(f.match, g))
		if f.pin.Rows == nil {
			return f, nil
		}
		f.countValues(c.h, g)
		if !f.bad {
			p, err := c.posteriorsOf()
			if err != nil {
				return nil, err
			}
			f.impossibleValues(c.h, p)
		}
		return f, nil
	})
}

// oneGroup says whether a tuple's published rows lie in one group (its
// rows are then interchangeable: any may stand for any original row).
func oneGroup(t *verify.TupleMatch, g *groups) func(id int32) bool {
	group := make([]int32, t.Tuples)
	for i := range group {
		group[i] = -1
	}
	spans := make([]bool, t.Tuples)
	for row, id := range t.Pub {
		if group[id] >= 0 && group[id] != g.of[row] {
			spans[id] = true
		}
		group[id] = g.of[row]
	}
	return func(id int32) bool { return !spans[id] }
}

// countValues counts each group's original values by leaf, reading the
// sensitive column's codes (a value is looked up once, not once per row).
func (f *original) countValues(h *annotated, g *groups) {
	col := f.o.SA
	texts := f.o.Texts(col)
	leaf := h.leafAt(col, texts)
	for code, i := range leaf {
		if i >= 0 {
			leaf[code] = h.leaves[i]
		}
	}
	f.values = make([]map[int]int, len(g.sizes))
	for i, row := range f.pin.Rows {
		l := leaf[verify.Code(col, row)]
		if l < 0 {
			f.bad, f.badValue = true, texts[verify.Code(col, row)]
			return
		}
		gi := g.of[i]
		if f.values[gi] == nil {
			f.values[gi] = map[int]int{}
		}
		f.values[gi][l]++
	}
}

// impossibleValues counts the members whose value has probability 0
// under their group's target: their subdomain betrays them.
func (f *original) impossibleValues(h *annotated, p *posteriors) {
	f.zero = make([]float64, len(f.values))
	for gi, vals := range f.values {
		if len(vals) == 0 {
			continue
		}
		target := p.targets[gi]
		for l, n := range vals {
			if target[h.leafIndex[l]] == 0 {
				f.impossible += n
				f.zero[gi] += float64(n)
			}
		}
	}
}

// sameTuples: qi.csv's QI tuples are exactly the original's.
func sameTuples(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil {
		return err
	}
	r.AddTuples(f.match)
	return nil
}

// pinning: the audit record pins every published row to its input row,
// or the files do (every QI combination in one group).
func pinning(c *release, r *verify.Report) error {
	if f, err := c.originalOf(); err == nil && f.pin != nil {
		r.AddPinning(f.pin)
	}
	return nil
}

// support: every original value has positive probability under its
// group's target (a value the target makes impossible is betrayed by its
// subdomain). An original value hierarchy.csv lacks fails the
// generalization here, and nothing further is compared.
func support(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil || f.pin == nil || f.pin.Rows == nil {
		return nil
	}
	if f.bad {
		r.Add(false, "generalization", "original value %q of %s is not in hierarchy.csv", f.badValue, c.m.SA)
		return nil
	}
	r.Add(f.impossible == 0, "support", "every original value has positive probability under its group's target (%d do not)", f.impossible)
	return nil
}

// generalization is Definition 3.1: every original value maps to a
// distinct subdomain of its group that contains it, checked group by
// group as a maximum flow from the group's values into its subdomains.
func generalization(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil || !f.pinned() {
		return nil
	}
	matched, total := matchGroups(f.values, c.groupsOf().subs, c.h)
	if matched == total {
		r.Add(true, "generalization", "every original value maps to a distinct subdomain of its group that contains it (Definition 3.1; %d values)", total)
	} else {
		r.Add(false, "generalization", "only %d of %d original values can be mapped into their groups' subdomains (Definition 3.1)", matched, total)
	}
	return nil
}

// shuffled: qi.csv's rows are not in the input's order.
func shuffled(c *release, r *verify.Report) error {
	if f, err := c.originalOf(); err == nil && f.pinned() {
		verify.ShuffledKeys(format.FileQI, f.pin.Rows, f.pin.Keys, f.match.Tuples, r)
	}
	return nil
}

// matchGroups finds, per group, a maximum matching of its original values
// (leaf -> count) into its subdomains (node -> copies), where a value may
// take any subdomain on its leaf's path to the root.
func matchGroups(values []map[int]int, subs []map[int]float64, h *annotated) (matched, total int) {
	f := verify.NewFlow()
	nodeOf := make([]int, len(h.parent)) // hierarchy node -> flow node + 1 (0: none yet)
	var touched []int
	depth := 0 // the most nodes on a leaf's path to the root
	for _, l := range h.leaves {
		d := 0
		for x := l; x >= 0 && d <= len(h.parent); x = h.parent[x] {
			d++
		}
		depth = max(depth, d)
	}
	for g, vals := range values {
		if len(vals) == 0 {
			continue
		}
		f.Reset()
		for _, x := range touched {
			nodeOf[x] = 0
		}
		touched = touched[:0]
		// Each value: a node, an edge from the source and at most two
		// per subdomain on its path (into it, and its own to the sink).
		f.Grow(2+len(vals)+len(subs[g]), len(vals)+len(subs[g])+len(vals)*min(len(subs[g]), depth))
		src, sink := f.Node(), f.Node()
		for l, n := range vals {
			total += n
			v := f.Node()
			f.Edge(src, v, n)
			for x := l; x >= 0; x = h.parent[x] {
				copies := int(subs[g][x])
				if copies == 0 {
					continue
				}
				if nodeOf[x] == 0 {
					nodeOf[x] = f.Node() + 1
					touched = append(touched, x)
					f.Edge(nodeOf[x]-1, sink, copies)
				}
				f.Edge(v, nodeOf[x]-1, n)
			}
		}
		matched += f.MaxFlow(src, sink)
	}
	return matched, total
}
