package ambiguity

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/query"
)

// patients is Figure 1(a) of Wang's paper (the embedded dataset).
func patients(t *testing.T) *model.Table {
	t.Helper()
	d, err := datasets.Lookup("patients")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := d.Load(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

var patientRoles = model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"}

// figure2 builds the scheme of Figure 2 from Figure 1(a): group 1 holds
// the four men (Alan, Charles, George, Henry), group 2 the four women.
func figure2(t *testing.T) (*run, *scheme) {
	t.Helper()
	tb := patients(t)
	in := &method.Input{Table: tb, Roles: patientRoles}
	r := &run{in: in, values: model.Values{"alpha": "0.5", "beta": "0.5"}, g: 2}
	if err := r.resolve(); err != nil {
		t.Fatal(err)
	}
	r.groups = [][]int32{{0, 1, 2, 3}, {4, 5, 6, 7}}
	r.ids = []int{1, 2}
	r.sch = r.buildScheme()
	return r, r.sch
}

// row finds a patient's row by name.
func row(t *testing.T, tb *model.Table, name string) int {
	t.Helper()
	c := tb.Column("name")
	for r := 0; r < tb.Rows; r++ {
		if c.Value(r) == name {
			return r
		}
	}
	t.Fatalf("no patient %s", name)
	return -1
}

// binom is C(n, k) exactly.
func binom(n, k int64) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Binomial(n, k))
}

// TestFigure2Tables: the auxiliary tables and the sensitive table of
// Figure 2 (a)-(d).
func TestFigure2Tables(t *testing.T) {
	_, s := figure2(t)
	want := map[string][][]string{
		"age":     {{"45", "20", "50", "60"}, {"20", "50", "60"}},
		"gender":  {{"M"}, {"F"}},
		"zipcode": {{"11000", "12000", "23000"}, {"54000", "23000", "21000"}},
	}
	for i, q := range s.qis {
		at := &s.at[i]
		got := [][]string{nil, nil}
		for r, code := range at.code {
			got[at.group[r]] = append(got[at.group[r]], at.text[code])
		}
		for g := range got {
			if strings.Join(got[g], ",") != strings.Join(want[q][g], ",") {
				t.Errorf("AT %s group %d: %v, want %v", q, g+1, got[g], want[q][g])
			}
		}
	}
	st := map[string]int32{}
	for r, code := range s.st.code {
		st[string(rune('0'+s.st.group[r]+1))+" "+s.st.text[code]] = s.st.freq[r]
	}
	wantST := map[string]int32{"1 diabetes": 1, "1 flu": 1, "1 diarrhea": 1, "1 stroke": 1,
		"2 leukemia": 2, "2 diabetes": 1, "2 dyspepsia": 1}
	if len(st) != len(wantST) {
		t.Fatalf("ST %v, want %v", st, wantST)
	}
	for k, f := range wantST {
		if st[k] != f {
			t.Errorf("ST %s: frequency %d, want %d", k, st[k], f)
		}
	}
}

