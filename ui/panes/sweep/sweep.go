// Package sweep is the Sweep pane: the method re-run for each value of
// one parameter on the same table, each release measured with the same
// workload, the workload error and the privacy figure that moves plotted
// against the parameter. The headless twin is privlab eval --sweep.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/components"
)

// Model compares values of one parameter: it re-runs the method for
// each value on the same table, measures each release with the same random
// workload, and plots the workload error and the privacy worst case
// against the parameter (the headless twin is privlab eval --sweep). The
// sweep runs in the background with its progress shown; ctrl+x stops it.
type Model struct {
	st     *common.State
	w, h   int // the pane's size (SetSize)
	cursor int
	values map[string]string // edited value lists per method and parameter
	edit   components.LineEditor
	job    components.Job
	rows   []pipeline.SweepRow
	figs   []sweepFigures // aligned with rows
	err    error
	// of and table are the settings' count (State.Changes) and the table
	// the sweep on screen (or running) was made for; cleared is the
	// method it was of once other settings made it go.
	of      int
	table   *model.Table
	method  string
	cleared string
}

// DoneMsg is a sweep finished (or stopped) in the background.
type DoneMsg struct {
	seq  int
	rows []pipeline.SweepRow
	figs []sweepFigures
	err  error
}

// sweepFigures is what the workbench measures of each swept value
// beyond the sweep's row: the short name of the method's utility figure
// and the figures every release gets (risk), so that the chart plots the
// privacy figure that moves.
type sweepFigures struct {
	utility                  string
	unique, belief, smallest float64
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	return &Model{st: st, values: map[string]string{}, edit: components.NewLineEditor(50), job: components.NewJob()}
}

func (p *Model) Title() string   { return "Sweep" }
func (p *Model) Capturing() bool { return p.edit.Active }

// Refresh drops the sweep (and stops a running one) once the settings
// that made it change: another method, table, role, hierarchy or value;
// its table and charts would speak of settings no longer there.
func (p *Model) Refresh() {
	st := p.st
	if (len(p.rows) > 0 || p.err != nil || p.job.Busy) && (st.Changes != p.of || st.Table != p.table) {
		p.job.Forget()
		p.rows, p.err, p.cleared = nil, nil, p.method
	}
}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, common.Described(k.EditText, common.KeyName(k.EditText), "edit values"), k.Run}
}

func (p *Model) FullHelp() []key.Binding { return p.ShortHelp() }

// params are the sweepable parameters: every declared one but the seed,
// and the group size k for a method that declares comparable settings
// but no k (method.ComparableGroupSize: e.g. distribution's mondrian:k).
func (p *Model) params() []model.ParamSpec {
	var out []model.ParamSpec
	spec := p.st.Spec()
	for _, par := range spec.Params {
		if par.Kind != model.ParamSeed {
			out = append(out, par)
		}
	}
	if _, reads := spec.Param(method.GroupSizeParam); !reads && spec.Compare != nil {
		k := method.ComparableGroupSize
		k.Sweep = "2..50:8"
		out = append(out, k)
	}
	return out
}

