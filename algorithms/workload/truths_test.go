package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
)

// wideTable is a random table with a categorical QI of many distinct
// values, numeric QIs (integral and not), a few missing cells and a
// categorical SA of many values: the tables the quadratic workload was
// measured on, small.
func wideTable(t *testing.T, seed uint64, rows, distinct int) *model.Table {
	return spreadTable(t, seed, rows, distinct, 60, 40)
}

// spreadTable is wideTable with ages ages and hours hours.
func spreadTable(t *testing.T, seed uint64, rows, distinct, ages, hours int) *model.Table {
	rng := rand.New(rand.NewPCG(seed, 9))
	var b strings.Builder
	b.WriteString("code,age,hours,sex,zip,diag,sal\n")
	cell := func(s string) string {
		if rng.IntN(40) == 0 {
			return ""
		}
		return s
	}
	for r := 0; r < rows; r++ {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s,%d\n",
			cell(fmt.Sprintf("c%d", rng.IntN(distinct))),
			cell(fmt.Sprint(17+rng.IntN(ages))),
			cell(model.FormatNumber(float64(rng.IntN(hours))/2)),
			[]string{"F", "M"}[rng.IntN(2)],
			cell(fmt.Sprintf("9%04d", rng.IntN(1+distinct/3))),
			cell(fmt.Sprintf("d'%d", rng.IntN(distinct))),
			rng.IntN(5000))
	}
	return load(t, b.String())
}

var wideRoles = model.Roles{QIs: []string{"code", "age", "hours", "sex", "zip"}, SA: "diag"}

// The workload drawn for a seed is the one drawn before the truths were
// made linear (the SHA-256 of every query's text, recorded from the code
// before the change): the same queries, so the same stated workload
// errors.
func TestGenerateSameQueries(t *testing.T) {
	t.Parallel()
	h := sha256.New()
	for seed := uint64(1); seed <= 3; seed++ {
		tb := wideTable(t, seed, 400, 150)
		for _, shape := range []string{AvgRange, CountRange, CountIn} {
			roles := wideRoles
			if shape == AvgRange {
				roles.SA = "sal"
			}
			for _, point := range []bool{false, true} {
				qs, err := Generate(tb, roles, Options{Shape: shape, Queries: 30, Seed: seed, SAPoint: point})
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range qs {
					fmt.Fprintln(h, q.Text)
				}
			}
		}
	}
	const want = "28db0b46fedef20f985b2b727d1619cdf5add6e79ad06ac94b67a16f13fd9a54"
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Fatalf("the workloads drawn hash to %s, before the change to %s", got, want)
	}
}

// Truths (tuples for COUNT(*), every core, lists bound by their codes)
// gives what Query.Truth gives on the rows for the query's text parsed
// back, query by query, bit for bit; Query.Truth is held to the
// row-by-row text evaluator in package model (TestTruthMatchesScan).
func TestTruthsMatchRowTruths(t *testing.T) {
	t.Parallel()
	onTuples := 0
	for seed := uint64(1); seed <= 8; seed++ {
		tb := wideTable(t, seed, 300+int(seed)*700, 20+int(seed)*60)
		if seed > 5 {
			tb = spreadTable(t, seed, 5000, int(seed)-4, 4, 4) // few combinations: COUNT(*) on tuples
		}
		for _, shape := range []string{AvgRange, CountRange, CountIn} {
			roles := wideRoles
			if shape == AvgRange {
				roles.SA = "sal"
			}
			qs, err := Generate(tb, roles, Options{Shape: shape, Queries: 40, Seed: seed, SAPoint: seed%2 == 0})
			if err != nil {
				t.Fatal(err)
			}
			if seed == 3 {
				// Aggregates other than COUNT(*) among the counts: they
				// are answered on the rows.
				qs = append(qs, parseAll(t, `SUM("sal") WHERE "sex" = 'F'`, `COUNT("age") WHERE "sex" = 'M'`, `MAX("hours")`)...)
			}
			got, err := Truths(tb, qs)
			if err != nil {
				t.Fatal(err)
			}
			if countTuples(tb, qs) != nil {
				onTuples++
			}
			nonEmpty := 0
			for i, q := range qs {
				// The text read back: no IN index, no codes.
				parsed, err := query.Parse(q.Text)
				if err != nil {
					t.Fatal(err)
				}
				want, err := parsed.Truth(tb)
				if err != nil {
					t.Fatal(err)
				}
				if got[i] != want {
					t.Fatalf("seed %d %s: %s: %+v, on the rows %+v", seed, shape, q.Text, got[i], want)
				}
				if !want.Empty {
					nonEmpty++
				}
			}
			if nonEmpty < len(qs)/4 {
				t.Fatalf("seed %d %s: only %d of %d queries select a row", seed, shape, nonEmpty, len(qs))
			}
		}
	}
	if onTuples < 4 {
		t.Fatalf("only %d workloads were counted on tuples: the test does not see them", onTuples)
	}
}

