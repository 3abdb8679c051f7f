// Package verify is the shared machinery of the independent checkers that
// re-check a published release from its files alone (plus the original and
// public tables when given), with code independent of the algorithms that
// produced it (SPEC 7.4). Each method's checker lives beside the method
// (algorithms/NAME/check) and imports this package, model, algorithms/risk
// and the method's format package only; Shared.Check does what every
// release needs (manifest, file list, hashes, plain file names, report.md,
// the declaration, the risk figures) and hands over to the method's
// checker, a list of named checks (Check, RunChecks).
//
// Trust model: the manifest is not signed, so nothing it claims is
// trusted. Checkers recompute every figure it states from the data files
// and compare (Report.Claim); names it gives are bound to the data files'
// headers; only files the manifest lists, by plain names inside the
// release directory, are ever read.
package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// Line is one checked constraint or claim.
type Line struct {
	OK   bool
	Name string
	Text string
}

func (l Line) String() string {
	mark := "ok  "
	if !l.OK {
		mark = "FAIL"
	}
	return fmt.Sprintf("%s %s: %s", mark, l.Name, l.Text)
}

// Report is the outcome of a check.
type Report struct {
	Dir   string
	Lines []Line
	// Unproven names the privacy guarantees the check could not confirm
	// from the inputs it was given, each as "name: why; pass FILE": no
	// line failed for them, yet the release does not pass every check
	// (privlab check exits 3). A claim about how the release was made that
	// stays unconfirmed is a passing line, not this.
	Unproven []string
}

// Unprove marks a privacy guarantee as unconfirmed from the inputs given
// (the text names what would confirm it).
func (r *Report) Unprove(name, format string, args ...any) {
	r.Unproven = append(r.Unproven, name+": "+fmt.Sprintf(format, args...))
}

// OK reports whether every line passed (a guarantee left unproven fails
// no line: Confirmed says whether there is none).
func (r *Report) OK() bool {
	for _, l := range r.Lines {
		if !l.OK {
			return false
		}
	}
	return len(r.Lines) > 0
}

// Strings renders the lines.
func (r *Report) Strings() []string {
	out := make([]string, len(r.Lines))
	for i, l := range r.Lines {
		out[i] = l.String()
	}
	return out
}

