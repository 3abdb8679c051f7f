package ui

// End-to-end tests of the privlab binary's command line (SPEC 5): the
// binary is built once and driven like a user would, checking exit codes,
// messages and the files written.

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var privlabBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "privlab-bin-")
	if err != nil {
		panic(err)
	}
	privlabBin = filepath.Join(dir, "privlab")
	if runtime.GOOS == "windows" {
		privlabBin += ".exe"
	}
	build := exec.Command("go", "build", "-o", privlabBin, "..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building privlab: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs privlab in dir and returns stdout, stderr and the exit code.
func cli(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(privlabBin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errb.String(), "goroutine ") || strings.Contains(errb.String(), "panic:") {
		t.Fatalf("privlab %v printed a stack trace:\n%s", args, errb.String())
	}
	return out.String(), errb.String(), code
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// saByGroup returns each group's published subdomains, sorted.
func saByGroup(t *testing.T, path string) map[string][]string {
	out := map[string][]string{}
	for _, r := range readCSV(t, path)[1:] {
		sub := r[1]
		if r[1] != r[2] {
			sub = r[1] + "-" + r[2]
		}
		out[r[0]] = append(out[r[0]], sub)
	}
	for g := range out {
		sort.Strings(out[g])
	}
	return out
}

var figure2 = []string{"run", "--in", "dataset:employees", "--qi", "zipcode,gender", "--sa", "salary",
	"--method", "distribution", "--grouping", "level:zipcode=2", "--target", "uniform"}

func TestCLIFigure2ReleaseCheckAndQuery(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := cli(t, dir, append(figure2, "--out", "out/r", "--seed", "1")...)
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, out, errs)
	}
	// Koudas et al. 2009, Figure 2: group 1 (911**) published as is, group
	// 2 (912**) {30K,40K},{50K,60K},{30K-60K}, group 3 (913**) two roots,
	// {30K,40K}, {50K,60K}.
	got := saByGroup(t, filepath.Join(dir, "out/r/sa.csv"))
	want := map[string][]string{
		"1": {"30000", "40000", "50000", "60000"},
		"2": {"30000-40000", "30000-60000", "50000-60000"},
		"3": {"30000-40000", "30000-60000", "30000-60000", "50000-60000"},
	}
	for g, subs := range want {
		if strings.Join(got[g], " ") != strings.Join(subs, " ") {
			t.Errorf("group %s: %v, want %v", g, got[g], subs)
		}
	}
	qi := readCSV(t, filepath.Join(dir, "out/r/qi.csv"))
	if strings.Join(qi[0], ",") != "GroupID,zipcode,gender" || len(qi) != 12 {
		t.Fatalf("qi.csv header %v rows %d", qi[0], len(qi))
	}
	if _, err := os.Stat(filepath.Join(dir, "out/r.audit.json")); err != nil {
		t.Fatal("no audit record beside the release")
	}
	if _, err := os.Stat(filepath.Join(dir, "out/r/r.audit.json")); err == nil {
		t.Fatal("audit record inside the release")
	}
	out, errs, code = cli(t, dir, "check", "out/r", "--original", "dataset:employees")
	if code != 0 || !strings.Contains(out, "passes every check") {
		t.Fatalf("check exit %d\n%s\n%s", code, out, errs)
	}
	// Section 2: average salary of female employees, bounds [35K, 55K].
	out, _, code = cli(t, dir, "query", "--release", "out/r", "--original", "dataset:employees", "AVG(salary) WHERE gender = 'F'")
	if code != 0 || !strings.Contains(out, "release    [35000, 55000]") || !strings.Contains(out, "true       45000") {
		t.Fatalf("query exit %d:\n%s", code, out)
	}
	out, _, _ = cli(t, dir, append(append([]string{"query"}, figure2[1:]...), "COUNT(*) WHERE gender = 'F'")...)
	if !strings.Contains(out, "release    6 (exact)") {
		t.Fatalf("COUNT should be exact:\n%s", out)
	}
}

