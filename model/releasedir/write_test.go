package releasedir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"privlab/model"
)

// releaseOf returns testRelease labelled by its title, so that tests can
// tell releases apart.
func releaseOf(title string) *Release {
	r := testRelease()
	r.Manifest.Title = title
	return r
}

// titleAt reads the title of the release in dir ("" when there is none).
func titleAt(t *testing.T, dir string) string {
	t.Helper()
	m, err := ReadManifest(dir)
	if err != nil {
		return ""
	}
	// Every file it lists is there with its hash.
	for _, f := range m.Files {
		if sum, err := FileSHA256(filepath.Join(dir, f.Name)); err != nil || sum != f.SHA256 {
			t.Fatalf("%s: %s is missing or changed", dir, f.Name)
		}
	}
	return m.Title
}

// auditFits reports whether the audit record beside dir holds the
// digest of its manifest.
func auditFits(t *testing.T, dir string) bool {
	t.Helper()
	a, err := ReadAudit(AuditPath(dir))
	if err != nil {
		return false
	}
	sum, _ := digestOf(dir)
	return a.ManifestDigest == sum
}

// Issue 25, item 6: --force replaces only an empty directory or a privlab
// release holding nothing but its listed files; anything else is refused
// (exit 2: a *ParamError) and left exactly as it was.
func TestForceReplacesOnlyReleases(t *testing.T) {
	parent := t.TempDir()
	for _, c := range []struct {
		name  string
		setup func(dir string)
		why   string
	}{
		{"the audit's thesis", func(dir string) {
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}"), 0o644)
			os.WriteFile(filepath.Join(dir, "thesis.docx"), []byte("x"), 0o644)
		}, "its manifest.json is not one privlab wrote"},
		{"a release with an extra file", func(dir string) {
			os.Remove(dir)
			Write(dir, releaseOf("old"), WriteOptions{})
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
		}, "it holds notes.txt, which its manifest does not list"},
		{"a release with a directory", func(dir string) {
			os.Remove(dir)
			Write(dir, releaseOf("old"), WriteOptions{})
			os.Mkdir(filepath.Join(dir, "photos"), 0o755)
		}, "it holds photos"},
		{"a manifest that does not read", func(dir string) {
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"tool": "privlab", "Tool": "x"}`), 0o644)
		}, "does not read as a release's"},
		{"another tool's manifest", func(dir string) {
			os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"tool": "other", "method": "m", "files": [{"name": "a.csv"}]}`), 0o644)
			os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x"), 0o644)
		}, "not one privlab wrote"},
		{"no manifest", func(dir string) { os.WriteFile(filepath.Join(dir, "cat.jpg"), []byte("meow"), 0o644) }, "does not read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(parent, strings.ReplaceAll(c.name, " ", "-"))
			os.Mkdir(dir, 0o755)
			c.setup(dir)
			before := snapshot(t, parent)
			_, err := Write(dir, releaseOf("new"), WriteOptions{Force: true, Audit: &Audit{Seed: 1}})
			var pe *model.ParamError
			if !errors.As(err, &pe) || pe.Param != "out" || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "refusing to replace it") {
				t.Fatalf("got %v, want a refusal naming %q", err, c.why)
			}
			if after := snapshot(t, parent); !reflect.DeepEqual(after, before) {
				t.Errorf("something changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
	// A release holding only its files is replaced, and so is an empty
	// directory.
	dir := filepath.Join(parent, "rel")
	Write(dir, releaseOf("old"), WriteOptions{})
	if _, err := Write(dir, releaseOf("new"), WriteOptions{Force: true}); err != nil || titleAt(t, dir) != "new" {
		t.Fatalf("replacing a release: %v", err)
	}
	empty := filepath.Join(parent, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := Write(empty, releaseOf("new"), WriteOptions{Force: true}); err != nil {
		t.Fatalf("an empty directory: %v", err)
	}
}

// snapshot maps every path under dir to its content ("<dir>" for a
// directory).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[p] = "<dir>"
		} else {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

// Issue 25, item 7: of exports racing to one new directory exactly one
// writes it; the others fail with ErrExists (exit 2) and leave nothing.
func TestConcurrentWritesOneWins(t *testing.T) {
	for trial := 0; trial < 3; trial++ {
		parent := t.TempDir()
		dir := filepath.Join(parent, "rel")
		const n = 6
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				_, errs[i] = Write(dir, releaseOf(fmt.Sprint(i)), WriteOptions{Audit: &Audit{Seed: uint64(i)}})
			}(i)
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("trial %d: exports %d and %d both wrote %s", trial, winner, i, dir)
			case err == nil:
				winner = i
			case !errors.Is(err, ErrExists):
				t.Fatalf("trial %d: export %d: %v, want ErrExists", trial, i, err)
			}
		}
		if winner < 0 || titleAt(t, dir) != fmt.Sprint(winner) || !auditFits(t, dir) {
			t.Fatalf("trial %d: the release in place is not the winner's (%d) with its audit record", trial, winner)
		}
		if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
			t.Fatalf("trial %d: parent holds %v", trial, got)
		}
	}
}