// Err is nil when every line passed, else an error naming the failures.
func (r *Report) Err() error {
	var bad []string
	seen := map[string]bool{}
	for _, l := range r.Lines {
		if !l.OK && !seen[l.Name] {
			seen[l.Name] = true
			bad = append(bad, l.Name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return errors.New("failed: " + strings.Join(bad, ", "))
}

// Add appends a line.
func (r *Report) Add(ok bool, name, format string, args ...any) {
	r.Lines = append(r.Lines, Line{OK: ok, Name: name, Text: fmt.Sprintf(format, args...)})
}

// Options gives the verifier what it may compare with.
type Options struct {
	// Original is the input table, when the user has it.
	Original *model.Table
	// Public is the public table (for methods that read one).
	Public *model.Table
	// Whole is the whole input's value counts when the release is one
	// partition of a partitioned release (SPEC 3.9): the figures a method
	// computes over the whole table (sampling's table marginals,
	// distribution's table target) are held to it, the rest to Original.
	Whole *model.Whole
	// Audit is the private record written beside the release; with the
	// original it pins each published row to its input row.
	Audit *releasedir.Audit
	// SkipRisk leaves the cross-method figures unchecked (an export that
	// checks them once already).
	SkipRisk bool
	// Received checks the release as one received: it must be finished
	// (bindFinished), and the claims about how it was made that the files
	// cannot confirm are named, or bound by the audit record
	// (bindDescribed). Every product path sets it (privlab check, the
	// workbench's received release, via pipeline.Check); the export, which
	// checks its own temporary directory before it states its
	// verification and writes report.md, does not, and neither do the
	// checkers' tests of hand-written releases.
	Received bool
	// Then, when the checker ran to its end, is called with the release
	// as it read it: what it recomputes from the files (the attacks, the
	// warnings) reads the tables and the attacker's view already read,
	// not the files again.
	Then func(rel *Release)
}

// Checker verifies one method's release. A returned error means the
// release could not be read at all; privacy failures are lines in r.
type Checker func(rel *Release, opt Options, r *Report) error

// Viewer reads one method's release as an attacker sees it: the regions
// of records a person's quasi-identifiers cannot split, and what each
// tells of their sensitive value (algorithms/risk computes the figures
// every release gets from it).
type Viewer func(rel *Release) (*risk.View, error)

// Release is a release directory opened for checking: its manifest and
// the files it lists, each read once (files).
type Release struct {
	Dir      string
	Manifest *releasedir.Manifest
	listed   map[string]bool
	// files reads each file once for the checks and the viewer; Shared
	// gives several releases of one directory the same files.
	files *files
	view  Fact[*risk.View]
}

// OpenMemory opens a release built but not written (releasedir.Release, its
// files rendered exactly as an export writes them), so that what reads
// releases (the checkers' views, the risk figures) measures what an
// export would publish without writing it. Its Dir names no directory.
func OpenMemory(rel *releasedir.Release) (*Release, error) {
	m := rel.Manifest
	m.Files = nil
	out := &Release{Dir: "(unexported release)", Manifest: &m, listed: map[string]bool{}, files: &files{mem: map[string][]byte{}}}
	for _, f := range rel.Files {
		var b bytes.Buffer
		if err := f.WriteCSV(&b); err != nil {
			return nil, err
		}
		out.files.mem[f.Name] = b.Bytes()
		out.listed[f.Name] = true
		m.Files = append(m.Files, releasedir.FileEntry{Name: f.Name, Rows: f.Rows})
	}
	return out, nil
}

// Declared is what the registry declares of a method, which a manifest's
// words must repeat: the title, paper and certification report.md shows,
// the variants and the parameters it may state, and the checker.
type Declared struct {
	Check     Checker
	View      Viewer
	Title     string
	Paper     string
	Certifies string
	Variants  []string
	Params    []string
	// Described names the manifest's claims about how the release was
	// made that the checker does not prove from the files (paths such as
	// "variant", "parameters.split", "details.kinds"): a received release
	// names them as unconfirmed, or the audit record binds them.
	Described []string
}

// runThen is Shared.Check on dir, reading the files into shared.
func runThen(dir string, opt Options, lookup func(method string) (Declared, bool), then func(rel *Release), shared *files) (*Report, error) {
	r := &Report{Dir: dir}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, &model.InputError{File: dir, Msg: "not a release directory", Hint: "give the directory an export wrote"}
	}
	man := filepath.Join(dir, "manifest.json")
	if _, err := releasedir.StatFile(man); err != nil {
		if ie := (*model.InputError)(nil); errors.As(err, &ie) {
			return nil, ie
		}
		return nil, &model.InputError{File: man, Msg: csvfile.OpenReason(err), Hint: "is this a privlab release directory?"}
	}
	err := run(dir, opt, lookup, then, r, shared)
	if err == nil {
		return r, nil
	}
	// A release that cannot be read as its method writes it fails the
	// check; a problem with the original or the public table is the
	// caller's input error.
	var ie *model.InputError
	if errors.As(err, &ie) && inside(dir, ie.File) {
		r.Add(false, "readable", "%v", err)
		return r, nil
	}
	return nil, err
}

func run(dir string, opt Options, lookup func(method string) (Declared, bool), then func(*Release), r *Report, shared *files) error {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return err
	}
	d, ok := lookup(m.Method)
	if !ok || d.Check == nil {
		return &model.InputError{File: filepath.Join(dir, "manifest.json"), Msg: fmt.Sprintf("unknown method %q", m.Method)}
	}
	if shared == nil {
		shared = &files{}
	}
	rel := &Release{Dir: dir, Manifest: m, listed: map[string]bool{}, files: shared}
	defer rel.forget()
	if err := rel.checkFiles(r); err != nil {
		return err
	}
	if err := rel.bindReport(r); err != nil {
		return err
	}
	if opt.Received {
		rel.bindFinished(r)
		defer rel.bindDescribed(d, opt, r)
	}
	if d.Title != "" || d.Params != nil {
		rel.bindDeclaration(d, r)
	}
	// The attacker's view reads the same tables as the checker, at once.
	figures := rel.startRisk(d.View, opt)
	err = d.Check(rel, opt, r)
	figures.wait()
	if err != nil {
		// A release whose own names already fail (a renamed column) is at
		// fault, not the original that lacks the renamed column.
		for _, l := range r.Lines {
			if !l.OK && opt.Original != nil {
				r.Add(false, "original", "the original cannot be compared with this release: %v", err)
				return nil
			}
		}
		return err
	}
	if figures != nil {
		rel.bindRisk(figures.result(), figures.err, r)
	}
	rel.bindChecks(r, opt)
	if then != nil {
		then(rel)
	}
	return nil
}

// View reads the release as an attacker does (view: its method's
// viewer), once: the figures recomputed beside the checker, the warnings
// and the attacks a check recomputes read the same view. A release is
// one method's, so its callers all pass that method's viewer.
func (rel *Release) View(view Viewer) (*risk.View, error) {
	return rel.view.Get(func() (*risk.View, error) { return view(rel) })
}

// Risk reads the release as an attacker does (View) and computes the
// figures every release gets (algorithms/risk), at the given at-risk
// threshold.
func (rel *Release) Risk(view Viewer, threshold float64) (*risk.Report, *risk.View, error) {
	v, err := rel.View(view)
	if err != nil {
		return nil, nil, err
	}
	return risk.Compute(v, risk.Options{Threshold: threshold}), v, nil
}

// riskFigures are the cross-method figures being recomputed beside the
// checker (startRisk).
type riskFigures struct {
	done  chan struct{}
	rep   *risk.Report
	err   error
	panic any
}

// startRisk recomputes the figures the manifest states from the files,
// while the checker runs (nil when it states none: a release written
// before the figures existed, or by hand, or SkipRisk).
func (rel *Release) startRisk(view Viewer, opt Options) *riskFigures {
	m := rel.Manifest
	if view == nil || opt.SkipRisk || len(m.Risk) == 0 && m.RiskSummary == "" {
		return nil
	}
	f := &riskFigures{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		defer func() {
			if v := recover(); v != nil {
				f.panic = &checkPanic{name: "risk", value: v, stack: debug.Stack()}
			}
		}()
		f.rep, _, f.err = rel.Risk(view, risk.ThresholdOf(m.Risk))
	}()
	return f
}

// wait waits for the figures, if any were started.
func (f *riskFigures) wait() {
	if f != nil {
		<-f.done
	}
}

// result is the recomputed figures (once waited for); a panic of the
// view panics here, when the figures are used (not when the checker
// failed first, as the view did not run then).
func (f *riskFigures) result() *risk.Report {
	if f.panic != nil {
		panic(f.panic)
	}
	return f.rep
}

// bindRisk holds the cross-method figures the manifest states (and the
// plain-words summary report.md repeats) to the ones recomputed from the
// files: a figure stated but not recomputed, recomputed but not stated,
// or of another value or meaning fails.
func (rel *Release) bindRisk(rep *risk.Report, err error, r *Report) {
	m := rel.Manifest
	if err != nil {
		r.Add(false, "risk", "the release cannot be read as an attacker reads it: %v", err)
		return
	}
	before := len(r.Lines)
	want := map[string]releasedir.Figure{}
	for _, f := range rep.ManifestFigures() {
		want[f.Name] = f
	}
	stated := map[string]bool{}
	for _, f := range m.Risk {
		stated[f.Name] = true
		w, ok := want[f.Name]
		if !ok {
			r.Add(false, "claim risk."+f.Name, "the manifest states a figure the files do not give")
			continue
		}
		r.Claim("risk."+f.Name, f.Value, w.Value)
		if !f.OK {
			r.Add(false, "claim risk."+f.Name, "the manifest marks a figure with no limit as failing")
		}
		if f.Help != w.Help || f.Limit != w.Limit {
			r.Add(false, "claim risk."+f.Name, "the manifest words the figure %q (limit %q), the files give %q (limit %q)", clipText(f.Help), f.Limit, clipText(w.Help), w.Limit)
		}
	}
	for name := range want {
		if !stated[name] {
			r.Add(false, "claim risk."+name, "the files give a figure the manifest leaves out")
		}
	}
	r.ClaimText("risk_summary", m.RiskSummary, rep.Summary)
	for _, l := range r.Lines[before:] {
		if !l.OK {
			return
		}
	}
	r.Add(true, "risk", "the %d figures every release gets (re-identification, diversity, closeness, loss) agree with the files", len(m.Risk))
}

// bindDeclaration holds the manifest's words about the method to the
// registry: the title, paper and certification report.md repeats must be
// the method's own (or left out), the variant one it has, and every parameter one it
// reads (a parameter the method does not read would be reported as if it
// bound the data).
func (rel *Release) bindDeclaration(d Declared, r *Report) {
	m := rel.Manifest
	var bad []string
	for _, c := range []struct{ field, stated, want string }{
		{"title", m.Title, d.Title}, {"paper", m.Paper, d.Paper}, {"certifies", m.Certifies, d.Certifies},
	} {
		if c.stated != "" && c.stated != c.want { // an empty field claims nothing
			bad = append(bad, fmt.Sprintf("%s reads %q, the method declares %q", c.field, clipText(c.stated), clipText(c.want)))
		}
	}
	if len(d.Variants) == 0 && m.Variant != "" || len(d.Variants) > 0 && !slices.Contains(d.Variants, m.Variant) {
		bad = append(bad, fmt.Sprintf("variant %q is not one of %s's (%s)", m.Variant, m.Method, strings.Join(d.Variants, ", ")))
	}
	var keys []string
	for k := range m.Parameters {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(d.Params, k) {
			bad = append(bad, fmt.Sprintf("parameter %q is not one %s reads (%s)", k, m.Method, strings.Join(d.Params, ", ")))
		}
	}
	if len(bad) > 0 {
		r.Add(false, "declaration", "%s", strings.Join(bad, "; "))
		return
	}
	r.Add(true, "declaration", "title, paper, certification, variant and parameters are %s's own", m.Method)
}

// momentLines name the checks whose text depends on the moment they ran
// (export checks the files before report.md is added, and with the
// input): their outcome is compared, and their text where it can be
// stated again (exportText).
var momentLines = map[string]bool{"files": true, "contents": true, "report": true, "faithful": true}

// filesMatch counts the files whose SHA-256 matches: "1 file matches its
// SHA-256", "4 files match their SHA-256".
func filesMatch(n int) string {
	if n == 1 {
		return "1 file matches its SHA-256"
	}
	return fmt.Sprintf("%d files match their SHA-256", n)
}

// statesExportText reports whether a manifest's moment line reads as the
// export wrote it: in today's words, or, for a release of one file made
// before counts were put in the singular, "1 files match their SHA-256".
func (rel *Release) statesExportText(name, text string) bool {
	want := rel.exportText(name)
	return text == want || name == "files" && want == filesMatch(1) && text == "1 files match their SHA-256"
}

// exportText is what a moment line read when the export checked the
// files, before report.md was added ("" where it cannot be said).
func (rel *Release) exportText(name string) string {
	switch name {
	case "files":
		n := 0
		for _, f := range rel.Manifest.Files {
			if f.Name != "report.md" {
				n++
			}
		}
		return filesMatch(n)
	case "contents":
		return "no unlisted files in the release"
	}
	return ""
}

// bindChecks holds the verification lines the manifest states (the
// export's own check, which report.md repeats) to the lines just
// recomputed: a stated line whose check ran here must read the same; one
// that needs what this check was not given (the original, the audit
// record) is named as unconfirmed; and verified must say whether every
// stated line passed.
func (rel *Release) bindChecks(r *Report, opt Options) {
	m := rel.Manifest
	if len(m.Checks) == 0 {
		return // written before its verification, or by hand
	}
	got := map[string][]Line{}
	for _, l := range r.Lines {
		got[l.Name] = append(got[l.Name], l)
	}
	stated := map[string]int{}
	for _, s := range m.Checks {
		name, _, _ := parseLine(s)
		stated[name]++
	}
	var differ, unconfirmed []string
	failing := false
	for _, s := range m.Checks {
		name, ok, text := parseLine(s)
		failing = failing || !ok
		lines, ran := got[name]
		switch {
		case name == "claims" && opt.Original != nil:
			// With the original more claims are compared than the export's
			// files-alone line counted: only the outcome.
			if !ok && allOK(lines) {
				differ = append(differ, name)
			}
		case name == faithfulLine && !ran && opt.Original != nil:
			// The export's summary of its checks against the input: the
			// checks it names ran here too.
			if !confirmsFaithful(text, got) {
				unconfirmed = append(unconfirmed, name)
			}
		case !ran:
			unconfirmed = append(unconfirmed, name)
		case momentLines[name]:
			if !ok && allOK(lines) || ok && rel.exportText(name) != "" && !rel.statesExportText(name, text) {
				differ = append(differ, name)
			}
		case hasLine(lines, ok, text):
		case stated[name] > len(lines):
			// A check of this name also ran with the original here (one
			// line of each kind): this one needs what was not given.
			unconfirmed = append(unconfirmed, name)
		default:
			differ = append(differ, name)
		}
	}
	if m.Verified == failing && len(m.Checks) > 0 {
		r.Add(false, "claim verified", "the manifest says verified=%v, its own check lines say %v", m.Verified, !failing)
	}
	if len(differ) > 0 {
		r.Add(false, "claim checks", "the manifest's verification lines %s do not read as the files give them", strings.Join(uniq(differ), ", "))
		return
	}
	text := fmt.Sprintf("the %d verification lines the manifest states agree with this check", len(m.Checks)-len(unconfirmed))
	if len(unconfirmed) > 0 {
		text += "; unconfirmed " + missingInputs(opt) + ": " + strings.Join(uniq(unconfirmed), ", ")
	}
	r.Add(true, "checks", "%s", text)
}

// missingInputs names what this check lacked that the export had, for
// the lines it could not confirm: the original, the audit record (with
// the original it pins each published row), or nothing when both were
// given (issue 35: "without the original or the audit record" was said
// then).
func missingInputs(opt Options) string {
	switch {
	case opt.Original == nil && opt.Audit == nil:
		return "without the original or the audit record"
	case opt.Original == nil:
		return "without the original"
	case opt.Audit == nil:
		return "without the audit record"
	}
	return "by this check"
}

// faithfulLine names the line an export states for the checks it passed
// against the input (pipeline's statedChecks), and FaithfulPrefix opens
// its text, before the names of those checks.
const (
	faithfulLine   = "faithful"
	FaithfulPrefix = "with the input (and the audit record) the export also passed "
)

// confirmsFaithful holds the export's faithful line (text) to the lines
// this check ran with the original: it is confirmed when every check it
// names ran here and passed. Otherwise it stays unconfirmed: a check it
// names needs what was not given (the audit record), or failed here,
// which that check's own line reports (the original given may not be
// the input).
func confirmsFaithful(text string, got map[string][]Line) bool {
	list, ok := strings.CutPrefix(text, FaithfulPrefix)
	if !ok || list == "" {
		return false
	}
	for _, name := range strings.Split(list, ", ") {
		if lines, ran := got[name]; !ran || !allOK(lines) {
			return false
		}
	}
	return true
}

// parseLine reads a Line's String form back.
func parseLine(s string) (name string, ok bool, text string) {
	mark, rest, _ := strings.Cut(s, " ")
	rest = strings.TrimLeft(rest, " ")
	name, text, _ = strings.Cut(rest, ": ")
	return name, mark == "ok", text
}

func hasLine(lines []Line, ok bool, text string) bool {
	for _, l := range lines {
		if l.OK == ok && l.Text == text {
			return true
		}
	}
	return false
}

func allOK(lines []Line) bool {
	for _, l := range lines {
		if !l.OK {
			return false
		}
	}
	return true
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// bindReport compares report.md with the report the manifest renders
// (releasedir.RenderReport): the report states the manifest's names and
// figures, which the method's checker recomputes from the data files, so
// an edit of either is caught. A release without a report (hand-written)
// has nothing to compare.
func (rel *Release) bindReport(r *Report) error {
	if !rel.listed["report.md"] {
		return nil
	}
	b, err := rel.Bytes("report.md")
	if err != nil {
		return err
	}
	got, want := strings.Split(string(b), "\n"), strings.Split(releasedir.RenderReport(rel.Manifest), "\n")
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			r.Add(false, "report", "report.md does not say what the manifest states: line %d reads %q, the manifest gives %q%s", i+1, clipText(g), clipText(w), versionNote(rel.Manifest))
			return nil
		}
	}
	r.Add(true, "report", "report.md states the manifest's names and figures")
	return nil
}

