package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/model"
)

// sweepPane compares values of one parameter: it re-runs the method for
// each value on the same table, measures each release with the same random
// workload, and plots the workload error and the privacy worst case
// against the parameter (the headless twin is privlab eval --sweep). The
// sweep runs in the background with its progress shown; ctrl+x stops it.
type sweepPane struct {
	st     *State
	cursor int
	values map[string]string // edited value lists per method and parameter
	edit   lineEditor
	job    job
	rows   []pipeline.SweepRow
	err    error
	// of and table are the settings' count (State.Changes) and the table
	// the sweep on screen (or running) was made for; cleared is the
	// method it was of once other settings made it go.
	of      int
	table   *model.Table
	method  string
	cleared string
}

// cancelJobMsg asks the panes to stop their background work (ctrl+x).
type cancelJobMsg struct{}

type sweepMsg struct {
	seq  int
	rows []pipeline.SweepRow
	err  error
}

func newSweepPane(st *State) *sweepPane {
	return &sweepPane{st: st, values: map[string]string{}, edit: newLineEditor(50), job: newJob()}
}

func (p *sweepPane) title() string   { return "Sweep" }
func (p *sweepPane) capturing() bool { return p.edit.active }

// refresh drops the sweep (and stops a running one) once the settings
// that made it change: another method, table, role, hierarchy or value;
// its table and charts would speak of settings no longer there.
func (p *sweepPane) refresh() {
	st := p.st
	if (len(p.rows) > 0 || p.err != nil || p.job.busy) && (st.Changes != p.of || st.Table != p.table) {
		p.job.forget()
		p.rows, p.err, p.cleared = nil, nil, p.method
	}
}

func (p *sweepPane) shortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, described(k.EditText, "e", "edit values"), k.Run}
}

func (p *sweepPane) fullHelp() []key.Binding { return p.shortHelp() }

// params are the sweepable parameters: every declared one but the seed,
// and the group size k for a method that declares comparable settings
// but no k (pipeline.GroupSize: e.g. distribution's mondrian:k).
func (p *sweepPane) params() []model.ParamSpec {
	var out []model.ParamSpec
	spec := p.st.Spec()
	for _, par := range spec.Params {
		if par.Kind != model.ParamSeed {
			out = append(out, par)
		}
	}
	if _, reads := spec.Param(pipeline.GroupSize); !reads && spec.Compare != nil {
		out = append(out, model.ParamSpec{Name: pipeline.GroupSize, Kind: model.ParamInt, Min: 2, Sweep: "2..50:8",
			Help: "group size: the method's comparable settings for k (as the Compare pane uses them)"})
	}
	return out
}

// defaultValues proposes values for a parameter: the list it declares,
// else presets or steps around the current value.
func (p *sweepPane) defaultValues(par model.ParamSpec) string {
	if par.Sweep != "" {
		return par.Sweep
	}
	st := p.st
	rows := 0
	if st.Table != nil {
		rows = st.Table.Rows
	}
	switch par.Kind {
	case model.ParamText, model.ParamChoice:
		if par.StepText == nil {
			list := presets(par, st.Project.Roles)
			if par.Kind == model.ParamChoice {
				list = par.Choices
			}
			if len(list) > 8 {
				list = list[:8]
			}
			return joinValues(list)
		}
		fallthrough
	case model.ParamInt, model.ParamFloat:
		cur := st.Value(par.Name)
		vals := []string{cur}
		down, up := cur, cur
		for i := 0; i < 3; i++ {
			if v, err := stepParam(par, down, -1, rows, st.Project.Roles); err == nil && v != down {
				down = v
				vals = append([]string{v}, vals...)
			}
			if v, err := stepParam(par, up, 1, rows, st.Project.Roles); err == nil && v != up {
				up = v
				vals = append(vals, v)
			}
		}
		return joinValues(vals)
	}
	return st.Value(par.Name)
}

// joinValues separates by commas, or by semicolons when a value has a comma.
func joinValues(vals []string) string {
	for _, v := range vals {
		if strings.Contains(v, ",") {
			return strings.Join(vals, ";")
		}
	}
	return strings.Join(vals, ",")
}

func (p *sweepPane) valuesOf(par model.ParamSpec) string {
	if v, ok := p.values[p.st.Project.Method+"/"+par.Name]; ok {
		return v
	}
	return p.defaultValues(par)
}

func (p *sweepPane) update(msg tea.Msg) tea.Cmd {
	st := p.st
	switch msg := msg.(type) {
	case sweepMsg:
		if p.job.done(msg.seq) {
			p.rows, p.err = msg.rows, stopped(msg.err, "sweep", "enter runs it again")
		}
		return nil
	case cancelJobMsg:
		p.job.stop()
		return nil
	case tea.KeyMsg:
		ps := p.params()
		if len(ps) == 0 {
			return nil
		}
		if p.cursor >= len(ps) {
			p.cursor = 0
		}
		par := ps[p.cursor]
		if p.edit.active {
			return p.edit.update(msg, func(v string) error {
				if _, _, err := pipeline.ParseSweep(par.Name + "=" + v); err != nil {
					return err
				}
				p.values[st.Project.Method+"/"+par.Name] = v
				return nil
			})
		}
		keys := st.Keys
		switch {
		case key.Matches(msg, keys.Up):
			if p.cursor > 0 {
				p.cursor--
			}
		case key.Matches(msg, keys.Down):
			if p.cursor < len(ps)-1 {
				p.cursor++
			}
		case key.Matches(msg, keys.EditText):
			return p.edit.open("values: ", p.valuesOf(par))
		case key.Matches(msg, keys.Run):
			return p.start(par)
		}
	}
	return nil
}

