package workload

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"slices"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
)

// hashAnswerer answers every query from its text and its true count:
// bounds around it, an estimate, or neither, by the text's hash; its
// failAt-th answer (1-based; 0: none) fails.
type hashAnswerer struct {
	t      *model.Table
	failAt int
	asked  int
}

func (a *hashAnswerer) Answer(q *query.Query) (method.Bounds, error) {
	a.asked++
	if a.asked == a.failAt {
		return method.Bounds{}, fmt.Errorf("answer %d fails", a.asked)
	}
	h := fnv.New64a()
	h.Write([]byte(q.Text))
	x := h.Sum64()
	truth, err := q.Truth(a.t)
	if err != nil {
		return method.Bounds{}, err
	}
	d := float64(x%7) / 3
	switch x % 5 {
	case 0:
		return method.Bounds{}, nil
	case 1, 2:
		return method.Bounds{Estimate: truth.Value*(1+d/10) + d, HasEst: true}, nil
	}
	return method.Bounds{Low: truth.Value - d, High: truth.Value*(1+d) + float64(x%3), HasBounds: true}, nil
}

// Measure, drawing and answering a few queries at a time, gives what
// Evaluate gives on the whole of Generate's workload (without the rows):
// every shape, workloads of fewer queries than a chunk, of several
// chunks and of a chunk and a part, tuples or none, answers that fail at
// the first, a middle or the last query, truths that fail (AVG of a text
// column), and tables the shape does not fit (Generate's error: fits is
// false). Fails when a chunk's answers are asked out of order, when a
// truth error after a failed answer is not the one returned, or when
// the workload is drawn again per chunk.
func TestMeasureIsEvaluate(t *testing.T) {
	t.Parallel()
	cases := 0
	for seed := uint64(1); seed <= 3; seed++ {
		tb := wideTable(t, seed, 300, 60)
		for _, roles := range []model.Roles{wideRoles, {QIs: []string{"age", "sex"}, SA: "sal"}, {QIs: []string{"code", "sex"}, SA: "diag"}} {
			for _, opt := range []Options{
				{Shape: CountIn, Queries: 20}, {Shape: CountIn, Queries: 5, Dims: 1}, {Shape: CountIn, Queries: 16, SAPoint: true},
				{Shape: CountIn, Queries: 9, Dims: 9}, {Shape: CountRange, Queries: 17}, {Shape: AvgRange, Queries: 11},
			} {
				opt.Seed = seed
				qs, genErr := Generate(tb, roles, opt)
				for _, failAt := range []int{0, 1, 4, opt.Queries} {
					want, wantErr := Evaluate(tb, &hashAnswerer{t: tb, failAt: failAt}, qs)
					want.Rows = nil
					got, fits, err := Measure(tb, roles, &hashAnswerer{t: tb, failAt: failAt}, opt)
					if fits != (genErr == nil) {
						t.Fatalf("seed %d, %v, %+v: fits %v, Generate's error %v", seed, roles, opt, fits, genErr)
					}
					if genErr != nil {
						continue
					}
					cases++
					if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
						t.Fatalf("seed %d, %v, %+v, answer %d fails:\nMeasure  %+v, %v\nEvaluate %+v, %v", seed, roles, opt, failAt, got, err, want, wantErr)
					}
				}
			}
		}
	}
	if cases < 100 {
		t.Fatalf("only %d cases measured", cases)
	}
}

// listGenerator draws the parsed texts in order; a text that does not
// parse is a drawing error.
func listGenerator(texts []string, reads []string) *generator {
	i := 0
	return &generator{n: len(texts), reads: reads, counts: true, next: func() (*query.Query, error) {
		i++
		return query.Parse(texts[i-1])
	}}
}

