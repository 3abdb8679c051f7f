package model

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// Version is the tool version written into every manifest.
const Version = "0.2.0"

// ReleaseFile is one published CSV table. Rows are produced on demand by
// Fill so that a million-row release is never held as strings.
type ReleaseFile struct {
	Name   string
	Header []string
	Rows   int
	// Fill writes row i into rec (len(rec) == len(Header)).
	Fill func(i int, rec []string)
}

// WriteCSV writes the file's CSV text (the bytes a release holds).
func (f ReleaseFile) WriteCSV(out io.Writer) error {
	w := csv.NewWriter(out)
	if err := w.Write(f.Header); err != nil {
		return err
	}
	rec := make([]string, len(f.Header))
	for i := 0; i < f.Rows; i++ {
		f.Fill(i, rec)
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// FileEntry describes a written file in the manifest.
type FileEntry struct {
	Name   string `json:"name"`
	Rows   int    `json:"rows"`
	SHA256 string `json:"sha256"`
}

// Figure is one worst-case or summary figure in a manifest.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	// Limit is the parameter value the figure is held against, if any.
	Limit string `json:"limit,omitempty"`
	OK    bool   `json:"ok"`
	// Short names the figure in the workbench's summary bar ("" uses Name).
	Short string `json:"-"`
	// Bar shows the figure in the workbench's summary bar even when it
	// holds (a constraint that fails is always shown there).
	Bar bool `json:"-"`
	// Help says in one line what the figure measures (the cross-method
	// risk figures carry it into the manifest and the report).
	Help string `json:"help,omitempty"`
}

// Manifest is release/manifest.json (SPEC 7.1). It holds nothing private:
// no input path, no seed, no row mapping (those go to the audit record).
type Manifest struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	Method  string `json:"method"`
	Variant string `json:"variant,omitempty"`
	Title   string `json:"title,omitempty"`
	Paper   string `json:"paper,omitempty"`
	// Certifies says what a release that passes its checks guarantees.
	Certifies  string            `json:"certifies,omitempty"`
	Parameters map[string]string `json:"parameters"`
	QIs        []string          `json:"quasi_identifiers"`
	SA         string            `json:"sensitive"`
	Dropped    []string          `json:"dropped_columns"`
	RowsIn     int               `json:"rows_in"`
	Published  int               `json:"rows_published"`
	Suppressed int               `json:"rows_suppressed"`
	// MissingValues is the policy for missing values: drop (rows left out)
	// or category (published as "?").
	MissingValues string   `json:"missing_values,omitempty"`
	Groups        int      `json:"groups"`
	WorstCases    []Figure `json:"worst_cases"`
	Utility       []Figure `json:"utility,omitempty"`
	// Workload is the query shape the method's paper evaluates with
	// (privlab eval --release uses it).
	Workload string `json:"workload,omitempty"`
	// Risk are the figures every release gets whatever its method
	// (algorithms/risk: re-identification, diversity, closeness, loss),
	// computed from the published files; RiskSummary says what they mean
	// in plain words.
	Risk        []Figure `json:"risk,omitempty"`
	RiskSummary string   `json:"risk_summary,omitempty"`
	// WorkloadError is the utility the release keeps: a random workload
	// of the method's query shape answered on the input and on the
	// release (check --original recomputes it from the files).
	WorkloadError *WorkloadError `json:"workload_error,omitempty"`
	Details       any            `json:"details,omitempty"`
	Files         []FileEntry    `json:"files"`
	Verified      bool           `json:"verified"`
	Checks        []string       `json:"checks,omitempty"`
	AcceptedBad   bool           `json:"accepted_violations,omitempty"`
	Notes         []string       `json:"notes,omitempty"`
}

