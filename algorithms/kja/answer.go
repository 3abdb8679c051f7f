package kja

import (
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/kja/format"
	"sort"
	"strconv"
	"sync"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// pubBox is a box as published: its bounds in axis units, its JT tuples
// and its sensitive group (index into the index's groups).
type pubBox struct {
	lo, hi []float64
	size   int
	sg     int
}

// saCount is one sensitive value of a sensitive group and its count.
type saCount struct {
	text string
	num  float64
	n    float64
}

// index answers queries from what a release publishes (jat.csv, si.csv and
// the QI domains of the manifest), the same way whether it is built from
// a run or from the exported files: COUNT(*), and SUM/AVG of a numeric
// sensitive attribute, as estimates with the reasoning of Sacharidis et
// al., Section 3.3 and Figure 7. A box covered by a fraction f of its
// volume (values spread uniformly inside it; categorical QIs count the
// values of their range in hierarchy order) holds f of its MT tuples; the
// MT tuples of a box are those of its sensitive group, shared among the
// group's boxes (under plain k-anonymity a box is its own group, so its
// count is exact; Direct's groups merge boxes, issue 18.1); and they carry
// the group's sensitive values in proportion.
//
// Sharing: the paper assumes the group's MT tuples "equally distributed"
// among its boxes. Every box holds at least one MT tuple (Section 4), so
// each box gets one and the rest in proportion to its other tuples:
// est(b) = 1 + (n_s - B_s) (|b| - 1) / sum over the group (|b'| - 1).
// With equal boxes, as in Figure 7, this is the paper's estimate.
type index struct {
	axes      []pubAxis
	sa        string
	saNumeric bool
	boxes     []pubBox
	est       []float64
	groups    [][]saCount // per sensitive group, values in text order
	groupN    []float64
	// distinct are the sensitive values of all groups in text order, and
	// postings[c] the groups holding value c with their counts (groups in
	// order): a query's sensitive conditions are evaluated once per value
	// of the domain, and only the groups of the values they select are
	// summed, each group's values in text order as before.
	distinct []saCount
	postings [][]posting
	// allShares are the shares of a query without sensitive conditions.
	allShares struct {
		once            sync.Once
		share, sumShare []float64
	}
}

// posting is one group's count of a sensitive value.
type posting struct {
	group int32
	n     float64
}

// pubAxis is a QI as a reader of the release knows it.
type pubAxis struct {
	name    string
	numeric bool
	values  []string // categorical: the domain in hierarchy order
}

func newIndex(axes []pubAxis, sa string, saNumeric bool, boxes []pubBox, si [][]saCount) *index {
	ix := &index{axes: axes, sa: sa, saNumeric: saNumeric, boxes: boxes, groups: si, groupN: make([]float64, len(si))}
	code := map[string]int{}
	for s, vals := range si {
		sort.Slice(vals, func(i, j int) bool { return vals[i].text < vals[j].text })
		for _, v := range vals {
			ix.groupN[s] += v.n
			if _, ok := code[v.text]; !ok {
				code[v.text] = len(ix.distinct)
				ix.distinct = append(ix.distinct, saCount{text: v.text, num: v.num})
			}
		}
	}
	sort.Slice(ix.distinct, func(i, j int) bool { return ix.distinct[i].text < ix.distinct[j].text })
	for c, v := range ix.distinct {
		code[v.text] = c
	}
	ix.postings = make([][]posting, len(ix.distinct))
	for s, vals := range si {
		for _, v := range vals {
			c := code[v.text]
			ix.postings[c] = append(ix.postings[c], posting{group: int32(s), n: v.n})
		}
	}
	nb := make([]float64, len(si))
	rest := make([]float64, len(si))
	for _, b := range boxes {
		nb[b.sg]++
		rest[b.sg] += float64(b.size - 1)
	}
	ix.est = make([]float64, len(boxes))
	for i, b := range boxes {
		s := b.sg
		switch {
		case nb[s] == 1:
			ix.est[i] = ix.groupN[s]
		case rest[s] > 0:
			ix.est[i] = 1 + (ix.groupN[s]-nb[s])*float64(b.size-1)/rest[s]
		default:
			ix.est[i] = ix.groupN[s] / nb[s]
		}
	}
	return ix
}

// index is the run's release as a reader sees it.
func (r *run) index() *index {
	axes := make([]pubAxis, r.t.d)
	for a, ax := range r.t.axes {
		axes[a] = pubAxis{name: ax.name, numeric: ax.numeric, values: ax.values}
	}
	boxes := make([]pubBox, len(r.boxes))
	for i, b := range r.boxes {
		boxes[i] = pubBox{lo: b.b.lo, hi: b.b.hi, size: len(b.tuples), sg: b.sg}
	}
	sa := r.in.Table.Column(r.in.Roles.SA)
	counts := make([]map[uint32]float64, r.sgs)
	for _, b := range r.boxes {
		if counts[b.sg] == nil {
			counts[b.sg] = map[uint32]float64{}
		}
		for _, i := range b.tuples[:b.mt] {
			counts[b.sg][sa.Codes[i]]++
		}
	}
	si := make([][]saCount, r.sgs)
	for s, m := range counts {
		for code, n := range m {
			si[s] = append(si[s], saCount{text: sa.Dict[code], num: saNum(sa, code), n: n})
		}
	}
	return newIndex(axes, r.in.Roles.SA, sa.Kind == model.Numeric, boxes, si)
}

func saNum(c *model.Column, code uint32) float64 {
	if c.Kind == model.Numeric {
		return c.Nums[code]
	}
	x, _ := model.ParseNumber(c.Dict[code])
	return x
}

func rangeOp(op query.Op) bool {
	return op == query.OpLt || op == query.OpLe || op == query.OpGt || op == query.OpGe || op == query.OpBetween
}

// fraction is the share of box b's extent on axis a that the predicates
// select. On a numeric axis: one predicate is query.Pred.Overlap; several
// range predicates are intersected first; otherwise (= / != / IN mixed
// with others) the shares are multiplied. A box of one value selects all
// or nothing. On a categorical axis: the share of the box's values, in
// hierarchy order, that satisfy every predicate (ok[p] says value p does).
func (ix *index) fraction(a int, preds []query.Pred, ok []int, b *pubBox) float64 {
	lo, hi := b.lo[a], b.hi[a]
	if !ix.axes[a].numeric {
		l, h := int(lo), int(hi)
		return float64(ok[h+1]-ok[l]) / float64(h-l+1)
	}
	if lo == hi {
		for _, p := range preds {
			if !p.MatchValue("", lo, true) {
				return 0
			}
		}
		return 1
	}
	if len(preds) == 1 {
		return preds[0].Overlap(lo, hi)
	}
	allRange := true
	for _, p := range preds {
		allRange = allRange && rangeOp(p.Op)
	}
	if !allRange {
		f := 1.0
		for _, p := range preds {
			f *= p.Overlap(lo, hi)
		}
		return f
	}
	ql, qh := math.Inf(-1), math.Inf(1)
	for _, p := range preds {
		switch p.Op {
		case query.OpLt, query.OpLe:
			qh = math.Min(qh, p.Values[0].Num)
		case query.OpGt, query.OpGe:
			ql = math.Max(ql, p.Values[0].Num)
		case query.OpBetween:
			ql, qh = math.Max(ql, p.Values[0].Num), math.Min(qh, p.Values[1].Num)
		}
	}
	if ql > qh {
		return 0
	}
	between := query.Pred{Op: query.OpBetween, Values: []query.Literal{{Num: ql, IsNum: true}, {Num: qh, IsNum: true}}}
	return between.Overlap(lo, hi)
}

// Answer estimates COUNT(*) (and SUM/AVG of a numeric sensitive attribute)
// with conditions on the QIs and the sensitive attribute.
func (ix *index) Answer(q *query.Query) (method.Bounds, error) {
	qiPreds, saPreds, err := ix.splitPreds(q)
	if err != nil {
		return method.Bounds{}, err
	}
	if err := ix.checkAggregate(q); err != nil {
		return method.Bounds{}, err
	}
	oks := ix.categoricalMatches(qiPreds)
	share, sumShare := ix.sensitiveShares(saPreds)
	count, sum := ix.estimate(qiPreds, oks, share, sumShare)
	out := method.Bounds{HasEst: true, Note: "estimate: uniform within each box, MT tuples and sensitive values from the sensitive groups (Sacharidis et al., Section 3.3)"}
	switch q.Agg {
	case query.Count:
		out.Estimate = count
	case query.Sum:
		out.Estimate = sum
	case query.Avg:
		if count > 0 {
			out.Estimate = sum / count
		}
	}
	out.Empty = count == 0
	return out, nil
}

// splitPreds sorts the query's predicates into those on each QI and those
// on the sensitive attribute, refusing a predicate on any other column
// and a non-number compared with a numeric one.
func (ix *index) splitPreds(q *query.Query) (qiPreds [][]query.Pred, saPreds []query.Pred, err error) {
	qiPreds = make([][]query.Pred, len(ix.axes))
	byName := map[string]int{}
	for a, ax := range ix.axes {
		byName[ax.name] = a
	}
	for _, p := range q.Preds {
		a, isQI := byName[p.Column]
		numeric := isQI && ix.axes[a].numeric
		switch {
		case isQI:
			qiPreds[a] = append(qiPreds[a], p)
		case p.Column == ix.sa:
			saPreds = append(saPreds, p)
			numeric = ix.saNumeric
		default:
			return nil, nil, &query.Error{Query: q.Text, Pos: p.Pos,
				Msg:  fmt.Sprintf("%s is neither a quasi-identifier nor the sensitive attribute of this release", p.Column),
				Hint: "k-join-anonymity releases answer conditions on the QI boxes and on the sensitive attribute (Sacharidis et al., Section 3.3)"}
		}
		if numeric {
			for _, v := range p.Values {
				if !v.IsNum {
					return nil, nil, &query.Error{Query: q.Text, Pos: int(v.Pos), Msg: fmt.Sprintf("%s is numeric but %q is not a number", p.Column, v.Text)}
				}
			}
		}
	}
	return qiPreds, saPreds, nil
}

// checkAggregate refuses an aggregate the release does not estimate: of
// another column than the sensitive attribute, MIN and MAX, and SUM or
// AVG of a categorical attribute.
func (ix *index) checkAggregate(q *query.Query) error {
	switch {
	case q.Column != "" && q.Column != ix.sa:
		return &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("aggregate the sensitive attribute %s (or COUNT(*))", ix.sa)}
	case q.Agg == query.Min || q.Agg == query.Max:
		return &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("%s is not estimated from a k-join-anonymous release", q.Agg),
			Hint: "use COUNT(*), SUM or AVG"}
	case q.Agg != query.Count && !ix.saNumeric:
		return &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("%s needs a numeric sensitive attribute; %s is categorical", q.Agg, ix.sa), Hint: "use COUNT(*)"}
	}
	return nil
}

