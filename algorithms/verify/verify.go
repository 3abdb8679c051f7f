// Package verify re-checks a published release from its files alone (plus
// the original table when given), with code independent of the algorithms
// that produced it (SPEC 7.4). It is the one verification path: `privlab
// check`, the export path and the tests all use it.
package verify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"privlab/model"
)

// Line is one checked constraint.
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
}

// OK reports whether every line passed.
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
	for _, l := range r.Lines {
		if !l.OK {
			bad = append(bad, l.Name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return errors.New("failed: " + strings.Join(bad, ", "))
}

func (r *Report) add(ok bool, name, format string, args ...any) {
	r.Lines = append(r.Lines, Line{OK: ok, Name: name, Text: fmt.Sprintf(format, args...)})
}

// Options gives the verifier what it may compare with.
type Options struct {
	// Original is the input table, when the user has it.
	Original *model.Table
	// Public is the public database (k-join-anonymity).
	Public *model.Table
	// Audit is the private record written beside the release; with the
	// original it pins each published row to its input row.
	Audit *model.Audit
}

// checker verifies one method's release.
type checker func(dir string, m *model.Manifest, opt Options, r *Report) error

var checkers = map[string]checker{}

// Check verifies the release in dir. A returned error means the release
// could not be read at all; privacy failures are lines in the report.
func Check(dir string, opt Options) (*Report, error) {
	r := &Report{Dir: dir}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, &model.InputError{File: dir, Msg: "not a release directory", Hint: "give the directory privlab run --out wrote"}
	}
	m, err := model.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	c, ok := checkers[m.Method]
	if !ok {
		return nil, &model.InputError{File: filepath.Join(dir, "manifest.json"), Msg: fmt.Sprintf("unknown method %q", m.Method)}
	}
	checkFiles(dir, m, r)
	if err := c(dir, m, opt, r); err != nil {
		return nil, err
	}
	return r, nil
}

// checkFiles compares every listed file with its SHA-256 and makes sure no
// unlisted data file is in the directory.
func checkFiles(dir string, m *model.Manifest, r *Report) {
	bad := []string{}
	listed := map[string]bool{"manifest.json": true, "report.md": true}
	for _, f := range m.Files {
		listed[f.Name] = true
		sum, err := model.FileSHA256(filepath.Join(dir, f.Name))
		if err != nil || sum != f.SHA256 {
			bad = append(bad, f.Name)
		}
	}
	entries, _ := os.ReadDir(dir)
	var extra []string
	for _, e := range entries {
		if !listed[e.Name()] {
			extra = append(extra, e.Name())
		}
	}
	r.add(len(bad) == 0, "files", "%d files match their SHA-256%s", len(m.Files)-len(bad), listIf(" ; changed or missing: ", bad))
	r.add(len(extra) == 0, "contents", "no unlisted files in the release%s", listIf(" ; unlisted: ", extra))
}

func listIf(prefix string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	return prefix + strings.Join(items, ", ")
}

// loadCSV reads a release table strictly as text (no missing tokens).
func loadCSV(dir, name string) (*model.Table, error) {
	return model.LoadFile(filepath.Join(dir, name), model.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
}

// checkHeader reports whether t's columns are exactly want.
func checkHeader(t *model.Table, want []string) bool {
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