// TestFigure2Probabilities reproduces Section 1.1 and Section 5 exactly:
// Pr(Alan in T) = C(11,3)/C(12,4) = 1/3, Pr((Alan, diabetes) | Alan in T)
// = (C(47,3)/C(48,4)) / (1/3) = 1/4, Pr(Alice in T) = C(8,3)/C(9,4) =
// 4/9 and Pr((Alice, leukemia) | Alice in T) = (2 C(35,3)/C(36,4)) /
// (4/9) = 1/2. The binomial derivations are computed exactly and must
// equal Theorems 5.1 and 5.2 as the scheme computes them.
func TestFigure2Probabilities(t *testing.T) {
	r, s := figure2(t)
	// The paper's combinatorics, exactly.
	alanIn := new(big.Rat).Quo(binom(11, 3), binom(12, 4))
	alanJoint := new(big.Rat).Quo(binom(47, 3), binom(48, 4))
	alanAssoc := new(big.Rat).Quo(alanJoint, alanIn)
	aliceIn := new(big.Rat).Quo(binom(8, 3), binom(9, 4))
	aliceJoint := new(big.Rat).Quo(new(big.Rat).Mul(big.NewRat(2, 1), binom(35, 3)), binom(36, 4))
	aliceAssoc := new(big.Rat).Quo(aliceJoint, aliceIn)
	for _, c := range []struct {
		name string
		got  *big.Rat
		want *big.Rat
	}{
		{"Pr(Alan in T)", alanIn, big.NewRat(1, 3)},
		{"Pr((Alan,diabetes) and Alan in T)", alanJoint, big.NewRat(1, 12)},
		{"Pr((Alan,diabetes) | Alan in T)", alanAssoc, big.NewRat(1, 4)},
		{"Pr(Alice in T)", aliceIn, big.NewRat(4, 9)},
		{"Pr((Alice,leukemia) | Alice in T)", aliceAssoc, big.NewRat(1, 2)},
	} {
		if c.got.Cmp(c.want) != 0 {
			t.Errorf("%s = %s, want %s", c.name, c.got.RatString(), c.want.RatString())
		}
	}
	// Theorem 5.1 and 5.2 as the scheme computes them.
	if p := s.presence(0); p != 1.0/3 {
		t.Errorf("presence of group 1 (Alan's) = %v, want 1/3", p)
	}
	if p := s.presence(1); p != 4.0/9 {
		t.Errorf("presence of group 2 (Alice's) = %v, want 4/9", p)
	}
	if a := s.associationOf(0, "diabetes"); a != 1.0/4 {
		t.Errorf("association (Alan, diabetes) = %v, want 1/4", a)
	}
	if a := s.associationOf(1, "leukemia"); a != 1.0/2 {
		t.Errorf("association (Alice, leukemia) = %v, want 1/2", a)
	}
	if a := s.association(1); a != 1.0/2 {
		t.Errorf("largest association of group 2 = %v, want 1/2", a)
	}
	// Lemma 5.1: Alan is covered by group 1 only, Alice by group 2 only.
	tb := r.in.Table
	for name, want := range map[string]int{"Alan": 0, "Alice": 1} {
		if got := covering(s, tb, row(t, tb, name)); len(got) != 1 || got[0] != want {
			t.Errorf("%s is covered by groups %v, want [%d]", name, got, want)
		}
	}
	// The detail teaches the same numbers.
	alan := strings.Join(r.reasoning(0), "\n")
	for _, want := range []string{"Pr(Alan in T) = 1/3", "4*1*3 = 12", "C(11,3)/C(12,4) = 4/12 = 1/3",
		"48 tuples", "1*C(47,3)/C(48,4) = 1/12", "Pr((Alan,diabetes) | Alan in T) = (1/12)/(1/3) = 1/4"} {
		if !strings.Contains(alan, want) {
			t.Errorf("Alan's reasoning lacks %q:\n%s", want, alan)
		}
	}
	alice := strings.Join(r.reasoning(1), "\n")
	for _, want := range []string{"Pr(Alice in T) = 4/9", "3*1*3 = 9", "C(8,3)/C(9,4) = 4/9", "36 tuples",
		"2*C(35,3)/C(36,4) = 2/9", "Pr((Alice,leukemia) | Alice in T) = (2/9)/(4/9) = 1/2"} {
		if !strings.Contains(alice, want) {
			t.Errorf("Alice's reasoning lacks %q:\n%s", want, alice)
		}
	}
}

// covering lists the groups whose auxiliary tables hold every QI value of
// a row (Lemma 5.1).
func covering(s *scheme, tb *model.Table, r int) []int {
	var out []int
	for g := 0; g < s.groups; g++ {
		ok := true
		for i, q := range s.qis {
			v := tb.Column(q).Value(r)
			found := false
			for x, code := range s.at[i].code {
				if int(s.at[i].group[x]) == g && s.at[i].text[code] == v {
					found = true
				}
			}
			ok = ok && found
		}
		if ok {
			out = append(out, g)
		}
	}
	return out
}

