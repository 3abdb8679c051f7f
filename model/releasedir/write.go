package releasedir

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"privlab/model"
	"privlab/model/csvfile"
)

// WriteOptions control Write.
type WriteOptions struct {
	// Force replaces an existing release directory (a privlab release
	// holding only its listed files, or an empty directory).
	Force bool
	// Inputs are files that must never be written or removed (the input
	// table, hierarchy and target files).
	Inputs []string
	// Verify re-checks the written files (in the temporary directory,
	// beside the draft manifest m: the release's own, listing the files,
	// without what Meanwhile adds) while Meanwhile runs, and returns one
	// line per constraint; an error means a violation (a *StopError: the
	// write stops, violations accepted or not). What it adds to m is
	// dropped: the manifest is Meanwhile's.
	Verify func(dir string, m *Manifest) ([]string, error)
	// Meanwhile, when set, runs while the data files are written (they
	// are written from the release alone), and while they are checked
	// when VerifyMeanwhile is set, and may add to m what it measures (the
	// checks do not read it); an error stops the write.
	Meanwhile func(m *Manifest) error
	// VerifyMeanwhile runs Verify while Meanwhile still runs, both at once
	// on the cores: faster, but what both hold is held at once (an export
	// sets it for tables small enough that the time matters more).
	VerifyMeanwhile bool
	// AcceptViolations writes the release even when Verify fails; the
	// manifest then says so.
	AcceptViolations bool
	// Audit, when set, is written to AuditPath(dir).
	Audit *Audit
	// Context cancels the write (nil: never): it is looked at between
	// files, every few thousand rows and before the release is put in
	// place; a cancelled write leaves nothing behind.
	Context context.Context
	// Warn is told what the write found and did beside the release: an
	// earlier release restored or kept after an interrupted replacement,
	// an audit record put in place (nil: not told).
	Warn func(msg string)
}

// ErrExists is returned when the release directory exists and Force is off,
// or when another export created it while this one ran.
var ErrExists = errors.New("release directory already exists")

// VerifyError carries the verification lines of a failed check.
type VerifyError struct {
	Lines []string
	Err   error
}

func (e *VerifyError) Error() string { return "release failed verification: " + e.Err.Error() }

// StopError, returned by WriteOptions.Verify, ends the write whatever
// AcceptViolations says: what Verify had to measure could not be
// measured (a failed check is an ordinary error).
type StopError struct{ Err error }

func (e *StopError) Error() string { return e.Err.Error() }

func (e *StopError) Unwrap() error { return e.Err }

// existsError is the *ParamError for an existing release directory that
// also matches errors.Is(err, ErrExists).
type existsError struct{ *model.ParamError }

func (e *existsError) Unwrap() []error { return []error{e.ParamError, ErrExists} }

// failpoint lets tests stop Write at a named stage: an error fails
// the write there (it cleans up as after any failure); errCrash stops it
// as a killed process would, leaving everything as it is.
var failpoint = func(stage string) error { return nil }

// errCrash is what a failpoint returns to simulate a crash.
var errCrash = errors.New("simulated crash")

// ownerPID is the process id written into temporary names (tests use a
// dead one to leave what a killed export leaves).
var ownerPID = os.Getpid()

// Write writes rel into dir atomically: everything goes into a
// temporary sibling directory, each file is synced and re-read to check its
// hash, the release is verified, and only then renamed into place with a
// rename that never replaces (a concurrent export that got there first
// wins; this one fails with ErrExists). The audit record goes beside it.
//
// An existing dir is refused unless opt.Force is set (the error matches
// errors.Is(err, ErrExists) and errors.As(err, **ParamError)); even with
// Force only an empty directory or a privlab release that holds nothing
// but its listed files is replaced. The earlier release stays until the
// new one is in place (it is moved aside, then removed); what an
// interrupted replacement leaves is restored or named by the next write to
// dir (opt.Warn), never removed silently. On any failure nothing is left
// behind and an existing release is untouched.
func Write(dir string, rel *Release, opt WriteOptions) (*Manifest, error) {
	abs, err := releaseTarget(dir, rel, opt)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	before, err := opt.look(parent, abs, dir)
	if err != nil {
		return nil, err
	}
	w := &writer{abs: abs, parent: parent, dir: dir, opt: opt, before: before}
	defer w.cleanup()
	if w.tmp, err = w.temporary(true); err != nil {
		return nil, fmt.Errorf("create temporary directory beside %s: %w", dir, err)
	}
	m, err := w.writeFiles(rel)
	if err != nil {
		return nil, err
	}
	if err := w.writeAudit(m); err != nil {
		return nil, err
	}
	err = syncAll(w.unsynced)
	w.unsynced = nil
	if err != nil {
		return nil, err
	}
	if err := w.commit(); err != nil {
		return nil, err
	}
	return m, w.finish()
}

