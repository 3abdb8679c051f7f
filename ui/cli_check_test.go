package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inputs that must be refused with the parameter or file named, exit 2
// and no stack trace (issue: inputs that can't blow up a run).
func TestCLIRefusesBadParameters(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "afile.txt"), []byte("x"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "census", "--rows", "-5"}, `parameter rows = "-5": must be >= 0`},
		{[]string{"gen", "census", "--rows", "500000000", "--out", "g.csv"}, "of memory to load and anonymize"},
		{[]string{"gen", "universe", "--rows", "100000000", "--ratio", "10", "--out", "u"}, "a public table of 1000000000 rows"},
		{[]string{"run", "--in", "dataset:employees", "--grouping", "level:zipcode=9", "--out", "o"}, "level 9 is above the root of zipcode's hierarchy"},
		{[]string{"run", "--in", "dataset:census", "--qi", "age,,sex", "--sa", "occupation", "--out", "o"}, "empty name at position 2 of the list"},
		{[]string{"run", "--in", "dataset:census", "--method", "kja", "--k", "9223372036854775808", "--out", "o"}, "too large"},
		{[]string{"run", "--in", "dataset:employees", "--fakes", "99999999999999999999", "--out", "o"}, "too large"},
		{[]string{"run", "--in", "dataset:employees", "--seed", "99999999999999999999999", "--out", "o"}, "too large"},
		{[]string{"run", "--in", "dataset:census", "--hierarchy", "age=intervals:1,1", "--out", "o"}, "interval widths must grow from level to level"},
		{[]string{"run", "--in", "dataset:employees", "--seed", "1", "--out", "afile.txt"}, "exists and is a file, not a release directory"},
		{[]string{"run", "--in", "dataset:employees", "--risk-threshold", "2", "--out", "o"}, `parameter risk-threshold`},
		{[]string{"eval", "--in", "dataset:census", "--sweep", "k=20..2", "--method", "kja"}, "the range runs from 20 down to 2"},
		{[]string{"eval", "--release", "nosuch", "--original", "dataset:census"}, "nosuch/manifest.json"},
	} {
		_, errs, code := cli(t, dir, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("privlab %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, errs, c.want)
		}
	}
}

// check, query and eval on a release: an original that is not the
// release's input is an input error (exit 2); a public table needs the
// original; eval --release answers from the files and prints the risk
// figures; a query value the release does not publish gets a warning
// without the original.
func TestCLIReceivedReleases(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "people.csv")
	var b strings.Builder
	b.WriteString("zip,sex,job\n")
	for i := 0; i < 60; i++ {
		b.WriteString([]string{"11000", "12000", "13000"}[i%3] + "," + []string{"F", "M"}[i%2] + "," + []string{"clerk", "nurse", "cook", "driver"}[i%4] + "\n")
	}
	os.WriteFile(in, []byte(b.String()), 0o644)
	if _, errs, code := cli(t, dir, "run", "--in", "people.csv", "--qi", "zip,sex", "--sa", "job", "--method", "lossyjoin", "--k", "3", "--alpha", "0.5", "--seed", "1", "--out", "rel"); code != 0 {
		t.Fatal(errs)
	}
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte(strings.Replace(b.String(), "clerk", "clerc", 1)), 0o644)
	if _, errs, code := cli(t, dir, "check", "rel", "--original", "other.csv"); code != 2 || !strings.Contains(errs, "not the input of this release") {
		t.Fatalf("check with another original: exit %d %q", code, errs)
	}
	if _, errs, code := cli(t, dir, "check", "rel", "--original", "people.csv", "--public", "people.csv"); code != 2 || !strings.Contains(errs, "reads no public table") {
		t.Fatalf("check --public on a method without one: exit %d %q", code, errs)
	}
	out, errs, code := cli(t, dir, "eval", "--release", "rel", "--original", "people.csv")
	if code != 0 || !strings.Contains(out, "risk and utility") || !strings.Contains(out, "smallest class") {
		t.Fatalf("eval --release: exit %d\n%s\n%s", code, out, errs)
	}
	out, _, code = cli(t, dir, "query", "--release", "rel", "COUNT(*) WHERE job = 'nurze'")
	if code != 0 || !strings.Contains(out, "no row has job = 'nurze'; did you mean 'nurse'?") {
		t.Fatalf("query without the original: exit %d\n%s", code, out)
	}
	out, _, code = cli(t, dir, "check", "rel", "--original", "people.csv")
	if code != 0 || !strings.Contains(out, "ok   risk:") || !strings.Contains(out, "ok   workload:") || !strings.Contains(out, "ok   declaration:") {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
}

// eval --compare prints every method's column; --sweep takes a range.
func TestCLICompareAndSweepRange(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := cli(t, dir, "eval", "--in", "dataset:census", "--rows", "2000", "--sa", "occupation", "--compare", "--queries", "20")
	if code != 0 {
		t.Fatalf("compare: exit %d %s", code, errs)
	}
	for _, m := range []string{"distribution", "kja", "lossyjoin", "sampling", "ambiguity", "smallest class", "workload error (estimate)"} {
		if !strings.Contains(out, m) {
			t.Fatalf("compare lacks %q:\n%s", m, out)
		}
	}
	if strings.Contains(out, "not run") {
		t.Fatalf("a method did not run:\n%s", out)
	}
	out, errs, code = cli(t, dir, "eval", "--in", "dataset:census", "--rows", "2000", "--sa", "occupation", "--method", "kja", "--variant", "mondrian", "--sweep", "k=2..10:4", "--queries", "20")
	if code != 0 || strings.Count(out, "\n2 ")+strings.Count(out, "\n6 ")+strings.Count(out, "\n10 ") != 3 || !strings.Contains(out, "worst case") {
		t.Fatalf("sweep: exit %d\n%s\n%s", code, out, errs)
	}
}

// A release of one file says "1 file matches its SHA-256", and check
// still accepts a release written before counts were put in the
// singular ("1 files match their SHA-256" in its manifest and report).
func TestCLIOneFileMatches(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := cli(t, dir, "run", "--in", "dataset:census", "--rows", "2000", "--method", "sampling", "--seed", "1", "--out", "rel")
	if code != 0 || !strings.Contains(out, "release    rel (published.csv ") || !strings.Contains(out, ", report.md)") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	man, _ := os.ReadFile(filepath.Join(dir, "rel", "manifest.json"))
	report, _ := os.ReadFile(filepath.Join(dir, "rel", "report.md"))
	const now, before = "1 file matches its SHA-256", "1 files match their SHA-256"
	if !strings.Contains(string(man), now) || !strings.Contains(string(report), now) {
		t.Fatalf("the manifest and report do not say %q", now)
	}
	// The same release as an earlier version wrote it.
	oldReport := strings.ReplaceAll(string(report), now, before)
	sum := func(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }
	oldMan := strings.ReplaceAll(string(man), now, before)
	oldMan = strings.ReplaceAll(oldMan, sum(report), sum([]byte(oldReport)))
	os.WriteFile(filepath.Join(dir, "rel", "manifest.json"), []byte(oldMan), 0o644)
	os.WriteFile(filepath.Join(dir, "rel", "report.md"), []byte(oldReport), 0o644)
	// The audit record binds the manifest as exported; the earlier
	// wording is a file-level question, so check the files alone.
	os.Remove(filepath.Join(dir, "rel.audit.json"))
	if out, errs, code := cli(t, dir, "check", "rel"); code != 0 {
		t.Fatalf("check refuses the earlier wording: exit %d\n%s\n%s", code, out, errs)
	}
}
