package lossyjoin

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
	"privlab/model/query"
)

// input builds a method input from CSV text; every column but the last is
// a QI with the given hierarchy spec, the last is the SA.
func input(t testing.TB, text string, specs []string, variant string, k int, alpha float64) *method.Input {
	t.Helper()
	tab, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	names := tab.Names()
	hs := map[string]*hierarchy.Hierarchy{}
	for i, s := range specs {
		h, err := hierarchy.Build(s, tab.Column(names[i]))
		if err != nil {
			t.Fatal(err)
		}
		hs[names[i]] = h
	}
	sa := names[len(names)-1]
	hs[sa], _ = hierarchy.Build("flat", tab.Column(sa))
	return &method.Input{Table: tab, Roles: model.Roles{QIs: names[:len(names)-1], SA: sa}, Hierarchies: hs,
		Variant: variant, Values: model.Values{"k": fmt.Sprint(k), "alpha": model.FormatNumber(alpha), "seed": "1"}}
}

// classesOf lists each class as its QI summary and its rows' SA values.
func classesOf(res *method.Result, in *method.Input) []string {
	sa := in.Table.Column(in.Roles.SA)
	var out []string
	for _, g := range res.Groups {
		var vals []string
		for _, r := range g.Rows {
			vals = append(vals, fmt.Sprintf("%d:%s", r, sa.Value(int(r))))
		}
		sort.Strings(vals)
		out = append(out, strings.Join(g.QI, ",")+" "+strings.Join(vals, " "))
	}
	sort.Strings(out)
	return out
}

// TestMergeBack exercises lines 8-10 of Algorithm 1: the child c = {z}
// violates k and is merged back; the remainder {z} then violates, no child
// can spare a tuple (each would fall below k), so the smallest child is
// merged back whole.
func TestMergeBack(t *testing.T) {
	in := input(t, "A,S\na,x\na,y\nb,x\nb,y\nc,z\n", []string{"flat"}, VariantLossy, 2, 0.5)
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got := classesOf(res, in)
	want := []string{"* 0:x 1:y 4:z", "b 2:x 3:y"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("classes %v, want %v", got, want)
	}
}

// TestMoveBack: the remainder {z} takes one tuple from child a, which
// stays (0.5, 2)-anonymous without it (line 10).
func TestMoveBack(t *testing.T) {
	in := input(t, "A,S\na,x\na,y\na,w\na,x\na,y\na,w\nc,z\n", []string{"flat"}, VariantLossy, 2, 0.5)
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got := classesOf(res, in)
	want := []string{"* 0:x 6:z", "a 1:y 2:w 3:x 4:y 5:w"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("classes %v, want %v", got, want)
	}
}

// TestInfeasible: the most frequent value above alpha is explained before
// running (SPEC 2.5), naming alpha.
func TestInfeasible(t *testing.T) {
	in := input(t, "A,S\na,x\nb,x\nc,y\n", []string{"flat"}, VariantLossy, 2, 0.5)
	_, err := Method{}.Run(context.Background(), in)
	pe, ok := err.(*model.ParamError)
	if !ok || pe.Param != "alpha" || !strings.Contains(pe.Hint, "0.667") {
		t.Fatalf("got %v", err)
	}
	in = input(t, "A,S\na,x\nb,x\nc,y\nd,y\ne,z\n", []string{"flat"}, VariantAnatomy, 2, 0.4)
	_, err = Method{}.Run(context.Background(), in)
	if pe, ok := err.(*model.ParamError); !ok || pe.Param != "alpha" || !strings.Contains(pe.Reason, "Anatomy") {
		t.Fatalf("anatomy eligibility: got %v", err)
	}
}

// randomTable draws a table with three QIs (a numeric one with interval
// hierarchies, a categorical one with a balanced tree, one flat) and an SA
// of m values.
func randomTable(rng *model.Rand, n, m int) string {
	var b strings.Builder
	b.WriteString("age,city,sex,disease\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,c%d,%s,d%d\n", 20+rng.Intn(40), rng.Intn(7), []string{"F", "M"}[rng.Intn(2)], rng.Intn(m))
	}
	return b.String()
}

