package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"privlab/algorithms/advise"
	"privlab/algorithms/method"
	"privlab/algorithms/partitioned"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/ui/cli/clitext"
)

// runAnnounced runs the method; a run estimated to take long is announced
// on stderr first, and on a terminal a progress line shows the percentage
// done and the time left. ctrl+c stops it (nothing is written).
func runAnnounced(ctx context.Context, p *pipeline.Prepared, ew io.Writer) (*method.Result, error) {
	return runAnnouncedThen(ctx, p, ew, nil)
}

// runAnnouncedThen is runAnnounced calling then with the result before
// its deferred figures are computed (pipeline.RunOptions.Then).
func runAnnouncedThen(ctx context.Context, p *pipeline.Prepared, ew io.Writer, then func(*method.Result)) (*method.Result, error) {
	if secs, why := pipeline.Estimate(p); time.Duration(secs*float64(time.Second)) > pipeline.LongRun {
		fmt.Fprintf(ew, "privlab: this run may take about %s (%s); ctrl+c stops it and nothing is written\n",
			time.Duration(secs*float64(time.Second)).Round(time.Second), why)
	}
	var progress func(float64)
	clear := func() {}
	if isTerminal(ew) {
		progress, clear = progressLine(ew, time.Now)
	}
	defer clear()
	return pipeline.Run(ctx, p, pipeline.RunOptions{Progress: progress, Then: then})
}

func cmdRun(a *Args, w, ew io.Writer) error {
	if err := noPositional(a, "run"); err != nil {
		return err
	}
	if a.Out == "" {
		return &model.ParamError{Param: "out", Reason: "no release directory given", Hint: "pass --out DIR"}
	}
	if err := releasedir.CheckOut(a.Out, a.Force); err != nil {
		return err
	}
	if a.Force {
		releasedir.Prehash(a.Out) // while the table loads and the method runs
	}
	if a.flagsSet["partitions"] || a.flagsSet["partition-rows"] || a.flagsSet["runner"] {
		return runPartitioned(a, w, ew)
	}
	p, err := prepare(a)
	if err != nil {
		return err
	}
	if err := env.LoadPopulationOf(p); err != nil {
		return err
	}
	if msg := pipeline.PopulationWarning(p); msg != "" {
		fmt.Fprintf(ew, "privlab: warning: %s\n", msg)
	}
	if p.VariantNote != "" {
		fmt.Fprintf(ew, "privlab: note: %s\n", p.VariantNote)
	}
	for _, msg := range p.PinWarnings {
		fmt.Fprintf(ew, "privlab: warning: %s\n", msg)
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	queries := a.Queries
	if queries == 0 {
		queries = pipeline.NoQueries
	}
	// The input is hashed (for the audit record) while the method runs,
	// and the export's workload measured while its deferred figures are
	// computed, each on the core the method leaves idle.
	digest := pipeline.StartInputDigest(p)
	var ahead *pipeline.Workload
	start := time.Now()
	res, err := runAnnouncedThen(ctx, p, ew, func(r *method.Result) { ahead = pipeline.StartWorkload(p, r, queries) })
	if err != nil {
		return err
	}
	printSummary(w, p, res, time.Since(start))
	if !res.Satisfied() && !a.Accept {
		groups := fmt.Sprintf("%d groups violate", res.Violations())
		if res.Violations() == 1 {
			groups = "1 group violates"
		}
		return privacyFailure(groups + " the privacy requirement; no release written (hint: change the parameters, or --accept-violations)")
	}
	warn := func(msg string) { fmt.Fprintf(ew, "privlab: warning: %s\n", msg) }
	ex, err := pipeline.Export(p, res, a.Out, pipeline.ExportOptions{Force: a.Force, AcceptViolations: a.Accept, AllowGrowth: a.Growth, LetGo: true,
		Context: ctx, Warn: warn, Queries: queries, Workload: ahead, InputDigest: digest, Advisor: advise.ExportMap(a.Project)})
	if err != nil {
		return err
	}
	for _, l := range ex.Checks {
		fmt.Fprintln(w, l)
	}
	for _, at := range ex.Manifest.Attacks {
		fmt.Fprintf(w, "attack     %s\n", pipeline.AttackSummary(at))
	}
	fmt.Fprintf(w, "release    %s (", a.Out)
	for i, f := range ex.Manifest.Files {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		switch {
		case !strings.HasSuffix(f.Name, ".csv"):
			fmt.Fprint(w, f.Name) // report.md is no table: it has no rows to count
		case f.Rows == 1:
			fmt.Fprintf(w, "%s 1 row", f.Name)
		default:
			fmt.Fprintf(w, "%s %d rows", f.Name, f.Rows)
		}
	}
	fmt.Fprintf(w, ")\naudit      %s (private: keep it, do not publish it)\n", releasedir.AuditPath(a.Out))
	if ex.Manifest.Advisor != nil {
		fmt.Fprintf(w, "map        %s (the risk-utility map report.md links)\n", releasedir.AdvisorMapPath(a.Out))
	}
	return nil
}

// printSummary writes a run's summary: settings, worst cases, figures.
func printSummary(w io.Writer, p *pipeline.Prepared, res *method.Result, elapsed time.Duration) {
	for _, l := range describe(p) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "groups     %d (%d with violations)\n", len(res.Groups), res.Violations())
	fmt.Fprintln(w, rowsLine(p, res))
	for _, f := range res.Summary {
		mark := "  "
		if !f.OK {
			mark = "! "
		}
		fmt.Fprintf(w, "%s%-40s %s\n", mark, f.Name, pipeline.FormatFigure(f.Value))
	}
	for _, n := range res.Warnings {
		fmt.Fprintf(w, "warning    %s\n", n)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note       %s\n", n)
	}
	fmt.Fprintf(w, "time       %s\n", elapsed.Round(time.Millisecond))
}

