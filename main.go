// Command privlab is a terminal workbench for anonymizing microdata with
// the methods of five papers. With no arguments (or a CSV file) it opens
// the workbench; its subcommands are the headless twins of every workbench
// action (SPEC Section 5):
//
//	privlab                         workbench on the embedded default dataset
//	privlab FILE                    workbench on a file (CSV, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE)
//	privlab DIR                     workbench reading a release (its original
//	                                found through the audit record beside it)
//	privlab run    [flags]          anonymize and write a release directory
//	privlab check  DIR [--original FILE] [--public FILE]   re-verify a release from its files
//	privlab query  [flags] "QUERY"  answer on the original and the release
//	privlab eval   [flags]          random workload: average relative error
//	privlab gen    NAME [--rows N] [--seed S] [--out FILE]   synthetic data
//	privlab datasets                list embedded datasets
//	privlab tour [NAME [--steps]]   teaching tours: each paper's worked example
//	privlab inspect FILE|dataset:NAME   column profile
//
// Exit codes: 0 success; 1 a privacy requirement not met or a check
// failed; 2 usage or input error; 3 (check) no check failed, but a
// privacy guarantee could not be confirmed from the inputs given; 130
// interrupted (Ctrl-C: the command stops within a second and leaves no
// half-written release). Errors go to stderr as
// "privlab: FILE:LINE: message", never as a stack trace.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/tour"
	"privlab/algorithms/workload"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/source"
	"privlab/ui"
)

// Exit codes (SPEC 5), and 130 (128 + SIGINT, the shell's code for a
// command Ctrl-C stopped) for an interrupted command.
const (
	exitOK      = 0
	exitPrivacy = 1
	exitUsage   = 2
	// exitUnconfirmed: check found no failure, but a privacy guarantee
	// could not be confirmed from the inputs given (verify.Report.Unproven).
	exitUnconfirmed = 3
	exitInterrupted = 130
)

// interruptGrace is how long an interrupted command has to stop and clean
// up by itself before the process removes what it was writing and exits.
const interruptGrace = 500 * time.Millisecond

func main() {
	if len(os.Args) > 1 && batchCommands[os.Args[1]] {
		batchGC()
	}
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}

// batchCommands run once and exit (the workbench stays with Go's
// default collector).
var batchCommands = map[string]bool{"run": true, "check": true, "query": true, "eval": true, "gen": true, "inspect": true}

// batchHeadroom is how far above the live heap a batch command's heap
// may grow between collections, at most (and never less than the
// default's: once the live heap itself).
const batchHeadroom = 512 << 20

// batchGC lets the garbage collector of a command that runs once and
// exits collect less often: a heap of up to five times the live one
// (GOGC=400) while that stays within batchHeadroom above it, down to
// Go's default (twice the live heap) for large tables, so that the peak
// memory of a million-row run grows by at most batchHeadroom. A GOGC or
// GOMEMLIMIT in the environment is the user's choice and is left alone.
// It re-tunes after every collection (a finalizer runs once per cycle).
func batchGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func(*[16]byte)
	tune = func(sentinel *[16]byte) {
		metrics.Read(sample)
		pct := 400
		if live := sample[0].Value.Uint64(); live > 0 && live*4 > batchHeadroom {
			pct = max(100, int(batchHeadroom*100/live))
		}
		debug.SetGCPercent(pct)
		runtime.SetFinalizer(new([16]byte), tune)
	}
	debug.SetGCPercent(400)
	runtime.SetFinalizer(new([16]byte), tune)
}

// env is how the pipeline reaches the embedded datasets.
var env = pipeline.Env{Datasets: datasets.Catalog{}}

