package partitioned

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/releasedir"
)

// An interrupt that does not wait for a partitioned run (the command
// line's second Ctrl-C, or a step that does not look at the context for
// half a second) removes the run's staging directories before the
// process exits: the release, its audit records and the partitions' rows
// beside --out (they were left behind as .rel.partitioned-N, .rel.audit-N
// and .rel.work-N). AbortWrites marks the process for good, so the
// staging is made in a child process.
func TestAbortWritesRemovesStaging(t *testing.T) {
	if parent := os.Getenv("PRIVLAB_STAGING_CHILD"); parent != "" {
		st, err := newStaging(filepath.Join(parent, "rel"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(st.work, "part-00000.csv"), []byte("a\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		releasedir.AbortWrites()
		os.Exit(0) // as the interrupt does: no deferred cleanup runs
	}
	parent := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestAbortWritesRemovesStaging$")
	cmd.Env = append(os.Environ(), "PRIVLAB_STAGING_CHILD="+parent)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}

// Two processes replacing one partitioned release (--force) put it in
// place one after the other, each its release and audit records whole,
// never one's release beside the other's audit records: the second waits
// for the lock the first holds while it puts its release in place (held
// there, between its two renames, while the second runs).
func TestForcedRunsInTwoProcessesDoNotMix(t *testing.T) {
	dir, sync := os.Getenv("PRIVLAB_MIX_DIR"), os.Getenv("PRIVLAB_MIX_SYNC")
	run := func(seed string) error {
		p := censusProject("lossyjoin", 600, model.Values{})
		p.Params["seed"] = seed
		_, err := Stream(context.Background(), env, p, dir, Options{Partitions: 3, Export: pipeline.ExportOptions{Force: true}})
		return err
	}
	switch os.Getenv("PRIVLAB_MIX_CHILD") {
	case "first":
		betweenPlaces = func() {
			os.WriteFile(filepath.Join(sync, "first-between"), nil, 0o644)
			for range 150 { // the second finishes meanwhile unless it waits
				if _, err := os.Stat(filepath.Join(sync, "second-done")); err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		if err := run("2"); err != nil {
			t.Fatal(err)
		}
		os.Exit(0)
	case "second":
		if err := run("3"); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(sync, "second-done"), nil, 0o644)
		os.Exit(0)
	}
	dir, sync = filepath.Join(t.TempDir(), "rel"), t.TempDir()
	if err := run("1"); err != nil {
		t.Fatal(err)
	}
	child := func(role string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestForcedRunsInTwoProcessesDoNotMix$")
		cmd.Env = append(os.Environ(), "PRIVLAB_MIX_CHILD="+role, "PRIVLAB_MIX_DIR="+dir, "PRIVLAB_MIX_SYNC="+sync)
		return cmd
	}
	first := child("first")
	var firstOut strings.Builder
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(sync, "first-between")); err == nil {
			break
		}
		if i > 3000 {
			first.Process.Kill()
			t.Fatalf("the first run never reached its commit:\n%s", firstOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if out, err := child("second").CombinedOutput(); err != nil {
		t.Fatalf("second: %v\n%s", err, out)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first: %v\n%s", err, firstOut.String())
	}
	rep, err := Check(env, dir, &risk.Knowledge{})
	if err != nil || !rep.OK() {
		t.Fatalf("the release in place does not check with its audit records: %v %+v", err, rep)
	}
}