// categoricalMatches gives, per categorical axis with predicates, prefix
// counts of the values that satisfy them, in hierarchy order (nil for
// the other axes).
func (ix *index) categoricalMatches(qiPreds [][]query.Pred) [][]int {
	oks := make([][]int, len(ix.axes))
	for a, preds := range qiPreds {
		if len(preds) == 0 || ix.axes[a].numeric {
			continue
		}
		vals := ix.axes[a].values
		ok := make([]int, len(vals)+1)
		for p, v := range vals {
			all := true
			for _, pr := range preds {
				all = all && pr.MatchValue(v, 0, false)
			}
			ok[p+1] = ok[p]
			if all {
				ok[p+1]++
			}
		}
		oks[a] = ok
	}
	return oks
}

// sensitiveShares is, per sensitive group, the share of its values that
// satisfy the sensitive conditions and the share of their sum
// (Sacharidis et al., Section 3.3, Figure 7).
func (ix *index) sensitiveShares(saPreds []query.Pred) (share, sumShare []float64) {
	if len(saPreds) == 0 {
		all := &ix.allShares
		all.once.Do(func() { all.share, all.sumShare = ix.sharesOf(nil) })
		return all.share, all.sumShare
	}
	return ix.sharesOf(saPreds)
}

// sharesOf sums, group by group, the counts of the values the conditions
// select (values in text order: postings are in text order), and divides
// by the groups' sizes.
func (ix *index) sharesOf(saPreds []query.Pred) (share, sumShare []float64) {
	share = make([]float64, len(ix.groups))
	sumShare = make([]float64, len(ix.groups))
	for c, v := range ix.distinct {
		match := true
		for _, pr := range saPreds {
			match = match && pr.MatchValue(v.text, v.num, ix.saNumeric)
		}
		if !match {
			continue
		}
		for _, p := range ix.postings[c] {
			share[p.group] += p.n
			sumShare[p.group] += p.n * v.num
		}
	}
	for s, n := range ix.groupN {
		if n == 0 {
			share[s], sumShare[s] = 0, 0
			continue
		}
		share[s], sumShare[s] = share[s]/n, sumShare[s]/n
	}
	return share, sumShare
}

