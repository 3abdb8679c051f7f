package method

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// A per-group figure is held against the group's own limit (sampling
// holds each record's observed confidence against its own expected
// confidence); other figures against the declared parameter or limit.
func TestJudgePerGroupLimits(t *testing.T) {
	spec := Spec{Figures: []Figure{
		{Key: "size", Rule: AtLeast, Against: "k"},
		{Key: "obs", Rule: AtMost, PerGroup: true},
		{Key: "info", Rule: Info},
	}}
	v := model.Values{"k": "3"}
	cases := []struct {
		figures, limits []float64
		violation       bool
	}{
		{[]float64{3, 0.2, 99}, []float64{0, 0.25, 0}, false},
		{[]float64{2, 0.2, 99}, []float64{0, 0.25, 0}, true},  // below k
		{[]float64{5, 0.3, 99}, []float64{0, 0.25, 0}, true},  // above its own limit
		{[]float64{5, 0.3, 99}, []float64{0, 0.35, 0}, false}, // the same figure under a wider own limit
		{[]float64{5, 0.25 + 1e-12, 99}, []float64{0, 0.25, 0}, false},
	}
	for i, c := range cases {
		g := Group{Figures: c.figures, Limits: c.limits}
		g.Judge(spec, v)
		if g.Violation != c.violation {
			t.Errorf("case %d: violation %v, want %v", i, g.Violation, c.violation)
		}
	}
	g := Group{Figures: []float64{5, 0.3, 1}, Limits: []float64{0, 0.4, 0}}
	if g.Limit(spec, 0, v) != 3 || g.Limit(spec, 1, v) != 0.4 {
		t.Fatalf("limits %v %v", g.Limit(spec, 0, v), g.Limit(spec, 1, v))
	}
	if f := (Figure{Digits: 2}); f.Format(math.NaN()) != "—" || f.Format(0.125) != "0.12" && f.Format(0.125) != "0.13" {
		t.Fatalf("format %q %q", f.Format(math.NaN()), f.Format(0.125))
	}
}

// Satisfied needs every group within its figures and every summary
// constraint to hold.
func TestSatisfied(t *testing.T) {
	r := &Result{Groups: []Group{{}, {}}, Summary: []releasedir.Figure{{Name: "worst", Limit: "0.5", OK: true}}}
	if !r.Satisfied() {
		t.Fatal("a clean result is not satisfied")
	}
	r.Summary[0].OK = false
	if r.Satisfied() {
		t.Fatal("a failing summary constraint is satisfied")
	}
	r.Summary[0].OK = true
	r.Groups[1].Violation = true
	if r.Satisfied() || r.Violations() != 1 {
		t.Fatalf("satisfied %v, violations %d", r.Satisfied(), r.Violations())
	}
}

// A method that declares no sensitive attribute validates its roles
// without one; one that does refuses.
func TestRolesWithoutSA(t *testing.T) {
	tb, err := csvfile.Load(stringsReader("a,b,s\n1,2,x\n3,4,y\n"), csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := model.Roles{QIs: []string{"a", "b"}}
	if err := r.Validate(tb, false); err != nil {
		t.Fatalf("no SA, none needed: %v", err)
	}
	if err := r.Validate(tb, true); err == nil {
		t.Fatal("no SA accepted where one is needed")
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// A figure that is a ratio of counts carries its exact value and is
// judged against the parameter's exact decimal value: 1/2 breaks alpha =
// 0.4999999999 and 1/3 breaks 0.3333333333333333, which the float64
// within 1e-9 lets pass (issue 18.5); the float path is unchanged.
func TestJudgeExact(t *testing.T) {
	spec := Spec{Figures: []Figure{{Key: "frac", Rule: AtMost, Against: "alpha"}, {Key: "min", Rule: AtLeast, Against: "beta"}}}
	cases := []struct {
		alpha     string
		exact     *big.Rat
		violation bool
	}{
		{"0.5", big.NewRat(1, 2), false},
		{"0.4999999999", big.NewRat(1, 2), true},
		{"0.4999999999", nil, false}, // the float 0.5 within 1e-9
		{"0.3333333333333333", big.NewRat(1, 3), true},
		{"0.3333333333333334", big.NewRat(1, 3), false},
		{"0.3333333333333333", nil, false}, // the float 1/3 within 1e-9
		{"1", big.NewRat(1, 1), false},
	}
	for i, c := range cases {
		x := 0.5
		if c.alpha == "0.3333333333333333" {
			x = 1.0 / 3
		}
		g := Group{Figures: []float64{x, 1}, Exact: []*big.Rat{c.exact, nil}}
		g.Judge(spec, model.Values{"alpha": c.alpha, "beta": "1"})
		if g.Violation != c.violation {
			t.Errorf("case %d: %v against alpha %s: violation %v, want %v", i, c.exact, c.alpha, g.Violation, c.violation)
		}
	}
	// AtLeast: 1/3 is below 0.3333333333333334.
	g := Group{Figures: []float64{0, 1.0 / 3}, Exact: []*big.Rat{nil, big.NewRat(1, 3)}}
	g.Judge(spec, model.Values{"alpha": "1", "beta": "0.3333333333333334"})
	if !g.Violation {
		t.Error("1/3 passes AtLeast 0.3333333333333334")
	}
}

// A figure held exactly against a parameter follows the parameter's
// text: the bound parsed for one value is never the answer for another
// (Breaks keeps the bounds it parsed, by text).
func TestBreaksFollowsTheParameterText(t *testing.T) {
	spec := Spec{Figures: []Figure{{Key: "share", Rule: AtMost, Against: "alpha"}}}
	g := Group{Figures: []float64{0.3}, Exact: []*big.Rat{big.NewRat(3, 10)}}
	for _, c := range []struct {
		alpha string
		want  bool
	}{{"0.5", false}, {"0.25", true}, {"0.3", false}, {"0.29999", true}, {"0.5", false}, {"0.3333", false}, {"0.25", true}} {
		if got := g.Breaks(spec, 0, model.Values{"alpha": c.alpha}); got != c.want {
			t.Errorf("alpha %s: breaks %v, want %v", c.alpha, got, c.want)
		}
		if got, want := boundOf(model.Values{"alpha": c.alpha}, "alpha").String(), (model.Values{"alpha": c.alpha}).Bound("alpha").String(); got != want {
			t.Errorf("alpha %s: kept bound %s, parsed %s", c.alpha, got, want)
		}
	}
}
