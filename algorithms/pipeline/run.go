package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/model/source"
)

// RunOptions are how a caller follows a run.
type RunOptions struct {
	// Progress (when not nil) receives the share of the method's work done.
	Progress func(float64)
	// Then (when not nil) receives the result as soon as the method has
	// run, before the deferred figures, which may take long on one core
	// (method.Result.Deferred): privlab run measures the export's workload
	// meanwhile (StartWorkload).
	Then func(*method.Result)
	// Preview leaves the method's deferred figures out: the workbench
	// draws the result at once and adds them when they come.
	Preview bool
}

// Run executes the prepared method. Panics inside a method are turned into
// errors so that no user ever sees a stack trace.
func Run(ctx context.Context, p *Prepared, opt RunOptions) (res *method.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, model.Recovered(r, "in method "+p.Method.Spec().Name)
		}
	}()
	if res, err = runPreview(ctx, p, opt.Progress); err != nil {
		return res, err
	}
	if opt.Then != nil {
		opt.Then(res)
	}
	if opt.Preview || res.Deferred == nil {
		return res, nil
	}
	figs, err := res.Deferred(ctx)
	if err != nil {
		return nil, err
	}
	res.Summary = append(res.Summary, figs...)
	return res, nil
}

// runPreview is Run without the method's deferred figures
// (method.Result.Deferred).
func runPreview(ctx context.Context, p *Prepared, progress func(float64)) (res *method.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, model.Recovered(r, "in method "+p.Method.Spec().Name)
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
	// Workload, when it is the measurement StartWorkload started for the
	// result and the same number of queries, is waited for rather than
	// measured again.
	Workload *Workload
	// InputDigest, when it is the digest StartInputDigest started for
	// the same file, is waited for rather than taken again.
	InputDigest *InputDigest
	// Advisor, when the project has a current risk-utility map
	// (advise.ExportMap), is stated in the manifest and report.md and its
	// picture written beside the release (releasedir.AdvisorMapPath).
	Advisor *AdvisorExport
	// LetGo says the caller reads nothing of the result after the
	// export (a command that runs once): Export lets go of its groups,
	// answerer and release function as soon as it has read them, so that
	// the method's result is not kept beside the release while the
	// release is checked (at a million rows the groups alone are large).
	LetGo bool
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
	Manifest *releasedir.Manifest
	Checks   []string
	Seed     uint64
}