var randomSpecs = []string{"intervals:5,10,20", "binary", "flat"}

// TestRandomProperties: on random tables every variant's classes
// partition the rows, hold at least k records and no sensitive value
// above alpha (checked here from the definition); top-down classes are
// distinct generalizations that cover their members; Anatomy's hold
// ceil(1/alpha) distinct values.
func TestRandomProperties(t *testing.T) {
	rng := model.NewRand(11)
	ran := map[string]int{}
	for trial := 0; trial < 150; trial++ {
		n := 5 + rng.Intn(120)
		m := 2 + rng.Intn(6)
		text := randomTable(rng, n, m)
		k := 2 + rng.Intn(4)
		alpha := []float64{0.25, 0.34, 0.5, 0.67, 0.8, 1}[rng.Intn(6)]
		for _, variant := range []string{VariantLossy, VariantAlpha, VariantAnatomy} {
			in := input(t, text, randomSpecs, variant, k, alpha)
			res, err := Method{}.Run(context.Background(), in)
			if err != nil {
				if _, ok := err.(*model.ParamError); ok {
					continue // infeasible (alpha,k) or Anatomy's eligibility
				}
				t.Fatal(err)
			}
			if !res.Satisfied() {
				t.Fatalf("trial %d %s: result not satisfied", trial, variant)
			}
			checkDefinition(t, fmt.Sprintf("trial %d %s k=%d alpha=%v", trial, variant, k, alpha), in, res, k, alpha)
			ran[variant]++
		}
	}
	for _, v := range []string{VariantLossy, VariantAlpha, VariantAnatomy} {
		if ran[v] < 50 {
			t.Fatalf("only %d feasible random runs of %s", ran[v], v)
		}
	}
}

// checkDefinition checks (alpha,k) and the partition from the rows alone,
// on integers: alpha is a whole number of hundredths.
func checkDefinition(t *testing.T, name string, in *method.Input, res *method.Result, k int, alpha float64) {
	t.Helper()
	pct := int(math.Round(alpha * 100))
	l := (100 + pct - 1) / pct // ceil(1/alpha)
	seen := make([]int, in.Table.Rows)
	sa := in.Table.Column(in.Roles.SA)
	gens := map[string]bool{}
	for _, g := range res.Groups {
		if len(g.Rows) < k {
			t.Fatalf("%s: class of %d < k", name, len(g.Rows))
		}
		count := map[string]int{}
		for _, r := range g.Rows {
			seen[r]++
			count[sa.Value(int(r))]++
		}
		for v, c := range count {
			if c*100 > pct*len(g.Rows) {
				t.Fatalf("%s: %s is %d of %d > alpha", name, v, c, len(g.Rows))
			}
		}
		if in.Variant == VariantAnatomy {
			if len(count) < l {
				t.Fatalf("%s: %d distinct values < l", name, len(count))
			}
			continue
		}
		key := strings.Join(g.QI, "|")
		if gens[key] {
			t.Fatalf("%s: two classes generalize to %s", name, key)
		}
		gens[key] = true
		// The generalization covers every member's values.
		for q, qi := range in.Roles.QIs {
			h := in.Hierarchies[qi]
			node := -1
			for n := range h.Nodes {
				if h.Nodes[n].Label == g.QI[q] {
					node = n
				}
			}
			col := in.Table.Column(qi)
			for _, r := range g.Rows {
				leaf, _ := h.Leaf(col.Value(int(r)))
				if node < 0 || h.Nodes[leaf].First < h.Nodes[node].First || h.Nodes[leaf].First > h.Nodes[node].Last {
					t.Fatalf("%s: %s=%s not under %s", name, qi, col.Value(int(r)), g.QI[q])
				}
			}
		}
	}
	for r, c := range seen {
		if c != 1 {
			t.Fatalf("%s: row %d is in %d classes", name, r, c)
		}
	}
}

