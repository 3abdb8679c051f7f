package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/source"
)

// Run executes the prepared method. Panics inside a method are turned into
// errors so that no user ever sees a stack trace.
func Run(ctx context.Context, p *Prepared, progress func(float64)) (res *method.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error in method %s: %v (please report it)", p.Method.Spec().Name, r)
		}
	}()
	if res, err = RunPreview(ctx, p, progress); err != nil || res.Deferred == nil {
		return res, err
	}
	figs, err := res.Deferred(ctx)
	if err != nil {
		return nil, err
	}
	res.Summary = append(res.Summary, figs...)
	return res, nil
}

// RunPreview is Run without the method's deferred figures
// (method.Result.Deferred): the workbench draws the result at once and
// adds them when they come.
func RunPreview(ctx context.Context, p *Prepared, progress func(float64)) (res *method.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error in method %s: %v (please report it)", p.Method.Spec().Name, r)
		}
	}()
	in := p.Input()
	in.Progress = progress
	res, err = p.Method.Run(ctx, in)
	if res != nil && in.Public != nil {
		res.RowsPublic = in.Public.Rows
	}
	if res != nil {
		warnEmpty(res)
	}
	return res, err
}

// warnEmpty warns that a result publishes no record. Such a release is
// valid and is exported as it is (its files hold their header rows
// alone; every figure and check reads it, as ARX exports a fully
// suppressed result with a warning), but it is worth nothing to anyone.
func warnEmpty(res *method.Result) {
	if res.Published > 0 || res.RowsIn == 0 {
		return
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("no record is published (%d of %d suppressed): the release is empty, its files hold their header rows alone; loosen the privacy parameters to publish records",
		res.Suppressed, res.RowsIn))
	res.SuppressionWarned = true
}

// Estimate predicts a prepared run's time in seconds and says what drives
// it (0 when the method declares no estimate).
func Estimate(p *Prepared) (float64, string) {
	est := p.Method.Spec().Estimate
	if est == nil {
		return 0, ""
	}
	return est(p.Input())
}

// LongRun is the estimated time above which a run is announced.
const LongRun = 5 * time.Second

