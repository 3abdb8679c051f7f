package releasedir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"privlab/model"
)

// testRelease has two small tables and a report.
func testRelease() *Release {
	qi := [][]string{{"1", "30-39", "F"}, {"2", "40-49", "M,X"}, {"1", "30-39", `say "hi"`}}
	sa := [][]string{{"1", "30000", "40000"}, {"2", "50000", "60000"}}
	return &Release{
		Files: []ReleaseFile{
			{Name: "qi.csv", Header: []string{"GroupID", "age", "sex"}, Rows: len(qi), Fill: func(i int, rec []string) { copy(rec, qi[i]) }},
			{Name: "sa.csv", Header: []string{"GroupID", "Low", "High"}, Rows: len(sa), Fill: func(i int, rec []string) { copy(rec, sa[i]) }},
		},
		Manifest: Manifest{Method: "distribution", Parameters: map[string]string{"fakes": "0"}, QIs: []string{"age", "sex"}, SA: "salary",
			RowsIn: 3, Published: 3, Groups: 2},
	}
}

const (
	wantQI = "GroupID,age,sex\n1,30-39,F\n2,40-49,\"M,X\"\n1,30-39,\"say \"\"hi\"\"\"\n"
	wantSA = "GroupID,Low,High\n1,30000,40000\n2,50000,60000\n"
)

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteRelease(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	var verifiedIn string
	m, err := Write(dir, testRelease(), WriteOptions{
		Verify: func(d string, _ *Manifest) ([]string, error) {
			verifiedIn = d
			// Verification reads the written files.
			if got := readFile(t, filepath.Join(d, "qi.csv")); got != wantQI {
				return nil, fmt.Errorf("qi.csv reads %q", got)
			}
			return []string{"posterior = target: ok"}, nil
		},
		Audit: &Audit{Input: "in.csv", Seed: 42, SeedFixed: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); !reflect.DeepEqual(got, []string{"manifest.json", "qi.csv", "report.md", "sa.csv"}) {
		t.Fatalf("release holds %v", got)
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
		t.Errorf("parent holds %v (temporary directories left over?)", got)
	}
	if filepath.Dir(filepath.Dir(verifiedIn)) != parent || filepath.Base(verifiedIn) != "release" {
		t.Errorf("verified in %s, want release/ in a temporary sibling of %s", verifiedIn, dir)
	}
	if readFile(t, filepath.Join(dir, "qi.csv")) != wantQI || readFile(t, filepath.Join(dir, "sa.csv")) != wantSA {
		t.Errorf("file contents differ")
	}
	// report.md is listed with its hash, so an edit of it is caught.
	wantFiles := []FileEntry{{Name: "qi.csv", Rows: 3, SHA256: sha(wantQI)}, {Name: "sa.csv", Rows: 2, SHA256: sha(wantSA)},
		{Name: "report.md", SHA256: sha(readFile(t, filepath.Join(dir, "report.md")))}}
	if !reflect.DeepEqual(m.Files, wantFiles) {
		t.Errorf("files %+v\nwant %+v", m.Files, wantFiles)
	}
	for _, f := range m.Files {
		if got, _ := FileSHA256(filepath.Join(dir, f.Name)); got != f.SHA256 {
			t.Errorf("%s: hash on disk %s, manifest %s", f.Name, got, f.SHA256)
		}
	}
	onDisk, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(onDisk, m) {
		t.Errorf("manifest on disk %+v\nreturned %+v", onDisk, m)
	}
	if m.Tool != "privlab" || m.Version != model.Version || !m.Verified || m.AcceptedBad ||
		!reflect.DeepEqual(m.Checks, []string{"posterior = target: ok"}) || m.Method != "distribution" {
		t.Errorf("manifest %+v", m)
	}
	if got := readFile(t, filepath.Join(dir, "report.md")); got != RenderReport(m) || !strings.Contains(got, "**passed**") {
		t.Errorf("report %q", got)
	}
	// Nothing private in the release: the seed and input are in the audit
	// record beside it.
	raw := readFile(t, filepath.Join(dir, "manifest.json"))
	if strings.Contains(raw, "in.csv") || strings.Contains(raw, "seed") {
		t.Errorf("manifest leaks private data: %s", raw)
	}
	if AuditPath(dir) != dir+".audit.json" || AuditPath(dir+"/") != dir+".audit.json" {
		t.Errorf("AuditPath %s", AuditPath(dir))
	}
	var a Audit
	if err := json.Unmarshal([]byte(readFile(t, AuditPath(dir))), &a); err != nil {
		t.Fatal(err)
	}
	if a.Input != "in.csv" || a.Seed != 42 || !a.SeedFixed || a.Release != dir {
		t.Errorf("audit %+v", a)
	}
}

func TestWriteReleaseRefusesToOverwrite(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("old"), 0o644)

	_, err := Write(dir, testRelease(), WriteOptions{})
	var pe *model.ParamError
	if !errors.Is(err, ErrExists) || !errors.As(err, &pe) || pe.Param != "out" || len(pe.Fixes) != 1 || pe.Fixes[0].Setting != model.SetForce {
		t.Fatalf("got %v, want ErrExists fixed by consent to replace it", err)
	}
	if got := entries(t, dir); !reflect.DeepEqual(got, []string{"keep.txt", "manifest.json"}) || readFile(t, filepath.Join(dir, "keep.txt")) != "old" {
		t.Errorf("existing directory changed: %v", got)
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel"}) {
		t.Errorf("parent holds %v", got)
	}

	// Even with Force, a directory whose manifest is not a release's, or
	// that holds a file its manifest does not list, is not replaced
	// (issue 25, item 6; TestForceReplacesOnlyReleases).
	if _, err := Write(dir, testRelease(), WriteOptions{Force: true}); err == nil || !strings.Contains(err.Error(), "not a privlab release") {
		t.Fatalf("a directory with keep.txt and {} as manifest: %v", err)
	}
	os.RemoveAll(dir)
	// With Force an earlier release is replaced.
	if _, err := Write(dir, testRelease(), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, testRelease(), WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, dir); !reflect.DeepEqual(got, []string{"manifest.json", "qi.csv", "report.md", "sa.csv"}) {
		t.Errorf("after force: %v", got)
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel"}) {
		t.Errorf("parent holds %v after force", got)
	}

	// A directory that is not a release is never replaced, even with Force.
	other := filepath.Join(parent, "photos")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "cat.jpg"), []byte("meow"), 0o644)
	_, err = Write(other, testRelease(), WriteOptions{Force: true})
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "not a privlab release") {
		t.Errorf("non-release directory: %v", err)
	}
	if got := entries(t, other); !reflect.DeepEqual(got, []string{"cat.jpg"}) {
		t.Errorf("non-release directory changed: %v", got)
	}
	// Nor is a file.
	file := filepath.Join(parent, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, force := range []bool{true, false} {
		if _, err := Write(file, testRelease(), WriteOptions{Force: force}); err == nil || !strings.Contains(err.Error(), "exists and is a file, not a release directory") {
			t.Errorf("file (force %v): %v", force, err)
		}
	}
	// An empty directory counts as a release to fill.
	empty := filepath.Join(parent, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := Write(empty, testRelease(), WriteOptions{}); !errors.Is(err, ErrExists) {
		t.Errorf("empty directory without force: %v", err)
	}
	if _, err := Write(empty, testRelease(), WriteOptions{Force: true}); err != nil {
		t.Errorf("empty directory with force: %v", err)
	}
}

func TestWriteReleaseProtectsInputs(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	if _, err := Write(dir, testRelease(), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	before := entries(t, dir)
	input := filepath.Join(dir, "data", "input.csv")
	for _, in := range []string{input, dir, AuditPath(dir)} {
		_, err := Write(dir, testRelease(), WriteOptions{Force: true, Inputs: []string{"dataset:census", "", in}})
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "out" || !strings.Contains(err.Error(), "input file "+in) {
			t.Errorf("input %s: got %v", in, err)
		}
	}
	if got := entries(t, dir); !reflect.DeepEqual(got, before) {
		t.Errorf("directory changed: %v", got)
	}
	// An input beside the release is fine.
	if _, err := Write(dir, testRelease(), WriteOptions{Force: true, Inputs: []string{filepath.Join(parent, "rel.csv")}}); err != nil {
		t.Errorf("input beside: %v", err)
	}
}

func TestWriteReleaseBadNames(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	for _, name := range []string{"", "../escape.csv", "sub/x.csv", "manifest.json", "report.md", ".", ".."} {
		rel := testRelease()
		rel.Files[1].Name = name
		if _, err := Write(dir, rel, WriteOptions{}); err == nil {
			t.Errorf("file name %q accepted", name)
		}
	}
	rel := testRelease()
	rel.Files[1].Name = rel.Files[0].Name
	if _, err := Write(dir, rel, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err := Write("", testRelease(), WriteOptions{}); err == nil {
		t.Errorf("empty directory name accepted")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a release was written")
	}
}

// A failure at any stage leaves no release and no temporary directory, and
// an earlier release stays as it was.
func TestWriteReleaseAtomic(t *testing.T) {
	defer func(f func(string) error) { failpoint = f }(failpoint)
	for _, stage := range []string{"file:qi.csv", "file:sa.csv", "verify", "rename"} {
		for _, previous := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s previous=%v", stage, previous), func(t *testing.T) {
				parent := t.TempDir()
				dir := filepath.Join(parent, "rel")
				var before string
				if previous {
					failpoint = func(string) error { return nil }
					old := testRelease()
					old.Manifest.Method = "old"
					if _, err := Write(dir, old, WriteOptions{}); err != nil {
						t.Fatal(err)
					}
					before = readFile(t, filepath.Join(dir, "manifest.json"))
				}
				reached := false
				failpoint = func(s string) error {
					if s == stage {
						reached = true
						return errors.New("simulated crash at " + s)
					}
					return nil
				}
				_, err := Write(dir, testRelease(), WriteOptions{Force: true, Audit: &Audit{Seed: 1}})
				if err == nil || !strings.Contains(err.Error(), "simulated crash at "+stage) || !reached {
					t.Fatalf("got %v, want the simulated crash", err)
				}
				want := []string{}
				if previous {
					want = []string{"rel"}
				}
				if got := entries(t, parent); !reflect.DeepEqual(append([]string{}, got...), want) {
					t.Errorf("parent holds %v, want %v", got, want)
				}
				if previous {
					if got := readFile(t, filepath.Join(dir, "manifest.json")); got != before {
						t.Errorf("the previous release changed")
					}
					if got := entries(t, dir); !reflect.DeepEqual(got, []string{"manifest.json", "qi.csv", "report.md", "sa.csv"}) {
						t.Errorf("previous release holds %v", got)
					}
				}
			})
		}
	}
}