// TestRandomAnswers compares the join-semantics estimate with a brute
// force over the materialized lossy join (Table 7's construction: every
// NSS row of a class paired with every SS row, each pair 1/a of a
// record), and the generalized table's estimate with an enumeration of
// every leaf combination of each class's generalization.
func TestRandomAnswers(t *testing.T) {
	rng := model.NewRand(5)
	queries := []string{
		"COUNT(*) WHERE city IN ('c1', 'c2', 'c5') AND disease IN ('d0', 'd1')",
		"COUNT(*) WHERE age BETWEEN 25 AND 41 AND sex = 'F' AND disease = 'd2'",
		"COUNT(*) WHERE age >= 30 AND age < 50 AND city != 'c3'",
		"COUNT(*) WHERE disease != 'd1'",
	}
	for trial := 0; trial < 30; trial++ {
		text := randomTable(rng, 40+rng.Intn(100), 3+rng.Intn(3))
		for _, variant := range []string{VariantLossy, VariantAnatomy, VariantAlpha} {
			in := input(t, text, randomSpecs, variant, 2, 0.5)
			res, err := Method{}.Run(context.Background(), in)
			if err != nil {
				continue
			}
			for _, qt := range queries {
				q, err := query.Parse(qt)
				if err != nil {
					t.Fatal(err)
				}
				got, err := res.Answerer.Answer(q)
				if err != nil {
					t.Fatal(err)
				}
				want := bruteForce(t, in, res, q, variant)
				if math.Abs(got.Estimate-want) > 1e-9 {
					t.Fatalf("trial %d %s %s: %v, brute force %v", trial, variant, qt, got.Estimate, want)
				}
			}
		}
	}
}

func bruteForce(t *testing.T, in *method.Input, res *method.Result, q *query.Query, variant string) float64 {
	tab := in.Table
	match := func(p query.Pred, col *model.Column, text string) bool {
		num, _ := model.ParseNumber(text)
		return p.MatchValue(text, num, col.Kind == model.Numeric)
	}
	total := 0.0
	for _, g := range res.Groups {
		a := float64(len(g.Rows))
		if variant != VariantAlpha {
			// The lossy join of the class: a x a pairs.
			for _, rq := range g.Rows {
				for _, rs := range g.Rows {
					ok := true
					for _, p := range q.Preds {
						row := rq
						if p.Column == in.Roles.SA {
							row = rs
						}
						col := tab.Column(p.Column)
						if !match(p, col, col.Value(int(row))) {
							ok = false
						}
					}
					if ok {
						total += 1 / a
					}
				}
			}
			continue
		}
		// Generalized: every leaf combination of the class's cells, each
		// equally likely, times the members whose SA matches.
		frac := 1.0
		for qi, name := range in.Roles.QIs {
			h := in.Hierarchies[name]
			node := -1
			for n := range h.Nodes {
				if h.Nodes[n].Label == g.QI[qi] {
					node = n
				}
			}
			nd := h.Nodes[node]
			hit := 0
			for i := nd.First; i <= nd.Last; i++ {
				ok := true
				for _, p := range q.Preds {
					if p.Column == name && !match(p, tab.Column(name), h.Nodes[h.Leaves[i]].Label) {
						ok = false
					}
				}
				if ok {
					hit++
				}
			}
			frac *= float64(hit) / float64(nd.Last-nd.First+1)
		}
		for _, r := range g.Rows {
			ok := true
			for _, p := range q.Preds {
				if p.Column == in.Roles.SA && !match(p, tab.Column(p.Column), tab.Column(p.Column).Value(int(r))) {
					ok = false
				}
			}
			if ok {
				total += frac
			}
		}
	}
	return total
}