func (o WriteOptions) warn(msg string) {
	if o.Warn != nil {
		o.Warn(msg)
	}
}

func (o WriteOptions) cancelled() error {
	if o.Context == nil {
		return nil
	}
	return o.Context.Err()
}

// look deals with what killed exports left beside the release and looks
// at what is in place (checkExisting), holding the parent's lock so that
// no other export is putting its release there meanwhile; it returns
// what it found (inPlace), which must still be there when the release
// is put in place.
func (o WriteOptions) look(parent, abs, dir string) (string, error) {
	unlock, err := lockParent(o.Context, parent)
	if err != nil {
		return "", err
	}
	defer unlock()
	recoverLeftovers(parent, filepath.Base(abs), o.warn)
	if err := checkExisting(abs, dir, o.Force); err != nil {
		return "", err
	}
	return inPlace(abs), nil
}

// inPlace says what is at abs: "" (nothing), the digest of the release's
// manifest, or "directory" (one without a manifest that reads).
func inPlace(abs string) string {
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if sum, err := digestOf(abs); err == nil {
		return "release " + sum
	}
	return "directory"
}

// releaseTarget validates the output directory and the release's file
// names, and returns the directory's absolute path.
func releaseTarget(dir string, rel *Release, opt WriteOptions) (string, error) {
	if strings.TrimSpace(dir) == "" {
		return "", &model.ParamError{Param: "out", Reason: "no output directory given", Fixes: []model.Fix{{Setting: model.SetOut}}}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if filepath.Dir(abs) == abs {
		return "", &model.ParamError{Param: "out", Value: dir, Reason: "is a file system root", Hint: "choose a new directory"}
	}
	seen := map[string]bool{"manifest.json": true, "report.md": true}
	for _, f := range rel.Files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." || strings.ContainsAny(f.Name, `/\`) {
			return "", fmt.Errorf("release file name %q is not a plain file name", f.Name)
		}
		if seen[f.Name] {
			return "", fmt.Errorf("release file name %q is used twice or is reserved", f.Name)
		}
		seen[f.Name] = true
		if f.Rows > 0 && f.Fill == nil {
			return "", fmt.Errorf("release file %q has %d rows but no Fill function", f.Name, f.Rows)
		}
	}
	for _, in := range opt.Inputs {
		if in == "" || strings.HasPrefix(in, "dataset:") {
			continue
		}
		ia, err := filepath.Abs(in)
		if err != nil {
			continue
		}
		if ia == abs || strings.HasPrefix(ia, abs+string(filepath.Separator)) || ia == AuditPath(abs) {
			return "", &model.ParamError{Param: "out", Value: dir, Reason: "the release would overwrite or remove the input file " + in,
				Hint: "choose another output directory"}
		}
	}
	return abs, nil
}

// CheckOut refuses, before any work, an output directory the export would
// refuse whatever happens meanwhile: an existing --out without --force,
// or a file in its place, stops at once rather than after computing the
// release (issue 35). Whether --force may replace what is there is
// decided by the export alone, under its lock: another export may be
// putting its release in place right now.
func CheckOut(dir string, force bool) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &model.ParamError{Param: "out", Value: dir, Reason: err.Error()}
	}
	if st, err := os.Lstat(abs); err == nil && st.IsDir() && force {
		return nil
	}
	return checkExisting(abs, dir, force)
}

// checkExisting refuses an existing output directory unless force is set
// and it may be replaced (Replaceable).
func checkExisting(abs, dir string, force bool) error {
	st, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &model.ParamError{Param: "out", Value: dir, Reason: csvfile.OpenReason(err)}
	}
	if !st.IsDir() {
		return &model.ParamError{Param: "out", Value: dir, Reason: "exists and is a file, not a release directory", Hint: "choose another output directory"}
	}
	if !force {
		return &existsError{&model.ParamError{Param: "out", Value: dir, Reason: ErrExists.Error(), Fixes: []model.Fix{{Setting: model.SetForce, Why: "to replace it"}}}}
	}
	return notReplaceable(abs, dir, "")
}