// Measure's errors are Evaluate's in every order they can come in: a
// truth that fails (a column the table lacks) before, at or after the
// first answer that fails, in the first chunk or a later one, and a query
// that cannot be drawn, which comes before both (Generate fails first).
func TestMeasureErrorOrder(t *testing.T) {
	t.Parallel()
	tb := wideTable(t, 4, 200, 40)
	good := func(i int) string { return fmt.Sprintf(`COUNT(*) WHERE "age" BETWEEN %d AND %d`, 17+i%40, 30+i%40) }
	for _, n := range []int{3, 8, 13, 26} {
		for badTruth := -1; badTruth < n; badTruth += 1 + n/5 {
			for _, failAt := range []int{0, 1, 2, n / 2, n} {
				for _, badDraw := range []int{-1, 0, n - 1, n / 2} {
					texts := make([]string, n)
					for i := range texts {
						texts[i] = good(i)
					}
					if badTruth >= 0 {
						texts[badTruth] = `COUNT(*) WHERE "nosuch" = 1`
					}
					if badDraw >= 0 {
						texts[badDraw] = `COUNT(*) WHERE`
					}
					var qs []*query.Query
					var drawErr error
					for _, text := range texts {
						q, err := query.Parse(text)
						if err != nil {
							drawErr = err
						}
						qs = append(qs, q)
					}
					got, fits, err := measure(tb, listGenerator(texts, []string{"age"}), &hashAnswerer{t: tb, failAt: failAt})
					if fits != (drawErr == nil) {
						t.Fatalf("n %d, bad truth %d, bad draw %d: fits %v", n, badTruth, badDraw, fits)
					}
					if drawErr != nil {
						continue
					}
					want, wantErr := Evaluate(tb, &hashAnswerer{t: tb, failAt: failAt}, qs)
					want.Rows = nil
					if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
						t.Fatalf("n %d, bad truth %d, answer %d fails:\nmeasure  %+v, %v\nEvaluate %+v, %v", n, badTruth, failAt, got, err, want, wantErr)
					}
				}
			}
		}
	}
}

// textAnswerer fails when a query's conditions are not what its text
// says (ParseQuery's reading), else answers a constant estimate.
type textAnswerer struct{ asked int }

func (a *textAnswerer) Answer(q *query.Query) (method.Bounds, error) {
	a.asked++
	p, err := query.Parse(q.Text)
	if err != nil {
		return method.Bounds{}, err
	}
	if !sameConditions(q, p) {
		return method.Bounds{}, fmt.Errorf("query %d's lists are not its text's: %s", a.asked, q.Text)
	}
	return method.Bounds{Estimate: 1, HasEst: true}, nil
}

// sameConditions compares two queries' conditions, literal by literal.
func sameConditions(a, b *query.Query) bool {
	if len(a.Preds) != len(b.Preds) {
		return false
	}
	for i := range a.Preds {
		x, y := a.Preds[i], b.Preds[i]
		if x.Column != y.Column || x.Op != y.Op || x.Pos != y.Pos || !slices.Equal(x.Values, y.Values) {
			return false
		}
	}
	return true
}

// Measure hands the IN lists of a chunk it let go to the next chunk's
// queries (the count-in workload on a 20,000-value attribute drew ~30 MB
// of literals per run, each list in fresh memory): every query answered
// still holds the lists its text says (textAnswerer), and a list of the
// second chunk is written where one of the first was. Generate, which
// hands every query out, never writes a list twice. Fails when the lists
// are handed on within a chunk (a later query's list overwrites an
// earlier one's before it is answered), when Generate's are, or when
// nothing is handed on.
func TestMeasureReusesLists(t *testing.T) {
	t.Parallel()
	tb := wideTable(t, 5, 400, 120)
	opt := Options{Shape: CountIn, Queries: 3*measureChunk + 2, Seed: 5}
	a := &textAnswerer{}
	if _, fits, err := Measure(tb, wideRoles, a, opt); !fits || err != nil || a.asked == 0 {
		t.Fatalf("fits %v, %v, %d answers", fits, err, a.asked)
	}
	g, err := newGenerator(tb, wideRoles, opt)
	if err != nil {
		t.Fatal(err)
	}
	lists := func(qs []*query.Query) map[*query.Literal]bool {
		out := map[*query.Literal]bool{}
		for _, q := range qs {
			for _, p := range q.Preds {
				if p.Op == query.OpIn {
					out[&p.Values[0]] = true
				}
			}
		}
		return out
	}
	draw := func() []*query.Query {
		var qs []*query.Query
		for range measureChunk {
			q, err := g.next()
			if err != nil {
				t.Fatal(err)
			}
			qs = append(qs, q)
		}
		return qs
	}
	first := draw()
	firstLists := lists(first)
	g.recycle()
	second := draw()
	reused := 0
	for l := range lists(second) {
		if firstLists[l] {
			reused++
		}
	}
	if reused == 0 {
		t.Fatal("no list of the second chunk reuses the first's memory")
	}
	qs, err := Generate(tb, wideRoles, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		p, err := query.Parse(q.Text)
		if err != nil || !sameConditions(q, p) {
			t.Fatalf("Generate's query %d holds lists its text does not say (%v): %s", i, err, q.Text)
		}
	}
}
