package sampling

import (
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/sampling/format"
	"sort"
	"strconv"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// index answers aggregate queries on a release (Sattar et al., Section
// 6.1.1): a published record generalized to subdomains matches a
// condition on a QI with the share of the subdomain's values that satisfy
// it (uniform within the subdomain); conditions on the sensitive value
// are exact. Counts and sums are scaled by 1/beta, as the paper scales its
// estimates for the records left out by sampling. The run and OpenRelease
// build it from the same cells, in the same order, so their answers are
// identical.
type index struct {
	qis       []string
	sa        string
	beta      float64
	tax       []*taxonomy
	saNumeric bool
	cells     []acell
}

// acell is the number of published records with one generalized tuple and
// one sensitive value.
type acell struct {
	nodes []int32
	sa    string
	saNum float64
	count float64
}

// newIndex orders the cells (by node indexes, then sensitive value).
func newIndex(qis []string, sa string, beta float64, tax []*taxonomy, saVals []Value, cells map[string]*acell) *index {
	ix := &index{qis: qis, sa: sa, beta: beta, tax: tax, saNumeric: len(saVals) > 0}
	for _, v := range saVals {
		if _, ok := model.ParseNumber(v.Value); !ok {
			ix.saNumeric = false
		}
	}
	keys := make([]string, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := cells[k]
		if ix.saNumeric {
			c.saNum, _ = model.ParseNumber(c.sa)
		}
		ix.cells = append(ix.cells, *c)
	}
	return ix
}

// cellKey is the nodes (big-endian, so keys sort by node index) and the
// sensitive value.
func cellKey(nodes []int32, sa string) string {
	b := make([]byte, 4*len(nodes), 4*len(nodes)+len(sa))
	for i, x := range nodes {
		binary.BigEndian.PutUint32(b[4*i:], uint32(x))
	}
	return string(append(b, sa...))
}

// index builds the run's answerer.
func (r *run) index() *index {
	cells := map[string]*acell{}
	for _, gi := range r.pub {
		g := &r.rec.groups[gi]
		for _, ci := range g.cells {
			c := &r.rec.cells[ci]
			if len(c.rows) == 0 {
				continue
			}
			sa := r.sa.Dict[c.sa]
			cells[cellKey(g.nodes, sa)] = &acell{nodes: g.nodes, sa: sa, count: float64(len(c.rows))}
		}
	}
	return newIndex(r.in.Roles.QIs, r.in.Roles.SA, r.beta, r.tax, r.saVals, cells)
}

// Answer estimates the query.
func (ix *index) Answer(q *query.Query) (method.Bounds, error) {
	qiPreds, saPreds, err := ix.splitPreds(q)
	if err != nil {
		return method.Bounds{}, err
	}
	// The share of each node's values that satisfy the conditions on its
	// attribute, computed once per node.
	share := make([][]float64, len(ix.qis))
	for i, ps := range qiPreds {
		if len(ps) == 0 {
			continue
		}
		share[i] = make([]float64, len(ix.tax[i].label))
		for x := range share[i] {
			share[i][x] = -1
		}
	}
	weight, sum := 0.0, 0.0
	lo, hi := math.Inf(1), math.Inf(-1)
	for ci := range ix.cells {
		c := &ix.cells[ci]
		if !ix.saMatches(c, saPreds) {
			continue
		}
		f := ix.matchingShare(c, share, qiPreds)
		if f == 0 {
			continue
		}
		weight += f
		sum += f * c.saNum
		lo, hi = math.Min(lo, c.saNum), math.Max(hi, c.saNum)
	}
	return ix.estimate(q, weight, sum, lo, hi), nil
}

// splitPreds sorts the query's conditions by quasi-identifier and onto the
// sensitive attribute, refusing a column the release does not publish, a
// non-number compared with a numeric attribute and an aggregate the
// sensitive attribute cannot take.
func (ix *index) splitPreds(q *query.Query) (qiPreds [][]query.Pred, saPreds []query.Pred, err error) {
	qiPreds = make([][]query.Pred, len(ix.qis))
	for _, p := range q.Preds {
		if p.Column == ix.sa {
			saPreds = append(saPreds, p)
			continue
		}
		i := indexOf(ix.qis, p.Column)
		if i < 0 {
			return nil, nil, &query.Error{Query: q.Text, Pos: p.Pos,
				Msg:  fmt.Sprintf("%s is neither a published quasi-identifier nor the sensitive attribute", p.Column),
				Hint: "a sampling release publishes the generalized quasi-identifiers and the sensitive attribute"}
		}
		if ix.tax[i].numeric {
			for _, v := range p.Values {
				if !v.IsNum {
					return nil, nil, &query.Error{Query: q.Text, Pos: int(v.Pos), Msg: fmt.Sprintf("%s is numeric but %q is not a number", p.Column, v.Text)}
				}
			}
		}
		qiPreds[i] = append(qiPreds[i], p)
	}
	if q.Column != "" && q.Column != ix.sa {
		return nil, nil, &query.Error{Query: q.Text, Pos: q.ColPos, Msg: fmt.Sprintf("aggregate the sensitive attribute %s (or COUNT(*))", ix.sa)}
	}
	if q.Agg != query.Count && !ix.saNumeric {
		return nil, nil, &query.Error{Query: q.Text, Pos: q.ColPos,
			Msg: fmt.Sprintf("%s needs a numeric sensitive attribute; %s is categorical", q.Agg, ix.sa), Hint: "use COUNT(*)"}
	}
	return qiPreds, saPreds, nil
}

// saMatches reports whether a cell's sensitive value meets every condition
// on the sensitive attribute.
func (ix *index) saMatches(c *acell, saPreds []query.Pred) bool {
	for _, p := range saPreds {
		if !p.MatchValue(c.sa, c.saNum, ix.saNumeric) {
			return false
		}
	}
	return true
}

// matchingShare is the expected number of a cell's records that meet the
// conditions on the quasi-identifiers: its count times, per conditioned
// attribute, the share of its node's values that do (uniform within each
// generalized value, Sattar et al., Section 6.1.1). share caches each
// node's share (-1: not computed yet).
func (ix *index) matchingShare(c *acell, share [][]float64, qiPreds [][]query.Pred) float64 {
	f := c.count
	for i, s := range share {
		if s == nil {
			continue
		}
		x := c.nodes[i]
		if s[x] < 0 {
			s[x] = 1
			for _, p := range qiPreds[i] {
				s[x] *= ix.tax[i].fraction(x, p)
			}
		}
		f *= s[x]
		if f == 0 {
			return 0
		}
	}
	return f
}

// estimate is the query's answer from the matching records' expected
// count (weight), their sensitive values' expected sum and the smallest
// and largest value among them, scaled by 1/beta for the records sampling
// left out.
func (ix *index) estimate(q *query.Query, weight, sum, lo, hi float64) method.Bounds {
	out := method.Bounds{HasEst: true, Note: fmt.Sprintf("uniform within each generalized value, scaled by 1/beta = %s (Sattar et al., Section 6.1.1)",
		strconv.FormatFloat(1/ix.beta, 'g', 4, 64))}
	if weight == 0 {
		out.Empty = true
		if q.Agg != query.Count && q.Agg != query.Sum {
			out.HasEst = false
		}
		return out
	}
	switch q.Agg {
	case query.Count:
		out.Estimate = weight / ix.beta
	case query.Sum:
		out.Estimate = sum / ix.beta
	case query.Avg:
		out.Estimate = sum / weight
		out.Note = "uniform within each generalized value (Sattar et al., Section 6.1.1)"
	case query.Min:
		out.Estimate, out.Note = lo, "smallest published value among the records that may match"
	case query.Max:
		out.Estimate, out.Note = hi, "largest published value among the records that may match"
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// headerOnly reads a CSV file that holds its header row and nothing else
// as a table without rows (nil for any other file).
func headerOnly(path string) *model.Table {
	f, err := releasedir.OpenFile(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	recs, err := csv.NewReader(model.NewTextReader(f, path, model.MaxRecordBytes)).ReadAll()
	if err != nil || len(recs) != 1 {
		return nil
	}
	t := &model.Table{Name: path}
	for _, name := range recs[0] {
		t.Columns = append(t.Columns, &model.Column{Name: name})
	}
	return t
}

// OpenRelease reads published.csv and the manifest's public knowledge to
// answer queries from the files alone.
func (Method) OpenRelease(dir string) (method.Answerer, error) {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	manPath := filepath.Join(dir, "manifest.json")
	d, err := format.Read(m)
	if err != nil {
		return nil, &model.InputError{File: manPath, Msg: err.Error(), Hint: "privlab check tells what is wrong with the release"}
	}
	if len(d.Attributes) != len(m.QIs) || !(d.SamplingRate > 0 && d.SamplingRate <= 1) {
		return nil, &model.InputError{File: manPath, Msg: "details do not describe every quasi-identifier and the sampling rate"}
	}
	tax := make([]*taxonomy, len(m.QIs))
	for i, a := range d.Attributes {
		if a.Name != m.QIs[i] {
			return nil, &model.InputError{File: manPath, Msg: fmt.Sprintf("details describe %s where the quasi-identifier %s is expected", a.Name, m.QIs[i])}
		}
		if tax[i], err = newTaxonomy(a); err != nil {
			return nil, &model.InputError{File: manPath, Msg: err.Error()}
		}
	}
	path := filepath.Join(dir, format.FilePublished)
	t, err := releasedir.LoadTable(path, csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	if err != nil {
		// A release may publish no record at all: a header alone.
		if t = headerOnly(path); t == nil {
			return nil, err
		}
	}
	want := append(append([]string(nil), m.QIs...), m.SA)
	if len(t.Columns) != len(want) {
		return nil, &model.InputError{File: path, Line: 1, Msg: "expected the columns " + fmt.Sprint(want)}
	}
	for i, c := range t.Columns {
		if c.Name != want[i] {
			return nil, &model.InputError{File: path, Line: 1, Msg: "expected the columns " + fmt.Sprint(want)}
		}
	}
	cells := map[string]*acell{}
	nodes := make([]int32, len(m.QIs))
	for row := 0; row < t.Rows; row++ {
		for i := range m.QIs {
			x, ok := tax[i].byLabel[t.Columns[i].Value(row)]
			if !ok {
				return nil, &model.InputError{File: path, Line: row + 2, Column: i + 1,
					Msg: fmt.Sprintf("%q is not a value of the taxonomy of %s", t.Columns[i].Value(row), m.QIs[i])}
			}
			nodes[i] = x
		}
		sa := t.Columns[len(m.QIs)].Value(row)
		k := cellKey(nodes, sa)
		if c, ok := cells[k]; ok {
			c.count++
		} else {
			cells[k] = &acell{nodes: append([]int32(nil), nodes...), sa: sa, count: 1}
		}
	}
	return newIndex(m.QIs, m.SA, d.SamplingRate, tax, d.Sensitive, cells), nil
}