// ProgressLine returns a progress callback that rewrites one line of w
// with the percentage done and the time left (at most five times a
// second), and a function that clears the line.
func ProgressLine(w io.Writer, now func() time.Time) (progress func(float64), clear func()) {
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

// ExportOptions control Export.
type ExportOptions struct {
	Force bool
	// AcceptViolations writes a release that fails verification.
	AcceptViolations bool
	// AllowGrowth writes a release file of more than MaxGrowth times the
	// input's rows.
	AllowGrowth bool
	// Context cancels the export (nil: never); a cancelled export leaves
	// nothing behind.
	Context context.Context
	// Warn is told what the export found beside the release (an earlier
	// release restored or kept after an interrupted --force).
	Warn func(msg string)
	// Queries is the size of the workload whose error the manifest
	// states (0: the default, DefaultQueries; NoQueries: none).
	Queries int
}

// DefaultQueries is the size of the workload an export measures unless
// told otherwise; NoQueries asks for none (run --queries 0: the manifest
// then states a workload of 0 queries and no error).
const (
	DefaultQueries = 100
	NoQueries      = -1
	// MaxQueries bounds the workload a manifest may state (check draws it
	// again).
	MaxQueries = 100_000
)

// MaxGrowth is how many times the input's rows a release file may hold
// before the export asks (--allow-growth): fake values can make sa.csv,
// and per-group targets group_weights.csv, grow far beyond the input.
// Files under MinGrowthRows rows never ask. The input is the table and
// the public table a method read (a k-join-anonymity release publishes
// the public tuples it joins).
const (
	MaxGrowth     = 10
	MinGrowthRows = 100_000
)

// Growth returns the release file that grows the most beyond MaxGrowth
// times the input rows ("" when none does) and its factor.
func Growth(res *method.Result) (string, float64) {
	worst, factor := "", 0.0
	in := math.Max(1, float64(res.RowsIn+res.RowsPublic))
	for _, f := range res.Files {
		if g := float64(f.Rows) / in; g > MaxGrowth && g > factor && f.Rows > MinGrowthRows {
			worst, factor = f.Name, g
		}
	}
	return worst, factor
}

// Exported describes a written release.
type Exported struct {
	Dir      string
	Manifest *model.Manifest
	Checks   []string
	Seed     uint64
}

// Export writes the release of res into dir: files shuffled with the
// project's seed (crypto/rand when none is fixed), verified by the
// independent checker against the published files and the input before
// the directory is renamed into place, and the audit record beside it.
func Export(p *Prepared, res *method.Result, dir string, opt ExportOptions) (*Exported, error) {
	if file, g := Growth(res); file != "" && !opt.AllowGrowth {
		return nil, &model.ParamError{Param: "out", Value: dir,
			Reason: fmt.Sprintf("%s would hold %.0f times the input's %d rows", file, g, res.RowsIn),
			Hint:   "lower the parameter that adds rows (e.g. fake values), or pass --allow-growth to write it anyway"}
	}
	seed, fixed, err := model.ParseSeed(p.Values["seed"])
	if err != nil {
		return nil, &model.ParamError{Param: "seed", Value: p.Values["seed"], Reason: err.Error()}
	}
	if !fixed {
		seed = model.CryptoSeed()
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if res.Deferred != nil {
		// The release states the deferred figures too (the method keeps
		// them once computed; the result's own list is not touched, the
		// workbench may be drawing it).
		if _, err := res.Deferred(ctx); err != nil {
			return nil, err
		}
	}
	rel, rowMap, err := res.Release(seed)
	if err != nil {
		return nil, err
	}
	rowMap = inputRows(p, rowMap)
	// Rows dropped for missing values were not published.
	rel.Manifest.RowsIn = p.Source.Rows
	rel.Manifest.Suppressed += p.Dropped
	rel.Manifest.MissingValues = "drop"
	if p.Project.Missing == "category" {
		rel.Manifest.MissingValues = "category"
	}
	// The workload's true and released answers are computed while the
	// files are written and checked (they read the input and the method's
	// answerer, not the files).
	wl := startWorkload(p.Table, p.Project.Roles, res.Answerer, res.Workload, opt.queries())
	audit := &model.Audit{Input: p.Project.Input, Seed: seed, SeedFixed: fixed, RowMap: rowMap, Config: p.Project}
	// The input's digest (for the audit record) is computed meanwhile too.
	var inputSum string
	hashed := func() {}
	if _, ok := DatasetName(p.Project.Input); !ok {
		path := source.Path(p.Project.Input) // FILE.db:TABLE hashes FILE
		hashed = concurrently(func() { inputSum, _ = model.FileSHA256(path) })
		audit.InputFormat = string(source.FormatOf(path))
	}
	var lines []string
	man, err := model.WriteRelease(dir, rel, model.WriteOptions{
		Force:            opt.Force,
		Inputs:           inputFiles(p),
		AcceptViolations: opt.AcceptViolations,
		Audit:            audit,
		Context:          ctx,
		Warn:             opt.Warn,
		Verify: func(tmp string, m *model.Manifest) ([]string, error) {
			v := verifyExport(tmp, res.Spec.Name, p.Project.RiskThreshold,
				verify.Options{Original: p.Source, Public: p.Public, Audit: audit, SkipRisk: true})
			hashed() // before the audit record is written, after the checks read it
			audit.InputSHA256 = inputSum
			if err := v.state(m, wl); err != nil {
				return nil, &model.StopError{Err: err}
			}
			if v.full != nil {
				lines = v.full.Strings()
			}
			return v.stated(), v.err()
		},
	})
	if err != nil {
		return nil, err
	}
	return &Exported{Dir: dir, Manifest: man, Checks: lines, Seed: seed}, nil
}

// inputRows translates row maps, which refer to rows of the prepared
// table, to rows of the input. A negative entry stands for no input row
// (e.g. a public-table tuple: -1-j is its row j) and is kept as it is.
func inputRows(p *Prepared, rowMap map[string][]int) map[string][]int {
	// Into new slices: a method's files may read the very slices it
	// returned (method.Result.Release), so rewriting them in place made
	// the files index the prepared table with input rows. A negative
	// entry stands for no input row (e.g. a public-table tuple: -1-j is
	// its row j) and is kept as it is.
	if p.InputRow == nil {
		return rowMap
	}
	translated := make(map[string][]int, len(rowMap))
	for name, rows := range rowMap {
		out := make([]int, len(rows))
		for i, r := range rows {
			out[i] = r
			if r >= 0 {
				out[i] = p.InputRow[r]
			}
		}
		translated[name] = out
	}
	return translated
}

// inputFiles are the files a release must never be written over: the
// input, the public table, the hierarchies and the method's file
// parameters (e.g. a target file).
func inputFiles(p *Prepared) []string {
	inputs := []string{source.Path(p.Project.Input), source.Path(p.Project.Public)}
	for _, h := range p.Project.Hierarchies {
		inputs = append(inputs, h)
	}
	for _, par := range p.Method.Spec().Params {
		if par.File && p.Values[par.Name] != "" {
			inputs = append(inputs, p.Values[par.Name])
		}
	}
	return inputs
}

// Risk measures a run's release as an attacker would read it once
// published (algorithms/risk), without writing it: the release is built
// in memory (rows shuffled with a fixed seed: order does not change a
// figure) and read by the method's viewer. threshold is the prosecutor
// risk above which a record counts as at risk (0: the default).
func Risk(res *method.Result, threshold float64) (*risk.Report, *risk.View, error) {
	if res == nil || res.Release == nil {
		return nil, nil, fmt.Errorf("no release to measure")
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return nil, nil, err
	}
	rel.Manifest.RowsIn = res.RowsIn
	return measure(rel, res.Spec.Name, threshold)
}

// ReleaseRisk measures an exported release from its files, at the
// threshold its manifest states unless one is given.
func ReleaseRisk(dir string, threshold float64) (*risk.Report, *risk.View, error) {
	rel, err := verify.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	view, ok := catalog.Viewer(rel.Manifest.Method)
	if !ok {
		return nil, nil, &model.InputError{File: dir, Msg: fmt.Sprintf("unknown method %q", rel.Manifest.Method)}
	}
	if threshold <= 0 {
		threshold = risk.ThresholdOf(rel.Manifest.Risk)
	}
	return rel.Risk(view, threshold)
}

func measure(rel *model.Release, method string, threshold float64) (*risk.Report, *risk.View, error) {
	view, ok := catalog.Viewer(method)
	if !ok || view == nil {
		return nil, nil, fmt.Errorf("method %s registers no viewer", method)
	}
	mem, err := verify.OpenBuilt(rel)
	if err != nil {
		return nil, nil, err
	}
	return mem.Risk(view, threshold)
}

// exportCheck is an export's look at its written files, before the
// manifest states what they give: the full check (with the input, the
// public table and the audit record), the check from the files alone
// (the lines the manifest states, which any recipient reproduces word
// for word) and the figures every release gets, measured by the
// method's viewer on the very bytes written (check recomputes them
// later; the export's own check skips them).
type exportCheck struct {
	full, alone       *verify.Report
	fullErr, aloneErr error
	risk              *risk.Report
	riskErr           error
}

// verifyExport runs the three at once on both cores, over one reading
// of the files (verify.Shared: each file hashed and parsed once).
//
// Hook for the checkers' verify.Check lists (issue 20): once a check can
// say which of its lines need the input, the check from the files alone
// becomes the full check's lines that need nothing but the files.
func verifyExport(dir, method string, threshold float64, opt verify.Options) *exportCheck {
	v := &exportCheck{}
	files := verify.NewShared(dir)
	both := concurrently(
		func() {
			view, ok := catalog.Viewer(method)
			rel, err := files.Open()
			switch {
			case !ok || view == nil:
				v.riskErr = fmt.Errorf("method %s registers no viewer", method)
			case err != nil:
				v.riskErr = err
			default:
				v.risk, _, v.riskErr = rel.Risk(view, threshold)
			}
		},
		func() { v.alone, v.aloneErr = files.RunDeclared(verify.Options{SkipRisk: true}, catalog.Declared) },
	)
	v.full, v.fullErr = files.RunDeclared(opt, catalog.Declared)
	both()
	return v
}

// state puts into the manifest what the export measured: the risk
// figures and their summary, and the workload's error (waited for). An
// error here stops the export.
func (v *exportCheck) state(m *model.Manifest, wl func() (*model.WorkloadError, error)) error {
	if v.riskErr != nil {
		return fmt.Errorf("measuring the release's risk: %w", v.riskErr)
	}
	m.Risk, m.RiskSummary = v.risk.ManifestFigures(), v.risk.Summary
	var err error
	m.WorkloadError, err = wl()
	return err
}

// stated are the verification lines the manifest states: those of the
// check from the files alone when the full check passed, else the full
// check's (which say what failed).
func (v *exportCheck) stated() []string {
	switch {
	case v.fullErr != nil || v.aloneErr != nil:
		return nil
	case v.full.Err() != nil:
		return v.full.Strings()
	}
	return statedChecks(v.alone, v.full)
}

// err is the check's verdict: the first error of the full check, then
// of the check from the files alone.
func (v *exportCheck) err() error {
	switch {
	case v.fullErr != nil:
		return v.fullErr
	case v.full.Err() != nil:
		return v.full.Err()
	case v.aloneErr != nil:
		return v.aloneErr
	}
	return v.alone.Err()
}

// concurrently starts the functions at once and returns a wait that
// blocks until they are done; a panic in one is raised again in the
// waiting goroutine (where the command's recover turns it into an
// internal error), never as a crash of the process.
func concurrently(fns ...func()) (wait func()) {
	var wg sync.WaitGroup
	panics := make([]any, len(fns))
	for i, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			fn()
		}()
	}
	return func() {
		wg.Wait()
		for _, p := range panics {
			if p != nil {
				panic(p)
			}
		}
	}
}