// notReplaceable is the error for a directory that --force may not
// replace (Replaceable), nil when it may; when says why it is looked at
// again.
func notReplaceable(abs, dir, when string) error {
	why, changed := replaceable(abs)
	switch {
	case why == whyPartitioned:
		return &model.ParamError{Param: "out", Value: dir, Reason: when + "exists and is a partitioned release (SPEC 3.9), which a single run does not replace, even when told to",
			Hint: "a partitioned run told to replace it replaces it; or remove it and " + filepath.Base(abs) + ".audit yourself, or choose another output directory"}
	case changed != "":
		return &model.ParamError{Param: "out", Value: dir, Reason: when + "its file " + filepath.Join(dir, changed) +
			" was changed since privlab wrote it (its SHA-256 is not the one manifest.json records); refusing to replace the release, even when told to",
			Hint: "move the release (or that file) elsewhere first, or choose another output directory"}
	case why != "":
		return &model.ParamError{Param: "out", Value: dir, Reason: when + "exists and is not a privlab release (" + why + "); refusing to replace it, even when told to",
			Hint: "choose another directory, or move what it holds yourself"}
	}
	return nil
}

// Replaceable says why --force may not replace dir ("" when it may): it
// must be empty, or a privlab release (its manifest.json reads as one,
// written by privlab) holding nothing but manifest.json and the regular
// files its manifest lists, each as written (its SHA-256 the manifest's:
// a report the user edited is theirs).
func Replaceable(dir string) string {
	why, changed := replaceable(dir)
	if changed != "" {
		return changed + " was changed since privlab wrote it"
	}
	return why
}

// whyPartitioned is why a single write may not replace a partitioned
// release: its parts and DIR.audit are the partitioned run's to replace.
const whyPartitioned = "it is a partitioned release, whose parts a single write does not replace"

// replaceable is Replaceable, with the name of a file changed since it
// was written apart.
func replaceable(dir string) (why, changed string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return csvfile.OpenReason(err), ""
	}
	if len(entries) == 0 {
		return "", ""
	}
	m, err := ReadManifest(dir)
	if err != nil {
		var ie *model.InputError
		if errors.As(err, &ie) {
			return "its manifest.json does not read as a release's: " + ie.Msg, ""
		}
		return err.Error(), ""
	}
	if m.Partitioned != nil {
		return whyPartitioned, ""
	}
	if m.Tool != "privlab" || m.Method == "" || len(m.Files) == 0 {
		return "its manifest.json is not one privlab wrote", ""
	}
	listed := map[string]string{"manifest.json": ""}
	for _, f := range m.Files {
		listed[f.Name] = f.SHA256
	}
	for _, e := range entries {
		sum, ok := listed[e.Name()]
		if !ok {
			return fmt.Sprintf("it holds %s, which its manifest does not list", e.Name()), ""
		}
		if !e.Type().IsRegular() {
			return fmt.Sprintf("%s is not a regular file", e.Name()), ""
		}
		if e.Name() == "manifest.json" {
			continue
		}
		if got, err := releaseFileSHA256(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Sprintf("%s cannot be read: %s", e.Name(), csvfile.OpenReason(err)), ""
		} else if got != sum {
			return "", e.Name()
		}
	}
	return "", ""
}

// writer is one Write under way: its temporary directory (tmp,
// marked as this code's, holding the release being written: work) and
// audit record, and the earlier release it moved aside.
type writer struct {
	abs, parent, dir string
	opt              WriteOptions
	tmp, auditTmp    string
	work             string
	before           string // what was in place when the write began (inPlace)
	audit            *Audit
	old              string // the earlier release, moved aside
	placed, crashed  bool
	// unsynced are the files written last (report.md, manifest.json, the
	// audit record) and the temporary directory, synced all at once
	// before the release is put in place.
	unsynced []*unsynced
}

// stage passes a named stage of the write (failpoint) and, until the
// release is in place, looks at the context (once it is, the write
// finishes: an interrupt then does not undo a written release).
func (w *writer) stage(name string) error {
	if err := failpoint(name); err != nil {
		w.crashed = errors.Is(err, errCrash)
		return err
	}
	if w.placed {
		return nil
	}
	return w.opt.cancelled()
}