// execute runs one command line, writing to the given streams, and
// returns the exit code. It never lets a panic escape as a stack trace.
func execute(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "privlab: internal error: %v (please report it)\n", r)
			code = exitUsage
		}
	}()
	if len(args) == 0 {
		return startWorkbench(nil, stderr)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return withArgs(cmd, rest, stdout, stderr, cmdRun)
	case "check":
		return withArgs(cmd, rest, stdout, stderr, cmdCheck)
	case "query":
		return withArgs(cmd, rest, stdout, stderr, cmdQuery)
	case "eval":
		return withArgs(cmd, rest, stdout, stderr, cmdEval)
	case "gen":
		return withArgs(cmd, rest, stdout, stderr, cmdGen)
	case "inspect":
		return withArgs(cmd, rest, stdout, stderr, cmdInspect)
	case "datasets":
		return withArgs(cmd, rest, stdout, stderr, cmdDatasets)
	case "tour":
		return cmdTour(rest, stdout, stderr)
	case "help", "-h", "--help":
		usage(stdout)
		return exitOK
	case "version", "--version":
		fmt.Fprintf(stdout, "privlab %s\n", model.Version)
		return exitOK
	}
	// The workbench: privlab [FILE.csv | dataset:NAME | project.json] [flags].
	if strings.HasPrefix(cmd, "-") {
		return startWorkbench(args, stderr)
	}
	lower := strings.ToLower(cmd)
	if strings.HasSuffix(lower, ".json") {
		return startWorkbench(append([]string{"--config", cmd}, rest...), stderr)
	}
	if _, err := os.Stat(filepath.Join(cmd, "manifest.json")); err == nil {
		// A release directory: read it in the workbench, checked against
		// its original (--original FILE, else the input the audit record
		// beside it names, when that file is there unchanged).
		return startWorkbench(append([]string{"--release", cmd}, rest...), stderr)
	}
	if _, err := os.Stat(source.Path(cmd)); err == nil || isDataFile(lower) || strings.HasPrefix(cmd, "dataset:") {
		return startWorkbench(append([]string{"--in", cmd}, rest...), stderr)
	}
	fmt.Fprintf(stderr, "privlab: unknown command %q (hint: commands are run, check, query, eval, gen, datasets, inspect, tour; privlab help)\n", cmd)
	return exitUsage
}