// TestExample61 reproduces the estimates of Section 1.1 and Example 6.1
// on Figure 2: Q1 (stroke, age >= 45) = 1 x 3/4 = 3/4 against 3/8 from the
// generalized table of Figure 1(b), and Q2 = 1 x 2/4 x 1/3 + 1 x 2/3 x
// 1/3 = 7/18 (the fractions multiplied across attributes).
func TestExample61(t *testing.T) {
	_, s := figure2(t)
	tb := patients(t)
	for _, c := range []struct {
		q          string
		est, truth float64
		note       string
	}{
		{"COUNT(*) WHERE disease = 'stroke' AND age >= 45", 3.0 / 4, 1, "Q1"},
		{"COUNT(*) WHERE age >= 50 AND zipcode = 23000 AND disease = 'diabetes'", 7.0 / 18, 1, "Q2"},
	} {
		q, err := query.Parse(c.q)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Answer(q)
		if err != nil {
			t.Fatal(err)
		}
		if !b.HasEst || math.Abs(b.Estimate-c.est) > 1e-15 {
			t.Errorf("%s: estimate %v, want %v", c.note, b.Estimate, c.est)
		}
		truth, _ := q.Truth(tb)
		if truth.Value != c.truth {
			t.Errorf("%s: truth %v, want %v", c.note, truth.Value, c.truth)
		}
	}
	// Figure 1(b), the generalized table the paper compares with: two
	// QI-groups, ages generalized to [20, 60] in both, the men's zipcodes
	// to [11000, 23000] and the women's to [21000, 54000]. Q1 is answered
	// the way the paper does (Section 1): per group, the records with
	// disease = stroke times the fraction of the group's age range that
	// Age >= 45 covers, ages assumed uniform in the range.
	type generalized struct {
		ageLo, ageHi int64
		gender       string
		zipLo, zipHi int64
		diseases     []string
	}
	figure1b := []generalized{
		{20, 60, "M", 11000, 23000, []string{"diabetes", "flu", "diarrhea", "stroke"}},
		{20, 60, "F", 21000, 54000, []string{"leukemia", "diabetes", "leukemia", "dyspepsia"}},
	}
	q1 := new(big.Rat)
	for _, g := range figure1b {
		strokes := int64(0)
		for _, d := range g.diseases {
			if d == "stroke" {
				strokes++
			}
		}
		from := max(g.ageLo, 45)
		if strokes == 0 || from > g.ageHi {
			continue
		}
		share := big.NewRat(g.ageHi-from, g.ageHi-g.ageLo)
		q1.Add(q1, new(big.Rat).Mul(big.NewRat(strokes, 1), share))
	}
	if q1.Cmp(big.NewRat(3, 8)) != 0 {
		t.Errorf("Q1 on the generalized table of Figure 1(b) = %s, want 3/8", q1.RatString())
	}
}

// TestCalPPro: Algorithm 3 on a group of Alan and Charles covers 2 age,
// 1 gender, 2 zipcode and 2 disease buckets: 2 / (2*1*2) = 1/2, which is
// Theorem 5.1's |G| / prod |G_ATi|. (The paper's text after Figure 4 says
// 1/4 for "tuple 1 and 2", counting one disease bucket; tuples 1 and 2
// have two diseases, so Algorithm 3 as written gives 1/2.)
func TestCalPPro(t *testing.T) {
	tb := patients(t)
	in := &method.Input{Table: tb, Roles: patientRoles}
	r := &run{in: in, values: model.Values{}, g: 2}
	if err := r.resolve(); err != nil {
		t.Fatal(err)
	}
	b := newBuilder(r.codes(), model.Values{"alpha": "0.5"}.Bound("alpha"), 2)
	b.startGroup()
	b.add(int32(row(t, tb, "Alan")))
	b.add(int32(row(t, tb, "Charles")))
	if p := b.calPPro(); p != 0.5 {
		t.Errorf("CalPPro({Alan, Charles}) = %v, want 1/2", p)
	}
	s := newScheme(r.in.Roles.QIs, "disease", [][]int32{{0, 1}}, r.qiCols, r.sa)
	if s.presence(0) != 0.5 {
		t.Errorf("Theorem 5.1 on {Alan, Charles} = %v, want 1/2", s.presence(0))
	}
}