// sibling names a file beside the release: .NAME.KIND-PID-X.
func (w *writer) sibling(kind string) string {
	return filepath.Join(w.parent, fmt.Sprintf(".%s.%s-%d-%s", filepath.Base(w.abs), kind, ownerPID, w.tmpSuffix()))
}

// tmpSuffix is the random part of the temporary directory's name.
func (w *writer) tmpSuffix() string {
	s := filepath.Base(w.tmp)
	return s[strings.LastIndex(s, "-")+1:]
}

// temporary makes the temporary directory .NAME.tmp-PID-X (dir true),
// with its marker and the release directory to fill (w.work) inside,
// registered so that AbortWrites can remove it, or the audit record
// audit.json in it.
func (w *writer) temporary(dir bool) (string, error) {
	inflight.Lock()
	defer inflight.Unlock()
	if inflight.aborted {
		return "", context.Canceled
	}
	prefix := fmt.Sprintf(".%s.tmp-%d-", filepath.Base(w.abs), ownerPID)
	var name string
	if dir {
		d, err := os.MkdirTemp(w.parent, prefix)
		if err != nil {
			return "", err
		}
		if err := markOwned(d); err != nil {
			os.RemoveAll(d)
			return "", err
		}
		w.work = filepath.Join(d, "release")
		if err := os.Mkdir(w.work, 0o755); err != nil {
			removeOwned(d)
			return "", err
		}
		name = d
	} else {
		f, err := os.OpenFile(filepath.Join(w.tmp, "audit.json"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return "", err
		}
		f.Close()
		return f.Name(), nil
	}
	inflight.paths[name] = true
	return name, nil
}

// cleanup removes what a failed write made (nothing after a simulated
// crash: a killed process removes nothing).
func (w *writer) cleanup() {
	for _, u := range w.unsynced {
		u.close()
	}
	inflight.Lock()
	defer inflight.Unlock()
	for _, p := range []string{w.tmp, w.auditTmp} {
		if p != "" {
			delete(inflight.paths, p)
			if !w.crashed {
				removeOwned(p) // once the release is placed, tmp holds its marker alone
			}
		}
	}
}

// writeFiles writes the data files, the manifest, the verification and
// report.md into the temporary directory. The checks read the draft
// manifest (m as the release built it, listing the files), so they may
// run while Meanwhile still measures (VerifyMeanwhile): what Meanwhile
// adds (the attacks' figures) is none of what the checks read.
func (w *writer) writeFiles(rel *Release) (*Manifest, error) {
	m := rel.Manifest
	m.Tool, m.Version = "privlab", model.Version
	draft := m
	meanwhile := w.startMeanwhile(&m)
	sums, err := w.writeData(rel.Files)
	if err != nil {
		meanwhile()
		return nil, err
	}
	draft.Files = []FileEntry{}
	for i, f := range rel.Files {
		draft.Files = append(draft.Files, FileEntry{Name: f.Name, Rows: f.Rows, SHA256: sums[i]})
	}
	if !w.opt.VerifyMeanwhile {
		// One after the other: what Meanwhile held is let go before the
		// checks build theirs.
		if err := meanwhile(); err != nil {
			return nil, err
		}
	}
	verified, err := w.startVerify(&draft)
	if merr := meanwhile(); merr != nil {
		verified()
		return nil, merr
	}
	if err != nil {
		return nil, err
	}
	lines, verr := verified()
	m.Files = draft.Files
	if err := w.verified(&m, lines, verr); err != nil {
		return nil, err
	}
	if err := w.stage("report"); err != nil {
		return nil, err
	}
	if err := w.writeReport(&m); err != nil {
		return nil, err
	}
	return &m, nil
}

// startVerify writes the draft manifest the checks read and starts the
// Verify option on it; the wait returns its lines and error (a panic in
// Verify is raised again by the wait). When the draft cannot be written
// the error says so and the wait returns nothing.
func (w *writer) startVerify(draft *Manifest) (wait func() ([]string, error), err error) {
	none := func() ([]string, error) { return nil, nil }
	if err := checkFinite(draft); err != nil {
		return none, err
	}
	// The manifest the check reads is written again once it lists
	// report.md (synced and re-read then): this one is not synced.
	if err := writeDraftJSON(filepath.Join(w.work, "manifest.json"), draft); err != nil {
		return none, err
	}
	if err := w.stage("verify"); err != nil {
		return none, err
	}
	if w.opt.Verify == nil {
		return none, nil
	}
	var lines []string
	var verr error
	done := inBackground(func() { lines, verr = w.opt.Verify(w.work, draft) })
	return func() ([]string, error) {
		done()
		return lines, verr
	}, nil
}

// startMeanwhile runs the Meanwhile option on m while the data files are
// written, and returns the wait for it. A panic in Meanwhile is raised
// again by the wait, once the files are written (the write is then
// cleaned up as after any failure).
func (w *writer) startMeanwhile(m *Manifest) func() error {
	if w.opt.Meanwhile == nil {
		return func() error { return nil }
	}
	var merr error
	done := inBackground(func() { merr = w.opt.Meanwhile(m) })
	return func() error {
		done()
		return merr
	}
}

// inBackground runs fn in a goroutine and returns the wait for it, which
// may be called more than once; a panic in fn is raised again by every
// wait (once the write is cleaned up, as after any failure).
func inBackground(fn func()) (wait func()) {
	var panicked any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { panicked = recover() }()
		fn()
	}()
	return func() {
		<-done
		if panicked != nil {
			panic(panicked)
		}
	}
}

