package model

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A file's stamp changes when it grows, when it is rewritten in place
// at the same size with a new modification time, and when another file
// is renamed over it with the same size and modification time.
func TestStampTellsAChangedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.csv")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(p, text string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	stamp := func() FileStamp {
		t.Helper()
		s, err := StampOf(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	write(path, "a\n1\n", at)
	first := stamp()
	if first.Size != 4 || !first.ModTime.Equal(at) || first.Ino == 0 {
		t.Fatalf("stamp %+v, want size 4, time %v and an inode", first, at)
	}
	if !stamp().Same(first) {
		t.Fatalf("an unchanged file's stamp changed")
	}
	write(path, "a\n2\n", at.Add(time.Second))
	same := stamp()
	if same.Same(first) || same.Size != 4 {
		t.Fatalf("same-size rewrite with a new time: %+v, the same as %+v", same, first)
	}
	write(path, "a\n2\n3\n", at.Add(time.Second))
	if grown := stamp(); grown.Same(same) || grown.Size != 6 {
		t.Fatalf("grown file: %+v, the same as %+v", grown, same)
	}
	other := filepath.Join(dir, "b.csv")
	write(other, "a\n2\n3\n", at.Add(time.Second))
	before := stamp()
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	if after := stamp(); after.Same(before) || after.Ino == before.Ino {
		t.Fatalf("a file renamed over it keeps the stamp %+v", after)
	}
	if _, err := StampOf(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Fatalf("a missing file: %v, want not exist", err)
	}
}