// TestAlgorithm2OnPatients: what Algorithm 2 builds from Figure 1(a) is
// (alpha, beta)-private, covers everyone, and each group holds ceil(1/beta)
// distinct diseases once each (Theorems 7.1, 7.2).
func TestAlgorithm2OnPatients(t *testing.T) {
	for _, ab := range [][2]string{{"0.5", "0.5"}, {"0.5", "0.25"}, {"0.25", "0.5"}, {"1", "1"}, {"0.2", "0.34"}} {
		in := &method.Input{Table: patients(t), Roles: patientRoles, Values: model.Values{"alpha": ab[0], "beta": ab[1], "seed": "3"}}
		res, err := Method{}.Run(context.Background(), in)
		if err != nil {
			t.Fatalf("alpha %s beta %s: %v", ab[0], ab[1], err)
		}
		if !res.Satisfied() {
			t.Errorf("alpha %s beta %s: not private", ab[0], ab[1])
		}
		checkGroups(t, in, res)
	}
	// Infeasible parameters are explained before running.
	for _, c := range []struct{ alpha, beta, param string }{{"0.5", "0.1", "beta"}, {"0.01", "0.5", "alpha"}} {
		in := &method.Input{Table: patients(t), Roles: patientRoles, Values: model.Values{"alpha": c.alpha, "beta": c.beta}}
		_, err := Method{}.Run(context.Background(), in)
		pe, ok := err.(*model.ParamError)
		if !ok || pe.Param != c.param {
			t.Errorf("alpha %s beta %s: error %v, want a ParamError on %s", c.alpha, c.beta, err, c.param)
		}
	}
}

// TestAlgorithm2Trace follows Algorithm 2 by hand on Figure 1(a) with
// alpha = 0.5, beta = 0.5 (groups start with ceil(1/beta) = 2 records).
// The disease buckets, largest first, are diabetes {Alan, Carol} and
// leukemia {Alice, Grace}, then flu, diarrhea, stroke, dyspepsia (one
// each, in the table's order).
//
//	Group 1: Alan (the first record of the largest bucket), then from
//	leukemia the record new on the most attributes: Alice (20, F, 54000)
//	differs from Alan everywhere; presence 2/(2*2*2) = 1/4 <= 0.5.
//	Group 2: Carol, then Grace (60, F, 23000), new on age only: presence
//	2/(2*1*1) = 1 > 0.5, so the alpha loop takes the next bucket, flu:
//	Charles (20, M, 12000) is new everywhere, 3/(3*2*2) = 1/4.
//	Group 3: George (diarrhea) and Henry (stroke): 2/(2*1*2) = 1/2.
//	Step 2 stops (one non-empty bucket); Step 3 puts Helen (dyspepsia)
//	into the first group without dyspepsia that stays within alpha:
//	group 1, 3/(3*2*3) = 1/6.
func TestAlgorithm2Trace(t *testing.T) {
	in := &method.Input{Table: patients(t), Roles: patientRoles, Values: model.Values{"alpha": "0.5", "beta": "0.5"}}
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	tb := in.Table
	want := []struct {
		names    []string
		presence float64
	}{
		{[]string{"Alan", "Alice", "Helen"}, 1.0 / 6},
		{[]string{"Carol", "Grace", "Charles"}, 1.0 / 4},
		{[]string{"George", "Henry"}, 1.0 / 2},
	}
	if len(res.Groups) != len(want) {
		t.Fatalf("%d groups, want %d", len(res.Groups), len(want))
	}
	for i, w := range want {
		g := res.Groups[i]
		var names []string
		for _, r := range g.Rows {
			names = append(names, tb.Column("name").Value(int(r)))
		}
		if strings.Join(names, ",") != strings.Join(w.names, ",") || g.Figures[FigPresence] != w.presence {
			t.Errorf("group %d = %v with presence %v, want %v with %v", i+1, names, g.Figures[FigPresence], w.names, w.presence)
		}
	}
	if res.Suppressed != 0 || !strings.Contains(strings.Join(res.Notes, " "), "Step 3 placed 1 residues") {
		t.Errorf("notes %v, %d suppressed", res.Notes, res.Suppressed)
	}
	if strings.Contains(strings.Join(res.Notes, " "), "gave up") || len(res.Warnings) != 0 {
		t.Errorf("the paper's example parks no seed and warns of nothing: notes %v, warnings %v", res.Notes, res.Warnings)
	}
}

