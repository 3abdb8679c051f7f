package check_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// employees is Figure 1 of Koudas et al. 2009 (salaries in units, so
// 30K is 30000).
const employees = `name,zipcode,gender,salary
Alice,91110,F,30000
Bob,91110,M,40000
Carol,91110,M,50000
Debra,91130,F,60000
Elaine,91210,F,40000
Grace,91220,F,30000
Helen,91240,F,50000
Jason,91310,M,40000
Kyle,91320,M,60000
Leo,91330,M,60000
Nancy,91340,F,60000
`

var (
	// The lines of a check: report compares report.md with the manifest
	// (hand-written releases without a report have no such line).
	namesChecks     = []string{"files", "contents", "report", "declaration", "columns", "sa columns", "sa domain", "hierarchy", "subdomains", "P'-privacy", "disclosure", "tuples covered", "fake budget"}
	namesNoOriginal = append(append([]string(nil), namesChecks...), "claims", "risk", "checks")
	namesOriginal   = append(append([]string(nil), namesChecks...), "tuples", "support", "generalization", "shuffled", "claims", "risk", "checks")
)

// withoutReport drops the lines a hand-written release has no data for:
// the report and the verification lines of an export.
func withoutReport(list []string) []string {
	var out []string
	for _, n := range list {
		if n != "report" && n != "checks" && n != "risk" {
			out = append(out, n)
		}
	}
	return out
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadText(t *testing.T, text string) *model.Table {
	t.Helper()
	tb, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: "original.csv"})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// figure2Project is the run that reproduces Figure 2: zipcode masked to
// 911**, 912**, 913** (grouping level:zipcode=2) and the uniform target
// over Figure 3's binary hierarchy.
func figure2Project(input string) pipeline.Project {
	return pipeline.Project{
		Input:       input,
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
		Hierarchies: map[string]string{"zipcode": "masking"},
		Params:      model.Values{"grouping": "level:zipcode=2", "target": "uniform", "seed": "1"},
	}
}

// export runs the pipeline on the project and writes the release to
// dir/out; it returns the release directory and the prepared run.
func export(t *testing.T, dir string, p pipeline.Project) (string, *pipeline.Prepared) {
	t.Helper()
	return exportWith(t, pipeline.Env{}, dir, p)
}

// exportWith is export in env (the embedded datasets, say).
func exportWith(t *testing.T, env pipeline.Env, dir string, p pipeline.Project) (string, *pipeline.Prepared) {
	t.Helper()
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if _, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	return out, prep
}

// figure2Release exports Figure 2 from Figure 1 in a temporary directory
// and returns the release directory and the input path.
func figure2Release(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "employees.csv")
	writeFile(t, in, employees)
	out, _ := export(t, dir, figure2Project(in))
	return out, in
}

func check(t *testing.T, dir string, orig *model.Table) *verify.Report {
	t.Helper()
	rep, err := catalogtest.Check(dir, verify.Options{Original: orig})
	if err != nil {
		t.Fatalf("Check(%s): %v", dir, err)
	}
	return rep
}

func names(r *verify.Report) []string {
	var out []string
	for _, l := range r.Lines {
		out = append(out, l.Name)
	}
	return out
}

// failing lists the failing lines but the claims and the report: an edit
// of the data usually also makes some figure of the manifest (and the
// report that states it) disagree, which TestReleaseEdits covers.
func failing(r *verify.Report) []string {
	out := []string{}
	for _, l := range r.Lines {
		if !l.OK && !strings.HasPrefix(l.Name, "claim ") && l.Name != "report" {
			out = append(out, l.Name)
		}
	}
	return out
}

// claimLines are the report's claim lines.
func claimLines(r *verify.Report) []verify.Line {
	var out []verify.Line
	for _, l := range r.Lines {
		if strings.HasPrefix(l.Name, "claim") {
			out = append(out, l)
		}
	}
	return out
}

func line(t *testing.T, r *verify.Report, name string) verify.Line {
	t.Helper()
	for _, l := range r.Lines {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no line %q in %v", name, r.Strings())
	return verify.Line{}
}

func wantFailing(t *testing.T, r *verify.Report, want ...string) {
	t.Helper()
	got := failing(r)
	if want == nil {
		want = []string{}
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("failing lines %q, want %q\n%s", got, want, strings.Join(r.Strings(), "\n"))
	}
	if len(want) == 0 {
		return // only claims may fail: TestClaims covers them
	}
	if r.OK() {
		t.Fatal("OK() true with failing lines")
	}
	if r.Err() == nil || !strings.HasPrefix(r.Err().Error(), "failed: ") {
		t.Fatalf("Err() = %v, want failed: %s", r.Err(), strings.Join(want, ", "))
	}
}

// rehash rewrites the SHA-256 of every listed file in manifest.json (and
// optionally edits the manifest), so that a tampered file is checked on
// its content alone.
func rehash(t *testing.T, dir string, edit func(m map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	for _, f := range m["files"].([]any) {
		e := f.(map[string]any)
		sum, err := releasedir.FileSHA256(filepath.Join(dir, e["name"].(string)))
		if errors.Is(err, os.ErrNotExist) {
			continue // listed but absent: keep what the edit wrote
		}
		if err != nil {
			t.Fatal(err)
		}
		e["sha256"] = sum
	}
	b, err = json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
}

// copyDir copies a release (flat directory) to a new temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dst, e.Name()), string(b))
	}
	return dst
}

