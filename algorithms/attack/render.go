package attack

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"privlab/algorithms/risk"
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
	return fmt.Sprintf("%s · attacker %s · %s · %s · %s", f.Attack, f.Attacker, measured, bound, f.Verdict())
}

// Print writes one line per finding, and each success's example.
func Print(w io.Writer, rep *Report) {
	for _, f := range rep.Findings {
		fmt.Fprintln(w, Line(f))
		if f.Example != "" {
			fmt.Fprintf(w, "  e.g. %s\n", f.Example)
		}
	}
}

// jsonFinding is a finding as privlab attack --json writes it: exactly
// these keys (SPEC 3.7).
type jsonFinding struct {
	Attack   string   `json:"attack"`
	Attacker string   `json:"attacker"`
	Measured *float64 `json:"measured"`
	Bound    *float64 `json:"bound"`
	Holds    *bool    `json:"holds"`
	Records  int      `json:"records"`
	Example  string   `json:"example"`
}

// JSON writes the findings as a JSON array (measured null for an attack
// that did not run; bound null without one; holds null when not bounded).
func JSON(w io.Writer, rep *Report) error {
	out := make([]jsonFinding, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		j := jsonFinding{Attack: f.Attack, Attacker: f.Attacker, Records: f.Records, Example: f.Example,
			Measured: finite(f.Measured), Bound: finite(f.Bound)}
		if f.NotRun != "" {
			j.Measured = nil
			j.Example = "not run: " + f.NotRun
		}
		if h := f.Holds(); h >= 0 {
			b := h == 1
			j.Holds = &b
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// number writes a figure in at most four decimals (a count whole).
func number(x float64) string {
	switch {
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return fmt.Sprintf("%.0f", x)
	case math.Abs(x) < 0.001:
		return fmt.Sprintf("%.3g", x)
	}
	return trim(x)
}

// ForLackOfPopulation reports whether an attack did not run for lack of
// a population (its reason asks for --population).
func ForLackOfPopulation(f risk.Finding) bool {
	return f.NotRun != "" && strings.Contains(f.NotRun, "--population")
}