// WorkloadError states a workload's error: Queries random queries of the
// Shape drawn with Seed from the input, Measured of them with a non-empty
// true answer; Mean is the mean relative error of the answers (for
// bounds, their width over the truth: Bounds says which), EstErr the mean
// relative error of an estimate of every answer (bounds: their middle).
// The seed draws the queries only (a fixed one, not the release's seed,
// which stays private).
type WorkloadError struct {
	Shape    string  `json:"shape"`
	Queries  int     `json:"queries"`
	Seed     uint64  `json:"query_seed"`
	Measured int     `json:"measured"`
	Mean     float64 `json:"mean"`
	EstErr   float64 `json:"estimate_error"`
	Bounds   bool    `json:"bounds"`
}

// Audit is the private record written beside the release (SPEC 7.2).
type Audit struct {
	Input       string `json:"input"`
	InputSHA256 string `json:"input_sha256,omitempty"`
	// InputFormat is the input file's format: csv, xlsx, parquet, sqlite.
	InputFormat string `json:"input_format,omitempty"`
	Seed        uint64 `json:"seed"`
	SeedFixed   bool   `json:"seed_fixed"`
	Release     string `json:"release"`
	// RowMap gives, per published file, the input row (0-based, counting
	// data rows after any dropped rows) of each published row; a negative
	// entry -1-j names row j of the public table instead (a method that
	// publishes public-table tuples, e.g. k-join-anonymity).
	RowMap map[string][]int `json:"row_map,omitempty"`
	Config any              `json:"config,omitempty"`
}

// Release is what a method hands to the writer (report.md is rendered
// from the manifest, see RenderReport).
type Release struct {
	Files    []ReleaseFile
	Manifest Manifest
}

// WriteOptions control WriteRelease.
type WriteOptions struct {
	// Force replaces an existing release directory.
	Force bool
	// Inputs are files that must never be written or removed (the input
	// table, hierarchy and target files).
	Inputs []string
	// Verify re-checks the written files (in the temporary directory) and
	// returns one line per constraint; an error means a violation.
	Verify func(dir string) ([]string, error)
	// AcceptViolations writes the release even when Verify fails; the
	// manifest then says so.
	AcceptViolations bool
	// Audit, when set, is written to AuditPath(dir).
	Audit *Audit
}

// ErrExists is returned when the release directory exists and Force is off.
var ErrExists = errors.New("release directory already exists")

// VerifyError carries the verification lines of a failed check.
type VerifyError struct {
	Lines []string
	Err   error
}

func (e *VerifyError) Error() string { return "release failed verification: " + e.Err.Error() }

// existsError is the *ParamError for an existing release directory that
// also matches errors.Is(err, ErrExists).
type existsError struct{ *ParamError }

func (e *existsError) Unwrap() []error { return []error{e.ParamError, ErrExists} }

// failpoint lets tests simulate a crash at a named stage of WriteRelease.
var failpoint = func(stage string) error { return nil }

// AuditPath is where the audit record of release dir goes: beside it.
func AuditPath(dir string) string {
	return filepath.Clean(dir) + ".audit.json"
}