// Export writes the release of res into dir: files shuffled with the
// project's seed (crypto/rand when none is fixed), verified by the
// independent checker against the published files and the input before
// the directory is renamed into place, and the audit record beside it.
func Export(p *Prepared, res *method.Result, dir string, opt ExportOptions) (*Exported, error) {
	seed, fixed, err := exportSeed(p, res, dir, opt)
	if err != nil {
		return nil, err
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := computeDeferred(ctx, res); err != nil {
		return nil, err
	}
	// The result's own warnings read its groups (LetGo lets them go).
	warnings := ResultWarnings(res)
	// The workload's true and released answers are computed while the
	// release is built, measured, written and checked (they read the
	// input and the method's answerer, not the files), the input's digest
	// (for the audit record) meanwhile too, unless they were started
	// ahead (opt.Workload, opt.InputDigest).
	wl := opt.Workload.For(res, opt.queries())
	if wl == nil {
		wl = startWorkload(p.Table, p.Project.Roles, res.Answerer, res.Workload, opt.queries())
	}
	input := hashInput(p, opt)
	rel, rowMap, err := buildRelease(p, res, seed)
	if err != nil {
		return nil, err
	}
	audit := &releasedir.Audit{Input: p.Project.Input, Seed: seed, SeedFixed: fixed, RowMap: rowMap, Config: p.Project, InputFormat: input.format}
	rel.Manifest.Advisor = opt.Advisor.note(dir)
	mem := renderOnce(rel)
	if opt.LetGo {
		// The release is built and rendered (its manifest read the
		// groups, its files the method's tables); the workload holds
		// the answerer it reads.
		res.Groups, res.Answerer, res.Release = nil, nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var lines []string
	man, err := releasedir.Write(dir, rel, releasedir.WriteOptions{
		Force:            opt.Force,
		Inputs:           inputFiles(p),
		AcceptViolations: opt.AcceptViolations,
		Audit:            audit,
		Context:          ctx,
		Warn:             opt.Warn,
		VerifyMeanwhile:  p.Source.Rows <= checkMeanwhileRows,
		Meanwhile: func(m *releasedir.Manifest) error {
			mem.ParseAll()
			if err := stateFindings(p, res.Spec.Name, warnings, rel, mem); err != nil {
				return err
			}
			m.Risk, m.RiskSummary, m.Warnings, m.Attacks = rel.Manifest.Risk, rel.Manifest.RiskSummary, rel.Manifest.Warnings, rel.Manifest.Attacks
			if err := refuseBroken(m, opt.AcceptViolations); err != nil {
				return err
			}
			var err error
			m.WorkloadError, err = wl()
			return err
		},
		Verify: func(tmp string, m *releasedir.Manifest) ([]string, error) {
			v := verifyExport(tmp, mem, m.Files, verify.Options{Original: p.Source, Public: p.Public, Audit: audit, SkipRisk: true, Whole: p.Whole})
			input.wait() // before the audit record is written, after the checks read it
			audit.InputSHA256 = input.sum
			if v.full != nil {
				lines = v.full.Strings()
			}
			return v.stated(), v.err()
		},
	})
	if err != nil {
		return nil, err
	}
	exp := &Exported{Dir: dir, Manifest: man, Checks: lines, Seed: seed}
	return exp, opt.Advisor.draw(dir)
}

// checkMeanwhileRows is the most input rows whose export checks its
// files while the attacks are measured, both at once on the cores
// (releasedir.WriteOptions.VerifyMeanwhile): a small table's run is the
// faster for it (Adult: about 20 ms of 130), a large one's would hold
// the attacks' and the checks' memory at once (ambiguity on census 1M:
// 1.46 GB at its peak against 1.25 GB, near the 1.5 GB budget).
const checkMeanwhileRows = 200_000

// computeDeferred computes the result's deferred figures, so the release
// states them too (the method keeps them once computed; the result's own
// list is not touched, the workbench may be drawing it).
func computeDeferred(ctx context.Context, res *method.Result) error {
	if res.Deferred == nil {
		return nil
	}
	_, err := res.Deferred(ctx)
	return err
}

// renderOnce renders the release's files, once: they are written as
// rendered, and parsed while they are written for the risk figures and
// the attacks; the checks read the same bytes and tables. The method's
// row functions (and the tables they read) are let go.
func renderOnce(rel *releasedir.Release) *verify.Release {
	mem := verify.RenderBuilt(rel)
	for i := range rel.Files {
		rel.Files[i].Text, rel.Files[i].Fill, rel.Files[i].Record = mem.Rendered(rel.Files[i].Name), rendered, nil
	}
	return mem
}

// exportSeed refuses a release file that grows past MaxGrowth times the
// input (unless opt.AllowGrowth) and returns the project's seed (fixed) or
// a crypto/rand one.
func exportSeed(p *Prepared, res *method.Result, dir string, opt ExportOptions) (seed uint64, fixed bool, err error) {
	if file, g := Growth(res); file != "" && !opt.AllowGrowth {
		return 0, false, &model.ParamError{Param: "out", Value: dir,
			Reason: fmt.Sprintf("%s would hold %.0f times the input's %d rows", file, g, res.RowsIn),
			Hint:   "or lower the parameter that adds rows (e.g. fake values)",
			Fixes:  []model.Fix{{Setting: model.SetAllowGrowth, Why: "to write it anyway"}}}
	}
	seed, fixed, err = model.ParseSeed(p.Values[model.SeedParam.Name])
	if err != nil {
		return 0, false, &model.ParamError{Param: model.SeedParam.Name, Value: p.Values[model.SeedParam.Name], Reason: err.Error()}
	}
	if !fixed {
		seed = model.CryptoSeed()
	}
	return seed, fixed, nil
}

// inputHash is the export's input file's digest for the audit record (sum
// is set once wait returns) and its format; both empty for a dataset.
type inputHash struct {
	sum, format string
	wait        func()
}

// hashInput starts hashing the input file in the background, or waits for
// the digest opt.InputDigest started ahead for the same file.
func hashInput(p *Prepared, opt ExportOptions) *inputHash {
	h := &inputHash{wait: func() {}}
	if _, ok := DatasetName(p.Project.Input); ok {
		return h
	}
	path := source.Path(p.Project.Input) // FILE.db:TABLE hashes FILE
	if d := opt.InputDigest; d != nil && d.path == path {
		h.wait = func() { d.wait(); h.sum = d.sum }
	} else {
		h.wait = concurrently(func() { h.sum, _ = releasedir.FileSHA256(path) })
	}
	h.format = string(source.FormatOf(path))
	return h
}

// buildRelease has the method build its release with seed, maps its rows
// to the input file's and states the rows the preparation dropped.
func buildRelease(p *Prepared, res *method.Result, seed uint64) (*releasedir.Release, map[string][]int, error) {
	rel, rowMap, err := res.Release(seed)
	if err != nil {
		return nil, nil, err
	}
	rowMap = inputRows(p, rowMap)
	// Rows dropped for missing values were not published.
	rel.Manifest.RowsIn = p.Source.Rows
	rel.Manifest.Suppressed += p.Dropped
	if p.VariantNote != "" {
		rel.Manifest.Notes = append(rel.Manifest.Notes, p.VariantNote)
	}
	rel.Manifest.MissingValues = "drop"
	if p.Project.Missing == "category" {
		rel.Manifest.MissingValues = "category"
	}
	return rel, rowMap, nil
}

// refuseBroken stops a release whose measured attack breaks its method's
// own bound (SPEC 3.7), as a failed check does: exit 1, nothing written,
// unless the user accepts the violations, when the manifest says so.
func refuseBroken(m *releasedir.Manifest, accept bool) error {
	var lines []string
	for _, a := range m.Attacks {
		if a.Holds != nil && !*a.Holds {
			lines = append(lines, "FAIL attack "+AttackSummary(a))
		}
	}
	switch {
	case len(lines) == 0:
		return nil
	case !accept:
		return &releasedir.VerifyError{Lines: lines, Err: fmt.Errorf("%d attack(s) broke the bound their method promises", len(lines))}
	}
	m.Notes = append(m.Notes, fmt.Sprintf("%d attack(s) broke the bound the method promises; the release was written because the user accepted the violations", len(lines)))
	return nil
}

// rendered stands for the row function of a file whose text is set (it
// is never called: releasedir.ReleaseFile.CSVText returns the text).
func rendered(int, []string) { panic("a rendered file's rows are its text") }

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
	return releaseRisk(rel, threshold)
}

// releaseRisk is ReleaseRisk on an opened release.
func releaseRisk(rel *verify.Release, threshold float64) (*risk.Report, *risk.View, error) {
	view, ok := catalog.Viewer(rel.Manifest.Method)
	if !ok {
		return nil, nil, &model.InputError{File: rel.Dir, Msg: fmt.Sprintf("unknown method %q", rel.Manifest.Method)}
	}
	if threshold <= 0 {
		threshold = risk.ThresholdOf(rel.Manifest.Risk)
	}
	return rel.Risk(view, threshold)
}

func measure(rel *releasedir.Release, method string, threshold float64) (*risk.Report, *risk.View, error) {
	mem, err := verify.OpenBuilt(rel)
	if err != nil {
		return nil, nil, err
	}
	return measureBuilt(mem, method, threshold)
}

// measureBuilt is measure on the release built in memory (verify.OpenBuilt).
func measureBuilt(mem *verify.Release, method string, threshold float64) (*risk.Report, *risk.View, error) {
	view, ok := catalog.Viewer(method)
	if !ok || view == nil {
		return nil, nil, fmt.Errorf("method %s registers no viewer", method)
	}
	return mem.Risk(view, threshold)
}

// stateFindings puts into the manifest what is measured on the release
// as it will be published (check recomputes it from the files): the
// figures every release gets, the warnings (after warnings, the result's
// own: ResultWarnings), and the attacks, all read from mem, the release
// rel of method name built in memory (verify.OpenBuilt). The
// risk figures are measured while the attacks run (on one core, the
// attacks on every core): the attacks read the release as built for
// them (the same bytes, tables and attacker's view) and nothing the
// risk puts in the manifest (its figures, summary and warnings). A
// failure is the first one in the order risk, population, attacks.
func stateFindings(p *Prepared, name string, warnings []string, rel *releasedir.Release, mem *verify.Release) error {
	var rk *risk.Report
	var view *risk.View
	var rerr error
	measured := concurrently(func() { rk, view, rerr = measureBuilt(mem, name, p.Project.RiskThreshold) })
	perr := (Env{}).LoadPopulationOf(p)
	k := exportKnowledge(p)
	var atk *attack.Report
	var aerr error
	if perr == nil {
		atk, aerr = measureAttacks(mem, name, k)
	}
	measured()
	if rerr != nil {
		return fmt.Errorf("measuring the release's risk: %w", rerr)
	}
	rel.Manifest.Risk, rel.Manifest.RiskSummary = rk.ManifestFigures(), rk.Summary
	rel.Manifest.Warnings = append(warnings, FileWarnings(rk, Single(view), rel.Manifest.RowsIn, rel.Manifest.Suppressed, false)...)
	if perr != nil {
		return perr
	}
	// The release built in memory states what the manifest states now.
	files := mem.Manifest.Files
	*mem.Manifest = rel.Manifest
	mem.Manifest.Files = files
	if aerr != nil {
		return fmt.Errorf("attacking the release: %w", aerr)
	}
	if atk != nil {
		rel.Manifest.Attacks = ManifestAttacks(atk, k)
	}
	return nil
}

// exportCheck is an export's look at its written files, before the
// manifest states what they give: the full check (with the input, the
// public table and the audit record) and the check from the files alone
// (the lines the manifest states, which any recipient reproduces word
// for word). The risk figures, warnings and attacks were measured on the
// release built in memory (stateFindings); check recomputes them from
// the files, the export's own check skips them.
type exportCheck struct {
	full, alone       *verify.Report
	fullErr, aloneErr error
}

// verifyExport runs the two at once on both cores, over one reading of
// the files (verify.Shared: each file parsed once, its SHA-256 the one
// the writer took as it read the file back, written).
func verifyExport(dir string, built *verify.Release, written []releasedir.FileEntry, opt verify.Options) *exportCheck {
	v := &exportCheck{}
	sums := map[string]string{}
	for _, f := range written {
		sums[f.Name] = f.SHA256
	}
	files := verify.NewSharedBuilt(dir, built, sums)
	alone := concurrently(func() { v.alone, v.aloneErr = files.Check(verify.Options{SkipRisk: true}, catalog.Declared) })
	v.full, v.fullErr = files.Check(opt, catalog.Declared)
	alone()
	return v
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
		lines = append(lines, (verify.Line{OK: true, Name: "faithful", Text: verify.FaithfulPrefix + strings.Join(more, ", ")}).String())
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
	return (Env{}).CheckWith(dir, &risk.Knowledge{Original: original, Public: public})
}

// CheckWith is Check with all an attacker may hold (the population and
// marginals too): the attacks the manifest states are recomputed with
// what they read at export.
func (e Env) CheckWith(dir string, k *risk.Knowledge) (*verify.Report, error) {
	return e.CheckPart(dir, k, PartOf{})
}

// PartOf says what a partition of a partitioned release is checked with
// besides its own files (SPEC 3.9): the whole input (verify.Options.Whole)
// and its audit record, kept apart from the published directory.
type PartOf struct {
	Whole *model.Whole
	Audit string
	// Then, when set, is handed the release as the checker read it (its
	// attacker's view read once, for the attacks), when the checker read
	// it through.
	Then func(rel *verify.Release)
}

// CheckPart is CheckWith for one partition of a partitioned release.
func (e Env) CheckPart(dir string, k *risk.Knowledge, part PartOf) (*verify.Report, error) {
	original, public := k.Original, k.Public
	if m, err := releasedir.ReadManifest(dir); err == nil && k.Population != nil && original != nil {
		if err := attack.HoldsOriginal(k.Population, original, m.QIs); err != nil {
			return nil, err
		}
	}
	opt := verify.Options{Original: original, Public: public, Received: true, Whole: part.Whole}
	auditPath := releasedir.AuditPath(dir)
	if part.Audit != "" {
		auditPath = part.Audit
	}
	if _, err := os.Lstat(auditPath); err == nil {
		read := func() (*releasedir.Audit, error) { return e.Cache.ReadAudit(dir) }
		if part.Audit != "" {
			read = func() (*releasedir.Audit, error) { return releasedir.ReadAudit(auditPath) }
		}
		a, err := read()
		if err != nil {
			return nil, err
		}
		opt.Audit = a
	}
	// The workload is answered on the release's files and the original
	// while the checker reads them: neither writes anything.
	// The workload reads the tables the checker parses (verify.Shared).
	files := verify.NewShared(dir)
	var workload verify.Report
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		checkWorkload(dir, original, &workload, files)
	}()
	// The attacks and the warnings read the release as the checker read
	// it (its tables, its attacker's view); when the checker stopped
	// short, they open it again.
	var after verify.Report
	read := false
	opt.Then = func(rel *verify.Release) {
		read = true
		checkAttacksOn(rel, k, &after)
		checkWarningsOn(rel, &after)
		if part.Then != nil {
			part.Then(rel)
		}
	}
	rep, err := files.Check(opt, catalog.Declared)
	if p := <-done; p != nil && err == nil && rep != nil {
		panic(p)
	}
	if err != nil || rep == nil {
		return rep, err
	}
	if !read {
		checkAttacks(dir, k, &after)
		checkWarnings(dir, &after)
	}
	rep.Lines = append(rep.Lines, workload.Lines...)
	rep.Lines = append(rep.Lines, after.Lines...)
	return rep, nil
}