func TestCLIFakesRemoveGroup2Generalization(t *testing.T) {
	dir := t.TempDir()
	_, errs, code := cli(t, dir, append(figure2, "--fakes", "1", "--out", "f", "--seed", "2")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	got := saByGroup(t, filepath.Join(dir, "f/sa.csv"))
	// Section 2: with the fake 60K, group 2 needs no generalization.
	if strings.Join(got["2"], " ") != "30000 40000 50000 60000" {
		t.Fatalf("group 2 with one fake: %v", got["2"])
	}
	out, _, _ := cli(t, dir, "query", "--release", "f", "AVG(salary) WHERE zipcode BETWEEN 91200 AND 91299")
	if !strings.Contains(out, "[40000, 50000]") {
		t.Fatalf("group 2 bounds with the fake: %s", out)
	}
	if _, _, code := cli(t, dir, "check", "f", "--original", "dataset:employees"); code != 0 {
		t.Fatal("check of the fake-value release failed")
	}
}

func TestCLISeedGivesByteIdenticalRelease(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--in", "dataset:census", "--rows", "2000", "--grouping", "mondrian:40", "--fakes", "5%", "--seed", "7"}
	if _, e, c := cli(t, dir, append(args, "--out", "a")...); c != 0 {
		t.Fatal(e)
	}
	if _, e, c := cli(t, dir, append(args, "--out", "b")...); c != 0 {
		t.Fatal(e)
	}
	for _, f := range []string{"qi.csv", "sa.csv", "hierarchy.csv", "manifest.json", "report.md"} {
		a, _ := os.ReadFile(filepath.Join(dir, "a", f))
		b, _ := os.ReadFile(filepath.Join(dir, "b", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s differs between two runs with --seed 7", f)
		}
	}
	// Without a seed the shuffle comes from crypto/rand.
	if _, e, c := cli(t, dir, "run", "--in", "dataset:census", "--rows", "2000", "--grouping", "mondrian:40", "--out", "c"); c != 0 {
		t.Fatal(e)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a", "qi.csv"))
	c, _ := os.ReadFile(filepath.Join(dir, "c", "qi.csv"))
	if bytes.Equal(a, c) {
		t.Fatal("an unseeded release has the same row order as a seeded one")
	}
	man, _ := os.ReadFile(filepath.Join(dir, "a", "manifest.json"))
	if strings.Contains(string(man), `"seed"`) {
		t.Fatal("the seed is private and belongs in the audit record, not the manifest")
	}
}

func TestCLIRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	if _, e, c := cli(t, dir, append(figure2, "--out", "r")...); c != 0 {
		t.Fatal(e)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "r", "qi.csv"))
	_, errs, code := cli(t, dir, append(figure2, "--out", "r")...)
	if code != 2 || !strings.Contains(errs, "already exists") || !strings.Contains(errs, "--force") {
		t.Fatalf("second run without --force: exit %d %s", code, errs)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "r", "qi.csv"))
	if !bytes.Equal(before, after) {
		t.Fatal("the refused run changed the release")
	}
	if _, e, c := cli(t, dir, append(figure2, "--out", "r", "--force")...); c != 0 {
		t.Fatal(e)
	}
}

