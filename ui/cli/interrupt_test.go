package cli

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A Ctrl-C ends any command within a second, at any moment: while a
// database view that would take minutes is read (inspect, and run in its
// first moments, before it writes anything), with exit code 130, the
// message, and nothing left behind, in the directory or in TMPDIR. (It
// was ignored while such a view was read, and a SIGINT in the first
// moments of run killed it without a word.)
func TestInterruptWhileLoading(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	t.Parallel()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(dir, "slow.db"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE VIEW slow AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 4000000000) SELECT count(*) AS a FROM n`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"inspect", "slow.db:slow"},
		{"run", "--in", "slow.db:slow", "--method", "sampling", "--out", "r"},
	} {
		tmp := t.TempDir()
		cmd := exec.Command("privlab", args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "TMPDIR="+tmp)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		sent := time.Now()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err = <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: still running 10 s after Ctrl-C", args)
		}
		took := time.Since(sent)
		t.Logf("%v: exited %v after Ctrl-C", args, took.Round(time.Millisecond))
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 || stderr.String() != "privlab: interrupted; nothing was written\n" {
			t.Fatalf("%v: exit %v, want 130\n%s", args, err, stderr.String())
		}
		if took > 2*time.Second {
			t.Errorf("%v: exited %v after Ctrl-C", args, took)
		}
		if got := strings.Join(dirNames(t, dir), " ") + "|" + strings.Join(dirNames(t, tmp), " "); got != "slow.db|" {
			t.Fatalf("%v: left behind: %s", args, got)
		}
	}
}
