// Package workload measures a release's utility with a random workload of
// the query shapes the papers evaluate with (SPEC 3.6), answered on the
// original table (truth) and on the release (bounds or estimate).
package workload

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/gocarina/gocsv"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// Shapes:
//   - "avg-range": AVG(sa) WHERE q BETWEEN x AND y over a numeric QI with
//     y - x a fixed fraction of its domain (Koudas et al. 2009, Section 6.1).
//   - "count-range": COUNT(*) over a box covering the fraction Range of the
//     numeric QIs' domain space (Sacharidis et al., Section 5: queries
//     "that span a given percentage |R| of the entire domain space"), so
//     Range^(1/d) of each of the d numeric QIs' domains. Categorical QIs
//     are left out: a workload knows no order of their values.
//   - "count-in": COUNT(*) with a condition on qd randomly chosen QIs and
//     one on the sensitive attribute, each selecting a fraction
//     s^(1/(qd+1)) of its domain, so that the query selects about s of the
//     table (Wong et al., Section 7; Wang, Section 7): A IN (b values) with
//     b = ceil(|A| * s^(1/(qd+1))) for a categorical attribute, a range
//     of that fraction of the domain for a numeric one. With
//     Options.SAPoint the condition on the sensitive attribute is SA = v
//     for one random value v, and the qd QI conditions carry the
//     selectivity alone: each selects s^(1/qd) of its domain (the COUNT
//     ... WHERE S = v queries of Wang, Section 8.1).
const (
	AvgRange   = "avg-range"
	CountRange = "count-range"
	CountIn    = "count-in"
)

// Options tune Generate.
type Options struct {
	Shape   string
	Queries int     // number of queries (default 100)
	Range   float64 // fraction of the domain a range covers (default 0.1)
	Seed    uint64
	// Dims is qd, the number of QIs a count-in query conditions on
	// (default min(4, QIs)); Selectivity is its s (default 0.05).
	Dims        int
	Selectivity float64
	// SAPoint makes a count-in query's condition on the sensitive
	// attribute SA = v (one value) instead of an IN over a fraction of its
	// values; the QI conditions then select s of the table together.
	SAPoint bool
}

// Describe says in words what a workload of the shape selects.
func Describe(shape string, opt Options) string {
	if shape == CountIn {
		qd := "min(4, QIs)"
		if opt.Dims > 0 {
			qd = fmt.Sprint(opt.Dims)
		}
		s := opt.Selectivity
		if s <= 0 || s > 1 {
			s = 0.05
		}
		if opt.SAPoint {
			return fmt.Sprintf("conditions on %s quasi-identifiers selecting %g of the table, and SA = v for one random value v", qd, s)
		}
		return fmt.Sprintf("conditions on %s quasi-identifiers and the sensitive attribute, selectivity %g", qd, s)
	}
	r := opt.Range
	if r <= 0 || r > 1 {
		r = 0.1
	}
	if shape == CountRange {
		return fmt.Sprintf("box over %.0f%% of the numeric QIs' domain space", r*100)
	}
	return fmt.Sprintf("range %.0f%% of the domain", r*100)
}

