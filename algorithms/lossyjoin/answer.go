package lossyjoin

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// Count queries on a release, of the form of Wong et al., Section 7:
//
//	SELECT COUNT(*) WHERE pred(A1) AND ... AND pred(Aqd) AND pred(As)
//
// On NSS and SS (variants lossy and anatomy) the answer is the expected
// count on the lossy join: the join on ClassID pairs each of a class's a
// NSS rows with each of its a SS rows, and each of those a^2 rows stands
// for 1/a of a record, so a class contributes (NSS rows matching the QI
// conditions) x (SS rows matching the SA conditions) / a. This
// proportional estimate is Xiao and Tao's (Anatomy, VLDB 2006), not Wong
// et al.'s: the SQL of Section 7,
//
//	SELECT COUNT(*) FROM SS WHERE SS.ClassID IN
//	    (SELECT NSS.ClassID FROM NSS WHERE pred(A1) AND ... AND pred(As))
//
// read literally (the SA condition on the SS rows), counts every matching
// SS row of each class that has one matching NSS row, which overcounts;
// the study measures both (literalSQL). On the generalized table
// (variant alpha) each record counts with the fraction of its generalized
// cell's values that satisfy the condition, the values spread uniformly
// (hierarchy.Hierarchy.LeafFraction). SUM and AVG of the sensitive attribute
// are estimated the same way; MIN and MAX are not answered.

// splitPreds separates the conditions on the sensitive attribute from
// those on the quasi-identifiers, and refuses others.
func splitPreds(q *query.Query, qis map[string]bool, sa string) (onQI, onSA []query.Pred, err error) {
	for _, p := range q.Preds {
		switch {
		case p.Column == sa:
			onSA = append(onSA, p)
		case qis[p.Column]:
			onQI = append(onQI, p)
		default:
			return nil, nil, &query.Error{Query: q.Text, Pos: p.Pos,
				Msg:  fmt.Sprintf("%s is neither a published quasi-identifier nor the sensitive attribute", p.Column),
				Hint: "a lossyjoin release answers conditions on the quasi-identifiers and the sensitive attribute"}
		}
	}
	if q.Agg == query.Min || q.Agg == query.Max {
		return nil, nil, &query.Error{Query: q.Text, Pos: 1, Msg: q.Agg.String() + " is not answered on a lossy-join release",
			Hint: "use COUNT(*), SUM or AVG of the sensitive attribute (estimates)"}
	}
	if q.Column != "" && q.Column != sa {
		return nil, nil, &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("aggregate the sensitive attribute %s (or COUNT(*))", sa)}
	}
	return onQI, onSA, nil
}

// saSide counts, per class, the sensitive values satisfying the SA
// conditions and sums them (for SUM and AVG). The conditions depend on the
// value only, so each class keeps its values with their counts and a
// query tests every distinct value once.
type saSide struct {
	table   *model.Table // holds the SA column
	classOf []int32
	sa      string
	// hist lists, per class, the codes of its rows' values with their
	// counts; rep[code] is a row holding the code (Missing: the last).
	hist [][]codeCount
	rep  []int
}

type codeCount struct {
	code uint32
	n    float64
}

// newSASide indexes the sensitive column of t by class.
func newSASide(t *model.Table, classOf []int32, sa string, classes int) saSide {
	s := saSide{table: t, classOf: classOf, sa: sa, hist: make([][]codeCount, classes)}
	col := t.Column(sa)
	if col == nil {
		return s
	}
	s.rep = make([]int, len(col.Dict)+1)
	for i := range s.rep {
		s.rep[i] = -1
	}
	for r, c := range classOf {
		code := col.Codes[r]
		if s.rep[codeIndex(col, code)] < 0 {
			s.rep[codeIndex(col, code)] = r
		}
		h := s.hist[c]
		found := false
		for i := range h {
			if h[i].code == code {
				h[i].n++
				found = true
				break
			}
		}
		if !found {
			s.hist[c] = append(h, codeCount{code: code, n: 1})
		}
	}
	return s
}

// codeIndex places a code, Missing last.
func codeIndex(col *model.Column, code uint32) int {
	if code == model.Missing {
		return len(col.Dict)
	}
	return int(code)
}