// verified records in m the lines and outcome of the Verify option; a
// failed verification stops the write unless the violations are accepted.
func (w *writer) verified(m *Manifest, lines []string, verr error) error {
	if w.opt.Verify == nil {
		return nil
	}
	var stop *StopError
	if errors.As(verr, &stop) {
		return stop.Err
	}
	if err := checkFinite(m); err != nil {
		return err
	}
	m.Checks = lines
	m.Verified = verr == nil
	if verr != nil {
		if !w.opt.AcceptViolations {
			return &VerifyError{Lines: lines, Err: verr}
		}
		m.AcceptedBad = true
		m.Notes = append(m.Notes, "the release FAILED its own privacy verification and was written because the user accepted the violations")
	}
	return nil
}

// writeReport writes report.md and the manifest that lists it. report.md
// is listed with its hash like every data file, so that an edit of the
// report is caught; it is rendered from the manifest as verified.
func (w *writer) writeReport(m *Manifest) error {
	text := []byte(RenderReport(m))
	report, err := writeFileUnsynced(filepath.Join(w.work, "report.md"), text)
	if err != nil {
		return err
	}
	w.unsynced = append(w.unsynced, report)
	sum := sha256.Sum256(text)
	m.Files = append(m.Files, FileEntry{Name: "report.md", Rows: 0, SHA256: hex.EncodeToString(sum[:])})
	manifest, err := writeJSONUnsynced(filepath.Join(w.work, "manifest.json"), m)
	if err != nil {
		return err
	}
	w.unsynced = append(w.unsynced, manifest, &unsynced{path: w.work})
	return nil
}