// TestSumAvg: SUM and AVG of a numeric sensitive attribute follow the same
// join semantics as COUNT.
func TestSumAvg(t *testing.T) {
	in := input(t, "A,S\na,10\na,20\nb,30\nb,40\nb,50\nb,60\n", []string{"flat"}, VariantLossy, 2, 0.5)
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]float64{
		"SUM(S) WHERE A = 'a'":              30,
		"AVG(S) WHERE A = 'a' AND S >= 15":  20,
		"SUM(S) WHERE S > 35":               150,
		"COUNT(*) WHERE A = 'b' AND S < 45": 2,
	} {
		got, err := res.Answerer.Answer(mustParse(t, q))
		if err != nil || !got.HasEst || got.Estimate != want {
			t.Errorf("%s: %+v %v, want %v", q, got, err, want)
		}
	}
	got, err := res.Answerer.Answer(mustParse(t, "COUNT(*) WHERE A = 'c'"))
	if err != nil || !got.Empty {
		t.Errorf("no NSS row selected: %+v %v, want an empty (exact 0) answer", got, err)
	}
}

func mustParse(t *testing.T, s string) *query.Query {
	t.Helper()
	q, err := query.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestCancel: a cancelled run stops with the context's error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range []string{VariantLossy, VariantAnatomy} {
		in := input(t, randomTable(model.NewRand(1), 200, 4), randomSpecs, v, 2, 0.5)
		if _, err := (Method{}).Run(ctx, in); err != context.Canceled {
			t.Fatalf("%s: got %v, want context.Canceled", v, err)
		}
	}
}

// TestTupleAnswers: on a table whose rows repeat few QI combinations, the
// join-semantics answer counts NSS's distinct (QI values, class)
// combinations weighted by their rows (qiTuples) and equals the brute
// force over the materialized lossy join, as the row-by-row count does;
// a condition the tuples do not bind (a column not published) still
// gives the rows' error. Anatomy's answers, read off the rows, agree
// too.
func TestTupleAnswers(t *testing.T) {
	rng := model.NewRand(9)
	var b strings.Builder
	b.WriteString("age,city,sex,disease\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, "%d,c%d,%s,d%d\n", 20+10*rng.Intn(3), rng.Intn(3), []string{"F", "M"}[rng.Intn(2)], rng.Intn(5))
	}
	queries := []string{
		"COUNT(*) WHERE city IN ('c1', 'c2') AND disease IN ('d0', 'd1')",
		"COUNT(*) WHERE age BETWEEN 25 AND 41 AND sex = 'F' AND disease = 'd2'",
		"COUNT(*) WHERE age >= 30 AND city != 'c0'",
	}
	for _, variant := range []string{VariantLossy, VariantAnatomy} {
		in := input(t, b.String(), randomSpecs, variant, 2, 0.5)
		res, err := Method{}.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, qt := range queries {
			q := mustParse(t, qt)
			got, err := res.Answerer.Answer(q)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteForce(t, in, res, q, variant); math.Abs(got.Estimate-want) > 1e-9 {
				t.Fatalf("%s %s: %v, brute force %v", variant, qt, got.Estimate, want)
			}
		}
		// Anatomy's classes of ceil(1/alpha) rows leave over half the
		// rows as combinations: its answers are read off the rows.
		x := res.Answerer.(*joinIndex)
		if variant == VariantAnatomy {
			if x.tuples != nil {
				t.Fatalf("anatomy: %d combinations read for %d rows", x.tuples.table.Rows, in.Table.Rows)
			}
		} else if x.tuples == nil || x.tuples.table.Rows > 3*3*2*len(x.size) || x.tuples.table.Rows >= in.Table.Rows/2 {
			t.Fatalf("%s: the answers were not read off the tuples (%+v)", variant, x.tuples)
		}
		if _, err := res.Answerer.Answer(mustParse(t, "COUNT(*) WHERE zip = 'z'")); err == nil {
			t.Fatalf("%s: a condition on an unpublished column answered", variant)
		}
	}
}
