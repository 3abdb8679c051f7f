package check

import (
	"fmt"
	"maps"

	"privlab/algorithms/verify"
	"privlab/model"
)

// original is the release compared with the input (Sattar et al.,
// Section 4 and Algorithm 1): the records considered, the table's
// marginals when the manifest says they are the table's own, and that
// every published row is a distinct input row whose values its
// generalized values cover, with its sensitive value, each published
// value at least the minimum generalization's levels above the record's
// own value (mg). The audit record says which row is which; without it a
// maximum flow decides whether such an assignment exists.
type original struct {
	o        *verify.Original
	eligible []int // the rows the release considered
	leaf     [][]int
	// badMarginals counts the marginals that are not the table's own
	// frequencies (when the manifest says they are).
	badMarginals int
	// With the audit record's row map (rows): bad says it does not pin
	// the file; short counts values too few levels above the record's.
	rows    []int
	bad     bool
	short   int
	shortAt string
	// Without it: the largest faithful assignments with and without the
	// rule (strict, loose), and how they were found.
	byFlow        bool
	strict, loose int
	how           string
	// keys are the published rows' content keys (contentKeys) for the
	// shuffle test.
	keys []float64
}

// originalOf compares the release with the original once.
func (c *release) originalOf() (*original, error) {
	return c.original.Get(func() (*original, error) {
		o, err := verify.NewOriginal(c.opt.Original, c.m)
		if err != nil {
			return nil, err
		}
		f := &original{o: o}
		for row, kept := range o.Kept {
			if kept {
				f.eligible = append(f.eligible, row)
			}
		}
		f.leaves(c.trees)
		if c.det.Marginals == "table" {
			f.badMarginals = f.marginals(c)
			if c.opt.Whole != nil {
				f.badMarginals = wholeMarginals(c, c.opt.Whole)
			}
		}
		if c.opt.Audit != nil {
			f.rows = c.opt.Audit.RowMap[file]
		}
		if len(f.rows) == 0 && c.t.Rows > 0 {
			f.flow(c)
		} else {
			f.pinned(c)
		}
		return f, nil
	})
}

// leaves finds every original value's leaf once per value (-1: none).
func (f *original) leaves(trees []*tree) {
	f.leaf = make([][]int, len(trees))
	for i, tr := range trees {
		texts := f.o.Texts(f.o.QIs[i])
		f.leaf[i] = make([]int, len(texts))
		for code, text := range texts {
			l, ok := tr.leaf(text)
			f.leaf[i][code] = map[bool]int{true: l, false: -1}[ok]
		}
	}
}

// marginals counts the public marginals that are not the considered
// records' value frequencies, and the records a taxonomy lacks.
func (f *original) marginals(c *release) int {
	bad, n := 0, float64(len(f.eligible))
	for i, tr := range c.trees {
		counts := make([]int, len(tr.nodes))
		for _, row := range f.eligible {
			if l := f.leaf[i][verify.Code(f.o.QIs[i], row)]; l >= 0 {
				counts[l]++
			} else {
				bad++
			}
		}
		for _, l := range tr.leaves {
			if tr.nodes[l].P != float64(counts[l])/n {
				bad++
			}
		}
	}
	texts := f.o.Texts(f.o.SA)
	byCode := make([]int, len(texts))
	for _, row := range f.eligible {
		byCode[verify.Code(f.o.SA, row)]++
	}
	counts := map[string]int{}
	for code, k := range byCode {
		if k > 0 {
			counts[texts[code]] += k
		}
	}
	for _, v := range c.det.Sensitive {
		if v.P != float64(counts[v.Value])/n {
			bad++
		}
		delete(counts, v.Value)
	}
	return bad + len(counts)
}

// pinned reads the audit record's row map: every published row a
// distinct original row, published for its QIs, whose values the row's
// generalized values cover (short: fewer levels above than the rule),
// with its sensitive value.
func (f *original) pinned(c *release) {
	t, o, d := c.t, f.o, len(c.trees)
	node := publishedNodes(c)
	seen := make([]bool, o.Table.Rows)
	need := make([]int, d)
	for q := range need {
		need[q] = c.mg[c.m.QIs[q]]
	}
	f.bad = len(f.rows) != t.Rows
	for i := 0; !f.bad && i < t.Rows; i++ {
		row := f.rows[i]
		if row < 0 || row >= o.Table.Rows || seen[row] || !publishes(o, row) {
			f.bad = true
			break
		}
		seen[row] = true
		for q, tr := range c.trees {
			code := verify.Code(o.QIs[q], row)
			l, x := f.leaf[q][code], node[q][verify.Code(t.Columns[q], i)]
			if l < 0 || !tr.covers(x, l) {
				f.bad = true
				continue
			}
			if x != 0 && tr.depth[l]-tr.depth[x] < need[q] {
				if f.short == 0 {
					f.shortAt = fmt.Sprintf("%s: %s = %s is %d level(s) above %s, the rule asks %d (line %d)",
						file, c.m.QIs[q], tr.nodes[x].Value, tr.depth[l]-tr.depth[x], o.Texts(o.QIs[q])[code], need[q], i+2)
				}
				f.short++
			}
		}
		if s, ok := o.Text(o.SA, row); !ok || s != t.Columns[d].Value(i) {
			f.bad = true
		}
	}
}

// publishes says whether the release publishes a row's QIs.
func publishes(o *verify.Original, row int) bool {
	for _, col := range o.QIs {
		if _, ok := o.Text(col, row); !ok {
			return false
		}
	}
	return true
}

// publishedNodes is every published label's node, per QI and code.
func publishedNodes(c *release) [][]int {
	node := make([][]int, len(c.trees))
	for i, tr := range c.trees {
		col := c.t.Columns[i]
		node[i] = make([]int, len(col.Dict)+1)
		for code := range node[i] {
			node[i][code] = tr.byLabel[labelOf(col, code)]
		}
	}
	return node
}