func shapeOf(e *releasedir.WorkloadError) string {
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
func measureWorkload(t *model.Table, roles model.Roles, a method.Answerer, shape string, n int) (*releasedir.WorkloadError, error) {
	if a == nil || shape == "" {
		return nil, nil
	}
	if n == 0 {
		return &releasedir.WorkloadError{Shape: shape, Queries: 0, Seed: 1}, nil
	}
	opt := workload.Options{Shape: shape, Queries: n, Seed: 1}
	r, fits, err := workload.Measure(t, roles, a, opt)
	if !fits {
		return nil, nil // a table the shape does not fit: no claim
	}
	if err != nil {
		return nil, err
	}
	return &releasedir.WorkloadError{Shape: shape, Queries: n, Seed: 1, Measured: r.Queries, Mean: r.MeanErr, EstErr: r.EstErr, Bounds: r.Bounded > 0}, nil
}

// InputDigest is the SHA-256 of an export's input file (its audit
// record's), taken ahead of the export (StartInputDigest).
type InputDigest struct {
	path string
	sum  string
	wait func()
}

// Sum waits for the digest and returns it ("" for none or an unreadable
// file).
func (d *InputDigest) Sum() string {
	if d == nil {
		return ""
	}
	d.wait()
	return d.sum
}

// KnownInputDigest is the digest of an input file computed already (a
// partitioned run hashes its input once for every partition's audit
// record).
func KnownInputDigest(path, sum string) *InputDigest {
	return &InputDigest{path: source.Path(path), sum: sum, wait: func() {}}
}

// StartInputDigest starts hashing, in the background, the input file an
// export of p records in its audit record (nil for a dataset: none):
// privlab run hashes it while the method runs on one core.
func StartInputDigest(p *Prepared) *InputDigest {
	if _, ok := DatasetName(p.Project.Input); ok {
		return nil
	}
	d := &InputDigest{path: source.Path(p.Project.Input)}
	d.wait = concurrently(func() { d.sum, _ = releasedir.FileSHA256(d.path) })
	return d
}

// Workload is the workload error an export states, measured ahead of
// the export (StartWorkload).
type Workload struct {
	res  *method.Result
	n    int
	wait func() (*releasedir.WorkloadError, error)
}

// StartWorkload starts measuring, in the background, the workload error
// an export of res asked for queries queries states (ExportOptions.Queries:
// 0 the default, NoQueries none), for the export to wait for
// (ExportOptions.Workload). The method's answerer may be asked while its
// deferred figures are computed (the workbench asks it then too).
func StartWorkload(p *Prepared, res *method.Result, queries int) *Workload {
	n := ExportOptions{Queries: queries}.queries()
	return &Workload{res: res, n: n, wait: startWorkload(p.Table, p.Project.Roles, res.Answerer, res.Workload, n)}
}

// For is the wait for the measurement when it is of res and n queries,
// else nil.
func (w *Workload) For(res *method.Result, n int) func() (*releasedir.WorkloadError, error) {
	if w == nil || w.res != res || w.n != n {
		return nil
	}
	return w.wait
}

// startWorkload measures the workload (measureWorkload) in the
// background and returns a wait for its result.
func startWorkload(t *model.Table, roles model.Roles, a method.Answerer, shape string, n int) func() (*releasedir.WorkloadError, error) {
	var e *releasedir.WorkloadError
	var err error
	wait := concurrently(func() { e, err = measureWorkload(t, roles, a, shape, n) })
	return func() (*releasedir.WorkloadError, error) {
		wait()
		return e, err
	}
}

// checkWorkload recomputes the workload error the manifest states from
// the release's files and the original (the true answers): without the
// original it is named as unconfirmed.
func checkWorkload(dir string, original *model.Table, rep *verify.Report, files *verify.Shared) {
	m, err := releasedir.ReadManifest(dir)
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
	ans, _, err := openReleaseShared(dir, files)
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

// AuditProject returns the project a release was made from, from the
// audit record beside it (false when there is none or it does not read).
func (c *Cache) AuditProject(dir string) (Project, bool) {
	if dir == "" {
		return Project{}, false
	}
	a, err := c.ReadAudit(dir)
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