// editRows rewrites a release CSV: fn gets the records (header first).
func editRows(t *testing.T, path string, fn func([][]string) [][]string) {
	t.Helper()
	verifytest.WriteCSV(t, path, fn(verifytest.ReadCSV(t, path)))
}

func findRow(t *testing.T, recs [][]string, want ...string) int {
	t.Helper()
	for i, r := range recs {
		if strings.Join(r, ",") == strings.Join(want, ",") {
			return i
		}
	}
	t.Fatalf("no row %v in %v", want, recs)
	return -1
}

func TestPipelineReleasePasses(t *testing.T) {
	out, in := figure2Release(t)
	// The exported groups are Figure 2's.
	sa := verifytest.ReadCSV(t, filepath.Join(out, "sa.csv"))
	var got []string
	for _, r := range sa[1:] {
		got = append(got, strings.Join(r, " "))
	}
	sort.Strings(got)
	want := []string{
		"1 30000 30000", "1 40000 40000", "1 50000 50000", "1 60000 60000",
		"2 30000 40000", "2 30000 60000", "2 50000 60000",
		"3 30000 40000", "3 30000 60000", "3 30000 60000", "3 50000 60000",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sa.csv is not Figure 2:\n%v", got)
	}

	rep := check(t, out, nil)
	if strings.Join(names(rep), "|") != strings.Join(namesNoOriginal, "|") {
		t.Fatalf("lines %q", names(rep))
	}
	wantFailing(t, rep)
	if rep.Dir != out {
		t.Fatalf("Dir %q", rep.Dir)
	}
	wantStrings := []string{
		"ok   files: 5 files match their SHA-256",
		"ok   contents: no unlisted files in the release",
		"ok   report: report.md states the manifest's names and figures",
		"ok   declaration: title, paper, certification, variant and parameters are distribution's own",
		"ok   columns: qi.csv holds GroupID and the 2 quasi-identifiers only (no identifier, no sensitive value)",
		"ok   sa columns: sa.csv holds GroupID, Low, High only",
		"ok   sa domain: sa_domain.csv lists the 4 values of salary, hierarchy.csv's leaves in order",
		"ok   hierarchy: 7 nodes over 4 values; children tile their parent",
		"ok   subdomains: every sa.csv row names a group of qi.csv and a node of hierarchy.csv (0 unknown groups, 0 unknown subdomains)",
		"ok   P'-privacy: in all 3 groups every value's posterior equals the effective target (Definition 3.2; max deviation 0)",
		"ok   disclosure: no group's target gives one value probability 1 (0 groups do)",
		"ok   tuples covered: every group has at least one subdomain per published tuple (0 groups short)",
		"ok   fake budget: 0 fake values in all, every group within the budget 0 (0 groups over)",
		"ok   claims: the 9 figures the manifest states agree with the files; unconfirmed without the original: members with P'(v) = 0, rows_in, dropped_columns",
		"ok   risk: the 23 figures every release gets (re-identification, diversity, closeness, loss) agree with the files",
		"ok   checks: the 13 verification lines the manifest states agree with this check; unconfirmed without the original or the audit record: faithful",
	}
	if strings.Join(rep.Strings(), "\n") != strings.Join(wantStrings, "\n") {
		t.Fatalf("report:\n%s", strings.Join(rep.Strings(), "\n"))
	}

	orig, err := csvfile.LoadFile(in, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep = check(t, out, orig)
	if strings.Join(names(rep), "|") != strings.Join(namesOriginal, "|") {
		t.Fatalf("lines with the original %q", names(rep))
	}
	wantFailing(t, rep)
	if l := line(t, rep, "generalization"); l.String() != "ok   generalization: every original value maps to a distinct subdomain of its group that contains it (Definition 3.1; 11 values)" {
		t.Fatalf("%s", l)
	}
	if l := line(t, rep, "tuples"); l.Text != "the quasi-identifier tuples of qi.csv are exactly the original's (0 QI combinations differ in count)" {
		t.Fatalf("%s", l)
	}
}

func TestPipelineReleasesWithFakesAndMondrianPass(t *testing.T) {
	// A larger random table: Mondrian groups, the table's own target and
	// up to 2 fakes per group; then qi-sa with a percentage budget; then
	// the per-group target (group_weights.csv).
	dir := t.TempDir()
	rng := model.NewRand(42)
	var b strings.Builder
	b.WriteString("id,age,zip,sex,loss\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "%d,%d,%d,%s,%d\n", i, 20+rng.Intn(40), 91100+10*rng.Intn(8), []string{"F", "M"}[rng.Intn(2)], 1000+100*rng.Intn(12))
	}
	in := filepath.Join(dir, "people.csv")
	writeFile(t, in, b.String())
	orig, err := csvfile.LoadFile(in, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// qi-sa makes one group per distinct QI tuple.
	tuples := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n")[1:] {
		f := strings.Split(l, ",")
		tuples[f[1]+","+f[2]+","+f[3]] = true
	}
	wantGroups := []int{21, len(tuples), 2, 1}
	for i, params := range []model.Values{
		{"grouping": "mondrian:10", "target": "table", "fakes": "2", "seed": "5"},
		{"grouping": "qi-sa", "target": "uniform", "fakes": "50%", "seed": "6"},
		{"grouping": "column:sex", "target": "group", "seed": "7"},
		{"grouping": "sa-only", "target": "normal:1500,300", "max-denominator": "4", "seed": "8"},
	} {
		p := pipeline.Project{Input: in, Roles: model.Roles{IDs: []string{"id"}, QIs: []string{"age", "zip", "sex"}, SA: "loss"}, Params: params}
		sub := filepath.Join(dir, fmt.Sprint(i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		out, _ := export(t, sub, p)
		var man struct {
			Details struct {
				FakeValues int `json:"fake_values"`
			} `json:"details"`
			Groups int `json:"groups"`
		}
		b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &man); err != nil {
			t.Fatal(err)
		}
		if man.Groups != wantGroups[i] || (params["fakes"] != "" && man.Details.FakeValues == 0) || (params["fakes"] == "" && man.Details.FakeValues != 0) {
			t.Fatalf("%v: %d groups, %d fakes; want %d groups", params, man.Groups, man.Details.FakeValues, wantGroups[i])
		}
		for _, o := range []*model.Table{nil, orig} {
			rep := check(t, out, o)
			wantFailing(t, rep)
			if o != nil && len(rep.Lines) != len(namesOriginal) {
				t.Fatalf("%v: lines %q", params, names(rep))
			}
		}
		_, gw := os.Stat(filepath.Join(out, "group_weights.csv"))
		if (params["target"] == "group") != (gw == nil) {
			t.Fatalf("%v: group_weights.csv present: %v", params, gw == nil)
		}
	}
}

func TestTamperEditSARow(t *testing.T) {
	out, _ := figure2Release(t)
	editRows(t, filepath.Join(out, "sa.csv"), func(recs [][]string) [][]string {
		recs[findRow(t, recs, "1", "30000", "30000")] = []string{"1", "30000", "40000"}
		return recs
	})
	rep := check(t, out, nil)
	wantFailing(t, rep, "files", "P'-privacy")
	// Group 1 is now {30-40},{40},{50},{60}: 40 gets (1/2 + 1)/4 = 0.375
	// against 0.25.
	if l := line(t, rep, "P'-privacy"); l.Text != "group 1: posterior deviates from the target by 0.125 (Definition 3.2)" {
		t.Fatalf("%s", l)
	}
	if l := line(t, rep, "files"); l.Text != "4 files match their SHA-256 ; changed or missing: sa.csv" {
		t.Fatalf("%s", l)
	}
	// With the hashes fixed, the privacy failure remains alone.
	rehash(t, out, nil)
	wantFailing(t, check(t, out, nil), "P'-privacy")
}

func TestTamperDeleteSARow(t *testing.T) {
	out, in := figure2Release(t)
	editRows(t, filepath.Join(out, "sa.csv"), func(recs [][]string) [][]string {
		i := findRow(t, recs, "1", "30000", "30000")
		return append(recs[:i], recs[i+1:]...)
	})
	rep := check(t, out, nil)
	wantFailing(t, rep, "files", "P'-privacy", "tuples covered")
	if l := line(t, rep, "tuples covered"); l.Text != "every group has at least one subdomain per published tuple (1 groups short)" {
		t.Fatalf("%s", l)
	}
	if l := line(t, rep, "P'-privacy"); l.Text != "group 1: posterior deviates from the target by 0.25 (Definition 3.2)" {
		t.Fatalf("%s", l)
	}
	rehash(t, out, nil)
	orig, _ := csvfile.LoadFile(in, csvfile.LoadOptions{})
	rep = check(t, out, orig)
	wantFailing(t, rep, "P'-privacy", "tuples covered", "generalization")
	if l := line(t, rep, "generalization"); l.Text != "only 10 of 11 original values can be mapped into their groups' subdomains (Definition 3.1)" {
		t.Fatalf("%s", l)
	}
}

func TestTamperExtraQIColumn(t *testing.T) {
	out, in := figure2Release(t)
	editRows(t, filepath.Join(out, "qi.csv"), func(recs [][]string) [][]string {
		for i := range recs {
			v := "x"
			if i == 0 {
				v = "salary"
			}
			recs[i] = append(recs[i], v)
		}
		return recs
	})
	wantFailing(t, check(t, out, nil), "files", "columns")
	rehash(t, out, nil)
	rep := check(t, out, nil)
	wantFailing(t, rep, "columns")
	// The extra column also makes the QI tuples differ from the original's.
	orig, _ := csvfile.LoadFile(in, csvfile.LoadOptions{})
	wantFailing(t, check(t, out, orig), "columns", "tuples")

	// A missing QI column, or columns in another order, fail too.
	out2, _ := figure2Release(t)
	editRows(t, filepath.Join(out2, "qi.csv"), func(recs [][]string) [][]string {
		for i := range recs {
			recs[i][1], recs[i][2] = recs[i][2], recs[i][1]
		}
		return recs
	})
	rehash(t, out2, nil)
	wantFailing(t, check(t, out2, nil), "columns")
	// sa.csv with a fourth column.
	out3, _ := figure2Release(t)
	editRows(t, filepath.Join(out3, "sa.csv"), func(recs [][]string) [][]string {
		for i := range recs {
			recs[i] = append(recs[i], "0")
		}
		return recs
	})
	rehash(t, out3, nil)
	wantFailing(t, check(t, out3, nil), "sa columns")
}

func TestTamperHierarchyWeight(t *testing.T) {
	out, _ := figure2Release(t)
	editRows(t, filepath.Join(out, "hierarchy.csv"), func(recs [][]string) [][]string {
		i := findRow(t, recs, "2", "1", "30000", "30000", "1")
		recs[i][4] = "3"
		return recs
	})
	rep := check(t, out, nil)
	// The target becomes 30: 3/8, 40: 1/8, 50 and 60: 1/4. Groups 2 and 3
	// still match it ({30-40},{50-60},{30-60}: 30 gets (3/4 + 3/8)/3 =
	// 3/8); group 1 ({30},{40},{50},{60}) is off by 1/8.
	wantFailing(t, rep, "files", "P'-privacy")
	if l := line(t, rep, "P'-privacy"); l.Text != "group 1: posterior deviates from the target by 0.125 (Definition 3.2)" {
		t.Fatalf("%s", l)
	}
}

func TestHierarchyReadErrors(t *testing.T) {
	out, _ := figure2Release(t)
	base := verifytest.ReadCSV(t, filepath.Join(out, "hierarchy.csv"))
	cases := []struct {
		name string
		edit func(recs [][]string) [][]string
		line int
		msg  string
	}{
		{"tiling", func(r [][]string) [][]string { r[2][3] = "45000"; return r }, 0,
			"the children of some node do not tile its Low..High range, or a leaf has Low != High"},
		{"leaf range", func(r [][]string) [][]string { r[3][3] = "35000"; return r }, 0,
			"the children of some node do not tile its Low..High range, or a leaf has Low != High"},
		{"second root", func(r [][]string) [][]string { r[5][1] = ""; return r }, 6, "second root"},
		{"missing parent", func(r [][]string) [][]string { r[3][1] = "9"; return r }, 4, "ParentID 9 does not exist"},
		{"weight", func(r [][]string) [][]string { r[4][4] = "1.5"; return r }, 5, "Weight must be an integer >= 0"},
		{"negative weight", func(r [][]string) [][]string { r[4][4] = "-1"; return r }, 5, "Weight must be an integer >= 0"},
		{"zero weights", func(r [][]string) [][]string { r[3][4], r[4][4] = "0", "0"; return r }, 3, "the children's weights sum to 0"},
		{"duplicate id", func(r [][]string) [][]string { r[7][0] = "5"; return r }, 0, "duplicate NodeID"},
		{"header", func(r [][]string) [][]string { r[0][4] = "W"; return r }, 1, "expected header NodeID,ParentID,Low,High,Weight"},
		{"no root", func(r [][]string) [][]string { r[1][1] = "6"; return r }, 0, "no root (a node with an empty ParentID)"},
		{"order", func(r [][]string) [][]string {
			// Swap the two leaves under node 1: not increasing.
			r[3][2], r[3][3], r[4][2], r[4][3] = "40000", "40000", "30000", "30000"
			r[2][2], r[2][3] = "40000", "30000"
			return r
		}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, out)
			recs := make([][]string, len(base))
			for i := range base {
				recs[i] = append([]string(nil), base[i]...)
			}
			verifytest.WriteCSV(t, filepath.Join(dir, "hierarchy.csv"), c.edit(recs))
			rep, err := catalogtest.Check(dir, verify.Options{})
			if err != nil || rep.OK() {
				t.Fatalf("error %v; report:\n%s", err, strings.Join(rep.Strings(), "\n"))
			}
			wantUnreadable(t, rep, dir+"/hierarchy.csv", c.line, c.msg)
		})
	}
}

