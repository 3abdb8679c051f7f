// Package params is the Method pane: the method and its variant, and
// exactly the parameters the method declares, stepped or typed, beside a
// compact live preview of the groups so tuning shows its effect at once.
package params

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/ui/common"
	"privlab/ui/components"
	"privlab/ui/panes/preview"
)

// Model is the Method pane: it picks the method and variant and edits
// exactly the parameters the method declares. The right side is a live
// preview of the groups, so tuning shows its effect at once.
type Model struct {
	st      *common.State
	w, h    int // the pane's size (SetSize)
	list    components.ParamList
	preview *preview.Model
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	return &Model{st: st, list: components.NewParamList(st, nil), preview: preview.New(st)}
}

func (p *Model) Title() string   { return "Method" }
func (p *Model) Capturing() bool { return p.list.Edit.Active }
func (p *Model) Refresh()        { p.preview.Refresh() }

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.list.Edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit, k.Method}
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit, k.Method, k.Variant}
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	st := p.st
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if cmd, used := p.list.Update(k); used {
		return cmd
	}
	spec := st.Spec()
	switch {
	case key.Matches(k, st.Keys.Method):
		ms := catalog.All()
		for i, m := range ms {
			if m.Spec().Name == st.Project.Method {
				st.SetMethod(ms[(i+1)%len(ms)].Spec().Name)
				p.list.Cursor = 0
				break
			}
		}
	case key.Matches(k, st.Keys.Variant):
		if len(spec.Variants) > 0 {
			i := 0
			cur, _ := st.Variant()
			for j, v := range spec.Variants {
				if v == cur {
					i = j
				}
			}
			st.SetVariant(spec.Variants[(i+1)%len(spec.Variants)])
		}
	}
	return nil
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w, h := p.w, p.h
	st, s := p.st, p.st.Styles
	spec := st.Spec()
	lw := 38
	if w < 90 {
		lw = 34
	}
	var left strings.Builder
	left.WriteString(s.Title.Render("Method ") + st.Project.Method)
	if len(catalog.All()) > 1 {
		left.WriteString(s.Muted.Render("  (" + common.KeyName(st.Keys.Method) + ": next)"))
	}
	left.WriteString("\n")
	left.WriteString(s.Muted.Render(common.Fit(spec.Paper, lw)) + "\n")
	if len(spec.Variants) > 0 {
		v, noPublic := st.Variant()
		left.WriteString(s.Label.Render("variant ") + v + s.Muted.Render("  ("+common.KeyName(st.Keys.Variant)+": next)") + "\n")
		if noPublic {
			left.WriteString(s.Warn.Render(common.Wrap(fmt.Sprintf("no public table: the plain variant %s runs (%s in %s picks one)", v, common.FirstKey(st.Keys.Public), st.In("Data", common.PaneData)), lw)) + "\n")
		}
	}
	left.WriteString("\n")
	left.WriteString(p.list.View(lw))
	rw := w - lw - 3
	return common.SideBySide(left.String(), lw, p.preview.CompactView(rw, h), rw, h)
}
