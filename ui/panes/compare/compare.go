// Package compare is the Compare pane: every method run on the current
// data with comparable settings, in one table of their figures, the best
// of each line marked; enter opens the selected method with its
// settings. The headless twin is privlab eval --compare.
package compare

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/components"
)

// Model runs every method on the current data, QIs and sensitive
// attribute with comparable settings (the same k where a method has a
// group size) and shows one table: the method's own requirement, the
// figures every release gets, the error of one common workload and the
// time, the best of each line marked. Enter opens the selected method,
// with its settings, in the preview. The headless twin is privlab eval
// --compare.
type Model struct {
	st     *common.State
	w, h   int // the pane's size (SetSize)
	k      int
	cursor int // the selected method (column)
	job    components.Job
	rows   []pipeline.CompareRow
	err    error
	scroll components.Scroller
	// of and table are what the comparison shown ran with (inputs and
	// the table); cleared says one was dropped when they changed.
	of      string
	ofTable *model.Table
	cleared bool
}

// DoneMsg is a comparison finished (or stopped) in the background.
type DoneMsg struct {
	seq  int
	rows []pipeline.CompareRow
	err  error
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	return &Model{st: st, k: 10, job: components.NewJob()}
}

func (p *Model) Title() string   { return "Compare" }
func (p *Model) Capturing() bool { return false }

// Refresh drops the comparison (and stops a running one) once what it
// ran with changes: the table, its roles, hierarchies, missing values,
// public table, population, seed or k. Its figures would speak of other
// data, and enter would open a method with the old roles. Opening a
// method from it changes none of these, so it stays.
func (p *Model) Refresh() {
	if (len(p.rows) > 0 || p.err != nil || p.job.Busy) && (p.inputs() != p.of || p.st.Table != p.ofTable) {
		p.job.Forget()
		p.rows, p.err, p.cleared = nil, nil, true
	}
}

// inputs is what a comparison reads of the project, and k: every method
// runs with its own comparable settings, so the current method and its
// values count only through the seed (pipeline.Compare).
func (p *Model) inputs() string {
	q := p.st.Project.Clone()
	seed, hasSeed := q.Params[model.SeedParam.Name]
	q.Method, q.Variant, q.Params, q.Methods, q.Pins, q.Advisor = "", "", nil, nil, nil, nil
	if hasSeed {
		q.Params = model.Values{model.SeedParam.Name: seed}
	}
	b, _ := json.Marshal(q)
	return fmt.Sprintf("k=%d %s", p.k, b)
}

// ShortHelp: ← and → move between the methods, + and - change k (the
// parameter keys' → would move too: it is not offered here).
func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.OpenMethod, common.Described(k.Left, common.KeyName(k.Left), "previous method"), common.Described(k.Right, common.KeyName(k.Right), "next method"),
		common.Described(k.Wider, common.KeyName(k.Wider), "k + 1"), common.Described(k.Narrow, common.KeyName(k.Narrow), "k - 1"), k.Rerun}
}

func (p *Model) FullHelp() []key.Binding {
	return append(p.ShortHelp(), components.ScrollKeys(p.st.Keys)...)
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	st := p.st
	switch msg := msg.(type) {
	case DoneMsg:
		if p.job.Done(msg.seq) {
			p.rows, p.err = msg.rows, components.Stopped(msg.err, "comparison", st.Keys, common.KeyName(st.Keys.Rerun)+" runs it again")
		}
		return nil
	case common.CancelJobMsg:
		p.job.Stop()
		return nil
	case tea.KeyMsg:
		k := st.Keys
		switch {
		case key.Matches(msg, k.Left):
			if p.cursor > 0 {
				p.cursor--
			}
		case key.Matches(msg, k.Right):
			if p.cursor < len(catalog.All())-1 {
				p.cursor++
			}
		case key.Matches(msg, k.Wider):
			p.k++
			p.Refresh()
		case key.Matches(msg, k.Narrow):
			if p.k > 2 {
				p.k--
				p.Refresh()
			}
		case key.Matches(msg, k.Rerun):
			return p.start()
		case key.Matches(msg, k.OpenMethod):
			if len(p.rows) == 0 || p.job.Busy {
				return p.start()
			}
			return p.open()
		case p.scroll.Update(k, msg):
		}
	}
	return nil
}

// start runs the comparison in the background; a new one cancels the old.
func (p *Model) start() tea.Cmd {
	st := p.st
	if st.Table == nil {
		st.Notify("wait for the table to load")
		return nil
	}
	ctx, seq, progress := p.job.Start()
	p.err, p.rows, p.cleared = nil, nil, false
	p.of, p.ofTable = p.inputs(), st.Table
	env, proj, table, k, now := st.Env, st.Project.Clone(), st.Table, p.k, st.Now
	return common.Guarded(func() tea.Msg {
		rows, err := pipeline.Compare(ctx, env, proj, table, pipeline.CompareOptions{K: k, Threshold: proj.RiskThreshold, Now: now,
			Workload: workload.Options{Queries: common.PreviewQueries, Seed: 1}, Progress: progress})
		return DoneMsg{seq: seq, rows: rows, err: err}
	}, func(err error) tea.Msg { return DoneMsg{seq: seq, err: err} })
}