func (s *saSide) counts(q *query.Query, onSA []query.Pred, classes int) (cnt, sum []float64, err error) {
	sub := *q
	sub.Preds = onSA
	m, err := sub.Bind(s.table)
	if err != nil {
		return nil, nil, err
	}
	col := s.table.Column(s.sa)
	if col == nil {
		return nil, nil, fmt.Errorf("the release has no column %s", s.sa)
	}
	if q.Agg != query.Count && col.Kind != model.Numeric {
		return nil, nil, &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("%s(%s) needs a numeric sensitive attribute", q.Agg, s.sa), Hint: "use COUNT(*)"}
	}
	match := make([]bool, len(s.rep))
	for i, r := range s.rep {
		match[i] = r >= 0 && m.Match(r)
	}
	cnt = make([]float64, classes)
	sum = make([]float64, classes)
	for c, h := range s.hist {
		for _, e := range h {
			if !match[codeIndex(col, e.code)] {
				continue
			}
			cnt[c] += e.n
			if q.Agg != query.Count && e.code != model.Missing {
				sum[c] += e.n * col.Nums[e.code]
			}
		}
	}
	return cnt, sum, nil
}

// finish turns per-class weights into the answer.
func finish(q *query.Query, weight, cnt, sum []float64, note string) method.Bounds {
	out := method.Bounds{HasEst: true, Note: note}
	any := false
	c, s := 0.0, 0.0
	for i, w := range weight {
		if w > 0 {
			any = true
			c += w * cnt[i]
			s += w * sum[i]
		}
	}
	if !any {
		out.Empty = true
		return out
	}
	switch q.Agg {
	case query.Count:
		out.Estimate = c
	case query.Sum:
		out.Estimate = s
	case query.Avg:
		if c > 0 {
			out.Estimate = s / c
		} else {
			out.Empty = true
		}
	}
	return out
}

// joinIndex answers on NSS and SS.
type joinIndex struct {
	nss     *model.Table // holds the QI columns
	classOf []int32      // per NSS row
	size    []float64    // per class
	ss      saSide
	qis     map[string]bool
	// scratch keeps the per-class counts of earlier queries (matching).
	scratch sync.Pool
	// tuples are NSS's distinct (QI values, class) combinations, built
	// once for the first query (see qiTuples).
	tupleOnce sync.Once
	tuples    *qiTuples
}

// qiTuples are NSS's distinct combinations of the quasi-identifiers'
// codes and the class, as a table whose columns share NSS's
// dictionaries, with the rows each stands for: a row matches the QI
// conditions exactly when its combination does, so a class's matching
// rows are the weights of its matching combinations (whole numbers, so
// their float sums are exact and equal the rows' one by one). On a large
// table far fewer combinations than rows stand for the rows, and a query
// reads them rather than every row.
type qiTuples struct {
	table  *model.Table
	class  []int32
	weight []float64
}

// qiTuplesOf builds the tuples of x's QI columns, nil when their codes
// and the class do not fit one 64-bit key or when they are more than
// half the rows (then the rows are as quick).
func qiTuplesOf(x *joinIndex) *qiTuples {
	var cols []*model.Column
	for _, c := range x.nss.Columns {
		if x.qis[c.Name] {
			cols = append(cols, c)
		}
	}
	radix := make([]uint64, len(cols))
	span := uint64(len(x.size))
	for i, c := range cols {
		radix[i] = span
		n := uint64(len(c.Dict)) + 1 // + Missing
		if span > (1<<63)/n {
			return nil
		}
		span *= n
	}
	rows := x.nss.Rows
	index := make(map[uint64]int32)
	var keys []uint64
	var weight []float64
	for r := 0; r < rows; r++ {
		k := uint64(x.classOf[r])
		for i, c := range cols {
			k += uint64(c.Codes[r]+1) * radix[i] // Missing + 1 == 0
		}
		j, ok := index[k]
		if !ok {
			if len(keys) >= rows/2 {
				return nil
			}
			j = int32(len(keys))
			index[k] = j
			keys = append(keys, k)
			weight = append(weight, 0)
		}
		weight[j]++
	}
	tu := &qiTuples{table: &model.Table{Rows: len(keys)}, class: make([]int32, len(keys)), weight: weight}
	classes := uint64(len(x.size))
	for j, k := range keys {
		tu.class[j] = int32(k % classes)
	}
	for i, c := range cols {
		n := uint64(len(c.Dict)) + 1
		codes := make([]uint32, len(keys))
		for j, k := range keys {
			codes[j] = uint32(k/radix[i]%n) - 1
		}
		tu.table.Columns = append(tu.table.Columns, &model.Column{Name: c.Name, Kind: c.Kind, Dict: c.Dict, Nums: c.Nums, Codes: codes})
	}
	return tu
}

