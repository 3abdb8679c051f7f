package ui

import (
	"context"

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