// defaultValues proposes values for a parameter: the list it declares,
// else presets or steps around the current value.
func (p *Model) defaultValues(par model.ParamSpec) string {
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
			list := components.Presets(par, st.Project.Roles)
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
			if v, err := components.StepParam(par, down, -1, rows, st.Project.Roles); err == nil && v != down {
				down = v
				vals = append([]string{v}, vals...)
			}
			if v, err := components.StepParam(par, up, 1, rows, st.Project.Roles); err == nil && v != up {
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

func (p *Model) valuesOf(par model.ParamSpec) string {
	if v, ok := p.values[p.st.Project.Method+"/"+par.Name]; ok {
		return v
	}
	return p.defaultValues(par)
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	st := p.st
	switch msg := msg.(type) {
	case DoneMsg:
		if p.job.Done(msg.seq) {
			p.rows, p.figs, p.err = msg.rows, msg.figs, components.Stopped(msg.err, "sweep", st.Keys, common.KeyName(st.Keys.Run)+" runs it again")
			if msg.err != nil {
				// A value whose run the stop cut short has no figures: its
				// row goes (no raw "context canceled" in the table).
				for len(p.rows) > 0 && errors.Is(msg.err, context.Canceled) && p.rows[len(p.rows)-1].Error == context.Canceled.Error() {
					p.rows = p.rows[:len(p.rows)-1]
				}
			}
		}
		return nil
	case common.CancelJobMsg:
		p.job.Stop()
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
		if p.edit.Active {
			return p.edit.Update(msg, func(v string) error {
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
			return p.edit.Open("values: ", p.valuesOf(par))
		case key.Matches(msg, keys.Run):
			return p.start(par)
		}
	}
	return nil
}

// start runs the sweep in the background; a new sweep cancels the old one.
func (p *Model) start(par model.ParamSpec) tea.Cmd {
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
	ctx, seq, progress := p.job.Start()
	p.err, p.rows, p.figs, p.cleared = nil, nil, nil, ""
	p.of, p.table, p.method = st.Changes, st.Table, st.Project.Method
	env, proj, table := st.Env, st.RunProject(), st.Table
	return common.Guarded(func() tea.Msg {
		figs := make([]sweepFigures, len(vals))
		rows, err := pipeline.Sweep(ctx, env, proj, table, par.Name, vals, workload.Options{Queries: common.PreviewQueries, Range: 0.1, Seed: 1},
			pipeline.SweepOptions{Progress: progress, Each: func(i int, res *method.Result) { figs[i] = measureSweep(res, proj.RiskThreshold) }})
		return DoneMsg{seq: seq, rows: rows, figs: figs[:len(rows)], err: err}
	}, func(err error) tea.Msg { return DoneMsg{seq: seq, err: err} })
}

// measureSweep measures one swept value's result: its utility figure's
// name and the risk figures of its release (NaN where there are none).
func measureSweep(res *method.Result, threshold float64) sweepFigures {
	f := sweepFigures{utility: res.Utility.Short, unique: math.NaN(), belief: math.NaN(), smallest: math.NaN()}
	if f.utility == "" {
		f.utility = res.Utility.Name
	}
	rep, _, err := pipeline.Risk(res, threshold)
	if err != nil {
		return f
	}
	for key, x := range map[string]*float64{risk.KeyUnique: &f.unique, risk.KeyTopBelief: &f.belief, risk.KeySmallest: &f.smallest} {
		if v, ok := rep.Get(key); ok {
			*x = v.Value
		}
	}
	return f
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the values of each parameter and, after a sweep, its table
// and charts.
func (p *Model) View() string {
	st, s, w, h := p.st, p.st.Styles, p.w, p.h
	ps := p.params()
	var b strings.Builder
	b.WriteString(s.Title.Render("Parameter sweep") + s.Muted.Render("  re-runs "+st.Project.Method+" for each value; same table, same random workload") + "\n")
	for i, par := range ps {
		line := fmt.Sprintf("  %-*s %s", components.NameWidth(ps), par.Name, common.Safe(p.valuesOf(par)))
		if i == p.cursor {
			line = s.Selected.Render(common.Fit("▸ "+line[2:], w))
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	if p.edit.Active {
		b.WriteString(p.edit.View(s, w, "") + s.Muted.Render("separated by , (or ; when a value has a comma) · "+common.KeyName(st.Keys.Enter)+" keep · "+common.KeyName(st.Keys.Back)+" cancel") + "\n")
	}
	b.WriteString("\n")
	switch {
	case p.job.Busy:
		b.WriteString(s.Muted.Render(fmt.Sprintf("sweeping… %.0f%% · %s stops", p.job.Percent(), common.KeyName(st.Keys.Cancel))) + "\n")
	case p.err != nil:
		b.WriteString(s.Error.Render(common.Wrap(st.Explain(p.err), w)) + "\n")
	case len(p.rows) == 0:
		if p.cleared != "" {
			b.WriteString(s.Muted.Render(common.Wrap("The last sweep ("+p.cleared+") was of earlier settings and is cleared.", w)) + "\n")
		}
		b.WriteString(s.Muted.Render(common.KeyName(st.Keys.Run)+": run the sweep for the selected parameter · "+common.KeyName(st.Keys.EditText)+": edit its values (a list, or FROM..TO[:STEP])") + "\n")
	}
	if len(p.rows) == 0 {
		return b.String()
	}
	b.WriteString(p.tableView(w))
	used := strings.Count(b.String(), "\n")
	if ch := h - used - 1; ch >= 5 {
		b.WriteString("\n" + p.charts(w, ch))
	}
	return b.String()
}

// tableView is a line per value: groups, violations, the method's worst
// case, its utility figure (named as the method names it), the records
// unique on the published QIs and the workload error.
func (p *Model) tableView(w int) string {
	s := p.st.Styles
	utility := "utility"
	for _, f := range p.figs {
		if f.utility != "" {
			utility = f.utility
		}
	}
	var b strings.Builder
	b.WriteString(s.Label.Render(common.Fit(common.PadRight(common.Clip(p.rows[0].Param, 12), 12)+fmt.Sprintf(" %6s %4s %12s %12s %8s %8s",
		"groups", "viol", "worst case", common.Clip(utility, 12), "unique", "error"), w)) + "\n")
	for i, r := range p.rows {
		name := common.PadRight(common.Clip(common.Safe(r.Value), 12), 12)
		if r.Error != "" {
			b.WriteString(common.Fit(name+" "+s.Error.Render(common.Safe(r.Error)), w) + "\n")
			continue
		}
		viol := components.PadLeft(fmt.Sprint(r.Violating), 4)
		if r.Violating > 0 {
			viol = s.Error.Render(viol)
		}
		errText := "—"
		if r.Measured > 0 {
			errText = fmt.Sprintf("%.3f", r.MeanErr)
		}
		b.WriteString(common.Fit(name+fmt.Sprintf(" %6s %s %12s %12s %8s %8s", common.Thousands(r.Groups), viol, common.Human(r.WorstVal), common.Human(r.UtilityVal),
			common.OrDash(humanOrNaN(p.figs[i].unique)), errText), w) + "\n")
	}
	return b.String()
}

// charts plots the workload error and the privacy figure that moves
// against the parameter (see privacySeries), each axis from its smallest
// value to its largest.
func (p *Model) charts(w, h int) string {
	s := p.st.Styles
	var labels []string
	var errs []float64
	for _, r := range p.rows {
		labels = append(labels, r.Value)
		e := math.NaN()
		if r.Error == "" && r.Measured > 0 {
			e = r.MeanErr
		}
		errs = append(errs, e)
	}
	param := p.rows[0].Param
	cw := (w - 2) / 2
	left := components.LineChart(s, common.Clip("workload error vs "+param, cw), labels, errs, cw, h)
	rw := w - cw - 3 // sideBySide's " │ "
	name, ys := p.privacySeries()
	right := components.LineChart(s, common.Clip(name+" vs "+param, rw), labels, ys, rw, h)
	return common.SideBySide(left, cw, right, rw, h)
}

// privacySeries is the privacy figure to plot: the method's worst case
// when it moves over the values, else the first that does of the records
// unique on the published QIs, the largest belief in one sensitive value
// and the smallest class (a line that is always 0 says nothing); the
// worst case, named flat, when none moves. Its name says the limits it was held to,
// as a range when they differ ("(limit 7-13)").
func (p *Model) privacySeries() (string, []float64) {
	n := len(p.rows)
	worst, unique, belief, smallest := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	worstName := "worst case"
	var limits []string
	for i, r := range p.rows {
		worst[i], unique[i], belief[i], smallest[i] = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		if r.Error != "" {
			continue
		}
		worst[i] = r.WorstVal
		unique[i], belief[i], smallest[i] = p.figs[i].unique, p.figs[i].belief, p.figs[i].smallest
		if r.Worst != "" {
			worstName = r.Worst
		}
		if r.WorstLimit != "" {
			limits = append(limits, r.WorstLimit)
		}
	}
	if len(limits) > 0 {
		worstName += " (limit " + limitRange(limits) + ")"
	}
	for _, c := range []struct {
		name string
		ys   []float64
	}{{worstName, worst}, {"records unique on the published QIs", unique}, {"largest belief in one sensitive value", belief}, {"smallest class", smallest}} {
		if moves(c.ys) {
			return c.name, c.ys
		}
	}
	// Nothing moves: the flat line is said to be one, not left to look
	// like a chart with nothing on it.
	return "flat: " + worstName, worst
}

// moves reports whether the values (NaN: none) are not all the same.
func moves(ys []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		if !math.IsNaN(y) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	return hi > lo
}

// limitRange is the limits a worst case was held to over a sweep: one
// value, or the smallest to the largest ("7-13").
func limitRange(limits []string) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range limits {
		x, ok := model.ParseNumber(l)
		if !ok {
			if l != limits[0] {
				return "varies"
			}
			return l
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if lo == hi {
		return model.FormatNumber(lo)
	}
	return model.FormatNumber(lo) + "-" + model.FormatNumber(hi)
}

// humanOrNaN is human(x), "" for NaN.
func humanOrNaN(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return common.Human(x)
}
