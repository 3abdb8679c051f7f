package model

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

// renderPlainWords writes report.md's plain-words section from the
// manifest alone: the method's definition and whether the release's own
// check finds it holding, then what each measured attack found against
// the method's bound (a broken one stated as broken, with its count), the
// figures every release gets, and the warnings.
func renderPlainWords(w *strings.Builder, c *Manifest) {
	var parts []string
	// A release measured before attacks existed keeps its words.
	if c.Certifies != "" && len(c.WorstCases) > 0 && len(c.Attacks) > 0 {
		var bad []string
		for _, f := range c.WorstCases {
			if !f.OK {
				bad = append(bad, f.Name)
			}
		}
		if len(bad) == 0 {
			parts = append(parts, "The release meets its method's definition (the Privacy section above states it); what the definition leaves to an attacker is measured below.")
		} else {
			parts = append(parts, "The release VIOLATES its method's definition ("+strings.Join(bad, ", ")+" over the limit).")
		}
	}
	for _, a := range c.Attacks {
		parts = append(parts, a.sentence())
	}
	if c.RiskSummary != "" {
		parts = append(parts, c.RiskSummary)
	}
	if len(parts) == 0 {
		return
	}
	w.WriteString("## In plain words\n\n" + mdBlock(strings.Join(parts, " ")) + "\n\n")
	if len(c.Attacks) > 0 {
		w.WriteString("## Attacks\n\nEach attack reads the published files and what its attacker holds (`privlab attack` runs them; `privlab check` recomputes them).\n\n| attack | attacker | measured | bound | verdict |\n|---|---|---|---|---|\n")
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
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdText(a.Attack), mdText(a.Attacker), mdText(measured), mdText(bound), mdText(a.Verdict()))
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

// sentence says in words what an attack found.
func (a AttackFigure) sentence() string {
	switch {
	case a.NotRun != "":
		return fmt.Sprintf("The %s attack was not run: %s.", a.Attack, a.NotRun)
	case a.Holds == nil:
		return fmt.Sprintf("Against %s the method promises nothing (%s): an attacker who %s reaches %s %s (%s).",
			a.Attack, a.BoundBy, a.Attacker, a.Figure, reportNumber(*a.Measured), a.Detail)
	case *a.Holds:
		return fmt.Sprintf("Against an attacker who %s, %s stays within the method's bound: %s %s, bound %s (%s).",
			a.Attacker, a.Attack, a.Figure, reportNumber(*a.Measured), reportNumber(*a.Bound), a.BoundBy)
	}
	return fmt.Sprintf("The method's bound is BROKEN by %s, against an attacker who %s: %s %s where the bound is %s (%s); it succeeds on %d (%s).",
		a.Attack, a.Attacker, a.Figure, reportNumber(*a.Measured), reportNumber(*a.Bound), a.BoundBy, a.Records, a.Detail)
}
