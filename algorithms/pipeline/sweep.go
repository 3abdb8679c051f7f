package pipeline

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gocarina/gocsv"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
)

// SweepRow is the outcome of one parameter value: privacy, utility and
// the workload error (the table `privlab eval --sweep` prints and writes).
type SweepRow struct {
	Param      string  `csv:"parameter"`
	Value      string  `csv:"value"`
	Groups     int     `csv:"groups"`
	Violating  int     `csv:"groups_violating"`
	Published  int     `csv:"rows_published"`
	Suppressed int     `csv:"rows_suppressed"`
	Utility    string  `csv:"utility_figure"`
	UtilityVal float64 `csv:"utility"`
	MeanErr    float64 `csv:"workload_mean_rel_error"`
	MedianErr  float64 `csv:"workload_median_rel_error"`
	Measured   int     `csv:"workload_queries"` // queries measured (0: the errors mean nothing)
	Bounded    bool    `csv:"workload_bounds"`  // the errors are bound widths over the truth
	// Worst is the method's first worst case (its privacy requirement's
	// figure) and WorstLimit what it is held against.
	Worst      string  `csv:"worst_case"`
	WorstVal   float64 `csv:"worst_case_value"`
	WorstLimit string  `csv:"worst_case_limit"`
	Holds      bool    `csv:"requirement_holds"`
	Millis     int64   `csv:"run_ms"`
	Error      string  `csv:"error"`
}

// ParseSweep reads PARAM=V1,V2,... or, when values contain commas (as
// normal:MU,SIGMA does), PARAM=V1;V2;..., or a range PARAM=FROM..TO with
// an optional step (PARAM=FROM..TO:STEP, default 1): k=2..20:2.
func ParseSweep(s string) (string, []string, error) {
	name, list, ok := strings.Cut(s, "=")
	if ok {
		if vals, isRange, err := sweepRange(strings.TrimSpace(list)); isRange {
			if err != nil {
				return "", nil, &model.ParamError{Param: "sweep", Value: s, Reason: err.Error(),
					Hint: "a range is FROM..TO with an optional :STEP, e.g. alpha=0.1..0.5:0.1", Fixes: []model.Fix{{Setting: model.SetSweep, Value: "k=2..20:2"}}}
			}
			return strings.TrimSpace(name), vals, nil
		}
	}
	sep := ","
	if strings.Contains(list, ";") {
		sep = ";"
	}
	var vals []string
	for _, v := range strings.Split(list, sep) {
		if v = strings.TrimSpace(v); v != "" {
			vals = append(vals, v)
		}
	}
	if !ok || strings.TrimSpace(name) == "" || len(vals) == 0 {
		return "", nil, &model.ParamError{Param: "sweep", Value: s, Reason: "expected PARAM=V1,V2,...",
			Fixes: []model.Fix{{Setting: model.SetSweep, Value: "fakes=0,1,5,10%"}}}
	}
	return strings.TrimSpace(name), vals, nil
}

// maxSweepValues bounds a range's expansion.
const maxSweepValues = 1000

// sweepRange expands FROM..TO[:STEP]; isRange is false when list is not
// a range.
func sweepRange(list string) (vals []string, isRange bool, err error) {
	from, rest, ok := strings.Cut(list, "..")
	if !ok || strings.ContainsAny(list, ",;") {
		return nil, false, nil
	}
	to, stepText, hasStep := strings.Cut(rest, ":")
	a, okA := model.ParseNumber(strings.TrimSpace(from))
	b, okB := model.ParseNumber(strings.TrimSpace(to))
	step := 1.0
	okS := true
	if hasStep {
		step, okS = model.ParseNumber(strings.TrimSpace(stepText))
	}
	switch {
	case !okA || !okB || !okS:
		return nil, true, fmt.Errorf("a range needs numbers: FROM..TO[:STEP]")
	case step <= 0 || math.IsNaN(step) || math.IsInf(step, 0):
		return nil, true, fmt.Errorf("the step must be > 0")
	case b < a:
		return nil, true, fmt.Errorf("the range runs from %s down to %s", model.FormatNumber(a), model.FormatNumber(b))
	case (b-a)/step+1 > maxSweepValues:
		return nil, true, fmt.Errorf("the range has more than %d values", maxSweepValues)
	}
	for i := 0; ; i++ {
		x := a + float64(i)*step
		if x > b+1e-9*math.Max(1, math.Abs(b)) {
			break
		}
		x = math.Round(x*1e9) / 1e9 // 0.1+0.2 reads as 0.3
		vals = append(vals, model.FormatNumber(x))
	}
	return vals, true, nil
}

