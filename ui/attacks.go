package ui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
)

// attackMsg carries the attacks measured on a run's release (seq: the
// run's, so an older run's attacks are dropped).
type attackMsg struct {
	seq int
	rep *attack.Report
	err error
}

// attackCmd measures the attacks on the result's release as an export
// would publish it (pipeline.PreviewAttacks), after the groups and the
// risk figures are on screen.
func attackCmd(ctx context.Context, env pipeline.Env, prep *pipeline.Prepared, res *method.Result, seq int) tea.Cmd {
	if prep == nil || res == nil {
		return nil
	}
	return guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return attackMsg{seq: seq}
		}
		rep, err := env.PreviewAttacks(ctx, prep, res)
		return attackMsg{seq: seq, rep: rep, err: err}
	}, func(err error) tea.Msg { return attackMsg{seq: seq, err: err} })
}

// attackVerdict is the worst measured attack in a few words, for the
// summary bar beside the method's definition ("attacks: 12 people
// certainly present · 1431 people with a certain sensitive value"), and
// whether one broke its method's bound ("" before the attacks are in).
func attackVerdict(findings []risk.Finding) (string, bool) {
	var parts []string
	broken := false
	for _, f := range findings {
		if f.Holds() == 0 {
			broken = true
		}
		if f.Short != "" {
			parts = append(parts, f.Short)
		}
	}
	if len(parts) == 0 {
		return "attacks: none succeeds", false
	}
	return "attacks: " + strings.Join(parts, " · "), broken
}

// attackPart is the attacks' verdict for the summary bar and its own
// colour (an attack that broke a bound in the error colour), dimmed while
// the new result's attacks are on their way.
func (a *App) attackPart() (string, func(...string) string) {
	st, s := a.st, a.st.Styles
	if st.Attacks == nil {
		return "", nil
	}
	text, broken := attackVerdict(st.Attacks.Findings)
	switch {
	case st.AttacksOld:
		return "attacks: …", s.Muted.Render // the new result's are on their way
	case broken:
		return text, s.Error.Render
	}
	return text, s.Attack.Render
}

// attackRows are one line per attack: its verdict, the measured figure
// beside the bound, and what it succeeds on.
func attackRows(findings []risk.Finding) []string {
	var out []string
	for _, f := range findings {
		if f.NotRun != "" {
			out = append(out, fmt.Sprintf("%s: not run (%s)", f.Attack, f.NotRun))
			continue
		}
		line := fmt.Sprintf("%s: %s · measured %s", f.Attack, f.Verdict(), human(f.Measured))
		if f.Holds() >= 0 {
			line += " · bound " + human(f.Bound)
		}
		if f.Short != "" {
			line += " · " + f.Short
		}
		out = append(out, line)
	}
	return out
}

// statedAttackRows are the attacks a received release's manifest states.
func statedAttackRows(attacks []model.AttackFigure) []string {
	var out []string
	for _, a := range attacks {
		out = append(out, pipeline.AttackSummary(a))
	}
	return out
}

// attackStyle colours an attack row: broken in the error colour, the
// others in the attacks' own.
func attackStyle(s *Styles, row string) func(...string) string {
	if strings.Contains(row, ": broken") {
		return s.Error.Render
	}
	return s.Attack.Render
}
