package ui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/attack"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/ui/common"
)

// attackMsg carries the attacks measured on a run's release (seq: the
// run's, so an older run's attacks are dropped).
type attackMsg struct {
	seq int
	rep *attack.Report
	err error
}

// attackCmd measures the attacks on the result's release as an export
// would publish it (pipeline.Preview.Attacks: the build and the view the
// risk figures read), after the groups are on screen.
func attackCmd(ctx context.Context, env pipeline.Env, prep *pipeline.Prepared, pv *pipeline.Preview, seq int) tea.Cmd {
	if prep == nil || pv == nil {
		return nil
	}
	return common.Guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return attackMsg{seq: seq}
		}
		rep, err := pv.Attacks(ctx, env, prep)
		return attackMsg{seq: seq, rep: rep, err: err}
	}, func(err error) tea.Msg { return attackMsg{seq: seq, err: err} })
}

// attackVerdict is what the attacks measured, for the summary bar beside
// the method's definition: in full, every success ("✗ 12 people certainly
// present · 1431 people with a certain sensitive value"), and
// compact, the worst alone ("✗ 12 certainly present": a broken bound
// first, then the success on the most records; "✓ attacks hold" when none
// succeeds), and whether one broke its method's bound.
type attackVerdict struct {
	full, compact string
	broken        bool
}

func verdictOf(findings []risk.Finding) attackVerdict {
	var parts []string
	var v attackVerdict
	worst, brief, notRun := -1, "", 0
	for i, f := range findings {
		if f.NotRun != "" {
			notRun++
		}
		broken := f.Holds() == 0
		short, b := f.Short, f.Brief
		switch {
		case short == "" && !broken:
			continue
		case short == "":
			short = f.Attack + " over its bound" // broken, though on no one for certain
		}
		if b == "" {
			b = short
		}
		parts = append(parts, short)
		if worst < 0 || broken && !v.broken || broken == v.broken && f.Records > findings[worst].Records {
			worst, brief, v.broken = i, b, v.broken || broken
		}
	}
	if worst < 0 {
		v.full, v.compact = "✓ no attack succeeds", "✓ attacks hold"
		if notRun > 0 {
			v.full += fmt.Sprintf(" (%d not run)", notRun)
			v.compact += fmt.Sprintf(" (%d not run)", notRun)
		}
		return v
	}
	mark := "⚠ "
	if v.broken {
		mark = "✗ "
	}
	v.full, v.compact = mark+strings.Join(parts, " · "), mark+brief
	return v
}

// attackPart is the attacks' verdict for the summary bar, in full and
// compact, and its own colour (an attack that broke a bound in the error
// colour), dimmed while the new result's attacks are on their way.
func (a *App) attackPart() (attackVerdict, func(...string) string) {
	st, s := a.st, a.st.Styles
	if st.Attacks == nil {
		if st.AttacksErr != nil && !st.AttacksOld && st.Result != nil && st.Result.Published > 0 {
			// Said, not left out: the Export pane says why (a release
			// of no record has nothing to attack).
			return attackVerdict{full: "✗ attacks not measured (7 Export says why)", compact: "✗ attacks not measured"}, s.Error.Render
		}
		return attackVerdict{}, nil
	}
	v := verdictOf(st.Attacks.Findings)
	switch {
	case st.AttacksOld:
		return attackVerdict{full: "attacks: …", compact: "attacks: …"}, s.Muted.Render // the new result's are on their way
	case v.broken:
		return v, s.Error.Render
	}
	return v, s.Attack.Render
}
