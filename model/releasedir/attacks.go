package releasedir

import (
	"fmt"
	"strings"
)

// AttackFigure is one attack measured on a release (SPEC 3.7), as the
// manifest states it and report.md repeats it: what the attacker holds,
// the measured figure beside the method's bound, how many records or
// people the attack succeeds on, and what it read beside the release.
// It names no person: an example would publish who is in the data.
type AttackFigure struct {
	Attack   string `json:"attack"`
	Attacker string `json:"attacker"`
	// Measured is null for an attack that was not run (NotRun says why).
	Measured *float64 `json:"measured"`
	Figure   string   `json:"figure,omitempty"`
	// Bound is null where the method promises none (BoundBy says why).
	Bound   *float64 `json:"bound"`
	BoundBy string   `json:"bound_by,omitempty"`
	// Holds is null when the attack is not bounded or was not run.
	Holds   *bool  `json:"holds"`
	Records int    `json:"records"`
	Detail  string `json:"detail,omitempty"`
	// Needs names what the attack read beside the published files
	// ("original", "population", "marginals"): check recomputes it only
	// when given the same.
	Needs  []string `json:"needs,omitempty"`
	NotRun string   `json:"not_run,omitempty"`
	// Vacuous says why the bound bounds nothing (the release's own
	// figure): the attack is then not bounded.
	Vacuous string `json:"vacuous,omitempty"`
	// The calibration (Giomi et al. 2023): the attack's success rate over
	// Trials targets, the same attacker's without the release (Baseline),
	// on people outside the data (Control, null: none), and the risk
	// beyond the baseline with its 95% Wilson interval. Absent when the
	// attack measured no rate.
	Trials   int       `json:"trials,omitempty"`
	Rate     *float64  `json:"rate,omitempty"`
	Baseline *float64  `json:"baseline,omitempty"`
	Control  *float64  `json:"control,omitempty"`
	Risk     *float64  `json:"risk,omitempty"`
	Interval []float64 `json:"interval,omitempty"`
}

// Verdict renders the attack's outcome in words.
func (a AttackFigure) Verdict() string {
	switch {
	case a.NotRun != "":
		return "not run"
	case a.Holds == nil:
		return "not bounded"
	case *a.Holds:
		return "holds"
	}
	return "broken"
}

// Statement is one of the closed list of plain-word statements report.md
// makes (issue 31): each is tied to a figure the run measured, or to the
// checks whose conditions the run verified, and says it by its figures.
type Statement int

// The statements report.md's plain words are made of.
const (
	DefinitionHolds    Statement = iota // every worst case within its limit
	DefinitionViolated                  // some worst cases over their limits
	AttackNotRun                        // an attack lacked what its attacker holds
	AttackNotBounded                    // no bound, measured figure
	AttackVacuous                       // a bound that bounds nothing, measured figure
	AttackHolds                         // measured within the bound
	AttackBroken                        // measured beyond the bound, with its count
	AttackCalibrated                    // success with and without the release, risk and interval
	numStatements
)

// Say renders statement s of attack a (DefinitionHolds/Violated read the
// worst cases c states).
func (s Statement) Say(a AttackFigure, c *Manifest) string {
	num := func(x *float64) string {
		if x == nil {
			return "null"
		}
		return reportNumber(*x)
	}
	switch s {
	case DefinitionHolds:
		return fmt.Sprintf("The release meets its method's definition: its %d worst cases are within their limits (the Privacy section above states them); what the definition leaves to an attacker is measured below.", len(c.WorstCases))
	case DefinitionViolated:
		var bad []string
		for _, f := range c.WorstCases {
			if !f.OK {
				bad = append(bad, f.Name+" "+reportNumber(f.Value)+" (limit "+f.Limit+")")
			}
		}
		return fmt.Sprintf("The release VIOLATES its method's definition: %d of its %d worst cases are over their limits (%s).", len(bad), len(c.WorstCases), strings.Join(bad, ", "))
	case AttackNotRun:
		return fmt.Sprintf("The %s attack was not run (0 figures measured): %s.", a.Attack, a.NotRun)
	case AttackNotBounded:
		return fmt.Sprintf("Against %s the method promises nothing (%s): an attacker who %s reaches %s %s (%s).",
			a.Attack, a.BoundBy, a.Attacker, a.Figure, num(a.Measured), a.Detail)
	case AttackVacuous:
		return fmt.Sprintf("Against %s the method's bound %s (%s) bounds nothing, %s: an attacker who %s reaches %s %s (%s).",
			a.Attack, num(a.Bound), a.BoundBy, a.Vacuous, a.Attacker, a.Figure, num(a.Measured), a.Detail)
	case AttackHolds:
		return fmt.Sprintf("Against an attacker who %s, %s stays within the method's bound: %s %s, bound %s (%s).",
			a.Attacker, a.Attack, a.Figure, num(a.Measured), num(a.Bound), a.BoundBy)
	case AttackBroken:
		return fmt.Sprintf("The method's bound is BROKEN by %s, against an attacker who %s: %s %s where the bound is %s (%s); it succeeds on %d (%s).",
			a.Attack, a.Attacker, a.Figure, num(a.Measured), num(a.Bound), a.BoundBy, a.Records, a.Detail)
	case AttackCalibrated:
		control := ""
		if a.Control != nil {
			control = fmt.Sprintf(", and %s of people outside the data (control)", num(a.Control))
		}
		lo, hi := "null", "null"
		if len(a.Interval) == 2 {
			lo, hi = reportNumber(a.Interval[0]), reportNumber(a.Interval[1])
		}
		return fmt.Sprintf("Tried on %d targets, %s succeeds on a share %s with the release against %s without it (the baseline)%s: the release moves the attacker %s beyond what they knew (95%% interval %s to %s).",
			a.Trials, a.Attack, num(a.Rate), num(a.Baseline), control, num(a.Risk), lo, hi)
	}
	return ""
}