// writeData writes the data files into the temporary directory, at once
// on every core, and returns their SHA-256 in order. The files' stages
// pass in order, each before its file is started, so a stop at one
// leaves the files before it whole and none after it begun.
func (w *writer) writeData(files []ReleaseFile) ([]string, error) {
	sums := make([]string, len(files))
	errs := make([]error, len(files))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var stop error
	for i, f := range files {
		if stop = w.stage("file:" + f.Name); stop != nil {
			break
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			sums[i], errs[i] = writeCSV(w.opt.Context, filepath.Join(w.work, f.Name), f)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return sums, stop
}

// writtenDigest is the digest of the manifest m written in dir, as read
// back (ManifestDigest(ReadManifest(dir))), without decoding the file
// again: its claims read back are the ones written, and ManifestDigest
// writes them as JSON in a fixed form. Text that is not valid UTF-8 is
// the exception (written as the replacement character, which reads back
// as text that is): a manifest holding any is read back.
func writtenDigest(m *Manifest, dir string) (string, error) {
	sum, canon, err := manifestDigest(m)
	if err != nil || !bytes.Contains(canon, []byte(`\ufffd`)) {
		return sum, err
	}
	back, err := ReadManifest(dir)
	if err != nil {
		return "", err
	}
	return ManifestDigest(back)
}

// writeAudit writes the audit record, with the digest of the manifest
// just written, to a temporary file: a failure to write it stops the
// export before the release appears.
func (w *writer) writeAudit(written *Manifest) error {
	if w.opt.Audit == nil {
		return nil
	}
	a := *w.opt.Audit
	a.Release = w.abs
	var err error
	if a.ManifestDigest, err = writtenDigest(written, w.work); err != nil {
		return err
	}
	b, err := marshalAudit(&a)
	if err != nil {
		return err
	}
	if w.auditTmp, err = w.temporary(false); err != nil {
		return fmt.Errorf("audit record: %w", err)
	}
	audit, err := writeFileUnsynced(w.auditTmp, append(b, '\n'))
	if err != nil {
		return fmt.Errorf("audit record: %w", err)
	}
	audit.label = "audit record"
	w.unsynced = append(w.unsynced, audit)
	if st, err := os.Stat(AuditPath(w.abs)); err == nil && st.IsDir() {
		return &model.ParamError{Param: "out", Value: w.dir, Reason: AuditPath(w.abs) + " is a directory; the audit record cannot be written beside the release"}
	}
	w.audit = &a
	return nil
}

// commit puts the release in place, holding the parent's lock from the
// look at what is in place to the audit record's rename, so that the
// release and its audit record are claimed together: when another export
// put its release there since this one looked (look), that export won
// and this one fails (ErrExists). An earlier release (Force) and its audit record are
// moved aside first, so that the new release is never beside the old
// record; the new directory is renamed without replacing
// (renameNoReplace), then the audit record. Until the new release is in
// place a failure puts the earlier one back.
func (w *writer) commit() error {
	inflight.Lock()
	defer inflight.Unlock()
	if inflight.aborted {
		return context.Canceled
	}
	if err := w.stage("rename"); err != nil {
		return err
	}
	unlock, err := lockParent(w.opt.Context, w.parent)
	if err != nil {
		return err
	}
	defer unlock()
	switch now := inPlace(w.abs); {
	case now == "": // nothing to replace (removed meanwhile, or never there)
	case now != w.before:
		return w.notPlaced(fs.ErrExist)
	default:
		if err := w.moveAside(); err != nil {
			return err
		}
	}
	if err := renameNoReplace(w.work, w.abs); err != nil {
		return w.notPlaced(err)
	}
	w.placed = true
	inflight.placed = append(inflight.placed, w.abs)
	if err := w.stage("placed"); err != nil {
		return err
	}
	if w.auditTmp != "" {
		if err := os.Rename(w.auditTmp, AuditPath(w.abs)); err != nil {
			return fmt.Errorf("release written, but the audit record failed: %w", err)
		}
		if err := w.stage("audit"); err != nil {
			return err
		}
	}
	return nil
}

// moveAside moves the earlier release and its audit record to
// .NAME.old-PID-X (and .NAME.old-PID-X.audit.json).
func (w *writer) moveAside() error {
	if err := notReplaceable(w.abs, w.dir, "changed while the release was written: "); err != nil {
		return err
	}
	old := w.sibling("old")
	if err := os.Rename(w.abs, old); err != nil {
		return fmt.Errorf("move the earlier release aside: %w", err)
	}
	w.old = old
	if err := w.stage("aside"); err != nil {
		return w.restore(err)
	}
	if _, err := os.Lstat(AuditPath(w.abs)); err == nil {
		if err := os.Rename(AuditPath(w.abs), AuditPath(old)); err != nil {
			return w.restore(fmt.Errorf("move the earlier audit record aside: %w", err))
		}
	}
	if err := w.stage("aside-audit"); err != nil {
		return w.restore(err)
	}
	return nil
}

// restore puts the earlier release back after a failure before the new
// one is in place (not after a simulated crash).
func (w *writer) restore(cause error) error {
	if w.crashed || w.old == "" {
		return cause
	}
	if err := renameNoReplace(w.old, w.abs); err != nil {
		return fmt.Errorf("%w; the earlier release is kept at %s", cause, w.old)
	}
	if _, err := os.Lstat(AuditPath(w.old)); err == nil {
		os.Rename(AuditPath(w.old), AuditPath(w.abs))
	}
	w.old = ""
	return cause
}

// notPlaced explains a failed rename into place, the earlier release
// restored where it can be.
func (w *writer) notPlaced(err error) error {
	if errors.Is(err, fs.ErrExist) {
		err = &existsError{&model.ParamError{Param: "out", Value: w.dir, Reason: "another export to it finished while this one ran and won: its release is in place, this one is not written",
			Fixes: []model.Fix{{Setting: model.SetOut, Why: "to export elsewhere"}, {Setting: model.SetForce, Why: "to replace the other one"}}}}
	} else {
		err = fmt.Errorf("rename the release into place: %w", err)
	}
	return w.restore(err)
}

// finish removes the earlier release once the new one and its audit
// record are in place (moved into .NAME.del-PID-X, marked as this code's,
// first, so that a removal cut short leaves no directory that looks like
// a release, and one the next export removes), and syncs the parent
// directory: once the move is done, while the files are removed.
func (w *writer) finish() error {
	synced := make(chan error, 1)
	del := w.moveOldToDelete()
	go func() { synced <- syncDir(w.parent) }()
	var err error
	if del != "" {
		err = w.removeMoved(del)
	}
	if serr := <-synced; serr != nil && err == nil {
		err = fmt.Errorf("release written, but %w", serr)
	}
	return err
}

// moveOldToDelete moves the earlier release, if any, into a directory
// marked for removal, and returns that directory ("" when there is none
// or it could not be moved: then it is kept, with a warning).
func (w *writer) moveOldToDelete() string {
	if w.old == "" {
		return ""
	}
	del := w.sibling("del")
	err := os.Mkdir(del, 0o700)
	if err == nil {
		if err = markOwned(del); err == nil {
			err = os.Rename(w.old, filepath.Join(del, "release"))
		}
		if err != nil {
			os.Remove(filepath.Join(del, ownedMarker))
			os.Remove(del)
		}
	}
	if err != nil {
		w.opt.warn(fmt.Sprintf("the earlier release replaced by %s is kept at %s: it could not be removed (%v)", w.dir, w.old, err))
		return ""
	}
	return del
}

// removeMoved removes the earlier release's audit record and the
// directory it was moved into.
func (w *writer) removeMoved(del string) error {
	if err := w.stage("delete-audit"); err != nil {
		return err
	}
	os.Remove(AuditPath(w.old))
	if err := w.stage("delete"); err != nil {
		return err
	}
	removeOwned(del)
	return nil
}

// writeCSV writes one table, syncs it, and re-reads it to check the hash;
// ctx (may be nil) is looked at every few thousand rows.
func writeCSV(ctx context.Context, path string, f ReleaseFile) (string, error) {
	if f.Text != nil {
		return writeTextFile(ctx, path, f.Text)
	}
	out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if err := writeRows(ctx, hashedWriter{out, h}, f); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	got, err := FileSHA256(path)
	if err != nil {
		return "", err
	}
	if got != sum {
		return "", fmt.Errorf("%s: re-read hash %s differs from written %s", path, got, sum)
	}
	return sum, nil
}

// writeTextFile writes a file's rendered text, syncs it and re-reads it:
// the file must give back text byte for byte, and its SHA-256 is the
// hash of what was read back.
func writeTextFile(ctx context.Context, path string, text []byte) (string, error) {
	out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	var check func() error
	if ctx != nil {
		check = ctx.Err
	}
	if err := writeText(out, text, check); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	in, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	h := sha256.New()
	buf := make([]byte, 256<<10) // compared and hashed as it comes; a larger buffer is only more fresh memory
	rest := text
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
				return "", fmt.Errorf("%s: re-read content differs from what was written", path)
			}
			h.Write(buf[:n])
			rest = rest[n:]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	if len(rest) > 0 {
		return "", fmt.Errorf("%s: re-read content differs from what was written (%d bytes short)", path, len(rest))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashedWriter writes to a file and hashes what it writes.
type hashedWriter struct {
	w io.Writer
	h hash.Hash
}

func (hw hashedWriter) Write(b []byte) (int, error) {
	hw.h.Write(b)
	return hw.w.Write(b)
}

// writeRows is ReleaseFile.WriteCSV, cancellable.
func writeRows(ctx context.Context, out io.Writer, f ReleaseFile) error {
	if ctx == nil {
		return writeRecords(out, f, nil)
	}
	return writeRecords(out, f, ctx.Err)
}
