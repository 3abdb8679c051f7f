package releasedir

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/strictjson"
)

// ReleaseFile is one published CSV table. Rows are produced on demand by
// Fill so that a million-row release is never held as strings.
type ReleaseFile struct {
	Name   string
	Header []string
	Rows   int
	// Fill writes row i into rec (len(rec) == len(Header)). It only
	// reads what it shares: CSVText calls it from several goroutines at
	// once, for different rows and records.
	Fill func(i int, rec []string)
	// Record, when set, is row i's CSV record as AppendCSVRecord renders
	// the record Fill gives (its line, newline included; read only): a
	// method whose rows repeat a few records renders each once, and the
	// file is written from them. Fill still gives the values.
	Record func(i int) []byte
	// Append, when set, appends row i's CSV record as AppendCSVRecord
	// renders the record Fill gives (newline included) to b: a method
	// that knows its fields' text (values quoted once per distinct
	// value, numbers that never need quotes) writes it without a record
	// of strings in between. Fill still gives the values.
	Append func(b []byte, i int) []byte
	// Text, when set, is the file's CSV text as WriteCSV renders it from
	// Header and Fill, rendered once already (an export renders a release
	// in memory for its risk figures and writes those very bytes): it is
	// written as it is.
	Text []byte
}

// WriteCSV writes the file's CSV text (the bytes a release holds).
func (f ReleaseFile) WriteCSV(out io.Writer) error {
	return writeRecords(out, f, nil)
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
	// Attacks are the attacks its methods' papers defend against,
	// measured on the release at export (algorithms/attack; check
	// recomputes them), and Warnings what the workbench warned of.
	Attacks  []AttackFigure `json:"attacks,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
	// WorkloadError is the utility the release keeps: a random workload
	// of the method's query shape answered on the input and on the
	// release (check --original recomputes it from the files).
	WorkloadError *WorkloadError `json:"workload_error,omitempty"`
	// Details is the method's own part, as its format package writes and
	// reads it (algorithms/NAME/format: EncodeDetails, DecodeDetails).
	Details     json.RawMessage `json:"details,omitempty"`
	Files       []FileEntry     `json:"files"`
	Verified    bool            `json:"verified"`
	Checks      []string        `json:"checks,omitempty"`
	AcceptedBad bool            `json:"accepted_violations,omitempty"`
	Notes       []string        `json:"notes,omitempty"`
	// Advisor states the risk-utility map the settings were chosen on,
	// when the project had one (report.md links its picture).
	Advisor *AdvisorNote `json:"advisor,omitempty"`
	// Partitioned is set on the one manifest of a partitioned release
	// (SPEC 3.9): the plan and each partition's own release, a
	// sub-directory the checks read partition by partition.
	Partitioned *Partitioning `json:"partitioned,omitempty"`
}

// Partitioning is a partitioned release's plan (the cuts of the QI space,
// as algorithms/partitionplan writes them) and its partitions.
type Partitioning struct {
	Plan  json.RawMessage `json:"plan"`
	Parts []Part          `json:"parts"`
}

// Part is one partition of a partitioned release: its directory (a
// release of its own) and its manifest's digest (ManifestDigest).
type Part struct {
	Dir            string `json:"dir"`
	RowsIn         int    `json:"rows_in"`
	Published      int    `json:"rows_published"`
	Groups         int    `json:"groups"`
	ManifestSHA256 string `json:"manifest_sha256"`
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
	// ManifestDigest is the digest (ManifestDigest) of the manifest the
	// export wrote: with the audit record, check holds every claim of the
	// manifest to its producer's (a manifest edited after export fails).
	ManifestDigest string `json:"manifest_digest,omitempty"`
}

// Release is what a method hands to the writer (report.md is rendered
// from the manifest, see RenderReport).
type Release struct {
	Files    []ReleaseFile
	Manifest Manifest
}

// ManifestDigest is the SHA-256 of a manifest's content as privlab reads
// it (ReadManifest), written back as compact JSON with its keys in a fixed
// order: a manifest whose claims are unchanged has the same digest however
// its file is laid out; any changed claim changes it.
func ManifestDigest(m *Manifest) (string, error) {
	sum, _, err := manifestDigest(m)
	return sum, err
}

// manifestDigest is ManifestDigest with the JSON it hashes.
func manifestDigest(m *Manifest) (string, []byte, error) {
	c := *m
	if len(c.Details) > 0 {
		// The details in the same fixed form as the rest: keys sorted at
		// every level, whatever the order the file lists them in.
		v, err := decodeDetails(c.Details)
		if err != nil {
			return "", nil, err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return "", nil, err
		}
		c.Details = b
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), b, nil
}

// AuditPath is where the audit record of release dir goes: beside it.
func AuditPath(dir string) string {
	return filepath.Clean(dir) + ".audit.json"
}

// FileSHA256 hashes a file.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return streamSHA256(f)
}

// streamSHA256 is the hex SHA-256 of what r holds.
func streamSHA256(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeJSONUnsynced writes v as indented JSON (writeFileUnsynced).
func writeJSONUnsynced(path string, v any) (*unsynced, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return writeFileUnsynced(path, append(b, '\n'))
}

// writeDraftJSON writes v as writeJSONUnsynced does, never synced: a
// file written again before the release is put in place.
func writeDraftJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// unsynced is a file written but not yet synced: a write of several
// files syncs them all at once (syncAll), not one after another.
type unsynced struct {
	f     *os.File // nil for a directory, opened when synced
	path  string
	b     []byte
	label string // what an error names first ("" none)
}

// writeFileUnsynced writes b to path; its sync syncs the file and checks
// that it reads back as b.
func writeFileUnsynced(path string, b []byte) (*unsynced, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, err
	}
	return &unsynced{f: f, path: path, b: b}, nil
}

// sync syncs the file (or directory) and checks that a file reads back as
// written.
func (u *unsynced) sync() error {
	err := u.syncAndRead()
	if err != nil && u.label != "" {
		err = fmt.Errorf("%s: %w", u.label, err)
	}
	return err
}

func (u *unsynced) syncAndRead() error {
	if u.f == nil {
		return syncDir(u.path)
	}
	f := u.f
	u.f = nil
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return readsBack(u.path, u.b)
}

// close lets go of a file that will not be synced (the write failed).
func (u *unsynced) close() {
	if u.f != nil {
		u.f.Close()
		u.f = nil
	}
}

// syncAll syncs the files at once and returns the first error, in order.
func syncAll(files []*unsynced) error {
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, u := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = u.sync()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// readsBack checks that path reads back as b.
func readsBack(path string, b []byte) error {
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

// ReadAudit reads an audit record strictly (strictjson.Decode): a repeated key
// or one the record does not have is an error naming its line.
func ReadAudit(path string) (*Audit, error) {
	b, err := ReadFile(path, model.MaxAuditBytes, "an audit record")
	if ie := (*model.InputError)(nil); errors.As(err, &ie) {
		return nil, ie
	}
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err)}
	}
	var a Audit
	if err := decodeAudit(b, &a); err != nil {
		return nil, jsonInputError(path, err, "an audit record is written by privlab run beside its release")
	}
	return &a, nil
}

// ReadManifest reads dir/manifest.json strictly (strictjson.Decode): a key
// given twice (in any case) or one a manifest does not have is an error
// naming its line, so that every JSON reader reads the manifest alike.
// A manifest read again unchanged is not decoded again (decodeCached).
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, "manifest.json")
	b, err := ReadFile(path, model.MaxManifestBytes, "a manifest")
	if ie := (*model.InputError)(nil); errors.As(err, &ie) {
		return nil, ie
	}
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err), Hint: "is this a privlab release directory?"}
	}
	var m Manifest
	if err := decodeCached(b, &m); err != nil {
		return nil, jsonInputError(path, err, "a manifest holds the keys privlab writes, each once")
	}
	return &m, nil
}

// jsonInputError turns a strictjson.Decode error into an *InputError naming
// the file and line.
func jsonInputError(path string, err error, hint string) *model.InputError {
	var je *strictjson.Error
	if errors.As(err, &je) {
		return &model.InputError{File: path, Line: je.Line, Msg: je.Error(), Hint: hint}
	}
	return &model.InputError{File: path, Msg: "not valid JSON: " + err.Error(), Hint: hint}
}