// WriteRelease writes rel into dir atomically: everything goes into a
// temporary sibling directory, each file is synced and re-read to check its
// hash, the release is verified, and only then renamed into place. On any
// failure nothing is left behind and an existing release is untouched.
//
// An existing dir is refused unless opt.Force is set (the error matches
// errors.Is(err, ErrExists) and errors.As(err, **ParamError)); even with
// Force only a directory that looks like a release (it has a manifest.json,
// or is empty) is replaced.
func WriteRelease(dir string, rel *Release, opt WriteOptions) (*Manifest, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, &ParamError{Param: "out", Reason: "no output directory given", Hint: "pass --out DIR"}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if filepath.Dir(abs) == abs {
		return nil, &ParamError{Param: "out", Value: dir, Reason: "is a file system root", Hint: "choose a new directory"}
	}
	seen := map[string]bool{"manifest.json": true, "report.md": true}
	for _, f := range rel.Files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." || strings.ContainsAny(f.Name, `/\`) {
			return nil, fmt.Errorf("release file name %q is not a plain file name", f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("release file name %q is used twice or is reserved", f.Name)
		}
		seen[f.Name] = true
		if f.Rows > 0 && f.Fill == nil {
			return nil, fmt.Errorf("release file %q has %d rows but no Fill function", f.Name, f.Rows)
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
			return nil, &ParamError{Param: "out", Value: dir, Reason: "the release would overwrite or remove the input file " + in,
				Hint: "choose another output directory"}
		}
	}
	if st, err := os.Stat(abs); err == nil {
		if !st.IsDir() {
			return nil, &ParamError{Param: "out", Value: dir, Reason: "exists and is a file, not a release directory", Hint: "choose another output directory"}
		}
		if !opt.Force {
			return nil, &existsError{&ParamError{Param: "out", Value: dir, Reason: ErrExists.Error(), Hint: "pass --force to replace it"}}
		}
		if !looksLikeRelease(abs) {
			return nil, &ParamError{Param: "out", Value: dir, Reason: "exists and is not a privlab release (no manifest.json); refusing to replace it",
				Hint: "choose a new directory or remove it yourself"}
		}
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	removeStale(parent)
	tag := fmt.Sprintf("%d-", os.Getpid()) // whose temporary files these are
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".tmp-"+tag)
	if err != nil {
		return nil, fmt.Errorf("create temporary directory beside %s: %w", dir, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	m := rel.Manifest
	m.Tool, m.Version = "privlab", Version
	m.Files = []FileEntry{}
	for _, f := range rel.Files {
		if err := failpoint("file:" + f.Name); err != nil {
			return nil, err
		}
		sum, err := writeCSV(filepath.Join(tmp, f.Name), f)
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, FileEntry{Name: f.Name, Rows: f.Rows, SHA256: sum})
	}
	if err := writeJSON(filepath.Join(tmp, "manifest.json"), &m); err != nil {
		return nil, err
	}
	if err := failpoint("verify"); err != nil {
		return nil, err
	}
	if opt.Verify != nil {
		lines, verr := opt.Verify(tmp)
		m.Checks = lines
		m.Verified = verr == nil
		if verr != nil {
			if !opt.AcceptViolations {
				return nil, &VerifyError{Lines: lines, Err: verr}
			}
			m.AcceptedBad = true
			m.Notes = append(m.Notes, "the release FAILED its own privacy verification and was written because the user accepted the violations")
		}
		if err := writeJSON(filepath.Join(tmp, "manifest.json"), &m); err != nil {
			return nil, err
		}
	}
	{
		// report.md is listed with its hash like every data file, so that
		// an edit of the report is caught; it is rendered from the manifest
		// as verified, then the manifest is written again to list it.
		text := []byte(RenderReport(&m))
		if err := writeFileSync(filepath.Join(tmp, "report.md"), text); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(text)
		m.Files = append(m.Files, FileEntry{Name: "report.md", Rows: 0, SHA256: hex.EncodeToString(sum[:])})
		if err := writeJSON(filepath.Join(tmp, "manifest.json"), &m); err != nil {
			return nil, err
		}
	}
	if err := syncDir(tmp); err != nil {
		return nil, err
	}
	// The audit record goes to a temporary file first, so a failure to
	// write it stops the export before the release appears.
	var auditTmp string
	if opt.Audit != nil {
		a := *opt.Audit
		a.Release = abs
		b, err := json.MarshalIndent(&a, "", "  ")
		if err != nil {
			return nil, err
		}
		f, err := os.CreateTemp(parent, "."+filepath.Base(abs)+".audit.tmp-"+tag)
		if err != nil {
			return nil, fmt.Errorf("audit record: %w", err)
		}
		auditTmp = f.Name()
		f.Close()
		defer os.Remove(auditTmp) // gone after the rename; cleans up a failure
		if err := os.Chmod(auditTmp, 0o600); err != nil {
			return nil, err
		}
		if err := writeFileSync(auditTmp, append(b, '\n')); err != nil {
			return nil, fmt.Errorf("audit record: %w", err)
		}
		if st, err := os.Stat(AuditPath(abs)); err == nil && st.IsDir() {
			return nil, &ParamError{Param: "out", Value: dir, Reason: AuditPath(abs) + " is a directory; the audit record cannot be written beside the release"}
		}
	}
	if err := failpoint("rename"); err != nil {
		return nil, err
	}
	var old string
	if _, err := os.Stat(abs); err == nil {
		old = filepath.Join(parent, "."+filepath.Base(abs)+".old-"+filepath.Base(tmp)[len(filepath.Base(abs))+6:])
		if err := os.Rename(abs, old); err != nil {
			return nil, fmt.Errorf("move the old release aside: %w", err)
		}
	}
	if err := os.Rename(tmp, abs); err != nil {
		if old != "" {
			os.Rename(old, abs)
		}
		return nil, fmt.Errorf("rename the release into place: %w", err)
	}
	done = true
	if old != "" {
		os.RemoveAll(old)
	}
	if auditTmp != "" {
		if err := os.Rename(auditTmp, AuditPath(abs)); err != nil {
			return &m, fmt.Errorf("release written, but the audit record failed: %w", err)
		}
	}
	if err := syncDir(parent); err != nil {
		return &m, fmt.Errorf("release written, but %w", err)
	}
	return &m, nil
}