// flow decides by maximum flows whether a faithful assignment exists,
// with the rule and without it (faithfulByFlow).
func (f *original) flow(c *release) {
	f.byFlow = true
	pub, at := published(c.t, c.trees)
	orig := originals(f.o, f.eligible, c.trees)
	f.keys = contentKeys(c.t, pub, at, orig, c.trees)
	levels := make([]int, len(c.trees))
	for q, name := range c.m.QIs {
		levels[q] = c.mg[name]
	}
	f.how = fmt.Sprintf("maximum flow over %d published and %d original value combinations, without the audit record, which alone says which row is which",
		pub.combos(), orig.combos())
	f.strict = flowOver(pub, orig, c.trees, levels)
	f.loose = c.t.Rows
	if f.strict < c.t.Rows {
		f.loose = flowOver(pub, orig, c.trees, nil)
	}
}

// rowsConsidered: the records the details say the method read are the
// original's rows under the missing-value policy.
func rowsConsidered(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil {
		return err
	}
	r.Claim("details.rows_considered", float64(c.det.RowsConsidered), float64(len(f.eligible)))
	return nil
}

// tableMarginals: marginals said to be the table's own are its value
// frequencies.
func tableMarginals(c *release, r *verify.Report) error {
	if f, err := c.originalOf(); err == nil && c.det.Marginals == "table" {
		r.Add(f.badMarginals == 0, "marginals", "the public marginals are the original table's own value frequencies (%d differ)", f.badMarginals)
	}
	return nil
}

// faithful: the published rows are distinct original rows (by the audit
// record, or some assignment exists) whose values their generalized
// values cover, with their sensitive values.
func faithful(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	switch {
	case err != nil:
	case f.byFlow && f.loose < c.t.Rows:
		r.Add(false, "faithful", "no assignment gives the published rows distinct original rows whose values their generalized values cover, with their sensitive value: at most %d of %d (%s)",
			f.loose, c.t.Rows, f.how)
	case f.byFlow:
		r.Add(true, "faithful", "the %d published rows can be given distinct original rows whose values their generalized values cover, with their sensitive value (%s)", c.t.Rows, f.how)
	case f.bad:
		r.Add(false, "faithful", "the audit record does not pin %s to distinct original rows whose values its generalized values cover, with the same sensitive value", file)
	default:
		r.Add(true, "faithful", "every published row is a distinct original row: its generalized values cover the original values and its sensitive value is the original's")
	}
	return nil
}

// recordGeneralization: every published value is at least the rule's
// levels above the record's own value, or the root (Algorithm 1, step 3).
func recordGeneralization(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil || f.byFlow && f.loose < c.t.Rows || !f.byFlow && f.bad {
		return nil
	}
	levels := levelsText(c.m.QIs, c.mg)
	switch {
	case f.byFlow && f.strict == c.t.Rows:
		r.Add(true, "minimum generalization of each record", "in that assignment every published value is at least the rule's levels (%s) above the record's own value, or the root", levels)
	case f.byFlow:
		r.Add(false, "minimum generalization of each record", "no faithful assignment keeps every published value the rule's levels (%s) above the record's own value: at most %d of %d rows",
			levels, f.strict, c.t.Rows)
	case f.short == 0:
		r.Add(true, "minimum generalization of each record", "every published value is at least the rule's levels (%s) above the record's own value, or the root", levels)
	default:
		r.Add(false, "minimum generalization of each record", "%d published values are fewer levels above the record's own value than the rule (%s) asks; first %s",
			f.short, levels, f.shortAt)
	}
	return nil
}

// shuffled: with the audit record, published.csv's rows are not in the
// input's order.
func shuffled(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err == nil && f.byFlow && f.loose == c.t.Rows {
		verify.OrderByKeys(file, f.keys, r)
		return nil
	}
	if err != nil || f.byFlow || f.bad {
		return nil
	}
	radix := make([]uint64, len(c.t.Columns))
	for i, col := range c.t.Columns {
		radix[i] = uint64(len(col.Dict) + 1)
	}
	keys := verify.NewTupleKeys(radix)
	codes := make([]uint32, len(c.t.Columns))
	distinct := int32(0)
	for row := 0; row < c.t.Rows; row++ {
		for i, col := range c.t.Columns {
			codes[i] = uint32(verify.Code(col, row))
		}
		distinct = max(distinct, keys.ID(codes)+1)
	}
	verify.Shuffled(file, f.rows, int(distinct), r)
	return nil
}

// wholeMarginals is marginals over the whole input's value counts when
// the release is one partition of a partitioned release
// (verify.Options.Whole): a partition's table marginals are the whole
// table's (model.Whole).
func wholeMarginals(c *release, w *model.Whole) int {
	bad := 0
	for i, tr := range c.trees {
		counts := make([]int, len(tr.nodes))
		n := float64(total(w.Counts[c.m.QIs[i]]))
		for v, k := range w.Counts[c.m.QIs[i]] {
			if l, ok := tr.leaf(v); ok {
				counts[l] += k
			} else {
				bad++
			}
		}
		for _, l := range tr.leaves {
			if tr.nodes[l].P != float64(counts[l])/n {
				bad++
			}
		}
	}
	counts := maps.Clone(w.Counts[c.m.SA])
	n := float64(total(counts))
	for _, v := range c.det.Sensitive {
		if v.P != float64(counts[v.Value])/n {
			bad++
		}
		delete(counts, v.Value)
	}
	return bad + len(counts)
}

func total(counts map[string]int) int {
	n := 0
	for _, k := range counts {
		n += k
	}
	return n
}
