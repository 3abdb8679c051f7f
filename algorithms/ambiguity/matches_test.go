package ambiguity

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"privlab/model"
	"privlab/model/query"
)

// textMatches is matches as it was: every predicate's MatchValue on each
// distinct value's text (and number).
func textMatches(t *valueTable, preds []query.Pred) []bool {
	if len(preds) == 0 {
		return nil
	}
	out := make([]bool, len(t.text))
	for v := range out {
		ok := true
		for _, p := range preds {
			n := 0.0
			if t.num != nil {
				n = t.num[v]
			}
			if !p.MatchValue(t.text[v], n, t.kind == model.Numeric) {
				ok = false
				break
			}
		}
		out[v] = ok
	}
	return out
}

// matches decides a table's values as the text matching did, for IN
// lists written from a dictionary's codes (the workload's): on the very
// column they were written from, on a column of another dictionary (the
// release's: another order, values absent from one or the other, texts
// repeated in the lists' dictionary), with other conditions beside them,
// and for the same query's parsed text (no codes).
func TestMatchesIsTextMatching(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 400; trial++ {
		n := 1 + rng.IntN(50)
		src := &model.Column{Name: "c", Kind: model.Categorical}
		distinct := rng.IntN(2) == 0 // the lists' dictionary may repeat texts
		for i := 0; i < n; i++ {
			v := rng.IntN(n + n/3 + 1)
			if distinct {
				v = i
			}
			src.Dict = append(src.Dict, fmt.Sprintf("v%d", v))
		}
		other := &model.Column{Name: "c", Kind: model.Categorical}
		seen := map[string]bool{}
		for i := 0; i < 1+rng.IntN(2*n); i++ {
			if s := fmt.Sprintf("v%d", rng.IntN(2*n)); !seen[s] {
				seen[s] = true
				other.Dict = append(other.Dict, s)
			}
		}
		lits := query.NewLiterals(src)
		w := query.NewWriter(query.Count, "")
		codes := make([]uint32, 1+rng.IntN(n))
		for i := range codes {
			codes[i] = uint32(rng.IntN(n))
		}
		w.InInto(lits, codes, make([]query.Literal, len(codes)))
		if rng.IntN(3) == 0 {
			w.Equal("c", fmt.Sprintf("v%d", rng.IntN(2*n)))
		}
		q, err := w.Query()
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := query.Parse(q.Text)
		if err != nil {
			t.Fatal(err)
		}
		cols := []*model.Column{other}
		if distinct {
			cols = append(cols, src)
		}
		for _, c := range cols {
			vt := tableOfColumn(c)
			want := textMatches(&vt, parsed.Preds)
			for round := 0; round < 2; round++ { // the second from the translation kept
				if got := matches(&vt, q.Preds); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s on %v: by codes %v, by text %v", q.Text, c.Dict, got, want)
				}
			}
			if got := matches(&vt, parsed.Preds); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s parsed on %v: %v, by text %v", q.Text, c.Dict, got, want)
			}
		}
	}
}

// Numeric columns and comparisons are decided on the values' numbers.
func TestMatchesNumeric(t *testing.T) {
	c := &model.Column{Name: "age", Kind: model.Numeric, Dict: []string{"30", "17", "45.5", "60"}, Nums: []float64{30, 17, 45.5, 60}}
	vt := tableOfColumn(c)
	q, err := query.Parse("COUNT(*) WHERE age BETWEEN 17 AND 45 AND age IN (17, 60, 30, 99)")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(matches(&vt, q.Preds)), "[true true false false]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := fmt.Sprint(textMatches(&vt, q.Preds)); got != "[true true false false]" {
		t.Fatalf("text matching %s", got)
	}
}
