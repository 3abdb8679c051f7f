package partitioned

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
