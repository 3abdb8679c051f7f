// Package verifytest helps the checkers' tests forge releases as anyone
// holding one could: edit the manifest, re-compute every file's hash and
// render report.md anew, so that only the content checks can catch an
// edit; and test a checker's named checks one by one on a hand-written
// release and its smallest tampers (Tamper, Want).
package verifytest

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	"privlab/model/releasedir"
)

// Restate re-computes the SHA-256 of every listed file, applies edit
// (nil: none) to dir/manifest.json and, when the release has a report,
// renders report.md from the edited manifest and lists its new hash.
func Restate(t testing.TB, dir string, edit func(m map[string]any)) {
	t.Helper()
	m := read(t, dir)
	rehash(dir, m, "")
	if edit != nil {
		edit(m)
	}
	write(t, dir, m)
	man, err := releasedir.ReadManifest(dir)
	if err != nil {
		return // the edit broke the manifest: nothing to render
	}
	hasReport := false
	if files, ok := m["files"].([]any); ok {
		for _, f := range files {
			if e, ok := f.(map[string]any); ok && e["name"] == "report.md" {
				hasReport = true
			}
		}
	}
	if !hasReport {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(releasedir.RenderReport(man)), 0o644); err != nil {
		t.Fatal(err)
	}
	rehash(dir, m, "report.md")
	write(t, dir, m)
}

func read(t testing.TB, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func write(t testing.TB, dir string, m map[string]any) {
	t.Helper()
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rehash re-computes the hash of every listed file, or only of the one
// named.
func rehash(dir string, m map[string]any, only string) {
	files, _ := m["files"].([]any)
	for _, f := range files {
		e, ok := f.(map[string]any)
		if !ok {
			continue
		}
		name, _ := e["name"].(string)
		if only != "" && name != only {
			continue
		}
		if sum, err := releasedir.FileSHA256(filepath.Join(dir, name)); err == nil && filepath.Base(name) == name {
			e["sha256"] = sum
		}
	}
}

// Details encodes a method's details as a hand-written manifest holds
// them (releasedir.EncodeDetails).
func Details(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := releasedir.EncodeDetails(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// EditDetails applies edit to the details as a JSON object and encodes
// them again.
func EditDetails(t testing.TB, raw json.RawMessage, edit func(d map[string]any)) json.RawMessage {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	return Details(t, d)
}

// ReadCSV reads a release file's records (the header first).
func ReadCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// WriteCSV writes records as a release file (an edit of one).
func WriteCSV(t testing.TB, path string, recs [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Tamper is an edit of a hand-written release before a check reads it:
// a file's text, or the manifest as JSON.
type Tamper struct {
	Files    map[string]func(string) string
	Manifest func(m map[string]any)
}

// File is the tamper of one file.
func File(name string, edit func(string) string) Tamper {
	return Tamper{Files: map[string]func(string) string{name: edit}}
}

// Replace replaces old by new in a file's text, once; old must be there.
func Replace(t testing.TB, old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("%q is not in the file", old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

// Copy copies the files of src (a directory of testdata, its
// subdirectories aside) to a new temporary directory, applying the
// tamper, and returns its path. No hash is restated: a check reads the
// copy through verify.Open.
func (tp Tamper) Copy(t testing.TB, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if edit := tp.Files[e.Name()]; edit != nil {
			b = []byte(edit(string(b)))
		}
		if e.Name() == "manifest.json" && tp.Manifest != nil {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			tp.Manifest(m)
			b, _ = json.MarshalIndent(m, "", "  ")
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Lines runs one named check of a checker on its context and renders its
// lines (verify.ErrStop is not an error here).
func Lines[C any](t testing.TB, c *C, check func(*C, *verify.Report) error) []string {
	t.Helper()
	r := &verify.Report{}
	if err := check(c, r); err != nil && !errors.Is(err, verify.ErrStop) {
		t.Fatal(err)
	}
	return r.Strings()
}

// Want fails the test unless one named check's lines are exactly want.
func Want[C any](t testing.TB, c *C, check func(*C, *verify.Report) error, want ...string) {
	t.Helper()
	if got := Lines(t, c, check); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Confirmed reports whether every line of r passed and every privacy
// guarantee was confirmed (what privlab check exits 0 on).
func Confirmed(r *verify.Report) bool { return r.OK() && len(r.Unproven) == 0 }
