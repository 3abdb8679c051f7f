package ui

import (
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
)

// drain runs the app's commands as the program does, spinner ticks
// included (each sleeps its frame), until none is left; it fails when
// the app still schedules work after limit messages (the spinner used to
// tick forever: 12 wake-ups a second on an idle workbench, issue 20). It
// returns the spinner ticks delivered.
func drain(t *testing.T, a *App, cmd tea.Cmd, limit int) (ticks int) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > limit {
			t.Fatalf("still scheduling after %d messages (%d spinner ticks): an idle workbench must schedule nothing", limit, ticks)
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := runWithTimeout(t, c).(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		default:
			if _, ok := m.(spinner.TickMsg); ok {
				ticks++
			}
			_, next := a.Update(m)
			queue = append(queue, next)
		}
	}
	return ticks
}

// An idle workbench uses no CPU: once the table is loaded and the result,
// its risk figures and workload have landed, no command is pending (the
// spinner's ticks stop with the work they stand for), and a tick still in
// flight schedules none. A key that starts a run starts the spinner
// again, and it stops again when the run's figures are in.
func TestIdleWorkbenchSchedulesNothing(t *testing.T) {
	t.Parallel()
	a := newTestApp("dataset:census")
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	ticks := drain(t, a, a.Init(), 400)
	if a.st.Result == nil || a.st.Risk == nil || a.spinning() || a.ticking {
		t.Fatalf("after draining: result %v, risk %v, spinning %v, ticking %v (load %v, run %v)",
			a.st.Result != nil, a.st.Risk != nil, a.spinning(), a.ticking, a.st.LoadErr, a.st.RunErr)
	}
	if ticks == 0 {
		t.Errorf("the spinner never ticked while the table loaded and the method ran")
	}
	if _, cmd := a.Update(spinner.TickMsg{}); cmd != nil {
		t.Fatalf("a tick on an idle workbench schedules another")
	}
	// The seed steps with +: a run, with the spinner ticking until it is
	// done, then idle again.
	if !selectParam(a, func(par model.ParamSpec) bool { return par.Kind == model.ParamSeed }) {
		t.Fatal("the method has no seed to step")
	}
	before := a.st.Result
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+")})
	if !a.ticking {
		t.Fatalf("a key that starts a run does not start the spinner")
	}
	drain(t, a, cmd, 400)
	if a.st.Result == before || a.spinning() || a.ticking {
		t.Fatalf("after the key: new result %v, spinning %v, ticking %v", a.st.Result != before, a.spinning(), a.ticking)
	}
}
