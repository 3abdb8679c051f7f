package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// body is a function of exactly n lines, func keyword to closing brace.
func body(decl string, n int) string {
	return decl + " {\n" + strings.Repeat("\t_ = 0\n", n-2) + "}\n"
}

// TestWalk lists exactly the functions over the limit in non-test files,
// skipping test files, dot directories and testdata.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package p\n\ntype T struct{}\n\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", body("func atLimit()", 6)+body("func over()", 7)+body("func (t *T) method()", 8)+body("func (T) value()", 7))
	write("a_test.go", body("func longTest()", 50))
	write(".ci/b.go", body("func hidden()", 50))
	write("testdata/c.go", body("func data()", 50))
	write("sub/d.go", "func decl()\n"+body("func nested()", 9))
	var out strings.Builder
	n, err := walk(&out, dir, 6)
	if err != nil {
		t.Fatal(err)
	}
	want := dir + "/a.go:11 over: 7 lines (limit 6)\n" +
		dir + "/a.go:18 (*T).method: 8 lines (limit 6)\n" +
		dir + "/a.go:26 (T).value: 7 lines (limit 6)\n" +
		dir + "/sub/d.go:6 nested: 9 lines (limit 6)\n"
	if n != 4 || out.String() != want {
		t.Errorf("walk found %d:\n%s\nwant 4:\n%s", n, out.String(), want)
	}
}

// TestWalkParseError reports a file that does not parse instead of
// passing it over.
func TestWalkParseError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package p\nfunc {"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := walk(&out, dir, 100); err == nil || !strings.Contains(err.Error(), "bad.go:2:") {
		t.Errorf("walk error = %v, want one naming bad.go:2", err)
	}
}
