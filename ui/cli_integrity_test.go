package ui

// End-to-end tests of issue 25's exports that lose data (items 6, 7, 9)
// and inputs that blew up (item 11), driven through the privlab binary.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Item 6: the audit's command: --force on a directory that is not a
// release (a '{}' manifest beside a thesis) is refused with exit 2 and
// deletes nothing.
func TestCLIForceKeepsUnrelatedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := filepath.Join(dir, "d")
	os.Mkdir(d, 0o755)
	os.WriteFile(filepath.Join(d, "manifest.json"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join(d, "thesis.docx"), []byte("x\n"), 0o644)
	_, errs, code := cli(t, dir, append(figure2, "--out", "d", "--force", "--seed", "1")...)
	if code != 2 || !strings.Contains(errs, "exists and is not a privlab release") {
		t.Fatalf("exit %d, want 2 refusing to replace\n%s", code, errs)
	}
	if b, err := os.ReadFile(filepath.Join(d, "thesis.docx")); err != nil || string(b) != "x\n" {
		t.Fatalf("thesis.docx: %q %v", b, err)
	}
	if got := dirNames(t, dir); strings.Join(got, " ") != "d" {
		t.Fatalf("beside it: %v", got)
	}
}

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

// Item 7: exports racing to one --out (four processes, started
// together): exactly one exits 0, the others 2, and the release that
// remains passes check with its audit record.
func TestCLIConcurrentExportsOneWins(t *testing.T) {
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
				_, errs[i], codes[i] = cli(t, dir, "run", "--in", "dataset:census", "--rows", "3000", "--qi", "age,sex", "--sa", "capital-loss",
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
		out, e, code := cli(t, dir, "check", "r")
		if code != 0 || !strings.Contains(out, "ok   provenance") {
			t.Fatalf("check of the release that remains: exit %d\n%s\n%s", code, out, e)
		}
		if got := strings.Join(dirNames(t, dir), " "); got != "r r.audit.json" {
			t.Fatalf("trial %d: beside the release: %s", trial, got)
		}
	}
}

// Item 9: the first Ctrl-C during an export stops it: exit 130, no
// release and no temporary directory left (it was ignored until a second
// one). The time from the signal to the exit is logged.
func TestCLIInterruptDuringExport(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	t.Parallel()
	dir := t.TempDir()
	if _, errs, code := cli(t, dir, "gen", "census", "--rows", "300000", "--seed", "1", "--out", "c.csv"); code != 0 {
		t.Fatalf("gen: %s", errs)
	}
	for attempt := 0; attempt < 3; attempt++ {
		cmd := exec.Command(privlabBin, "run", "--in", "c.csv", "--qi", "age,sex,education", "--sa", "capital-loss", "--out", "r", "--seed", "1")
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		// Wait for the export's temporary directory, then interrupt.
		var err error
		seen := false
		for !seen {
			select {
			case err = <-exited:
				seen = true
				continue
			default:
			}
			for _, n := range dirNames(t, dir) {
				if strings.HasPrefix(n, ".r.tmp-") {
					seen = true
				}
			}
			if !seen {
				time.Sleep(time.Millisecond)
			}
		}
		if cmd.ProcessState != nil {
			t.Logf("attempt %d: the export finished before it could be interrupted (%v)", attempt, err)
			os.RemoveAll(filepath.Join(dir, "r"))
			os.Remove(filepath.Join(dir, "r.audit.json"))
			continue
		}
		sent := time.Now()
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case err = <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("still running 30 s after the first Ctrl-C")
		}
		t.Logf("exited %v after the first Ctrl-C", time.Since(sent).Round(time.Millisecond))
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "privlab: interrupted; nothing was written") {
			t.Fatalf("exit %v, want 130\n%s", err, stderr.String())
		}
		if got := strings.Join(dirNames(t, dir), " "); got != "c.csv" {
			t.Fatalf("left behind: %s", got)
		}
		return
	}
	t.Skip("the export was always over before the interrupt (a very fast machine)")
}

// Item 11: inputs that blew up end with a clear refusal (exit 2).
func TestCLIRefusesHugeNumbersAndUnboundedCells(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inf.csv"), []byte("age,sex,loss\n30,M,1e308\n40,F,-1e308\n35,M,5\n45,F,7\n50,M,1e308\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--in", "inf.csv", "--qi", "age,sex", "--sa", "loss", "--out", "r"}, "privlab: inf.csv:2: column 3 (loss): value 1e308 is beyond ±1e15"},
		{[]string{"run", "--in", "dataset:employees", "--qi", "zipcode", "--sa", "salary", "--max-cell", "-1", "--out", "r"}, `parameter max-cell = "-1": must be a number of bytes >= 1`},
		{[]string{"run", "--in", "dataset:employees", "--qi", "zipcode", "--sa", "salary", "--queries", "-1", "--out", "r"}, `parameter queries = "-1"`},
	} {
		_, errs, code := cli(t, dir, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d\n%s\nwant %s", c.args, code, errs, c.want)
		}
	}
	if got := strings.Join(dirNames(t, dir), " "); got != "inf.csv" {
		t.Fatalf("written: %s", got)
	}
}
