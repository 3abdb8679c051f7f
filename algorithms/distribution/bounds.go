package distribution

import (
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/distribution/format"
	"sort"
	"strconv"
	"strings"
	"sync"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// boundsIndex answers aggregate queries on a release with deterministic
// bounds (Koudas et al. 2009, Section 3.3). QIs are published unchanged, so
// a query's WHERE clause selects an exact number m_g of tuples in each
// group; those tuples' values lie in some m_g distinct subdomains of the
// group (any m_g of them, fakes included), which bounds every aggregate.
// Per group the subdomains' lows (ascending) and highs (descending) are
// kept with prefix sums, so after counting a query costs O(groups).
type boundsIndex struct {
	table   *model.Table // the QI columns (original table or qi.csv)
	groupOf []int32      // per table row
	sa      string
	qis     map[string]bool
	numeric bool
	low     [][]float64 // per group: lows ascending
	high    [][]float64 // per group: highs descending
	lowSum  [][]float64 // prefix sums: lowSum[g][m] = sum of the m smallest lows
	highSum [][]float64
	// dom is the SA domain in leaf order and spans[g] the leaf span of
	// every subdomain of group g: they bound COUNT with a condition on the
	// sensitive attribute.
	dom   saDomain
	spans [][][2]int32
	// domTable is dom as a table (domain), built when first asked.
	domOnce  sync.Once
	domTable *model.Table
	// scratch keeps the per-group counts of earlier queries (selected).
	scratch sync.Pool
	// leaves keeps countSA's per-leaf verdicts and prefix counts.
	leaves sync.Pool
}

// leafScratch is countSA's memory, reused between queries.
type leafScratch struct {
	hit []byte
	ok  []int32
}

// selected is a zeroed count per group for a query: reused between
// queries, as counting into fresh pages (a read, then a write) costs a
// copy-on-write fault and a TLB flush on every core per page.
func (b *boundsIndex) selected() []int {
	if p, ok := b.scratch.Get().(*[]int); ok && len(*p) == len(b.low) {
		clear(*p)
		return *p
	}
	return make([]int, len(b.low))
}

// saDomain is the sensitive attribute's domain in leaf order.
type saDomain struct {
	text    []string
	num     []float64
	numeric bool
}

// domain is the sensitive attribute's domain as a one-column table, one
// row per leaf in leaf order, dictionary-encoded (a text given twice is
// one value), so that a query's conditions bind to it as to any column.
func (b *boundsIndex) domain() *model.Table {
	b.domOnce.Do(func() {
		d, name := &b.dom, b.sa
		c := &model.Column{Name: name, Kind: model.Categorical, Codes: make([]uint32, len(d.text))}
		if d.numeric {
			c.Kind = model.Numeric
		}
		code := make(map[string]uint32, len(d.text))
		for i, s := range d.text {
			k, seen := code[s]
			if !seen {
				k = uint32(len(c.Dict))
				code[s] = k
				c.Dict = append(c.Dict, s)
				if d.numeric {
					c.Nums = append(c.Nums, d.num[i])
				}
			}
			c.Codes[i] = k
		}
		b.domTable = &model.Table{Name: name, Columns: []*model.Column{c}, Rows: len(d.text)}
	})
	return b.domTable
}

func newBoundsIndex(t *model.Table, groupOf []int32, qis []string, sa string, numeric bool, lows, highs [][]float64,
	dom saDomain, spans [][][2]int32) *boundsIndex {
	b := &boundsIndex{table: t, groupOf: groupOf, sa: sa, numeric: numeric, qis: map[string]bool{},
		low: lows, high: highs, dom: dom, spans: spans}
	for _, q := range qis {
		b.qis[q] = true
	}
	b.lowSum = make([][]float64, len(lows))
	b.highSum = make([][]float64, len(highs))
	for g := range lows {
		sort.Float64s(lows[g])
		sort.Sort(sort.Reverse(sort.Float64Slice(highs[g])))
		b.lowSum[g] = prefix(lows[g])
		b.highSum[g] = prefix(highs[g])
	}
	return b
}

func prefix(v []float64) []float64 {
	out := make([]float64, len(v)+1)
	for i, x := range v {
		out[i+1] = out[i] + x
	}
	return out
}

// Answer bounds the query. COUNT is exact; SUM, AVG, MIN and MAX get
// [lower, upper] bounds that always contain the true answer. A COUNT with
// a condition on the sensitive attribute is bounded too: of the m_g
// selected tuples of group g, at least m_g minus the subdomains not inside
// the condition satisfy it, and at most the subdomains that meet it.
func (b *boundsIndex) Answer(q *query.Query) (method.Bounds, error) {
	onQI, onSA, err := b.splitPreds(q)
	if err != nil {
		return method.Bounds{}, err
	}
	m, err := onQI.Bind(b.table)
	if err != nil {
		return method.Bounds{}, err
	}
	sel := b.selected()
	defer b.scratch.Put(&sel)
	total := 0
	m.Each(b.table.Rows, func(r int) {
		sel[b.groupOf[r]]++
		total++
	})
	out := method.Bounds{HasBounds: true, Note: "deterministic bounds from the selected count per group"}
	if total == 0 {
		out.Empty = true
		return out, nil
	}
	if q.Agg != query.Count {
		b.valueBounds(&out, q.Agg, sel, total)
		return out, nil
	}
	out.Low, out.High = float64(total), float64(total)
	out.Note = "exact: quasi-identifiers are published unchanged"
	if len(onSA) > 0 {
		if out.Low, out.High, err = b.countSA(q, onSA, sel); err != nil {
			return method.Bounds{}, err
		}
		out.Note = "bounds: the selected tuples may take any of their group's subdomains"
		if out.High == 0 {
			out.Empty = true
		}
	}
	return out, nil
}

// splitPreds splits the query into its conditions on the quasi-identifiers
// (as a query of their own) and those on the sensitive attribute, and
// refuses what a distribution release does not answer: another column, a
// condition on the sensitive attribute outside COUNT, an aggregate of a
// QI or of a categorical attribute.
func (b *boundsIndex) splitPreds(q *query.Query) (onQI query.Query, onSA []query.Pred, err error) {
	onQI = *q
	onQI.Preds = nil
	for _, p := range q.Preds {
		switch {
		case p.Column == b.sa:
			onSA = append(onSA, p)
		case !b.qis[p.Column]:
			return query.Query{}, nil, &query.Error{Query: q.Text, Pos: p.Pos,
				Msg:  fmt.Sprintf("%s is neither a published quasi-identifier nor the sensitive attribute", p.Column),
				Hint: "distribution releases answer conditions on the quasi-identifiers and COUNT conditions on the sensitive attribute (Koudas et al. 2009, Section 3.3)"}
		default:
			onQI.Preds = append(onQI.Preds, p)
		}
	}
	if len(onSA) > 0 && q.Agg != query.Count {
		return query.Query{}, nil, &query.Error{Query: q.Text, Pos: onSA[0].Pos,
			Msg: fmt.Sprintf("a condition on the sensitive attribute %s needs COUNT(*)", b.sa), Hint: "the release generalizes the sensitive values"}
	}
	if q.Column != "" && q.Column != b.sa {
		return query.Query{}, nil, &query.Error{Query: q.Text, Pos: q.ColPos,
			Msg: fmt.Sprintf("aggregate the sensitive attribute %s (or COUNT(*))", b.sa)}
	}
	if q.Agg != query.Count && !b.numeric {
		return query.Query{}, nil, &query.Error{Query: q.Text, Pos: q.ColPos,
			Msg: fmt.Sprintf("%s needs a numeric sensitive attribute; %s is categorical", q.Agg, b.sa), Hint: "use COUNT(*)"}
	}
	return onQI, onSA, nil
}

// valueBounds bounds SUM, AVG, MIN or MAX of the sensitive values of the
// selected tuples (sel per group, total in all): each group's k selected
// tuples take the k lowest or highest ends of its subdomains.
func (b *boundsIndex) valueBounds(out *method.Bounds, agg query.Agg, sel []int, total int) {
	switch agg {
	case query.Sum, query.Avg:
		for g, k := range sel {
			if k > 0 {
				out.Low += b.lowSum[g][k]
				out.High += b.highSum[g][k]
			}
		}
		if agg == query.Avg {
			out.Low /= float64(total)
			out.High /= float64(total)
		}
	case query.Min:
		out.Low, out.High = math.Inf(1), math.Inf(1)
		for g, k := range sel {
			if k > 0 {
				out.Low = math.Min(out.Low, b.low[g][0])
				out.High = math.Min(out.High, b.high[g][k-1]) // the k-th largest high
			}
		}
	case query.Max:
		out.Low, out.High = math.Inf(-1), math.Inf(-1)
		for g, k := range sel {
			if k > 0 {
				out.High = math.Max(out.High, b.high[g][0])
				out.Low = math.Max(out.Low, b.low[g][k-1]) // the k-th smallest low
			}
		}
	}
}

// countSA bounds the number of selected tuples whose sensitive value
// satisfies every predicate of onSA, given the selected count per group.
// The conditions are decided once per distinct value of the domain
// (query.Query.Bind on the domain as a column), not per leaf and literal.
func (b *boundsIndex) countSA(q *query.Query, onSA []query.Pred, sel []int) (low, high float64, err error) {
	n := len(b.dom.text)
	sub := *q
	sub.Preds = onSA
	m, err := sub.Bind(b.domain())
	if err != nil {
		return 0, 0, err
	}
	// ok[i] counts the leaves before i that satisfy the conditions.
	sc, _ := b.leaves.Get().(*leafScratch)
	if sc == nil || len(sc.hit) != n {
		sc = &leafScratch{hit: make([]byte, n), ok: make([]int32, n+1)}
	}
	defer b.leaves.Put(sc)
	hit, ok := sc.hit, sc.ok
	m.Hits(hit)
	for i, h := range hit {
		ok[i+1] = ok[i] + int32(h)
	}
	for g, m := range sel {
		if m == 0 {
			continue
		}
		inside, meets := 0, 0
		for _, s := range b.spans[g] {
			c := ok[s[1]+1] - ok[s[0]]
			if c > 0 {
				meets++
			}
			if int(c) == int(s[1]-s[0])+1 {
				inside++
			}
		}
		low += float64(max(0, m-(len(b.spans[g])-inside)))
		high += float64(min(m, meets))
	}
	return low, high, nil
}

// Answer bounds a query on the run's release.
func (r *run) Answer(q *query.Query) (method.Bounds, error) {
	r.once.Do(func() {
		groupOf := make([]int32, r.in.Table.Rows)
		lows := make([][]float64, len(r.groups))
		highs := make([][]float64, len(r.groups))
		spans := make([][][2]int32, len(r.groups))
		for gi := range r.groups {
			g := &r.groups[gi]
			for _, row := range g.rows {
				groupOf[row] = int32(gi)
			}
			for _, c := range g.gen.Copies {
				nd := r.h.Nodes[c.Node]
				for k := int32(0); k < c.Count; k++ {
					lows[gi] = append(lows[gi], nd.Low)
					highs[gi] = append(highs[gi], nd.High)
					spans[gi] = append(spans[gi], [2]int32{int32(nd.First), int32(nd.Last)})
				}
			}
		}
		dom := saDomain{numeric: r.h.Numeric}
		for _, l := range r.h.Leaves {
			dom.text = append(dom.text, r.h.Nodes[l].Label)
			dom.num = append(dom.num, r.h.Nodes[l].Value)
		}
		r.bounds = newBoundsIndex(r.in.Table, groupOf, r.in.Roles.QIs, r.in.Roles.SA, r.h.Numeric, lows, highs, dom, spans)
	})
	return r.bounds.Answer(q)
}

// OpenRelease reads qi.csv and sa.csv of an exported release to answer
// queries from the published files alone.
func (Method) OpenRelease(dir string) (method.Answerer, error) {
	man, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if man.Method != Name {
		return nil, fmt.Errorf("%s holds a %s release, not %s", dir, man.Method, Name)
	}
	qi, err := releasedir.LoadTable(filepath.Join(dir, format.FileQI), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	if err != nil {
		return nil, err
	}
	sa, err := releasedir.LoadTable(filepath.Join(dir, format.FileSA), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	if err != nil {
		return nil, err
	}
	gcol := qi.Column("GroupID")
	if gcol == nil {
		return nil, &model.InputError{File: filepath.Join(dir, format.FileQI), Line: 1, Msg: "no GroupID column"}
	}
	sg, lo, hi := sa.Column("GroupID"), sa.Column("Low"), sa.Column("High")
	if sg == nil || lo == nil || hi == nil {
		return nil, &model.InputError{File: filepath.Join(dir, format.FileSA), Line: 1, Msg: "expected columns GroupID, Low, High"}
	}
	index, groupOf := numberGroups(gcol, qi.Rows)
	lows := make([][]float64, len(index))
	highs := make([][]float64, len(index))
	spans := make([][][2]int32, len(index))
	numeric := lo.Kind == model.Numeric && hi.Kind == model.Numeric
	dom, pos, err := manifestDomain(man, numeric)
	if err != nil {
		return nil, &model.InputError{File: filepath.Join(dir, "manifest.json"), Msg: err.Error()}
	}
	saName, err := domainAttribute(dir, man)
	if err != nil {
		return nil, err
	}
	for r := 0; r < sa.Rows; r++ {
		g, ok := index[sg.Value(r)]
		if !ok {
			return nil, &model.InputError{File: filepath.Join(dir, format.FileSA), Line: r + 2,
				Msg: "GroupID " + strconv.Quote(sg.Value(r)) + " has no rows in qi.csv"}
		}
		a, okA := pos(lo.Value(r))
		z, okZ := pos(hi.Value(r))
		if !okA || !okZ || z < a {
			return nil, &model.InputError{File: filepath.Join(dir, format.FileSA), Line: r + 2,
				Msg: "Low and High are not values of the manifest's domain, in order"}
		}
		lows[g] = append(lows[g], lo.Num(r))
		highs[g] = append(highs[g], hi.Num(r))
		spans[g] = append(spans[g], [2]int32{a, z})
	}
	sizes := make([]int, len(index))
	for _, g := range groupOf {
		sizes[g]++
	}
	for g := range lows {
		if len(lows[g]) < sizes[g] {
			return nil, &model.InputError{File: filepath.Join(dir, format.FileSA), Msg: "a group has fewer subdomains than tuples"}
		}
	}
	return newBoundsIndex(qi, groupOf, man.QIs, saName, numeric, lows, highs, dom, spans), nil
}

// numberGroups numbers qi.csv's groups in order of first appearance:
// the number of each GroupID text, and each row's group.
func numberGroups(gcol *model.Column, rows int) (map[string]int32, []int32) {
	index := map[string]int32{}
	groupOf := make([]int32, rows)
	for r := 0; r < rows; r++ {
		id := gcol.Value(r)
		g, ok := index[id]
		if !ok {
			g = int32(len(index))
			index[id] = g
		}
		groupOf[r] = g
	}
	return index, groupOf
}

// domainAttribute is the sensitive attribute's name. The domain file
// names the attribute: an answer is about that column, never about a
// name the manifest alone gives; without the file it is the manifest's.
func domainAttribute(dir string, man *releasedir.Manifest) (string, error) {
	d, err := releasedir.LoadTable(filepath.Join(dir, format.FileDomain), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	if err != nil {
		return man.SA, nil
	}
	if len(d.Columns) != 1 || d.Columns[0].Name != man.SA {
		return "", &model.InputError{File: filepath.Join(dir, format.FileDomain), Line: 1,
			Msg:  fmt.Sprintf("the manifest names the sensitive attribute %q, %s holds %s", man.SA, format.FileDomain, strings.Join(d.Names(), ",")),
			Hint: "privlab check tells which file was edited"}
	}
	return d.Columns[0].Name, nil
}

// manifestDomain reads the SA domain (leaf order) from the manifest's
// details, with a lookup from a value's text to its position (numbers
// match by value).
func manifestDomain(man *releasedir.Manifest, numeric bool) (saDomain, func(string) (int32, bool), error) {
	dom := saDomain{numeric: numeric}
	det, err := format.Read(man)
	if err != nil {
		return dom, nil, err
	}
	byText := map[string]int32{}
	byNum := map[float64]int32{}
	for i, s := range det.Domain {
		x, _ := model.ParseNumber(s)
		dom.text = append(dom.text, s)
		dom.num = append(dom.num, x)
		byText[s] = int32(i)
		byNum[x] = int32(i)
	}
	if len(det.Domain) == 0 {
		return dom, nil, fmt.Errorf("details.domain is missing: the sensitive attribute's domain is needed to read sa.csv")
	}
	pos := func(s string) (int32, bool) {
		if i, ok := byText[s]; ok {
			return i, true
		}
		if numeric {
			if x, ok := model.ParseNumber(s); ok {
				i, ok := byNum[x]
				return i, ok
			}
		}
		return 0, false
	}
	return dom, pos, nil
}
