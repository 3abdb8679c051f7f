package releasedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// The fallback for file systems without renameat2's RENAME_NOREPLACE
// never replaces either.
func TestClaimNoReplace(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	os.Mkdir(a, 0o755)
	os.WriteFile(filepath.Join(a, "f"), []byte("a"), 0o644)
	for _, existing := range []func(){
		func() { os.Mkdir(b, 0o755) },
		func() { os.WriteFile(b, []byte("b"), 0o644) },
	} {
		existing()
		if err := claimNoReplace(a, b); !errors.Is(err, fs.ErrExist) {
			t.Fatalf("over an existing name: %v", err)
		}
		os.Remove(b)
	}
	if err := claimNoReplace(a, b); err != nil || readFile(t, filepath.Join(b, "f")) != "a" {
		t.Fatalf("to a new name: %v", err)
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Fatal("the source is still there")
	}
}
