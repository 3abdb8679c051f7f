package check

import (
	"fmt"
	"math"
	"strconv"

	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// groups are the groups of qi.csv and the subdomains sa.csv gives them,
// read on dictionary codes (a text per distinct value, not per row).
type groups struct {
	ids   []string // GroupID of every group, in order of first appearance
	index map[string]int
	sizes []int   // qi.csv rows per group
	of    []int32 // the group of every qi.csv row
	subs  []map[int]float64
	nsub  []int // sa.csv rows per group
	// unknownGroup and unknownNode count sa.csv rows naming a group qi.csv
	// lacks or bounds hierarchy.csv lacks.
	unknownGroup, unknownNode int
}

// readGroups groups qi.csv's rows by GroupID and counts sa.csv's
// subdomains per group and node.
func readGroups(qi, sa *model.Table, h *annotated) *groups {
	g := groupRows(qi)
	g.subdomains(sa, h)
	return g
}

// groupRows groups qi.csv's rows by GroupID.
func groupRows(qi *model.Table) *groups {
	g := &groups{index: map[string]int{}, of: make([]int32, qi.Rows)}
	id := qi.Columns[0]
	byCode := make([]int32, len(id.Dict)+1)
	for i := range byCode {
		byCode[i] = -1
	}
	for row := 0; row < qi.Rows; row++ {
		code := verify.Code(id, row)
		gi := byCode[code]
		if gi < 0 {
			gi = int32(len(g.ids))
			byCode[code] = gi
			g.ids = append(g.ids, id.Value(row))
			g.index[id.Value(row)] = int(gi)
			g.sizes = append(g.sizes, 0)
		}
		g.sizes[gi]++
		g.of[row] = gi
	}
	return g
}

// subdomains counts sa.csv's rows per group and node.
func (g *groups) subdomains(sa *model.Table, h *annotated) {
	g.subs = make([]map[int]float64, len(g.sizes))
	g.nsub = make([]int, len(g.sizes))
	groupOf := codeLookup(sa.Columns[0], g.index)
	// Sized for every node of the hierarchy at most (issue 20's
	// 20,000-value domain has as many distinct bounds as rows): grown
	// from empty, each map was rehashed a dozen times.
	nodeOf := make(map[[2]uint32]int, min(sa.Rows, len(h.byBounds)+1))
	lo, hi := sa.Columns[1], sa.Columns[2]
	for row := 0; row < sa.Rows; row++ {
		gi := groupOf[verify.Code(sa.Columns[0], row)]
		if gi < 0 {
			g.unknownGroup++
			continue
		}
		key := [2]uint32{uint32(verify.Code(lo, row)), uint32(verify.Code(hi, row))}
		x, seen := nodeOf[key]
		if !seen {
			x = -1
			if n, ok := h.byBounds[[2]string{lo.Value(row), hi.Value(row)}]; ok {
				x = n
			}
			nodeOf[key] = x
		}
		if x < 0 {
			g.unknownNode++
			continue
		}
		if g.subs[gi] == nil {
			g.subs[gi] = make(map[int]float64, min(g.sizes[gi], len(h.byBounds)))
		}
		g.subs[gi][x]++
		g.nsub[gi]++
	}
}

// codeLookup maps each code of c (and its missing value, last) to the
// index its text has in index (-1: none).
func codeLookup(c *model.Column, index map[string]int) []int {
	out := make([]int, len(c.Dict)+1)
	for code := range out {
		out[code] = -1
		text := ""
		if code < len(c.Dict) {
			text = c.Dict[code]
		}
		if i, ok := index[text]; ok {
			out[code] = i
		}
	}
	return out
}

// weights are the hierarchy's weights every group's target follows:
// hierarchy.csv's, or its own from group_weights.csv.
type weights struct {
	perGroup [][]int64 // nil, or per group (nil: hierarchy.csv's)
	table    *model.Table
	h        *annotated
	shared   []float64 // the target of hierarchy.csv's weights
}

// targetOf is group gi's target, computed once per distinct weights
// (every group shares hierarchy.csv's unless group_weights.csv gives
// its own). Not safe for use at once: a fact's computation calls it.
func (w *weights) targetOf(gi int) []float64 {
	if w.perGroup == nil || w.perGroup[gi] == nil {
		if w.shared == nil {
			w.shared = w.h.target(w.h.weight)
		}
		return w.shared
	}
	return w.h.target(w.perGroup[gi])
}

// of is group gi's weights.
func (w *weights) of(gi int) []int64 {
	if w.perGroup != nil && w.perGroup[gi] != nil {
		return w.perGroup[gi]
	}
	return w.h.weight
}

// readGroupWeights reads group_weights.csv (per-group targets), if the
// release has one: each group's weight for every node, by NodeID, with the
// same rule as hierarchy.csv (every internal node's children's weights
// have a positive sum).
func readGroupWeights(rel *verify.Release, g *groups, h *annotated) (*weights, error) {
	w := &weights{h: h}
	if !rel.Has(format.FileGroupWeights) {
		return w, nil
	}
	t, err := rel.Table(format.FileGroupWeights)
	if err != nil {
		return nil, err
	}
	w.table = t
	file := rel.Dir + "/" + format.FileGroupWeights
	if !verify.CheckHeader(t, format.GroupWeightsHeader) {
		return nil, &model.InputError{File: file, Line: 1, Msg: "expected header GroupID,NodeID,Weight"}
	}
	var seen [][]bool
	if w.perGroup, seen, err = parseGroupWeights(t, file, g, h); err != nil {
		return nil, err
	}
	return w, w.complete(file, seen)
}

// parseGroupWeights reads each row's group, node and weight.
func parseGroupWeights(t *model.Table, file string, g *groups, h *annotated) ([][]int64, [][]bool, error) {
	groupOf := codeLookup(t.Columns[0], g.index)
	nodeOf := codeLookup(t.Columns[1], h.ids)
	out := make([][]int64, len(g.sizes))
	seen := make([][]bool, len(g.sizes))
	for row := 0; row < t.Rows; row++ {
		gi, node := groupOf[verify.Code(t.Columns[0], row)], nodeOf[verify.Code(t.Columns[1], row)]
		w, err := strconv.ParseInt(t.Columns[2].Value(row), 10, 64)
		if gi < 0 || node < 0 || err != nil || w < 0 {
			return nil, nil, &model.InputError{File: file, Line: row + 2, Msg: "unknown GroupID or NodeID, or a Weight that is not an integer >= 0"}
		}
		if out[gi] == nil {
			out[gi], seen[gi] = make([]int64, len(h.parent)), make([]bool, len(h.parent))
		}
		if seen[gi][node] {
			return nil, nil, &model.InputError{File: file, Line: row + 2, Msg: "weight given twice for this group and node"}
		}
		out[gi][node], seen[gi][node] = w, true
	}
	return out, seen, nil
}

// complete: a group that gives weights gives one for every node, and the
// children of every internal node have weights with a positive sum.
func (w *weights) complete(file string, seen [][]bool) error {
	h := w.h
	for gi, ws := range w.perGroup {
		if ws == nil {
			continue
		}
		for x := range h.children {
			if !seen[gi][x] {
				return &model.InputError{File: file, Msg: fmt.Sprintf("a group lacks the weight of NodeID %s", nodeName(h, x))}
			}
			if len(h.children[x]) == 0 {
				continue
			}
			var sum int64
			for _, c := range h.children[x] {
				sum += ws[c]
			}
			if sum <= 0 {
				return &model.InputError{File: file, Msg: fmt.Sprintf("in a group the children of NodeID %s have weights summing to 0", nodeName(h, x))}
			}
		}
	}
	return nil
}

func nodeName(h *annotated, x int) string {
	for id, i := range h.ids {
		if i == x {
			return id
		}
	}
	return strconv.Itoa(x)
}

// posteriors are Definition 3.2 per group: the largest deviation of a
// value's posterior from the target, and the target's largest
// probability (a value the target makes certain is disclosed).
type posteriors struct {
	post, conf     []float64
	worst, maxConf float64
	worstGroup     string
	certain        int
	targets        [][]float64 // every group's target
}

// posteriorsOf computes them: for every group and value t,
// P'(t) = (1/n) sum_i P'(t | D_i) against the group's target.
func posteriorsOf(g *groups, w *weights) *posteriors {
	h := w.h
	p := &posteriors{post: make([]float64, len(g.sizes)), conf: make([]float64, len(g.sizes)), targets: make([][]float64, len(g.sizes))}
	for gi := range g.sizes {
		p.targets[gi] = w.targetOf(gi)
	}
	for gi := range g.sizes {
		target := p.targets[gi]
		for _, x := range target {
			p.conf[gi] = math.Max(p.conf[gi], x)
		}
		p.maxConf = math.Max(p.maxConf, p.conf[gi])
		if p.conf[gi] >= 1-1e-6 {
			p.certain++
		}
		if g.nsub[gi] == 0 {
			p.worst, p.worstGroup, p.post[gi] = math.Inf(1), g.ids[gi], math.Inf(1)
			continue
		}
		for i, x := range h.mixture(w.of(gi), g.subs[gi]) {
			d := math.Abs(x/float64(g.nsub[gi]) - target[i])
			if d < 1e-12 {
				d = 0 // floating-point noise, as the method rounds it
			}
			p.post[gi] = math.Max(p.post[gi], d)
			if d > p.worst {
				p.worst, p.worstGroup = d, g.ids[gi]
			}
		}
	}
	return p
}