// wantUnreadable asserts the report's readable line names the file, the
// line and the message of the problem: a release file that cannot be read
// fails the check.
func wantUnreadable(t *testing.T, rep *verify.Report, file string, ln int, msg string) {
	t.Helper()
	want := file
	if ln > 0 {
		want += ":" + strconv.Itoa(ln)
	}
	if msg != "" {
		want += ": " + msg
	}
	if l := line(t, rep, "readable"); l.OK || !strings.HasPrefix(l.Text, want) {
		t.Fatalf("%s, want %q", l, want)
	}
}

func TestUnlistedFile(t *testing.T) {
	out, _ := figure2Release(t)
	writeFile(t, filepath.Join(out, "notes.txt"), "private notes\n")
	rep := check(t, out, nil)
	wantFailing(t, rep, "contents")
	if l := line(t, rep, "contents"); l.String() != "FAIL contents: no unlisted files in the release ; unlisted: notes.txt" {
		t.Fatalf("%s", l)
	}
	// report.md is listed with its hash: an edit fails files (and the
	// report line: it no longer states the manifest).
	os.Remove(filepath.Join(out, "notes.txt"))
	writeFile(t, filepath.Join(out, "report.md"), "changed\n")
	rep = check(t, out, nil)
	wantFailing(t, rep, "files")
	if l := line(t, rep, "report"); l.OK {
		t.Fatalf("%s", l)
	}
	// A listed file that is missing fails files (and cannot be read).
	os.Remove(filepath.Join(out, "report.md"))
	rehash(t, out, func(m map[string]any) {
		m["files"] = append(m["files"].([]any), map[string]any{"name": "extra.csv", "rows": 0, "sha256": "00"})
	})
	rep = check(t, out, nil)
	wantFailing(t, rep, "files", "readable")
	if l := line(t, rep, "files"); l.Text != "4 files match their SHA-256 ; changed or missing: report.md, extra.csv" {
		t.Fatalf("%s", l)
	}
}

