package sampling

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/algorithms/method"
	samplingcheck "privlab/algorithms/sampling/check"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// randomInput draws a small table: 1-3 QIs (numeric with interval or
// binary hierarchies, categorical with flat or ternary ones) and a
// categorical sensitive attribute, with skewed values.
func randomInput(t *testing.T, rng *model.Rand) *method.Input {
	t.Helper()
	rows := 1 + rng.Intn(250)
	d := 1 + rng.Intn(3)
	var header []string
	specs := map[string]string{}
	var qis []string
	for i := 0; i < d; i++ {
		name := fmt.Sprintf("q%d", i)
		header = append(header, name)
		qis = append(qis, name)
		if rng.Intn(2) == 0 {
			specs[name] = []string{"intervals:5", "intervals:5,10,20", "binary"}[rng.Intn(3)]
		} else {
			specs[name] = []string{"flat", "ternary", "binary"}[rng.Intn(3)]
		}
	}
	header = append(header, "s")
	var b strings.Builder
	b.WriteString(strings.Join(header, ",") + "\n")
	sa := 1 + rng.Intn(5)
	for r := 0; r < rows; r++ {
		for i := 0; i < d; i++ {
			if strings.HasPrefix(specs[qis[i]], "intervals") || (specs[qis[i]] == "binary" && i%2 == 0) {
				fmt.Fprintf(&b, "%d,", 18+rng.Intn(1+rng.Intn(50)))
			} else {
				fmt.Fprintf(&b, "c%d,", rng.Intn(1+rng.Intn(8)))
			}
		}
		fmt.Fprintf(&b, "s%d\n", rng.Intn(1+rng.Intn(sa)))
	}
	tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "random.csv"})
	if err != nil {
		t.Fatal(err)
	}
	hs := map[string]*hierarchy.Hierarchy{}
	for _, name := range append(append([]string(nil), qis...), "s") {
		spec := specs[name]
		if name == "s" {
			spec = "flat"
		}
		if tb.Column(name).Kind != model.Numeric && strings.HasPrefix(spec, "intervals") {
			spec = "flat"
		}
		h, err := hierarchy.Build(spec, tb.Column(name))
		if err != nil {
			t.Fatal(err)
		}
		hs[name] = h
	}
	mg := []string{"auto", "none", "q0=1", "q0=2"}[rng.Intn(4)]
	values := model.Values{
		paramRate:    model.FormatNumber(float64(1+rng.Intn(20)) / 20),
		paramMaxDist: model.FormatNumber(float64(rng.Intn(21)) / 20),
		paramMinGen:  mg,
		"seed":       fmt.Sprint(rng.Intn(1000)),
	}
	variant := []string{VariantPaper, VariantWithinLimit}[rng.Intn(2)]
	return &method.Input{Table: tb, Roles: model.Roles{QIs: qis, SA: "s"}, Hierarchies: hs, Values: values, Variant: variant}
}

// published is one published record as the definitions see it: its
// generalized labels and sensitive value.
type published struct {
	row    int
	labels []string
	sa     string
}

