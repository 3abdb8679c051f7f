package pipeline

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gocarina/gocsv"

	"privlab/algorithms/workload"
	"privlab/model"
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
	Millis     int64   `csv:"run_ms"`
	Error      string  `csv:"error"`
}

// ParseSweep reads PARAM=V1,V2,... or, when values contain commas (as
// normal:MU,SIGMA does), PARAM=V1;V2;...
func ParseSweep(s string) (string, []string, error) {
	name, list, ok := strings.Cut(s, "=")
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
		return "", nil, &model.ParamError{Param: "sweep", Value: s, Reason: "expected PARAM=V1,V2,...", Hint: "e.g. --sweep fakes=0,1,5,10%"}
	}
	return strings.TrimSpace(name), vals, nil
}

// Sweep re-runs the project once per value of one parameter on the same
// table and measures each run with the same random workload, so the rows
// compare like with like. An invalid value gives a row with its error.
func Sweep(ctx context.Context, env Env, p Project, t *model.Table, param string, values []string, opt workload.Options) ([]SweepRow, error) {
	var rows []SweepRow
	for _, v := range values {
		if err := ctx.Err(); err != nil {
			return rows, err
		}
		q := p.Clone()
		if q.Params == nil {
			q.Params = model.Values{}
		}
		q.Params[param] = v
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
		res, err := Run(ctx, prep, nil)
		if err != nil {
			row.Error = err.Error()
			rows = append(rows, row)
			continue
		}
		row.Millis = time.Since(start).Milliseconds()
		row.Groups, row.Violating = len(res.Groups), res.Violations()
		row.Published, row.Suppressed = res.Published, res.Suppressed
		row.Utility, row.UtilityVal = res.Utility.Name, res.Utility.Value
		if res.Answerer != nil && res.Workload != "" {
			w, err := Eval(prep, res, opt)
			if err != nil {
				row.Error = err.Error()
			} else {
				row.MeanErr, row.MedianErr, row.Measured = w.MeanErr, w.MedErr, w.Queries
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// WriteSweepCSV writes the sweep table with gocsv and an explicit writer.
func WriteSweepCSV(w io.Writer, rows []SweepRow) error {
	cw := csv.NewWriter(w)
	if err := gocsv.MarshalCSV(rows, gocsv.NewSafeCSVWriter(cw)); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// PrintSweep writes the sweep as a table.
func PrintSweep(w io.Writer, rows []SweepRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "%-16s %8s %9s %14s %12s %12s %8s\n", rows[0].Param, "groups", "violating", "utility", "mean err", "median err", "ms")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(w, "%-16s %s\n", r.Value, r.Error)
			continue
		}
		mean, median := "—", "—"
		if r.Measured > 0 {
			mean, median = fmt.Sprintf("%.4f", r.MeanErr), fmt.Sprintf("%.4f", r.MedianErr)
		}
		fmt.Fprintf(w, "%-16s %8d %9d %14s %12s %12s %8d\n", r.Value, r.Groups, r.Violating, fmtFig(r.UtilityVal), mean, median, r.Millis)
	}
	if rows[0].Utility != "" {
		fmt.Fprintf(w, "(utility: %s, lower is better)\n", rows[0].Utility)
	}
}