// statements are the statements report.md makes of attack a: its
// verdict, then its calibration where it measured a rate.
func (a AttackFigure) statements() []Statement {
	var out []Statement
	switch {
	case a.NotRun != "":
		return []Statement{AttackNotRun}
	case a.Vacuous != "" && a.Bound != nil:
		out = append(out, AttackVacuous)
	case a.Holds == nil:
		out = append(out, AttackNotBounded)
	case *a.Holds:
		out = append(out, AttackHolds)
	default:
		out = append(out, AttackBroken)
	}
	if a.Trials > 0 {
		out = append(out, AttackCalibrated)
	}
	return out
}

// renderPlainWords writes report.md's plain-words section from the
// manifest alone, in statements of the closed list above: the method's
// definition and whether the release's own check finds it holding, then
// what each measured attack found against the method's bound and beyond
// the attacker's baseline, the figures every release gets, and the
// warnings.
func renderPlainWords(w *strings.Builder, c *Manifest) {
	var parts []string
	// A release measured before attacks existed keeps its words.
	if c.Certifies != "" && len(c.WorstCases) > 0 && len(c.Attacks) > 0 {
		s := DefinitionHolds
		for _, f := range c.WorstCases {
			if !f.OK {
				s = DefinitionViolated
			}
		}
		parts = append(parts, s.Say(AttackFigure{}, c))
	}
	for _, a := range c.Attacks {
		for _, s := range a.statements() {
			parts = append(parts, s.Say(a, c))
		}
	}
	if c.RiskSummary != "" {
		parts = append(parts, c.RiskSummary)
	}
	if len(parts) == 0 {
		return
	}
	w.WriteString("## In plain words\n\n" + mdBlock(strings.Join(parts, " ")) + "\n\n")
	if len(c.Attacks) > 0 {
		w.WriteString("## Attacks\n\nEach attack reads the published files and what its attacker holds (`privlab attack` runs them; `privlab check` recomputes them).\n\n| attack | attacker | measured | bound | verdict | beyond the baseline |\n|---|---|---|---|---|---|\n")
		for _, a := range c.Attacks {
			measured, bound := "not run: "+a.NotRun, "no bound: "+a.BoundBy
			if a.Measured != nil {
				measured = reportNumber(*a.Measured) + " (" + a.Figure + "; " + a.Detail + ")"
			}
			if a.Bound != nil {
				bound = reportNumber(*a.Bound) + " (" + a.BoundBy + ")"
			} else if a.NotRun != "" {
				bound = "—"
			}
			beyond := "—"
			if a.Trials > 0 && a.Risk != nil && len(a.Interval) == 2 {
				beyond = fmt.Sprintf("%s (95%% interval %s to %s; baseline %s)", reportNumber(*a.Risk), reportNumber(a.Interval[0]), reportNumber(a.Interval[1]), reportNumber(*a.Baseline))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", mdText(a.Attack), mdText(a.Attacker), mdText(measured), mdText(bound), mdText(a.Verdict()), mdText(beyond))
		}
		w.WriteString("\n")
	}
	if len(c.Warnings) > 0 {
		w.WriteString("## Warnings\n\n")
		for _, s := range c.Warnings {
			fmt.Fprintf(w, "- %s\n", mdText(s))
		}
		w.WriteString("\n")
	}
}
