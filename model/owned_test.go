package model

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestForceRefusesAnEditedRelease: --force replaces a release only as
// privlab wrote it; a report.md the user edited (or any listed file) is
// named and nothing is replaced (issue 32, item 12).
func TestForceRefusesAnEditedRelease(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	if _, err := WriteRelease(dir, testRelease(), WriteOptions{Audit: &Audit{}}); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.md")
	edited := readFile(t, report) + "\nmy notes\n"
	os.WriteFile(report, []byte(edited), 0o644)
	_, err := WriteRelease(dir, testRelease(), WriteOptions{Force: true, Audit: &Audit{}})
	var pe *ParamError
	want := "its file " + report + " was changed since privlab wrote it (its SHA-256 is not the one manifest.json records); refusing to replace the release, even when told to"
	if !errors.As(err, &pe) || pe.Param != "out" || pe.Reason != want {
		t.Fatalf("edited report.md: %v\nwant reason %q", err, want)
	}
	if readFile(t, report) != edited {
		t.Error("the edited report was replaced")
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
		t.Errorf("parent holds %v", got)
	}
	if got := Replaceable(dir); got != "report.md was changed since privlab wrote it" {
		t.Errorf("Replaceable: %q", got)
	}
	// A data file changed the same way is named too.
	os.WriteFile(report, []byte(edited[:len(edited)-len("\nmy notes\n")]), 0o644)
	os.WriteFile(filepath.Join(dir, "qi.csv"), []byte("age\n1\n"), 0o644)
	if got := Replaceable(dir); got != "qi.csv was changed since privlab wrote it" {
		t.Errorf("Replaceable after qi.csv changed: %q", got)
	}
}

// exportChild is set in the processes TestConcurrentForceProcesses
// starts: each writes one release with Force, and with a barrier waits at
// the "rename" stage until every export has looked at what is in place.
const exportChild = "PRIVLAB_TEST_EXPORT_CHILD"

func runExportChild() {
	dir, id, barrier := os.Getenv(exportChild), os.Getenv("PRIVLAB_TEST_ID"), os.Getenv("PRIVLAB_TEST_BARRIER")
	if barrier != "" {
		n, _ := strconv.Atoi(os.Getenv("PRIVLAB_TEST_N"))
		failpoint = func(s string) error {
			if s == "rename" {
				os.WriteFile(filepath.Join(barrier, id), nil, 0o644)
				for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
					if es, _ := os.ReadDir(barrier); len(es) >= n {
						break
					}
				}
			}
			return nil
		}
	}
	seed, _ := strconv.ParseUint(id, 10, 64)
	_, err := WriteRelease(dir, releaseOf(id), WriteOptions{Force: true, Audit: &Audit{Seed: seed}})
	switch {
	case err == nil:
		os.Exit(0)
	case errors.Is(err, ErrExists):
		fmt.Print(err)
		os.Exit(2)
	}
	fmt.Print(err)
	os.Exit(1)
}

