package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
)

// targetKinds are the target sources of SPEC 2.4, with the default
// argument used when one is picked.
var targetKinds = []struct {
	name, help string
}{
	{"uniform", "uniform over the domain"},
	{"table", "the table's own SA distribution (t-closeness style)"},
	{"group", "each group's own distribution: permutation only"},
	{"normal", "normal(mu, sigma) discretised over the domain"},
	{"zipf", "zipf(s) over the values' ranks"},
	{"custom", "value,weight pairs from a CSV file"},
	{"group-uniform", "uniform over each group's own range"},
}

// targetPane picks the target distribution and shows the table's
// distribution, the requested target and the effective target P' that
// the bounded-denominator weights give, with their distance.
type targetPane struct {
	st   *State
	edit lineEditor
	// chart cache: the chart of one prepared run at one size
	chartOf    any
	chartW     int
	chartH     int
	chartCache string
}

func newTargetPane(st *State) *targetPane {
	return &targetPane{st: st, edit: newLineEditor(40)}
}

func (p *targetPane) title() string   { return "Target" }
func (p *targetPane) capturing() bool { return p.edit.active }
func (p *targetPane) refresh()        {}

func (p *targetPane) shortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.Edit, k.Inc, k.Dec}
}

func (p *targetPane) fullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.Edit, k.Inc, k.Dec}
}

func (p *targetPane) uses() bool {
	_, ok := p.st.Spec().Param("target")
	return ok
}

// kindIndex is the position of the current target in targetKinds.
func (p *targetPane) kindIndex() int {
	t, err := model.ParseTarget(p.st.Value("target"))
	if err != nil {
		return 0
	}
	return int(t.Kind)
}

func (p *targetPane) set(spec string) {
	if p.st.Project.Params == nil {
		p.st.Project.Params = model.Values{}
	}
	p.st.Project.Params["target"] = spec
	p.st.Changed()
}

// defaultSpec gives a sensible argument for a target kind from the data.
func (p *targetPane) defaultSpec(i int) string {
	name := targetKinds[i].name
	switch name {
	case "normal":
		if c := p.saColumn(); c != nil {
			if lo, hi, ok := c.Range(); ok {
				return fmt.Sprintf("normal:%s,%s", model.FormatNumber((lo+hi)/2), model.FormatNumber((hi-lo)/6))
			}
		}
		return "normal:0,1"
	case "zipf":
		return "zipf:0.5"
	case "custom":
		return ""
	}
	return name
}

func (p *targetPane) saColumn() *model.Column {
	if p.st.Table == nil {
		return nil
	}
	return p.st.Table.Column(p.st.Project.Roles.SA)
}

func (p *targetPane) update(msg tea.Msg) tea.Cmd {
	st := p.st
	k, ok := msg.(tea.KeyMsg)
	if !ok || !p.uses() {
		return nil
	}
	keys := st.Keys
	if p.edit.active {
		return p.edit.update(msg, func(v string) error {
			v = strings.TrimSpace(v)
			spec, _ := st.Spec().Param("target")
			if err := spec.Validate(v, 0); err != nil {
				return err
			}
			p.set(v)
			return nil
		})
	}
	i := p.kindIndex()
	switch {
	case key.Matches(k, keys.Up):
		if i > 0 {
			return p.pick(i - 1)
		}
	case key.Matches(k, keys.Down):
		if i < len(targetKinds)-1 {
			return p.pick(i + 1)
		}
	case key.Matches(k, keys.Edit):
		return p.edit.open("target: ", st.Value("target"))
	case key.Matches(k, keys.Inc), key.Matches(k, keys.Dec):
		d, _ := strconv.Atoi(st.Value("max-denominator"))
		if key.Matches(k, keys.Inc) {
			d++
		} else if d > 0 {
			d--
		}
		st.Project.Params["max-denominator"] = strconv.Itoa(d)
		st.Changed()
	}
	return nil
}

// pick switches to target kind i; kinds needing an argument open the editor.
func (p *targetPane) pick(i int) tea.Cmd {
	spec := p.defaultSpec(i)
	if spec == "" {
		return p.edit.open("value,weight CSV file: ", "")
	}
	p.set(spec)
	return nil
}