func TestCLICheckDetectsTampering(t *testing.T) {
	dir := t.TempDir()
	if _, e, c := cli(t, dir, append(figure2, "--out", "r")...); c != 0 {
		t.Fatal(e)
	}
	// Publish every group's subdomains as single values: the group 3
	// distribution then leaks (and the hash no longer matches).
	rows := readCSV(t, filepath.Join(dir, "r", "sa.csv"))
	for _, r := range rows[1:] {
		r[2] = r[1]
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	os.WriteFile(filepath.Join(dir, "r", "sa.csv"), b.Bytes(), 0o644)
	out, errs, code := cli(t, dir, "check", "r", "--original", "dataset:employees")
	if code != 1 {
		t.Fatalf("check of a tampered release: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"FAIL files", "FAIL P'-privacy"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
}

func TestCLIBadInputsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	files := map[string]struct{ content, want string }{
		"ragged.csv":     {"a,b,c\n1,2,3\n4,5\n", "ragged.csv:3: column 3 (c): ragged row"},
		"quote.csv":      {"a,b\n1,\"open\n2,3\n", "quote.csv:2: column 2 (b): unterminated quoted field"},
		"dup.csv":        {"a,b,a\n1,2,3\n", "dup.csv:1: column 3 (a): duplicate column name"},
		"empty.csv":      {"", "empty.csv:1: file is empty"},
		"header.csv":     {"a,b,c\n", "header.csv:2: header only"},
		"utf8.csv":       {"a,b\n1,\xff\n", "utf8.csv:2: column 2 (b): value is not valid UTF-8"},
		"emptyname.csv":  {"a,,c\n1,2,3\n", "emptyname.csv:1: column 2: empty column name"},
		"barequote.csv":  {"a,b\n1,x\"y\n", "barequote.csv:2: column 2 (b): bare \""},
		"toomany.csv":    {"a,b\n1,2\n3,4,5\n", "toomany.csv:3: column 3: ragged row: too many fields"},
		"notnumeric.csv": {"a\n1\n2\n", ""},
	}
	for name, f := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(f.content), 0o644)
		if f.want == "" {
			continue
		}
		_, errs, code := cli(t, dir, "inspect", name)
		if code != 2 || !strings.Contains(errs, "privlab: "+f.want) {
			t.Errorf("inspect %s: exit %d, stderr %q, want it to contain %q", name, code, errs, f.want)
		}
	}
	// A QI that does not exist names the parameter and lists the columns.
	_, errs, code := cli(t, dir, "run", "--in", "notnumeric.csv", "--qi", "zip", "--sa", "a", "--out", "x")
	if code != 2 || !strings.Contains(errs, "parameter qi") || !strings.Contains(errs, `no column "zip"`) || !strings.Contains(errs, "columns are: a") {
		t.Errorf("unknown QI: exit %d %s", code, errs)
	}
	// The input file is never written.
	before, _ := os.ReadFile(filepath.Join(dir, "ragged.csv"))
	cli(t, dir, "run", "--in", "ragged.csv", "--qi", "a", "--sa", "b", "--out", "x")
	after, _ := os.ReadFile(filepath.Join(dir, "ragged.csv"))
	if !bytes.Equal(before, after) {
		t.Fatal("the input file changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Fatal("a failed run left a release directory")
	}
}

func TestCLIParametersAreValidated(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--fakes", "-1"}, "parameter fakes"},
		{[]string{"--max-denominator", "x"}, "parameter max-denominator"},
		{[]string{"--grouping", "mondrian:0"}, "parameter grouping"},
		{[]string{"--target", "normal:1"}, "parameter target"},
		{[]string{"--k", "5"}, "not a parameter of method distribution"},
		{[]string{"--method", "nosuch"}, "unknown method"},
		{[]string{"--seed", "abc"}, "seed"},
		{[]string{"--qi", "zipcode,gender", "--sa", "salary", "--grouping", "column:salary"}, "salary is the sensitive, not a quasi-identifier"},
		{[]string{"--qi", "zipcode,gender", "--sa", "salary", "--id", "name", "--grouping", "level:name=1"}, "name is the identifier, not a quasi-identifier"},
	}
	for _, c := range cases {
		args := append([]string{"run", "--in", "dataset:employees", "--out", "x"}, c.args...)
		_, errs, code := cli(t, dir, args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
	_, errs, _ := cli(t, dir, "run", "--in", "dataset:employees", "--out", "x", "--method", "nosuch")
	if !strings.Contains(errs, "known methods: distribution") {
		t.Errorf("unknown method should list the known ones: %s", errs)
	}
}

func TestCLIQueryErrorsPointAtTheToken(t *testing.T) {
	dir := t.TempDir()
	if _, e, c := cli(t, dir, append(figure2, "--out", "r")...); c != 0 {
		t.Fatal(e)
	}
	_, errs, code := cli(t, dir, "query", "--release", "r", "AVG(salary) WHERE zipcode BETWEN 1 AND 2")
	if code != 2 || !strings.Contains(errs, "query:1:27:") || !strings.Contains(errs, "                          ^") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	_, errs, code = cli(t, dir, "query", "--release", "r", "AVG(salary) WHERE salary > 3")
	if code != 2 || !strings.Contains(errs, "query:1:19: a condition on the sensitive attribute salary needs COUNT(*)") {
		t.Fatalf("WHERE on the SA: exit %d %s", code, errs)
	}
	_, errs, code = cli(t, dir, "query", "--release", "r", "COUNT(*) WHERE name = 'Alice'")
	if code != 2 || !strings.Contains(errs, "name is neither a published quasi-identifier nor the sensitive attribute") {
		t.Fatalf("WHERE on a dropped column: exit %d %s", code, errs)
	}
	// A COUNT with a condition on the sensitive attribute is bounded. Of
	// Figure 2's groups, 911** has 2 women and subdomains {30K} {40K}
	// {50K} {60K} (2 inside >= 50K): 0..2; 912** has 3 women and
	// [30-40K] [30-60K] [50-60K] (1 inside, 2 meet): 1..2; 913** has one
	// woman and [30-40K] [30-60K] x2 [50-60K] (1 inside, 3 meet): 0..1.
	out, errs, code := cli(t, dir, "query", "--release", "r", "--original", "dataset:employees", "COUNT(*) WHERE gender = 'F' AND salary >= 50000")
	if code != 0 || !strings.Contains(out, "true       3  (3 rows)") || !strings.Contains(out, "release    [1, 5]") {
		t.Fatalf("COUNT with an SA condition: exit %d\n%s%s", code, out, errs)
	}
}

func TestCLIGenAndDatasets(t *testing.T) {
	dir := t.TempDir()
	out, _, code := cli(t, dir, "datasets")
	if code != 0 {
		t.Fatal("datasets failed")
	}
	for _, name := range []string{"employees", "patients", "jobs", "census", "capitalloss", "universe"} {
		if !strings.Contains(out, name) {
			t.Errorf("datasets lacks %s", name)
		}
	}
	for _, f := range []string{"a.csv", "b.csv"} {
		if _, e, c := cli(t, dir, "gen", "census", "--rows", "3000", "--seed", "7", "--out", f); c != 0 {
			t.Fatal(e)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.csv"))
	if !bytes.Equal(a, b) || bytes.Count(a, []byte("\n")) != 3001 {
		t.Fatal("gen census is not byte-identical for the same seed or has the wrong row count")
	}
	if _, e, c := cli(t, dir, "gen", "employees", "--out", "e.csv", "--hierarchies", "h"); c != 0 {
		t.Fatal(e)
	}
	zip, _ := os.ReadFile(filepath.Join(dir, "h", "zipcode.csv"))
	if !strings.Contains(string(zip), "91110;9111*;911**;91***;9****;*") {
		t.Fatalf("zipcode hierarchy:\n%s", zip)
	}
	// The written hierarchies load back and drive a run.
	_, e, c := cli(t, dir, "run", "--in", "e.csv", "--qi", "zipcode,gender", "--sa", "salary", "--id", "name",
		"--hierarchy", "zipcode=h/zipcode.csv", "--hierarchy", "salary=h/salary.csv", "--grouping", "level:zipcode=2",
		"--target", "uniform", "--out", "r")
	if c != 0 {
		t.Fatal(e)
	}
	if _, e, c := cli(t, dir, "check", "r", "--original", "e.csv"); c != 0 {
		t.Fatal(e)
	}
	out, _, code = cli(t, dir, "inspect", "dataset:employees")
	if code != 0 || !strings.Contains(out, "salary") || !strings.Contains(out, "30000 .. 60000") {
		t.Fatalf("inspect: %s", out)
	}
	if _, e, c := cli(t, dir, "gen", "universe", "--rows", "500", "--ratio", "3", "--seed", "1", "--out", "u"); c != 0 {
		t.Fatal(e)
	}
	pd := readCSV(t, filepath.Join(dir, "u", "pd.csv"))
	if len(pd) != 1501 {
		t.Fatalf("pd.csv has %d rows, want 1500", len(pd)-1)
	}
}

func TestCLIEvalReportsBoundsThatContainTheTruth(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := cli(t, dir, "eval", "--in", "dataset:capitalloss", "--rows", "3000", "--grouping", "qi-sa", "--queries", "40", "--seed", "3")
	if code != 0 || !strings.Contains(out, "40 of 40 contain the true answer") {
		t.Fatalf("eval exit %d\n%s\n%s", code, out, errs)
	}
}

func TestCLIEvalSweepWritesCSV(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := cli(t, dir, "eval", "--in", "dataset:capitalloss", "--rows", "3000", "--grouping", "qi-sa",
		"--queries", "20", "--seed", "3", "--sweep", "fakes=0,5%,20%", "--csv", "sweep.csv")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	rows := readCSV(t, filepath.Join(dir, "sweep.csv"))
	if len(rows) != 4 || rows[0][0] != "parameter" || rows[1][1] != "0" || rows[3][1] != "20%" {
		t.Fatalf("sweep.csv: %v", rows)
	}
	// Koudas et al. 2009, Section 6.2: fake values lower the sum of ranges.
	none, _ := strconv.ParseFloat(rows[1][7], 64)
	many, _ := strconv.ParseFloat(rows[3][7], 64)
	if !(many < none) {
		t.Fatalf("sum of ranges with 20%% fakes (%s) should be below none (%s)", rows[3][7], rows[1][7])
	}
	_, _, code = cli(t, dir, "eval", "--in", "dataset:capitalloss", "--rows", "500", "--queries", "5", "--csv", "q.csv")
	q := readCSV(t, filepath.Join(dir, "q.csv"))
	if code != 0 || len(q) != 6 || q[0][0] != "query" || q[0][7] != "contains_truth" {
		t.Fatalf("per-query csv: %v", q)
	}
	for _, r := range q[1:] {
		if r[8] == "false" && r[7] != "true" {
			t.Fatalf("bounds do not contain the truth: %v", r)
		}
	}
}

func TestCLIHierarchyFileInAnyRowOrder(t *testing.T) {
	dir := t.TempDir()
	if _, e, c := cli(t, dir, "gen", "employees", "--out", "e.csv"); c != 0 {
		t.Fatal(e)
	}
	// Figure 3's tree, listed with 60K before 50K.
	os.WriteFile(filepath.Join(dir, "salary.csv"), []byte("60000;50000-60000;*\n30000;30000-40000;*\n50000;50000-60000;*\n40000;30000-40000;*\n"), 0o644)
	out, errs, code := cli(t, dir, "run", "--in", "e.csv", "--qi", "zipcode,gender", "--sa", "salary", "--id", "name",
		"--hierarchy", "salary=salary.csv", "--hierarchy", "zipcode=masking", "--grouping", "level:zipcode=2", "--target", "uniform", "--out", "r")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if _, e, c := cli(t, dir, "check", "r", "--original", "e.csv"); c != 0 {
		t.Fatal(e)
	}
	got := saByGroup(t, filepath.Join(dir, "r/sa.csv"))
	if strings.Join(got["2"], " ") != "30000-40000 30000-60000 50000-60000" {
		t.Fatalf("group 2: %v", got["2"])
	}
}

func TestCLIReleaseHoldsNothingPrivate(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "private", "alice"), 0o755)
	os.WriteFile(filepath.Join(dir, "private", "alice", "hr-target.csv"), []byte("value,weight\n30000,1\n40000,2\n50000,2\n60000,1\n"), 0o644)
	_, errs, code := cli(t, dir, "run", "--in", "dataset:employees", "--grouping", "level:zipcode=2",
		"--target", "private/alice/hr-target.csv", "--seed", "99", "--out", "r")
	if code != 0 {
		t.Fatal(errs)
	}
	for _, f := range []string{"qi.csv", "sa.csv", "hierarchy.csv", "manifest.json", "report.md"} {
		b, _ := os.ReadFile(filepath.Join(dir, "r", f))
		for _, secret := range []string{"alice", "hr-target", "Alice", "Debra", "requested_target", `"seed"`, "dataset:employees"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s contains %q", f, secret)
			}
		}
	}
	// The audit record beside the release keeps the private details.
	audit, _ := os.ReadFile(filepath.Join(dir, "r.audit.json"))
	if !strings.Contains(string(audit), `"seed": 99`) || !strings.Contains(string(audit), "hr-target.csv") {
		t.Fatalf("audit record lacks the seed or the target file:\n%s", audit)
	}
}

func TestCLIAuditFailureLeavesNoRelease(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "r.audit.json"), 0o755) // the audit record cannot be written
	_, errs, code := cli(t, dir, append(figure2, "--out", "r")...)
	if code != 2 || !strings.Contains(errs, "audit record") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
		t.Fatal("the release was written although its audit record could not be")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestCLIDataSeed(t *testing.T) {
	dir := t.TempDir()
	a, _, _ := cli(t, dir, "inspect", "dataset:census", "--rows", "1000", "--seed", "7")
	b, _, _ := cli(t, dir, "inspect", "dataset:census", "--rows", "1000", "--data-seed", "7")
	c, _, _ := cli(t, dir, "inspect", "dataset:census", "--rows", "1000")
	cli(t, dir, "gen", "census", "--rows", "1000", "--seed", "7", "--out", "g.csv")
	d, _, _ := cli(t, dir, "inspect", "g.csv")
	if a != b || a == c || strings.SplitN(a, "\n", 2)[1] != strings.SplitN(d, "\n", 2)[1] {
		t.Fatalf("--seed/--data-seed do not seed the dataset as gen does:\n%s\n%s\n%s\n%s", a, b, c, d)
	}
}