func TestWriteReleaseVerification(t *testing.T) {
	bad := func(string, *Manifest) ([]string, error) {
		return []string{"group 2: posterior 0.5 > target 0.25"}, errors.New("1 group violates the target")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	_, err := Write(dir, testRelease(), WriteOptions{Verify: bad})
	var ve *VerifyError
	if !errors.As(err, &ve) || !reflect.DeepEqual(ve.Lines, []string{"group 2: posterior 0.5 > target 0.25"}) ||
		err.Error() != "release failed verification: 1 group violates the target" {
		t.Fatalf("got %v, want a verification error", err)
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Errorf("parent holds %v", got)
	}
	m, err := Write(dir, testRelease(), WriteOptions{Verify: bad, AcceptViolations: true})
	if err != nil {
		t.Fatal(err)
	}
	if !m.AcceptedBad || m.Verified || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "FAILED its own privacy verification") {
		t.Errorf("manifest %+v", m)
	}
	raw := readFile(t, filepath.Join(dir, "manifest.json"))
	if !strings.Contains(raw, `"accepted_violations": true`) || !strings.Contains(raw, `"verified": false`) {
		t.Errorf("manifest on disk does not say so:\n%s", raw)
	}
	// The report is the manifest's, rendered: it says the release failed
	// and that the user accepted it.
	got := readFile(t, filepath.Join(dir, "report.md"))
	onDisk, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got != RenderReport(onDisk) || !strings.Contains(got, "Independent verification from the published files: **FAILED**.") ||
		!strings.Contains(got, "- group 2: posterior 0.5 > target 0.25") || !strings.Contains(got, "**The user accepted a release that fails its privacy requirement.**") {
		t.Errorf("report %q", got)
	}
}

