package sampling

import (
	"math"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/hierarchy"
)

// taxonomyOf parses a hierarchy (value;level...;root rows) and builds the
// method's taxonomy with the given leaf probabilities (0 when absent).
func taxonomyOf(t *testing.T, attr, rows string, p map[string]float64) *taxonomy {
	t.Helper()
	h, err := hierarchy.Parse(attr, attr+".csv", strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := newTaxonomy(exportAttribute(h, attr, func(n int) float64 { return p[h.Nodes[n].Label] }))
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func node(t *testing.T, tx *taxonomy, label string) int32 {
	t.Helper()
	x, ok := tx.byLabel[label]
	if !ok {
		t.Fatalf("%s has no node %q", tx.name, label)
	}
	return x
}

// Section 3, Definition 5: Pr(age = 20-30) = 0.15, Pr(female) = 0.5,
// Pr(diabetes) = 0.05 give Pr(t) = 0.00375; with n = 100 the expected
// confidence (Eq. 1) is 0.313, with n = 1000 it is 0.977.
func TestRecordProbabilityAndExpectedConfidence(t *testing.T) {
	p := RecordProbability([]float64{0.15, 0.5}, 0.05)
	if math.Abs(p-0.00375) > 1e-18 {
		t.Fatalf("Pr(t) = %v, want 0.00375", p)
	}
	for _, c := range []struct {
		n    int
		want float64
	}{{100, 0.313}, {1000, 0.977}} {
		got := ExpectedConfidence(p, c.n)
		if math.Round(got*1000)/1000 != c.want {
			t.Errorf("n = %d: expected confidence %v, want %v (three decimals, as the paper)", c.n, got, c.want)
		}
		if direct := 1 - math.Pow(1-p, float64(c.n)); math.Abs(direct-got) > 1e-14 {
			t.Errorf("n = %d: %v differs from 1-(1-p)^n = %v", c.n, got, direct)
		}
	}
}

// Eq. 1 stays exact where 1-(1-p)^n loses every digit: a tiny p and a
// large n.
func TestExpectedConfidenceIsStable(t *testing.T) {
	p, n := 1e-18, 1_000_000
	if got, want := ExpectedConfidence(p, n), 1e-12; math.Abs(got-want) > 1e-24 {
		t.Fatalf("expected confidence %v, want %v (1-(1-p)^n gives %v)", got, want, 1-math.Pow(1-p, float64(n)))
	}
	if got := ExpectedConfidence(1e-7, 100_000_000); math.Abs(got-(1-math.Exp(-10))) > 1e-9 {
		t.Fatalf("large n: %v, want %v", got, 1-math.Exp(-10))
	}
	for _, c := range []struct {
		p    float64
		n    int
		want float64
	}{{0, 10, 0}, {0.5, 0, 0}, {1, 3, 1}} {
		if got := ExpectedConfidence(c.p, c.n); got != c.want {
			t.Errorf("ExpectedConfidence(%v, %d) = %v, want %v", c.p, c.n, got, c.want)
		}
	}
}

// Definition 9 and Eq. 2: a group with sensitive values {A,A,A,B,B,C}
// gives A, B and C the confidences 1/2, 1/3 and 1/6; with beta = 1 (the
// victim surely published) the observed confidence is the same.
func TestGroupConfidence(t *testing.T) {
	group := []string{"A", "A", "A", "B", "B", "C"}
	count := map[string]int{}
	for _, s := range group {
		count[s]++
	}
	for s, want := range map[string]float64{"A": 1.0 / 2, "B": 1.0 / 3, "C": 1.0 / 6} {
		if got := GroupConfidence(count[s], len(group)); got != want {
			t.Errorf("confidence of %s = %v, want %v", s, got, want)
		}
		if got := ObservedConfidence(1, count[s], len(group)); got != want {
			t.Errorf("observed confidence of %s with beta 1 = %v, want %v", s, got, want)
		}
		if got := ObservedConfidence(0.9, count[s], len(group)); math.Abs(got-0.9*want) > 1e-15 {
			t.Errorf("observed confidence of %s with beta 0.9 = %v, want %v", s, got, 0.9*want)
		}
	}
}

// Figure 1's taxonomies as Section 5.1 reads them: age 25 is at level 4
// and 20-40 at level 3; sex male at level 1 and any at level 0 (the
// figure itself is not in the text; these trees have those levels).
const (
	ageLevels4 = "15;1-19;1-40;1-80;*\n25;20-40;1-40;1-80;*\n45;41-60;41-80;1-80;*\n70;61-80;41-80;1-80;*\n"
	sexTree    = "male;any\nfemale;any\n"
)

// Section 5.1, Definition 10: t = {age 25, sex male} generalized to
// {age 20-40, sex any} has distortion ((1 - 3/4) + (1 - 0/1)) / 2 =
// 0.625; the original record has 0 and the all-root one 1.
func TestDistortionExample(t *testing.T) {
	age := taxonomyOf(t, "age", ageLevels4, nil)
	sex := taxonomyOf(t, "sex", sexTree, nil)
	if age.height != 4 || age.depth[node(t, age, "25")] != 4 || age.depth[node(t, age, "20-40")] != 3 {
		t.Fatalf("age levels: height %d, 25 at %d, 20-40 at %d", age.height, age.depth[node(t, age, "25")], age.depth[node(t, age, "20-40")])
	}
	got := Distortion([]float64{age.term(node(t, age, "20-40")), sex.term(node(t, sex, "any"))})
	if got != 0.625 {
		t.Fatalf("distortion %v, want 0.625", got)
	}
	if d := Distortion([]float64{age.term(node(t, age, "25")), sex.term(node(t, sex, "male"))}); d != 0 {
		t.Errorf("original record: distortion %v, want 0", d)
	}
	if d := Distortion([]float64{age.term(0), sex.term(0)}); d != 1 {
		t.Errorf("all at the root: distortion %v, want 1", d)
	}
	if d := Distortion([]float64{LevelTerm(3, 4), LevelTerm(0, 1)}); d != 0.625 {
		t.Errorf("LevelTerm: %v", d)
	}
}

// Figure 1 as Definition 11 reads it: age 26-50 sits under a binary top
// (any; 1-50, 51-100; four quarters), so its left domain size is
// 1 + 2 + 4 = 7, and sex male's is 1 + 2 = 3: age is generalized.
func TestLeftDomainSizeExample(t *testing.T) {
	age := taxonomyOf(t, "age", "10;1-25;1-50;*\n30;26-50;1-50;*\n60;51-75;51-100;*\n90;76-100;51-100;*\n", nil)
	sex := taxonomyOf(t, "sex", sexTree, nil)
	if got := age.lds[node(t, age, "26-50")]; got != 7 {
		t.Errorf("left domain size of 26-50: %d, want 7", got)
	}
	if got := sex.lds[node(t, sex, "male")]; got != 3 {
		t.Errorf("left domain size of male: %d, want 3", got)
	}
	rec, err := newRecoder([]*taxonomy{sex, age}, 0.9, model.Values{"d": "1"}.Bound("d"), []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	g := rec.groupOf([]int32{node(t, sex, "male"), node(t, age, "26-50")})
	if rec.groups[g].next != 1 {
		t.Fatalf("Definition 11 picks attribute %d, want 1 (age)", rec.groups[g].next)
	}
	// At the root an attribute is never picked.
	g = rec.groupOf([]int32{node(t, sex, "male"), 0})
	if rec.groups[g].next != 0 {
		t.Fatalf("with age at the root, Definition 11 picks %d, want 0 (sex)", rec.groups[g].next)
	}
	if g = rec.groupOf([]int32{0, 0}); rec.groups[g].next != -1 {
		t.Fatalf("all at the root: %d, want -1", rec.groups[g].next)
	}
}

// Definition 5 with taxonomies: a generalized value's probability is the
// mass of its subtree (Pr(20-40) = Pr(25) here).
func TestSubtreeMass(t *testing.T) {
	age := taxonomyOf(t, "age", ageLevels4, map[string]float64{"15": 0.1, "25": 0.15, "45": 0.5, "70": 0.25})
	for label, want := range map[string]float64{"20-40": 0.15, "1-40": 0.25, "41-80": 0.75, "*": 1} {
		if got := age.mass[node(t, age, label)]; math.Abs(got-want) > 1e-15 {
			t.Errorf("Pr(%s) = %v, want %v", label, got, want)
		}
	}
}

// toMove is the paper's record-by-record pass: it sends up the fewest
// records that leave the rest satisfying Eq. 3.
func TestToMove(t *testing.T) {
	for _, c := range []struct {
		beta, e     float64
		count, size int
		want        int
	}{
		{0.9, 0.5, 1, 10, 0},   // 0.09 <= 0.5
		{0.9, 0.5, 9, 10, 8},   // 0.9*(9-x)/(10-x) <= 0.5 -> x >= 8
		{0.9, 0.5, 10, 10, 10}, // a homogeneous group never satisfies
		{1, 0.25, 3, 6, 2},     // {A,A,A,B,B,C}: A needs 1/4 -> (3-x)/(6-x) <= 1/4 -> x >= 2
	} {
		got := toMove(c.beta, c.e, c.count, c.size)
		if got != c.want {
			t.Errorf("toMove(%v, %v, %d, %d) = %d, want %d", c.beta, c.e, c.count, c.size, got, c.want)
		}
		if got > 0 && got < c.count && ObservedConfidence(c.beta, c.count-got, c.size-got) > c.e {
			t.Errorf("after moving %d the rest still violate", got)
		}
	}
}

// Section 6: "sampling beta = 90% and acceptable distortion threshold
// delta' = 0.6" are the method's own defaults (the command line and the
// workbench start there), while the parameters keep the standard names,
// ranges and help (SPEC 2.5).
func TestPaperDefaults(t *testing.T) {
	spec := Method{}.Spec()
	v, err := spec.Validate(nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	if v[paramRate] != "0.9" || v[paramMaxDist] != "0.6" {
		t.Fatalf("defaults: sampling-rate %s, max-distortion %s; the paper's are 0.9 and 0.6", v[paramRate], v[paramMaxDist])
	}
	// SPEC 2.5's ranges: the rate is a probability, delta' a fraction of
	// the hierarchy's height.
	for name, rng := range map[string]string{paramRate: "in (0,1]", paramMaxDist: "in [0,1]"} {
		p, ok := spec.Param(name)
		if !ok {
			t.Fatalf("no parameter %s", name)
		}
		if p.Kind != model.ParamFloat || p.RangeText(0) != rng || !strings.Contains(p.Why, "Sattar et al., Definition") {
			t.Errorf("%s: kind %v, range %q, why %q; want a number %s with its definition", name, p.Kind, p.RangeText(0), p.Why, rng)
		}
	}
	if _, err := spec.Validate(model.Values{paramRate: "0"}, 100); err == nil {
		t.Error("sampling-rate 0 is accepted")
	}
	if _, err := spec.Validate(model.Values{paramMaxDist: "1.01"}, 100); err == nil {
		t.Error("max-distortion 1.01 is accepted")
	}
}