// start runs the sweep in the background; a new sweep cancels the old one.
func (p *sweepPane) start(par model.ParamSpec) tea.Cmd {
	st := p.st
	if st.Table == nil {
		st.Notify("wait for the table to load")
		return nil
	}
	_, vals, err := pipeline.ParseSweep(par.Name + "=" + p.valuesOf(par))
	if err != nil {
		p.err = err
		return nil
	}
	ctx, seq, progress := p.job.start()
	p.err, p.rows, p.cleared = nil, nil, ""
	p.of, p.table, p.method = st.Changes, st.Table, st.Project.Method
	env, proj, table := st.Env, st.runProject(), st.Table
	return guarded(func() tea.Msg {
		rows, err := pipeline.SweepWith(ctx, env, proj, table, par.Name, vals, workload.Options{Queries: previewQueries, Range: 0.1, Seed: 1}, progress)
		return sweepMsg{seq: seq, rows: rows, err: err}
	}, func(err error) tea.Msg { return sweepMsg{seq: seq, err: err} })
}

func (p *sweepPane) view(w, h int) string {
	st, s := p.st, p.st.Styles
	ps := p.params()
	var b strings.Builder
	b.WriteString(s.Title.Render("Parameter sweep") + s.Muted.Render("  re-runs "+st.Project.Method+" for each value; same table, same random workload") + "\n")
	for i, par := range ps {
		line := fmt.Sprintf("  %-16s %s", par.Name, p.valuesOf(par))
		if i == p.cursor {
			line = s.Selected.Render(fit("▸ "+line[2:], w))
		}
		b.WriteString(fit(line, w) + "\n")
	}
	if p.edit.active {
		b.WriteString(p.edit.view(s, w, "") + s.Muted.Render("separated by , (or ; when a value has a comma) · enter keep · esc cancel") + "\n")
	}
	b.WriteString("\n")
	switch {
	case p.job.busy:
		b.WriteString(s.Muted.Render(fmt.Sprintf("sweeping… %.0f%% · ctrl+x stops", p.job.percent())) + "\n")
	case p.err != nil:
		b.WriteString(s.Error.Render(wrap(st.ui(p.err.Error()), w)) + "\n")
	case len(p.rows) == 0:
		if p.cleared != "" {
			b.WriteString(s.Muted.Render(wrap("The last sweep ("+p.cleared+") was of earlier settings and is cleared.", w)) + "\n")
		}
		b.WriteString(s.Muted.Render("enter: run the sweep for the selected parameter · e: edit its values (a list, or FROM..TO[:STEP])") + "\n")
	}
	if len(p.rows) == 0 {
		return b.String()
	}
	// A line per value, then the workload error and the privacy worst case
	// plotted against the parameter, each axis from its smallest value to
	// its largest.
	b.WriteString(s.Label.Render(fit(fmt.Sprintf("%-12s %6s %4s %12s %12s %10s", p.rows[0].Param, "groups", "viol", "worst case", "utility", "error"), w)) + "\n")
	var labels []string
	var errs, worst []float64
	worstName, errName := "", "workload error"
	for _, r := range p.rows {
		labels = append(labels, r.Value)
		if r.Error != "" {
			b.WriteString(fit(padRight(clip(r.Value, 12), 12)+" "+s.Error.Render(st.ui(r.Error)), w) + "\n")
			errs, worst = append(errs, math.NaN()), append(worst, math.NaN())
			continue
		}
		e := math.NaN()
		if r.Measured > 0 {
			e = r.MeanErr
		}
		errs, worst = append(errs, e), append(worst, r.WorstVal)
		if r.Worst != "" {
			worstName = r.Worst
			if r.WorstLimit != "" {
				worstName += " (limit " + r.WorstLimit + ")"
			}
		}
		viol := fmt.Sprint(r.Violating)
		if r.Violating > 0 {
			viol = s.Error.Render(viol)
		}
		errText := "—"
		if !math.IsNaN(e) {
			errText = fmt.Sprintf("%.3f", e)
		}
		b.WriteString(fit(padRight(clip(r.Value, 12), 12)+fmt.Sprintf(" %6s %4s %12s %12s %10s", thousands(r.Groups), viol, human(r.WorstVal), human(r.UtilityVal), errText), w) + "\n")
	}
	used := strings.Count(b.String(), "\n")
	ch := h - used - 1
	if ch < 5 {
		return b.String()
	}
	cw := (w - 2) / 2
	left := lineChart(s, clip(errName+" vs "+p.rows[0].Param, cw), labels, errs, cw, ch)
	rw := w - cw - 3 // sideBySide's " │ "
	right := lineChart(s, clip(worstName+" vs "+p.rows[0].Param, rw), labels, worst, rw, ch)
	b.WriteString("\n" + sideBySide(left, cw, right, rw, ch))
	return b.String()
}
