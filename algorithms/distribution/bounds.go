package distribution

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"

	"privlab/algorithms/method"
	"privlab/model"
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
}

func newBoundsIndex(t *model.Table, groupOf []int32, qis []string, sa string, numeric bool, lows, highs [][]float64) *boundsIndex {
	b := &boundsIndex{table: t, groupOf: groupOf, sa: sa, numeric: numeric, qis: map[string]bool{},
		low: lows, high: highs}
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
// [lower, upper] bounds that always contain the true answer.
func (b *boundsIndex) Answer(q *model.Query) (method.Bounds, error) {
	for _, p := range q.Preds {
		if !b.qis[p.Column] {
			return method.Bounds{}, &model.QueryError{Query: q.Text, Pos: p.Pos,
				Msg:  fmt.Sprintf("%s is not a published quasi-identifier", p.Column),
				Hint: "distribution releases answer conditions on the quasi-identifiers (Koudas et al. 2009, Section 3.3)"}
		}
	}
	if q.Column != "" && q.Column != b.sa {
		return method.Bounds{}, &model.QueryError{Query: q.Text, Pos: q.ColPos,
			Msg: fmt.Sprintf("aggregate the sensitive attribute %s (or COUNT(*))", b.sa)}
	}
	if q.Agg != model.Count && !b.numeric {
		return method.Bounds{}, &model.QueryError{Query: q.Text, Pos: q.ColPos,
			Msg: fmt.Sprintf("%s needs a numeric sensitive attribute; %s is categorical", q.Agg, b.sa), Hint: "use COUNT(*)"}
	}
	m, err := q.Bind(b.table)
	if err != nil {
		return method.Bounds{}, err
	}
	sel := make([]int, len(b.low))
	total := 0
	for r := 0; r < b.table.Rows; r++ {
		if m.Match(r) {
			sel[b.groupOf[r]]++
			total++
		}
	}
	out := method.Bounds{HasBounds: true, Note: "deterministic bounds from the selected count per group"}
	if total == 0 {
		out.Empty = true
		if q.Agg == model.Count || q.Agg == model.Sum {
			return out, nil
		}
		return out, nil
	}
	switch q.Agg {
	case model.Count:
		out.Low, out.High = float64(total), float64(total)
		out.Note = "exact: quasi-identifiers are published unchanged"
	case model.Sum, model.Avg:
		for g, k := range sel {
			if k > 0 {
				out.Low += b.lowSum[g][k]
				out.High += b.highSum[g][k]
			}
		}
		if q.Agg == model.Avg {
			out.Low /= float64(total)
			out.High /= float64(total)
		}
	case model.Min:
		out.Low, out.High = math.Inf(1), math.Inf(1)
		for g, k := range sel {
			if k > 0 {
				out.Low = math.Min(out.Low, b.low[g][0])
				out.High = math.Min(out.High, b.high[g][k-1]) // the k-th largest high
			}
		}
	case model.Max:
		out.Low, out.High = math.Inf(-1), math.Inf(-1)
		for g, k := range sel {
			if k > 0 {
				out.High = math.Max(out.High, b.high[g][0])
				out.Low = math.Max(out.Low, b.low[g][k-1]) // the k-th smallest low
			}
		}
	}
	return out, nil
}

// Answer bounds a query on the run's release.
func (r *run) Answer(q *model.Query) (method.Bounds, error) {
	r.once.Do(func() {
		groupOf := make([]int32, r.in.Table.Rows)
		lows := make([][]float64, len(r.groups))
		highs := make([][]float64, len(r.groups))
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
				}
			}
		}
		r.bounds = newBoundsIndex(r.in.Table, groupOf, r.in.Roles.QIs, r.in.Roles.SA, r.h.Numeric, lows, highs)
	})
	return r.bounds.Answer(q)
}

// OpenRelease reads qi.csv and sa.csv of an exported release to answer
// queries from the published files alone.
func (Method) OpenRelease(dir string) (method.Answerer, error) {
	man, err := model.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if man.Method != Name {
		return nil, fmt.Errorf("%s holds a %s release, not %s", dir, man.Method, Name)
	}
	qi, err := model.LoadFile(filepath.Join(dir, "qi.csv"), model.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	if err != nil {
		return nil, err
	}
	sa, err := model.LoadFile(filepath.Join(dir, "sa.csv"), model.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
	if err != nil {
		return nil, err
	}
	gcol := qi.Column("GroupID")
	if gcol == nil {
		return nil, &model.InputError{File: filepath.Join(dir, "qi.csv"), Line: 1, Msg: "no GroupID column"}
	}
	sg, lo, hi := sa.Column("GroupID"), sa.Column("Low"), sa.Column("High")
	if sg == nil || lo == nil || hi == nil {
		return nil, &model.InputError{File: filepath.Join(dir, "sa.csv"), Line: 1, Msg: "expected columns GroupID, Low, High"}
	}
	index := map[string]int32{}
	groupOf := make([]int32, qi.Rows)
	for r := 0; r < qi.Rows; r++ {
		id := gcol.Value(r)
		g, ok := index[id]
		if !ok {
			g = int32(len(index))
			index[id] = g
		}
		groupOf[r] = g
	}
	lows := make([][]float64, len(index))
	highs := make([][]float64, len(index))
	numeric := lo.Kind == model.Numeric && hi.Kind == model.Numeric
	for r := 0; r < sa.Rows; r++ {
		g, ok := index[sg.Value(r)]
		if !ok {
			return nil, &model.InputError{File: filepath.Join(dir, "sa.csv"), Line: r + 2,
				Msg: "GroupID " + strconv.Quote(sg.Value(r)) + " has no rows in qi.csv"}
		}
		lows[g] = append(lows[g], lo.Num(r))
		highs[g] = append(highs[g], hi.Num(r))
	}
	sizes := make([]int, len(index))
	for _, g := range groupOf {
		sizes[g]++
	}
	for g := range lows {
		if len(lows[g]) < sizes[g] {
			return nil, &model.InputError{File: filepath.Join(dir, "sa.csv"), Msg: "a group has fewer subdomains than tuples"}
		}
	}
	return newBoundsIndex(qi, groupOf, man.QIs, man.SA, numeric, lows, highs), nil
}