func TestWriteReleaseDeterministic(t *testing.T) {
	parent := t.TempDir()
	var hashes [][]FileEntry
	for i := 0; i < 2; i++ {
		m, err := Write(filepath.Join(parent, fmt.Sprint("r", i)), testRelease(), WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, m.Files)
	}
	if !reflect.DeepEqual(hashes[0], hashes[1]) {
		t.Errorf("two writes differ: %v %v", hashes[0], hashes[1])
	}
	a, b := readFile(t, filepath.Join(parent, "r0", "manifest.json")), readFile(t, filepath.Join(parent, "r1", "manifest.json"))
	if a != b {
		t.Errorf("manifests differ")
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "project.json")
	if err := WriteFileAtomic(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "two" {
		t.Errorf("content %q", got)
	}
	if got := entries(t, dir); !reflect.DeepEqual(got, []string{"project.json"}) {
		t.Errorf("dir holds %v", got)
	}
	if _, err := ReadManifest(dir); err == nil || !strings.Contains(err.Error(), "is this a privlab release directory") {
		t.Errorf("ReadManifest of a non-release: %v", err)
	}
}

func TestRand(t *testing.T) {
	a, b := model.NewRand(42), model.NewRand(42)
	pa, pb := a.Perm(20), b.Perm(20)
	if !reflect.DeepEqual(pa, pb) {
		t.Fatalf("same seed, different permutations")
	}
	seen := make([]bool, 20)
	for _, x := range pa {
		seen[x] = true
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("Perm misses %d: %v", i, pa)
		}
	}
	if reflect.DeepEqual(model.NewRand(43).Perm(20), pa) {
		t.Errorf("seeds 42 and 43 give the same permutation")
	}
	// The sequence is part of the release format (a fixed seed reproduces
	// a byte-identical release): pin it.
	if got := model.NewRand(1).Perm(10); !reflect.DeepEqual(got, pinnedPerm) {
		t.Errorf("NewRand(1).Perm(10) = %#v; the generator changed", got)
	}
	r := model.NewRand(7)
	counts := make([]int, 3)
	for i := 0; i < 30000; i++ {
		for _, n := range []int{1, 2, 7, 1 << 40} {
			if x := r.Intn(n); x < 0 || x >= n {
				t.Fatalf("Intn(%d) = %d", n, x)
			}
		}
		counts[r.Intn(3)]++
		if f := r.Float64(); f < 0 || f >= 1 {
			t.Fatalf("Float64 = %v", f)
		}
	}
	for i, c := range counts {
		if c < 9500 || c > 10500 {
			t.Errorf("Intn(3) gave %d %d times of 30000", i, c)
		}
	}
	sum, sq := 0.0, 0.0
	for i := 0; i < 20000; i++ {
		x := r.NormFloat64()
		sum += x
		sq += x * x
	}
	if mean, v := sum/20000, sq/20000; mean < -0.05 || mean > 0.05 || v < 0.95 || v > 1.05 {
		t.Errorf("normal draws: mean %v variance %v", mean, v)
	}
	s1, s2 := model.CryptoSeed(), model.CryptoSeed()
	if s1 == s2 {
		t.Errorf("CryptoSeed twice gave %d", s1)
	}
}

