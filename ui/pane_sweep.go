package ui

import (
	"context"
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
// workload, and draws utility and workload error as bars (the headless
// twin is privlab eval --sweep).
type sweepPane struct {
	st     *State
	cursor int
	values map[string]string // edited value lists per parameter
	edit   lineEditor
	seq    int
	busy   bool
	cancel context.CancelFunc
	rows   []pipeline.SweepRow
	err    error
}

type sweepMsg struct {
	seq  int
	rows []pipeline.SweepRow
	err  error
}

func newSweepPane(st *State) *sweepPane {
	return &sweepPane{st: st, values: map[string]string{}, edit: newLineEditor(50)}
}

func (p *sweepPane) title() string   { return "Sweep" }
func (p *sweepPane) capturing() bool { return p.edit.active }
func (p *sweepPane) refresh()        {}

func (p *sweepPane) shortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit values")), k.Run}
}

func (p *sweepPane) fullHelp() []key.Binding { return p.shortHelp() }

// params are the sweepable parameters: every declared one but the seed.
func (p *sweepPane) params() []model.ParamSpec {
	var out []model.ParamSpec
	for _, par := range p.st.Spec().Params {
		if par.Kind != model.ParamSeed {
			out = append(out, par)
		}
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
	if v, ok := p.values[par.Name]; ok {
		return v
	}
	return p.defaultValues(par)
}

func (p *sweepPane) update(msg tea.Msg) tea.Cmd {
	st := p.st
	switch msg := msg.(type) {
	case sweepMsg:
		if msg.seq != p.seq {
			return nil
		}
		p.busy, p.rows, p.err = false, msg.rows, msg.err
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
				p.values[par.Name] = v
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
		case msg.String() == "e":
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
	if p.cancel != nil {
		p.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.seq++
	p.busy, p.err, p.rows = true, nil, nil
	seq, env, proj, table := p.seq, st.Env, st.Project.Clone(), st.Table
	return guarded(func() tea.Msg {
		rows, err := pipeline.Sweep(ctx, env, proj, table, par.Name, vals, workload.Options{Queries: previewQueries, Range: 0.1, Seed: 1})
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
	case p.busy:
		b.WriteString(s.Muted.Render("sweeping…") + "\n")
	case p.err != nil:
		b.WriteString(s.Error.Render(wrap(p.err.Error(), w)) + "\n")
	case len(p.rows) == 0:
		b.WriteString(s.Muted.Render("enter: run the sweep for the selected parameter · e: edit its values") + "\n")
	}
	if len(p.rows) == 0 {
		return b.String()
	}
	// Bars span the values' own range, min to max, so close values that
	// differ still look different (141.78M against 141.84M).
	minU, maxU, minE, maxE := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range p.rows {
		if r.Error == "" {
			minU, maxU = math.Min(minU, r.UtilityVal), math.Max(maxU, r.UtilityVal)
			minE, maxE = math.Min(minE, r.MeanErr), math.Max(maxE, r.MeanErr)
		}
	}
	barW := (w - 46) / 2
	if barW < 4 {
		barW = 4
	}
	util := p.rows[0].Utility
	if util == "" {
		util = "utility"
	}
	b.WriteString(s.Label.Render(fit(fmt.Sprintf("%-12s %6s %4s  %-*s  %-*s", p.rows[0].Param, "groups", "viol", barW+8, clip(util+" (lower is better)", barW+8), barW+7, "workload error"), w)) + "\n")
	b.WriteString(s.Muted.Render(fit("bars run from the smallest value to the largest of each column", w)) + "\n")
	for _, r := range p.rows {
		if r.Error != "" {
			b.WriteString(fit(fmt.Sprintf("%-12s %s", clip(r.Value, 12), s.Error.Render(r.Error)), w) + "\n")
			continue
		}
		fu, fe := scaled(r.UtilityVal, minU, maxU), scaled(r.MeanErr, minE, maxE)
		viol := fmt.Sprint(r.Violating)
		if r.Violating > 0 {
			viol = s.Error.Render(viol)
		}
		line := fmt.Sprintf("%-12s %6s %4s  %s %7s  %s %6.3f", clip(r.Value, 12), thousands(r.Groups), viol,
			s.Bars[1].Render(bar(fu, barW)), human(r.UtilityVal), s.Bars[2].Render(bar(fe, barW)), r.MeanErr)
		b.WriteString(fit(line, w) + "\n")
	}
	return b.String()
}

// scaled places x on a bar from min (a sliver) to max (full).
func scaled(x, min, max float64) float64 {
	if !(max > min) {
		return 1
	}
	return 0.05 + 0.95*(x-min)/(max-min)
}