// statedChecks are the verification lines the manifest states (and
// report.md repeats) of a release that passed its full check: the lines
// any recipient reproduces from the published files alone, word for word
// (check holds them to it), and one line naming the checks against the
// input that passed too (the original confirms them).
func statedChecks(alone, full *verify.Report) []string {
	lines := alone.Strings()
	ran := map[string]bool{"risk": true}
	for _, l := range alone.Lines {
		ran[l.Name] = true
	}
	var more []string
	for _, l := range full.Lines {
		if !ran[l.Name] && !slices.Contains(more, l.Name) {
			more = append(more, l.Name)
		}
	}
	if len(more) > 0 {
		lines = append(lines, (verify.Line{OK: true, Name: "faithful", Text: fmt.Sprintf("with the input (and the audit record) the export also passed %s", strings.Join(more, ", "))}).String())
	}
	return lines
}

// Check verifies a received release directory, optionally against the
// original (and the public table, for methods that read one). It reads
// the audit record beside the release, if there is one: it binds every
// claim of the manifest to the one its producer wrote, and with the
// original it pins published rows to input rows. An audit record that
// does not read (a key given twice) is an input error.
func Check(dir string, original, public *model.Table) (*verify.Report, error) {
	opt := verify.Options{Original: original, Public: public, Received: true}
	if _, err := os.Lstat(model.AuditPath(dir)); err == nil {
		a, err := ReadAudit(dir)
		if err != nil {
			return nil, err
		}
		opt.Audit = a
	}
	rep, err := catalog.Check(dir, opt)
	if err != nil || rep == nil {
		return rep, err
	}
	checkWorkload(dir, original, rep)
	return rep, nil
}