// versionNote explains a report that differs because another version of
// privlab wrote it (the report is rendered by this version's rules).
func versionNote(m *releasedir.Manifest) string {
	if m.Version == model.Version {
		return ""
	}
	return fmt.Sprintf(" (the release was written by privlab %s, this is %s: its report follows the older rules)", m.Version, model.Version)
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Bytes reads a listed release file whole (report.md).
func (rel *Release) Bytes(name string) ([]byte, error) {
	if !rel.listed[name] {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: fmt.Sprintf("the release does not list %s", name)}
	}
	b, err := rel.bytesOf(name)
	var ie *model.InputError
	if errors.As(err, &ie) {
		return nil, ie
	}
	if err == nil && int64(len(b)) > model.MaxManifestBytes {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, name), Msg: fmt.Sprintf("is %d bytes, more than a release's %s can be (%d)", len(b), name, model.MaxManifestBytes)}
	}
	if err != nil {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, name), Msg: csvfile.OpenReason(err)}
	}
	return b, nil
}

// inside reports whether path names dir or a file in it.
func inside(dir, path string) bool {
	d, err1 := filepath.Abs(dir)
	p, err2 := filepath.Abs(path)
	return err1 == nil && err2 == nil && (p == d || strings.HasPrefix(p, d+string(filepath.Separator)))
}