// estimate sums over the boxes the MT tuples the QI conditions select
// (the box's covered fraction of its estimated tuples) times their group's
// sensitive shares: the count and the sum (Sacharidis et al., Section
// 3.3).
func (ix *index) estimate(qiPreds [][]query.Pred, oks [][]int, share, sumShare []float64) (count, sum float64) {
	for i := range ix.boxes {
		b := &ix.boxes[i]
		f := 1.0
		for a, preds := range qiPreds {
			if len(preds) > 0 {
				if f *= ix.fraction(a, preds, oks[a], b); f == 0 {
					break
				}
			}
		}
		if f == 0 {
			continue
		}
		mt := f * ix.est[i]
		count += mt * share[b.sg]
		sum += mt * sumShare[b.sg]
	}
	return count, sum
}

// OpenRelease reads jat.csv, si.csv and the manifest's domains to answer
// queries from the published files alone.
func (Method) OpenRelease(dir string) (method.Answerer, error) {
	man, det, err := readDetails(dir)
	if err != nil {
		return nil, err
	}
	load := func(name string) (*model.Table, error) {
		return releasedir.LoadTable(filepath.Join(dir, name), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	}
	jat, err := load(format.FileJAT)
	if err != nil {
		return nil, err
	}
	si, err := load(format.FileSI)
	if err != nil {
		return nil, err
	}
	jpath, spath := filepath.Join(dir, format.FileJAT), filepath.Join(dir, format.FileSI)
	axes, pos := releaseAxes(man.QIs, det.Domain)
	if err := checkReleaseColumns(man.QIs, jat, si, jpath, spath); err != nil {
		return nil, err
	}
	boxes, sgIndex, err := readBoxes(jat, axes, pos, jpath)
	if err != nil {
		return nil, err
	}
	groups, err := readSensitiveGroups(si, sgIndex, spath)
	if err != nil {
		return nil, err
	}
	return newIndex(axes, si.Columns[1].Name, det.SAKind == format.Numeric, boxes, groups), nil
}

// readDetails reads dir's manifest and its k-join-anonymity details,
// refusing another method's release and domains that miss a QI.
func readDetails(dir string) (*releasedir.Manifest, format.Details, error) {
	man, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, format.Details{}, err
	}
	mpath := filepath.Join(dir, "manifest.json")
	if man.Method != Name {
		return nil, format.Details{}, &model.InputError{File: mpath, Msg: fmt.Sprintf("%s holds a %s release, not %s", dir, man.Method, Name)}
	}
	det, err := format.Read(man)
	if err != nil {
		return nil, format.Details{}, &model.InputError{File: mpath, Msg: err.Error(), Hint: "privlab check tells what is wrong with the release"}
	}
	if len(det.Domain) != len(man.QIs) {
		return nil, format.Details{}, &model.InputError{File: mpath, Msg: "details.domain must describe every quasi-identifier"}
	}
	return man, det, nil
}