func shapeOf(e *model.WorkloadError) string {
	if e == nil {
		return ""
	}
	return e.Shape
}

// queries is the size of the workload the export measures.
func (o ExportOptions) queries() int {
	switch o.Queries {
	case 0:
		return DefaultQueries
	case NoQueries:
		return 0
	}
	return o.Queries
}

// measureWorkload answers n queries of the method's workload (seeded, so
// check can draw them again) on the input table and on the release's
// answers. With n = 0 it states that no workload was measured.
func measureWorkload(t *model.Table, roles model.Roles, a method.Answerer, shape string, n int) (*model.WorkloadError, error) {
	if a == nil || shape == "" {
		return nil, nil
	}
	if n == 0 {
		return &model.WorkloadError{Shape: shape, Queries: 0, Seed: 1}, nil
	}
	opt := workload.Options{Shape: shape, Queries: n, Seed: 1}
	qs, err := workload.Generate(t, roles, opt)
	if err != nil {
		return nil, nil // a table the shape does not fit: no claim
	}
	r, err := workload.Evaluate(t, a, qs)
	if err != nil {
		return nil, err
	}
	return &model.WorkloadError{Shape: shape, Queries: n, Seed: 1, Measured: r.Queries, Mean: r.MeanErr, EstErr: r.EstErr, Bounds: r.Bounded > 0}, nil
}