// TestAcrossGroupsOnTrace: the groups of TestAlgorithm2Trace overlap.
// Group 1 = {Alan, Alice, Helen} publishes ages 45, 20, 60, genders M, F
// and zipcodes 11000, 54000, 21000 (presence 1/6); group 2 = {Carol,
// Grace, Charles} 50, 60, 20 / F, M / 23000, 12000 (1/4); group 3 =
// {George, Henry} 50, 60 / M / 23000, 12000 (1/2). George (50, M, 23000)
// and Henry (60, M, 12000) are covered by groups 2 and 3 both; every
// other patient by one group. An attacker combining groups 2 and 3
// believes George present with 1 - (1 - 1/4)(1 - 1/2) = 5/8, above
// alpha = 1/2 although each group meets it: outside Theorem 5.1's model,
// which the result states.
func TestAcrossGroupsOnTrace(t *testing.T) {
	in := &method.Input{Table: patients(t), Roles: patientRoles, Values: model.Values{"alpha": "0.5", "beta": "0.5"}}
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	tb := in.Table
	want := map[string][]int{"Alan": {0}, "Alice": {0}, "Helen": {0}, "Carol": {1}, "Grace": {1}, "Charles": {1},
		"George": {1, 2}, "Henry": {1, 2}}
	r := &run{in: in}
	if err := r.resolve(); err != nil {
		t.Fatal(err)
	}
	sch := newScheme(in.Roles.QIs, in.Roles.SA, groupRows(res), r.qiCols, r.sa)
	for name, groups := range want {
		if got := covering(sch, tb, row(t, tb, name)); fmt.Sprint(got) != fmt.Sprint(groups) {
			t.Errorf("%s is covered by groups %v, want %v", name, got, groups)
		}
	}
	figs := map[string]float64{}
	deferred, err := res.Deferred(context.Background()) // the figures across groups come after the groups
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(res.Summary, deferred...) {
		figs[f.Name] = f.Value
	}
	if figs[coveredByMany] != 2 || figs[combinedPresence] != 5.0/8 {
		t.Errorf("%s = %v, %s = %v; want 2 and 5/8", coveredByMany, figs[coveredByMany], combinedPresence, figs[combinedPresence])
	}
}

// TestAggregatesOnFigure2: SUM and AVG use the same model as the count
// (the expected sum over the join): AVG(age) of the diabetics is
// (1 x (45+20+50+60)/4 + 1 x (20+50+60)/3) / 2; MIN and MAX are refused;
// a column the release does not publish is an error at its position.
func TestAggregatesOnFigure2(t *testing.T) {
	_, s := figure2(t)
	ask := func(text string) (method.Bounds, error) {
		q, err := query.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		return s.Answer(q)
	}
	sum := 175.0/4 + 130.0/3
	if b, err := ask("SUM(age) WHERE disease = 'diabetes'"); err != nil || math.Abs(b.Estimate-sum) > 1e-12 {
		t.Errorf("SUM: %+v %v, want %v", b, err, sum)
	}
	if b, err := ask("AVG(age) WHERE disease = 'diabetes'"); err != nil || math.Abs(b.Estimate-sum/2) > 1e-12 {
		t.Errorf("AVG: %+v %v, want %v", b, err, sum/2)
	}
	// AVG(zipcode) restricted to men (gender only in group 1): group 1's
	// four records times the mean of its zipcodes.
	if b, err := ask("AVG(zipcode) WHERE gender = 'M'"); err != nil || math.Abs(b.Estimate-46000.0/3) > 1e-9 {
		t.Errorf("AVG(zipcode): %+v %v, want %v", b, err, 46000.0/3)
	}
	if b, err := ask("AVG(age) WHERE disease = 'cancer'"); err != nil || !b.Empty {
		t.Errorf("AVG over nothing: %+v %v, want empty", b, err)
	}
	if b, err := ask("COUNT(*) WHERE disease = 'cancer'"); err != nil || b.Empty || b.Estimate != 0 || !b.HasEst {
		t.Errorf("COUNT over nothing: %+v %v, want the estimate 0", b, err)
	}
	if _, err := ask("MIN(age)"); err == nil {
		t.Error("MIN answered")
	}
	_, err := ask("COUNT(*) WHERE name = 'Alan'")
	if qe, ok := err.(*query.Error); !ok || qe.Pos != 16 {
		t.Errorf("a condition on an unpublished column: %v", err)
	}
	if _, err := ask("COUNT(*) WHERE age = 'old'"); err == nil {
		t.Error("a text value for a numeric column was accepted")
	}
	if b, err := ask("COUNT(*)"); err != nil || b.Estimate != 8 {
		t.Errorf("COUNT(*) = %+v %v, want 8", b, err)
	}
}
