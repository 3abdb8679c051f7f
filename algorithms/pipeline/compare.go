package pipeline

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/query"
)

// CompareRow is one method in a comparison: its comparable settings,
// whether its own requirement holds, the figures every release gets and
// the error of the same workload.
type CompareRow struct {
	Method    string
	Variant   string
	Settings  string // the values that differ from the method's defaults
	Holds     bool   // the method's own privacy requirement
	Worst     string // the method's first worst case, as text
	Published int
	Risk      *risk.Report
	// Attacks are the attacks measured on the release (SPEC 3.7), with
	// the input as the population.
	Attacks *attack.Report
	// Workload: the mean relative error of an estimate of every answer
	// (the middle of bounds), and for methods that answer with bounds the
	// bound width over the truth.
	EstErr  float64
	Width   float64
	Bounded bool
	Queries int
	Millis  int64
	Err     string
	// Project reproduces the row's run (the workbench opens it).
	Project Project
}

// CompareOptions tune Compare.
type CompareOptions struct {
	// K is the group size of the methods that have one (0: 10).
	K int
	// Workload is the common workload (its shape is count-in unless set).
	Workload workload.Options
	// Threshold is the at-risk threshold of the risk figures.
	Threshold float64
	// Progress receives the share of methods done.
	Progress func(done float64)
	// Now is the clock the run times are measured with (nil: time.Now).
	Now func() time.Time
}

