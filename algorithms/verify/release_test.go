package verify

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// toyRelease is a one-table release: data.csv with a column v.
func toyRelease(rows ...string) *releasedir.Release {
	return &releasedir.Release{
		Files: []releasedir.ReleaseFile{{Name: "data.csv", Header: []string{"v"}, Rows: len(rows), Fill: func(i int, rec []string) { rec[0] = rows[i] }}},
		Manifest: releasedir.Manifest{Tool: "privlab", Version: model.Version, Method: "toy", Parameters: map[string]string{}, QIs: []string{"v"},
			Dropped: []string{}, RowsIn: len(rows), Published: len(rows), Groups: 1},
	}
}

// toyCheck reads data.csv and holds the manifest's common claims to it.
func toyCheck(rel *Release, opt Options, r *Report) error {
	tab, err := rel.Table("data.csv")
	if err != nil {
		return err
	}
	r.Add(tab.Rows > 0, "rows", "data.csv has %d rows", tab.Rows)
	r.Compare(rel, Recomputed{Groups: 1, Published: tab.Rows, Tables: map[string]*model.Table{"data.csv": tab}, Complete: true}, opt)
	return nil
}

var toyDeclared = Declared{Check: toyCheck, Title: "Toy", Paper: "Nobody 2024", Certifies: "nothing", Params: []string{"k"}}

func lookupToy(method string) (Declared, bool) { return toyDeclared, method == "toy" }

// writeToy exports a toy release as privlab does: checked before it is
// put in place, its verification lines and report.md listed.
func writeToy(t *testing.T, rows ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "rel")
	verifyDir := func(d string, _ *releasedir.Manifest) ([]string, error) {
		r, err := RunDeclared(d, Options{SkipRisk: true}, lookupToy)
		if err != nil {
			return nil, err
		}
		return r.Strings(), r.Err()
	}
	if _, err := releasedir.Write(dir, toyRelease(rows...), releasedir.WriteOptions{Verify: verifyDir}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func names(r *Report) string {
	var out []string
	for _, l := range r.Lines {
		mark := ""
		if !l.OK {
			mark = "!"
		}
		out = append(out, mark+l.Name)
	}
	return strings.Join(out, ",")
}

// A received release passes every line: its files and their hashes, no
// unlisted file, report.md, the declaration, the checker's lines and
// claims, the verification lines it states.
func TestRunDeclared(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b", "a")
	r, err := RunDeclared(dir, Options{Received: true}, lookupToy)
	if err != nil || !r.Confirmed() {
		t.Fatalf("%v\n%s", err, strings.Join(r.Strings(), "\n"))
	}
	if got := names(r); got != "files,contents,report,finished,declaration,rows,claims,checks,unconfirmed" {
		t.Errorf("lines %s", got)
	}
	// Run looks up the checker alone.
	if r, err := Run(dir, Options{}, func(m string) (Checker, bool) { return toyCheck, m == "toy" }); err != nil || !r.OK() {
		t.Errorf("Run: %v %q", err, r.Strings())
	}
}

// Every file is bound by its hash, and nothing unlisted lies beside it.
func TestFilesBoundByHash(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b")
	os.WriteFile(filepath.Join(dir, "data.csv"), []byte("v\na\nc\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	r, err := RunDeclared(dir, Options{}, lookupToy)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"FAIL files: 1 file matches its SHA-256 ; changed or missing: data.csv", "FAIL contents: no unlisted files in the release ; unlisted: notes.txt"}
	if got := r.Strings(); got[0] != want[0] || got[1] != want[1] {
		t.Errorf("%q", got[:2])
	}
	os.Remove(filepath.Join(dir, "data.csv"))
	r, err = RunDeclared(dir, Options{}, lookupToy)
	if err != nil || !strings.HasPrefix(r.Strings()[0], "FAIL files: 1 file matches its SHA-256 ; changed or missing: data.csv") ||
		!strings.Contains(strings.Join(r.Strings(), "\n"), "FAIL readable: ") {
		t.Errorf("%v %q", err, r.Strings())
	}
}

// The bytes hashed are the bytes checked: a file changed after it was
// hashed is read as hashed, and each table is parsed once for everyone.
func TestFilesReadOnce(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b")
	rel, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sums := rel.hashAll()
	os.WriteFile(filepath.Join(dir, "data.csv"), []byte("v\nz\n"), 0o644)
	var wg sync.WaitGroup
	tables := make([]*model.Table, 8)
	for i := range tables {
		wg.Add(1)
		go func() { defer wg.Done(); tables[i], _ = rel.Table("data.csv") }()
	}
	wg.Wait()
	for _, tab := range tables {
		if tab != tables[0] {
			t.Fatal("a table parsed twice")
		}
	}
	if tables[0].Rows != 2 || tables[0].Columns[0].Value(1) != "b" || sums[0] != rel.Manifest.Files[0].SHA256 {
		t.Errorf("read %d rows (%q), hash %s", tables[0].Rows, tables[0].Columns[0].Value(0), sums[0])
	}
	if _, err := rel.Table("other.csv"); err == nil || !strings.Contains(err.Error(), "the release does not list other.csv") {
		t.Errorf("an unlisted file: %v", err)
	}
	if ts, err := rel.Tables("data.csv", "data.csv"); err != nil || len(ts) != 2 || ts[1] != tables[0] {
		t.Errorf("Tables: %v", err)
	}
	if b, err := rel.Bytes("report.md"); err != nil || !strings.HasPrefix(string(b), "# privlab release: toy") || !rel.Has("report.md") || rel.Has("x.csv") {
		t.Errorf("report.md: %v", err)
	}
	if got := strings.Join(rel.Files(), ","); got != "data.csv,report.md" {
		t.Errorf("files %s", got)
	}
}

// Only plain names of regular files inside the release are read.
func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		edit func(dir string, m *releasedir.Manifest)
		want string
	}{
		"outside":  {func(_ string, m *releasedir.Manifest) { m.Files[0].Name = "../data.csv" }, `files lists "../data.csv", which is not a plain file name`},
		"manifest": {func(_ string, m *releasedir.Manifest) { m.Files[0].Name = "manifest.json" }, `files lists "manifest.json"`},
		"twice":    {func(_ string, m *releasedir.Manifest) { m.Files[1].Name = "data.csv" }, `files lists "data.csv" twice`},
		"link": {func(dir string, m *releasedir.Manifest) {
			os.Remove(filepath.Join(dir, "data.csv"))
			os.Symlink("/etc/hostname", filepath.Join(dir, "data.csv"))
		}, "data.csv: is a symbolic link, not a regular file"},
	} {
		dir := writeToy(t, "a")
		m, _ := releasedir.ReadManifest(dir)
		c.edit(dir, m)
		b, _ := jsonIndent(m)
		os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
		if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Open: %v", name, err)
		}
		// The release is at fault: it fails, the line says why.
		if r, err := RunDeclared(dir, Options{}, lookupToy); err != nil || r.OK() || !strings.Contains(strings.Join(r.Strings(), "\n"), "FAIL readable: ") ||
			!strings.Contains(strings.Join(r.Strings(), "\n"), c.want) {
			t.Errorf("%s: RunDeclared: %v %q", name, err, r.Strings())
		}
	}
	if _, err := RunDeclared(t.TempDir(), Options{}, lookupToy); err == nil || !strings.Contains(err.Error(), "manifest.json") {
		t.Errorf("no manifest: %v", err)
	}
	if _, err := RunDeclared(filepath.Join(t.TempDir(), "none"), Options{}, lookupToy); err == nil || !strings.Contains(err.Error(), "not a release directory") {
		t.Errorf("no directory: %v", err)
	}
	dir := writeToy(t, "a")
	if r, err := RunDeclared(dir, Options{}, func(string) (Declared, bool) { return Declared{}, false }); err != nil || !strings.Contains(r.Strings()[0], `FAIL readable: `) ||
		!strings.Contains(r.Strings()[0], `unknown method "toy"`) {
		t.Errorf("unknown method: %v %q", err, r.Strings())
	}
}

