package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/model/source"
)

func cmdEval(a *Args, w, ew io.Writer) error {
	if err := noPositional(a, "eval"); err != nil {
		return err
	}
	if a.Queries <= 0 {
		return &model.ParamError{Param: "queries", Value: fmt.Sprint(a.Queries), Reason: "must be >= 1"}
	}
	if !(a.RangeFrac > 0 && a.RangeFrac <= 1) {
		return &model.ParamError{Param: "range", Value: fmt.Sprint(a.RangeFrac), Reason: "must be in (0,1]", Hint: "a fraction of the QI's domain, e.g. 0.1"}
	}
	if !(a.Selectivity > 0 && a.Selectivity <= 1) {
		return &model.ParamError{Param: "selectivity", Value: fmt.Sprint(a.Selectivity), Reason: "must be in (0,1]", Hint: "the fraction of the table a query selects, e.g. 0.05"}
	}
	if a.Dims < 0 {
		return &model.ParamError{Param: "qd", Value: fmt.Sprint(a.Dims), Reason: "must be >= 0", Hint: "0 conditions on min(4, QIs) quasi-identifiers"}
	}
	if err := csvTarget(a); err != nil {
		return err
	}
	opt := workload.Options{Queries: a.Queries, Range: a.RangeFrac, Seed: a.Seed, Selectivity: a.Selectivity, Dims: a.Dims}
	ctx, cancel := interruptible(ew)
	defer cancel()
	if a.Compare {
		return evalCompare(ctx, a, w, ew, opt)
	}
	if a.Sweep != "" {
		return evalSweep(ctx, a, w, opt)
	}
	if a.Release != "" {
		return evalRelease(a, w, opt)
	}
	p, err := prepare(a)
	if err != nil {
		return err
	}
	res, err := runAnnounced(ctx, p, ew)
	if err != nil {
		return err
	}
	r, err := pipeline.Eval(p, res, opt)
	if err != nil {
		return err
	}
	if err := printWorkload(w, a, res.Workload, r, opt); err != nil {
		return err
	}
	if rep, _, err := pipeline.Risk(res, p.Project.RiskThreshold); err == nil {
		fmt.Fprintln(w)
		printRisk(w, rep)
	} else {
		fmt.Fprintf(w, "risk figures not computed: %v\n", err)
	}
	secs, err := env.RunStudy(ctx, p, opt)
	if err != nil {
		return err
	}
	method.WriteSections(w, secs)
	return nil
}

// evalSweep re-runs the method once per value of --sweep and prints
// (and with --csv writes) one line per value; a value that fails fails
// the sweep after the others are printed.
func evalSweep(ctx context.Context, a *Args, w io.Writer, opt workload.Options) error {
	param, values, err := pipeline.ParseSweep(a.Sweep)
	if err != nil {
		return err
	}
	project := env.WithDefaults(a.Project)
	t, err := env.LoadTableContext(interruptCtx(), project)
	if err != nil {
		return err
	}
	rows, err := pipeline.Sweep(ctx, env, project, t, param, values, opt, pipeline.SweepOptions{})
	if err != nil {
		return err
	}
	printSweep(w, rows)
	if a.CSV != "" {
		if err := releasedir.WriteAtomic(a.CSV, func(f io.Writer) error { return pipeline.WriteSweepCSV(f, rows) }); err != nil {
			return err
		}
	}
	var bad []string
	for _, r := range rows {
		if r.Error != "" {
			bad = append(bad, r.Value)
		}
	}
	if len(bad) > 0 {
		return &model.ParamError{Param: "sweep", Value: a.Sweep, Reason: fmt.Sprintf("%d of %d values failed: %s", len(bad), len(rows), strings.Join(bad, ", ")),
			Hint: "each value must be valid for --" + param}
	}
	return nil
}

// evalCompare runs every method on the input with comparable settings
// (--k, default 10) and prints one table of their figures.
func evalCompare(ctx context.Context, a *Args, w, ew io.Writer, opt workload.Options) error {
	project := env.WithDefaults(a.Project)
	t, err := env.LoadTableContext(interruptCtx(), project)
	if err != nil {
		return err
	}
	k := 10
	if s, ok := a.Project.Params[method.GroupSizeParam]; ok {
		if k, err = method.ParseGroupSize(s, t.Rows); err != nil {
			return err
		}
	}
	progress, clear := func(float64) {}, func() {}
	if isTerminal(ew) {
		progress, clear = progressLine(ew, time.Now)
	}
	opt.Shape = workload.CountIn
	rows, err := pipeline.Compare(ctx, env, project, t, pipeline.CompareOptions{K: k, Workload: opt, Threshold: project.RiskThreshold, Progress: progress})
	clear()
	if err != nil {
		return err
	}
	printCompare(w, rows, k, opt)
	return nil
}