// renameNoReplace never replaces, not even an empty directory.
func TestRenameNoReplace(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	os.Mkdir(a, 0o755)
	os.WriteFile(filepath.Join(a, "f"), []byte("a"), 0o644)
	os.Mkdir(b, 0o755)
	if err := renameNoReplace(a, b); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("over an empty directory: %v", err)
	}
	if readFile(t, filepath.Join(a, "f")) != "a" {
		t.Fatal("the source changed")
	}
	os.Remove(b)
	if err := renameNoReplace(a, b); err != nil || readFile(t, filepath.Join(b, "f")) != "a" {
		t.Fatalf("to a new name: %v", err)
	}
}

// deadOwner makes the temporary names of this test's writes name a
// process that is gone, as a killed export's do.
func deadOwner(t *testing.T) {
	old := ownerPID
	ownerPID = 999999999
	t.Cleanup(func() { ownerPID = old })
}

func crashAt(t *testing.T, stage string) {
	old := failpoint
	failpoint = func(s string) error {
		if s == stage {
			return fmt.Errorf("%w at %s", errCrash, s)
		}
		return nil
	}
	t.Cleanup(func() { failpoint = old })
}

// Issue 25, item 8: a --force replacement killed at any step loses
// nothing. The earlier release stays until the new one is in place, never
// beside the other's audit record; the next write to the directory puts
// the earlier release back or names it, and puts an audit record left
// behind in place.
func TestReplaceRecoversAtEveryStep(t *testing.T) {
	for _, c := range []struct {
		stage string
		// after the crash, then after the next write: which release is in
		// place and the warnings the next write gives
		inPlace, next string
		warn          []string
		oldKept       bool
	}{
		{"rename", "old", "old", nil, false},
		{"aside", "", "old", []string{"restored"}, false},
		{"aside-audit", "", "old", []string{"restored"}, false},
		{"placed", "new", "new", []string{"kept", "wrote"}, true},
		{"audit", "new", "new", []string{"kept"}, true},
		{"delete", "new", "new", []string{"removed"}, false},
		{"delete-audit", "new", "new", []string{"removed", "removed"}, false},
	} {
		t.Run(c.stage, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "rel")
			if _, err := Write(dir, releaseOf("old"), WriteOptions{Audit: &Audit{Seed: 1}}); err != nil {
				t.Fatal(err)
			}
			oldManifest := readFile(t, filepath.Join(dir, "manifest.json"))
			deadOwner(t)
			crashAt(t, c.stage)
			_, err := Write(dir, releaseOf("new"), WriteOptions{Force: true, Audit: &Audit{Seed: 2}})
			if !errors.Is(err, errCrash) {
				t.Fatalf("got %v, want the simulated crash", err)
			}
			if got := titleAt(t, dir); got != c.inPlace {
				t.Fatalf("after the crash %q is in place, want %q", got, c.inPlace)
			}
			if _, err := os.Stat(AuditPath(dir)); err == nil && c.inPlace != "" && !auditFits(t, dir) {
				t.Fatalf("after the crash the release in place is beside another release's audit record")
			}
			// The next write to the directory (without --force: refused,
			// after it has dealt with what the crash left).
			failpoint = func(string) error { return nil }
			var warns []string
			_, err = Write(dir, releaseOf("third"), WriteOptions{Warn: func(s string) { warns = append(warns, s) }})
			if !errors.Is(err, ErrExists) {
				t.Fatalf("next write: %v", err)
			}
			if got := titleAt(t, dir); got != c.next || !auditFits(t, dir) {
				t.Fatalf("after the next write %q is in place (audit fits: %v), want %q with its audit record", got, auditFits(t, dir), c.next)
			}
			if len(warns) != len(c.warn) {
				t.Fatalf("warnings %q, want %d (%v)", warns, len(c.warn), c.warn)
			}
			for i, w := range c.warn {
				if !strings.HasPrefix(warns[i], w) {
					t.Errorf("warning %q, want %s ...", warns[i], w)
				}
			}
			// The earlier release is in place or kept beside, whole.
			var keptAt []string
			for _, e := range entries(t, parent) {
				if strings.HasPrefix(e, ".rel.old-") && !strings.HasSuffix(e, ".audit.json") {
					keptAt = append(keptAt, filepath.Join(parent, e))
				}
			}
			if c.oldKept != (len(keptAt) == 1) || c.next == "old" && readFile(t, filepath.Join(dir, "manifest.json")) != oldManifest {
				t.Fatalf("the earlier release: kept at %v, in place: %v", keptAt, c.next == "old")
			}
			if c.oldKept && (titleAt(t, keptAt[0]) != "old" || !auditFits(t, keptAt[0]) || !strings.Contains(strings.Join(warns, " "), keptAt[0])) {
				t.Fatalf("the earlier release kept at %s is not whole with its audit record, or not named: %q", keptAt[0], warns)
			}
			// Nothing else is left: no temporary directory or record.
			for _, e := range entries(t, parent) {
				if e != "rel" && e != "rel.audit.json" && !strings.HasPrefix(e, ".rel.old-") {
					t.Errorf("left behind: %s", e)
				}
			}
		})
	}
}

