package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/components"
)

// paramList edits a list of the current method's parameters: up/down pick
// one, +/- step it (numbers by their declared step, text through its
// declared presets or steps), enter types a value, which is refused inline
// with the reason when invalid. The Method pane edits every parameter
// with it, a charts pane the parameters its charts depend on.
type paramList struct {
	st     *State
	cursor int
	edit   components.LineEditor
	// names returns the parameters to edit (nil: every declared one).
	names func() []string
}

func newParamList(st *State, names func() []string) paramList {
	return paramList{st: st, edit: components.NewLineEditor(30), names: names}
}

// params are the declarations edited.
func (l *paramList) params() []model.ParamSpec {
	spec := l.st.Spec()
	if l.names == nil {
		return spec.Params
	}
	var out []model.ParamSpec
	for _, n := range l.names() {
		if p, ok := spec.Param(n); ok {
			out = append(out, p)
		}
	}
	return out
}

func (l *paramList) current() (model.ParamSpec, bool) {
	ps := l.params()
	if len(ps) == 0 {
		return model.ParamSpec{}, false
	}
	if l.cursor >= len(ps) {
		l.cursor = 0
	}
	return ps[l.cursor], true
}

func (l *paramList) rows() int {
	if l.st.Table != nil {
		return l.st.Table.Rows
	}
	return 0
}

// update handles a key; it reports whether the key was used.
func (l *paramList) update(k tea.KeyMsg) (tea.Cmd, bool) {
	st := l.st
	par, ok := l.current()
	if !ok {
		return nil, false
	}
	keys := st.Keys
	if l.edit.Active {
		// An invalid value is refused inline with the reason; the
		// parameter keeps its value.
		return l.edit.Update(k, func(v string) error {
			v = strings.TrimSpace(v)
			if err := par.Validate(v, l.rows()); err != nil {
				return err
			}
			st.SetParam(par.Name, v)
			return nil
		}), true
	}
	switch {
	case key.Matches(k, keys.Up):
		if l.cursor > 0 {
			l.cursor--
		}
	case key.Matches(k, keys.Down):
		if l.cursor < len(l.params())-1 {
			l.cursor++
		}
	case key.Matches(k, keys.Inc), key.Matches(k, keys.Dec):
		dir := 1
		if key.Matches(k, keys.Dec) {
			dir = -1
		}
		next, err := stepParam(par, st.Value(par.Name), dir, l.rows(), st.Project.Roles)
		if err != nil {
			st.Notify("%s", common.EditorText(err))
			return nil, true
		}
		if next != st.Value(par.Name) {
			st.SetParam(par.Name, next)
		}
	case key.Matches(k, keys.Edit):
		return l.edit.Open(par.Name+": ", st.Value(par.Name)), true
	default:
		return nil, false
	}
	return nil, true
}

// view lists the parameters with the cursor, the help of the selected one
// and the editor, in width w.
func (l *paramList) view(w int) string {
	st, s := l.st, l.st.Styles
	var b strings.Builder
	ps := l.params()
	for i, par := range ps {
		line := fmt.Sprintf("  %-16s %s", par.Name, common.Safe(st.Value(par.Name)))
		if i == l.cursor {
			line = s.Selected.Render(common.Fit("▸ "+line[2:]+"  ◂▸", w))
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	if par, ok := l.current(); ok {
		b.WriteString("\n" + s.Muted.Render(common.Wrap(par.Help, w)) + "\n")
		if par.Describe != nil && par.Presets != nil {
			// Each preset with what it means (+/- cycles through them).
			for _, v := range par.Presets(st.Project.Roles) {
				mark := "  "
				if v == st.Value(par.Name) {
					mark = "▸ "
				}
				b.WriteString(common.Fit(mark+fmt.Sprintf("%-13s ", common.Safe(v))+s.Muted.Render(common.Safe(par.Describe(v))), w) + "\n")
			}
		}
		if par.Explain != "" {
			b.WriteString(s.Muted.Render(common.Wrap(par.Explain, w)) + "\n")
		} else if r := par.RangeText(l.rows()); r != "" {
			b.WriteString(s.Muted.Render(common.Wrap("allowed: "+r, w)) + "\n")
		}
	}
	if l.edit.Active {
		b.WriteString("\n" + l.edit.View(s, w, "refused: "))
	}
	return b.String()
}

// stepParam moves a parameter one step up or down within its declared
// range: numbers by Step, seeds through random, 1, 2, ..., text by its
// declared StepText or through its Presets.
func stepParam(par model.ParamSpec, cur string, dir int, rows int, roles model.Roles) (string, error) {
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
		x += float64(dir) * st
		lo, hi := par.Min, par.Max
		if par.MinOpen {
			lo += st / 1000
		}
		if par.MaxRows {
			hi = float64(rows)
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
		if err := par.Validate(v, rows); err != nil {
			return cur, err
		}
		return v, nil
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
		if par.StepText != nil {
			return par.StepText(cur, dir), nil
		}
		return cycle(presets(par, roles), cur, dir), nil
	}
	return cur, nil
}

// presets are the values +/- cycles through for a text parameter.
func presets(par model.ParamSpec, roles model.Roles) []string {
	if par.Presets != nil {
		return par.Presets(roles)
	}
	return []string{par.Default}
}

func cycle(list []string, cur string, dir int) string {
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

// paramsPane picks the method and variant and edits exactly the
// parameters the method declares. The right side is a live preview of the
// groups, so tuning shows its effect at once.
type paramsPane struct {
	st      *State
	list    paramList
	preview *previewPane
}

func newParamsPane(st *State) *paramsPane {
	return &paramsPane{st: st, list: newParamList(st, nil), preview: newPreviewPane(st)}
}

func (p *paramsPane) title() string   { return "Method" }
func (p *paramsPane) capturing() bool { return p.list.edit.Active }
func (p *paramsPane) refresh()        { p.preview.refresh() }

func (p *paramsPane) shortHelp() []key.Binding {
	k := p.st.Keys
	if p.list.edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit, k.Method}
}

func (p *paramsPane) fullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit, k.Method, k.Variant}
}

func (p *paramsPane) update(msg tea.Msg) tea.Cmd {
	st := p.st
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if cmd, used := p.list.update(k); used {
		return cmd
	}
	spec := st.Spec()
	switch {
	case key.Matches(k, st.Keys.Method):
		ms := methods()
		for i, m := range ms {
			if m.Spec().Name == st.Project.Method {
				st.SetMethod(ms[(i+1)%len(ms)].Spec().Name)
				p.list.cursor = 0
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
	left.WriteString(p.list.view(lw))
	rw := w - lw - 3
	return common.SideBySide(left.String(), lw, p.preview.compactView(rw, h), rw, h)
}