func TestCLIDegenerateTargetIsAViolation(t *testing.T) {
	dir := t.TempDir()
	// Each group's own distribution on groups of identical QIs: most groups
	// hold one value, which their target then gives probability 1.
	args := []string{"run", "--in", "dataset:census", "--rows", "2000", "--grouping", "qi-sa", "--target", "group", "--out", "r"}
	out, errs, code := cli(t, dir, args...)
	if code != 1 || !strings.Contains(errs, "groups violate the privacy requirement") || !strings.Contains(out, "! max P'(v) in a group") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
		t.Fatal("a violating release was written")
	}
	if _, e, c := cli(t, dir, append(args, "--accept-violations", "--allow-growth")...); c != 0 { // group_weights.csv: a row per node and group
		t.Fatal(e)
	}
	man, _ := os.ReadFile(filepath.Join(dir, "r", "manifest.json"))
	if !strings.Contains(string(man), `"accepted_violations": true`) {
		t.Fatal("the manifest does not say the violations were accepted")
	}
	out, _, code = cli(t, dir, "check", "r")
	if code != 1 || !strings.Contains(out, "FAIL disclosure") {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
}

// TestOneMessageForK: k is refused in one place with one message, for a
// method's k, the comparison's (eval --compare) and a sweep's, where
// each had its own check and words before (issue 23, item 3).
func TestOneMessageForK(t *testing.T) {
	dir := t.TempDir()
	const want = `privlab: parameter k = "1": must be >= 2 and <= 11 (rows) (hint: a group must hold at least two records to hide anyone and cannot exceed the table`
	for _, args := range [][]string{
		{"eval", "--in", "dataset:employees", "--qi", "zipcode", "--sa", "salary", "--compare", "--k", "1"},
		{"eval", "--in", "dataset:employees", "--qi", "zipcode", "--sa", "salary", "--sweep", "k=1,2"},
		{"run", "--in", "dataset:employees", "--qi", "zipcode", "--sa", "salary", "--method", "kja", "--variant", "mondrian", "--k", "1", "--out", "x"},
		{"run", "--in", "dataset:employees", "--qi", "zipcode", "--sa", "salary", "--method", "lossyjoin", "--k", "1", "--out", "x"},
	} {
		_, stderr, code := cli(t, dir, args...)
		if code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("privlab %s: exit %d\n%s\nwant\n%s...", strings.Join(args, " "), code, stderr, want)
		}
	}
}