// TestPropertiesOnRandomInputs checks every release against the paper's
// definitions, recomputed here from scratch: every published record
// satisfies Eq. 3 and the distortion limit, its generalized values cover
// its original values at least as far up as the minimum generalization,
// and suppressed + published + unsampled = n with floor(beta n) sampled.
// Each group's "near cap" figure counts its records with observed >= 95%
// of expected confidence. Algorithm 1 terminates within the bound of the
// recoder's doc: at most sampled x (sum of taxonomy heights + 1) steps
// over all passes (so in each pass), and at most suppressed + 1 passes.
// A fixed seed reproduces the run; the independent checker accepts it.
func TestPropertiesOnRandomInputs(t *testing.T) {
	t.Parallel()
	rng := model.NewRand(2024)
	maxPasses, maxStepShare := 0, 0.0
	for iter := 0; iter < 300; iter++ {
		in := randomInput(t, rng)
		r, err := execute(context.Background(), in)
		var pe *model.ParamError
		if errors.As(err, &pe) && pe.Param == paramMaxDist {
			continue // the minimum generalization alone exceeds delta'
		}
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		res := r.res
		name := fmt.Sprintf("iteration %d (%d rows, %s, %v)", iter, in.Table.Rows, in.Variant, in.Values)
		heights := 0
		for _, q := range in.Roles.QIs {
			heights += in.Hierarchies[q].Height()
		}
		steps, passes := r.rec.stepCount(), r.rec.passCount()
		if bound := r.sampled * (heights + 1); steps > bound {
			t.Fatalf("%s: %d steps > sampled %d x (heights %d + 1) = %d", name, steps, r.sampled, heights, bound)
		}
		if passes < 1 || passes > res.Suppressed+1 {
			t.Fatalf("%s: %d passes with %d suppressed (at most suppressed + 1)", name, passes, res.Suppressed)
		}
		maxPasses = max(maxPasses, passes)
		if r.sampled > 0 {
			maxStepShare = math.Max(maxStepShare, float64(steps)/float64(r.sampled*(heights+1)))
		}
		n := in.Table.Rows
		beta, delta := in.Values.Float(paramRate), in.Values.Float(paramMaxDist)
		sampled := int(math.Floor(beta*float64(n) + 1e-9))
		if res.Published+res.Suppressed != sampled || res.RowsIn != n {
			t.Fatalf("%s: %d published + %d suppressed != %d sampled", name, res.Published, res.Suppressed, sampled)
		}
		var pub []published
		seen := map[int32]bool{}
		for _, g := range res.Groups {
			if g.Violation {
				t.Fatalf("%s: group %d violates", name, g.ID)
			}
			for _, row := range g.Rows {
				if seen[row] {
					t.Fatalf("%s: row %d published twice", name, row)
				}
				seen[row] = true
				pub = append(pub, published{int(row), g.QI, in.Table.Column("s").Value(int(row))})
			}
		}
		if len(pub) != res.Published {
			t.Fatalf("%s: groups hold %d rows, Published %d", name, len(pub), res.Published)
		}
		near := checkDefinitions(t, name, in, pub, beta, delta)
		for _, g := range res.Groups {
			want := near[strings.Join(g.QI, "\x00")]
			if got := g.Figures[FigNearCap]; got < float64(want[0]) || got > float64(want[1]) {
				t.Fatalf("%s: group %d has %v records near its cap, want %d (up to %d at the 95%% boundary)", name, g.ID, got, want[0], want[1])
			}
		}

		// A fixed seed reproduces the run.
		again, err := Method{}.Run(context.Background(), in)
		if err != nil || !reflect.DeepEqual(groupRows(again), groupRows(res)) {
			t.Fatalf("%s: a second run with the same seed differs (%v)", name, err)
		}
		if iter%10 == 0 {
			checkRelease(t, name, in, res)
		}
	}
	// Passes stay few even on these tiny tables where suppressions cascade
	// (9 at most for this seed; 2-5 on census, TestCensusStepsAndNearCap).
	if maxPasses > 10 {
		t.Errorf("a run took %d passes", maxPasses)
	}
	t.Logf("at most %d passes; steps at most %.3f of the bound", maxPasses, maxStepShare)
}