// report.md must say what the manifest states; the manifest's words on
// the method are the declaration's.
func TestReportAndDeclarationBound(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b")
	b, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	os.WriteFile(filepath.Join(dir, "report.md"), []byte(strings.Replace(string(b), "toy", "k-anonymity", 1)), 0o644)
	r, _ := RunDeclared(dir, Options{}, lookupToy)
	if l := r.Lines[2]; l.Name != "report" || l.OK || !strings.HasPrefix(l.Text, "report.md does not say what the manifest states: line 1 reads") {
		t.Errorf("%s", l)
	}
	m, _ := releasedir.ReadManifest(dir)
	m.Title, m.Parameters = "Certified", map[string]string{"alpha": "1"}
	r = &Report{}
	(&Release{Manifest: m}).bindDeclaration(toyDeclared, r)
	if got := r.Strings()[0]; got != `FAIL declaration: title reads "Certified", the method declares "Toy"; parameter "alpha" is not one toy reads (k)` {
		t.Errorf("%s", got)
	}
}

// A received release must be finished, and its producer's words bound
// by the audit record's digest of the manifest, or named as unconfirmed.
func TestReceived(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b")
	m, _ := releasedir.ReadManifest(dir)
	sum, _ := releasedir.ManifestDigest(m)
	r, _ := RunDeclared(dir, Options{Received: true, Audit: &releasedir.Audit{ManifestDigest: sum}}, lookupToy)
	if l := r.Lines[len(r.Lines)-1]; l.Name != "provenance" || !l.OK {
		t.Errorf("%s", l)
	}
	r, _ = RunDeclared(dir, Options{Received: true, Audit: &releasedir.Audit{ManifestDigest: "ab" + sum[2:]}}, lookupToy)
	if l := r.Lines[len(r.Lines)-1]; l.Name != "claim manifest" || l.OK {
		t.Errorf("%s", l)
	}
	m.Verified, m.Checks = false, nil
	b, _ := jsonIndent(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	r, _ = RunDeclared(dir, Options{Received: true}, lookupToy)
	if l := r.Lines[3]; l.Name != "finished" || l.OK || !strings.Contains(l.Text, "it states no verification lines; verified is false") {
		t.Errorf("%s", l)
	}
}

// Compare holds the manifest's common claims to what the checker
// recomputed.
func TestCompare(t *testing.T) {
	t.Parallel()
	tab := published(t, "v\na\nb\n")
	base := func() *releasedir.Manifest {
		return &releasedir.Manifest{Tool: "privlab", Version: "0.3.0", QIs: []string{"v"}, RowsIn: 3, Published: 2, Suppressed: 1, Groups: 1,
			Files:      []releasedir.FileEntry{{Name: "data.csv", Rows: 2}},
			WorstCases: []releasedir.Figure{{Name: "k", Value: 2, Limit: "2", OK: true}, {Name: "later", Value: 0, Limit: "0", OK: true}}}
	}
	rc := Recomputed{Groups: 1, Published: 2, Tables: map[string]*model.Table{"data.csv": tab}, Figures: map[string]float64{"k": 2},
		Holds: map[string]bool{"k": true}, Limits: map[string]string{"k": "2", "later": "0"}, Later: map[string]bool{"later": true}}
	r := &Report{}
	r.Compare(&Release{Manifest: base()}, rc, Options{})
	if got := r.Strings(); len(got) != 1 || got[0] != "ok   claims: the 4 figures the manifest states agree with the files; unconfirmed without the original: later, rows_in, dropped_columns" {
		t.Errorf("%q", got)
	}
	for _, c := range []struct {
		edit func(m *releasedir.Manifest)
		want string
	}{
		{func(m *releasedir.Manifest) { m.Groups = 2 }, "FAIL claim groups: the manifest states 2, the files give 1"},
		{func(m *releasedir.Manifest) { m.Suppressed = 2 }, "FAIL claim rows_in: the manifest states 3 rows in, 2 published and 2 suppressed, which do not add up"},
		{func(m *releasedir.Manifest) { m.WorstCases[0].OK = false }, "FAIL claim k: the manifest says ok=false, the files say true"},
		{func(m *releasedir.Manifest) { m.WorstCases[0].Limit = "1" }, `FAIL claim k limit: the manifest states the limit "1", the parameters give "2"`},
		{func(m *releasedir.Manifest) { m.Utility = []releasedir.Figure{{Name: "loss", Value: 1}} }, "FAIL claim loss: the manifest states a figure the files cannot confirm"},
		{func(m *releasedir.Manifest) { m.Version = "latest" }, `FAIL claim tool: the manifest names the tool "privlab" version "latest", not privlab's (a version reads like 0.3.0)`},
		{func(m *releasedir.Manifest) { m.Dropped = []string{"v"} }, "FAIL claim dropped_columns: v is both published and dropped"},
	} {
		m := base()
		c.edit(m)
		r := &Report{}
		r.Compare(&Release{Manifest: m}, rc, Options{})
		if got := r.Strings(); got[0] != c.want {
			t.Errorf("got %q, want %q", got[0], c.want)
		}
	}
	// With the original, rows_in and the dropped columns are confirmed.
	orig := load(t, "id,v\n1,a\n2,b\n3,\n", csvfile.LoadOptions{})
	m := base()
	m.Dropped = []string{"id"}
	r = &Report{}
	r.Compare(&Release{Manifest: m}, rc, Options{Original: orig})
	if got := r.Strings(); len(got) != 1 || got[0] != "FAIL claim later: the manifest states a figure the files cannot confirm" {
		t.Errorf("%q", got)
	}
}

// OpenMemory reads a release built but not written: its tables and its
// bytes as an export would write them.
func TestOpenMemory(t *testing.T) {
	t.Parallel()
	rel, err := OpenMemory(toyRelease("a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := rel.Table("data.csv")
	if err != nil || tab.Rows != 2 || tab.Name != "data.csv" || rel.Manifest.Files[0].Rows != 2 {
		t.Fatalf("%v %+v", err, tab)
	}
	if b, err := rel.Bytes("data.csv"); err != nil || string(b) != "v\na\nb\n" {
		t.Errorf("%q %v", b, err)
	}
	if again, _ := rel.Table("data.csv"); again != tab {
		t.Error("parsed twice")
	}
	var ie *model.InputError
	if _, err := rel.Table("x.csv"); !errors.As(err, &ie) {
		t.Errorf("%v", err)
	}
}

func jsonIndent(m *releasedir.Manifest) ([]byte, error) { return json.MarshalIndent(m, "", "  ") }
