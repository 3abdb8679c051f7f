package cli

// Command-line tests that need Go around the binary: processes racing to
// one release, a Ctrl-C in the middle of an export, files rewritten with
// their SHA-256, and every method's declared defaults read back from
// help and run. The binary is the test binary, installed in PATH as
// privlab by TestMain.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"privlab/algorithms/catalog"
	"privlab/model"
)

// privlab runs the binary in dir and returns stdout, stderr and the exit
// code; a stack trace on stderr fails the test.
func privlab(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("privlab", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return outcome(t, args, cmd.Run(), &out, &errb)
}

// outcome is a finished run's stdout, stderr and exit code; a stack trace
// on stderr, or a run that could not start, fails the test.
func outcome(t *testing.T, args []string, err error, out, errb *bytes.Buffer) (string, string, int) {
	t.Helper()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errb.String(), "goroutine ") || strings.Contains(errb.String(), "panic:") {
		t.Fatalf("privlab %v printed a stack trace:\n%s", args, errb.String())
	}
	return out.String(), errb.String(), code
}

// dirNames lists a directory, hidden names too.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// Exports racing to one --out (four processes, started together):
// exactly one exits 0, the others 2, and the release that remains passes
// check with its audit record.
func TestConcurrentExportsOneWins(t *testing.T) {
	t.Parallel()
	for trial := 0; trial < 2; trial++ {
		dir := t.TempDir()
		codes := make([]int, 4)
		errs := make([]string, 4)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				_, errs[i], codes[i] = privlab(t, dir, "run", "--in", "dataset:census", "--rows", "3000", "--qi", "age,sex", "--sa", "capital-loss",
					"--out", "r", "--seed", "1")
			}(i)
		}
		wg.Wait()
		wins := 0
		for i, c := range codes {
			switch {
			case c == 0:
				wins++
			case c != 2 || !strings.Contains(errs[i], "r"):
				t.Fatalf("export %d: exit %d\n%s", i, c, errs[i])
			}
		}
		if wins != 1 {
			t.Fatalf("trial %d: %d exports exited 0 (%v)", trial, wins, codes)
		}
		out, e, code := privlab(t, dir, "check", "r")
		if code != 0 || !strings.Contains(out, "ok   provenance") {
			t.Fatalf("check of the release that remains: exit %d\n%s\n%s", code, out, e)
		}
		if got := strings.Join(dirNames(t, dir), " "); got != "r r.audit.json" {
			t.Fatalf("trial %d: beside the release: %s", trial, got)
		}
	}
}

// The first Ctrl-C during an export stops it: exit 130, no release and no
// temporary directory left (it was ignored until a second one). The time
// from the signal to the exit is logged.
func TestInterruptDuringExport(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	t.Parallel()
	dir := t.TempDir()
	if _, errs, code := privlab(t, dir, "gen", "census", "--rows", "300000", "--seed", "1", "--out", "c.csv"); code != 0 {
		t.Fatalf("gen: %s", errs)
	}
	for attempt := 0; attempt < 3; attempt++ {
		if interrupted(t, dir, attempt) {
			return
		}
	}
	t.Skip("the export was always over before the interrupt (a very fast machine)")
}

// interrupted starts an export, sends SIGINT once its temporary directory
// appears and checks how it ended; false when the export finished first.
func interrupted(t *testing.T, dir string, attempt int) bool {
	cmd := exec.Command("privlab", "run", "--in", "c.csv", "--qi", "age,sex,education", "--sa", "capital-loss", "--out", "r", "--seed", "1")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	for seen := false; !seen; {
		select {
		case err = <-exited:
			t.Logf("attempt %d: the export finished before it could be interrupted (%v)", attempt, err)
			os.RemoveAll(filepath.Join(dir, "r"))
			os.Remove(filepath.Join(dir, "r.audit.json"))
			return false
		default:
		}
		for _, n := range dirNames(t, dir) {
			seen = seen || strings.HasPrefix(n, ".r.tmp-")
		}
		if !seen {
			time.Sleep(time.Millisecond)
		}
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 30 s after the first Ctrl-C")
	}
	t.Logf("exited %v after the first Ctrl-C", time.Since(sent).Round(time.Millisecond))
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "privlab: interrupted; nothing was written") {
		t.Fatalf("exit %v, want 130\n%s", err, stderr.String())
	}
	if got := strings.Join(dirNames(t, dir), " "); got != "c.csv" {
		t.Fatalf("left behind: %s", got)
	}
	return true
}