// startWorkload measures the workload (measureWorkload) in the
// background and returns a wait for its result.
func startWorkload(t *model.Table, roles model.Roles, a method.Answerer, shape string, n int) func() (*model.WorkloadError, error) {
	var e *model.WorkloadError
	var err error
	wait := concurrently(func() { e, err = measureWorkload(t, roles, a, shape, n) })
	return func() (*model.WorkloadError, error) {
		wait()
		return e, err
	}
}

// checkWorkload recomputes the workload error the manifest states from
// the release's files and the original (the true answers): without the
// original it is named as unconfirmed.
func checkWorkload(dir string, original *model.Table, rep *verify.Report) {
	m, err := model.ReadManifest(dir)
	if err != nil {
		return
	}
	known := map[string]bool{workload.AvgRange: true, workload.CountRange: true, workload.CountIn: true}
	if m.Workload != "" && !known[m.Workload] || m.WorkloadError != nil && m.WorkloadError.Shape != m.Workload {
		rep.Add(false, "workload", "the manifest names the query shape %q (its workload error %q): privlab's are avg-range, count-range and count-in", m.Workload, shapeOf(m.WorkloadError))
		return
	}
	if m.WorkloadError == nil {
		return
	}
	e := m.WorkloadError
	if e.Queries < 0 || e.Queries > MaxQueries || e.Seed != 1 {
		rep.Add(false, "workload", "the manifest states a workload of %d queries drawn with seed %d; privlab draws 0 to %d with seed 1", e.Queries, e.Seed, MaxQueries)
		return
	}
	if e.Queries == 0 {
		none := e.Measured == 0 && e.Mean == 0 && e.EstErr == 0 && !e.Bounds
		rep.Add(none, "workload", "the manifest states that no workload was measured (0 queries)%s", map[bool]string{true: "", false: ", yet gives an error"}[none])
		return
	}
	if original == nil {
		rep.Add(true, "workload", "the stated workload error (%d %s queries) needs the original for the true answers: unconfirmed", e.Queries, e.Shape)
		return
	}
	ans, _, err := OpenRelease(dir)
	if err != nil {
		rep.Add(false, "workload", "the release's answers cannot be read: %v", err)
		return
	}
	policy, _ := model.ParseMissingPolicy(m.MissingValues)
	orig, _ := original.HandleMissing(append(append([]string(nil), m.QIs...), m.SA), policy)
	got, err := measureWorkload(orig, model.Roles{QIs: m.QIs, SA: m.SA}, ans, e.Shape, e.Queries)
	switch {
	case err != nil || got == nil:
		rep.Add(false, "workload", "the stated workload cannot be drawn again: %v", err)
	case got.Measured != e.Measured || got.Bounds != e.Bounds ||
		math.Abs(got.Mean-e.Mean) > 1e-9*math.Max(1, got.Mean) || math.Abs(got.EstErr-e.EstErr) > 1e-9*math.Max(1, got.EstErr):
		rep.Add(false, "workload", "the manifest states a mean error of %s over %d queries, the files and the original give %s over %d",
			model.FormatNumber(e.Mean), e.Measured, model.FormatNumber(got.Mean), got.Measured)
	default:
		rep.Add(true, "workload", "the stated workload error (%s over %d %s queries) is what the release answers", model.FormatNumber(e.Mean), e.Measured, e.Shape)
	}
}