func TestFakeBudget(t *testing.T) {
	out, _ := figure2Release(t)
	// Group 1 ({30},{40},{50},{60}, 4 tuples) gets a fifth subdomain, the
	// root: still P'-private (each value 1/4) but one fake with budget 0.
	editRows(t, filepath.Join(out, "sa.csv"), func(recs [][]string) [][]string {
		return append(recs, []string{"1", "30000", "60000"})
	})
	rehash(t, out, nil)
	rep := check(t, out, nil)
	wantFailing(t, rep, "fake budget")
	if l := line(t, rep, "fake budget"); l.Text != "1 fake values in all, every group within the budget 0 (1 groups over)" {
		t.Fatalf("%s", l)
	}
	for _, c := range []struct {
		fakes string
		fail  bool
	}{
		{"1", false}, {"25%", false}, {"24%", true}, {"0", true}, {"", true}, {"abc", true},
	} {
		rehash(t, out, func(m map[string]any) { m["parameters"].(map[string]any)["fakes"] = c.fakes })
		rep := check(t, out, nil)
		if c.fail {
			wantFailing(t, rep, "fake budget")
		} else {
			wantFailing(t, rep)
		}
	}
	// Without a fakes parameter at all the budget is 0.
	rehash(t, out, func(m map[string]any) { delete(m["parameters"].(map[string]any), "fakes") })
	wantFailing(t, check(t, out, nil), "fake budget")
}

