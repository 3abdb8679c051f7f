package ui

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/tour"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/components"
	"privlab/ui/panes/preview"
)

// A teaching tour (issue 24): a paper's worked example step by step, each
// step beside the live preview of the run it explains. ctrl+t lists the
// tours from any pane; the tour pane steps with ←/→ and loads each step's
// table, method, variant and parameters into the workbench, so the
// preview below the step is the method at work on the paper's table.

// tourState is the tour on screen: its steps (computed in the
// background) and the current one.
type tourState struct {
	tour  tour.Tour
	steps []method.Step
	err   error
	cur   int
}

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
	s.Tour = &tourState{tour: t}
	s.OpenProject(t.Start())
	return tourStepsCmd(s.Env, t)
}

// projectOf is a setup as the workbench runs it (the dataset's defaults
// and the method's values for it filled in).
func (s *State) projectOf(t tour.Tour, setup method.Setup) pipeline.Project {
	return s.Env.WithDefaults(t.Project(setup))
}

// sameRun reports whether two projects run the same: table, public
// table, method, variant, roles, hierarchies and values.
func sameRun(a, b pipeline.Project) bool {
	type run struct {
		In, Pub, M, V string
		R             any
		H, P          map[string]string
	}
	key := func(p pipeline.Project) run {
		return run{p.Input, p.Public, p.Method, p.Variant, p.Roles, p.Hierarchies, p.Params}
	}
	return reflect.DeepEqual(key(a), key(b))
}

// ShowStep moves the tour to step i and loads its setup into the
// workbench when the current settings differ from it.
func (s *State) ShowStep(i int) {
	tr := s.Tour
	if tr == nil || i < 0 || i >= len(tr.steps) {
		return
	}
	tr.cur = i
	p := s.projectOf(tr.tour, tr.steps[i].Setup)
	if !sameRun(p, s.Project) {
		s.OpenProject(p)
	}
}

// setupText says in one line what a setup runs.
func setupText(t tour.Tour, su method.Setup) string {
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

// tourPane shows the current step above the live preview.
type tourPane struct {
	st      *State
	preview *preview.Model
	offset  int // the step's first line on screen
	lines   int // the step's lines at the last width drawn
	room    int // the step's lines on screen
}

func newTourPane(st *State, preview *preview.Model) *tourPane {
	return &tourPane{st: st, preview: preview}
}

func (p *tourPane) title() string   { return "Tour" }
func (p *tourPane) capturing() bool { return false }
func (p *tourPane) refresh()        {}

func (p *tourPane) shortHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.NextStep, k.PrevStep, k.Down, common.Described(k.Back, common.KeyName(k.Back), "leave the tour"), k.Tours}
}

func (p *tourPane) fullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.NextStep, k.PrevStep, k.Up, k.Down, k.PageUp, k.PageDown,
		common.Described(k.Enter, common.KeyName(k.Enter), "back to the step's settings"), common.Described(k.Back, common.KeyName(k.Back), "leave the tour (the settings stay)")}
}

func (p *tourPane) update(msg tea.Msg) tea.Cmd {
	st, k := p.st, p.st.Keys
	km, ok := msg.(tea.KeyMsg)
	if !ok || st.Tour == nil {
		return nil
	}
	tr := st.Tour
	switch {
	case key.Matches(km, k.NextStep) && tr.cur+1 < len(tr.steps):
		st.ShowStep(tr.cur + 1)
		p.offset = 0
	case key.Matches(km, k.PrevStep) && tr.cur > 0:
		st.ShowStep(tr.cur - 1)
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
		st.ShowStep(tr.cur)
	case key.Matches(km, k.Back):
		st.Tour = nil
		return func() tea.Msg { return common.ShowPaneMsg{Pane: common.PanePreview} }
	}
	return nil
}

// stepLines renders a step's text and tables at width w.
func (p *tourPane) stepLines(st method.Step, w int) []string {
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

func (p *tourPane) view(w, h int) string {
	st, s := p.st, p.st.Styles
	tr := st.Tour
	switch {
	case tr == nil:
		return s.Muted.Render("No tour is open: " + common.KeyName(st.Keys.Tours) + " lists the tours.")
	case tr.err != nil:
		return s.Error.Render("The tour could not be built:") + "\n\n" + common.Wrap(tr.err.Error(), w)
	case tr.steps == nil:
		return s.Muted.Render("computing the steps of the " + tr.tour.Name + " tour …")
	}
	step := tr.steps[tr.cur]
	head := s.Title.Render(common.Fit(fmt.Sprintf("Step %d of %d · %s", tr.cur+1, len(tr.steps), step.Title), w))
	cite := s.Muted.Render(common.Fit(tr.tour.Paper+" · "+step.Cite, w))
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
	rule := "── live preview: " + setupText(tr.tour, step.Setup) + " "
	if !sameRun(st.projectOf(tr.tour, step.Setup), st.Project) {
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
func (p *tourPane) previewHeight(h int) int {
	rows := 6
	if r := p.st.Result; r != nil {
		rows = len(r.Groups) + 3
	}
	return max(4, min(rows, h/2))
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
		if st.Tour != nil && st.Tour.tour.Name == t.Name {
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
		if d.st.Tour != nil && d.st.Tour.tour.Name == t.Name {
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
		if d.st.Tour != nil && d.st.Tour.tour.Name == t.Name {
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
	p := s.projectOf(t, setup)
	s.OpenProject(p)
	s.MarkDirty()
	how := "with the paper's settings: " + setupText(t, setup)
	if from != "" && from != p.Method {
		s.Notify("%s is the worked example of %s: switched from %s to %s %s", name, t.Paper, from, p.Method, how)
		return
	}
	s.Notify("%s is the worked example of %s: opened %s", name, t.Paper, how)
}

// previewView is the live preview drawn in w x h cells under the step.
func (p *tourPane) previewView(w, h int) string {
	p.preview.SetSize(w, h)
	return p.preview.View()
}
