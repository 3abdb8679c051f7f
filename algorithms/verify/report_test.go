package verify

import (
	"math"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

func TestLineAndReport(t *testing.T) {
	t.Parallel()
	r := &Report{}
	if r.OK() || r.Confirmed() || r.Err() != nil {
		t.Fatalf("an empty report: OK %v, Confirmed %v, Err %v (no line passes nothing)", r.OK(), r.Confirmed(), r.Err())
	}
	r.Add(true, "files", "%d files", 2)
	r.Add(false, "k", "box %s", "3")
	r.Add(false, "claims", "x")
	r.Add(false, "k", "box 4")
	want := []string{"ok   files: 2 files", "FAIL k: box 3", "FAIL claims: x", "FAIL k: box 4"}
	if got := r.Strings(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q", got)
	}
	if r.OK() || r.Err() == nil || r.Err().Error() != "failed: k, claims" {
		t.Fatalf("OK %v, Err %v", r.OK(), r.Err())
	}
	for _, s := range want {
		name, ok, text := parseLine(s)
		l := Line{OK: ok, Name: name, Text: text}
		if l.String() != s {
			t.Errorf("%q reads back as %q", s, l)
		}
	}
}

// A guarantee the inputs cannot confirm fails no line, yet the release
// is not confirmed (privlab check exits 3).
func TestUnprovenAndConfirmed(t *testing.T) {
	t.Parallel()
	r := &Report{}
	r.Add(true, "k-join-anonymity", "every box holds k rows")
	if !r.OK() || !r.Confirmed() {
		t.Fatal("a passing report is not confirmed")
	}
	r.Unprove("k-join-anonymity", "the %d public rows were not recounted without %s", 12, "the public table")
	if !r.OK() || r.Confirmed() || r.Err() != nil {
		t.Fatalf("OK %v, Confirmed %v, Err %v", r.OK(), r.Confirmed(), r.Err())
	}
	if r.Unproven[0] != "k-join-anonymity: the 12 public rows were not recounted without the public table" {
		t.Errorf("unproven %q", r.Unproven)
	}
	r.Add(false, "x", "y")
	if r.OK() || r.Confirmed() {
		t.Error("a failing line leaves the report OK")
	}
}

// A stated figure agrees with the recomputed one up to rounding (1e-9
// relative, NaN with NaN); a count and a text exactly. A difference is a
// failed line naming the claim and both values.
func TestClaim(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		stated, recomputed float64
		ok                 bool
	}{
		{0.1 + 0.2, 0.3, true}, {1e12, 1e12 + 1e2, true}, {1e12, 1e12 + 1e4, false}, {0, 1e-10, true}, {0, 2e-9, false},
		{math.NaN(), math.NaN(), true}, {math.NaN(), 0, false}, {math.Inf(1), math.Inf(1), true}, {2, 3, false},
	} {
		r := &Report{}
		if got := r.Claim("figure", c.stated, c.recomputed); got != c.ok || len(r.Lines) != map[bool]int{true: 0, false: 1}[c.ok] {
			t.Errorf("Claim(%v, %v) = %v, lines %q", c.stated, c.recomputed, got, r.Strings())
		}
	}
	r := &Report{}
	r.Claim("NCP", 2, 3.5)
	r.ClaimCount("groups", 4, 5)
	r.ClaimText("sensitive", "salary", "wage")
	if r.ClaimCount("groups", 5, 5) == false || r.ClaimText("x", "a", "a") == false {
		t.Error("an equal count or text fails")
	}
	want := []string{"FAIL claim NCP: the manifest states 2, the files give 3.5", "FAIL claim groups: the manifest states 4, the files give 5",
		`FAIL claim sensitive: the manifest states "salary", the files give "wage"`}
	if got := r.Strings(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s", strings.Join(got, "\n"))
	}
}

// Claims sums up the claims compared when none failed, naming those
// only the original confirms.
func TestClaimsSummary(t *testing.T) {
	t.Parallel()
	r := &Report{}
	r.Add(false, "k", "a failing line that is not a claim")
	before := len(r.Lines)
	r.Claims(before, 3, []string{"rows_in"})
	if l := r.Lines[len(r.Lines)-1]; l.String() != "ok   claims: the 3 figures the manifest states agree with the files; unconfirmed without the original: rows_in" {
		t.Errorf("%s", l)
	}
	before = len(r.Lines)
	r.ClaimCount("groups", 1, 2)
	r.Claims(before, 3, nil)
	if l := r.Lines[len(r.Lines)-1]; l.Name != "claim groups" {
		t.Errorf("a failed claim is summed up: %s", l)
	}
}

func TestCheckHeaderAndBindNames(t *testing.T) {
	t.Parallel()
	tab, _ := csvfile.Load(strings.NewReader("GroupID,age,sex\n1,20,F\n"), csvfile.LoadOptions{})
	if !CheckHeader(tab, []string{"GroupID", "age", "sex"}) || CheckHeader(tab, []string{"GroupID", "sex", "age"}) || CheckHeader(tab, []string{"GroupID", "age"}) {
		t.Error("CheckHeader")
	}
	r := &Report{}
	if !r.BindNames("qi.csv", tab, []string{"GroupID", "age", "sex"}) || len(r.Lines) != 0 {
		t.Error("names that bind add a line")
	}
	if r.BindNames("qi.csv", tab, []string{"GroupID", "age", "gender"}) || r.Strings()[0] != "FAIL names: qi.csv has columns GroupID,age,sex; the manifest implies GroupID,age,gender" {
		t.Errorf("%q", r.Strings())
	}
}

func TestPlainName(t *testing.T) {
	t.Parallel()
	for name, ok := range map[string]bool{"qi.csv": true, "report.md": true, "a b.csv": true, "": false, ".": false, "..": false,
		"../qi.csv": false, "/etc/passwd": false, `dir\qi.csv`: false, "c:qi.csv": false, "sub/qi.csv": false} {
		if PlainName(name) != ok {
			t.Errorf("PlainName(%q) = %v", name, !ok)
		}
	}
}

func TestRowCounts(t *testing.T) {
	t.Parallel()
	tab, _ := csvfile.Load(strings.NewReader("a\n1\n2\n"), csvfile.LoadOptions{})
	rel := &Release{Manifest: &releasedir.Manifest{Files: []releasedir.FileEntry{{Name: "a.csv", Rows: 3}, {Name: "b.csv", Rows: 9}}}}
	r := &Report{}
	if n := r.RowCounts(rel, map[string]*model.Table{"a.csv": tab}); n != 1 || r.Strings()[0] != "FAIL claim files.a.csv.rows: the manifest states 3, the files give 2" {
		t.Errorf("%d %q", n, r.Strings())
	}
}
