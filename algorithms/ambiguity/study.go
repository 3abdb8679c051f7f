package ambiguity

import (
	"context"
	"errors"
	"fmt"
	"math"

	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
)

// studyQueries is the number of queries per workload batch of the study.
const studyQueries = 100

// Baseline is the generalization-based method the study compares with
// (Wang, Section 8: multi-dimensional k-anonymity, i.e. Mondrian), run by
// name through the lab.
const (
	baselineMethod  = "kja"
	baselineVariant = "mondrian"
)

// study reproduces the shape of Wang's Section 8.3: the average relative
// error of COUNT(*) WHERE <conditions on 1-3 QIs> AND S = v at
// selectivity 1%, 5% and 10% (Section 8.1), on the ambiguity scheme and
// on a generalized table (Mondrian with k = the scheme's average group
// size, so both hide records in groups of the same size); then the error
// as beta varies (Figure 8). Theorem 6.1 says ambiguity should win; its
// proof builds the ambiguity scheme on the generalized table's own
// groups, so the study also answers with that scheme ("Thm 6.1") and
// shows its worst presence probability: Algorithm 2's groups differ, as
// they must cover many values to reach alpha-presence.
func study(ctx context.Context, lab *method.Lab) ([]method.Section, error) {
	in := lab.Input
	res, err := lab.Run(ctx, Name, "", in.Values, in)
	if err != nil {
		return nil, err
	}
	base, note := baseline(ctx, lab, res)
	dims := min(3, len(in.Roles.QIs))
	main := method.Section{
		Title:  "Wang, Section 8.3: average relative error of COUNT(*) WHERE <qd QIs> AND S = v",
		Header: []string{"qd", "selectivity", "queries", "ambiguity", "generalization", "better", "Thm 6.1"},
	}
	main.Notes = append(main.Notes, fmt.Sprintf("ambiguity: alpha %s, beta %s, %d groups of %.2f records on average",
		in.Values["alpha"], in.Values["beta"], len(res.Groups), res.Utility.Value))
	if note != "" {
		main.Notes = append(main.Notes, note)
	}
	same := sameGroups(in, base)
	if same != nil {
		worst := 0.0
		for g := 0; g < same.groups; g++ {
			worst = math.Max(worst, same.presence(g))
		}
		main.Notes = append(main.Notes, fmt.Sprintf("Thm 6.1: the ambiguity scheme of the generalization's own %d groups (Wang, proof of Theorem 6.1); its worst presence |G|/prod|G_ATi| is %.3g (alpha %s)",
			same.groups, worst, in.Values["alpha"]))
	}
	steps := float64(dims * 3)
	done := 0.0
	for qd := 1; qd <= dims; qd++ {
		for _, s := range []float64{0.01, 0.05, 0.10} {
			opt := workload.Options{Shape: workload.CountIn, Queries: studyQueries, Seed: 1, Dims: qd, Selectivity: s, SAPoint: true}
			a, n, err := workloadError(in, res, opt)
			if err != nil {
				return nil, err
			}
			row := []string{fmt.Sprint(qd), fmt.Sprintf("%g%%", s*100), fmt.Sprint(n), fmtErr(a)}
			row = append(row, compare(in, base, opt, a)...)
			if same != nil {
				x, _, err := workloadError(in, &method.Result{Answerer: same}, opt)
				if err != nil {
					return nil, err
				}
				row = append(row, fmtErr(x))
			}
			main.Rows = append(main.Rows, row)
			done++
			if lab.Progress != nil {
				lab.Progress(done / (steps + 4))
			}
		}
	}
	secs := []method.Section{main}

	// Figure 8: the error as beta varies, at qd = min(2, QIs), s = 5%.
	sweep := method.Section{
		Title:  "Wang, Figure 8: error vs beta (qd " + fmt.Sprint(min(2, dims)) + ", selectivity 5%)",
		Header: []string{"beta", "groups", "avg size", "ambiguity", "generalization (k)", "better"},
	}
	opt := workload.Options{Shape: workload.CountIn, Queries: studyQueries, Seed: 1, Dims: min(2, dims), Selectivity: 0.05, SAPoint: true}
	for _, beta := range []string{"0.5", "0.25", "0.2", "0.1"} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := in.Values.Clone()
		v["beta"] = beta
		r, err := lab.Run(ctx, Name, "", v, in)
		if err != nil {
			sweep.Rows = append(sweep.Rows, []string{beta, "—", "—", "infeasible", "", ""})
			continue
		}
		a, _, err := workloadError(in, r, opt)
		if err != nil {
			return nil, err
		}
		b, _ := baseline(ctx, lab, r)
		cmp := compare(in, b, opt, a)
		if b != nil {
			cmp[0] = fmt.Sprintf("%s (%s)", cmp[0], b.Values["k"])
		}
		sweep.Rows = append(sweep.Rows, append([]string{beta, fmt.Sprint(len(r.Groups)), fmt.Sprintf("%.2f", r.Utility.Value), fmtErr(a)}, cmp...))
		done++
		if lab.Progress != nil {
			lab.Progress(done / (steps + 4))
		}
	}
	return append(secs, sweep), nil
}