// ReadAudit reads the audit record beside the release in dir
// (model.ReadAudit). The last record read is kept while its file stays
// the same (size and modification time): a command that asks for it
// several times (check --original: the original's settings, its digest,
// the check) reads a million-row record once.
func ReadAudit(dir string) (*model.Audit, error) {
	path := model.AuditPath(dir)
	st, err := os.Stat(path)
	if err != nil {
		return model.ReadAudit(path) // it says why
	}
	lastAudit.Lock()
	defer lastAudit.Unlock()
	if c := lastAudit.c; c != nil && c.path == path && c.size == st.Size() && c.mod.Equal(st.ModTime()) {
		return c.audit, nil
	}
	a, err := model.ReadAudit(path)
	if err != nil {
		return nil, err
	}
	if again, err := os.Stat(path); err == nil && again.Size() == st.Size() && again.ModTime().Equal(st.ModTime()) {
		lastAudit.c = &cachedAudit{path: path, size: st.Size(), mod: st.ModTime(), audit: a}
	}
	return a, nil
}

// lastAudit is the audit record ReadAudit read last. Its readers only
// read it.
var lastAudit struct {
	sync.Mutex
	c *cachedAudit
}

type cachedAudit struct {
	path  string
	size  int64
	mod   time.Time
	audit *model.Audit
}

// AuditProject returns the project a release was made from, from the
// audit record beside it (false when there is none or it does not read).
func AuditProject(dir string) (Project, bool) {
	if dir == "" {
		return Project{}, false
	}
	a, err := ReadAudit(dir)
	if err != nil || a.Config == nil {
		return Project{}, false
	}
	b, err := json.Marshal(a.Config)
	if err != nil {
		return Project{}, false
	}
	var p Project
	if json.Unmarshal(b, &p) != nil {
		return Project{}, false
	}
	return p, true
}

// Summary writes a run's summary: settings, worst cases, figures.
func Summary(w io.Writer, p *Prepared, res *method.Result, elapsed time.Duration) {
	for _, l := range p.Describe() {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "groups     %d (%d with violations)\n", len(res.Groups), res.Violations())
	fmt.Fprintf(w, "rows       %d in, %d published, %d suppressed\n", res.RowsIn, res.Published, res.Suppressed)
	for _, f := range res.Summary {
		mark := "  "
		if !f.OK {
			mark = "! "
		}
		fmt.Fprintf(w, "%s%-40s %s\n", mark, f.Name, fmtFig(f.Value))
	}
	for _, n := range res.Warnings {
		fmt.Fprintf(w, "warning    %s\n", n)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note       %s\n", n)
	}
	fmt.Fprintf(w, "time       %s\n", elapsed.Round(time.Millisecond))
}

// FormatFigure prints a figure exactly where it is whole and with two
// decimals otherwise.
func FormatFigure(x float64) string { return fmtFig(x) }

func fmtFig(x float64) string {
	switch {
	case math.IsInf(x, 0) || math.IsNaN(x):
		return fmt.Sprint(x)
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return model.FormatNumber(x)
	case math.Abs(x) >= 1:
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
	}
	return fmt.Sprintf("%.4g", x)
}

// QueryResult is a query answered on the truth and on the release.
type QueryResult struct {
	Query  *model.Query
	Truth  model.Answer
	HasTru bool
	Answer method.Bounds
	// RelErr is (upper-lower)/truth for bounds, |est-truth|/truth for
	// estimates (NaN when undefined).
	RelErr float64
	// Warnings name condition values no row of the table has (with the
	// nearest values): comparisons are exact, case and all.
	Warnings []string
}

