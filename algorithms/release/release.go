// Package release holds what every method needs to turn its groups into a
// publishable release and into the workbench's preview: group summaries
// (QI ranges or common generalizations, SA histograms), shuffled tables,
// the manifest's common part and report.md. Methods build their own files
// with it; nothing here knows a method.
package release

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// Dropped lists the table's columns a release leaves out: identifiers
// and insensitive columns (and the SA when the method reads none).
func Dropped(t *model.Table, roles model.Roles) []string {
	out := []string{}
	for _, c := range t.Columns {
		if role := roles.Of(c.Name); role == model.Identifier || role == model.Insensitive {
			out = append(out, c.Name)
		}
	}
	return out
}

// QISummary describes each QI over a group's rows: the value when all
// share it, else the lowest common generalization in the QI's hierarchy
// (categorical, or numeric codes masked: 911**), or the range (numeric).
func QISummary(in *method.Input, rows []int32) []string {
	out := make([]string, len(in.Roles.QIs))
	for qi, name := range in.Roles.QIs {
		out[qi] = Summary(in.Table.Column(name), in.Hierarchies[name], rows)
	}
	return out
}

// Summary describes one column over rows (see QISummary).
func Summary(c *model.Column, h *hierarchy.Hierarchy, rows []int32) string {
	if len(rows) == 0 {
		return ""
	}
	first := c.Codes[rows[0]]
	same := true
	for _, row := range rows {
		if c.Codes[row] != first {
			same = false
			break
		}
	}
	if same {
		return c.Value(int(rows[0]))
	}
	if c.Kind == model.Numeric && h != nil {
		// A numeric code under a masking hierarchy reads as the papers
		// write it, 911** (Koudas et al. 2009, Figure 2), not 91110-91130.
		if label := LCALabel(h, c, rows); label != "*" && strings.Contains(label, "*") {
			return label
		}
	}
	if c.Kind == model.Numeric {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, row := range rows {
			if c.Codes[row] != model.Missing {
				v := c.Num(int(row))
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		return model.RangeLabel(model.FormatNumber(lo), model.FormatNumber(hi))
	}
	label := LCALabel(h, c, rows)
	if !strings.Contains(label, "*") {
		return label
	}
	// A bare * or a masked word says nothing: name the values instead,
	// in the hierarchy's order.
	seen := map[uint32]bool{}
	var vals []string
	for _, r := range rows {
		if code := c.Codes[r]; code != model.Missing && !seen[code] {
			seen[code] = true
			vals = append(vals, c.Dict[code])
		}
	}
	if len(vals) > 0 && !hasLetter(vals[0]) {
		return label // a masked code (911**) reads as it is
	}
	pos := func(v string) int {
		if h != nil {
			if l, ok := h.Leaf(v); ok {
				return h.LeafPos(l)
			}
		}
		return 0
	}
	sort.SliceStable(vals, func(i, j int) bool {
		return pos(vals[i]) < pos(vals[j]) || (pos(vals[i]) == pos(vals[j]) && vals[i] < vals[j])
	})
	return ValuesLabel(vals[0], vals[len(vals)-1], len(vals))
}

// ValuesLabel names count values, first to last in hierarchy order, as
// the group and hierarchy labels read: {9th} for one, {F, M} for two,
// {Adm-clerical, …, Sales} (4 values) for more (issue 35 polish: a
// masking node of one value read {9th, …, 9th} (1 values)).
func ValuesLabel(first, last string, count int) string {
	switch {
	case count <= 1:
		return "{" + first + "}"
	case count == 2:
		return "{" + first + ", " + last + "}"
	}
	return fmt.Sprintf("{%s, …, %s} (%d values)", first, last, count)
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// LCALabel is the label of the lowest node of h that covers every value
// of c in rows ("*" without a hierarchy).
func LCALabel(h *hierarchy.Hierarchy, c *model.Column, rows []int32) string {
	if h == nil {
		return "*"
	}
	lca := -1
	for _, row := range rows {
		l, ok := h.Leaf(c.Value(int(row)))
		if !ok {
			return "*"
		}
		if lca < 0 {
			lca = l
			continue
		}
		lca = CommonAncestor(h, lca, l)
	}
	if lca < 0 {
		return "*"
	}
	return h.Nodes[lca].Label
}

// CommonAncestor is the lowest node of h above both a and b.
func CommonAncestor(h *hierarchy.Hierarchy, a, b int) int {
	for !(h.Nodes[a].First <= h.Nodes[b].First && h.Nodes[b].Last <= h.Nodes[a].Last) {
		a = h.Nodes[a].Parent
	}
	return a
}

// HistBins counts leaf positions (0..n-1 of an n-leaf domain) into at
// most bins equal buckets of the domain: the preview's SA sparkline.
func HistBins(n int, positions []int32, bins int) []int32 {
	if n < bins {
		bins = n
	}
	if bins <= 0 {
		return nil
	}
	out := make([]int32, bins)
	for _, p := range positions {
		out[int(p)*bins/n]++
	}
	return out
}

// SAHist is the preview's SA sparkline of a group: its rows' SA values
// counted into at most 8 buckets of the SA hierarchy's leaf order.
func SAHist(in *method.Input, rows []int32) []int32 {
	c := in.Table.Column(in.Roles.SA)
	h := in.Hierarchies[in.Roles.SA]
	if c == nil || h == nil {
		return nil
	}
	pos := make([]int32, 0, len(rows))
	for _, r := range rows {
		if l, ok := h.Leaf(c.Value(int(r))); ok {
			pos = append(pos, int32(h.LeafPos(l)))
		}
	}
	return HistBins(len(h.Leaves), pos, 8)
}

// FigureSummary is min / mean / max of one per-group figure over the
// groups (the manifest states it; the checker recomputes it).
type FigureSummary = releasedir.FigureSummary

// Summaries summarises every per-group figure of the result whose key
// keep accepts (nil keeps all). A figure that describes a group's private
// original data is not published: leave it out with keep.
func Summaries(res *method.Result, keep func(key string) bool) []FigureSummary {
	var out []FigureSummary
	for fi, f := range res.Spec.Figures {
		if keep != nil && !keep(f.Key) {
			continue
		}
		s := FigureSummary{Figure: f.Label, Min: math.Inf(1), Max: math.Inf(-1)}
		for _, g := range res.Groups {
			x := g.Figures[fi]
			s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
			s.Mean += x / float64(len(res.Groups))
		}
		if len(res.Groups) == 0 {
			s.Min, s.Max = 0, 0
		}
		out = append(out, s)
	}
	return out
}

// Params are the parameters a manifest publishes: every value but the
// seed, which is private (it goes to the audit record).
func Params(v model.Values) map[string]string {
	out := map[string]string{}
	for k, x := range v {
		if k != "seed" {
			out[k] = x
		}
	}
	return out
}

// Manifest fills the manifest fields every release has from the run: the
// method, its variant and paper, parameters, roles, dropped columns, row
// and group counts, the worst case of every constraint and the utility.
func Manifest(res *method.Result, in *method.Input) releasedir.Manifest {
	spec := res.Spec
	m := releasedir.Manifest{
		Method: spec.Name, Variant: in.Variant, Paper: spec.Paper, Parameters: Params(res.Values),
		QIs: in.Roles.QIs, SA: in.Roles.SA, Dropped: Dropped(in.Table, in.Roles),
		RowsIn: res.RowsIn, Published: res.Published, Suppressed: res.Suppressed, Groups: len(res.Groups),
		WorstCases: []releasedir.Figure{}, Workload: res.Workload, Title: spec.Title, Certifies: spec.Certifies,
	}
	if len(spec.Variants) > 0 && m.Variant == "" {
		m.Variant = spec.Variants[0]
	}
	for _, f := range res.Summary {
		if f.Limit != "" {
			m.WorstCases = append(m.WorstCases, f)
		}
	}
	if res.Utility.Name != "" {
		m.Utility = append(m.Utility, res.Utility)
	}
	return m
}

// Shuffled returns a permutation of 0..n-1 drawn from rng: the order in
// which a table's rows are written, so that row position links no
// published table to another or to the input (SPEC 7.3).
func Shuffled(n int, rng *model.Rand) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// NumbersFrom returns the texts of base+1..base+n (NumbersFrom(b, n)[i]
// is b+i+1 written in base 10): the ids a release file writes on every
// row, made once per id rather than once per row; base is 0 for a whole
// table and a partition's range in a partitioned release
// (method.Input.IDBase), so that no two partitions share an id.
func NumbersFrom(base, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(base + i + 1)
	}
	return out
}

// Gathered is a column's values in a file's row order: the codes of the
// input rows a file writes, read once column by column (a tight loop
// whose loads do not wait on each other) so that rendering the file reads
// them in sequence rather than jumping across every column of a large
// input for each row.
type Gathered struct {
	dict  []string
	codes []uint32
}

// Gather reads col at rows (rows[i]: the input row of the file's row i).
func Gather(col *model.Column, rows []int) Gathered {
	codes := make([]uint32, len(rows))
	src := col.Codes
	for i, r := range rows {
		codes[i] = src[r]
	}
	return Gathered{dict: col.Dict, codes: codes}
}

// Value is the text of the file's row i ("" when missing), as
// model.Column.Value gives it for the input row.
func (g Gathered) Value(i int) string {
	if c := g.codes[i]; c != model.Missing {
		return g.dict[c]
	}
	return ""
}