// isDataFile reports whether a (lower-case) name ends as a table's file
// does (privlab FILE opens it; a missing one is then an error naming it).
func isDataFile(name string) bool {
	for _, ext := range source.Extensions() {
		if strings.HasSuffix(source.Path(name), ext) {
			return true
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprint(w, `privlab — a terminal workbench for microdata anonymization

usage:
  privlab                          open the workbench on dataset:census (10,000 rows)
  privlab FILE                     open the workbench on a file: CSV, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE
  privlab project.json             open the workbench on a saved project (also --config project.json)
                                   (the workbench takes the run flags too: privlab dataset:census --rows 45000)
  privlab DIR                      read a release in the workbench: its check, its risk, queries; its original
                                   is found through the audit record beside it (or give --original FILE)
  privlab run    [flags] --out DIR anonymize and write a release directory
  privlab check  DIR [--original FILE] [--public FILE]   re-verify a release from its files (exit 1 on a violation,
                                   3 when a privacy guarantee needs a file not given)
  privlab query  [flags] "QUERY"   answer a query on the original and on the release
                                   (anonymizes with the flags, or --release DIR [--original FILE])
  privlab eval   [flags]           random query workload, the risk figures every release gets, and the method's study
                                   (--compare: every method side by side; --sweep PARAM=V1,V2,... or PARAM=A..B[:STEP];
                                   --release DIR --original FILE: an exported release)
  privlab gen    NAME [--rows N] [--seed S] [--out FILE] [--hierarchies DIR]
  privlab gen    universe --rows N --ratio R --seed S --out DIR
  privlab datasets                 list the embedded datasets
  privlab tour                     list the teaching tours: each paper's worked example, step by step
  privlab tour NAME [--steps]      open the workbench on a tour (--steps: print its steps)
  privlab inspect FILE|dataset:NAME   column profile: kind, distinct, missing, range / top values

common flags:
  --in FILE|dataset:NAME  --qi a,b,c  --sa s  --id x,y  --method M  --variant V  --public FILE|dataset:NAME
  (FILE, for --in, --public, --original and inspect: CSV text, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE)
  --hierarchy ATTR=FILE|flat|masking|binary|ternary|intervals:W (repeatable)
  `+pipeline.StandardFlags()+` N, and each method's own parameters (below)
  --missing drop|category  --kind COL=numeric|categorical  --columns a,b,c (header-less CSV)  --max-cell BYTES
  --missing-values "?," (cells read as missing; default "",?,NA,NULL; an empty item is the empty cell)
  --header yes|no (default: a first row that looks like data is read as data, and said)
  --rows N --data-seed N --public-rows N (synthetic datasets)  --config project.json  --out DIR  --force
  --accept-violations  --allow-growth (a release file over 10x the input's rows)
  --risk-threshold P (a record in a class of risk 1/|class| above P is at risk; default 0.2)
  eval: --queries N --range F --selectivity S --qd N --csv FILE --sweep PARAM=V1,V2,...|PARAM=A..B[:STEP] --compare
        --release DIR --original FILE

queries:  COUNT(*) | SUM(sa) | AVG(sa) | MIN(sa) | MAX(sa) [WHERE pred {AND pred}]
          pred: col = v | != | < | <= | > | >= | col BETWEEN a AND b | col IN (v1, v2)

exit codes: 0 ok, 1 privacy requirement not met / check failed, 2 usage or input error,
            3 (check) no check failed, but a privacy guarantee could not be confirmed from the
            inputs given; pass the named file, 130 interrupted (ctrl+c)
`)
	pipeline.MethodHelp(w)
}

// withArgs parses the flags of a command and reports errors uniformly.
func withArgs(cmd string, args []string, stdout, stderr io.Writer, f func(a *pipeline.Args, w, ew io.Writer) error) int {
	a, err := pipeline.ParseArgs(cmd, args)
	if err != nil {
		return fail(stderr, err)
	}
	if a.Help {
		usage(stdout)
		return exitOK
	}
	if err := f(a, stdout, stderr); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

// errPrivacy marks a privacy failure (exit 1) whose details were printed.
type errPrivacy struct{ msg string }

func (e errPrivacy) Error() string { return e.msg }

// errUnconfirmed marks a check that found no failure but could not
// confirm a privacy guarantee (exit 3); its details were printed.
type errUnconfirmed struct{ msg string }

func (e errUnconfirmed) Error() string { return e.msg }

func fail(stderr io.Writer, err error) int {
	var ep errPrivacy
	if errors.As(err, &ep) {
		fmt.Fprintf(stderr, "privlab: %s\n", ep.msg)
		return exitPrivacy
	}
	var eu errUnconfirmed
	if errors.As(err, &eu) {
		fmt.Fprintf(stderr, "privlab: %s\n", eu.msg)
		return exitUnconfirmed
	}
	var ve *model.VerifyError
	if errors.As(err, &ve) {
		for _, l := range ve.Lines {
			fmt.Fprintln(stderr, l)
		}
		if len(ve.Lines) == 0 {
			fmt.Fprintf(stderr, "privlab: the written release could not be read back: %v\n", ve.Err)
		}
		fmt.Fprintf(stderr, "privlab: the release fails its privacy verification and was not written (hint: --accept-violations writes it anyway, marked in the manifest)\n")
		return exitPrivacy
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "privlab: interrupted; nothing was written")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "privlab: %v\n", err)
	return exitUsage
}

func noPositional(a *pipeline.Args, cmd string) error {
	if len(a.Positional) > 0 {
		return &model.ParamError{Param: cmd, Value: a.Positional[0], Reason: "unexpected argument", Hint: "privlab " + cmd + " --help"}
	}
	return nil
}

// prepare loads the input and resolves the project.
func prepare(a *pipeline.Args) (*pipeline.Prepared, error) {
	t, err := env.LoadTable(env.WithDefaults(a.Project))
	if err != nil {
		return nil, err
	}
	return env.Prepare(a.Project, t)
}

// interruptible returns a context that the first Ctrl-C cancels: the
// command stops, cleans up and exits with code 130. A command that has
// not returned within interruptGrace (a step that does not look at the
// context, such as verifying a large release), or a second Ctrl-C, ends
// the process: the release being written is removed first
// (model.AbortWrites), so no temporary directory is left.
func interruptible(stderr io.Writer) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		cancel()
		select {
		case <-done:
			return // the command stopped by itself
		case <-sig:
		case <-time.After(interruptGrace):
		}
		if _, placed := model.AbortWrites(); len(placed) > 0 {
			fmt.Fprintf(stderr, "privlab: interrupted after the release %s was written (it is complete)\n", strings.Join(placed, ", "))
		} else {
			fmt.Fprintln(stderr, "privlab: interrupted; nothing was written")
		}
		os.Exit(exitInterrupted)
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sig)
			close(done)
			cancel()
		})
	}
}