func TestOriginalValueOutsideTheSubdomains(t *testing.T) {
	out, _ := figure2Release(t)
	// Alice (group 1) earns 40000 instead of 30000: group 1's values
	// 40,40,50,60 cannot be matched one-to-one with {30},{40},{50},{60}.
	orig := loadText(t, strings.Replace(employees, "Alice,91110,F,30000", "Alice,91110,F,40000", 1))
	rep := check(t, out, orig)
	wantFailing(t, rep, "generalization")
	if l := line(t, rep, "generalization"); l.Text != "only 10 of 11 original values can be mapped into their groups' subdomains (Definition 3.1)" {
		t.Fatalf("%s", l)
	}
	// A value that is in no subdomain at all.
	orig = loadText(t, strings.Replace(employees, "Alice,91110,F,30000", "Alice,91110,F,35000", 1))
	rep = check(t, out, orig)
	wantFailing(t, rep, "generalization")
	if l := line(t, rep, "generalization"); l.Text != `original value "35000" of salary is not in hierarchy.csv` {
		t.Fatalf("%s", l)
	}
	// Numerically equal spellings match the hierarchy's leaves.
	orig = loadText(t, strings.Replace(employees, "Alice,91110,F,30000", "Alice,91110,F,30000.0", 1))
	wantFailing(t, check(t, out, orig))
}

func TestOriginalWithAnExtraRow(t *testing.T) {
	out, _ := figure2Release(t)
	orig := loadText(t, employees+"Zoe,91110,M,40000\n")
	rep := check(t, out, orig)
	wantFailing(t, rep, "tuples")
	if l := line(t, rep, "tuples"); l.Text != "the quasi-identifier tuples of qi.csv are exactly the original's (1 QI combinations differ in count)" {
		t.Fatalf("%s", l)
	}
	if got := len(rep.Lines) - len(claimLines(rep)); got != len(namesChecks)+3 { // tuples, risk, checks
		t.Fatalf("checks went on after the tuples failed: %q", names(rep))
	}
	// A missing row, or a missing QI column or SA column in the original.
	orig = loadText(t, strings.Replace(employees, "Bob,91110,M,40000\n", "", 1))
	wantFailing(t, check(t, out, orig), "tuples")
	// An original without the release's columns is an input error (exit 2
	// on the command line), not a failed check.
	for _, text := range []string{"name,zipcode,salary\nA,91110,30000\n", "name,zipcode,gender\nA,91110,F\n"} {
		_, err := catalogtest.Check(out, verify.Options{Original: loadText(t, text)})
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "original" {
			t.Fatalf("original %q: %v", text, err)
		}
	}
}

func TestOriginalWithAnExtraUnpublishedTuple(t *testing.T) {
	// An original row whose QI combination was never published: the
	// published QI tuples are not exactly the original's, so the tuples
	// line must fail (not pass and leave the failure to generalization).
	out, _ := figure2Release(t)
	orig := loadText(t, employees+"Zoe,99999,F,40000\n")
	rep := check(t, out, orig)
	if rep.OK() {
		t.Fatal("an original with an unpublished row passes")
	}
	if l := line(t, rep, "tuples"); l.OK {
		t.Fatalf("%s\n(an original row with QI 99999,F is not in qi.csv)", l)
	}
}

func TestQIRowsInInputOrder(t *testing.T) {
	// Reorder an exported qi.csv into input order (from the audit row map).
	out, in := figure2Release(t)
	b, err := os.ReadFile(releasedir.AuditPath(out))
	if err != nil {
		t.Fatal(err)
	}
	var audit releasedir.Audit
	if err := json.Unmarshal(b, &audit); err != nil {
		t.Fatal(err)
	}
	rowMap := audit.RowMap["qi.csv"]
	editRows(t, filepath.Join(out, "qi.csv"), func(recs [][]string) [][]string {
		body := make([][]string, len(recs)-1)
		for i, r := range recs[1:] {
			body[rowMap[i]] = r
		}
		return append(recs[:1], body...)
	})
	rehash(t, out, nil)
	orig, _ := csvfile.LoadFile(in, csvfile.LoadOptions{})
	rep := check(t, out, orig)
	wantFailing(t, rep, "shuffled")
	// Without the original the order cannot be judged.
	wantFailing(t, check(t, out, nil))
}

