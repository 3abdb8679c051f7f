package releasedir

import (
	"regexp"
	"strings"
	"testing"
)

// TestEveryStatementNamesAFigure renders every statement of report.md's
// closed list with figures no text holds by chance, and fails on one
// that states none of them (issue 31: plain words tied to a measured
// figure or to the checks the run verified).
func TestEveryStatementNamesAFigure(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	yes, no := true, false
	c := &Manifest{WorstCases: []Figure{{Name: "presence", Value: 0.7321, Limit: "0.5", OK: false}, {Name: "association", Value: 0.25, Limit: "0.5", OK: true}}}
	a := AttackFigure{Attack: "membership", Attacker: "holds a population", Figure: "largest presence", Measured: f(0.8713),
		Bound: f(0.6137), BoundBy: "alpha", Records: 4139, Detail: "details", NotRun: "", Vacuous: "the release's own",
		Trials: 9173, Rate: f(0.4483), Baseline: f(0.1907), Control: f(0.0311), Risk: f(0.3184), Interval: []float64{0.2217, 0.4141}}
	figures := map[Statement][]string{
		DefinitionHolds:    {"2 worst cases"},
		DefinitionViolated: {"0.7321", "1 of its 2"},
		AttackNotRun:       {"0 figures"},
		AttackNotBounded:   {"0.8713"},
		AttackVacuous:      {"0.8713", "0.6137"},
		AttackHolds:        {"0.8713", "0.6137"},
		AttackBroken:       {"0.8713", "0.6137", "4139"},
		AttackCalibrated:   {"9173", "0.4483", "0.1907", "0.0311", "0.3184", "0.2217", "0.4141"},
	}
	for _, s := range Statements() {
		want, ok := figures[s]
		if !ok {
			t.Errorf("statement %d has no figures listed in this test", s)
			continue
		}
		text := s.Say(a, c)
		if !regexp.MustCompile(`\d`).MatchString(text) {
			t.Errorf("statement %d names no figure: %q", s, text)
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("statement %d does not state %s: %q", s, w, text)
			}
		}
	}
	// Each verdict leads to exactly one verdict statement.
	for _, x := range []struct {
		a    AttackFigure
		want Statement
	}{
		{AttackFigure{NotRun: "needs a population"}, AttackNotRun},
		{AttackFigure{Measured: f(1), Bound: f(0.5), Vacuous: "own"}, AttackVacuous},
		{AttackFigure{Measured: f(1)}, AttackNotBounded},
		{AttackFigure{Measured: f(0.4), Bound: f(0.5), Holds: &yes}, AttackHolds},
		{AttackFigure{Measured: f(1), Bound: f(0.5), Holds: &no}, AttackBroken},
	} {
		if got := x.a.statements(); got[0] != x.want {
			t.Errorf("%+v: statement %d, want %d", x.a, got[0], x.want)
		}
	}
}