// Answer evaluates a query on the truth (when a table is given) and on the
// release answerer.
func Answer(text string, truth *model.Table, a method.Answerer) (*QueryResult, error) {
	q, err := model.ParseQuery(text)
	if err != nil {
		return nil, err
	}
	out := &QueryResult{Query: q, RelErr: math.NaN()}
	if truth != nil {
		out.Warnings = unknownValues(q, truth)
		if out.Truth, err = q.Truth(truth); err != nil {
			return nil, err
		}
		out.HasTru = true
	}
	if out.Answer, err = a.Answer(q); err != nil {
		return nil, err
	}
	if out.HasTru && !out.Truth.Empty && out.Truth.Value != 0 {
		if out.Answer.HasBounds {
			out.RelErr = (out.Answer.High - out.Answer.Low) / math.Abs(out.Truth.Value)
		} else if out.Answer.HasEst {
			out.RelErr = math.Abs(out.Answer.Estimate-out.Truth.Value) / math.Abs(out.Truth.Value)
		}
	}
	return out, nil
}

// Print writes a query result.
func (r *QueryResult) Print(w io.Writer) {
	fmt.Fprintf(w, "query      %s\n", r.Query.Text)
	count := r.Query.Agg == model.Count
	if r.HasTru {
		if r.Truth.Empty && count {
			fmt.Fprintf(w, "true       0  (0 rows)\n")
		} else if r.Truth.Empty {
			fmt.Fprintf(w, "true       (no row selected)\n")
		} else {
			fmt.Fprintf(w, "true       %s  (%d rows)\n", fmtFig(r.Truth.Value), r.Truth.Count)
		}
	}
	a := r.Answer
	switch {
	case a.Empty && count:
		fmt.Fprintf(w, "release    0 (exact)\n")
	case a.Empty:
		fmt.Fprintf(w, "release    (no row selected)\n")
	case a.HasBounds && a.Low == a.High:
		fmt.Fprintf(w, "release    %s (exact)\n", fmtFig(a.Low))
	case a.HasBounds:
		fmt.Fprintf(w, "release    [%s, %s]\n", fmtFig(a.Low), fmtFig(a.High))
	case a.HasEst:
		fmt.Fprintf(w, "release    %s (estimate)\n", fmtFig(a.Estimate))
	}
	if !math.IsNaN(r.RelErr) {
		fmt.Fprintf(w, "rel. error %.4f\n", r.RelErr)
	}
	if r.HasTru && a.HasBounds && !a.Empty && !r.Truth.Empty {
		if r.Truth.Value < a.Low-1e-9*math.Abs(a.Low) || r.Truth.Value > a.High+1e-9*math.Abs(a.High) {
			fmt.Fprintf(w, "WARNING    the bounds do not contain the true answer\n")
		}
	}
	if a.Note != "" {
		fmt.Fprintf(w, "how        %s\n", a.Note)
	}
	for _, m := range r.Warnings {
		fmt.Fprintf(w, "warning    %s\n", m)
	}
}