// Compare runs every registered method on the project's table, QIs and
// sensitive attribute with comparable settings (method.Spec.Compare: the
// same k or group size where a method has one, its defaults otherwise),
// measures each release with the figures every release gets and with
// one common workload (COUNT with IN-conditions on QIs and the sensitive
// attribute, the query shape every method answers), and returns one row
// per method. A method that cannot run on the input gets a row with its
// error.
func Compare(ctx context.Context, env Env, p Project, t *model.Table, opt CompareOptions) ([]CompareRow, error) {
	if opt.K <= 0 {
		opt.K = 10
	}
	if opt.Workload.Shape == "" {
		opt.Workload.Shape = workload.CountIn
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	var rows []CompareRow
	methods := catalog.All()
	c := &comparison{env: env, opt: opt}
	for i, m := range methods {
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		spec := m.Spec()
		row := comparedProject(p, spec, t, opt.K)
		if err := c.measure(ctx, spec, t, &row); err != nil {
			if ctx.Err() != nil {
				return rows, ctx.Err()
			}
			row.Err = err.Error()
		}
		rows = append(rows, row)
		if opt.Progress != nil {
			opt.Progress(float64(i+1) / float64(len(methods)))
		}
	}
	return rows, nil
}

// comparedProject is the row of one method in Compare, with the project
// it runs: p's table, roles and seed with the method's comparable
// settings (method.Spec.Compare, for group size k), or its defaults.
func comparedProject(p Project, spec method.Spec, t *model.Table, k int) CompareRow {
	row := CompareRow{Method: spec.Name}
	q := p.Clone()
	q.Method, q.Variant, q.Params = spec.Name, "", model.Values{}
	if v, ok := p.Params[model.SeedParam.Name]; ok {
		q.Params[model.SeedParam.Name] = v
	}
	if spec.Public == method.NoPublic {
		q.Public = ""
	}
	if spec.Compare != nil {
		variant, values := spec.Compare(k, t, q.Roles, q.Public != "")
		q.Variant = variant
		for k, v := range values {
			q.Params[k] = v
		}
		row.Settings = settingsText(values)
	} else {
		row.Settings = "its defaults (no group size)"
	}
	row.Variant, row.Project = q.Variant, q
	return row
}

// comparison is one Compare: its settings and the common workload, made
// and answered on the table once for every method.
type comparison struct {
	env    Env
	opt    CompareOptions
	qs     []*query.Query
	truths []query.Answer
}

// measure runs row's project and fills in its time, guarantee, worst
// figure, attacks, risk and workload error; the error is the first step's
// that failed.
func (c *comparison) measure(ctx context.Context, spec method.Spec, t *model.Table, row *CompareRow) error {
	start := c.opt.Now()
	prep, err := c.env.Prepare(row.Project, t)
	if err != nil {
		return err
	}
	res, err := Run(ctx, prep, RunOptions{})
	if err != nil {
		return err
	}
	row.Millis = c.opt.Now().Sub(start).Milliseconds()
	if row.Variant == "" {
		row.Variant = prep.Input().VariantOr(spec)
	}
	row.Holds, row.Published = res.Satisfied(), res.Published
	if len(res.Summary) > 0 {
		f := res.Summary[0]
		row.Worst = fmt.Sprintf("%s %.4g", f.Name, f.Value)
		if f.Limit != "" {
			row.Worst += " (limit " + f.Limit + ")"
		}
	}
	// The attacks and the risk figures read one build of the
	// release (Preview).
	pv := NewPreview(res)
	row.Attacks, _ = pv.Attacks(ctx, c.env, prep)
	if row.Risk, _, err = pv.Risk(ctx, c.opt.Threshold); err != nil || res.Answerer == nil {
		return err
	}
	if c.qs == nil {
		// One workload and one computation of its true
		// answers for every method: the same table.
		if c.qs, err = workload.Generate(prep.Table, prep.Project.Roles, c.opt.Workload); err == nil {
			c.truths, err = workload.Truths(prep.Table, c.qs)
		}
		if err != nil {
			c.qs, c.truths = []*query.Query{}, nil
		}
	}
	w, err := workload.EvaluateTruths(c.truths, res.Answerer, c.qs)
	if err != nil {
		return err
	}
	row.EstErr, row.Queries = w.EstErr, w.Queries
	if w.Bounded > 0 {
		row.Bounded, row.Width = true, w.MeanErr
	}
	return nil
}

// settingsText lists values as k=10, grouping=mondrian:10 (sorted).
func settingsText(v model.Values) string {
	var parts []string
	for k, x := range v {
		parts = append(parts, k+"="+x)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// CompareLine is one figure of a comparison across methods: its value per
// row (NaN where a method has none) and which rows are best.
type CompareLine struct {
	Name   string
	Help   string
	Values []float64
	Text   []string
	Best   []bool
}

// compared are the risk figures a comparison shows, in order.
var compared = []string{risk.KeySmallest, risk.KeyUniqueShare, risk.KeyProsAvg, risk.KeyAtRisk, risk.KeyDistinctL,
	risk.KeyEntropyL, risk.KeyTopBelief, risk.KeyTCloseness, risk.KeyNCP, risk.KeyPresence}

// CompareLines turns comparison rows into lines, one per figure, with
// the best value of each line marked (lower or higher as the figure
// says; a method that failed, has no such figure or published no record
// is never best).
func CompareLines(rows []CompareRow) []CompareLine {
	var out []CompareLine
	text := func(name, help string, f func(r CompareRow) (float64, string, bool), better int) {
		l := CompareLine{Name: name, Help: help}
		best, n := math.NaN(), 0
		for _, r := range rows {
			x, s, ok := f(r)
			if !ok || r.Err != "" {
				x, s = math.NaN(), "—"
			}
			l.Values, l.Text = append(l.Values, x), append(l.Text, s)
			if math.IsNaN(x) || r.Published == 0 {
				continue // a release of no record hides everyone trivially: never best
			}
			n++
			if better != 0 && (math.IsNaN(best) || float64(better)*(x-best) > 0) {
				best = x
			}
		}
		if n < 2 {
			best = math.NaN() // nothing to compare with
		}
		for i, x := range l.Values {
			l.Best = append(l.Best, rows[i].Published > 0 && !math.IsNaN(best) && math.Abs(x-best) <= 1e-12*math.Max(1, math.Abs(best)))
		}
		out = append(out, l)
	}
	text("own requirement holds", "the method's own privacy requirement, as its checker holds it", func(r CompareRow) (float64, string, bool) {
		if r.Holds {
			return 1, "✓", true
		}
		return 0, "✗", true
	}, 0)
	text("rows published", "records the release represents", func(r CompareRow) (float64, string, bool) {
		return float64(r.Published), fmt.Sprint(r.Published), true
	}, +1)
	for _, key := range compared {
		var name, help string
		better := 0
		for _, r := range rows {
			if r.Risk == nil {
				continue
			}
			if f, ok := r.Risk.Get(key); ok {
				name, help, better = f.Name, f.Help, f.Better
				break
			}
		}
		if name == "" {
			continue
		}
		text(name, help, func(r CompareRow) (float64, string, bool) {
			if r.Risk == nil {
				return 0, "", false
			}
			f, ok := r.Risk.Get(key)
			return f.Value, f.Format(), ok
		}, better)
	}
	attackLines(rows, text)
	text("workload error (estimate)", "mean relative error of COUNT queries with IN-conditions on QIs and the SA (bounds: their middle)", func(r CompareRow) (float64, string, bool) {
		return r.EstErr, fmt.Sprintf("%.4f", r.EstErr), r.Queries > 0
	}, -1)
	text("bound width / truth", "for methods that answer with bounds: their width over the true answer", func(r CompareRow) (float64, string, bool) {
		return r.Width, fmt.Sprintf("%.4f", r.Width), r.Bounded
	}, -1)
	text("time (ms)", "the run's time", func(r CompareRow) (float64, string, bool) {
		return float64(r.Millis), fmt.Sprint(r.Millis), true
	}, -1)
	return out
}

// attackLines adds one line per attack measured on any row: the records
// or people it succeeds on, marked broken (✗) or holds (✓) in front (a
// narrow column clips the count, never the mark); not bounded has no
// mark. The fewest successes are best, as on every line, broken or not
// (the mark says whether the method kept its own bound).
func attackLines(rows []CompareRow, text func(name, help string, f func(r CompareRow) (float64, string, bool), better int)) {
	var names []string
	for _, r := range rows {
		if r.Attacks == nil {
			continue
		}
		for _, f := range r.Attacks.Findings {
			if f.NotRun == "" && !slices.Contains(names, f.Attack) {
				names = append(names, f.Attack) // a line per attack some method ran
			}
		}
	}
	for _, name := range names {
		text("attack: "+name, "what the attack succeeds on, against the method's bound (✗ broken, ✓ holds, no mark: not bounded)", func(r CompareRow) (float64, string, bool) {
			if r.Attacks == nil {
				return 0, "", false
			}
			for _, f := range r.Attacks.Findings {
				if f.Attack != name || f.NotRun != "" {
					continue
				}
				switch f.Holds() {
				case 0:
					return float64(f.Records), fmt.Sprintf("✗ %d", f.Records), true
				case 1:
					return float64(f.Records), fmt.Sprintf("✓ %d", f.Records), true
				}
				return float64(f.Records), fmt.Sprint(f.Records), true
			}
			return 0, "", false
		}, -1)
	}
}
