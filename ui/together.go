package ui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/ui/common"
)

// togetherMsg carries the shown result's release attacked together with
// the earlier releases of its input (seq: the run's).
type togetherMsg struct {
	seq int
	fig *pipeline.Together
	err error
}

// togetherCmd attacks the result's release together with the earlier
// releases exported from the project's input (pipeline.Preview.
// AttacksTogether, the function privlab attack DIR1 DIR2 uses), off the
// update loop; nil when the project lists none.
func togetherCmd(ctx context.Context, env pipeline.Env, prep *pipeline.Prepared, pv *pipeline.Preview, dirs []string, seq int) tea.Cmd {
	if prep == nil || pv == nil || len(dirs) == 0 {
		return nil
	}
	return common.Guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return togetherMsg{seq: seq}
		}
		fig, err := pv.AttacksTogether(ctx, env, prep, dirs)
		return togetherMsg{seq: seq, fig: fig, err: err}
	}, func(err error) tea.Msg { return togetherMsg{seq: seq, err: err} })
}

// togetherLine says what the release adds to the earlier releases of
// its input ("together with 2 earlier releases: 266 people's occupation
// inferred · 78 people singled out"), whether an attack together breaks
// the bound every release claims, and which earlier releases were left
// out; "" when there are none.
func togetherLine(t *pipeline.Together) (string, bool) {
	if t == nil || t.Earlier == 0 && len(t.Skipped) == 0 {
		return "", false
	}
	var parts []string
	broken := false
	for _, f := range t.Findings {
		if f.Holds() == 0 {
			broken = true
			parts = append(parts, fmt.Sprintf("%s broken (measured %s, bound %s)", f.Attack, common.Human(f.Measured), common.Human(f.Bound)))
		}
		if f.Short != "" {
			parts = append(parts, f.Short)
		}
	}
	line := fmt.Sprintf("together with %s: ", common.Plural(t.Earlier, "earlier release"))
	switch {
	case t.Earlier == 0:
		line = "no earlier release of this input attacked with it"
	case len(parts) == 0:
		line += "no attack succeeds on anyone"
	default:
		line += strings.Join(parts, " · ")
	}
	if len(t.Skipped) > 0 {
		line += "; left out: " + strings.Join(t.Skipped, "; ")
	}
	return line, broken
}

// togetherView is the Export pane's line on the earlier releases.
func (p *exportPane) togetherView(w int) string {
	st, s := p.st, p.st.Styles
	if err := st.TogetherErr; err != nil && !st.TogetherOld {
		return s.Error.Render(common.Indented("✗ the releases together could not be attacked: "+st.Explain(err), w)) + "\n"
	}
	line, broken := togetherLine(st.Together)
	switch {
	case st.TogetherOld:
		return s.Muted.Render(common.Indented(fmt.Sprintf("together with %s: …", common.Plural(len(st.Project.Earlier()), "earlier release")), w)) + "\n"
	case line == "":
		return ""
	case broken:
		return s.Error.Render(common.Indented("✗ "+line, w)) + "\n"
	}
	return s.Attack.Render(common.Indented(line, w)) + "\n"
}