func TestHandWrittenFigure2(t *testing.T) {
	orig := loadText(t, employees)
	// Figure 2 with Figure 3's uniform weights, written by hand
	// (testdata/figure2), passes with and without the original.
	rep := check(t, "testdata/figure2", nil)
	wantFailing(t, rep)
	if len(rep.Lines) != len(namesNoOriginal)-3 {
		t.Fatalf("lines %q", names(rep))
	}
	rep = check(t, "testdata/figure2", orig)
	wantFailing(t, rep)
	if strings.Join(names(rep), "|") != strings.Join(withoutReport(namesOriginal), "|") {
		t.Fatalf("lines %q", names(rep))
	}
	// The same release with qi.csv in input order: not shuffled.
	rep = check(t, "testdata/figure2-inorder", orig)
	wantFailing(t, rep, "shuffled")
	if l := line(t, rep, "shuffled"); l.String() != "FAIL shuffled: qi.csv rows are in the input's order" {
		t.Fatalf("%s", l)
	}
	wantFailing(t, check(t, "testdata/figure2-inorder", nil))
}

func TestHandWrittenPerGroupTarget(t *testing.T) {
	// Group 3 (40K, 60K, 60K, 60K) gets its own target 40K: 1/4, 60K: 3/4
	// (testdata/figure2-group/group_weights.csv: root -> {30,40} 1, {50,60}
	// 3; 30 0, 40 1; 50 0, 60 1) and is published without generalization:
	// {40},{60},{60},{60}. Groups 1 and 2 keep hierarchy.csv's weights.
	orig := loadText(t, employees)
	wantFailing(t, check(t, "testdata/figure2-group", nil))
	wantFailing(t, check(t, "testdata/figure2-group", orig))

	// Without group_weights.csv, group 3 is checked against the uniform
	// target and fails.
	dir := copyDir(t, "testdata/figure2-group")
	os.Remove(filepath.Join(dir, "group_weights.csv"))
	rehash(t, dir, func(m map[string]any) { m["files"] = m["files"].([]any)[:4] })
	rep := check(t, dir, nil)
	wantFailing(t, rep, "P'-privacy")
	if l := line(t, rep, "P'-privacy"); l.Text != "group 3: posterior deviates from the target by 0.5 (Definition 3.2)" {
		t.Fatalf("%s", l)
	}

	// Group 3's value 60K (Kyle) replaced by 50K lies outside every
	// subdomain of group 3, and group 3's target gives 50K probability 0.
	orig2 := loadText(t, strings.Replace(employees, "Kyle,91320,M,60000", "Kyle,91320,M,50000", 1))
	rep = check(t, "testdata/figure2-group", orig2)
	wantFailing(t, rep, "support", "generalization")
	if l := line(t, rep, "generalization"); l.Text != "only 10 of 11 original values can be mapped into their groups' subdomains (Definition 3.1)" {
		t.Fatalf("%s", l)
	}

	// A weight changed for group 3 only.
	dir = copyDir(t, "testdata/figure2-group")
	editRows(t, filepath.Join(dir, "group_weights.csv"), func(recs [][]string) [][]string {
		recs[findRow(t, recs, "3", "4", "3")][2] = "2"
		return recs
	})
	rehash(t, dir, nil)
	rep = check(t, dir, nil)
	wantFailing(t, rep, "P'-privacy")
	// target 40: 1/3, 60: 2/3 against the published 1/4, 3/4.
	if l := line(t, rep, "P'-privacy"); !strings.HasPrefix(l.Text, "group 3: posterior deviates from the target by 0.08333") {
		t.Fatalf("%s", l)
	}
}

func TestGroupWeightsErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		text string
		line int
		msg  string
	}{
		{"header", "Group,NodeID,Weight\n3,0,1\n", 1, "expected header GroupID,NodeID,Weight"},
		{"unknown group", "GroupID,NodeID,Weight\n3,0,1\n9,0,1\n", 3, "unknown GroupID or NodeID, or a Weight that is not an integer >= 0"},
		{"node out of range", "GroupID,NodeID,Weight\n3,7,1\n", 2, "unknown GroupID or NodeID, or a Weight that is not an integer >= 0"},
		{"negative weight", "GroupID,NodeID,Weight\n3,1,-2\n", 2, "unknown GroupID or NodeID, or a Weight that is not an integer >= 0"},
		{"text weight", "GroupID,NodeID,Weight\n3,1,one\n", 2, "unknown GroupID or NodeID, or a Weight that is not an integer >= 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := copyDir(t, "testdata/figure2-group")
			writeFile(t, filepath.Join(dir, "group_weights.csv"), c.text)
			rehash(t, dir, nil)
			rep, err := catalogtest.Check(dir, verify.Options{})
			if err != nil {
				t.Fatal(err)
			}
			wantUnreadable(t, rep, dir+"/group_weights.csv", c.line, c.msg)
		})
	}
}