// pinnedPerm is NewRand(1).Perm(10) as released by privlab 0.1.0.
var pinnedPerm = []int{4, 3, 6, 2, 8, 7, 1, 9, 0, 5}

func TestWriteReleaseRemovesStaleTemporaries(t *testing.T) {
	parent := t.TempDir()
	// Left by a killed export (its process is gone, its marker inside):
	// removed, contents included. A running export's (this process):
	// kept. An earlier release another release's --force moved aside:
	// kept (never removed, TestReplaceRecoversAtEveryStep). Other dot
	// names: kept. Named like a killed export's but without the marker
	// (issue 32, item 11): kept whole, and named.
	dead := []string{".rel.tmp-999999999-123", ".other.tmp-999999999-5", ".rel.audit.tmp-999999999-7", ".rel.del-999999999-8"}
	unmarked := []string{".rel.tmp-999999999-1", ".rel.del-999999999-2", ".other.del-999999999-3"}
	if err := os.Mkdir(filepath.Join(parent, ".other.old-999999999-5"), 0o755); err != nil {
		t.Fatal(err)
	}
	alive := fmt.Sprintf(".rel.tmp-%d-9", os.Getpid())
	for _, n := range append(append(dead, unmarked...), alive, ".rel.tmp-x", ".keep") {
		if err := os.Mkdir(filepath.Join(parent, n), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(parent, n, "thesis.docx"), []byte("mine"), 0o644)
	}
	for _, n := range append(dead, alive) {
		if err := markOwned(filepath.Join(parent, n)); err != nil {
			t.Fatal(err)
		}
	}
	// A marker that names another directory (copied) does not count.
	os.WriteFile(filepath.Join(parent, unmarked[0], ownedMarker), []byte(markerText(dead[0])), 0o600)
	var warns []string
	if _, err := Write(filepath.Join(parent, "rel"), testRelease(), WriteOptions{Warn: func(s string) { warns = append(warns, s) }}); err != nil {
		t.Fatal(err)
	}
	got := entries(t, parent)
	want := append([]string{alive, ".keep", ".rel.tmp-x", "rel", ".other.old-999999999-5"}, unmarked...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parent holds %v, want %v", got, want)
	}
	for _, n := range append(unmarked, alive) {
		if readFile(t, filepath.Join(parent, n, "thesis.docx")) != "mine" {
			t.Errorf("%s lost its contents", n)
		}
	}
	sort.Strings(warns)
	if len(warns) != len(unmarked)+1 || !strings.HasPrefix(warns[3], "removed "+filepath.Join(parent, dead[3])+": ") {
		t.Fatalf("warnings %q, want one for each of %v and the removal of %s", warns, unmarked, dead[3])
	}
	for i, n := range []string{".other.del-999999999-3", ".rel.del-999999999-2", ".rel.tmp-999999999-1"} {
		if w := "left " + filepath.Join(parent, n) + " alone: it is named like the temporary directory of an interrupted export, but privlab's marker is not in it; remove it yourself if it is not yours"; warns[i] != w {
			t.Errorf("warning %q\nwant %q", warns[i], w)
		}
	}
}