// PlainName reports whether name is a plain file name: no directory part,
// not . or .., no separator of any platform.
func PlainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\:`) &&
		filepath.Base(name) == name && !filepath.IsAbs(name)
}

// checkFiles refuses file entries that are not plain names of regular
// files inside the release, compares every listed file with its SHA-256
// and makes sure no unlisted file is in the directory.
func (rel *Release) checkFiles(r *Report) error {
	if err := rel.list(); err != nil {
		return err
	}
	bad := []string{}
	for i, sum := range rel.hashAll() {
		if f := rel.Manifest.Files[i]; sum == "" || sum != f.SHA256 {
			bad = append(bad, f.Name)
		}
	}
	entries, _ := os.ReadDir(rel.Dir)
	var extra []string
	for _, e := range entries {
		if !rel.listed[e.Name()] && e.Name() != "manifest.json" {
			extra = append(extra, e.Name())
		}
	}
	r.Add(len(bad) == 0, "files", "%s%s", filesMatch(len(rel.Manifest.Files)-len(bad)), listIf(" ; changed or missing: ", bad))
	r.Add(len(extra) == 0, "contents", "no unlisted files in the release%s", listIf(" ; unlisted: ", extra))
	return nil
}

// Open opens the release in dir for reading its files (a received
// release in the workbench, eval --release): the manifest, and the files
// it lists as plain names of regular files inside dir. It verifies
// nothing: Run does.
func Open(dir string) (*Release, error) {
	man := filepath.Join(dir, "manifest.json")
	if _, err := releasedir.StatFile(man); err != nil {
		if ie := (*model.InputError)(nil); errors.As(err, &ie) {
			return nil, ie
		}
		return nil, &model.InputError{File: man, Msg: "not a release: " + csvfile.OpenReason(err), Hint: "give the directory an export wrote"}
	}
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	rel := &Release{Dir: dir, Manifest: m, listed: map[string]bool{}, files: &files{}}
	return rel, rel.list()
}

// list takes the manifest's file entries: plain names of regular files.
func (rel *Release) list() error {
	man := filepath.Join(rel.Dir, "manifest.json")
	for _, f := range rel.Manifest.Files {
		if !PlainName(f.Name) || f.Name == "manifest.json" {
			return &model.InputError{File: man, Msg: fmt.Sprintf("files lists %q, which is not a plain file name inside the release", f.Name),
				Hint: "a release lists its own files by name; nothing outside it is read"}
		}
		if rel.listed[f.Name] {
			return &model.InputError{File: man, Msg: fmt.Sprintf("files lists %q twice", f.Name)}
		}
		// A missing file is the files check's to report.
		if _, err := releasedir.StatFile(filepath.Join(rel.Dir, f.Name)); errors.As(err, new(*model.InputError)) {
			return err
		}
		rel.listed[f.Name] = true
	}
	return nil
}

// listIf is prefix and the items, comma separated ("" when there are
// none); past maxListed items it counts the rest.
func listIf(prefix string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	if len(items) > maxListed {
		return fmt.Sprintf("%s%s and %d more", prefix, strings.Join(items[:maxListed], ", "), len(items)-maxListed)
	}
	return prefix + strings.Join(items, ", ")
}

// maxListed is the most names a check's line lists: a manifest that
// lists 110,000 files that are not there made one line of 1.3 MB.
const maxListed = 20

// Has reports whether the manifest lists the file.
func (rel *Release) Has(name string) bool { return rel.listed[name] }

// Table reads a listed release file strictly as text (no missing-value
// tokens), once: every check and the viewer share the table (they only
// read it). A file the manifest does not list is an error: the checker
// never reads what the release does not declare.
func (rel *Release) Table(name string) (*model.Table, error) {
	if !rel.listed[name] {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: fmt.Sprintf("the release does not list %s", name),
			Hint: "a " + rel.Manifest.Method + " release publishes it; the manifest's files must name it"}
	}
	return rel.table(name)
}

// Files lists the names the manifest lists, in its order.
func (rel *Release) Files() []string {
	out := make([]string, len(rel.Manifest.Files))
	for i, f := range rel.Manifest.Files {
		out[i] = f.Name
	}
	return out
}

// CheckHeader reports whether t's columns are exactly want.
func CheckHeader(t *model.Table, want []string) bool {
	got := t.Names()
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// Claim compares a figure the manifest states with the one recomputed
// from the files: a difference beyond rounding is a failed line naming
// the claim, the stated and the recomputed value.
func (r *Report) Claim(name string, stated, recomputed float64) bool {
	ok := stated == recomputed || math.Abs(stated-recomputed) <= 1e-9*math.Max(1, math.Abs(recomputed)) ||
		(math.IsNaN(stated) && math.IsNaN(recomputed))
	if !ok {
		r.Add(false, "claim "+name, "the manifest states %s, the files give %s", model.FormatNumber(stated), model.FormatNumber(recomputed))
	}
	return ok
}

// versionForm is the form of privlab's versions.
var versionForm = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// ClaimCount compares a count the manifest states with the one the files
// give, exactly (a count has no rounding).
func (r *Report) ClaimCount(name string, stated, recomputed int) bool {
	if stated != recomputed {
		r.Add(false, "claim "+name, "the manifest states %d, the files give %d", stated, recomputed)
		return false
	}
	return true
}

// ClaimText compares a text the manifest states with the one the files
// give.
func (r *Report) ClaimText(name, stated, recomputed string) bool {
	if stated != recomputed {
		r.Add(false, "claim "+name, "the manifest states %q, the files give %q", stated, recomputed)
		return false
	}
	return true
}

// Claims adds one passing line summarising the claims compared when none
// failed (failures were added one by one), naming those left for the
// original to confirm.
func (r *Report) Claims(before int, n int, later []string) {
	for _, l := range r.Lines[before:] {
		if !l.OK && strings.HasPrefix(l.Name, "claim ") {
			return
		}
	}
	text := fmt.Sprintf("the %d figures the manifest states agree with the files", n)
	if len(later) > 0 {
		text += "; unconfirmed without the original: " + strings.Join(later, ", ")
	}
	r.Add(true, "claims", "%s", text)
}

// RowCounts compares every file entry's row count with the table read.
func (r *Report) RowCounts(rel *Release, tables map[string]*model.Table) int {
	n := 0
	for _, f := range rel.Manifest.Files {
		if t, ok := tables[f.Name]; ok {
			r.ClaimCount("files."+f.Name+".rows", f.Rows, t.Rows)
			n++
		}
	}
	return n
}

// PublishedKey joins the texts of published columns in a row.
func PublishedKey(cols []*model.Column, row int) string {
	b := make([]byte, 0, 32)
	for _, c := range cols {
		b = append(b, c.Value(row)...)
		b = append(b, 0)
	}
	return string(b)
}

// Shuffled adds the line that a file's rows are not in the input's order
// (given the input row behind each published row). Small files and files
// of one repeated tuple are exempt: their order says nothing. Rows in the
// input's order but for a few moved, or in order pair by pair, link a
// published row to the input as well as a sorted file does (SPEC 7.3:
// row position must never link a published row to the input), so the
// order is also tested statistically (orderLinked).
func Shuffled[T int | int32](file string, pinned []T, distinct int, r *Report) {
	ShuffledKeys(file, pinned, nil, distinct, r)
}

// ShuffledKeys is Shuffled when the rows behind the published rows were
// pinned tuple by tuple (the j-th published row of a tuple taking its
// j-th original row), which orders a tuple's rows by position whatever
// the file's order: keys[i] is then row i's tuple's first original row,
// the same for its interchangeable rows, and the statistics read them
// (nil: they read pinned).
func ShuffledKeys[T int | int32](file string, pinned []T, keys []int, distinct int, r *Report) {
	if len(pinned) < 8 || distinct < 2 {
		return
	}
	desc := sort.SliceIsSorted(pinned, func(i, j int) bool { return pinned[i] > pinned[j] })
	if slices.IsSorted(pinned) || desc {
		r.Add(false, "shuffled", "%s rows are in the input's order", file)
		return
	}
	rows := make([]float64, len(pinned))
	for i, p := range pinned {
		rows[i] = float64(p)
		if len(keys) == len(pinned) {
			rows[i] = float64(keys[i])
		}
	}
	if why := orderLinked(rows); why != "" {
		r.Add(false, "shuffled", "%s rows are close to the input's order: %s", file, why)
		return
	}
	r.Add(true, "shuffled", "%s rows are not in the input's order", file)
}

// OrderByKeys adds a failing shuffle line when a file's rows, given a
// key read from each row's content alone (the same for rows that read the
// same, so a uniform shuffle puts the keys in a uniformly random order),
// are close to the input's order (orderLinked); it adds nothing
// otherwise, as the files do not pin the rows.
func OrderByKeys(file string, keys []float64, r *Report) {
	if len(keys) < 8 {
		return
	}
	if why := orderLinked(keys); why != "" {
		r.Add(false, "shuffled", "%s rows are close to the input's order: %s", file, why)
	}
}

// orderZ is how many standard deviations from a shuffle's mean a row
// order statistic may fall: beyond it a uniform shuffle lands with
// probability about 1e-9 (the false alarm positionLink-style tests allow).
const orderZ = 6.1

// orderLinked tests a file's order against a uniform shuffle of its rows
// and says why it is not one ("" when it may be). rows[i] is the input
// row behind published row i. Two statistics: the neighbouring rows that
// ascend (a tie counts half), (n-1)/2 on average with variance (n+1)/12
// under a shuffle, which a file in the input's order but for a few rows
// moved fails; and the correlation of a row's position with its input
// row, 0 on average with variance 1/(n-1) under a shuffle of any values,
// which a file in order block by block (pairs swapped, say) fails.
func orderLinked(rows []float64) string {
	n := float64(len(rows))
	ascents := 0.0
	for i := 1; i < len(rows); i++ {
		switch {
		case rows[i] > rows[i-1]:
			ascents++
		case rows[i] == rows[i-1]:
			ascents += 0.5
		}
	}
	mean, sd := (n-1)/2, math.Sqrt((n+1)/12)
	if math.Abs(ascents-mean) > orderZ*sd {
		return fmt.Sprintf("%g of %d neighbouring rows ascend in the input's order, where a shuffle gives %.1f (standard deviation %.1f)", ascents, len(rows)-1, mean, sd)
	}
	corr := positionCorrelation(rows)
	if csd := 1 / math.Sqrt(n-1); math.Abs(corr) > orderZ*csd {
		return fmt.Sprintf("a row's position correlates %.3f with its input row, where a shuffle gives 0 (standard deviation %.3f)", corr, csd)
	}
	return ""
}

// positionCorrelation is the Pearson correlation of i with rows[i] (0
// when the rows are all one).
func positionCorrelation(rows []float64) float64 {
	n := float64(len(rows))
	meanV := 0.0
	for _, v := range rows {
		meanV += v / n
	}
	meanI := (n - 1) / 2
	var covIV, varV float64
	for i, v := range rows {
		covIV += (float64(i) - meanI) * (v - meanV)
		varV += (v - meanV) * (v - meanV)
	}
	if varV <= 0 {
		return 0
	}
	varI := n * (n*n - 1) / 12
	return covIV / math.Sqrt(varI*varV)
}

// Recomputed holds what a checker recomputed from the files for the
// claims every manifest makes; Report.Compare holds the manifest to them.
type Recomputed struct {
	// Groups and Published (the records the release represents).
	Groups    int
	Published int
	// Tables are the data files read, by name: their rows are compared
	// with the manifest's files entries.
	Tables map[string]*model.Table
	// Figures are the recomputed values of the manifest's worst cases and
	// utility figures, by name. A stated figure missing here cannot be
	// verified and fails; a worst case's ok flag must match Holds.
	Figures map[string]float64
	Holds   map[string]bool
	// Limits are the limits the worst cases are held against, as the
	// manifest must state them (from the parameters the checker validated,
	// or the method's fixed limits): a worst case whose stated limit
	// differs fails, so the report cannot say "holds" against a bound the
	// data was never held to. Nil: the checker binds limits itself.
	Limits map[string]string
	// Later names the figures only the original can confirm (figures about
	// the original values): without --original they are reported as
	// unconfirmed, not failed.
	Later map[string]bool
	// Undetermined names the figures the inputs given cannot fix even with
	// the original (they depend on which of several places a tuple took,
	// which only the audit record says): reported as unconfirmed, not
	// failed.
	Undetermined map[string]bool
	// Complete is true when every input record is either published or
	// suppressed (no sampling): rows_in = rows_published + rows_suppressed.
	Complete bool
}

// Compare checks the manifest's common claims against the recomputed
// ones: group and record counts, every file's rows, every worst case and
// utility figure (value and ok flag), and with the original table the
// input row count. It adds one summary line when all agree.
func (r *Report) Compare(rel *Release, rc Recomputed, opt Options) {
	m := rel.Manifest
	before := len(r.Lines)
	n := 2
	r.ClaimCount("groups", m.Groups, rc.Groups)
	r.ClaimCount("rows_published", m.Published, rc.Published)
	if m.Published+m.Suppressed > m.RowsIn || m.RowsIn < 0 || m.Suppressed < 0 || (rc.Complete && m.Published+m.Suppressed != m.RowsIn) {
		r.Add(false, "claim rows_in", "the manifest states %d rows in, %d published and %d suppressed, which do not add up", m.RowsIn, m.Published, m.Suppressed)
	}
	// The names: no dropped column may be published, and with the original
	// the dropped columns are exactly the ones the release leaves out.
	kept := map[string]bool{m.SA: m.SA != ""}
	for _, q := range m.QIs {
		kept[q] = true
	}
	for _, d := range m.Dropped {
		if kept[d] {
			r.Add(false, "claim dropped_columns", "%s is both published and dropped", d)
		}
	}
	if opt.Original != nil {
		var want []string
		for _, name := range opt.Original.Names() {
			if !kept[name] {
				want = append(want, name)
			}
		}
		r.ClaimText("dropped_columns", strings.Join(m.Dropped, ","), strings.Join(want, ","))
	}
	n += r.RowCounts(rel, rc.Tables)
	var later []string
	for _, list := range [][]releasedir.Figure{m.WorstCases, m.Utility} {
		for _, f := range list {
			x, ok := rc.Figures[f.Name]
			if !ok && (rc.Later[f.Name] && opt.Original == nil || rc.Undetermined[f.Name]) {
				later = append(later, f.Name)
				continue
			}
			n++
			if !ok {
				r.Add(false, "claim "+f.Name, "the manifest states a figure the files cannot confirm")
				continue
			}
			r.Claim(f.Name, f.Value, x)
			if holds, known := rc.Holds[f.Name]; known && holds != f.OK {
				r.Add(false, "claim "+f.Name, "the manifest says ok=%v, the files say %v", f.OK, holds)
			}
		}
	}
	for _, f := range m.Utility {
		if !f.OK && f.Limit == "" {
			r.Add(false, "claim "+f.Name, "the manifest marks a utility figure with no limit as failing")
		}
	}
	r.compareForms(m, rc)
	if opt.Original != nil {
		n++
		r.ClaimCount("rows_in", m.RowsIn, opt.Original.Rows)
	} else {
		// rows_in and the dropped columns describe the input: only the
		// original confirms them (the missing-value policy is named with
		// the claims no file confirms, bindDescribed).
		later = append(later, "rows_in", "dropped_columns")
	}
	r.Claims(before, n, later)
}

// compareForms holds the manifest's words to their forms: file rows only
// for tables, privlab's tool name, version form and missing-value
// policies, and every worst case's limit to the one the parameters give.
func (r *Report) compareForms(m *releasedir.Manifest, rc Recomputed) {
	for _, f := range m.Files {
		if !strings.HasSuffix(f.Name, ".csv") && f.Rows != 0 {
			r.Add(false, "claim files."+f.Name+".rows", "the manifest states %d rows of a file that is not a table", f.Rows)
		}
	}
	if m.Tool != "" && m.Tool != "privlab" || m.Version != "" && !versionForm.MatchString(m.Version) {
		r.Add(false, "claim tool", "the manifest names the tool %q version %q, not privlab's (a version reads like %s)", m.Tool, m.Version, model.Version)
	}
	if m.MissingValues != "" && m.MissingValues != "drop" && m.MissingValues != "category" {
		r.Add(false, "claim missing_values", "the manifest states the policy %q; privlab's are drop and category", m.MissingValues)
	}
	if rc.Limits == nil {
		return
	}
	for _, f := range m.WorstCases {
		if want, ok := rc.Limits[f.Name]; !ok {
			r.Add(false, "claim "+f.Name+" limit", "the manifest holds a figure against %q that the checker does not know", f.Limit)
		} else if f.Limit != want {
			r.Add(false, "claim "+f.Name+" limit", "the manifest states the limit %q, the parameters give %q", f.Limit, want)
		}
	}
}

// BindNames checks that the names the manifest gives (quasi-identifiers,
// sensitive attribute) are the columns of a data file, in order, after
// the fixed columns the file starts or ends with: renaming a column in
// the manifest, or a header in the file, fails.
func (r *Report) BindNames(file string, t *model.Table, want []string) bool {
	ok := CheckHeader(t, want)
	if !ok {
		r.Add(false, "names", "%s has columns %s; the manifest implies %s", file, strings.Join(t.Names(), ","), strings.Join(want, ","))
	}
	return ok
}

// temporaryName matches the temporary directories an export writes a
// release into before renaming it into place (.NAME.tmp-PID-X).
var temporaryName = regexp.MustCompile(`^\..+\.tmp-[0-9]+-[0-9]+$`)

// bindFinished fails a release its producer did not finish: one that
// states no verification (an export killed before it verified leaves
// verified=false and no check lines), has no report.md, or still sits in
// an export's temporary directory. A release that failed its verification
// and was accepted states its failing lines, and those fail it.
func (rel *Release) bindFinished(r *Report) {
	m := rel.Manifest
	var missing []string
	if len(m.Checks) == 0 {
		missing = append(missing, "it states no verification lines")
	}
	if !m.Verified && !m.AcceptedBad {
		missing = append(missing, "verified is false")
	}
	if !rel.listed["report.md"] {
		missing = append(missing, "it has no report.md")
	}
	if abs, err := filepath.Abs(rel.Dir); err == nil && temporaryName.MatchString(filepath.Base(abs)) {
		missing = append(missing, "it is an export's temporary directory ("+filepath.Base(abs)+")")
	}
	if m.AcceptedBad && m.Verified {
		missing = append(missing, "it says both verified and accepted_violations")
	}
	if len(missing) > 0 {
		r.Add(false, "finished", "the producer did not finish this release: %s (an export stopped before it verified and renamed the release leaves such a directory)", strings.Join(missing, "; "))
		return
	}
	r.Add(true, "finished", "the producer verified the release (%d verification lines) and wrote its report", len(m.Checks))
}

// describedAlways are the claims of every manifest that no checker proves
// from the files: the version that wrote it, the missing-value policy
// (the original shows it only where a used column has a missing value),
// the notes (the producer's words, quoted as such in report.md) and the
// advisor's map the settings were chosen on (its picture is not in the
// release).
var describedAlways = []string{"version", "missing_values", "notes", "advisor"}

// bindDescribed names the claims about how a received release was made
// that the files cannot confirm, or, when the audit record beside the
// release holds the digest of the manifest its producer wrote
// (releasedir.ManifestDigest), binds every claim to it: a manifest edited after
// export fails.
func (rel *Release) bindDescribed(d Declared, opt Options, r *Report) {
	m := rel.Manifest
	var claims, names []string
	for _, path := range append(append([]string{}, describedAlways...), d.Described...) {
		if v, ok := claimAt(m, path); ok {
			claims = append(claims, path+" "+v)
			names = append(names, path)
		}
	}
	if a := opt.Audit; a != nil && a.ManifestDigest != "" {
		sum, err := releasedir.ManifestDigest(m)
		if err != nil || sum != a.ManifestDigest {
			r.Add(false, "claim manifest", "the audit record beside the release holds the digest of another manifest (%.12s..., this one's is %.12s...): the manifest was edited after export, or the audit record is another release's",
				a.ManifestDigest, sum)
			return
		}
		r.Add(true, "provenance", "the audit record holds this manifest's digest: every claim in it is its producer's, those the files cannot confirm too (%s)", strings.Join(names, ", "))
		return
	}
	if len(claims) == 0 {
		return
	}
	r.Add(true, "unconfirmed", "the producer's words on how the release was made, which check does not prove from the files (the audit record beside the release binds them): %s", strings.Join(claims, "; "))
}

// claimAt renders the manifest's value at a described path ("version",
// "variant", "missing_values", "notes", "parameters.NAME",
// "details.KEY[.KEY...]"); false when the manifest states none.
func claimAt(m *releasedir.Manifest, path string) (string, bool) {
	head, rest, _ := strings.Cut(path, ".")
	switch head {
	case "version":
		return quoted(m.Version)
	case "variant":
		return quoted(m.Variant)
	case "missing_values":
		return quoted(m.MissingValues)
	case "notes":
		if len(m.Notes) == 0 {
			return "", false
		}
		return fmt.Sprintf("(%d, quoted in report.md)", len(m.Notes)), true
	case "advisor":
		return advisorClaim(m.Advisor)
	case "parameters":
		v, ok := m.Parameters[rest]
		if !ok {
			return "", false
		}
		return quoted(v)
	case "details":
		var v any
		if json.Unmarshal(m.Details, &v) != nil {
			return "", false
		}
		for _, k := range strings.Split(rest, ".") {
			obj, ok := v.(map[string]any)
			if !ok {
				return "", false
			}
			if v, ok = obj[k]; !ok {
				return "", false
			}
		}
		if s, ok := v.(string); ok {
			return quoted(s)
		}
		b, err := json.Marshal(v)
		return clipText(string(b)), err == nil
	}
	return "", false
}

// advisorClaim is the advisor section's claim in short: the map's size
// and the adopted point, as report.md states them.
func advisorClaim(a *releasedir.AdvisorNote) (string, bool) {
	if a == nil {
		return "", false
	}
	adopted := "none adopted"
	if a.Adopted != nil {
		adopted = strings.TrimSpace("adopted " + a.Adopted.Method + " " + a.Adopted.ParamText())
	}
	return clipText(fmt.Sprintf("(a map of %d points, %d on the front, %s; stated in report.md)", a.Points, a.Front, adopted)), true
}

func quoted(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	return fmt.Sprintf("%q", clipText(s)), true
}