// A failure (not a crash) while the earlier release is moved aside puts
// it back with its audit record; nothing is left.
func TestReplaceFailureRestores(t *testing.T) {
	defer func(f func(string) error) { failpoint = f }(failpoint)
	for _, stage := range []string{"rename", "aside", "aside-audit"} {
		t.Run(stage, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "rel")
			Write(dir, releaseOf("old"), WriteOptions{Audit: &Audit{Seed: 1}})
			failpoint = func(s string) error {
				if s == stage {
					return errors.New("disk on fire")
				}
				return nil
			}
			if _, err := Write(dir, releaseOf("new"), WriteOptions{Force: true, Audit: &Audit{Seed: 2}}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
				t.Fatalf("got %v", err)
			}
			failpoint = func(string) error { return nil }
			if titleAt(t, dir) != "old" || !auditFits(t, dir) {
				t.Fatalf("the earlier release is not back with its audit record")
			}
			if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
				t.Fatalf("parent holds %v", got)
			}
		})
	}
}

// A cancelled write (an interrupt) stops within a few thousand rows and
// leaves nothing; an earlier release is untouched.
func TestWriteReleaseCancelled(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	Write(dir, releaseOf("old"), WriteOptions{Audit: &Audit{Seed: 1}})
	ctx, cancel := context.WithCancel(context.Background())
	filled := 0
	rel := releaseOf("new")
	rel.Files[0].Rows = 1_000_000
	rel.Files[0].Fill = func(i int, rec []string) {
		if filled++; filled == 10 {
			cancel()
		}
		copy(rec, []string{"1", "30-39", "F"})
	}
	_, err := Write(dir, rel, WriteOptions{Force: true, Context: ctx, Audit: &Audit{Seed: 2}})
	if !errors.Is(err, context.Canceled) || filled > 4096 {
		t.Fatalf("got %v after %d rows, want context.Canceled within 4096", err, filled)
	}
	if titleAt(t, dir) != "old" || !auditFits(t, dir) {
		t.Fatal("the earlier release changed")
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
		t.Fatalf("parent holds %v", got)
	}
}

// AbortWrites removes the temporary directory of a write under way (the
// process exits next) and makes later writes fail.
func TestAbortWrites(t *testing.T) {
	defer func() { inflight.Lock(); inflight.aborted = false; inflight.Unlock() }()
	inflight.Lock()
	inflight.placed = nil // what earlier tests wrote
	inflight.Unlock()
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	rel := releaseOf("new")
	inFill, release := make(chan struct{}), make(chan struct{})
	rel.Files[0].Fill = func(i int, rec []string) {
		if i == 0 {
			close(inFill)
			<-release
		}
		copy(rec, []string{"1", "30-39", "F"})
	}
	done := make(chan error)
	go func() {
		_, err := Write(dir, rel, WriteOptions{Audit: &Audit{Seed: 2}})
		done <- err
	}()
	<-inFill
	removed, placed := AbortWrites()
	if len(removed) != 1 || len(placed) != 0 || !strings.HasPrefix(filepath.Base(removed[0]), ".rel.tmp-") {
		t.Fatalf("removed %v", removed)
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Fatalf("parent holds %v after the abort", got)
	}
	close(release)
	if err := <-done; err == nil {
		t.Fatal("the aborted write succeeded")
	}
	if _, err := Write(dir, releaseOf("later"), WriteOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a write after the abort: %v", err)
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Fatalf("parent holds %v", got)
	}
}