// evalRelease runs the workload on an exported release, with the original
// table (--original) for the truth.
func evalRelease(a *Args, w io.Writer, opt workload.Options) error {
	if a.Original == "" {
		return &model.ParamError{Param: "original", Reason: "eval --release needs the original table for the true answers",
			Hint: "privlab eval --release DIR --original FILE"}
	}
	ans, man, err := pipeline.OpenRelease(a.Release)
	if err != nil {
		return err
	}
	orig, err := loadOriginal(a, a.Original, a.Release)
	if err != nil {
		return err
	}
	roles := model.Roles{QIs: man.QIs, SA: man.SA}
	policy, _ := model.ParseMissingPolicy(man.MissingValues)
	orig, _ = orig.HandleMissing(roles.Used(), policy)
	if err := roles.Validate(orig, man.SA != ""); err != nil {
		return &model.ParamError{Param: "original", Value: a.Original, Reason: "it is not the table of this release: " + err.Error()}
	}
	shape := man.Workload
	if shape == "" {
		shape = workload.CountIn
	}
	opt.Shape = shape
	// Unless told otherwise, the workload the manifest states was measured
	// on (its seed and number of queries), so eval gives its figure.
	if we := man.WorkloadError; we != nil && we.Queries > 0 {
		if !a.flagsSet["seed"] {
			opt.Seed = we.Seed
		}
		if !a.flagsSet["queries"] {
			opt.Queries = we.Queries
		}
	}
	qs, err := workload.Generate(orig, roles, opt)
	if err != nil {
		return err
	}
	r, err := workload.Evaluate(orig, ans, qs)
	if err != nil {
		return err
	}
	if err := printWorkload(w, a, shape, r, opt); err != nil {
		return err
	}
	if man.Partitioned != nil {
		fmt.Fprintf(w, "\nrisk figures: per partition (privlab eval --release %s --original FILE reads one; each partition's manifest states its own)\n", filepath.Join(a.Release, "part-NNNNN"))
		return nil
	}
	if rep, _, err := pipeline.ReleaseRisk(a.Release, a.Project.RiskThreshold); err == nil {
		fmt.Fprintln(w)
		printRisk(w, rep)
	} else {
		fmt.Fprintf(w, "risk figures not computed: %v\n", err)
	}
	return nil
}

// printWorkload writes a workload's result (and its CSV with --csv).
func printWorkload(w io.Writer, a *Args, shape string, r workload.Result, opt workload.Options) error {
	fmt.Fprintf(w, "workload   %s, %d queries (%d skipped: empty or zero truth), %s\n", shape, r.Queries, r.Skipped, workload.Describe(shape, opt))
	what := "rel. error"
	if r.Bounded > 0 {
		what = "bound width / truth" // bounds are not errors: their width over the true answer
	}
	if r.Queries == 0 {
		fmt.Fprintf(w, "%s —: no query selected a record of the original (try --selectivity or --range)\n", what)
	} else {
		fmt.Fprintf(w, "%s mean %.4f  median %.4f  max %.4f\n", what, r.MeanErr, r.MedErr, r.MaxErr)
	}
	if a.CSV != "" {
		if err := releasedir.WriteAtomic(a.CSV, r.WriteCSV); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", a.CSV)
	}
	if r.Bounded > 0 {
		fmt.Fprintf(w, "bounds     %d of %d contain the true answer\n", r.Contains, r.Bounded)
		if r.Contains != r.Bounded {
			return privacyFailure("some bounds do not contain the true answer")
		}
	}
	return nil
}

// printRisk writes the figures every release gets, one per line with what
// it measures, the class-size distribution and the worst QI pairs.
func printRisk(w io.Writer, rep *risk.Report) {
	fmt.Fprintln(w, "risk and utility (the figures every method's release gets)")
	for _, f := range rep.Figures {
		name := f.Name
		if f.Limit != "" {
			name += " (above " + f.Limit + ")"
		}
		fmt.Fprintf(w, "  %-46s %12s  %s\n", name, f.Format(), f.Help)
	}
	var bands []string
	for _, b := range rep.Sizes {
		if b.Records > 0 {
			bands = append(bands, fmt.Sprintf("%s: %d", b.Label(), b.Records))
		}
	}
	fmt.Fprintf(w, "  records by class size: %s\n", strings.Join(bands, ", "))
	if len(rep.Pairs) > 0 {
		var worst []string
		for _, p := range rep.Pairs {
			if p.Unique > 0 {
				worst = append(worst, fmt.Sprintf("%s+%s %d", p.A, p.B, p.Unique))
			}
		}
		if len(worst) > 0 {
			fmt.Fprintf(w, "  records unique on a pair of QIs: %s\n", strings.Join(worst, ", "))
		}
	}
	fmt.Fprintf(w, "  in plain words: %s\n", rep.Summary)
}