// What Meanwhile measured (the export's risk figures) is in the manifest
// on disk and in report.md; what Verify adds to the draft it reads is
// not (the manifest is Meanwhile's). A *StopError from Verify stops the
// write even when violations are accepted, and leaves nothing behind.
func TestWriteReleaseVerifyMeasures(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	measure := func(tmp string, m *Manifest) ([]string, error) {
		if b, err := os.ReadFile(filepath.Join(tmp, "qi.csv")); err != nil || string(b) != wantQI {
			t.Errorf("Verify reads qi.csv as %q (%v)", b, err)
		}
		m.RiskSummary = "stated by the check"
		return []string{"ok   files: 2 files match their SHA-256"}, nil
	}
	meanwhile := func(m *Manifest) error {
		m.Risk = []Figure{{Name: "records at risk", Value: 3, OK: true}}
		return nil
	}
	m, err := Write(dir, testRelease(), WriteOptions{Verify: measure, Meanwhile: meanwhile})
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Risk) != 1 || len(onDisk.Risk) != 1 || onDisk.Risk[0].Value != 3 || !onDisk.Verified || onDisk.RiskSummary != "" {
		t.Fatalf("manifest %+v, on disk %+v", m, onDisk)
	}
	if got := readFile(t, filepath.Join(dir, "report.md")); got != RenderReport(onDisk) || !strings.Contains(got, "records at risk") {
		t.Errorf("report %q", got)
	}
	stop := func(string, *Manifest) ([]string, error) {
		return nil, &StopError{Err: errors.New("the release cannot be measured")}
	}
	dir2 := filepath.Join(parent, "rel2")
	if _, err := Write(dir2, testRelease(), WriteOptions{Verify: stop, AcceptViolations: true}); err == nil || err.Error() != "the release cannot be measured" {
		t.Fatalf("got %v, want the stop", err)
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel"}) {
		t.Errorf("parent holds %v", got)
	}
}
