package method

import (
	"math"
	"strings"
	"testing"

	"privlab/model"
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
	r := &Result{Groups: []Group{{}, {}}, Summary: []model.Figure{{Name: "worst", Limit: "0.5", OK: true}}}
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
	tb, err := model.Load(stringsReader("a,b,s\n1,2,x\n3,4,y\n"), model.LoadOptions{})
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