// printCompare writes the comparison as a table: one column per method,
// one line per figure, the best value of a line marked with *.
func printCompare(w io.Writer, rows []pipeline.CompareRow, k int, wl workload.Options) {
	if len(rows) == 0 {
		return
	}
	lines := pipeline.CompareLines(rows)
	label := 36
	col := 13
	for _, r := range rows {
		col = max(col, len(r.Method)+2)
	}
	fmt.Fprintf(w, "Every method on the same data, QIs and sensitive attribute (k = %d where a method has a group size); * marks the best of a line\n", k)
	fmt.Fprintf(w, "%-*s", label, "")
	for _, r := range rows {
		fmt.Fprintf(w, " %-*s", col, r.Method)
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		fmt.Fprintf(w, "%-*s", label, clip(l.Name, label))
		for i, s := range l.Text {
			if l.Best[i] {
				s += " *"
			}
			fmt.Fprintf(w, " %-*s", col, clip(s, col))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "settings:")
	for _, r := range rows {
		if r.Err != "" {
			fmt.Fprintf(w, "  %-13s not run: %s\n", r.Method, r.Err)
			continue
		}
		fmt.Fprintf(w, "  %-13s variant %s; %s; %s\n", r.Method, orDash(r.Variant), r.Settings, r.Worst)
	}
	fmt.Fprintf(w, "workload: %d count-in queries, seed %d (%s)\n", wl.Queries, wl.Seed, workload.Describe(workload.CountIn, wl))
	fmt.Fprintln(w, "figures:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %-36s %s\n", l.Name, l.Help)
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// clip cuts s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// printSweep writes the sweep as a table.
func printSweep(w io.Writer, rows []pipeline.SweepRow) {
	if len(rows) == 0 {
		return
	}
	mean, median := "mean err", "median err"
	for _, r := range rows {
		if r.Bounded {
			mean, median = "bound width", "median width" // over the true answer: bounds are not errors
		}
	}
	fmt.Fprintf(w, "%-16s %8s %9s %12s %4s %14s %12s %12s %8s\n", rows[0].Param, "groups", "violating", "worst case", "ok", "utility", mean, median, "ms")
	worst, utility := "", ""
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(w, "%-16s %s\n", r.Value, r.Error)
			continue
		}
		mean, median := "—", "—"
		if r.Measured > 0 {
			mean, median = fmt.Sprintf("%.4f", r.MeanErr), fmt.Sprintf("%.4f", r.MedianErr)
		}
		holds := "✓"
		if !r.Holds {
			holds = "✗"
		}
		fmt.Fprintf(w, "%-16s %8d %9d %12s %4s %14s %12s %12s %8d\n", r.Value, r.Groups, r.Violating, pipeline.FormatFigure(r.WorstVal), holds, pipeline.FormatFigure(r.UtilityVal), mean, median, r.Millis)
		if r.Worst != "" {
			worst = r.Worst
			if r.WorstLimit != "" {
				worst += ", held against " + r.WorstLimit
			}
		}
		utility = r.Utility
	}
	if worst != "" {
		fmt.Fprintf(w, "(worst case: %s)\n", worst)
	}
	if utility != "" {
		fmt.Fprintf(w, "(utility: %s, lower is better)\n", utility)
	}
}

// csvTarget refuses an eval --csv file that exists (without --force) or
// that eval reads (the input, the original, a release's file: never,
// even with --force).
func csvTarget(a *Args) error {
	if a.CSV == "" {
		return nil
	}
	read := a.Project.InputFile(a.CSV)
	for _, f := range []string{a.Original, a.Public} {
		if f != "" && read == "" && releasedir.SamePath(source.Path(f), a.CSV) {
			read = f
		}
	}
	if a.Release != "" && read == "" && releasedir.SamePath(filepath.Dir(a.CSV), a.Release) {
		read = a.Release
	}
	if read != "" {
		return &model.ParamError{Param: "csv", Value: a.CSV, Reason: "is " + read + ", which eval reads; it is never overwritten", Hint: "choose another file"}
	}
	return releasedir.RefuseExisting("csv", a.CSV, a.Force)
}