// releaseAxes is the QIs as the manifest's domains describe them, with,
// per categorical QI, each value's position in hierarchy order.
func releaseAxes(qis []string, domain []format.DomainEntry) ([]pubAxis, []map[string]int) {
	axes := make([]pubAxis, len(qis))
	pos := make([]map[string]int, len(qis))
	for a, q := range qis {
		d := domain[a]
		axes[a] = pubAxis{name: q, numeric: d.Kind == format.Numeric, values: d.Values}
		if !axes[a].numeric {
			pos[a] = map[string]int{}
			for i, v := range d.Values {
				pos[a][v] = i
			}
		}
	}
	return axes, pos
}

// checkReleaseColumns refuses a jat.csv or si.csv without the columns a
// k-join-anonymous release has.
func checkReleaseColumns(qis []string, jat, si *model.Table, jpath, spath string) error {
	want := []string{"GroupID", "SG"}
	for _, q := range qis {
		want = append(want, q+"_min", q+"_max")
	}
	if len(jat.Columns) != len(want) {
		return &model.InputError{File: jpath, Line: 1, Msg: "expected the columns GroupID, SG and <qi>_min, <qi>_max per quasi-identifier"}
	}
	if len(si.Columns) != 2 || si.Columns[0].Name != "SG" {
		return &model.InputError{File: spath, Line: 1, Msg: "expected the columns SG and the sensitive attribute"}
	}
	return nil
}