// runAnnounced runs the method; a run estimated to take long is announced
// on stderr first, and on a terminal a progress line shows the percentage
// done and the time left. ctrl+c stops it (nothing is written).
func runAnnounced(ctx context.Context, p *pipeline.Prepared, ew io.Writer) (*method.Result, error) {
	if secs, why := pipeline.Estimate(p); time.Duration(secs*float64(time.Second)) > pipeline.LongRun {
		fmt.Fprintf(ew, "privlab: this run may take about %s (%s); ctrl+c stops it and nothing is written\n",
			time.Duration(secs*float64(time.Second)).Round(time.Second), why)
	}
	var progress func(float64)
	clear := func() {}
	if isTerminal(ew) {
		progress, clear = pipeline.ProgressLine(ew, time.Now)
	}
	defer clear()
	return pipeline.Run(ctx, p, progress)
}

// isTerminal reports whether w is a terminal (progress lines go only
// there, never into a file or a pipe).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func cmdRun(a *pipeline.Args, w, ew io.Writer) error {
	if err := noPositional(a, "run"); err != nil {
		return err
	}
	if a.Out == "" {
		return &model.ParamError{Param: "out", Reason: "no release directory given", Hint: "pass --out DIR"}
	}
	p, err := prepare(a)
	if err != nil {
		return err
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	start := time.Now()
	res, err := runAnnounced(ctx, p, ew)
	if err != nil {
		return err
	}
	pipeline.Summary(w, p, res, time.Since(start))
	if !res.Satisfied() && !a.Accept {
		groups := fmt.Sprintf("%d groups violate", res.Violations())
		if res.Violations() == 1 {
			groups = "1 group violates"
		}
		return errPrivacy{groups + " the privacy requirement; no release written (hint: change the parameters, or --accept-violations)"}
	}
	queries := a.Queries
	if queries == 0 {
		queries = pipeline.NoQueries
	}
	warn := func(msg string) { fmt.Fprintf(ew, "privlab: warning: %s\n", msg) }
	ex, err := pipeline.Export(p, res, a.Out, pipeline.ExportOptions{Force: a.Force, AcceptViolations: a.Accept, AllowGrowth: a.Growth,
		Context: ctx, Warn: warn, Queries: queries})
	if err != nil {
		return err
	}
	for _, l := range ex.Checks {
		fmt.Fprintln(w, l)
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
	fmt.Fprintf(w, ")\naudit      %s (private: keep it, do not publish it)\n", model.AuditPath(a.Out))
	return nil
}

// loadOriginal loads --original or --public (a file or dataset:NAME) for
// the release in dir. Settings the command line leaves open (--columns of
// a header-less file, --kind, --rows and --data-seed of a generator,
// --max-cell, --header, --missing-values) come from the release's audit
// record when it was made from the same input, so the user does not
// repeat them.
func loadOriginal(a *pipeline.Args, spec, dir string) (*model.Table, error) {
	p := pipeline.Project{Input: spec, Rows: a.Rows, DataSeed: a.Project.DataSeed, Columns: a.Project.Columns,
		Kinds: a.Project.Kinds, MaxCell: a.Project.MaxCell, Delimiter: a.Project.Delimiter,
		Header: a.Project.Header, MissingValues: a.Project.MissingValues}
	if made, ok := pipeline.AuditProject(dir); ok && (sameInput(made.Input, spec) || sameInput(made.Public, spec)) {
		if len(p.Columns) == 0 && sameInput(made.Input, spec) {
			p.Columns = made.Columns
		}
		if p.Header == "" && sameInput(made.Input, spec) {
			p.Header = made.Header
		}
		if p.MissingValues == nil {
			p.MissingValues = made.MissingValues
		}
		if p.Kinds == nil {
			p.Kinds = made.Kinds
		}
		if p.Rows == 0 {
			p.Rows = made.Rows
		}
		if p.DataSeed == 0 {
			p.DataSeed = made.DataSeed
		}
		if p.MaxCell == 0 {
			p.MaxCell = made.MaxCell
		}
		if p.Delimiter == "" && sameInput(made.Input, spec) {
			p.Delimiter = made.Delimiter
		}
	}
	return env.LoadTable(p)
}

// loadPublicFor loads check's --public for the release in dir as run
// loads it (pipeline.Env.LoadPublic: every QI present, the original's
// column kinds, the release's missing-value policy). The public table
// proves faithfulness together with the original, so it needs --original,
// and a release whose method reads no public table refuses one.
func loadPublicFor(a *pipeline.Args, dir string, orig *model.Table) (*model.Table, error) {
	spec := a.Project.Public
	man, err := model.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m, err := catalog.Lookup(man.Method); err == nil && m.Spec().Public == method.NoPublic {
		return nil, &model.ParamError{Param: "public", Value: spec, Reason: "the release's method " + man.Method + " reads no public table",
			Hint: "leave out --public"}
	}
	if orig == nil {
		return nil, &model.ParamError{Param: "public", Value: spec, Reason: "check reads the public table together with the original",
			Hint: "privlab check DIR --original FILE --public FILE"}
	}
	p := pipeline.Project{Public: spec, PublicRows: a.Project.PublicRows, DataSeed: a.Project.DataSeed, MaxCell: a.Project.MaxCell,
		Roles: model.Roles{QIs: man.QIs, IDs: a.Project.Roles.IDs}, MissingValues: a.Project.MissingValues}
	if made, ok := pipeline.AuditProject(dir); ok && sameInput(made.Public, spec) {
		if p.MissingValues == nil {
			p.MissingValues = made.MissingValues
		}
		if p.PublicRows == 0 {
			p.PublicRows = made.PublicRows
		}
		if p.DataSeed == 0 {
			p.DataSeed = made.DataSeed
		}
		if p.MaxCell == 0 {
			p.MaxCell = made.MaxCell
		}
		if len(p.Roles.IDs) == 0 {
			p.Roles.IDs = made.Roles.IDs
		}
	}
	policy, err := model.ParseMissingPolicy(man.MissingValues)
	if err != nil {
		policy = model.DropMissing
	}
	return env.LoadPublic(p, orig, policy)
}

// sameAsAudited refuses an --original that the audit record beside the
// release says is not its input: a file whose SHA-256 differs from the
// input's, or a generated dataset asked for with other rows or seed. It
// is an input error (exit 2), not a failed check: the release is not at
// fault. Without an audit record nothing is compared.
func sameAsAudited(a *pipeline.Args, dir string) error {
	audit, err := pipeline.ReadAudit(dir)
	if err != nil {
		return nil
	}
	if name, ok := strings.CutPrefix(a.Original, "dataset:"); ok {
		made, ok := pipeline.AuditProject(dir)
		if !ok || made.Input != a.Original {
			return nil // another dataset: its columns decide
		}
		rows := made.Rows
		if d, err := datasets.Lookup(name); err == nil && rows == 0 {
			rows = d.DefaultRows
		}
		if a.Rows != 0 && a.Rows != rows || a.Project.DataSeed != 0 && a.Project.DataSeed != made.DataSeed {
			return &model.ParamError{Param: "original", Value: a.Original,
				Reason: fmt.Sprintf("the audit record says the release was made from %s with %d rows and data seed %d", made.Input, rows, made.DataSeed),
				Hint:   "leave out --rows and --data-seed: check takes them from the audit record"}
		}
		return nil
	}
	if audit.InputSHA256 == "" {
		return nil
	}
	if sum, err := model.FileSHA256(source.Path(a.Original)); err == nil && sum != audit.InputSHA256 {
		return &model.InputError{File: a.Original, Msg: "not the input of this release: its SHA-256 differs from the one the audit record beside the release holds",
			Hint: "give the file the release was made from (check reads " + model.AuditPath(dir) + ")"}
	}
	return nil
}

// sameInput reports whether two input specs name the same file (and the
// same sheet or table of it), or the same dataset:NAME.
func sameInput(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	pa, parta := source.Split(a)
	pb, partb := source.Split(b)
	sa, err1 := os.Stat(pa)
	sb, err2 := os.Stat(pb)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb) && strings.EqualFold(parta, partb)
}