func TestGroupWeightsZeroSumIsRejected(t *testing.T) {
	// hierarchy.csv refuses a node whose children's weights sum to 0;
	// group_weights.csv must too. Here group 3's weights put 0 on both
	// children of {30,40} and the group publishes {30-40} x2, {50-60} x2:
	// the mass under {30-40} vanishes from target and posterior alike, so
	// the P'-privacy line passes on a "target" that is not a distribution
	// (it sums to 1/2) and a posterior P'(v | {30-40}) = 0/0.
	dir := copyDir(t, "testdata/figure2-group")
	writeFile(t, filepath.Join(dir, "group_weights.csv"),
		"GroupID,NodeID,Weight\n3,0,1\n3,1,1\n3,2,0\n3,3,0\n3,4,1\n3,5,1\n3,6,1\n")
	editRows(t, filepath.Join(dir, "sa.csv"), func(recs [][]string) [][]string {
		out := recs[:1]
		for _, r := range recs[1:] {
			if r[0] != "3" {
				out = append(out, r)
			}
		}
		return append(out, []string{"3", "30000", "40000"}, []string{"3", "30000", "40000"},
			[]string{"3", "50000", "60000"}, []string{"3", "50000", "60000"})
	})
	rehash(t, dir, nil)
	rep, err := catalogtest.Check(dir, verify.Options{})
	if err == nil && rep.OK() {
		t.Fatalf("a group target whose node {30000-40000} has children weights 0+0 passes:\n%s", strings.Join(rep.Strings(), "\n"))
	}
}

func TestGroupWeightsFollowNodeIDs(t *testing.T) {
	// hierarchy.csv lists its nodes in another order (leaves first,
	// siblings still in value order): NodeIDs 2, 3, 5, 6, 1, 4, 0. NodeIDs
	// still identify the nodes, and group_weights.csv names NodeIDs.
	dir := copyDir(t, "testdata/figure2-group")
	editRows(t, filepath.Join(dir, "hierarchy.csv"), func(recs [][]string) [][]string {
		out := [][]string{recs[0]}
		for _, id := range []int{2, 3, 5, 6, 1, 4, 0} {
			if recs[id+1][0] != fmt.Sprint(id) {
				t.Fatalf("row %d is NodeID %s", id+1, recs[id+1][0])
			}
			out = append(out, recs[id+1])
		}
		return out
	})
	// Without per-group weights the reordered hierarchy is read fine.
	plain := copyDir(t, "testdata/figure2")
	verifytest.WriteCSV(t, filepath.Join(plain, "hierarchy.csv"), verifytest.ReadCSV(t, filepath.Join(dir, "hierarchy.csv")))
	rehash(t, plain, nil)
	wantFailing(t, check(t, plain, loadText(t, employees)))
	rehash(t, dir, nil)
	rep := check(t, dir, loadText(t, employees))
	if !rep.OK() {
		t.Fatalf("the release with hierarchy.csv rows reordered fails (group_weights.csv NodeIDs are read as row positions):\n%s",
			strings.Join(rep.Strings(), "\n"))
	}
}

func TestFlowRequiresConsistentGroupAssignment(t *testing.T) {
	// Original: QI A with values 1 and 2, QI B with values 3 and 4.
	// Published: group 1 = {A, B} with subdomains {1},{2}; group 2 = {A, B}
	// with {3},{4} (per-group targets make both P'-private). Group 1's B
	// tuple has value 3 or 4, which is in neither {1} nor {2}: no mapping
	// of Definition 3.1 exists, so the check with the original must fail.
	dir := filepath.Join(t.TempDir(), "rel")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "qi.csv"), "GroupID,q\n1,A\n2,B\n2,A\n1,B\n")
	writeFile(t, filepath.Join(dir, "sa.csv"), "GroupID,Low,High\n1,1,1\n2,3,3\n1,2,2\n2,4,4\n")
	writeFile(t, filepath.Join(dir, "hierarchy.csv"), "NodeID,ParentID,Low,High,Weight\n0,,1,4,1\n1,0,1,2,1\n2,1,1,1,1\n3,1,2,2,1\n4,0,3,4,1\n5,4,3,3,1\n6,4,4,4,1\n")
	writeFile(t, filepath.Join(dir, "sa_domain.csv"), "s\n1\n2\n3\n4\n")
	writeFile(t, filepath.Join(dir, "group_weights.csv"), "GroupID,NodeID,Weight\n"+
		"1,0,1\n1,1,1\n1,2,1\n1,3,1\n1,4,0\n1,5,1\n1,6,1\n"+
		"2,0,1\n2,1,0\n2,2,1\n2,3,1\n2,4,1\n2,5,1\n2,6,1\n")
	writeFile(t, filepath.Join(dir, "manifest.json"), `{"method":"distribution","parameters":{"fakes":"0"},"quasi_identifiers":["q"],"sensitive":"s",
"rows_in":4,"rows_published":4,"groups":2,
"files":[{"name":"qi.csv","rows":4},{"name":"sa.csv","rows":4},{"name":"hierarchy.csv","rows":7},{"name":"sa_domain.csv","rows":4},{"name":"group_weights.csv","rows":14}]}`)
	rehash(t, dir, nil)
	wantFailing(t, check(t, dir, nil)) // P'-private on its own
	// Each QI value lies in both groups, so the files alone do not say which
	// original row is in which group: without the audit record the check
	// cannot decide and says so.
	fits := loadText(t, "q,s\nA,1\nA,3\nB,2\nB,4\n")
	wantFailing(t, check(t, dir, fits), "pinning")
	if l := line(t, check(t, dir, fits), "pinning"); !strings.Contains(l.Text, "undetermined") {
		t.Fatalf("%s", l)
	}
	// With the audit record pinning qi.csv rows (1,A)(2,B)(2,A)(1,B) to
	// input rows, the fitting original passes: group 1 = {A:1, B:2}.
	pins := &releasedir.Audit{RowMap: map[string][]int{"qi.csv": {0, 3, 1, 2}}}
	rep, err := catalogtest.Check(dir, verify.Options{Original: fits, Audit: pins})
	if err != nil {
		t.Fatal(err)
	}
	wantFailing(t, rep)
	// Original A:{1,2}, B:{3,4}: group 1 holds one A and one B tuple, and
	// B's values 3 and 4 fit neither {1} nor {2}, whatever the pins.
	bad := loadText(t, "q,s\nA,1\nA,2\nB,3\nB,4\n")
	for _, rows := range [][]int{{0, 2, 1, 3}, {1, 2, 0, 3}, {0, 3, 1, 2}} {
		rep, err := catalogtest.Check(dir, verify.Options{Original: bad, Audit: &releasedir.Audit{RowMap: map[string][]int{"qi.csv": rows}}})
		if err != nil {
			t.Fatal(err)
		}
		if l := line(t, rep, "generalization"); l.OK {
			t.Fatalf("pins %v: %s", rows, l)
		}
	}
	// Pins that contradict the QI values are refused.
	rep, _ = catalogtest.Check(dir, verify.Options{Original: bad, Audit: &releasedir.Audit{RowMap: map[string][]int{"qi.csv": {2, 0, 1, 3}}}})
	wantFailing(t, rep, "audit")
}