// countMatching adds to matching, per class, the NSS rows that m (bound
// to NSS) matches: on the tuples when sub binds to them too.
func (x *joinIndex) countMatching(sub *query.Query, m *query.Matcher, matching []float64) {
	x.tupleOnce.Do(func() { x.tuples = qiTuplesOf(x) })
	if tu := x.tuples; tu != nil {
		if tm, err := sub.Bind(tu.table); err == nil {
			tm.Each(tu.table.Rows, func(j int) { matching[tu.class[j]] += tu.weight[j] })
			return
		}
	}
	m.Each(x.nss.Rows, func(r int) { matching[x.classOf[r]]++ })
}

// matching is a zeroed count per class for a query: reused between
// queries, as counting into fresh pages (a read, then a write) costs a
// copy-on-write fault and a TLB flush on every core per page.
func (x *joinIndex) matching() []float64 {
	if p, ok := x.scratch.Get().(*[]float64); ok && len(*p) == len(x.size) {
		clear(*p)
		return *p
	}
	return make([]float64, len(x.size))
}

// proportionalNote is the note of a proportional answer.
const proportionalNote = "expected answer on the lossy join: per class, matching NSS rows x matching SS rows / class size " +
	"(Xiao and Tao's Anatomy estimate; the SQL of Wong et al., Section 7, read literally, counts every matching SS row of a class with one matching NSS row)"

// Answer estimates the query by the join semantics (see above).
func (x *joinIndex) Answer(q *query.Query) (method.Bounds, error) {
	b, _, err := x.answerBoth(q)
	return b, err
}

// literalSQL answers by the SQL of Wong et al., Section 7, read
// literally: every matching SS row of a class with a matching NSS row
// counts whole (the study's comparison; releases answer proportionally).
type literalSQL struct{ x *joinIndex }

func (l literalSQL) Answer(q *query.Query) (method.Bounds, error) {
	_, b, err := l.x.answerBoth(q)
	return b, err
}

// answerBoth answers q proportionally and by the literal SQL in one pass.
func (x *joinIndex) answerBoth(q *query.Query) (proportional, literal method.Bounds, err error) {
	onQI, onSA, err := splitPreds(q, x.qis, x.ss.sa)
	if err != nil {
		return proportional, literal, err
	}
	sub := *q
	sub.Preds = onQI
	m, err := sub.Bind(x.nss)
	if err != nil {
		return proportional, literal, err
	}
	matching := x.matching()
	defer x.scratch.Put(&matching)
	x.countMatching(&sub, m, matching)
	cnt, sum, err := x.ss.counts(q, onSA, len(x.size))
	if err != nil {
		return proportional, literal, err
	}
	share := make([]float64, len(x.size))
	whole := make([]float64, len(x.size))
	for c, n := range matching {
		share[c] = n / x.size[c]
		if n > 0 {
			whole[c] = 1
		}
	}
	return finish(q, share, cnt, sum, proportionalNote),
		finish(q, whole, cnt, sum, "the SQL of Wong et al., Section 7, read literally: every matching SS row of each class with a matching NSS row"), nil
}

// genIndex answers on the generalized table.
type genIndex struct {
	qis     []string
	qiSet   map[string]bool
	domains []labelDomains // per QI
	cells   [][]int32      // per class: label index per QI
	ss      saSide
}

// labelDomains are the values behind each label of one QI.
type labelDomains struct {
	numeric bool
	text    [][]string
	num     [][]float64
}

// fraction is the share of label l's values that satisfy every condition.
func (d *labelDomains) fraction(l int32, preds []query.Pred) float64 {
	vals := d.text[l]
	match := 0
	for i, v := range vals {
		ok := true
		for _, p := range preds {
			if !p.MatchValue(v, d.num[l][i], d.numeric) {
				ok = false
				break
			}
		}
		if ok {
			match++
		}
	}
	return float64(match) / float64(len(vals))
}

