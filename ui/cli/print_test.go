package cli

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// figure2 prepares the project that reproduces Figure 2 of Koudas et al.
// 2009 on Figure 1's employees (zipcode masked to 911**/912**/913**,
// uniform target over Figure 3's binary hierarchy).
func figure2(t *testing.T) *pipeline.Prepared {
	t.Helper()
	p := pipeline.Project{
		Input:       "dataset:employees",
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
		Hierarchies: map[string]string{"zipcode": "masking"},
		Params:      model.Values{"grouping": "level:zipcode=2", "target": "uniform", "seed": "1"},
	}
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	return prep
}

func loadText(t *testing.T, name, text string) *model.Table {
	t.Helper()
	tb, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func printed(r *pipeline.QueryResult) string {
	var b bytes.Buffer
	printQuery(&b, r)
	return b.String()
}

func TestAnswerAndPrint(t *testing.T) {
	p := figure2(t)
	res, err := pipeline.Run(context.Background(), p, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Figure 2's query: the average salary of female employees is 45K;
	// the release bounds it by [35K, 55K] (Koudas et al. 2009, Section 2).
	r, err := pipeline.Answer("AVG(salary) WHERE gender = 'F'", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want := "query      AVG(salary) WHERE gender = 'F'\n" +
		"true       45000  (6 rows)\n" +
		"release    [35000, 55000]\n" +
		"rel. error 0.4444\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if math.Abs(r.RelErr-20000.0/45000) > 1e-12 || !r.HasTru || r.Truth.Count != 6 {
		t.Fatalf("%+v", r)
	}
	// COUNT is exact.
	r, err = pipeline.Answer("COUNT(*) WHERE gender = 'F' AND zipcode >= 91200", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want = "query      COUNT(*) WHERE gender = 'F' AND zipcode >= 91200\n" +
		"true       4  (4 rows)\n" +
		"release    4 (exact)\n" +
		"rel. error 0.0000\n" +
		"how        exact: quasi-identifiers are published unchanged\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Without the truth: no true line and no error.
	r, err = pipeline.Answer("SUM(salary) WHERE zipcode BETWEEN 91300 AND 91399", nil, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	// Group 3 ({30-60},{30-60},{50-60},{30-40}) is selected whole: the sum
	// lies in [30+30+50+30, 60+60+60+40] = [140K, 220K] (Section 2's
	// [140K/4, 220K/4] for the average).
	want = "query      SUM(salary) WHERE zipcode BETWEEN 91300 AND 91399\n" +
		"release    [140000, 220000]\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) || r.HasTru {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Nothing selected: a count of 0; other aggregates are undefined.
	r, err = pipeline.Answer("COUNT(*) WHERE zipcode = 1", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want = "query      COUNT(*) WHERE zipcode = 1\n" +
		"true       0  (0 rows)\n" +
		"release    0 (exact)\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	r, err = pipeline.Answer("AVG(salary) WHERE zipcode = 1", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want = "query      AVG(salary) WHERE zipcode = 1\n" +
		"true       (no row selected)\n" +
		"release    (no row selected)\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// A bad query is an error with its column.
	if _, err := pipeline.Answer("AVG(salary WHERE", p.Table, res.Answerer); err == nil {
		t.Fatal("bad query accepted")
	} else if qe := (*query.Error)(nil); !errors.As(err, &qe) {
		t.Fatalf("bad query: %T %v", err, err)
	}
	if _, err := pipeline.Answer("AVG(nosuch)", p.Table, res.Answerer); err == nil {
		t.Fatal("unknown column accepted")
	}
}

func TestPrintEstimatesAndWarnings(t *testing.T) {
	tb := loadText(t, "t.csv", "x,s\n1,10\n2,20\n3,30\n")
	// An estimate.
	r, err := pipeline.Answer("AVG(s) WHERE x >= 2", tb, cannedAnswerer{method.Bounds{Estimate: 27.5, HasEst: true}})
	if err != nil {
		t.Fatal(err)
	}
	want := "query      AVG(s) WHERE x >= 2\ntrue       25  (2 rows)\nrelease    27.5 (estimate)\nrel. error 0.1000\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Bounds that miss the truth are flagged.
	r, _ = pipeline.Answer("SUM(s)", tb, cannedAnswerer{method.Bounds{Low: 61, High: 90.5, HasBounds: true, Note: "n"}})
	want = "query      SUM(s)\ntrue       60  (3 rows)\nrelease    [61, 90.5]\nrel. error 0.4917\nWARNING    the bounds do not contain the true answer\nhow        n\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Within 1e-9 relative: no warning.
	r, _ = pipeline.Answer("SUM(s)", tb, cannedAnswerer{method.Bounds{Low: 60.00000000001, High: 70, HasBounds: true}})
	if strings.Contains(printed(r), "WARNING") {
		t.Fatalf("warning within tolerance:\n%s", printed(r))
	}
	// A zero truth has no relative error.
	tb0 := loadText(t, "z.csv", "x,s\n1,0\n2,0\n")
	r, _ = pipeline.Answer("SUM(s)", tb0, cannedAnswerer{method.Bounds{Low: 0, High: 5, HasBounds: true}})
	want = "query      SUM(s)\ntrue       0  (2 rows)\nrelease    [0, 5]\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Non-integral figures.
	r, _ = pipeline.Answer("AVG(s) WHERE x <= 2", tb, cannedAnswerer{method.Bounds{Low: 1234.5678, High: 0.000123456, HasBounds: true}})
	if got := printed(r); !strings.Contains(got, "release    [1234.57, 0.0001235]\n") || !strings.Contains(got, "true       15  (2 rows)\n") {
		t.Fatalf("figures:\n%s", got)
	}
}

func TestSummary(t *testing.T) {
	p := figure2(t)
	res, err := pipeline.Run(context.Background(), p, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	printSummary(&b, p, res, 1234567*time.Microsecond)
	// Figure 2: sum of ranges = group 2 (10K+10K+30K) + group 3
	// (30K+30K+10K+10K) = 130K over 11 subdomains; group 3's original
	// distribution (0, 1/4, 0, 3/4) is 1/3 from uniform (EMD over 3 steps).
	want := "input      dataset:employees (11 rows)\n" +
		"roles      QI zipcode,gender; SA salary (numeric, hierarchy of 4 values, height 2)\n" +
		"method     distribution  fakes=0 grouping=level:zipcode=2 max-denominator=8 seed=1 target=uniform\n" +
		"groups     3 (0 with violations)\n" +
		"rows       11 in, 11 published, 0 suppressed\n" +
		"  posterior deviation (max)                0\n" +
		"  max P'(v) in a group                     0.25\n" +
		"  members with P'(v) = 0                   0\n" +
		"  groups                                   3\n" +
		"  sum of ranges                            130000\n" +
		"  avg range per subdomain                  11818.18\n" +
		"  fake values                              0\n" +
		"  target distance (max EMD)                0.3333\n" +
		"  effective vs requested target EMD        0\n" +
		"  effective vs requested target max |diff| 0\n" +
		"note       grouping level:zipcode=2, target uniform, max denominator 8\n" +
		"time       1.235s\n"
	if b.String() != want {
		t.Fatalf("printSummary:\n%s\nwant\n%s", b.String(), want)
	}
	// A hand-made result: violations marked with !, figures formatted.
	hand := &method.Result{
		Groups: []method.Group{{Violation: true}, {}, {Violation: true}},
		RowsIn: 10, Published: 8, Suppressed: 2,
		Summary: []releasedir.Figure{{Name: "worst", Value: 0.125}, {Name: "fine", Value: 2.5, OK: true}},
		Notes:   []string{"first", "second"},
	}
	b.Reset()
	printSummary(&b, p, hand, 0)
	want = "input      dataset:employees (11 rows)\n" +
		"roles      QI zipcode,gender; SA salary (numeric, hierarchy of 4 values, height 2)\n" +
		"method     distribution  fakes=0 grouping=level:zipcode=2 max-denominator=8 seed=1 target=uniform\n" +
		"groups     3 (2 with violations)\n" +
		"rows       10 in, 8 published, 2 suppressed\n" +
		"! worst                                    0.125\n" +
		"  fine                                     2.5\n" +
		"note       first\n" +
		"note       second\n" +
		"time       0s\n"
	if b.String() != want {
		t.Fatalf("printSummary (hand-made):\n%s\nwant\n%s", b.String(), want)
	}
}

type cannedAnswerer struct{ b method.Bounds }

func (c cannedAnswerer) Answer(*query.Query) (method.Bounds, error) { return c.b, nil }

// TestPrintInspect: inspect's table (pipeline.Inspect's figures are
// tested in pipeline).
func TestPrintInspect(t *testing.T) {
	tb := loadText(t, "small.csv", "name,age,sex,score\nb,30,F,1.5\na,40,M,NA\nc,30,F,2.5\nd,,F,3\n")
	var b bytes.Buffer
	printInspect(&b, tb)
	wantText := "small.csv: 4 rows, 4 columns\n\n" +
		"column               kind          distinct  missing  range / top values\n" +
		"name                 categorical          4        0  a (1), b (1), c (1)\n" +
		"age                  numeric              2        1  30 .. 40\n" +
		"sex                  categorical          2        0  F (3), M (1)\n" +
		"score                numeric              3        1  1.5 .. 3\n"
	if b.String() != wantText {
		t.Fatalf("printInspect:\n%s\nwant\n%s", b.String(), wantText)
	}
}

// TestInternalErrorNamesTheCrashFile: a panic in a command prints one
// line naming the crash file that holds its stack (exit 2), never the
// stack itself.
func TestInternalErrorNamesTheCrashFile(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var stderr bytes.Buffer
	code := func() (code int) {
		defer func() {
			if r := recover(); r != nil {
				code = internalError(&stderr, r)
			}
		}()
		panic("boom")
	}()
	line := stderr.String()
	path, ok := strings.CutPrefix(line, "privlab: internal error: boom (please report it; details in ")
	path, ok2 := strings.CutSuffix(path, ")\n")
	if code != exitUsage || !ok || !ok2 || strings.Contains(line, "goroutine") {
		t.Fatalf("exit %d, stderr %q", code, line)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "goroutine ") || !strings.Contains(string(b), "TestInternalErrorNamesTheCrashFile") {
		t.Fatalf("crash file %s: %v\n%s", path, err, b)
	}
}
