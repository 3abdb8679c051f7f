package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
)

// paramsPane picks the method and variant and edits exactly the
// parameters the method declares: +/- step them, enter types a value,
// invalid values are refused inline with the reason. The right side is a
// live preview of the groups, so tuning shows its effect at once.
type paramsPane struct {
	st      *State
	cursor  int
	edit    lineEditor
	preview *previewPane
}

func newParamsPane(st *State) *paramsPane {
	return &paramsPane{st: st, edit: newLineEditor(30), preview: newPreviewPane(st)}
}

func (p *paramsPane) title() string   { return "Method" }
func (p *paramsPane) capturing() bool { return p.edit.active }
func (p *paramsPane) refresh()        { p.preview.refresh() }

func (p *paramsPane) shortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit}
}

func (p *paramsPane) fullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit, k.Method, k.Variant}
}

func (p *paramsPane) setValue(name, v string) {
	if p.st.Project.Params == nil {
		p.st.Project.Params = model.Values{}
	}
	p.st.Project.Params[name] = v
	p.st.Changed()
}

func (p *paramsPane) rows() int {
	if p.st.Table != nil {
		return p.st.Table.Rows
	}
	return 0
}

func (p *paramsPane) update(msg tea.Msg) tea.Cmd {
	st := p.st
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	spec := st.Spec()
	if len(spec.Params) == 0 {
		return nil
	}
	if p.cursor >= len(spec.Params) {
		p.cursor = 0
	}
	par := spec.Params[p.cursor]
	keys := st.Keys
	if p.edit.active {
		// An invalid value is refused inline with the reason; the
		// parameter keeps its value.
		return p.edit.update(msg, func(v string) error {
			v = strings.TrimSpace(v)
			if err := par.Validate(v, p.rows()); err != nil {
				return err
			}
			p.setValue(par.Name, v)
			return nil
		})
	}
	switch {
	case key.Matches(k, keys.Up):
		if p.cursor > 0 {
			p.cursor--
		}
	case key.Matches(k, keys.Down):
		if p.cursor < len(spec.Params)-1 {
			p.cursor++
		}
	case key.Matches(k, keys.Inc), key.Matches(k, keys.Dec):
		dir := 1.0
		if key.Matches(k, keys.Dec) {
			dir = -1
		}
		next, err := p.step(par, st.Value(par.Name), dir)
		if err != nil {
			st.Notify("%v", err)
			return nil
		}
		if next != st.Value(par.Name) {
			p.setValue(par.Name, next)
		}
	case key.Matches(k, keys.Edit):
		return p.edit.open(par.Name+": ", st.Value(par.Name))
	case key.Matches(k, keys.Method):
		ms := methods()
		for i, m := range ms {
			if m.Spec().Name == st.Project.Method {
				st.Project.Method = ms[(i+1)%len(ms)].Spec().Name
				st.Project.Params = defaultParams(st.Project.Method)
				st.Project.Variant = ""
				p.cursor = 0
				st.Changed()
				break
			}
		}
	case key.Matches(k, keys.Variant):
		if len(spec.Variants) > 0 {
			i := 0
			for j, v := range spec.Variants {
				if v == st.Project.Variant {
					i = j
				}
			}
			st.Project.Variant = spec.Variants[(i+1)%len(spec.Variants)]
			st.Changed()
		}
	}
	return nil
}