// Answer estimates the query on the generalized table (uniform within each
// generalized value).
func (x *genIndex) Answer(q *query.Query) (method.Bounds, error) {
	onQI, onSA, err := splitPreds(q, x.qiSet, x.ss.sa)
	if err != nil {
		return method.Bounds{}, err
	}
	// Conditions per QI, and each label's matching share.
	frac := make([][]float64, len(x.qis))
	for qi, name := range x.qis {
		var ps []query.Pred
		for _, p := range onQI {
			if p.Column == name {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			continue
		}
		d := &x.domains[qi]
		for _, p := range ps {
			if d.numeric {
				for _, v := range p.Values {
					if !v.IsNum {
						return method.Bounds{}, &query.Error{Query: q.Text, Pos: int(v.Pos), Msg: fmt.Sprintf("%s is numeric but %q is not a number", name, v.Text)}
					}
				}
			}
		}
		frac[qi] = make([]float64, len(d.text))
		for l := range d.text {
			frac[qi][l] = d.fraction(int32(l), ps)
		}
	}
	weight := make([]float64, len(x.cells))
	for c, cell := range x.cells {
		w := 1.0
		for qi, f := range frac {
			if f != nil {
				w *= f[cell[qi]]
			}
		}
		weight[c] = w
	}
	cnt, sum, err := x.ss.counts(q, onSA, len(x.cells))
	if err != nil {
		return method.Bounds{}, err
	}
	return finish(q, weight, cnt, sum, "estimate on the generalized table: each record counts with the share of its generalized values that match (uniform within a subdomain)"), nil
}

// answerer builds the run's query answerer: the same code answers from
// the exported files.
func (r *run) answerer() method.Answerer {
	ss := newSASide(r.in.Table, r.classOf, r.in.Roles.SA, len(r.classes))
	qiSet := map[string]bool{}
	for _, q := range r.in.Roles.QIs {
		qiSet[q] = true
	}
	if r.variant != VariantAlpha {
		size := make([]float64, len(r.classes))
		for i, c := range r.classes {
			size[i] = float64(len(c.rows))
		}
		return &joinIndex{nss: r.in.Table, classOf: r.classOf, size: size, ss: ss, qis: qiSet}
	}
	x := &genIndex{qis: r.in.Roles.QIs, qiSet: qiSet, ss: ss, cells: make([][]int32, len(r.classes))}
	for q := range r.prob.attrs {
		h := r.prob.attrs[q].h
		d := labelDomains{numeric: h.Numeric}
		index := map[int32]int32{}
		for _, n := range r.usedNodes(q) {
			index[n] = int32(len(d.text))
			nd := h.Nodes[n]
			var text []string
			var num []float64
			for i := nd.First; i <= nd.Last; i++ {
				l := h.Nodes[h.Leaves[i]]
				text = append(text, l.Label)
				num = append(num, l.Value)
			}
			d.text = append(d.text, text)
			d.num = append(d.num, num)
		}
		x.domains = append(x.domains, d)
		for i, c := range r.classes {
			if x.cells[i] == nil {
				x.cells[i] = make([]int32, len(r.prob.attrs))
			}
			x.cells[i][q] = index[c.vec[q]]
		}
	}
	return x
}

// OpenRelease reads an exported release to answer queries from its files
// alone.
func (Method) OpenRelease(dir string) (method.Answerer, error) {
	man, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if man.Method != Name {
		return nil, fmt.Errorf("%s holds a %s release, not %s", dir, man.Method, Name)
	}
	load := func(name string) (*model.Table, error) {
		return releasedir.LoadTable(filepath.Join(dir, name), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	}
	qiSet := map[string]bool{}
	for _, q := range man.QIs {
		qiSet[q] = true
	}
	if man.Variant == VariantAlpha {
		gen, err := load(FileGeneralized)
		if err != nil {
			return nil, err
		}
		dom, err := load(FileDomains)
		if err != nil {
			return nil, err
		}
		return openGeneralized(dir, man, gen, dom, qiSet)
	}
	nss, err := load(FileNSS)
	if err != nil {
		return nil, err
	}
	ss, err := load(FileSS)
	if err != nil {
		return nil, err
	}
	nc, sc := nss.Column(ClassID), ss.Column(ClassID)
	if nc == nil || sc == nil || ss.Column(man.SA) == nil {
		return nil, &model.InputError{File: filepath.Join(dir, FileSS), Line: 1, Msg: "expected ClassID in nss.csv and ClassID, " + man.SA + " in ss.csv"}
	}
	index := classIndex(nc, sc)
	x := &joinIndex{nss: nss, classOf: make([]int32, nss.Rows), size: make([]float64, len(index)), qis: qiSet}
	for r := 0; r < nss.Rows; r++ {
		x.classOf[r] = index[nc.Value(r)]
		x.size[x.classOf[r]]++
	}
	ssClass := make([]int32, ss.Rows)
	for r := 0; r < ss.Rows; r++ {
		ssClass[r] = index[sc.Value(r)]
	}
	x.ss = newSASide(ss, ssClass, man.SA, len(index))
	for c, s := range x.size {
		if s == 0 {
			x.size[c] = 1 // a class only ss.csv names (a broken release): count its rows once
		}
	}
	return x, nil
}

// classIndex numbers the ClassIDs of both files in numeric order (text
// order for non-numbers), so that sums run in the run's class order.
func classIndex(cols ...*model.Column) map[string]int32 {
	seen := map[string]bool{}
	var ids []string
	for _, c := range cols {
		for _, v := range c.Dict {
			if !seen[v] {
				seen[v] = true
				ids = append(ids, v)
			}
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		a, ea := strconv.Atoi(ids[i])
		b, eb := strconv.Atoi(ids[j])
		if ea == nil && eb == nil {
			return a < b
		}
		return ids[i] < ids[j]
	})
	out := make(map[string]int32, len(ids))
	for i, id := range ids {
		out[id] = int32(i)
	}
	return out
}

// openGeneralized reads generalized.csv and domains.csv.
func openGeneralized(dir string, man *releasedir.Manifest, gen, dom *model.Table, qiSet map[string]bool) (method.Answerer, error) {
	bad := func(file, msg string) error {
		return &model.InputError{File: filepath.Join(dir, file), Msg: msg}
	}
	ac, lc, vc := dom.Column("attribute"), dom.Column("label"), dom.Column("value")
	if ac == nil || lc == nil || vc == nil {
		return nil, bad(FileDomains, "expected columns attribute, label, value")
	}
	x := &genIndex{qis: man.QIs, qiSet: qiSet, domains: make([]labelDomains, len(man.QIs))}
	genClass := make([]int32, gen.Rows)
	qiIndex := map[string]int{}
	for i, q := range man.QIs {
		qiIndex[q] = i
		x.domains[i].numeric = true
	}
	labelIdx := make([]map[string]int32, len(man.QIs))
	for i := range labelIdx {
		labelIdx[i] = map[string]int32{}
	}
	for r := 0; r < dom.Rows; r++ {
		qi, ok := qiIndex[ac.Value(r)]
		if !ok {
			return nil, bad(FileDomains, fmt.Sprintf("line %d: %q is not a quasi-identifier", r+2, ac.Value(r)))
		}
		d := &x.domains[qi]
		l, ok := labelIdx[qi][lc.Value(r)]
		if !ok {
			l = int32(len(d.text))
			labelIdx[qi][lc.Value(r)] = l
			d.text = append(d.text, nil)
			d.num = append(d.num, nil)
		}
		v := vc.Value(r)
		num, isNum := model.ParseNumber(v)
		if !isNum {
			d.numeric = false
		}
		d.text[l] = append(d.text[l], v)
		d.num[l] = append(d.num[l], num)
	}
	cols := make([]*model.Column, len(man.QIs))
	for i, q := range man.QIs {
		if cols[i] = gen.Column(q); cols[i] == nil {
			return nil, bad(FileGeneralized, "no column "+q)
		}
	}
	classes := map[string]int32{}
	key := make([]byte, 0, 64)
	for r := 0; r < gen.Rows; r++ {
		key = key[:0]
		cell := make([]int32, len(cols))
		for i, c := range cols {
			l, ok := labelIdx[i][c.Value(r)]
			if !ok {
				return nil, bad(FileGeneralized, fmt.Sprintf("line %d: %s label %q is not in domains.csv", r+2, man.QIs[i], c.Value(r)))
			}
			cell[i] = l
			key = strconv.AppendInt(key, int64(l), 10)
			key = append(key, ',')
		}
		c, ok := classes[string(key)]
		if !ok {
			c = int32(len(x.cells))
			classes[string(key)] = c
			x.cells = append(x.cells, cell)
		}
		genClass[r] = c
	}
	x.ss = newSASide(gen, genClass, man.SA, len(x.cells))
	return x, nil
}