// staleName matches the temporary files and directories WriteRelease makes
// beside a release: .NAME.tmp-PID-X, .NAME.old-PID-X, .NAME.audit.tmp-PID-X.
var staleName = regexp.MustCompile(`^\..+\.(tmp|old|audit\.tmp)-([0-9]+)-[0-9]+$`)

// removeStale removes what an export killed before it finished left in
// parent: only privlab's own temporary names, and only when the process
// that made them is gone (a running export's are left alone).
func removeStale(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := staleName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		pid, err := strconv.Atoi(m[2])
		if err != nil || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(parent, e.Name()))
	}
}

// processAlive reports whether a process with this id runs.
func processAlive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}

func looksLikeRelease(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	if len(entries) == 0 {
		return true
	}
	_, err = os.Stat(filepath.Join(dir, "manifest.json"))
	return err == nil
}

// writeCSV writes one table, syncs it, and re-reads it to check the hash.
func writeCSV(path string, f ReleaseFile) (string, error) {
	out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(out, h), 1<<16)
	if err := f.WriteCSV(bw); err != nil {
		out.Close()
		return "", err
	}
	if err := bw.Flush(); err != nil {
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

// FileSHA256 hashes a file.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFileSync(path, append(b, '\n'))
}

func writeFileSync(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, b) {
		return fmt.Errorf("%s: re-read content differs from what was written", path)
	}
	return nil
}

// WriteFileAtomic writes data to path through a temporary sibling and a
// rename, so readers never see half a file.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomic streams a file into a temporary sibling (creating the
// directory if needed), syncs it and renames it into place; on any error
// the temporary file is removed and path is untouched.
func WriteAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	name := f.Name()
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// syncDir flushes a directory's entries to disk. File systems that cannot
// sync a directory (EINVAL, unsupported) are not an error: the rename is
// atomic all the same.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// ReadAudit reads an audit record.
func ReadAudit(path string) (*Audit, error) {
	b, err := ReadFileLimit(path, MaxAuditBytes, "an audit record")
	if ie := (*InputError)(nil); errors.As(err, &ie) {
		return nil, ie
	}
	if err != nil {
		return nil, &InputError{File: path, Msg: OpenReason(err)}
	}
	var a Audit
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, &InputError{File: path, Msg: "not valid JSON: " + err.Error()}
	}
	return &a, nil
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := ReadFileLimit(filepath.Join(dir, "manifest.json"), MaxManifestBytes, "a manifest")
	if ie := (*InputError)(nil); errors.As(err, &ie) {
		return nil, ie
	}
	if err != nil {
		return nil, &InputError{File: filepath.Join(dir, "manifest.json"), Msg: OpenReason(err), Hint: "is this a privlab release directory?"}
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, &InputError{File: filepath.Join(dir, "manifest.json"), Msg: "not valid JSON: " + err.Error()}
	}
	return &m, nil
}
