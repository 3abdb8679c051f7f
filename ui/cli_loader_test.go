package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIHeaderlessFile: the raw UCI file has no header row; inspect,
// run and check read all 32,561 records (none is taken as the header)
// and say so, naming --columns.
func TestCLIHeaderlessFile(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "..", "shared", "data", "adult-uci", "adult.data"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared data not present: ", err)
	}
	dir := t.TempDir()
	out, _, code := cli(t, dir, "inspect", path)
	if code != 0 || !strings.Contains(out, "32561 rows, 15 columns") || !strings.Contains(out, "the first row looks like data") ||
		!strings.Contains(out, "--columns") {
		t.Fatalf("inspect (%d):\n%s", code, out)
	}
	out, _, code = cli(t, dir, "run", "--in", path, "--qi", "c1,c2,c4", "--sa", "c15", "--method", "lossyjoin", "--k", "5", "--alpha", "0.9",
		"--seed", "1", "--out", "r")
	if code != 0 || !strings.Contains(out, "input      "+path+" (30725 rows, 1836 dropped for missing values)") ||
		!strings.Contains(out, "warning    "+path+":1: the first row looks like data") {
		t.Fatalf("run (%d):\n%s", code, out)
	}
	if out, errs, code := cli(t, dir, "check", "r", "--original", path); code != 0 {
		t.Fatalf("check (%d):\n%s%s", code, out, errs)
	}
	// The same file read with other missing-value tokens and its first
	// row as the header: one record fewer, and "?" is a value.
	out, _, code = cli(t, dir, "inspect", path, "--header", "yes", "--missing-values", `""`)
	if code != 0 || !strings.Contains(out, "32560 rows") || strings.Contains(out, "looks like data") || !strings.Contains(out, "? (583)") {
		t.Fatalf("inspect --header yes --missing-values \"\" (%d):\n%s", code, out)
	}
}

// TestCLIMissingValues: --missing-values sets what counts as missing for
// every command that loads a table (NA is Namibia's code here), and check
// --original reads the original with the tokens of the audit record.
func TestCLIMissingValues(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("age,country,disease\n")
	for i := 0; i < 30; i++ {
		c := []string{"NA", "DE", "FR"}[i%3]
		if i%10 == 4 {
			c = "?"
		}
		b.WriteString(strings.Join([]string{itoa(20 + i%7), c, []string{"flu", "cold", "hiv"}[i%3]}, ",") + "\n")
	}
	os.WriteFile(filepath.Join(dir, "t.csv"), []byte(b.String()), 0o644)
	out, _, code := cli(t, dir, "inspect", "t.csv", "--missing-values", "?,")
	if code != 0 || !strings.Contains(out, "country              categorical          3        3") {
		t.Fatalf("inspect (%d):\n%s", code, out)
	}
	args := []string{"run", "--in", "t.csv", "--qi", "age,country", "--sa", "disease", "--method", "lossyjoin", "--k", "2", "--alpha", "1", "--seed", "1", "--out", "r"}
	out, errs, code := cli(t, dir, append(args, "--missing-values", "?,")...)
	if code != 0 || !strings.Contains(out, "(27 rows, 3 dropped for missing values)") {
		t.Fatalf("run (%d):\n%s%s", code, out, errs)
	}
	if out, errs, code := cli(t, dir, "check", "r", "--original", "t.csv"); code != 0 {
		t.Fatalf("check without the tokens (they come from the audit record) (%d):\n%s%s", code, out, errs)
	}
	out, _, code = cli(t, dir, append(args[:len(args)-2], "--out", "r2")...)
	if code != 0 || !strings.Contains(out, "(18 rows, 12 dropped for missing values)") {
		t.Fatalf("run with the default tokens (%d):\n%s", code, out)
	}
	_, errs, code = cli(t, dir, "inspect", "t.csv", "--missing-values", `a"b`)
	if code != 2 || !strings.Contains(errs, "missing-values") {
		t.Fatalf("a bad token (%d): %s", code, errs)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// TestCLINumbersAsColumnNames: a table whose header row is numbers (read
// with --header yes) makes a release whose files have that header: the
// checker reads privlab's own files with their header, never detecting.
func TestCLINumbersAsColumnNames(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("1,2,3\n")
	for i := 0; i < 40; i++ {
		b.WriteString(itoa(20+i%9) + "," + itoa(i%3) + "," + []string{"flu", "cold"}[i%2] + "\n")
	}
	os.WriteFile(filepath.Join(dir, "n.csv"), []byte(b.String()), 0o644)
	for _, m := range []string{"distribution", "sampling"} {
		out, errs, code := cli(t, dir, "run", "--in", "n.csv", "--header", "yes", "--qi", "1,2", "--sa", "3", "--method", m,
			"--seed", "1", "--out", "r-"+m, "--accept-violations")
		if code != 0 || !strings.Contains(out, "(40 rows)") {
			t.Fatalf("run %s (%d):\n%s%s", m, code, out, errs)
		}
		if out, errs, code := cli(t, dir, "check", "r-"+m, "--original", "n.csv"); code != 0 || !strings.Contains(out, "passes every check") {
			t.Fatalf("check %s (%d):\n%s%s", m, code, out, errs)
		}
	}
	// Without --header the first row is data.
	out, _, _ := cli(t, dir, "inspect", "n.csv")
	if !strings.Contains(out, "41 rows") {
		t.Fatalf("inspect:\n%s", out)
	}
}
