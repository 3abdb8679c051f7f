package components

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
	"privlab/ui/common"
)

// ParamList edits a list of the current method's parameters: up/down pick
// one, +/- step it (numbers by their declared step, text through its
// declared presets or steps), enter types a value, which is refused inline
// with the reason when invalid. The Method pane edits every parameter
// with it, a charts pane the parameters its charts depend on.
type ParamList struct {
	st *common.State
	// Cursor is the selected parameter.
	Cursor int
	// Edit types a value.
	Edit LineEditor
	// names returns the parameters to edit (nil: every declared one).
	names func() []string
}

// NewParamList edits the parameters names returns (nil: every one the
// current method declares).
func NewParamList(st *common.State, names func() []string) ParamList {
	return ParamList{st: st, Edit: NewLineEditor(30), names: names}
}

// Params are the declarations edited.
func (l *ParamList) Params() []model.ParamSpec {
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

func (l *ParamList) current() (model.ParamSpec, bool) {
	ps := l.Params()
	if len(ps) == 0 {
		return model.ParamSpec{}, false
	}
	if l.Cursor >= len(ps) {
		l.Cursor = 0
	}
	return ps[l.Cursor], true
}

func (l *ParamList) rows() int {
	if l.st.Table != nil {
		return l.st.Table.Rows
	}
	return 0
}

// Update handles a key; it reports whether the key was used.
func (l *ParamList) Update(k tea.KeyMsg) (tea.Cmd, bool) {
	st := l.st
	par, ok := l.current()
	if !ok {
		return nil, false
	}
	keys := st.Keys
	if l.Edit.Active {
		// An invalid value is refused inline with the reason; the
		// parameter keeps its value.
		return l.Edit.Update(k, func(v string) error {
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
		if l.Cursor > 0 {
			l.Cursor--
		}
	case key.Matches(k, keys.Down):
		if l.Cursor < len(l.Params())-1 {
			l.Cursor++
		}
	case key.Matches(k, keys.Inc), key.Matches(k, keys.Dec):
		dir := 1
		if key.Matches(k, keys.Dec) {
			dir = -1
		}
		next, err := StepParam(par, st.Value(par.Name), dir, l.rows(), st.Project.Roles)
		if err != nil {
			st.Notify("%s", common.EditorText(err))
			return nil, true
		}
		if next != st.Value(par.Name) {
			st.SetParam(par.Name, next)
		}
	case key.Matches(k, keys.Edit):
		return l.Edit.Open(par.Name+": ", st.Value(par.Name)), true
	default:
		return nil, false
	}
	return nil, true
}

// NameWidth is the column the parameters' names take in a list: 16
// cells, or the longest name's (sampling's min-generalization), so every
// value starts in one column.
func NameWidth(ps []model.ParamSpec) int {
	n := 16
	for _, par := range ps {
		n = max(n, common.LenCells(par.Name))
	}
	return n
}

// View lists the parameters with the cursor, the help of the selected one
// and the editor, in width w.
func (l *ParamList) View(w int) string {
	st, s := l.st, l.st.Styles
	var b strings.Builder
	ps := l.Params()
	names := NameWidth(ps)
	for i, par := range ps {
		line := fmt.Sprintf("  %-*s %s", names, par.Name, common.Safe(st.Value(par.Name)))
		if i == l.Cursor {
			line = s.Selected.Render(common.Fit("▸ "+line[2:]+"  ◂▸", w))
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	// The editor comes right under the list: below the help and the
	// presets it fell past the pane's last row at 80x24 (the target's),
	// the typed value and its refusal unseen.
	if l.Edit.Active {
		b.WriteString("\n" + l.Edit.View(s, w, "refused: "))
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
	return b.String()
}

// StepParam moves a parameter one step up or down within its declared
// range: numbers by Step, seeds through random, 1, 2, ..., text by its
// declared StepText or through its Presets.
func StepParam(par model.ParamSpec, cur string, dir int, rows int, roles model.Roles) (string, error) {
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
		return cycle(Presets(par, roles), cur, dir), nil
	}
	return cur, nil
}

// Presets are the values +/- cycles through for a text parameter.
func Presets(par model.ParamSpec, roles model.Roles) []string {
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