// On the census example the run stays far inside the termination bound
// and takes few passes (2 with the paper's settings, beta 0.9 and delta'
// 0.6; at most 5 where delta' 0.2 suppresses a third); with the paper's
// settings the "near cap" figures add up to the summary's count and each
// group's detail states its own.
func TestCensusStepsAndNearCap(t *testing.T) {
	var r *run
	for _, c := range []struct {
		beta, delta string
		passes      int
	}{{"0.9", "0.2", 5}, {"1", "0.4", 4}, {"0.9", "0.6", 2}} { // the paper's settings last: r is read below
		in := censusInput(t, 10000, "occupation", model.Values{"seed": "3", paramRate: c.beta, paramMaxDist: c.delta})
		var err error
		if r, err = execute(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		heights := 0
		for _, q := range in.Roles.QIs {
			heights += in.Hierarchies[q].Height()
		}
		steps, passes := r.rec.stepCount(), r.rec.passCount()
		if steps > r.sampled*(heights+1) || passes > c.passes {
			t.Fatalf("beta %s, delta' %s: %d steps (bound %d), %d passes (want at most %d)", c.beta, c.delta,
				steps, r.sampled*(heights+1), passes, c.passes)
		}
		t.Logf("beta %s, delta' %s: %d steps for %d sampled records (bound %d), %d passes", c.beta, c.delta,
			steps, r.sampled, r.sampled*(heights+1), passes)
	}
	res := r.res
	sum, groupsNear := 0.0, 0
	for i, g := range res.Groups {
		x := g.Figures[FigNearCap]
		sum += x
		if x > 0 {
			groupsNear++
		}
		want := fmt.Sprintf("%d of its %d records are near their cap", int(x), len(g.Rows))
		if d := res.Detail(i, 5); !strings.Contains(strings.Join(d.Sections[0].Notes, "\n"), want) {
			t.Fatalf("group %d: the detail does not say %q: %v", g.ID, want, d.Sections[0].Notes)
		}
	}
	var summary float64 = -1
	for _, f := range res.Summary {
		if f.Name == "records within 5% of their cap" {
			summary = f.Value
		}
	}
	if sum != summary || sum == 0 {
		t.Fatalf("groups hold %v records near their cap, the summary says %v", sum, summary)
	}
	if f := res.Spec.Figures[FigNearCap]; f.Key != "near" || f.Rule != method.Info {
		t.Fatalf("near cap figure: %+v", f)
	}
	t.Logf("%v records near their cap in %d groups", sum, groupsNear)
}

func groupRows(r *method.Result) [][]int32 {
	var out [][]int32
	for _, g := range r.Groups {
		out = append(out, g.Rows)
	}
	return out
}

// checkDefinitions recomputes Definitions 5, 8-10 and Eqs. 1-3 from the
// original table, the hierarchies and the published records. It returns,
// per group (its labels joined by NUL), the number of records whose
// observed confidence is at least 95% of their expected confidence: the
// count away from the boundary and the count with records within 1e-12
// of it.
func checkDefinitions(t *testing.T, name string, in *method.Input, pub []published, beta, delta float64) map[string][2]int {
	t.Helper()
	tb := in.Table
	n := tb.Rows
	qis := in.Roles.QIs
	// Public marginals: the table's frequencies.
	freq := func(col string, pred func(v string) bool) float64 {
		c := tb.Column(col)
		k := 0
		for r := 0; r < n; r++ {
			if pred(c.Value(r)) {
				k++
			}
		}
		return float64(k) / float64(n)
	}
	under := func(h *hierarchy.Hierarchy, label, value string) bool {
		l, ok := h.Leaf(value)
		if !ok {
			t.Fatalf("%s: %q not in the hierarchy of %s", name, value, h.Attr)
		}
		for x := l; x >= 0; x = h.Nodes[x].Parent {
			if h.Nodes[x].Label == label {
				return true
			}
		}
		return false
	}
	mg, _ := parseMinGen(in.Values[paramMinGen])
	groups := map[string][]published{}
	for _, p := range pub {
		k := strings.Join(p.labels, "\x00")
		groups[k] = append(groups[k], p)
	}
	near := map[string][2]int{}
	for key, members := range groups {
		labels := members[0].labels
		prQ := 1.0
		dist := 0.0
		for i, q := range qis {
			h := in.Hierarchies[q]
			prQ *= freq(q, func(v string) bool { return under(h, labels[i], v) })
			var x int
			for j := range h.Nodes {
				if h.Nodes[j].Label == labels[i] {
					x = j
				}
			}
			if h.Height() > 0 {
				dist += 1 - float64(h.Nodes[x].Depth)/float64(h.Height())
			}
			// The minimum generalization: at least L levels above the value.
			levels := mg.levels[q]
			if mg.auto && h.Numeric {
				levels = 1
			}
			for _, p := range members {
				if !under(h, labels[i], tb.Column(q).Value(p.row)) {
					t.Fatalf("%s: %s = %s does not cover the original %s", name, q, labels[i], tb.Column(q).Value(p.row))
				}
				l, _ := h.Leaf(tb.Column(q).Value(p.row))
				if x != 0 && h.Nodes[l].Depth-h.Nodes[x].Depth < levels {
					t.Fatalf("%s: %s = %s is below the minimum generalization of %d levels", name, q, labels[i], levels)
				}
			}
		}
		dist /= float64(len(qis))
		if dist > delta+1e-12 {
			t.Fatalf("%s: distortion %v > delta' %v", name, dist, delta)
		}
		count := map[string]int{}
		for _, p := range members {
			count[p.sa]++
		}
		for s, c := range count {
			prT := prQ * freq("s", func(v string) bool { return v == s })
			exp := 1 - math.Pow(1-prT, float64(len(pub)))
			obs := beta * float64(c) / float64(len(members))
			if obs > exp+1e-9 {
				t.Fatalf("%s: group %v, s = %s: observed %v > expected %v", name, labels, s, obs, exp)
			}
			n := near[key]
			if exp > 0 && obs >= 0.95*exp+1e-12 {
				n[0] += c
			}
			if exp > 0 && obs >= 0.95*exp-1e-12 {
				n[1] += c
			}
			near[key] = n
		}
	}
	return near
}

// checkRelease writes the release with its audit record and runs the
// independent checker on it, with the original.
func checkRelease(t *testing.T, name string, in *method.Input, res *method.Result) {
	t.Helper()
	rel, rowMap, err := res.Release(5)
	if err != nil {
		t.Fatal(err)
	}
	rel.Manifest.RowsIn = in.Table.Rows
	rel.Manifest.MissingValues = "drop"
	dir := filepath.Join(t.TempDir(), "rel")
	audit := &releasedir.Audit{RowMap: rowMap}
	if _, err := releasedir.Write(dir, rel, releasedir.WriteOptions{Audit: audit}); err != nil {
		t.Fatal(err)
	}
	lookup := func(string) (verify.Declared, bool) { return verify.Declared{Check: samplingcheck.Check}, true }
	rep, err := verify.NewShared(dir).Check(verify.Options{Original: in.Table, Audit: audit}, lookup)
	if err != nil || !rep.OK() {
		t.Fatalf("%s: the checker refuses the release: %v\n%s", name, err, strings.Join(rep.Strings(), "\n"))
	}
}

// A group of many cells (many sensitive values) finds a cell by a map and
// skips the look for idle cells when it has none: on random tables of up
// to 60 sensitive values, many to a group, the run is the run of the
// plain looks (the same groups, rows, suppressions and steps), and every
// group's idle count is the number of its cells with records (none is
// queued when the run ends).
func TestManyCellsShortcutsChangeNothing(t *testing.T) {
	t.Parallel()
	rng := model.NewRand(77)
	bigGroups := 0
	for iter := 0; iter < 150; iter++ {
		in := randomInput(t, rng)
		var b strings.Builder
		b.WriteString("q,s\n")
		for row := 0; row < in.Table.Rows; row++ {
			fmt.Fprintf(&b, "c%d,v%d\n", rng.Intn(1+rng.Intn(4)), rng.Intn(1+rng.Intn(60)))
		}
		tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "wide.csv"})
		if err != nil {
			t.Fatal(err)
		}
		hq, _ := hierarchy.Build([]string{"flat", "binary", "ternary"}[rng.Intn(3)], tb.Column("q"))
		hs, _ := hierarchy.Build("flat", tb.Column("s"))
		in = &method.Input{Table: tb, Roles: model.Roles{QIs: []string{"q"}, SA: "s"}, Variant: in.Variant, Values: model.Values{
			paramRate: in.Values[paramRate], paramMaxDist: model.FormatNumber(float64(10+rng.Intn(11)) / 20), paramMinGen: "none", "seed": "5"},
			Hierarchies: map[string]*hierarchy.Hierarchy{"q": hq, "s": hs}}
		fast, err := executeWith(context.Background(), in, false)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		plain, err := executeWith(context.Background(), in, true)
		if err != nil {
			t.Fatalf("iteration %d: %v", iter, err)
		}
		if !reflect.DeepEqual(groupRows(fast.res), groupRows(plain.res)) || !reflect.DeepEqual(fast.rec.supp, plain.rec.supp) ||
			fast.rec.steps != plain.rec.steps || fast.rec.passes != plain.rec.passes {
			t.Fatalf("iteration %d: the shortcuts change the run: %d/%d steps, %d/%d suppressed", iter, fast.rec.steps, plain.rec.steps, len(fast.rec.supp), len(plain.rec.supp))
		}
		for gi, g := range fast.rec.groups {
			withRows := 0
			for _, c := range g.cells {
				if len(fast.rec.cells[c].rows) > 0 {
					withRows++
				}
			}
			if g.idle != withRows {
				t.Fatalf("iteration %d: group %d counts %d idle cells, has %d with records", iter, gi, g.idle, withRows)
			}
			if g.bySA != nil {
				bigGroups++
			}
		}
	}
	if bigGroups < 50 {
		t.Errorf("only %d groups of many cells: the test does not reach the map", bigGroups)
	}
}