// Generate makes a random workload for the table and roles.
func Generate(t *model.Table, roles model.Roles, opt Options) ([]*query.Query, error) {
	g, err := newGenerator(t, roles, opt)
	if err != nil {
		return nil, err
	}
	var out []*query.Query
	for i := 0; i < g.n; i++ {
		q, err := g.next()
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// generator draws a workload's queries one at a time, in Generate's
// order (Measure holds a few at once, not the whole workload: on a
// 20,000-value attribute each count-in query lists ~9,500 values).
type generator struct {
	n    int
	next func() (*query.Query, error)
	// reads names the columns a query may read (every query reads some
	// of them) and counts says whether every query is a COUNT(*): the
	// tuples the true answers are counted on (countTuples).
	reads  []string
	counts bool
	// recycle, when not nil, hands the lists of the queries drawn so far
	// to the next ones: the caller has let go of those queries.
	recycle func()
}

// newGenerator checks the table and roles against the shape (Generate's
// errors before its first query) and returns the queries' generator.
func newGenerator(t *model.Table, roles model.Roles, opt Options) (*generator, error) {
	if opt.Queries <= 0 {
		opt.Queries = 100
	}
	if opt.Range <= 0 || opt.Range > 1 {
		opt.Range = 0.1
	}
	rng := model.NewRand(opt.Seed)
	if opt.Shape == CountIn {
		return countIn(t, roles, opt, rng)
	}
	var numeric []*model.Column
	for _, q := range roles.QIs {
		if c := t.Column(q); c != nil && c.Kind == model.Numeric && len(c.Nums) > 1 {
			numeric = append(numeric, c)
		}
	}
	if len(numeric) == 0 {
		return nil, fmt.Errorf("the %s workload needs a numeric quasi-identifier", opt.Shape)
	}
	g := &generator{n: opt.Queries, counts: opt.Shape == CountRange}
	for _, c := range numeric {
		g.reads = append(g.reads, c.Name)
	}
	if !g.counts {
		g.reads = []string{numeric[0].Name, roles.SA}
	}
	g.next = func() (*query.Query, error) {
		var w *query.Writer
		switch opt.Shape {
		case CountRange:
			w = query.NewWriter(query.Count, "")
			side := math.Pow(opt.Range, 1/float64(len(numeric)))
			for _, c := range numeric {
				lo, hi := rangeIn(c, side, rng, false)
				w.Between(c.Name, model.FormatNumber(lo), model.FormatNumber(hi))
			}
		default: // AvgRange
			c := numeric[0]
			lo, hi := rangeIn(c, opt.Range, rng, false)
			w = query.NewWriter(query.Avg, roles.SA)
			w.Between(c.Name, model.FormatNumber(lo), model.FormatNumber(hi))
		}
		return w.Query()
	}
	return g, nil
}

// countIn generates the count-in shape.
func countIn(t *model.Table, roles model.Roles, opt Options, rng *model.Rand) (*generator, error) {
	var qis []*model.Column
	for _, q := range roles.QIs {
		if c := t.Column(q); c != nil && len(c.Dict) > 0 {
			qis = append(qis, c)
		}
	}
	sa := t.Column(roles.SA)
	if len(qis) == 0 || sa == nil || len(sa.Dict) == 0 {
		return nil, fmt.Errorf("the %s workload needs quasi-identifiers and a sensitive attribute with values", CountIn)
	}
	qd := opt.Dims
	if qd <= 0 {
		qd = min(4, len(qis))
	}
	if qd > len(qis) {
		return nil, &model.ParamError{Param: "qd", Value: fmt.Sprint(qd), Reason: fmt.Sprintf("there are only %d quasi-identifiers", len(qis))}
	}
	s := opt.Selectivity
	if s <= 0 || s > 1 {
		s = 0.05
	}
	frac := math.Pow(s, 1/float64(qd+1))
	if opt.SAPoint {
		frac = math.Pow(s, 1/float64(qd))
	}
	g := &generator{n: opt.Queries, counts: true}
	for _, c := range qis {
		g.reads = append(g.reads, c.Name)
	}
	g.reads = append(g.reads, sa.Name)
	lits := map[*model.Column]*literals{}
	g.recycle = func() {
		for _, l := range lits {
			l.free = append(l.free, l.lent...)
			l.lent = l.lent[:0]
		}
	}
	g.next = func() (*query.Query, error) {
		perm := rng.Perm(len(qis))
		w := query.NewWriter(query.Count, "")
		for _, j := range perm[:qd] {
			condition(w, lits, qis[j], frac, rng)
		}
		if opt.SAPoint {
			w.Equal(sa.Name, sa.Dict[rng.Intn(len(sa.Dict))])
		} else {
			condition(w, lits, sa, frac, rng)
		}
		return w.Query()
	}
	return g, nil
}

// condition selects a fraction of c's domain: a range of a numeric
// column, ceil(|A| * frac) distinct values of a categorical one.
// lits keeps each column's values as literals from query to query.
func condition(w *query.Writer, lits map[*model.Column]*literals, c *model.Column, frac float64, rng *model.Rand) {
	if c.Kind == model.Numeric && len(c.Nums) > 1 {
		lo, hi := rangeIn(c, frac, rng, true)
		w.Between(c.Name, model.FormatNumber(lo), model.FormatNumber(hi))
		return
	}
	b := int(math.Ceil(float64(len(c.Dict)) * frac))
	b = max(1, min(b, len(c.Dict)))
	l := lits[c]
	if l == nil {
		l = &literals{Literals: query.NewLiterals(c), perm: make([]uint32, len(c.Dict))}
		lits[c] = l
	}
	rng.PermUint32(l.perm) // rng.Perm(len(c.Dict)), into one buffer
	var li list
	if n := len(l.free); n > 0 {
		li, l.free = l.free[n-1], l.free[:n-1]
	} else {
		li = list{codes: make([]uint32, b), values: make([]query.Literal, b)}
	}
	l.lent = append(l.lent, li)
	copy(li.codes, l.perm[:b])
	w.InInto(l.Literals, li.codes, li.values)
}

// literals are a column's values as query literals and a buffer for the
// permutations that pick them. lent are the lists of the queries drawn
// since the generator's last recycle, free those it may write again.
type literals struct {
	*query.Literals
	perm       []uint32
	lent, free []list
}

// list is the memory of one IN list: its codes and its values.
type list struct {
	codes  []uint32
	values []query.Literal
}

// QuoteValue writes a value as a query literal: a number as it is, text in
// single quotes with ” for a quote (query.QuoteLiteral).
func QuoteValue(v string) string { return query.QuoteLiteral(v) }

// fewValues is the number of distinct values up to which a numeric
// column's ranges are placed around one of its values.
const fewValues = 32

// rangeIn picks [x, x+R*span] inside the column's domain (integers stay
// integers). Anchored, a column with few distinct values (a postcode with
// two) gets a range that contains one of them, picked at random: a range
// placed anywhere in the span would mostly select nothing (the count-in
// conditions; the range shapes keep the papers' uniform placement).
func rangeIn(c *model.Column, frac float64, rng *model.Rand, anchored bool) (float64, float64) {
	lo, hi, _ := c.Range()
	w := (hi - lo) * frac
	integral := true
	for _, v := range c.Nums {
		if v != math.Trunc(v) {
			integral = false
			break
		}
	}
	x := lo + rng.Float64()*(hi-lo-w)
	if anchored && len(c.Dict) <= fewValues {
		v := c.Nums[rng.Intn(len(c.Nums))]
		from, to := math.Max(lo, v-w), math.Min(v, hi-w)
		x = from + rng.Float64()*math.Max(0, to-from)
		if integral {
			w = math.Round(w)
			x = math.Min(v, math.Max(lo, math.Ceil(x)))
		}
		return x, math.Max(x+w, v)
	}
	if integral {
		w = math.Max(1, math.Round(w))
		x = math.Floor(x)
	}
	return x, x + w
}

// Result summarises a workload run.
type Result struct {
	Queries  int     // queries with a non-empty, non-zero true answer
	Skipped  int     // empty selections or zero truth
	MeanErr  float64 // average relative error
	MedErr   float64
	MaxErr   float64
	Contains int // bounds that contain the truth (must be all)
	Bounded  int // answers that were bounds
	// EstErr is the mean relative error of an estimate of every answer:
	// the estimate itself, or the middle of the bounds, so that methods
	// that answer with bounds and methods that estimate compare.
	EstErr float64
	// Rows has one entry per evaluated query (skipped ones included).
	Rows []Row
}

// Row is one query of a workload, as `privlab eval --csv` writes it.
type Row struct {
	Query    string  `csv:"query"`
	Truth    float64 `csv:"truth"`
	Selected int     `csv:"selected_rows"`
	Low      float64 `csv:"low"`
	High     float64 `csv:"high"`
	Estimate float64 `csv:"estimate"`
	RelErr   float64 `csv:"rel_error"`
	Contains bool    `csv:"contains_truth"`
	Skipped  bool    `csv:"skipped"`
}

// WriteCSV writes the per-query rows (gocsv on model's CSV writer, never
// its package-wide settings).
func (r Result) WriteCSV(w io.Writer) error {
	return gocsv.MarshalCSV(r.Rows, releasedir.NewCSVWriter(w))
}

// Evaluate answers every query on the truth and the release. The relative
// error is (upper - lower) / truth for bounds (Koudas et al. 2009, Section
// 6: err) and |estimate - truth| / truth for estimates. The true answers
// are computed on the other cores while the release answers (in query
// order, on this goroutine: an Answerer need not be safe for concurrent
// use); the result and the error are those of Truths then
// EvaluateTruths.
func Evaluate(t *model.Table, a method.Answerer, qs []*query.Query) (Result, error) {
	tr := startTruths(t, qs)
	res, err := evaluate(func(i int) (query.Answer, error) {
		err := tr.wait(i)
		return tr.out[i], err
	}, a, qs)
	if err != nil {
		// Truths fails on the first query whose truth fails before any
		// release answer is asked for: that error comes first.
		if terr := tr.firstErr(); terr != nil {
			return Result{}, terr
		}
	}
	return res, err
}

// EvaluateTruths is Evaluate with the true answers given.
func EvaluateTruths(truths []query.Answer, a method.Answerer, qs []*query.Query) (Result, error) {
	return evaluate(func(i int) (query.Answer, error) { return truths[i], nil }, a, qs)
}

// evaluate answers the queries on the release in order, query i's truth
// given by truthOf(i).
func evaluate(truthOf func(i int) (query.Answer, error), a method.Answerer, qs []*query.Query) (Result, error) {
	ev := evaluation{rows: true}
	for i, q := range qs {
		truth, err := truthOf(i)
		if err != nil {
			return Result{}, err
		}
		if err := ev.add(q, truth, a); err != nil {
			return ev.res, err
		}
	}
	return ev.result(), nil
}

// evaluation sums a workload's errors query by query (evaluate's and
// Measure's).
type evaluation struct {
	res  Result
	errs []float64
	rows bool // keep a Row per query
}

// add answers q on the release (unless its truth selects nothing) and
// counts its error.
func (ev *evaluation) add(q *query.Query, truth query.Answer, a method.Answerer) error {
	res := &ev.res
	row := Row{Query: q.Text, Truth: truth.Value, Selected: truth.Count}
	keep := func() {
		if ev.rows {
			res.Rows = append(res.Rows, row)
		}
	}
	if truth.Empty || truth.Value == 0 {
		res.Skipped++
		row.Skipped = true
		keep()
		return nil
	}
	b, err := a.Answer(q)
	if err != nil {
		return err
	}
	var e float64
	switch {
	case b.HasBounds:
		res.Bounded++
		row.Low, row.High = b.Low, b.High
		if b.Low <= truth.Value+1e-9*math.Abs(truth.Value) && truth.Value <= b.High+1e-9*math.Abs(truth.Value) {
			res.Contains++
			row.Contains = true
		}
		e = (b.High - b.Low) / math.Abs(truth.Value)
		res.EstErr += math.Abs((b.Low+b.High)/2-truth.Value) / math.Abs(truth.Value)
	case b.HasEst:
		row.Estimate = b.Estimate
		e = math.Abs(b.Estimate-truth.Value) / math.Abs(truth.Value)
		res.EstErr += e
	default:
		// Neither bounds nor an estimate: keep the row, measure nothing.
		row.Skipped = true
		keep()
		return nil
	}
	row.RelErr = e
	keep()
	ev.errs = append(ev.errs, e)
	return nil
}

// result is the summary of the queries added.
func (ev *evaluation) result() Result {
	res, errs := ev.res, ev.errs
	res.Queries = len(errs)
	if len(errs) == 0 {
		return res
	}
	res.EstErr /= float64(len(errs))
	sort.Float64s(errs)
	for _, e := range errs {
		res.MeanErr += e / float64(len(errs))
	}
	if n := len(errs); n%2 == 1 {
		res.MedErr = errs[n/2]
	} else {
		res.MedErr = (errs[n/2-1] + errs[n/2]) / 2
	}
	res.MaxErr = errs[len(errs)-1]
	return res
}
