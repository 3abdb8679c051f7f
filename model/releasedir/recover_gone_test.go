package releasedir

import (
	"os"
	"path/filepath"
	"testing"
)

// A leftover listed and then gone before it is looked at (the export
// that made it finished and cleaned up in between) is no warning: eight
// concurrent --force exports warned "left ... alone" about one another's
// directories that no longer existed (TestConcurrentForceExports).
func TestLeftoverGoneSinceListedIsNoWarning(t *testing.T) {
	dir := t.TempDir()
	var warned []string
	warn := func(s string) { warned = append(warned, s) }
	if removeMarked(filepath.Join(dir, ".r.tmp-1-2"), warn) || len(warned) > 0 {
		t.Fatalf("a gone directory: warned %q", warned)
	}
	// One that is there without the marker is still named.
	if err := os.Mkdir(filepath.Join(dir, ".r.tmp-1-3"), 0o755); err != nil {
		t.Fatal(err)
	}
	if removeMarked(filepath.Join(dir, ".r.tmp-1-3"), warn) || len(warned) != 1 {
		t.Fatalf("an unmarked directory: removed or not named: %q", warned)
	}
}