// readBoxes reads jat.csv's boxes, in GroupID order, and numbers the
// sensitive groups they name in order of first appearance.
func readBoxes(jat *model.Table, axes []pubAxis, pos []map[string]int, jpath string) ([]pubBox, map[string]int, error) {
	sgIndex := map[string]int{}
	sgOf := func(s string) int {
		g, ok := sgIndex[s]
		if !ok {
			g = len(sgIndex)
			sgIndex[s] = g
		}
		return g
	}
	byID := map[int]*pubBox{}
	// A GroupID text is read once (its code), its box looked up once.
	idCol := jat.Columns[0]
	boxOfCode := make([]*pubBox, len(idCol.Dict))
	for r := 0; r < jat.Rows; r++ {
		code := idCol.Codes[r]
		if int(code) < len(boxOfCode) && boxOfCode[code] != nil {
			boxOfCode[code].size++
			continue
		}
		id, err := strconv.Atoi(idCol.Value(r))
		if err != nil {
			return nil, nil, &model.InputError{File: jpath, Line: r + 2, Msg: "GroupID is not an integer"}
		}
		b := byID[id]
		if b == nil {
			b = &pubBox{lo: make([]float64, len(axes)), hi: make([]float64, len(axes)), sg: sgOf(jat.Columns[1].Value(r))}
			if err := readBoxBounds(jat, r, axes, pos, b, jpath); err != nil {
				return nil, nil, err
			}
			byID[id] = b
		}
		if int(code) < len(boxOfCode) {
			boxOfCode[code] = b
		}
		b.size++
	}
	ids := make([]int, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	boxes := make([]pubBox, len(ids))
	for i, id := range ids {
		boxes[i] = *byID[id]
	}
	return boxes, sgIndex, nil
}

// readBoxBounds reads the bounds of box b on every axis from jat.csv's
// row r: numbers on a numeric axis, positions in the manifest's domain
// on a categorical one.
func readBoxBounds(jat *model.Table, r int, axes []pubAxis, pos []map[string]int, b *pubBox, jpath string) error {
	for a := range axes {
		for j, dst := range []*float64{&b.lo[a], &b.hi[a]} {
			text := jat.Columns[2+2*a+j].Value(r)
			if axes[a].numeric {
				x, ok := model.ParseNumber(text)
				if !ok {
					return &model.InputError{File: jpath, Line: r + 2, Msg: fmt.Sprintf("%s is not a number", text)}
				}
				*dst = x
			} else {
				p, ok := pos[a][text]
				if !ok {
					return &model.InputError{File: jpath, Line: r + 2, Msg: fmt.Sprintf("%q is not a value of %s in the manifest's domain", text, axes[a].name)}
				}
				*dst = float64(p)
			}
		}
		if b.lo[a] > b.hi[a] {
			return &model.InputError{File: jpath, Line: r + 2, Msg: "a box's minimum exceeds its maximum"}
		}
	}
	return nil
}

// readSensitiveGroups reads si.csv's sensitive values and their counts
// per sensitive group, refusing a group with no box in jat.csv.
func readSensitiveGroups(si *model.Table, sgIndex map[string]int, spath string) ([][]saCount, error) {
	groups := make([][]saCount, len(sgIndex))
	saCol := si.Columns[1]
	// On codes: an SG text is looked up once, a group's value by its
	// code (one code per text).
	sgCol := si.Columns[0]
	groupOfCode := make([]int, len(sgCol.Dict))
	for code, text := range sgCol.Dict {
		if g, ok := sgIndex[text]; ok {
			groupOfCode[code] = g + 1
		}
	}
	seen := make(map[uint64]int, len(sgIndex))
	for r := 0; r < si.Rows; r++ {
		code, sa := sgCol.Codes[r], saCol.Codes[r]
		if int(code) >= len(groupOfCode) || groupOfCode[code] == 0 {
			return nil, &model.InputError{File: spath, Line: r + 2, Msg: "SG " + strconv.Quote(sgCol.Value(r)) + " has no box in jat.csv"}
		}
		g := groupOfCode[code] - 1
		key := uint64(g)<<32 | uint64(sa)
		j, ok := seen[key]
		if !ok {
			text := saCol.Value(r)
			x, _ := model.ParseNumber(text)
			j = len(groups[g])
			seen[key] = j
			groups[g] = append(groups[g], saCount{text: text, num: x})
		}
		groups[g][j].n++
	}
	return groups, nil
}