func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.csv")
	writeFile(t, file, "a\n1\n")
	var ie *model.InputError
	for _, p := range []string{file, filepath.Join(dir, "nosuch")} {
		rep, err := catalogtest.Check(p, verify.Options{})
		if rep != nil || !errors.As(err, &ie) || ie.File != p || ie.Msg != "not a release directory" {
			t.Fatalf("%s: %v %v", p, rep, err)
		}
	}
	// A directory without manifest.json.
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	rep, err := catalogtest.Check(empty, verify.Options{})
	if rep != nil || !errors.As(err, &ie) || ie.File != filepath.Join(empty, "manifest.json") || ie.Msg != "file does not exist" {
		t.Fatalf("no manifest: %v %v", rep, err)
	}
	// A manifest that is not JSON or names an unknown method, and a
	// release whose listed data file is gone: the release fails its check.
	for _, tt := range []struct{ manifest, want string }{
		{"{not json", "not valid JSON"},
		{`{"method":"nosuch"}`, `unknown method "nosuch"`},
	} {
		writeFile(t, filepath.Join(empty, "manifest.json"), tt.manifest)
		rep, err := catalogtest.Check(empty, verify.Options{})
		if err != nil || rep.OK() || !strings.Contains(line(t, rep, "readable").Text, tt.want) {
			t.Fatalf("%s: %v %v", tt.manifest, rep, err)
		}
	}
	out, _ := figure2Release(t)
	os.Remove(filepath.Join(out, "sa.csv"))
	rep, err = catalogtest.Check(out, verify.Options{})
	if err != nil || rep.OK() || !strings.Contains(line(t, rep, "readable").Text, "sa.csv: file does not exist") {
		t.Fatalf("missing sa.csv: %v %v", rep, err)
	}
}

func TestSubdomainsUnknown(t *testing.T) {
	out, _ := figure2Release(t)
	editRows(t, filepath.Join(out, "sa.csv"), func(recs [][]string) [][]string {
		return append(recs, []string{"9", "30000", "60000"}, []string{"1", "30000", "50000"})
	})
	rehash(t, out, nil)
	rep := check(t, out, nil)
	wantFailing(t, rep, "subdomains")
	if l := line(t, rep, "subdomains"); l.Text != "every sa.csv row names a group of qi.csv and a node of hierarchy.csv (1 unknown groups, 1 unknown subdomains)" {
		t.Fatalf("%s", l)
	}
}

func TestEmptyGroup(t *testing.T) {
	// A group of qi.csv without any subdomain in sa.csv.
	out, _ := figure2Release(t)
	editRows(t, filepath.Join(out, "sa.csv"), func(recs [][]string) [][]string {
		keep := recs[:1]
		for _, r := range recs[1:] {
			if r[0] != "2" {
				keep = append(keep, r)
			}
		}
		return keep
	})
	rehash(t, out, nil)
	rep := check(t, out, nil)
	wantFailing(t, rep, "P'-privacy", "tuples covered")
	if l := line(t, rep, "P'-privacy"); l.Text != "group 2: posterior deviates from the target by +Inf (Definition 3.2)" {
		t.Fatalf("%s", l)
	}
}

func TestMissingValuesReleaseChecksAgainstItsInput(t *testing.T) {
	// An input with missing QI values (Zed has no zipcode, Yan no gender).
	// `privlab run` drops those rows (or keeps them as "?") and the export
	// verification passes against the prepared table; `privlab check DIR
	// --original INPUT` must pass too when given the very input file.
	dir := t.TempDir()
	in := filepath.Join(dir, "employees.csv")
	writeFile(t, in, employees+"Zed,,M,40000\nYan,91111,NA,30000\n")
	orig, err := csvfile.LoadFile(in, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, policy := range []string{"drop", "category"} {
		t.Run(policy, func(t *testing.T) {
			p := figure2Project(in)
			p.Missing = policy
			sub := filepath.Join(dir, policy)
			os.Mkdir(sub, 0o755)
			out, prep := export(t, sub, p)
			// Export verified against the input as loaded; the prepared
			// table (after dropping) is not the input: it has fewer rows.
			wantFailing(t, check(t, out, orig))
			if policy == "drop" && check(t, out, prep.Table).OK() {
				t.Fatal("a table of fewer rows than the input passes as the original")
			}
		})
	}
}