// releaseDir is the release a command reads: check's argument or
// --release.
func releaseDir(a *pipeline.Args) string {
	if a.Release != "" {
		return a.Release
	}
	if len(a.Positional) == 1 {
		return a.Positional[0]
	}
	return ""
}

func cmdCheck(a *pipeline.Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "check", Reason: "expected one release directory", Hint: "privlab check DIR [--original FILE] [--public FILE]"}
	}
	var orig *model.Table
	if a.Original != "" {
		var err error
		if orig, err = loadOriginal(a, a.Original, releaseDir(a)); err != nil {
			return err
		}
		if err := sameAsAudited(a, releaseDir(a)); err != nil {
			return err
		}
	}
	var pub *model.Table
	if a.Project.Public != "" {
		var err error
		if pub, err = loadPublicFor(a, releaseDir(a), orig); err != nil {
			return err
		}
	}
	rep, err := pipeline.Check(a.Positional[0], orig, pub)
	if err != nil {
		return err
	}
	for _, l := range rep.Strings() {
		fmt.Fprintln(w, l)
	}
	for _, u := range rep.Unproven {
		fmt.Fprintf(w, "UNCONFIRMED %s\n", u)
	}
	if !rep.OK() {
		return errPrivacy{"check failed: " + rep.Err().Error()}
	}
	if len(rep.Unproven) > 0 {
		return errUnconfirmed{fmt.Sprintf("no check failed, but %d privacy guarantee(s) could not be confirmed from the inputs given (exit 3; each UNCONFIRMED line names the file that confirms it)", len(rep.Unproven))}
	}
	fmt.Fprintf(w, "release %s passes every check\n", a.Positional[0])
	return nil
}