// Issue 25, item 11: a figure that is not a finite number stops the
// export naming it, instead of "json: unsupported value: +Inf".
func TestWriteReleaseNamesNonFiniteFigures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	rel := releaseOf("x")
	rel.Manifest.WorkloadError = &WorkloadError{Shape: "avg-range", Queries: 100, Mean: math.Inf(1)}
	if _, err := Write(dir, rel, WriteOptions{}); err == nil || !strings.Contains(err.Error(), "workload_error.mean = +Inf") {
		t.Fatalf("got %v", err)
	}
	rel = releaseOf("x")
	rel.Manifest.Risk = []Figure{{Name: "ok"}, {Name: "loss", Value: math.NaN()}}
	if _, err := Write(dir, rel, WriteOptions{}); err == nil || !strings.Contains(err.Error(), `risk "loss".value = NaN`) {
		t.Fatalf("got %v", err)
	}
	// A method's details are encoded before the manifest is written
	// (EncodeDetails), with the same message.
	if _, err := EncodeDetails(map[string]any{"sum": []float64{1, math.Inf(-1)}}); err == nil || !strings.Contains(err.Error(), "details.sum[1] = -Inf") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("a release was written")
	}
}

// WriteOptions.Meanwhile runs while the data files are written, and
// with VerifyMeanwhile while they are checked: Verify starts before it
// ends and reads the draft manifest, without what Meanwhile adds; what it
// adds is in the manifest written; its error stops the write and leaves
// nothing behind; its panic is raised again by Write, after the files
// were written, and leaves nothing behind either.
func TestWriteReleaseMeanwhile(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	var seen string
	checking := make(chan struct{})
	m, err := Write(dir, releaseOf("x"), WriteOptions{
		VerifyMeanwhile: true,
		Meanwhile: func(m *Manifest) error {
			select {
			case <-checking:
			case <-time.After(time.Minute):
				return errors.New("Verify did not start while Meanwhile ran")
			}
			m.RiskSummary = "measured meanwhile"
			return nil
		},
		Verify: func(tmp string, m *Manifest) ([]string, error) {
			close(checking)
			read, err := ReadManifest(tmp)
			if err != nil {
				return nil, err
			}
			seen = read.RiskSummary
			return nil, nil
		},
	})
	if err != nil || m.RiskSummary != "measured meanwhile" || seen != "" {
		t.Fatalf("the manifest states %q, the check read %q (%v)", m.RiskSummary, seen, err)
	}
	if read, err := ReadManifest(dir); err != nil || read.RiskSummary != m.RiskSummary {
		t.Fatalf("written: %v, %v", read, err)
	}
	// Without VerifyMeanwhile the checks start once Meanwhile has ended
	// (what it held let go first), and still read the draft.
	ended := false
	if _, err := Write(filepath.Join(t.TempDir(), "apart"), releaseOf("z"), WriteOptions{
		Meanwhile: func(m *Manifest) error {
			m.RiskSummary = "measured first"
			ended = true
			return nil
		},
		Verify: func(tmp string, m *Manifest) ([]string, error) {
			read, err := ReadManifest(tmp)
			if !ended || err != nil || read.RiskSummary != "" {
				t.Errorf("Verify began before Meanwhile ended (%v) or read %v, %v", !ended, read, err)
			}
			return nil, nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("cannot measure")
	bad := filepath.Join(parent, "bad")
	if _, err := Write(bad, releaseOf("y"), WriteOptions{Meanwhile: func(*Manifest) error { return stop }}); !errors.Is(err, stop) {
		t.Fatalf("got %v, want the Meanwhile error", err)
	}
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the panic raised again", r)
			}
		}()
		Write(bad, releaseOf("z"), WriteOptions{Meanwhile: func(*Manifest) error { panic("boom") }})
	}()
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 { // rel (no audit record was asked for)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("a stopped write left %v behind", names)
	}
}

// Directories tracked beside a release (a partitioned run's staging) are
// removed by AbortWrites, with any release placed inside them, which is
// then not named as placed; Place refuses once writes were aborted.
func TestAbortWritesRemovesTracked(t *testing.T) {
	defer func() { inflight.Lock(); inflight.aborted = false; inflight.Unlock() }()
	inflight.Lock()
	inflight.placed = nil // what earlier tests wrote
	inflight.Unlock()
	parent := t.TempDir()
	staging := filepath.Join(parent, ".rel.partitioned-1")
	if err := os.MkdirAll(filepath.Join(staging, "part-00000"), 0o755); err != nil {
		t.Fatal(err)
	}
	tr, err := Track(staging)
	if err != nil {
		t.Fatal(err)
	}
	inflight.Lock()
	inflight.placed = append(inflight.placed, filepath.Join(staging, "part-00000"))
	inflight.Unlock()
	removed, placed := AbortWrites()
	if !reflect.DeepEqual(removed, []string{staging}) || len(placed) != 0 {
		t.Fatalf("removed %v, placed %v", removed, placed)
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Fatalf("parent holds %v", got)
	}
	if err := tr.Place(filepath.Join(parent, "rel"), func() error { t.Fatal("put ran after the abort"); return nil }); err == nil {
		t.Fatal("Place after AbortWrites succeeded")
	}
}