// sweepValue sets one swept value in the project. A sweep of the group
// size k (method.GroupSizeParam) gives a method that reads no k its
// comparable settings for it (method.Spec.Compare), e.g. distribution's
// grouping=mondrian:k.
func sweepValue(q *Project, t *model.Table, param, v string) error {
	m, err := catalog.Lookup(q.Method)
	if err != nil {
		return err
	}
	spec := m.Spec()
	if _, reads := spec.Param(param); reads || param != method.GroupSizeParam || spec.Compare == nil {
		q.Params[param] = v
		return nil
	}
	k, err := method.ParseGroupSize(v, t.Rows)
	if err != nil {
		return err
	}
	variant, values := spec.Compare(k, t, q.Roles, q.Public != "")
	if variant != "" {
		q.Variant = variant
	}
	for name, x := range values {
		q.Params[name] = x
	}
	return nil
}

// SweepOptions are what a caller follows of a sweep as it runs.
type SweepOptions struct {
	// Progress (when not nil) receives the share of values done.
	Progress func(done float64)
	// Each (when not nil) receives each value's result with the index of
	// its row, in the sweep's goroutine, so that the caller measures more
	// of it (the workbench: the risk figures).
	Each func(row int, res *method.Result)
}

// Sweep re-runs the project once per value of one parameter on the same
// table and measures each run with the same random workload, so the rows
// compare like with like. An invalid value gives a row with its error.
func Sweep(ctx context.Context, env Env, p Project, t *model.Table, param string, values []string, opt workload.Options,
	follow SweepOptions) ([]SweepRow, error) {
	progress, each := follow.Progress, follow.Each
	if env.Cache == nil {
		env.Cache = &Cache{} // the sweep's own: its values answer the same queries
	}
	var rows []SweepRow
	defer func() {
		if progress != nil {
			progress(1)
		}
	}()
	for i, v := range values {
		if progress != nil {
			progress(float64(i) / float64(len(values)))
		}
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		q := p.Clone()
		if q.Params == nil {
			q.Params = model.Values{}
		}
		if err := sweepValue(&q, t, param, v); err != nil {
			return nil, err
		}
		row := SweepRow{Param: param, Value: v}
		start := time.Now()
		prep, err := env.Prepare(q, t)
		if err != nil {
			if _, ok := err.(*model.ParamError); ok && len(rows) == 0 && strings.Contains(err.Error(), "not a parameter") {
				return nil, err
			}
			row.Error = err.Error()
			rows = append(rows, row)
			continue
		}
		res, err := Run(ctx, prep, RunOptions{})
		if err != nil {
			row.Error = err.Error()
			rows = append(rows, row)
			continue
		}
		row.Millis = time.Since(start).Milliseconds()
		row.Groups, row.Violating = len(res.Groups), res.Violations()
		row.Holds = res.Satisfied()
		if len(res.Summary) > 0 {
			row.Worst, row.WorstVal, row.WorstLimit = res.Summary[0].Name, res.Summary[0].Value, res.Summary[0].Limit
		}
		row.Published, row.Suppressed = res.Published, res.Suppressed
		row.Utility, row.UtilityVal = res.Utility.Name, res.Utility.Value
		if each != nil {
			each(len(rows), res)
		}
		if res.Answerer != nil && res.Workload != "" {
			// Every swept value answers the same queries on the same
			// table: their true answers are counted once (PreviewEval).
			w, err := env.PreviewEval(ctx, prep, res, opt)
			if err != nil {
				row.Error = err.Error()
			} else {
				row.MeanErr, row.MedianErr, row.Measured, row.Bounded = w.MeanErr, w.MedErr, w.Queries, w.Bounded > 0
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// WriteSweepCSV writes the sweep table (gocsv on model's CSV writer,
// never its package-wide settings).
func WriteSweepCSV(w io.Writer, rows []SweepRow) error {
	return gocsv.MarshalCSV(rows, releasedir.NewCSVWriter(w))
}