func cmdQuery(a *pipeline.Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "query", Reason: "expected one query", Hint: `privlab query [flags] "AVG(salary) WHERE gender = 'F'"`}
	}
	text := a.Positional[0]
	if a.Release != "" {
		ans, man, err := pipeline.OpenRelease(a.Release)
		if err != nil {
			return err
		}
		var orig *model.Table
		if a.Original != "" {
			if orig, err = loadOriginal(a, a.Original, releaseDir(a)); err != nil {
				return err
			}
			// The truth is taken over the rows the release could publish.
			policy, _ := model.ParseMissingPolicy(man.MissingValues)
			orig, _ = orig.HandleMissing(append(append([]string(nil), man.QIs...), man.SA), policy)
		}
		r, err := pipeline.Answer(text, orig, ans)
		if err != nil {
			return queryError(err)
		}
		if orig == nil {
			r.Warnings = append(r.Warnings, pipeline.PublishedValueWarnings(r.Query, a.Release)...)
		}
		r.Print(w)
		return nil
	}
	p, err := prepare(a)
	if err != nil {
		return err
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	res, err := runAnnounced(ctx, p, ew)
	if err != nil {
		return err
	}
	r, err := pipeline.Answer(text, p.Table, res.Answerer)
	if err != nil {
		return queryError(err)
	}
	r.Print(w)
	return nil
}

// queryError adds the caret picture to a query error.
func queryError(err error) error {
	var qe *model.QueryError
	if errors.As(err, &qe) {
		return fmt.Errorf("%w\n  %s", err, strings.ReplaceAll(qe.Caret(), "\n", "\n  "))
	}
	return err
}

