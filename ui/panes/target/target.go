// Package target is the charts pane: the charts the current method
// draws (its Spec.Charts names the pane, e.g. distribution's "Target")
// beside the parameters they depend on, edited as on the Method pane.
package target

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/ui/common"
	"privlab/ui/components"
)

// Model shows the charts the current method draws (its Spec.Charts
// names the pane, e.g. distribution's "Target") beside the parameters they
// depend on, which it edits like the Method pane does. Methods that draw
// no charts have no such pane.
type Model struct {
	st   *common.State
	w, h int // the pane's size (SetSize)
	list components.ParamList
	// cache: the charts of one result at one size
	of    *method.Result
	cw    int
	ch    int
	cache string
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	p := &Model{st: st}
	p.list = components.NewParamList(st, func() []string { return st.Spec().ChartParams })
	return p
}

func (p *Model) Title() string {
	if t := p.st.Spec().Charts; t != "" {
		return t
	}
	return "Charts"
}
func (p *Model) Capturing() bool { return p.list.Edit.Active }
func (p *Model) Refresh()        {}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.list.Edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit}
}

func (p *Model) FullHelp() []key.Binding { return p.ShortHelp() }

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok {
		cmd, _ := p.list.Update(k)
		return cmd
	}
	return nil
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w, h := p.w, p.h
	st, s := p.st, p.st.Styles
	lw := 36
	var left strings.Builder
	left.WriteString(s.Title.Render(p.Title()) + "\n\n")
	left.WriteString(p.list.View(lw))
	rw := w - lw - 3
	if p.of != st.Result || p.cw != rw || p.ch != h || st.Result == nil {
		p.of, p.cw, p.ch = st.Result, rw, h
		p.cache = p.chartView(rw, h)
	}
	return common.SideBySide(left.String(), lw, p.cache, rw, h)
}

func (p *Model) chartView(w, h int) string {
	st, s := p.st, p.st.Styles
	r := st.Result
	switch {
	case st.RunErr != nil && !st.Running:
		return s.Error.Render(common.Wrap(st.Explain(st.RunErr), w))
	case r == nil || r.Charts == nil:
		return s.Muted.Render("computing…")
	}
	return components.RenderSections(s, r.Charts(), w, h, 0, common.UpDown(p.st.Keys))
}