// PublishedValueWarnings warns, without the original, about values of
// conditions on categorical columns that the release in dir publishes
// exactly (record-level QI cells that are not generalized, and the
// sensitive attribute's values) and does not hold: the same warning as
// with the original, from the published domain.
func PublishedValueWarnings(q *model.Query, dir string) []string {
	_, v, err := ReleaseRisk(dir, 0)
	if err != nil {
		return nil
	}
	var cols []*model.Column
	if v.SA != "" && !v.SANumeric {
		cols = append(cols, &model.Column{Name: v.SA, Dict: v.SAValues})
	}
	if v.Cells != nil && !v.Generalized {
		for i, q := range v.QIs {
			if _, ok := model.ParseNumber(firstOr(v.Cells[i])); !ok {
				cols = append(cols, &model.Column{Name: q, Dict: v.Cells[i]})
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	return unknownValues(q, &model.Table{Columns: cols})
}

func firstOr(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// unknownValues warns about values of = / != / IN conditions on
// categorical columns that no row holds, suggesting the nearest values
// (the same letters in another case first, then small edit distances).
func unknownValues(q *model.Query, t *model.Table) []string {
	var out []string
	for _, p := range q.Preds {
		c := t.Column(p.Column)
		if c == nil || c.Kind == model.Numeric || (p.Op != model.OpEq && p.Op != model.OpNe && p.Op != model.OpIn) {
			continue
		}
		have := make(map[string]bool, len(c.Dict))
		for _, v := range c.Dict {
			have[v] = true
		}
		for _, l := range p.Values {
			if have[l.Text] {
				continue
			}
			msg := fmt.Sprintf("no row has %s = '%s'", p.Column, l.Text)
			if near := nearest(l.Text, c.Dict, 3); len(near) > 0 {
				msg += "; did you mean '" + strings.Join(near, "', '") + "'?"
			}
			out = append(out, msg)
		}
	}
	return out
}

// nearest returns up to n values closest to s: equal but for case, then
// within an edit distance of a third of its length (at least 2).
func nearest(s string, values []string, n int) []string {
	type cand struct {
		v string
		d int
	}
	var cs []cand
	limit := max(2, len([]rune(s))/3)
	for _, v := range values {
		d := editDistance(strings.ToLower(s), strings.ToLower(v))
		if strings.EqualFold(s, v) {
			d = 0
		} else if d == 0 {
			d = 1
		}
		if d <= limit {
			cs = append(cs, cand{v, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].v < cs[j].v
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].v)
	}
	return out
}

// editDistance is the Levenshtein distance between two strings (runes).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// OpenRelease reads an exported release of any registered method.
func OpenRelease(dir string) (method.Answerer, *model.Manifest, error) {
	man, err := model.ReadManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	m, err := catalog.Lookup(man.Method)
	if err != nil {
		return nil, nil, err
	}
	a, err := m.OpenRelease(dir)
	return a, man, err
}

// Eval runs a random workload of the method's query shape.
func Eval(p *Prepared, res *method.Result, opt workload.Options) (workload.Result, error) {
	if opt.Shape == "" {
		opt.Shape = res.Workload
	}
	qs, err := workload.Generate(p.Table, p.Project.Roles, opt)
	if err != nil {
		return workload.Result{}, err
	}
	return workload.Evaluate(p.Table, res.Answerer, qs)
}

// Profile is one column of Inspect.
type Profile struct {
	Name     string
	Kind     model.Kind
	Distinct int
	Missing  int
	Min, Max float64
	Top      []string // most frequent values with counts
}

// Inspect profiles every column: the data pane, headless.
func Inspect(t *model.Table) []Profile {
	var out []Profile
	for _, c := range t.Columns {
		p := Profile{Name: c.Name, Kind: c.Kind, Distinct: c.Distinct(), Missing: c.MissingCount}
		if lo, hi, ok := c.Range(); ok {
			p.Min, p.Max = lo, hi
		}
		counts := c.Counts()
		idx := make([]int, len(counts))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool {
			if counts[idx[a]] != counts[idx[b]] {
				return counts[idx[a]] > counts[idx[b]]
			}
			return c.Dict[idx[a]] < c.Dict[idx[b]]
		})
		for i := 0; i < len(idx) && i < 3; i++ {
			p.Top = append(p.Top, fmt.Sprintf("%s (%d)", c.Dict[idx[i]], counts[idx[i]]))
		}
		out = append(out, p)
	}
	return out
}

// PrintInspect writes the profile as a table.
func PrintInspect(w io.Writer, t *model.Table) {
	fmt.Fprintf(w, "%s: %d rows, %d columns\n\n", t.Name, t.Rows, len(t.Columns))
	fmt.Fprintf(w, "%-20s %-12s %9s %8s  %s\n", "column", "kind", "distinct", "missing", "range / top values")
	for _, p := range Inspect(t) {
		desc := strings.Join(p.Top, ", ")
		if p.Kind == model.Numeric {
			desc = fmt.Sprintf("%s .. %s", model.FormatNumber(p.Min), model.FormatNumber(p.Max))
		}
		fmt.Fprintf(w, "%-20s %-12s %9d %8d  %s\n", p.Name, p.Kind, p.Distinct, p.Missing, desc)
	}
	if len(t.Notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "warning: %s\n", n)
	}
}
