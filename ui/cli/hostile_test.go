//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// privlabWithin runs the binary as privlab does, killed after limit: a
// command still running then fails the test (it waits on a pipe).
func privlabWithin(t *testing.T, dir string, limit time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "privlab", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("privlab %v still ran after %v", args, limit)
	}
	return outcome(t, args, err, &out, &errb)
}

// copyRelease copies the release from/r and its audit record into to.
func copyRelease(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(to, "r"), 0o755); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(filepath.Join(from, "r"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"r.audit.json"}
	for _, e := range es {
		names = append(names, filepath.Join("r", e.Name()))
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(from, n))
		if err == nil {
			err = os.WriteFile(filepath.Join(to, n), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A named pipe or a symbolic link in place of a release's manifest, one
// of its data files or its audit record is named at once by every
// command that reads it: none waits on the pipe, none reads the file the
// link leads to (a copy of the right one, outside the release). check
// fails a release whose data file is not a regular file (the release is
// at fault); the other commands, and check for the manifest and the
// audit record, stop with an input error.
func TestReleaseLinksAndPipes(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	if _, errs, code := privlab(t, base, "gen", "census", "--rows", "2000", "--seed", "1", "--out", "in.csv"); code != 0 {
		t.Fatalf("gen: %d %s", code, errs)
	}
	roles := []string{"--in", "../in.csv", "--qi", "age,sex,education,marital-status", "--sa", "occupation", "--seed", "1", "--out", "r"}
	methods := []struct{ name, data, variant string }{
		{"distribution", "qi.csv", ""}, {"kja", "jat.csv", "mondrian"}, {"lossyjoin", "ss.csv", ""},
		{"sampling", "published.csv", ""}, {"ambiguity", "at_sex.csv", ""},
	}
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			made := filepath.Join(base, m.name)
			os.Mkdir(made, 0o755)
			args := append([]string{"run", "--method", m.name}, roles...)
			if m.variant != "" {
				args = append(args, "--variant", m.variant)
			}
			if _, errs, code := privlab(t, made, args...); code != 0 {
				t.Fatalf("run: %d %s", code, errs)
			}
			for _, file := range []string{"r/manifest.json", "r/" + m.data, "r.audit.json"} {
				for _, kind := range []string{"a named pipe (FIFO)", "a symbolic link"} {
					hostileFile(t, made, file, kind)
				}
			}
		})
	}
}

// hostileFile puts a pipe or a link (kind) in place of file in a copy of
// the release in made, and runs every command that reads a release.
func hostileFile(t *testing.T, made, file, kind string) {
	t.Helper()
	dir := t.TempDir()
	copyRelease(t, made, dir)
	path := filepath.Join(dir, file)
	outside := filepath.Join(t.TempDir(), filepath.Base(file))
	if err := os.Rename(path, outside); err != nil {
		t.Fatal(err)
	}
	var err error
	if strings.Contains(kind, "pipe") {
		err = syscall.Mkfifo(path, 0o644)
	} else {
		err = os.Symlink(outside, path)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := file + ": is " + kind + ", not a regular file"
	for _, c := range [][]string{
		{"check", "r"}, {"check", "r", "--original", "../in.csv"},
		{"query", "--release", "r", "--original", "../in.csv", "COUNT(*)"},
		{"eval", "--release", "r", "--original", "../in.csv"},
		{"attack", "r", "--original", "../in.csv"},
	} {
		// The commands are run from beside the input, as a user would.
		c = append([]string(nil), c...)
		for i, a := range c {
			if a == "r" {
				c[i] = dir + "/r"
			}
		}
		out, errs, code := privlabWithin(t, made, 20*time.Second, c...)
		at := dir + "/" + want
		switch {
		case file == "r.audit.json" && c[0] != "check":
			// Only check reads the audit record.
			if code != 0 {
				t.Errorf("%s %s: %v exit %d: %s", file, kind, c, code, errs)
			}
		case strings.HasSuffix(file, ".csv") && c[0] == "check":
			if code != 1 || !strings.Contains(out, "FAIL readable: "+at) {
				t.Errorf("%s %s: %v exit %d, want 1 and %q:\n%s%s", file, kind, c, code, at, out, errs)
			}
		default:
			if code != 2 || !strings.Contains(errs, "privlab: "+at+" (hint: ") {
				t.Errorf("%s %s: %v exit %d, want 2 and %q:\n%s%s", file, kind, c, code, at, out, errs)
			}
		}
	}
}