// A release of one file says "1 file matches its SHA-256", and check
// still accepts a release written before counts were put in the singular
// ("1 files match their SHA-256" in its manifest and report).
func TestOneFileMatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errs, code := privlab(t, dir, "run", "--in", "dataset:census", "--rows", "2000", "--method", "sampling", "--seed", "1", "--out", "rel")
	if code != 0 || !strings.Contains(out, "release    rel (published.csv ") || !strings.Contains(out, ", report.md)") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	man, _ := os.ReadFile(filepath.Join(dir, "rel", "manifest.json"))
	report, _ := os.ReadFile(filepath.Join(dir, "rel", "report.md"))
	const now, before = "1 file matches its SHA-256", "1 files match their SHA-256"
	if !strings.Contains(string(man), now) || !strings.Contains(string(report), now) {
		t.Fatalf("the manifest and report do not say %q", now)
	}
	// The same release as an earlier version wrote it.
	oldReport := strings.ReplaceAll(string(report), now, before)
	sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
	oldMan := strings.ReplaceAll(string(man), now, before)
	oldMan = strings.ReplaceAll(oldMan, sum(report), sum([]byte(oldReport)))
	for name, text := range map[string]string{"manifest.json": oldMan, "report.md": oldReport} {
		if err := os.WriteFile(filepath.Join(dir, "rel", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The audit record binds the manifest as exported; the earlier
	// wording is a file-level question, so check the files alone.
	if err := os.Remove(filepath.Join(dir, "rel.audit.json")); err != nil {
		t.Fatal(err)
	}
	if out, errs, code := privlab(t, dir, "check", "rel"); code != 0 {
		t.Fatalf("check refuses the earlier wording: exit %d\n%s\n%s", code, out, errs)
	}
}

// helpDefaults reads each method's parameter defaults from privlab help:
// "  --NAME   help (default VALUE; range)".
func helpDefaults(t *testing.T, dir string) map[string]map[string]string {
	out, _, code := privlab(t, dir, "help")
	if code != 0 {
		t.Fatalf("privlab help: exit %d", code)
	}
	method := regexp.MustCompile(`^method (\S+) — `)
	param := regexp.MustCompile(`^  --(\S+)\s.*\(default ([^;)]*)`)
	got := map[string]map[string]string{}
	cur := ""
	for _, l := range strings.Split(out, "\n") {
		if m := method.FindStringSubmatch(l); m != nil {
			cur = m[1]
			got[cur] = map[string]string{}
		} else if m := param.FindStringSubmatch(l); m != nil && cur != "" {
			got[cur][m[1]] = m[2]
		}
	}
	return got
}

// runValues reads the values privlab run used from its "method" line:
// "method     NAME  a=1 b=2".
func runValues(t *testing.T, dir, name string) model.Values {
	args := []string{"run", "--in", "c.csv", "--qi", "age,sex,education", "--sa", "occupation", "--method", name, "--out", "rel-" + name, "--accept-violations"}
	if name == "kja" {
		args = append(args, "--variant", "mondrian") // no public table: the plain variant
	}
	out, errs, _ := privlab(t, dir, args...)
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "method" && f[1] == name {
			v := model.Values{}
			for _, kv := range f[2:] {
				k, val, _ := strings.Cut(kv, "=")
				v[k] = val
			}
			return v
		}
	}
	t.Fatalf("privlab run --method %s printed no method line:\n%s\n%s", name, out, errs)
	return nil
}

// TestHelpAndRunStartAtTheDeclaredDefaults: every parameter of every
// method starts at the value its method declares in privlab help and
// privlab run (ui's TestOneDefaultPerParameter holds the workbench and
// the comparison to the same declaration).
func TestHelpAndRunStartAtTheDeclaredDefaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	help := helpDefaults(t, dir)
	// A file, not dataset:census: a dataset brings settings of its own.
	if _, errs, code := privlab(t, dir, "gen", "census", "--rows", "500", "--seed", "1", "--out", "c.csv"); code != 0 {
		t.Fatal(errs)
	}
	for _, m := range catalog.All() {
		spec := m.Spec()
		run := runValues(t, dir, spec.Name)
		for _, p := range spec.Params {
			for where, v := range map[string]string{"help": help[spec.Name][p.Name], "run": run[p.Name]} {
				if v != p.Default {
					t.Errorf("%s %s: %s starts at %q, the declaration at %q", spec.Name, p.Name, where, v, p.Default)
				}
			}
		}
	}
}
