package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/tour"
	"privlab/ui/common"
	tourpane "privlab/ui/panes/tour"
	"privlab/ui/session"
)

// The teaching tours' side of the root: the list of tours (ctrl+t), the
// computing of a tour's steps, and a worked example's dataset opened
// with the paper's settings. The Tour pane (ui/panes/tour) shows a step.

// tourStepsMsg carries a tour's computed steps.
type tourStepsMsg struct {
	name  string
	steps []method.Step
	err   error
}

// tourStepsCmd computes a tour's steps off the UI goroutine.
func tourStepsCmd(env pipeline.Env, t tour.Tour) tea.Cmd {
	return common.Guarded(func() tea.Msg {
		steps, err := t.Steps(context.Background(), env)
		return tourStepsMsg{name: t.Name, steps: steps, err: err}
	}, func(err error) tea.Msg { return tourStepsMsg{name: t.Name, err: err} })
}

// StartTour opens a tour: the workbench loads its first setup and the
// tour pane shows the steps once they are computed.
func (s *State) StartTour(t tour.Tour) tea.Cmd {
	s.Tour = &session.Tour{Tour: t}
	s.OpenProject(t.Start())
	return tourStepsCmd(s.Env, t)
}

// tourDialog lists the tours (ctrl+t): enter opens one, or goes back to
// the open one at its step.
type tourDialog struct {
	st     *State
	cursor int
	list   []tour.Tour
}

func newTourDialog(st *State) *tourDialog {
	d := &tourDialog{st: st, list: tour.All()}
	for i, t := range d.list {
		if st.Tour != nil && st.Tour.Tour.Name == t.Name {
			d.cursor = i
		}
	}
	return d
}

// openTourMsg asks the App to open a tour (after confirming unsaved
// changes).
type openTourMsg struct{ tour tour.Tour }

func (d *tourDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false, nil
	}
	keys := d.st.Keys
	switch {
	case key.Matches(k, keys.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(k, keys.Down):
		d.cursor = min(len(d.list)-1, d.cursor+1)
	case key.Matches(k, keys.Enter) && len(d.list) > 0:
		t := d.list[d.cursor]
		if d.st.Tour != nil && d.st.Tour.Tour.Name == t.Name {
			return true, func() tea.Msg { return common.ShowPaneMsg{Pane: common.PaneTour} }
		}
		return true, func() tea.Msg { return openTourMsg{tour: t} }
	case key.Matches(k, keys.Close):
		return true, nil
	}
	return false, nil
}

func (d *tourDialog) help() []key.Binding {
	k := d.st.Keys
	return []key.Binding{k.Up, k.Down, common.Described(k.Enter, common.KeyName(k.Enter), "open the tour"), k.Close}
}

func (d *tourDialog) view(w, h int) string {
	s := d.st.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Teaching tours: each paper's worked example, step by step") + "\n\n")
	for i, t := range d.list {
		line := fmt.Sprintf("  %-13s %d steps  %s", t.Name, len(t.Tour.Steps), t.Title)
		if d.st.Tour != nil && d.st.Tour.Tour.Name == t.Name {
			line += " (open)"
		}
		if i == d.cursor {
			line = s.Selected.Render(common.Fit("▸"+line[1:], w-2))
		}
		b.WriteString(common.Fit(line, w) + "\n")
		b.WriteString(s.Muted.Render(common.Fit("                         "+t.Paper, w)) + "\n")
	}
	b.WriteString("\n" + s.Muted.Render(common.Wrap("A tour loads the paper's own table, method and settings; each step "+
		"shows the paper's figure or table beside the live preview. "+common.KeyName(d.st.Keys.Enter)+" opens · "+common.FirstKey(d.st.Keys.Close)+" closes", w)))
	return common.Block(b.String(), w, h)
}

// LoadDataset opens an embedded dataset (ctrl+l). A paper's worked
// example opens under its own method with the paper's settings, as its
// tour does, and the status line says so; another dataset keeps the
// current method.
func (s *State) LoadDataset(name string) {
	t, setup, ok := tour.ForDataset(name)
	if !ok {
		s.SetInput("dataset:" + name)
		return
	}
	from := s.Project.Method
	p := s.ProjectOf(t, setup)
	s.OpenProject(p)
	s.MarkDirty()
	how := "with the paper's settings: " + tourpane.SetupText(t, setup)
	if from != "" && from != p.Method {
		s.Notify("%s is the worked example of %s: switched from %s to %s %s", name, t.Paper, from, p.Method, how)
		return
	}
	s.Notify("%s is the worked example of %s: opened %s", name, t.Paper, how)
}
