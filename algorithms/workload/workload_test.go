package workload

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
)

func load(t *testing.T, text string) *model.Table {
	t.Helper()
	tb, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// ages0to100 is a table with age 0..100 (integers), hours 0.5..10.5 in
// steps of 0.5 (not integral), a categorical QI, a constant numeric QI
// and a numeric SA.
func ages0to100(t *testing.T) *model.Table {
	var b strings.Builder
	b.WriteString("age,hours,sex,one,sal\n")
	for i := 0; i <= 100; i++ {
		fmt.Fprintf(&b, "%d,%s,%s,7,%d\n", i, model.FormatNumber(0.5+float64(i%21)*0.5), []string{"F", "M"}[i%2], 1000+i)
	}
	return load(t, b.String())
}

func TestGenerateAvgRangeExact(t *testing.T) {
	tb := ages0to100(t)
	roles := model.Roles{QIs: []string{"sex", "one", "age", "hours"}, SA: "sal"}
	qs, err := Generate(tb, roles, Options{Shape: AvgRange, Queries: 6, Range: 0.1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 6 {
		t.Fatalf("%d queries, want 6", len(qs))
	}
	// The first numeric QI with more than one value is age (sex is
	// categorical, one has a single value). Width 0.1 * 100 = 10; the
	// start is floor(0 + u * (100 - 10)) for the seed's uniform draws u.
	rng := model.NewRand(3)
	for i, q := range qs {
		x := math.Floor(rng.Float64() * 90)
		want := fmt.Sprintf(`AVG("sal") WHERE "age" BETWEEN %d AND %d`, int(x), int(x)+10)
		if q.Text != want {
			t.Errorf("query %d: %s, want %s", i, q.Text, want)
		}
		if q.Agg != query.Avg || q.Column != "sal" || len(q.Preds) != 1 {
			t.Fatalf("query %d: agg %v column %q preds %d", i, q.Agg, q.Column, len(q.Preds))
		}
		p := q.Preds[0]
		if p.Column != "age" || p.Op != query.OpBetween || len(p.Values) != 2 {
			t.Fatalf("query %d: pred %+v", i, p)
		}
		lo, hi := p.Values[0].Num, p.Values[1].Num
		if hi-lo != 10 || lo < 0 || hi > 100 || lo != math.Trunc(lo) {
			t.Fatalf("query %d: range [%v, %v] is not 10 wide inside [0,100]", i, lo, hi)
		}
		// Covers the requested fraction: 11 of the 101 ages.
		truth, err := q.Truth(tb)
		if err != nil || truth.Count != 11 {
			t.Fatalf("query %d: %d rows selected (%v), want 11", i, truth.Count, err)
		}
	}
	// Deterministic by seed; another seed gives another workload.
	again, _ := Generate(tb, roles, Options{Shape: AvgRange, Queries: 6, Range: 0.1, Seed: 3})
	other, _ := Generate(tb, roles, Options{Shape: AvgRange, Queries: 6, Range: 0.1, Seed: 4})
	same := true
	for i := range qs {
		if again[i].Text != qs[i].Text {
			t.Fatalf("seed 3 twice: query %d differs: %s vs %s", i, again[i].Text, qs[i].Text)
		}
		if other[i].Text != qs[i].Text {
			same = false
		}
	}
	if same {
		t.Fatal("seeds 3 and 4 give the same workload")
	}
}

func TestGenerateAvgRangeNonIntegral(t *testing.T) {
	tb := ages0to100(t)
	// hours first: 0.5..10.5, width 0.25 * 10 = 2.5, start 0.5 + u * 7.5
	// (not rounded).
	roles := model.Roles{QIs: []string{"hours", "age"}, SA: "sal"}
	qs, err := Generate(tb, roles, Options{Shape: AvgRange, Queries: 4, Range: 0.25, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	rng := model.NewRand(11)
	for i, q := range qs {
		x := 0.5 + rng.Float64()*7.5
		want := fmt.Sprintf(`AVG("sal") WHERE "hours" BETWEEN %s AND %s`, model.FormatNumber(x), model.FormatNumber(x+2.5))
		if q.Text != want {
			t.Errorf("query %d: %s, want %s", i, q.Text, want)
		}
	}
}

func TestGenerateCountRangeExact(t *testing.T) {
	tb := ages0to100(t)
	roles := model.Roles{QIs: []string{"age", "sex", "hours"}, SA: "sal"}
	qs, err := Generate(tb, roles, Options{Shape: CountRange, Queries: 5, Range: 0.2, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 5 {
		t.Fatalf("%d queries", len(qs))
	}
	rng := model.NewRand(9)
	// The box covers 0.2 of the (age, hours) space: sqrt(0.2) of each
	// domain. age: width round(100 s) = 45, start floor(u * (100 - 100 s));
	// hours: width 10 s, start 0.5 + u * (10 - 10 s).
	s := math.Sqrt(0.2)
	for i, q := range qs {
		a := math.Floor(rng.Float64() * (100 - 100*s))
		h := 0.5 + rng.Float64()*(10-10*s)
		want := fmt.Sprintf(`COUNT(*) WHERE "age" BETWEEN %s AND %s AND "hours" BETWEEN %s AND %s`,
			model.FormatNumber(a), model.FormatNumber(a+45), model.FormatNumber(h), model.FormatNumber(h+10*s))
		if q.Text != want {
			t.Errorf("query %d: %s\nwant %s", i, q.Text, want)
		}
		if q.Agg != query.Count || q.Column != "" || len(q.Preds) != 2 {
			t.Fatalf("query %d: agg %v column %q preds %d", i, q.Agg, q.Column, len(q.Preds))
		}
		for j, col := range []string{"age", "hours"} {
			if q.Preds[j].Column != col || q.Preds[j].Op != query.OpBetween {
				t.Fatalf("query %d pred %d: %+v", i, j, q.Preds[j])
			}
		}
	}
}

func TestGenerateDefaults(t *testing.T) {
	tb := ages0to100(t)
	roles := model.Roles{QIs: []string{"age"}, SA: "sal"}
	for _, opt := range []Options{{}, {Queries: -3, Range: 0}, {Range: 1.5}, {Range: -0.2}} {
		qs, err := Generate(tb, roles, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) != 100 {
			t.Fatalf("%+v: %d queries, want the default 100", opt, len(qs))
		}
		for _, q := range qs {
			if q.Agg != query.Avg { // the default shape
				t.Fatalf("%+v: default shape gave %s", opt, q.Text)
			}
			if w := q.Preds[0].Values[1].Num - q.Preds[0].Values[0].Num; w != 10 {
				t.Fatalf("%+v: width %v, want the default 0.1 of 100", opt, w)
			}
		}
	}
	// Range 1: the whole domain.
	qs, err := Generate(tb, roles, Options{Range: 1, Queries: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if q.Text != `AVG("sal") WHERE "age" BETWEEN 0 AND 100` {
			t.Fatalf("range 1: %s", q.Text)
		}
	}
	// A tiny fraction of an integer domain is at least one unit wide.
	qs, _ = Generate(tb, roles, Options{Range: 0.001, Queries: 20, Seed: 1})
	for _, q := range qs {
		lo, hi := q.Preds[0].Values[0].Num, q.Preds[0].Values[1].Num
		if hi-lo != 1 || lo < 0 || hi > 100 {
			t.Fatalf("tiny range: %s", q.Text)
		}
	}
}

func TestGenerateNeedsNumericQI(t *testing.T) {
	tb := ages0to100(t)
	for _, qis := range [][]string{{"sex"}, {"one"}, {"sex", "one"}, {"nosuch"}, nil} {
		for _, shape := range []string{AvgRange, CountRange} {
			qs, err := Generate(tb, model.Roles{QIs: qis, SA: "sal"}, Options{Shape: shape})
			if err == nil || qs != nil {
				t.Fatalf("QIs %v %s: no error (%d queries)", qis, shape, len(qs))
			}
			if !strings.Contains(err.Error(), "the "+shape+" workload needs a numeric quasi-identifier") {
				t.Fatalf("QIs %v: error %q", qis, err)
			}
		}
	}
}

// fakeAnswerer answers from a table of canned bounds by query text.
type fakeAnswerer struct {
	answers map[string]method.Bounds
	asked   []string
	err     error
}

func (f *fakeAnswerer) Answer(q *query.Query) (method.Bounds, error) {
	f.asked = append(f.asked, q.Text)
	if f.err != nil {
		return method.Bounds{}, f.err
	}
	b, ok := f.answers[q.Text]
	if !ok {
		return method.Bounds{}, fmt.Errorf("unexpected query %s", q.Text)
	}
	return b, nil
}

func parseAll(t *testing.T, texts ...string) []*query.Query {
	t.Helper()
	var out []*query.Query
	for _, s := range texts {
		q, err := query.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

const evalTable = "x,s\n1,10\n2,20\n3,30\n4,0\n5,-40\n6,60\n"

func TestEvaluateExactFigures(t *testing.T) {
	tb := load(t, evalTable)
	const (
		q1 = "AVG(s) WHERE x BETWEEN 1 AND 3"   // truth 20; bounds [15, 25] contain it: err 0.5
		q2 = "SUM(s) WHERE x <= 2"              // truth 30; bounds [40, 43] miss it: err 0.1
		q3 = "COUNT(*) WHERE x >= 2"            // truth 5; estimate 6: err 0.2
		q4 = "AVG(s) WHERE x > 100"             // empty: skipped
		q5 = "SUM(s) WHERE x = 4"               // truth 0: skipped
		q6 = "AVG(s) WHERE x = 5"               // truth -40; bounds [-60, -20]: err 1
		q7 = "MAX(s) WHERE x IN (1, 6)"         // truth 60; exact [60, 60]: err 0
		q8 = "MIN(s) WHERE x BETWEEN 1 AND 1"   // truth 10; bounds [10, 10.000000001]: contains, err 1e-10
		q9 = "COUNT(*) WHERE x BETWEEN 5 AND 6" // truth 2; estimate 1: err 0.5
	)
	a := &fakeAnswerer{answers: map[string]method.Bounds{
		q1: {Low: 15, High: 25, HasBounds: true},
		q2: {Low: 40, High: 43, HasBounds: true},
		q3: {Estimate: 6, HasEst: true},
		q6: {Low: -60, High: -20, HasBounds: true},
		q7: {Low: 60, High: 60, HasBounds: true},
		q8: {Low: 10, High: 10.000000001, HasBounds: true},
		q9: {Estimate: 1, HasEst: true},
	}}
	res, err := Evaluate(tb, a, parseAll(t, q1, q2, q3, q4, q5, q6, q7, q8, q9))
	if err != nil {
		t.Fatal(err)
	}
	// errors sorted: 0, 1e-10, 0.1, 0.2, 0.5, 0.5, 1
	errs := []float64{0.5, 0.1, 0.2, 1, 0, 1e-10, 0.5}
	mean := 0.0
	for _, e := range errs {
		mean += e
	}
	mean /= 7
	if res.Queries != 7 || res.Skipped != 2 || res.Bounded != 5 || res.Contains != 4 {
		t.Fatalf("counts: %+v, want Queries 7 Skipped 2 Bounded 5 Contains 4", res)
	}
	if math.Abs(res.MeanErr-mean) > 1e-12 || math.Abs(res.MeanErr-2.3000000001/7) > 1e-12 {
		t.Fatalf("mean %v, want %v", res.MeanErr, mean)
	}
	if math.Abs(res.MedErr-0.2) > 1e-12 {
		t.Fatalf("median %v, want 0.2", res.MedErr)
	}
	if math.Abs(res.MaxErr-1) > 1e-12 {
		t.Fatalf("max %v, want 1", res.MaxErr)
	}
	// Skipped queries are not even asked of the release.
	for _, s := range a.asked {
		if s == q4 || s == q5 {
			t.Fatalf("skipped query %s was answered", s)
		}
	}
	if len(a.asked) != 7 {
		t.Fatalf("%d queries asked, want 7", len(a.asked))
	}
}

func TestEvaluateContainsTolerance(t *testing.T) {
	tb := load(t, evalTable)
	const q = "SUM(s) WHERE x BETWEEN 1 AND 3" // truth 60
	cases := []struct {
		low, high float64
		contains  int
	}{
		{60, 60, 1},
		{60 + 1e-12, 70, 1}, // within 1e-9 relative
		{50, 60 - 1e-12, 1},
		{60.001, 70, 0},
		{50, 59.999, 0},
	}
	for _, c := range cases {
		a := &fakeAnswerer{answers: map[string]method.Bounds{q: {Low: c.low, High: c.high, HasBounds: true}}}
		res, err := Evaluate(tb, a, parseAll(t, q))
		if err != nil {
			t.Fatal(err)
		}
		if res.Contains != c.contains || res.Bounded != 1 || res.Queries != 1 {
			t.Fatalf("[%v, %v]: %+v, want Contains %d", c.low, c.high, res, c.contains)
		}
		if want := (c.high - c.low) / 60; math.Abs(res.MeanErr-want) > 1e-15 || res.MaxErr != res.MeanErr || res.MedErr != res.MeanErr {
			t.Fatalf("[%v, %v]: err %+v, want %v", c.low, c.high, res, want)
		}
	}
}

func TestEvaluateNothingToMeasure(t *testing.T) {
	tb := load(t, evalTable)
	a := &fakeAnswerer{}
	res, err := Evaluate(tb, a, parseAll(t, "AVG(s) WHERE x > 10", "SUM(s) WHERE x = 4", "COUNT(*) WHERE x < 0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 3 {
		t.Fatalf("%d rows, want one per query", len(res.Rows))
	}
	res.Rows = nil
	if !reflect.DeepEqual(res, Result{Skipped: 3}) {
		t.Fatalf("%+v, want only Skipped 3", res)
	}
	res, err = Evaluate(tb, a, nil)
	if err != nil || !reflect.DeepEqual(res, Result{}) {
		t.Fatalf("no queries: %+v %v", res, err)
	}
}

func TestEvaluateErrors(t *testing.T) {
	tb := load(t, evalTable)
	// The truth cannot be computed: unknown column.
	if _, err := Evaluate(tb, &fakeAnswerer{}, parseAll(t, "COUNT(*) WHERE nosuch = 1")); err == nil ||
		!strings.Contains(err.Error(), `no column "nosuch"`) {
		t.Fatalf("unknown column: %v", err)
	}
	// The release cannot answer.
	a := &fakeAnswerer{err: fmt.Errorf("boom")}
	if _, err := Evaluate(tb, a, parseAll(t, "COUNT(*) WHERE x = 1")); err == nil || err.Error() != "boom" {
		t.Fatalf("answerer error: %v", err)
	}
}

func TestEvaluateMedianEvenCount(t *testing.T) {
	// Four measured queries with errors 0.1, 0.2, 0.3, 0.4: the median is
	// (0.2 + 0.3) / 2 = 0.25.
	tb := load(t, evalTable)
	qs := []string{"COUNT(*) WHERE x = 1", "COUNT(*) WHERE x = 2", "COUNT(*) WHERE x = 3", "COUNT(*) WHERE x = 4"}
	a := &fakeAnswerer{answers: map[string]method.Bounds{
		qs[0]: {Estimate: 1.1, HasEst: true},
		qs[1]: {Estimate: 0.8, HasEst: true},
		qs[2]: {Estimate: 1.3, HasEst: true},
		qs[3]: {Estimate: 0.6, HasEst: true},
	}}
	res, err := Evaluate(tb, a, parseAll(t, qs...))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.MeanErr-0.25) > 1e-12 || math.Abs(res.MaxErr-0.4) > 1e-12 {
		t.Fatalf("mean %v max %v, want 0.25 and 0.4", res.MeanErr, res.MaxErr)
	}
	if math.Abs(res.MedErr-0.25) > 1e-12 {
		t.Fatalf("median of 0.1, 0.2, 0.3, 0.4 = %v, want 0.25", res.MedErr)
	}
}

func TestGenerateThenEvaluateAgainstTruthIsExact(t *testing.T) {
	// An answerer that returns the truth itself as exact bounds: every
	// query contains the truth with error 0.
	tb := ages0to100(t)
	roles := model.Roles{QIs: []string{"age", "hours"}, SA: "sal"}
	for _, shape := range []string{AvgRange, CountRange} {
		qs, err := Generate(tb, roles, Options{Shape: shape, Queries: 30, Range: 0.3, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Evaluate(tb, truthAnswerer{tb}, qs)
		if err != nil {
			t.Fatal(err)
		}
		if res.Queries+res.Skipped != 30 || res.Contains != res.Queries || res.Bounded != res.Queries || res.MaxErr != 0 {
			t.Fatalf("%s: %+v", shape, res)
		}
		if shape == AvgRange && res.Skipped != 0 {
			t.Fatalf("avg-range over a full integer domain skipped %d queries", res.Skipped)
		}
	}
}

type truthAnswerer struct{ t *model.Table }

func (a truthAnswerer) Answer(q *query.Query) (method.Bounds, error) {
	tr, err := q.Truth(a.t)
	return method.Bounds{Low: tr.Value, High: tr.Value, HasBounds: true, Empty: tr.Empty}, err
}

func TestEvaluateRowsAndCSV(t *testing.T) {
	tb := load(t, evalTable)
	const (
		q1 = "AVG(s) WHERE x BETWEEN 1 AND 3" // truth 20 (3 rows); [15, 25]
		q2 = "SUM(s) WHERE x = 4"             // truth 0 (1 row): skipped
		q3 = "COUNT(*) WHERE x >= 2"          // truth 5; estimate 6
		q4 = "SUM(s) WHERE x <= 2"            // truth 30; [40, 43] misses it
	)
	a := &fakeAnswerer{answers: map[string]method.Bounds{
		q1: {Low: 15, High: 25, HasBounds: true},
		q3: {Estimate: 6, HasEst: true},
		q4: {Low: 40, High: 43, HasBounds: true},
	}}
	res, err := Evaluate(tb, a, parseAll(t, q1, q2, q3, q4))
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Query: q1, Truth: 20, Selected: 3, Low: 15, High: 25, RelErr: 0.5, Contains: true},
		{Query: q2, Truth: 0, Selected: 1, Skipped: true},
		{Query: q3, Truth: 5, Selected: 5, Estimate: 6, RelErr: 0.2},
		{Query: q4, Truth: 30, Selected: 2, Low: 40, High: 43, RelErr: 0.1},
	}
	if len(res.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(res.Rows), len(want), res.Rows)
	}
	for i := range want {
		g := res.Rows[i]
		if math.Abs(g.RelErr-want[i].RelErr) > 1e-12 {
			t.Fatalf("row %d: rel err %v, want %v", i, g.RelErr, want[i].RelErr)
		}
		g.RelErr = want[i].RelErr
		if g != want[i] {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, g, want[i])
		}
	}
	var buf bytes.Buffer
	if err := res.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	if len(lines) != 5 || lines[0] != "query,truth,selected_rows,low,high,estimate,rel_error,contains_truth,skipped" {
		t.Fatalf("csv:\n%s", buf.String())
	}
	if lines[2] != "SUM(s) WHERE x = 4,0,1,0,0,0,0,false,true" {
		t.Fatalf("skipped row: %q", lines[2])
	}
	if !strings.HasPrefix(lines[1], "AVG(s) WHERE x BETWEEN 1 AND 3,20,3,15,25,0,0.5,true,false") {
		t.Fatalf("first row: %q", lines[1])
	}
}

func TestEvaluateUnansweredQueryKeepsItsRow(t *testing.T) {
	// A release that gives neither bounds nor an estimate for a query: it
	// is not measured, but Rows still has one entry per query (the
	// per-query CSV must line up with the workload).
	tb := load(t, evalTable)
	const q1, q2 = "COUNT(*) WHERE x = 1", "COUNT(*) WHERE x = 2"
	a := &fakeAnswerer{answers: map[string]method.Bounds{
		q1: {},
		q2: {Estimate: 1, HasEst: true},
	}}
	res, err := Evaluate(tb, a, parseAll(t, q1, q2))
	if err != nil {
		t.Fatal(err)
	}
	if res.Queries != 1 || res.Skipped != 0 || res.MeanErr != 0 {
		t.Fatalf("%+v", res)
	}
	if len(res.Rows) != 2 || res.Rows[0].Query != q1 || res.Rows[1].Query != q2 {
		t.Fatalf("rows %+v, want one per query (2)", res.Rows)
	}
}

// TestGenerateCountInSAPoint: with SAPoint every query conditions on qd
// QIs and on the SA with SA = v for one value of the SA's domain; each QI
// condition selects s^(1/qd) of its domain.
func TestGenerateCountInSAPoint(t *testing.T) {
	tb := ages0to100(t)
	roles := model.Roles{QIs: []string{"age", "sex"}, SA: "sal"}
	qs, err := Generate(tb, roles, Options{Shape: CountIn, Queries: 50, Seed: 3, Dims: 1, Selectivity: 0.25, SAPoint: true})
	if err != nil {
		t.Fatal(err)
	}
	sal := tb.Column("sal")
	for _, q := range qs {
		if len(q.Preds) != 2 {
			t.Fatalf("%s: %d conditions, want 1 QI + SA", q.Text, len(q.Preds))
		}
		sa := q.Preds[1]
		if sa.Column != "sal" || sa.Op != query.OpEq || len(sa.Values) != 1 {
			t.Fatalf("%s: the SA condition is not SA = v", q.Text)
		}
		found := false
		for _, v := range sal.Dict {
			found = found || v == sa.Values[0].Text
		}
		if !found {
			t.Fatalf("%s: %s is not a value of sal", q.Text, sa.Values[0].Text)
		}
		qi := q.Preds[0]
		switch qi.Column {
		case "age": // 25% of 0..100 = 25 years
			if w := qi.Values[1].Num - qi.Values[0].Num; qi.Op != query.OpBetween || w != 25 {
				t.Fatalf("%s: age range of width %v, want 25", q.Text, w)
			}
		case "sex": // ceil(2 * 0.25) = 1 value
			if qi.Op != query.OpIn || len(qi.Values) != 1 {
				t.Fatalf("%s: want one sex value", q.Text)
			}
		default:
			t.Fatalf("%s: condition on %s", q.Text, qi.Column)
		}
	}
	if d := Describe(CountIn, Options{Dims: 2, Selectivity: 0.01, SAPoint: true}); !strings.Contains(d, "SA = v") {
		t.Errorf("Describe: %q", d)
	}
}

// A count-in condition on a numeric column with few values (the jobs
// table's postcode: 4350 and 5432, at the two ends of its span) always
// selects one of them; placed uniformly in the span it would select none.
func TestCountInFewValuesSelectsAValue(t *testing.T) {
	var b strings.Builder
	b.WriteString("postcode,birth,ill\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d,%s\n", []int{4350, 5432}[i%2], []int{1940, 1955, 1975}[i%3], []string{"flu", "HIV", "fever"}[i%3])
	}
	tb := load(t, b.String())
	roles := model.Roles{QIs: []string{"postcode", "birth"}, SA: "ill"}
	qs, err := Generate(tb, roles, Options{Shape: CountIn, Queries: 200, Seed: 5, Dims: 2, Selectivity: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		for _, p := range q.Preds {
			if p.Column == "ill" {
				continue
			}
			sel := 0
			for _, v := range tb.Column(p.Column).Nums {
				if p.Op == query.OpBetween && v >= p.Values[0].Num && v <= p.Values[1].Num {
					sel++
				}
			}
			if sel == 0 {
				t.Fatalf("%s: the condition on %s selects no value", q.Text, p.Column)
			}
		}
	}
}