// step moves a parameter one step up or down within its declared range.
func (p *paramsPane) step(par model.ParamSpec, cur string, dir float64) (string, error) {
	switch par.Kind {
	case model.ParamInt, model.ParamFloat:
		x, ok := model.ParseNumber(cur)
		if !ok {
			x = par.Min
		}
		st := par.Step
		if st == 0 {
			st = 1
		}
		x += dir * st
		lo, hi := par.Min, par.Max
		if par.MinOpen {
			lo += st / 1000
		}
		if par.MaxRows {
			hi = float64(p.rows())
		}
		if x < lo {
			x = par.Min
			if par.MinOpen {
				x = math.Min(st, hi)
			}
		}
		if (par.MaxRows || par.Max != 0) && x > hi {
			x = hi
		}
		x = math.Round(x*1e6) / 1e6
		v := model.FormatNumber(x)
		if err := par.Validate(v, p.rows()); err != nil {
			return cur, err
		}
		return v, nil
	case model.ParamFakes:
		f, err := model.ParseFakes(cur)
		if err != nil {
			f = model.Fakes{}
		}
		if f.IsPercent {
			f.Percent = math.Max(0, f.Percent+dir)
		} else {
			f.Count = int(math.Max(0, float64(f.Count)+dir))
		}
		return f.String(), nil
	case model.ParamSeed:
		v, fixed, _ := model.ParseSeed(cur)
		switch {
		case !fixed && dir > 0:
			return "1", nil
		case !fixed:
			return "random", nil
		case dir < 0 && v <= 1:
			return "random", nil
		case dir < 0:
			return strconv.FormatUint(v-1, 10), nil
		}
		return strconv.FormatUint(v+1, 10), nil
	case model.ParamChoice:
		return cycle(par.Choices, cur, dir), nil
	case model.ParamText:
		return cycle(p.presets(par), cur, dir), nil
	}
	return cur, nil
}

// presets are the values +/- cycles through for a text parameter.
func (p *paramsPane) presets(par model.ParamSpec) []string {
	st := p.st
	switch par.Name {
	case "grouping":
		out := []string{"sa-only", "qi-sa", "mondrian:10", "mondrian:25", "mondrian:50", "mondrian:100", "mondrian:200", "mondrian:500"}
		if qs := st.Project.Roles.QIs; len(qs) > 0 {
			out = append(out, "level:"+qs[0]+"=1", "level:"+qs[0]+"=2", "level:"+qs[0]+"=3", "column:"+qs[0])
		}
		return out
	case "target":
		tp := &targetPane{st: st}
		var out []string
		for i := range targetKinds {
			if s := tp.defaultSpec(i); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return []string{par.Default}
}

func cycle(list []string, cur string, dir float64) string {
	if len(list) == 0 {
		return cur
	}
	i := -1
	for j, x := range list {
		if x == cur {
			i = j
		}
	}
	switch {
	case i < 0:
		return list[0]
	case dir > 0:
		return list[(i+1)%len(list)]
	}
	return list[(i-1+len(list))%len(list)]
}

func (p *paramsPane) view(w, h int) string {
	st, s := p.st, p.st.Styles
	spec := st.Spec()
	lw := 38
	if w < 90 {
		lw = 34
	}
	var left strings.Builder
	left.WriteString(s.Title.Render("Method ") + st.Project.Method)
	if len(methods()) > 1 {
		left.WriteString(s.Muted.Render("  (M: next)"))
	}
	left.WriteString("\n")
	left.WriteString(s.Muted.Render(fit(spec.Paper, lw)) + "\n")
	if len(spec.Variants) > 0 {
		v := st.Project.Variant
		if v == "" {
			v = spec.Variants[0]
		}
		left.WriteString(s.Label.Render("variant ") + v + s.Muted.Render("  (V: next)") + "\n")
	}
	left.WriteString("\n")
	for i, par := range spec.Params {
		line := fmt.Sprintf("  %-16s %s", par.Name, st.Value(par.Name))
		if i == p.cursor {
			line = s.Selected.Render(fit("▸ "+line[2:]+"  ◂▸", lw))
		}
		left.WriteString(fit(line, lw) + "\n")
	}
	if p.cursor < len(spec.Params) {
		par := spec.Params[p.cursor]
		left.WriteString("\n" + s.Muted.Render(wrap(par.Help, lw)) + "\n")
		if r := par.RangeText(p.rows()); r != "" {
			left.WriteString(s.Muted.Render(wrap("allowed: "+r, lw)) + "\n")
		}
	}
	if p.edit.active {
		left.WriteString("\n" + p.edit.view(s, lw, "refused: "))
	}
	rw := w - lw - 3
	return sideBySide(left.String(), lw, p.preview.compactView(rw, h), rw, h)
}