func cmdEval(a *pipeline.Args, w, ew io.Writer) error {
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
	opt := workload.Options{Queries: a.Queries, Range: a.RangeFrac, Seed: a.Seed, Selectivity: a.Selectivity, Dims: a.Dims}
	ctx, cancel := interruptible(ew)
	defer cancel()
	if a.Compare {
		return evalCompare(ctx, a, w, ew, opt)
	}
	if a.Sweep != "" {
		param, values, err := pipeline.ParseSweep(a.Sweep)
		if err != nil {
			return err
		}
		project := env.WithDefaults(a.Project)
		t, err := env.LoadTable(project)
		if err != nil {
			return err
		}
		rows, err := pipeline.Sweep(ctx, env, project, t, param, values, opt)
		if err != nil {
			return err
		}
		pipeline.PrintSweep(w, rows)
		if a.CSV != "" {
			if err := model.WriteAtomic(a.CSV, func(f io.Writer) error { return pipeline.WriteSweepCSV(f, rows) }); err != nil {
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
		pipeline.PrintRisk(w, rep)
	} else {
		fmt.Fprintf(w, "risk figures not computed: %v\n", err)
	}
	secs, err := env.RunStudy(ctx, p, opt)
	if err != nil {
		return err
	}
	pipeline.PrintSections(w, secs)
	return nil
}

// evalCompare runs every method on the input with comparable settings
// (--k, default 10) and prints one table of their figures.
func evalCompare(ctx context.Context, a *pipeline.Args, w, ew io.Writer, opt workload.Options) error {
	project := env.WithDefaults(a.Project)
	t, err := env.LoadTable(project)
	if err != nil {
		return err
	}
	k := 10
	if s, ok := a.Project.Params["k"]; ok {
		x, ok := model.ParseNumber(s)
		if !ok || x < 2 || x != float64(int(x)) {
			return &model.ParamError{Param: "k", Value: s, Reason: "must be an integer >= 2", Hint: "the group size every method that has one gets"}
		}
		k = int(x)
	}
	progress, clear := func(float64) {}, func() {}
	if isTerminal(ew) {
		progress, clear = pipeline.ProgressLine(ew, time.Now)
	}
	opt.Shape = workload.CountIn
	rows, err := pipeline.Compare(ctx, env, project, t, pipeline.CompareOptions{K: k, Workload: opt, Threshold: project.RiskThreshold, Progress: progress})
	clear()
	if err != nil {
		return err
	}
	pipeline.PrintCompare(w, rows, k, opt)
	return nil
}

// evalRelease runs the workload on an exported release, with the original
// table (--original) for the truth.
func evalRelease(a *pipeline.Args, w io.Writer, opt workload.Options) error {
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
	if rep, _, err := pipeline.ReleaseRisk(a.Release, a.Project.RiskThreshold); err == nil {
		fmt.Fprintln(w)
		pipeline.PrintRisk(w, rep)
	} else {
		fmt.Fprintf(w, "risk figures not computed: %v\n", err)
	}
	return nil
}

// printWorkload writes a workload's result (and its CSV with --csv).
func printWorkload(w io.Writer, a *pipeline.Args, shape string, r workload.Result, opt workload.Options) error {
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
		if err := model.WriteAtomic(a.CSV, r.WriteCSV); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", a.CSV)
	}
	if r.Bounded > 0 {
		fmt.Fprintf(w, "bounds     %d of %d contain the true answer\n", r.Contains, r.Bounded)
		if r.Contains != r.Bounded {
			return errPrivacy{"some bounds do not contain the true answer"}
		}
	}
	return nil
}

func cmdDatasets(a *pipeline.Args, w, ew io.Writer) error {
	if err := noPositional(a, "datasets"); err != nil {
		return err
	}
	fmt.Fprintf(w, "%-20s %8s %5s  %s\n", "name", "rows", "cols", "description")
	for _, d := range datasets.All() {
		rows := fmt.Sprintf("%d", d.DefaultRows)
		if !d.Fixed {
			rows += "*"
		}
		fmt.Fprintf(w, "%-20s %8s %5d  %s (%s)\n", d.Name, rows, len(d.Columns), d.Title, d.Source)
	}
	fmt.Fprintln(w, "\n* generated: any --rows, deterministic by --seed. Use as --in dataset:NAME.")
	return nil
}

func cmdGen(a *pipeline.Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "gen", Reason: "expected one dataset name", Hint: "privlab gen NAME [--rows N] [--seed S] [--out FILE]; privlab datasets lists them"}
	}
	name := a.Positional[0]
	if a.Rows < 0 {
		return &model.ParamError{Param: "rows", Value: fmt.Sprint(a.Rows), Reason: "must be >= 0"}
	}
	if name == "universe" && a.Out != "" {
		if err := datasets.WriteUniverse(a.Out, a.Rows, a.Ratio, a.Seed); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s and %s\n", filepath.Join(a.Out, "mt.csv"), filepath.Join(a.Out, "pd.csv"))
		return nil
	}
	d, err := datasets.Lookup(name)
	if err != nil {
		return err
	}
	if a.Out == "" {
		if err := d.Write(w, a.Rows, a.Seed); err != nil {
			return err
		}
	} else {
		if err := model.WriteAtomic(a.Out, func(f io.Writer) error { return d.Write(f, a.Rows, a.Seed) }); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", a.Out)
	}
	if a.HierDir != "" {
		t, err := d.Load(a.Rows, a.Seed)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(a.HierDir, 0o755); err != nil {
			return err
		}
		for _, c := range t.Columns {
			h, err := d.Hierarchy(c)
			if err != nil {
				return err
			}
			path := filepath.Join(a.HierDir, c.Name+".csv")
			var b strings.Builder
			for _, row := range h.Rows() {
				b.WriteString(strings.Join(row, ";"))
				b.WriteByte('\n')
			}
			if err := model.WriteFileAtomic(path, []byte(b.String())); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "wrote %d hierarchies to %s\n", len(t.Columns), a.HierDir)
	}
	return nil
}

