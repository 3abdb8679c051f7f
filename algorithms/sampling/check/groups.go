package check

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"privlab/algorithms/sampling/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// groups are published.csv's equivalence groups (Sattar et al.,
// Definition 8: records with identical generalized values), read on
// dictionary codes: every distinct label is looked up in its taxonomy
// once.
type groups struct {
	nodes [][]int       // per group, its node per QI
	size  []int         // records per group
	sa    []map[int]int // per group, records per sensitive value (code)
	// belowMin counts published values with fewer levels of taxonomy
	// below them than the minimum generalization asks.
	belowMin int
}

// groupsOf reads the groups once.
func (c *release) groupsOf() (*groups, error) {
	return c.groups.Get(func() (*groups, error) { return readGroups(c) })
}

// readGroups groups published.csv's rows; a label that is not a node of
// its QI's taxonomy makes the file unreadable.
func readGroups(c *release) (*groups, error) {
	t, d := c.t, len(c.m.QIs)
	node := make([][]int, d) // per QI, per code
	radix := make([]uint64, d)
	for i, tr := range c.trees {
		node[i] = make([]int, len(t.Columns[i].Dict)+1)
		for code := range node[i] {
			x, ok := tr.byLabel[labelOf(t.Columns[i], code)]
			node[i][code] = map[bool]int{true: x, false: -1}[ok]
		}
		radix[i] = uint64(len(tr.nodes))
	}
	g := &groups{}
	keys := verify.NewTupleKeys(radix)
	codes := make([]uint32, d)
	for row := 0; row < t.Rows; row++ {
		for i, tr := range c.trees {
			x := node[i][verify.Code(t.Columns[i], row)]
			if x < 0 {
				text := t.Columns[i].Value(row)
				return nil, &model.InputError{File: filepath.Join(c.rel.Dir, file), Line: row + 2, Column: i + 1, Field: c.m.QIs[i],
					Msg: fmt.Sprintf("%q is not a value of the taxonomy of %s", text, c.m.QIs[i])}
			}
			codes[i] = uint32(x)
			if l := c.mg[c.m.QIs[i]]; l > 0 && x != 0 && tr.below[x] < l {
				g.belowMin++
			}
		}
		id := keys.ID(codes)
		if int(id) == len(g.size) {
			nodes := make([]int, d)
			for i, x := range codes {
				nodes[i] = int(x)
			}
			g.nodes, g.size, g.sa = append(g.nodes, nodes), append(g.size, 0), append(g.sa, map[int]int{})
		}
		g.size[id]++
		g.sa[id][verify.Code(t.Columns[d], row)]++
	}
	return g, nil
}

// labelOf is a code's text ("" for the missing value, last).
func labelOf(c *model.Column, code int) string {
	if code < len(c.Dict) {
		return c.Dict[code]
	}
	return ""
}

// confidences are Eq. 3 and Definition 10 over the groups: the worst
// margin of expected over observed confidence, the records that break
// Eq. 3 or the distortion limit, the distortions.
type confidences struct {
	worstMargin, maxDist, avgDist float64
	worstAt                       string
	violating, over, unknownSA    int
}

// confidencesOf computes them once.
func (c *release) confidencesOf() (*confidences, error) {
	return c.conf.Get(func() (*confidences, error) {
		g, err := c.groupsOf()
		if err != nil {
			return nil, err
		}
		return confidencesOf(c, g), nil
	})
}

// confidencesOf checks Eq. 3 for every record (beta·#s/|E| <= 1 -
// (1 - Pr(t))^n, with Pr(t) the product of the published values' masses
// and of Pr(s)) and its distortion, exactly, against delta'.
func confidencesOf(c *release, g *groups) *confidences {
	beta, _ := param(c.m, "sampling-rate")
	deltaB, _ := model.ParseBound(format.ParamMaxDistortion.Text(c.m.Parameters))
	n, d := c.t.Rows, len(c.trees)
	sa := c.t.Columns[d]
	f := &confidences{worstMargin: math.Inf(1)}
	sumDist := 0.0
	for gi, nodes := range g.nodes {
		p, terms := 1.0, 0.0
		for i, x := range nodes {
			p *= c.trees[i].mass[x]
			terms += c.trees[i].term(x)
		}
		dist := terms / float64(d)
		f.maxDist = math.Max(f.maxDist, dist)
		sumDist += dist * float64(g.size[gi])
		if !deltaB.AllowsRat(exactDistortion(c.trees, nodes)) {
			f.over += g.size[gi]
		}
		for _, code := range sortedCodes(g.sa[gi]) {
			count, s := g.sa[gi][code], labelOf(sa, code)
			ps, known := c.saP[s]
			if !known {
				f.unknownSA += count
			}
			exp := expected(p*ps, n)
			obs := beta * float64(count) / float64(g.size[gi])
			if margin := exp - obs; margin < f.worstMargin {
				f.worstMargin = margin
				f.worstAt = fmt.Sprintf("%s = %s in the group %s", c.m.SA, s, label(c.trees, nodes))
			}
			if obs > exp+tolerance {
				f.violating += count
			}
		}
	}
	if n == 0 {
		f.worstMargin = 0
	}
	f.avgDist = sumDist / math.Max(1, float64(n))
	return f
}

func label(trees []*tree, nodes []int) string {
	parts := make([]string, len(nodes))
	for i, x := range nodes {
		parts[i] = trees[i].nodes[x].Value
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// sortedCodes lists a group's sensitive values in code order (the worst
// margin's place reads the same on every run).
func sortedCodes(m map[int]int) []int {
	out := make([]int, 0, len(m))
	for code := range m {
		out = append(out, code)
	}
	sort.Ints(out)
	return out
}
