// Package tour is the Tour pane (issue 24): a paper's worked example
// step by step, each step above the live preview of the run it
// explains. ctrl+t lists the tours from any pane; the pane steps with
// ←/→ and loads each step's table, method, variant and parameters into
// the workbench (session.ShowStep), so the preview below the step is the
// method at work on the paper's table.
package tour

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/tour"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/components"
	"privlab/ui/panes/preview"
	"privlab/ui/session"
)

// SetupText says in one line what a setup runs.
func SetupText(t tour.Tour, su method.Setup) string {
	in := strings.TrimPrefix(su.Input, "dataset:")
	if su.Public != "" {
		in += " + " + strings.TrimPrefix(su.Public, "dataset:")
	}
	m := t.Method(su)
	if su.Variant != "" {
		m += "/" + su.Variant
	}
	parts := []string{in, m}
	var names []string
	for n := range su.Params {
		if n != model.SeedParam.Name {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		parts = append(parts, n+" "+su.Params[n])
	}
	return strings.Join(parts, " · ")
}

// Model shows the current step above the live preview.
type Model struct {
	st      *common.State
	w, h    int // the pane's size (SetSize)
	preview *preview.Model
	offset  int // the step's first line on screen
	lines   int // the step's lines at the last width drawn
	room    int // the step's lines on screen
}

// New is the pane over the workbench's state, drawing the live preview
// the root shows (the same model: its table keeps its place).
func New(st *common.State, preview *preview.Model) *Model {
	return &Model{st: st, preview: preview}
}

func (p *Model) Title() string   { return "Tour" }
func (p *Model) Capturing() bool { return false }
func (p *Model) Refresh()        {}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.NextStep, k.PrevStep, k.Down, common.Described(k.Back, common.KeyName(k.Back), "leave the tour"), k.Tours}
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.NextStep, k.PrevStep, k.Up, k.Down, k.PageUp, k.PageDown,
		common.Described(k.Enter, common.KeyName(k.Enter), "back to the step's settings"), common.Described(k.Back, common.KeyName(k.Back), "leave the tour (the settings stay)")}
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	st, k := p.st, p.st.Keys
	km, ok := msg.(tea.KeyMsg)
	if !ok || st.Tour == nil {
		return nil
	}
	tr := st.Tour
	switch {
	case key.Matches(km, k.NextStep) && tr.Cur+1 < len(tr.Steps):
		st.ShowStep(tr.Cur + 1)
		p.offset = 0
	case key.Matches(km, k.PrevStep) && tr.Cur > 0:
		st.ShowStep(tr.Cur - 1)
		p.offset = 0
	case key.Matches(km, k.Down) || key.Matches(km, k.PageDown):
		step := 1
		if key.Matches(km, k.PageDown) {
			step = max(1, p.room-1)
		}
		p.offset = max(0, min(p.offset+step, p.lines-p.room))
	case key.Matches(km, k.Up) || key.Matches(km, k.PageUp):
		step := 1
		if key.Matches(km, k.PageUp) {
			step = max(1, p.room-1)
		}
		p.offset = max(0, p.offset-step)
	case key.Matches(km, k.Enter):
		st.ShowStep(tr.Cur)
	case key.Matches(km, k.Back):
		st.Tour = nil
		return func() tea.Msg { return common.ShowPaneMsg{Pane: common.PanePreview} }
	}
	return nil
}

// stepLines renders a step's text and tables at width w.
func (p *Model) stepLines(st method.Step, w int) []string {
	s := p.st.Styles
	var b strings.Builder
	for _, para := range st.Text {
		b.WriteString(common.Wrap(para, w) + "\n\n")
	}
	for _, sec := range st.Sections {
		if sec.Title != "" {
			b.WriteString(s.Title.Render(common.Fit(sec.Title, w)) + "\n")
		}
		for _, n := range sec.Notes {
			b.WriteString(common.Wrap(n, w) + "\n")
		}
		if len(sec.Header) > 0 {
			b.WriteString(components.TableView(s, sec, w, max(1, len(sec.Rows)), 0, common.UpDown(p.st.Keys)))
		}
		b.WriteString("\n")
	}
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the current step, scrolled, above the live preview.
func (p *Model) View() string {
	st, s, w, h := p.st, p.st.Styles, p.w, p.h
	tr := st.Tour
	switch {
	case tr == nil:
		return s.Muted.Render("No tour is open: " + common.KeyName(st.Keys.Tours) + " lists the tours.")
	case tr.Err != nil:
		return s.Error.Render("The tour could not be built:") + "\n\n" + common.Wrap(tr.Err.Error(), w)
	case tr.Steps == nil:
		return s.Muted.Render("computing the steps of the " + tr.Tour.Name + " tour …")
	}
	step := tr.Steps[tr.Cur]
	head := s.Title.Render(common.Fit(fmt.Sprintf("Step %d of %d · %s", tr.Cur+1, len(tr.Steps), step.Title), w))
	cite := s.Muted.Render(common.Fit(tr.Tour.Paper+" · "+step.Cite, w))
	previewH := p.previewHeight(h)
	p.room = max(1, h-3-previewH)
	lines := p.stepLines(step, w)
	p.lines = len(lines)
	p.offset = max(0, min(p.offset, len(lines)-p.room))
	shown := lines[p.offset:min(len(lines), p.offset+p.room)]
	if more := len(lines) - p.offset - len(shown); more > 0 {
		shown[len(shown)-1] = s.Muted.Render(common.Fit(fmt.Sprintf("↓ %d more lines · %s scroll · %s next step", more+1, common.UpDown(st.Keys), common.FirstKey(st.Keys.NextStep)), w))
	}
	for len(shown) < p.room {
		shown = append(shown, "")
	}
	rule := "── live preview: " + SetupText(tr.Tour, step.Setup) + " "
	if !session.SameRun(st.ProjectOf(tr.Tour, step.Setup), st.Project) {
		rule = "── live preview of your settings (" + common.KeyName(st.Keys.Enter) + ": the step's) "
	}
	if n := w - common.LenCells(rule); n > 0 {
		rule += strings.Repeat("─", n)
	}
	rule = s.Muted.Render(common.Fit(rule, w))
	return strings.Join(append(append([]string{head, cite}, shown...), rule, p.previewView(w, previewH)), "\n")
}

// previewHeight gives the live preview its groups' rows (title and
// header included), at most half the pane and at least 4 lines.
func (p *Model) previewHeight(h int) int {
	rows := 6
	if r := p.st.Result; r != nil {
		rows = len(r.Groups) + 3
	}
	return max(4, min(rows, h/2))
}

// previewView is the live preview drawn in w x h cells under the step.
func (p *Model) previewView(w, h int) string {
	p.preview.SetSize(w, h)
	return p.preview.View()
}