// The tuples stand for the rows: as many rows as the table, each column's
// codes those of the rows they stand for (missing ones included).
func TestCountTuplesWeights(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 4))
	var b strings.Builder
	b.WriteString("a,b,n,s\n")
	for r := 0; r < 3000; r++ {
		n := fmt.Sprint(rng.IntN(5))
		if rng.IntN(30) == 0 {
			n = ""
		}
		fmt.Fprintf(&b, "%c,%c,%s,%c\n", 'p'+rng.IntN(3), 'w'+rng.IntN(4), n, 'A'+rng.IntN(6))
	}
	tb := load(t, b.String())
	qs, err := Generate(tb, model.Roles{QIs: []string{"a", "b", "n"}, SA: "s"}, Options{Shape: CountIn, Queries: 20, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	tu := countTuples(tb, qs)
	if tu == nil {
		t.Fatal("no tuples for 20 COUNT(*) queries over 3,000 rows of few values")
	}
	total := 0
	for _, w := range tu.weight {
		total += w
	}
	if total != tb.Rows || tu.table.Rows >= tb.Rows/2 {
		t.Fatalf("%d tuples weigh %d rows, want %d rows in fewer than half", tu.table.Rows, total, tb.Rows)
	}
	// Count each tuple's rows directly.
	for j := 0; j < tu.table.Rows; j++ {
		n := 0
		for r := 0; r < tb.Rows; r++ {
			same := true
			for _, c := range tu.table.Columns {
				if tb.Column(c.Name).Codes[r] != c.Codes[j] {
					same = false
					break
				}
			}
			if same {
				n++
			}
		}
		if n != tu.weight[j] {
			t.Fatalf("tuple %d weighs %d, %d rows have its codes", j, tu.weight[j], n)
		}
	}
	// Nearly unique combinations: the rows are used.
	if tu := countTuples(wideTable(t, 5, 500, 400), qs); tu != nil {
		t.Fatalf("%d tuples built for 500 rows of nearly unique values", tu.table.Rows)
	}
}

// The first failing query (in order) gives the error, whether the truths
// or the release fail first, as when the truths were all computed first.
func TestEvaluateErrorOrder(t *testing.T) {
	t.Parallel()
	tb := load(t, evalTable)
	qs := parseAll(t, "COUNT(*) WHERE x = 1", "COUNT(*) WHERE x = 2", "COUNT(*) WHERE nosuch = 1", "COUNT(*) WHERE x = 3")
	boom := errors.New("boom")
	if _, err := Evaluate(tb, &fakeAnswerer{err: boom}, qs); err == nil || !strings.Contains(err.Error(), `no column "nosuch"`) {
		t.Fatalf("a truth failing after a release answer failed: %v, want the truth's error", err)
	}
	if _, err := Truths(tb, qs); err == nil || !strings.Contains(err.Error(), `no column "nosuch"`) {
		t.Fatalf("Truths: %v", err)
	}
	a := &fakeAnswerer{answers: map[string]method.Bounds{}}
	for _, q := range qs[:2] {
		a.answers[q.Text] = method.Bounds{Estimate: 1, HasEst: true}
	}
	res, err := Evaluate(tb, a, qs[:2])
	if err != nil || res.Queries != 2 || len(a.asked) != 2 {
		t.Fatalf("%+v %v asked %v", res, err, a.asked)
	}
}

// The queries Generate builds are those ParseQuery reads from their
// texts, field for field (query.TestQueryWriterIsParseQuery holds the
// writer to the parser on any name and value).
func TestGenerateBuildsTheParsedQuery(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		tb := wideTable(t, seed, 500, 100)
		for _, shape := range []string{AvgRange, CountRange, CountIn} {
			roles := wideRoles
			if shape == AvgRange {
				roles.SA = "sal"
			}
			qs, err := Generate(tb, roles, Options{Shape: shape, Queries: 20, Seed: seed, SAPoint: seed == 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				p, err := query.Parse(q.Text)
				if err != nil {
					t.Fatal(err)
				}
				if q.Text != p.Text || q.Agg != p.Agg || q.Column != p.Column || q.ColPos != p.ColPos || len(q.Preds) != len(p.Preds) {
					t.Fatalf("%s: built %+v, parsed %+v", q.Text, q, p)
				}
				for i := range q.Preds {
					a, b := q.Preds[i], p.Preds[i]
					if a.Column != b.Column || a.Pos != b.Pos || a.Op != b.Op || !reflect.DeepEqual(a.Values, b.Values) {
						t.Fatalf("%s: condition %d built %+v, parsed %+v", q.Text, i, a, b)
					}
				}
			}
		}
	}
}