// open switches the workbench to the selected method with the settings
// it was compared with, and shows its preview.
func (p *Model) open() tea.Cmd {
	st := p.st
	if p.cursor >= len(p.rows) {
		return nil
	}
	r := p.rows[p.cursor]
	if r.Err != "" {
		st.Notify("%s did not run here: %s", r.Method, r.Err)
		return nil
	}
	st.UseRun(r.Method, r.Project)
	return func() tea.Msg { return common.ShowPaneMsg{Pane: common.PanePreview} }
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View scrolls the comparison: its lines run past 80x24 (issue 35.2).
func (p *Model) View() string {
	return p.scroll.View(p.st, p.table(p.w), p.w, p.h)
}

// table is the whole of the comparison's text.
func (p *Model) table(w int) string {
	st, s := p.st, p.st.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Compare methods") + s.Muted.Render(common.Fit(fmt.Sprintf("  every method on this data, QIs and SA; k = %d where a method has a group size (%s/%s)", p.k, common.KeyName(p.st.Keys.Wider), common.KeyName(p.st.Keys.Narrow)), w-16)) + "\n")
	switch {
	case p.job.Busy:
		b.WriteString(s.Muted.Render(fmt.Sprintf("running every method… %.0f%% · %s stops", p.job.Percent(), common.KeyName(st.Keys.Cancel))) + "\n")
	case p.err != nil:
		b.WriteString(s.Error.Render(common.Wrap(st.Explain(p.err), w)) + "\n")
	case len(p.rows) == 0 && p.cleared:
		b.WriteString(s.Muted.Render(common.Wrap("The last comparison was of earlier settings and is cleared. "+common.FirstKey(st.Keys.OpenMethod)+": run every method again", w)) + "\n")
	case len(p.rows) == 0:
		b.WriteString(s.Muted.Render(common.Wrap(common.FirstKey(st.Keys.OpenMethod)+": run every method with comparable settings, measure each release with the figures every release gets and one common workload, and mark the best of each line", w)) + "\n")
	}
	if len(p.rows) == 0 {
		return b.String()
	}
	lines := pipeline.CompareLines(p.rows)
	// The line names widen with the terminal, up to the longest, once
	// every method's column has room for its name (13 cells and a space).
	longest := 0
	for _, l := range lines {
		longest = max(longest, common.LenCells(l.Name))
	}
	label := min(longest, max(20, w-len(p.rows)*14))
	col := max(6, (w-label)/len(p.rows)-1)
	head := common.PadRight("", label)
	for i, r := range p.rows {
		name := common.Clip(r.Method, col)
		if i == p.cursor {
			name = s.Selected.Render(common.PadRight(common.Clip("▸"+r.Method, col), col))
		} else {
			name = s.Label.Render(common.PadRight(name, col))
		}
		head += " " + name
	}
	b.WriteString(common.Fit(head, w) + "\n")
	for _, l := range lines {
		line := common.PadRight(common.Clip(l.Name, label), label)
		for i, t := range l.Text {
			line += " " + compareCell(s, t, l.Best[i], col)
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	// The selected method's settings, or why it did not run.
	if p.cursor < len(p.rows) {
		r := p.rows[p.cursor]
		text := fmt.Sprintf("%s: variant %s; %s; %s", r.Method, common.OrDash(r.Variant), r.Settings, r.Worst)
		if r.Err != "" {
			text = r.Method + " did not run: " + r.Err
		}
		b.WriteString(s.Muted.Render(common.Wrap(text, w)) + "\n")
	}
	b.WriteString(s.Muted.Render(common.Fit("* the best of a line · "+common.FirstKey(st.Keys.OpenMethod)+" opens the selected method with these settings in the preview", w)) + "\n")
	b.WriteString(glossary(s, lines, w))
	return b.String()
}

// glossary says what each line measures, as privlab eval --compare's
// "figures:" does: one definition, one scale, one name everywhere.
func glossary(s *common.Styles, lines []pipeline.CompareLine, w int) string {
	var b strings.Builder
	b.WriteString("\n" + s.Label.Render("figures") + "\n")
	for _, l := range lines {
		if l.Help == "" {
			continue
		}
		b.WriteString(common.Wrap(s.Label.Render(l.Name)+s.Muted.Render(": "+l.Help), w) + "\n")
	}
	return b.String()
}

// compareCell is one method's value of a line in col cells: the best of
// the line marked * in the OK colour, a ✗ (a failed requirement, a broken
// bound) in the error colour even when it is the best.
func compareCell(s *common.Styles, t string, best bool, col int) string {
	if best {
		t += "*"
	}
	cell := common.PadRight(common.Clip(t, col), col)
	switch {
	case strings.HasPrefix(t, "✗"):
		return s.Error.Render(cell)
	case best:
		return s.OK.Render(cell)
	}
	return cell
}