// progressLine returns a progress callback that rewrites one line of w
// with the percentage done and the time left (at most five times a
// second), and a function that clears the line.
func progressLine(w io.Writer, now func() time.Time) (progress func(float64), clear func()) {
	w = raw(w) // its carriage returns rewrite the line
	start := now()
	var mu sync.Mutex
	var last time.Time
	shown := false
	progress = func(f float64) {
		mu.Lock()
		defer mu.Unlock()
		t := now()
		if t.Sub(last) < 200*time.Millisecond || f <= 0 {
			return
		}
		last, shown = t, true
		left := time.Duration(float64(t.Sub(start)) * (1 - f) / f).Round(time.Second)
		fmt.Fprintf(w, "\rcomputing %3.0f%% · about %s left · ctrl+c stops  ", f*100, left)
	}
	clear = func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprintf(w, "\r%60s\r", "")
		}
	}
	return progress, clear
}

// describe lists the project settings one per line (run prints them
// before its figures).
func describe(p *pipeline.Prepared) []string {
	var keys []string
	for k := range p.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var params []string
	for _, k := range keys {
		params = append(params, k+"="+p.Values[k])
	}
	sa := p.Project.Roles.SA
	if h := p.Hierarchies[sa]; sa != "" && h != nil {
		sa = fmt.Sprintf("%s (%s, hierarchy of %d values, height %d)", sa, p.Table.Column(sa).Kind, len(h.Leaves), h.Height())
	} else if sa == "" {
		sa = "none (the method reads none)"
	}
	out := []string{
		fmt.Sprintf("input      %s (%d rows%s)", p.Table.Name, p.Table.Rows, droppedText(p.Dropped)),
		fmt.Sprintf("roles      QI %s; SA %s", strings.Join(p.Project.Roles.QIs, ","), sa),
		fmt.Sprintf("method     %s  %s", p.Method.Spec().Name, strings.Join(params, " ")),
	}
	if p.Public != nil {
		out = append(out, fmt.Sprintf("public     %s (%d rows)", p.Public.Name, p.Public.Rows))
	}
	var hs []string
	for _, attr := range p.Project.Roles.Used() {
		if spec := p.Project.Hierarchies[attr]; spec == "" {
			if f := pipeline.FoundHierarchy(p.Project.Input, attr); f != "" {
				hs = append(hs, attr+"="+filepath.Base(f)+" (found beside the data)")
			}
		}
	}
	if len(hs) > 0 {
		out = append(out, "hierarchy  "+strings.Join(hs, ", "))
	}
	for _, n := range p.Source.Notes {
		out = append(out, "warning    "+n.Say(clitext.FixText))
	}
	return out
}

// rowsLine counts the rows as the manifest does: every row of the input
// in, the rows dropped for missing values among the suppressed (they
// are not published), and says how many of those there are.
func rowsLine(p *pipeline.Prepared, res *method.Result) string {
	in, suppressed := res.RowsIn+p.Dropped, res.Suppressed+p.Dropped
	line := fmt.Sprintf("rows       %d in, %d published, %d suppressed", in, res.Published, suppressed)
	if p.Dropped > 0 {
		line += fmt.Sprintf(" (%d of them dropped for missing values)", p.Dropped)
	}
	return line
}

