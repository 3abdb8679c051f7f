package attack

import (
	"fmt"
	"math"
	"slices"

	"privlab/algorithms/risk"
	"privlab/model"
)

// Line renders a finding as one line: the attack, what the attacker
// holds, the measured figure, the method's bound (or "no bound") and the
// verdict (holds, broken, not bounded, or not run and why).
func Line(f risk.Finding) string {
	if f.NotRun != "" {
		return fmt.Sprintf("%s · attacker %s · not run: %s", f.Attack, f.Attacker, f.NotRun)
	}
	measured := fmt.Sprintf("measured %s (%s", number(f.Measured), f.Figure)
	if f.Detail != "" {
		measured += "; " + f.Detail
	}
	measured += ")"
	bound := "no bound"
	if !math.IsNaN(f.Bound) {
		bound = "bound " + number(f.Bound)
	}
	if f.BoundBy != "" {
		bound += " (" + f.BoundBy + ")"
	}
	if f.Vacuous != "" {
		bound += ", vacuous: " + f.Vacuous
	}
	line := fmt.Sprintf("%s · attacker %s · %s · %s · %s", f.Attack, f.Attacker, measured, bound, f.Verdict())
	if c := Calibrated(f); c != "" {
		line += " · " + c
	}
	return line
}

// Calibrated says how far the release moves the attacker beyond what they
// knew without it ("" when the attack measured no rate): the success
// rate with the release and without it (the baseline), the control's,
// and the risk beyond the baseline with its 95% interval.
func Calibrated(f risk.Finding) string {
	if !f.Calibrated() {
		return ""
	}
	iv := f.Interval()
	s := fmt.Sprintf("success %s with the release, %s without it (baseline)", trim(f.Rate()), trim(f.Baseline))
	if !math.IsNaN(f.Control) {
		s += fmt.Sprintf(", %s on people outside the data (control)", trim(f.Control))
	}
	return s + fmt.Sprintf(": risk beyond the baseline %s (95%% interval %s-%s, %d tried)", trim(f.Risk()), trim(iv[0]), trim(iv[1]), f.Trials)
}

// number writes a figure in at most four decimals (a count whole).
func number(x float64) string {
	switch {
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) < 0.001:
		return model.FormatFixed(x, 3)
	}
	return trim(x)
}

// ForLackOfPopulation reports whether an attack did not run for lack of
// a population (a population would have let it run).
func ForLackOfPopulation(f risk.Finding) bool {
	return f.NotRun != "" && slices.Contains(f.Lacks, "population")
}