func (p *targetPane) view(w, h int) string {
	st, s := p.st, p.st.Styles
	if !p.uses() {
		return s.Muted.Render("Method " + st.Project.Method + " does not use a target distribution.")
	}
	lw := 36
	var left strings.Builder
	left.WriteString(s.Title.Render("Target distribution") + "\n")
	cur := p.kindIndex()
	for i, t := range targetKinds {
		line := fmt.Sprintf("  %-8s %s", t.name, t.help)
		if i == cur {
			line = s.Selected.Render(fit("▸ "+st.Value("target"), lw))
		}
		left.WriteString(fit(line, lw) + "\n")
	}
	left.WriteString("\n" + s.Label.Render("max denominator ") + st.Value("max-denominator") + s.Muted.Render("  (+/-; 0 = exact)") + "\n")
	left.WriteString(s.Muted.Render(wrap("Real masses become per-node ratios of integers no larger than this bound: small ratios keep small groups feasible, at a distance from the requested target.", lw)) + "\n")
	if p.edit.active {
		left.WriteString("\n" + p.edit.view(s, lw, ""))
	}
	rw := w - lw - 3
	if p.chartOf != any(st.Prep) || p.chartW != rw || p.chartH != h || st.Prep == nil {
		p.chartOf, p.chartW, p.chartH, p.chartCache = st.Prep, rw, h, p.chartView(rw, h)
	}
	return sideBySide(left.String(), lw, p.chartCache, rw, h)
}

// chartView draws table / requested / effective per value bin.
func (p *targetPane) chartView(w, h int) string {
	st, s := p.st, p.st.Styles
	prep := st.Prep
	if prep == nil || st.Table == nil {
		if st.RunErr != nil {
			return s.Error.Render(wrap(st.RunErr.Error(), w))
		}
		return s.Muted.Render("computing…")
	}
	sa := prep.Project.Roles.SA
	hier := prep.Hierarchies[sa]
	col := prep.Table.Column(sa)
	if hier == nil || col == nil {
		return ""
	}
	leafOf, err := hier.MapColumn(col)
	if err != nil {
		return s.Error.Render(err.Error())
	}
	counts := make([]float64, len(hier.Leaves))
	per := col.Counts()
	total := 0.0
	for code, n := range per {
		counts[hier.LeafPos(leafOf[code])] += float64(n)
		total += float64(n)
	}
	table := make([]float64, len(counts))
	for i, c := range counts {
		table[i] = c / total
	}
	target := prep.Target
	perGroup := target.Kind == model.TargetGroup || target.Kind == model.TargetGroupUniform
	if perGroup {
		target = model.Target{Kind: model.TargetTable}
	}
	req, err := target.Masses(hier, counts)
	if err != nil {
		return s.Error.Render(wrap(err.Error(), w))
	}
	ann := model.Annotate(hier, req, prep.Values.Int("max-denominator"))
	labels := make([]string, len(hier.Leaves))
	for i, l := range hier.Leaves {
		labels[i] = hier.Nodes[l].Label
	}
	var b strings.Builder
	title := fmt.Sprintf("%s: table vs requested vs effective P'", sa)
	b.WriteString(s.Title.Render(fit(title, w)) + "\n")
	if perGroup {
		b.WriteString(s.Muted.Render(fit(prep.Target.String()+": each group has its own target (shown: the whole table)", w)) + "\n")
	} else {
		b.WriteString(fmt.Sprintf("EMD(P', P) %.4f · max |P' - P| %.4f", ann.EMD(), ann.MaxAbs()) + "\n")
	}
	nb := h - 4
	if nb < 1 {
		nb = 1
	}
	lbls, series := bins(labels, [][]float64{table, ann.Requested, ann.Effective}, nb)
	max := 0.0
	for _, se := range series {
		for _, x := range se {
			if x > max {
				max = x
			}
		}
	}
	lblW := 12
	barW := (w - lblW - 4) / 3
	if barW < 3 {
		barW = 3
	}
	b.WriteString(fmt.Sprintf("%-*s %s %s %s\n", lblW, "value", fit(s.Bars[0].Render("table"), barW), fit(s.Bars[1].Render("requested"), barW), fit(s.Bars[2].Render("effective"), barW)))
	for i, l := range lbls {
		line := fmt.Sprintf("%-*s", lblW, clip(l, lblW))
		for k := range series {
			f := 0.0
			if max > 0 {
				f = series[k][i] / max
			}
			line += " " + s.Bars[k].Render(bar(f, barW))
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