func droppedText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %d dropped for missing values", n)
}

// runPartitioned is run --partitions / --partition-rows (SPEC 3.9): the
// input (a file, a dataset or a glob of shards) is streamed into its
// partitions, which are run, exported, checked and attacked one at a
// time, and one manifest lists them.
func runPartitioned(a *Args, w, ew io.Writer) error {
	for _, f := range []struct {
		name string
		n    int
	}{{"partitions", a.Partitions}, {"partition-rows", a.PartitionRows}} {
		if a.flagsSet[f.name] && f.n == 0 { // 0 would read as unset: the default size
			return &model.ParamError{Param: f.name, Value: "0", Reason: "must be at least 1", Hint: "privlab run --help lists the flags"}
		}
	}
	lowMemory.Store(true)
	debug.SetGCPercent(100)
	ctx, cancel := interruptible(ew)
	defer cancel()
	queries := a.Queries
	if queries == 0 {
		queries = pipeline.NoQueries
	}
	warn := func(msg string) { fmt.Fprintf(ew, "privlab: warning: %s\n", msg) }
	opt := partitioned.Options{Partitions: a.Partitions, PartitionRows: a.PartitionRows,
		Export:   pipeline.ExportOptions{AcceptViolations: a.Accept, AllowGrowth: a.Growth, Context: ctx, Warn: warn, Queries: queries, Force: a.Force},
		Progress: func(i, n int) { fmt.Fprintf(ew, "privlab: partition %d of %d\n", i+1, n) }}
	run := partitioned.Stream
	switch a.Runner {
	case "":
	case "prism":
		run = func(ctx context.Context, e pipeline.Env, proj pipeline.Project, dir string, opt partitioned.Options) (*partitioned.Result, error) {
			return partitioned.RunOnBeam(ctx, e, proj, dir, opt, "")
		}
	default:
		run = func(ctx context.Context, e pipeline.Env, proj pipeline.Project, dir string, opt partitioned.Options) (*partitioned.Result, error) {
			return partitioned.RunOnBeam(ctx, e, proj, dir, opt, a.Runner)
		}
	}
	res, err := run(ctx, env, env.WithDefaults(a.Project), a.Out, opt)
	var violated *partitioned.ViolationError
	if errors.As(err, &violated) {
		return privacyFailure(err.Error() + " (hint: fewer, larger partitions, or other parameters, or --accept-violations to write it anyway)") // exit 1, as a single run's
	}
	if err != nil {
		return err
	}
	m := res.Manifest
	fmt.Fprintf(w, "input      %s\nmethod     %s %s\n", a.Project.Input, m.Method, m.Variant)
	largest := 0
	for _, pm := range res.Parts {
		largest = max(largest, pm.RowsIn)
	}
	fmt.Fprintf(w, "partitions %d (the largest %d rows; cut on a sample of %d of %d rows)\n", len(res.Parts), largest, res.Plan.SampleRows, res.Plan.TableRows)
	fmt.Fprintf(w, "groups     %d\nrows       %d in, %d published, %d suppressed\n", m.Groups, m.RowsIn, m.Published, m.Suppressed)
	for _, f := range m.WorstCases {
		fmt.Fprintf(w, "worst      %s %s (limit %s, %s)\n", f.Name, model.FormatFixed(f.Value, 4), f.Limit, map[bool]string{true: "ok", false: "VIOLATED"}[f.OK])
	}
	for _, at := range m.Attacks {
		fmt.Fprintf(w, "attack     %s\n", pipeline.AttackSummary(at))
	}
	parts := fmt.Sprintf("%d partitions, each a release of its own", len(res.Parts))
	if len(res.Parts) == 1 {
		parts = "1 partition, a release of its own"
	}
	fmt.Fprintf(w, "release    %s (%s, and manifest.json)\naudit      %s (private: keep it, do not publish it)\n",
		a.Out, parts, partitioned.AuditDir(a.Out))
	return nil
}

// lowMemory is set by a partitioned run, which is chosen to bound memory:
// the batch collector (main's) then keeps Go's default heap growth.
var lowMemory atomic.Bool

// LowMemory reports whether the running command asked to keep its
// memory low (a partitioned run).
func LowMemory() bool { return lowMemory.Load() }

// ServeAsWorker runs this process as a worker of a Beam runner that
// started it as one (a binary built with -tags beam; --runner HOST:PORT
// ships it to the cluster's workers), and reports whether it did.
func ServeAsWorker(args []string) bool { return partitioned.ServeAsWorker(args) }
