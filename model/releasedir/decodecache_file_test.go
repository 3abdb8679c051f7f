package releasedir

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The decode memo is keyed by the document's bytes, not by its file: a
// manifest rewritten at the same size and modification time, or grown,
// reads as its new contents.
func TestManifestRewrittenReadsAnew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "manifest.json")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(note string) {
		t.Helper()
		m := Manifest{Tool: "privlab", Method: "m", Parameters: map[string]string{}, QIs: []string{"a"}, Notes: []string{note},
			Files: []FileEntry{{Name: "qi.csv", Rows: 1, SHA256: "ab"}}}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	read := func(want string) {
		t.Helper()
		m, err := ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Notes) != 1 || m.Notes[0] != want {
			got := strings.Join(m.Notes, "")
			t.Fatalf("read a note of %d bytes starting %q, want %d bytes starting %q", len(got), got[:min(2, len(got))], len(want), want[:2])
		}
	}
	long := strings.Repeat("x", cachedMin) // kept by the memo
	write("a" + long)
	read("a" + long)
	read("a" + long)
	write("b" + long) // same size, same time
	read("b" + long)
	write("cc" + long) // grown
	read("cc" + long)
}