func cmdInspect(a *pipeline.Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "inspect", Reason: "expected one input", Hint: "privlab inspect FILE|dataset:NAME"}
	}
	p := a.Project
	p.Input = a.Positional[0]
	if a.SeedSet && p.DataSeed == 0 {
		p.DataSeed = a.Seed // inspect has no release: --seed seeds the dataset, as in gen
	}
	t, err := env.LoadTable(p)
	if err != nil {
		return err
	}
	pipeline.PrintInspect(w, t)
	return nil
}

// startWorkbench opens the TUI; its flags are the run flags (--in,
// --config, --rows, --qi, --grouping, ...), so any headless setting can
// start the workbench too.
func startWorkbench(args []string, stderr io.Writer) int {
	a, err := pipeline.ParseArgs("privlab", args)
	if err != nil {
		return fail(stderr, err)
	}
	if len(a.Positional) > 0 {
		return fail(stderr, &model.ParamError{Param: "privlab", Value: a.Positional[0], Reason: "unexpected argument",
			Hint: "privlab [FILE.csv | dataset:NAME | project.json] [flags]; privlab help"})
	}
	if a.Release != "" && a.Original != "" {
		// The truth for the release's queries, read as the release's input
		// was (its audit record remembers --columns, kinds, delimiter).
		a.Project.Input = a.Original
		if made, ok := pipeline.AuditProject(a.Release); ok && sameInput(made.Input, a.Original) {
			if len(a.Project.Columns) == 0 {
				a.Project.Columns = made.Columns
			}
			if a.Project.Kinds == nil {
				a.Project.Kinds = made.Kinds
			}
			if a.Project.Delimiter == "" {
				a.Project.Delimiter = made.Delimiter
			}
			if a.Project.Header == "" {
				a.Project.Header = made.Header
			}
			if a.Project.MissingValues == nil {
				a.Project.MissingValues = made.MissingValues
			}
			a.Project.Rows, a.Project.DataSeed = made.Rows, made.DataSeed
		}
	}
	if err := ui.Run(env, ui.Options{Project: a.Project, ProjectPath: a.Config, Release: a.Release}); err != nil {
		fmt.Fprintf(stderr, "privlab: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// cmdTour lists the teaching tours, opens the workbench on one, or
// prints its steps (privlab tour [NAME [--steps]]).
func cmdTour(args []string, w, ew io.Writer) int {
	steps := false
	var names []string
	for _, a := range args {
		switch {
		case a == "--steps" || a == "-steps":
			steps = true
		case a == "-h" || a == "--help":
			fmt.Fprintln(w, "usage: privlab tour                 list the tours\n       privlab tour NAME            open the workbench on a tour\n       privlab tour NAME --steps    print its steps")
			return exitOK
		case strings.HasPrefix(a, "-"):
			return fail(ew, &model.ParamError{Param: "tour", Value: a, Reason: "unknown flag", Hint: "privlab tour [NAME [--steps]]"})
		default:
			names = append(names, a)
		}
	}
	if len(names) > 1 || steps && len(names) == 0 {
		return fail(ew, &model.ParamError{Param: "tour", Value: strings.Join(names, " "), Reason: "expected one tour name",
			Hint: "privlab tour [NAME [--steps]]; tours: " + strings.Join(tour.Names(), ", ")})
	}
	if len(names) == 0 {
		tour.PrintList(w)
		return exitOK
	}
	t, err := tour.Lookup(names[0])
	if err != nil {
		return fail(ew, err)
	}
	if !steps {
		if err := ui.Run(env, ui.Options{Tour: t.Name}); err != nil {
			fmt.Fprintf(ew, "privlab: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	list, err := t.Steps(ctx, env)
	if err != nil {
		return fail(ew, err)
	}
	tour.Print(w, t, list)
	return exitOK
}