// Issue 32, item 13: eight processes replacing one release at once
// (--force): the release in place always has its own audit record beside
// it, nothing else is left, and every export either wins or says that
// another won (ErrExists). With a barrier (every export has looked
// before any puts its release in place) exactly one wins.
func TestConcurrentForceProcesses(t *testing.T) {
	if os.Getenv(exportChild) != "" {
		runExportChild()
	}
	for trial := 0; trial < 12; trial++ {
		parent := t.TempDir()
		dir := filepath.Join(parent, "rel")
		if _, err := WriteRelease(dir, releaseOf("first"), WriteOptions{Audit: &Audit{Seed: 100}}); err != nil {
			t.Fatal(err)
		}
		const n = 8
		barrier := ""
		if trial%2 == 0 {
			barrier = t.TempDir()
		}
		cmds := make([]*exec.Cmd, n)
		outs := make([]bytes.Buffer, n)
		for i := range cmds {
			cmds[i] = exec.Command(os.Args[0], "-test.run=^TestConcurrentForceProcesses$")
			cmds[i].Env = append(os.Environ(), exportChild+"="+dir, "PRIVLAB_TEST_ID="+strconv.Itoa(i+1),
				"PRIVLAB_TEST_BARRIER="+barrier, "PRIVLAB_TEST_N="+strconv.Itoa(n))
			cmds[i].Stdout = &outs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		var winners []string
		for i, c := range cmds {
			err := c.Wait()
			var ee *exec.ExitError
			switch {
			case err == nil:
				winners = append(winners, strconv.Itoa(i+1))
			case errors.As(err, &ee) && ee.ExitCode() == 2:
				want := fmt.Sprintf("parameter out = %q: another export to it finished while this one ran and won: its release is in place, this one is not written", dir)
				if !strings.HasPrefix(outs[i].String(), want) {
					t.Fatalf("trial %d: export %d lost saying %q", trial, i+1, outs[i].String())
				}
			default:
				t.Fatalf("trial %d: export %d: %v %s", trial, i+1, err, outs[i].String())
			}
		}
		got := titleAt(t, dir)
		if len(winners) == 0 || !slices.Contains(winners, got) || barrier != "" && len(winners) != 1 {
			t.Fatalf("trial %d: winners %v, in place %q", trial, winners, got)
		}
		if !auditFits(t, dir) {
			t.Fatalf("trial %d: the release in place (%s) is beside another export's audit record", trial, got)
		}
		if a, _ := ReadAudit(AuditPath(dir)); a == nil || strconv.FormatUint(a.Seed, 10) != got {
			t.Fatalf("trial %d: the audit record is not the one of export %s", trial, got)
		}
		if names := entries(t, parent); !reflect.DeepEqual(names, []string{"rel", "rel.audit.json"}) {
			t.Fatalf("trial %d: parent holds %v", trial, names)
		}
	}
}

// Issue 32, item 11: what only looks like a killed export's leftover is
// never removed: a link to a marked directory, and files named like audit
// records that do not read as this release's.
func TestLeftoverLookalikesAreKept(t *testing.T) {
	parent := t.TempDir()
	outside := t.TempDir()
	link := filepath.Join(parent, ".rel.tmp-999999999-5")
	os.WriteFile(filepath.Join(outside, ownedMarker), []byte(markerText(link)), 0o600)
	os.WriteFile(filepath.Join(outside, "data.csv"), []byte("mine"), 0o644)
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	notes := []string{".rel.tmp-999999999-6.audit.json", ".rel.old-999999999-7.audit.json"}
	for _, n := range notes {
		os.WriteFile(filepath.Join(parent, n), []byte("my notes\n"), 0o644)
	}
	var warns []string
	dir := filepath.Join(parent, "rel")
	if _, err := WriteRelease(dir, testRelease(), WriteOptions{Warn: func(s string) { warns = append(warns, s) }}); err != nil {
		t.Fatal(err)
	}
	want := append([]string{".rel.tmp-999999999-5", "rel"}, notes...)
	slices.Sort(want)
	if got := entries(t, parent); !reflect.DeepEqual(got, want) {
		t.Fatalf("parent holds %v, want %v", got, want)
	}
	if readFile(t, filepath.Join(outside, "data.csv")) != "mine" {
		t.Fatal("the linked directory lost its contents")
	}
	for _, n := range notes {
		if readFile(t, filepath.Join(parent, n)) != "my notes\n" {
			t.Errorf("%s changed", n)
		}
	}
	slices.Sort(warns)
	wantWarns := []string{
		"left " + link + " alone: it is named like the temporary directory of an interrupted export, but privlab's marker is not in it; remove it yourself if it is not yours",
		"left " + filepath.Join(parent, notes[1]) + " alone: it is named like an audit record an interrupted export left, but it is not one of " + dir,
		"left " + filepath.Join(parent, notes[0]) + " alone: it is named like an audit record an interrupted export left, but it is not one of " + dir,
	}
	slices.Sort(wantWarns)
	if !reflect.DeepEqual(warns, wantWarns) {
		t.Fatalf("warnings %q\nwant %q", warns, wantWarns)
	}
}

// A --force export whose release was replaced by another export while it
// ran loses (ErrExists, saying the other won) and leaves the winner and
// its audit record alone; one whose release was removed meanwhile puts
// its own in place.
func TestForceLosesToAnExportThatFinishedMeanwhile(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	if _, err := WriteRelease(dir, releaseOf("first"), WriteOptions{Audit: &Audit{Seed: 1}}); err != nil {
		t.Fatal(err)
	}
	_, err := WriteRelease(dir, releaseOf("loser"), WriteOptions{Force: true, Audit: &Audit{Seed: 2}, Meanwhile: func(*Manifest) error {
		_, err := WriteRelease(dir, releaseOf("winner"), WriteOptions{Force: true, Audit: &Audit{Seed: 3}})
		return err
	}})
	var pe *ParamError
	if !errors.Is(err, ErrExists) || !errors.As(err, &pe) || pe.Reason != "another export to it finished while this one ran and won: its release is in place, this one is not written" {
		t.Fatalf("got %v", err)
	}
	if titleAt(t, dir) != "winner" || !auditFits(t, dir) {
		t.Fatal("the winner is not in place with its audit record")
	}
	if _, err := WriteRelease(dir, releaseOf("alone"), WriteOptions{Force: true, Audit: &Audit{Seed: 4}, Meanwhile: func(*Manifest) error {
		os.Remove(AuditPath(dir))
		return os.RemoveAll(dir)
	}}); err != nil {
		t.Fatalf("the release was removed meanwhile: %v", err)
	}
	if titleAt(t, dir) != "alone" || !auditFits(t, dir) {
		t.Fatal("the export is not in place with its audit record")
	}
	if names := entries(t, parent); !reflect.DeepEqual(names, []string{"rel", "rel.audit.json"}) {
		t.Fatalf("parent holds %v", names)
	}
}

// TestForceAfterABackgroundCheckStillRefusesAnEdit: a release checked
// replaceable in the background (StartReplaceCheck, while the run
// computes) and edited after that check is still not replaced: the write
// takes the check's verdict but hashes the files again, under the lock,
// before moving the release aside. Unedited, the check's verdict is
// taken and the release replaced.
func TestForceAfterABackgroundCheckStillRefusesAnEdit(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	if _, err := WriteRelease(dir, testRelease(), WriteOptions{Audit: &Audit{}}); err != nil {
		t.Fatal(err)
	}
	check := StartReplaceCheck(dir)
	abs, _ := filepath.Abs(dir)
	if !check.replaceableAsChecked(abs) {
		t.Fatal("a release as written was not found replaceable")
	}
	report := filepath.Join(dir, "report.md")
	edited := readFile(t, report) + "\nmy notes\n"
	os.WriteFile(report, []byte(edited), 0o644)
	_, err := WriteRelease(dir, testRelease(), WriteOptions{Force: true, Audit: &Audit{}, Replacing: check})
	var pe *ParamError
	want := "changed while the release was written: its file " + report + " was changed since privlab wrote it"
	if !errors.As(err, &pe) || pe.Param != "out" || !strings.HasPrefix(pe.Reason, want) {
		t.Fatalf("edited after the check: %v\nwant a reason starting %q", err, want)
	}
	if readFile(t, report) != edited {
		t.Error("the edited report was replaced")
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
		t.Errorf("parent holds %v", got)
	}
	// Checked after the edit, the verdict is not taken: the edit is named
	// before anything is written, as without the check.
	if StartReplaceCheck(dir).replaceableAsChecked(abs) {
		t.Fatal("an edited release was found replaceable")
	}
	os.WriteFile(report, []byte(edited[:len(edited)-len("\nmy notes\n")]), 0o644)
	if _, err := WriteRelease(dir, testRelease(), WriteOptions{Force: true, Audit: &Audit{}, Replacing: StartReplaceCheck(dir)}); err != nil {
		t.Fatalf("the restored release was not replaced: %v", err)
	}
}
