//go:build unix

package releasedir

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"privlab/model"
	"privlab/model/csvfile"
)

// within runs f and fails the test when it has not returned in 5 s (a
// reader waiting on a named pipe never returns).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s still waits after 5 s", what)
	}
}

// A release file is read only as a regular file: a link (even to a
// regular file), a named pipe, a directory or a device in its place is
// an input error naming it and what it is, at once, by every reader of
// release files.
func TestOpenReleaseRefuses(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.csv")
	os.WriteFile(plain, []byte("a\n1\n"), 0o644)
	os.Symlink(plain, filepath.Join(dir, "link.csv"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "dir.csv"), 0o755)
	cases := map[string]string{"link.csv": "a symbolic link", "fifo.csv": "a named pipe (FIFO)", "dir.csv": "a directory"}
	if _, err := os.Stat("/dev/null"); err == nil {
		os.Symlink("/dev/null", filepath.Join(dir, "null.csv"))
		cases["/dev/null"] = "a device"
		cases["null.csv"] = "a symbolic link"
	}
	readers := map[string]func(string) error{
		"OpenFile":      func(p string) error { f, err := OpenFile(p); f.Close(); return err },
		"ReadFile":      func(p string) error { _, err := ReadFile(p, 1<<20, "a release file"); return err },
		"LoadTable":     func(p string) error { _, err := LoadTable(p, csvfile.LoadOptions{}); return err },
		"ReleaseSHA256": func(p string) error { _, err := ReleaseSHA256(p); return err },
	}
	for name, what := range cases {
		path := name
		if !filepath.IsAbs(name) {
			path = filepath.Join(dir, name)
		}
		for rname, read := range readers {
			var err error
			within(t, rname+" "+name, func() { err = read(path) })
			want := path + ": is " + what + ", not a regular file (hint: a release and its audit record are regular files: privlab reads no link, pipe or device in their place)"
			if ie, ok := err.(*model.InputError); !ok || ie.Error() != want {
				t.Errorf("%s %s: %v, want %q", rname, name, err, want)
			}
		}
	}
	if t0, err := LoadTable(plain, csvfile.LoadOptions{}); err != nil || t0.Rows != 1 || t0.Name != plain {
		t.Errorf("a regular file: %v", err)
	}
	if sum, err := ReleaseSHA256(plain); err != nil || sum != "309b0e45a73d3fc5325e2b6ed0a01ef8b9cde6b05a5633c1f893f970d52bfddc" {
		t.Errorf("hash %s: %v", sum, err)
	}
	if _, err := OpenFile(filepath.Join(dir, "none.csv")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// A manifest, or an audit record, that is a named pipe or a link is
// named at once; ReadFileLimit (project files) refuses a named pipe
// without waiting on it too.
func TestReleaseJSONPipesAndLinks(t *testing.T) {
	dir := t.TempDir()
	man := filepath.Join(dir, "manifest.json")
	audit := filepath.Join(dir, "r.audit.json")
	for _, p := range []string{man, audit} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	within(t, "ReadManifest", func() { _, err = ReadManifest(dir) })
	if err == nil || err.Error() != man+": is a named pipe (FIFO), not a regular file (hint: a release and its audit record are regular files: privlab reads no link, pipe or device in their place)" {
		t.Errorf("manifest: %v", err)
	}
	within(t, "ReadAudit", func() { _, err = ReadAudit(audit) })
	if ie, ok := err.(*model.InputError); !ok || ie.File != audit || ie.Msg != "is a named pipe (FIFO), not a regular file" {
		t.Errorf("audit record: %v", err)
	}
	within(t, "ReadFileLimit", func() { _, err = model.ReadFileLimit(audit, 1<<20, "a project file") })
	if err == nil || err.Error() != audit+": is not a regular file, expected a project file" {
		t.Errorf("ReadFileLimit: %v", err)
	}
	os.Remove(audit)
	outside := filepath.Join(t.TempDir(), "r.audit.json")
	os.WriteFile(outside, []byte(`{"seed": 1}`), 0o600)
	os.Symlink(outside, audit)
	if _, err := ReadAudit(audit); err == nil || !strings.HasPrefix(err.Error(), audit+": is a symbolic link, not a regular file") {
		t.Errorf("a linked audit record: %v", err)
	}
}