// baseline runs the generalization baseline with k = the scheme's average
// group size; a note says why it is missing.
func baseline(ctx context.Context, lab *method.Lab, res *method.Result) (*method.Result, string) {
	k := max(2, int(math.Round(res.Utility.Value)))
	k = min(k, lab.Input.Table.Rows)
	b, err := lab.Run(ctx, baselineMethod, baselineVariant, model.Values{"k": fmt.Sprint(k)}, lab.Input)
	if err != nil {
		var pe *model.ParamError
		if errors.As(err, &pe) && pe.Param == "method" {
			return nil, "generalization baseline (kja mondrian) not available"
		}
		return nil, fmt.Sprintf("generalization baseline (kja mondrian, k = %d) failed: %v", k, err)
	}
	return b, fmt.Sprintf("generalization: kja mondrian with k = %d (the scheme's average group size)", k)
}

// compare measures the baseline on the same workload: its error and which
// release answers better.
func compare(in *method.Input, base *method.Result, opt workload.Options, amb float64) []string {
	if base == nil {
		return []string{"n/a", ""}
	}
	g, _, err := workloadError(in, base, opt)
	if err != nil {
		return []string{"error: " + err.Error(), ""}
	}
	better := "ambiguity"
	switch {
	case math.IsNaN(amb) || math.IsNaN(g):
		better = ""
	case g < amb:
		better = "generalization"
	case g == amb:
		better = "tie"
	}
	return []string{fmtErr(g), better}
}

// workloadError answers a workload on a result: mean relative error and
// the queries measured (NaN when none could be).
func workloadError(in *method.Input, res *method.Result, opt workload.Options) (float64, int, error) {
	if res.Answerer == nil {
		return 0, 0, fmt.Errorf("%s answers no queries", res.Spec.Name)
	}
	qs, err := workload.Generate(in.Table, in.Roles, opt)
	if err != nil {
		return 0, 0, err
	}
	w, err := workload.Evaluate(in.Table, res.Answerer, qs)
	if err != nil {
		return 0, 0, err
	}
	if w.Queries == 0 {
		return math.NaN(), 0, nil
	}
	return w.MeanErr, w.Queries, nil
}

func fmtErr(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.4f", x)
}

// sameGroups is the ambiguity scheme of the baseline's groups (nil
// without a baseline or when its groups are not rows of the input).
func sameGroups(in *method.Input, base *method.Result) *scheme {
	if base == nil || len(base.Groups) == 0 {
		return nil
	}
	r := &run{in: in}
	if r.resolve() != nil {
		return nil
	}
	groups := make([][]int32, 0, len(base.Groups))
	for _, g := range base.Groups {
		for _, row := range g.Rows {
			if row < 0 || int(row) >= in.Table.Rows || r.sa.IsMissing(int(row)) {
				return nil
			}
			for _, c := range r.qiCols {
				if c.IsMissing(int(row)) {
					return nil
				}
			}
		}
		if len(g.Rows) > 0 {
			groups = append(groups, g.Rows)
		}
	}
	return newScheme(in.Roles.QIs, in.Roles.SA, groups, r.qiCols, r.sa)
}
