package model

import (
	"os"
	"strings"
	"testing"
)

// recoverAt panics with v at one place and returns what Recovered makes
// of it.
func recoverAt(v any) (err error) {
	defer func() { err = Recovered(recover(), "in a test") }()
	panic(v)
}

// TestRecoveredWritesTheStackToAFile: the message names the panic and a
// crash file in os.TempDir() holding its value and stack, never the
// stack itself; the same panic at the same place (a view drawn many times
// a second) reuses its file, another gets its own.
func TestRecoveredWritesTheStackToAFile(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var errs []error
	for range 2 {
		errs = append(errs, recoverAt("boom"))
	}
	err := errs[0]
	path, ok := strings.CutPrefix(err.Error(), "internal error in a test: boom (please report it; details in "+os.Getenv("TMPDIR")+"/privlab-crash-")
	if !ok || strings.Contains(err.Error(), "goroutine") {
		t.Fatalf("%v", err)
	}
	b, rerr := os.ReadFile(os.Getenv("TMPDIR") + "/privlab-crash-" + strings.TrimSuffix(path, ")"))
	if rerr != nil || !strings.HasPrefix(string(b), "privlab "+Version+": internal error: boom\n\ngoroutine ") || !strings.Contains(string(b), "model.recoverAt") {
		t.Fatalf("crash file: %v\n%s", rerr, b)
	}
	if errs[1].Error() != err.Error() {
		t.Fatalf("the same panic wrote another file: %v", errs[1])
	}
	if other := recoverAt("bang"); other.Error() == strings.Replace(err.Error(), "boom", "bang", 1) {
		t.Fatalf("another panic reused the file: %v", other)
	}
	if es, _ := os.ReadDir(os.Getenv("TMPDIR")); len(es) != 2 {
		t.Fatalf("%d crash files, want 2", len(es))
	}
	// Nowhere to write: the message says so.
	t.Setenv("TMPDIR", "/nonexistent/dir")
	if err := recoverAt("lost"); !strings.Contains(err.Error(), "its details could not be written") {
		t.Fatalf("%v", err)
	}
}
