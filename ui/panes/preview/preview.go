// Package preview is the live preview pane: the groups of the latest
// result with size, quasi-identifier summary, sensitive-value histogram
// and the method's privacy figures, sortable and filterable, and a
// group's detail. The Method pane and the tour show it too.
package preview

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/ui/common"
	"privlab/ui/components"
)

// detailRows is how many members a group's detail lists (a million-row
// group is not turned into strings).
const detailRows = 500

// Model is the live preview: a table of groups with size, QI
// summary, SA histogram and the method's privacy figures (violations
// marked), sortable by any column; enter opens a group's detail: its
// members as published and as original, and its distributions as bars.
type Model struct {
	st      *common.State
	w, h    int // the pane's size (SetSize)
	tbl     table.Model
	sortCol int // 0 id, 1 size, 2.. figures
	desc    bool
	order   []int // group indexes in display order
	res     *method.Result
	width   int
	detail  *method.Detail
	detailG int
	dOffset int
	filter  int // 0 every group, 1 violating, 2 generalized to the root
	jump    components.LineEditor
}

// filters are the group filters the f key cycles through.
var filters = []string{"all groups", "violating groups", "groups at the root"}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	t := table.New(table.WithFocused(true))
	ts := table.DefaultStyles()
	ts.Header = st.Styles.TableHeader.PaddingRight(1)
	ts.Cell = st.Styles.TableCell.PaddingRight(1)
	ts.Selected = st.Styles.TableSelected
	t.SetStyles(ts)
	// The table scrolls with the workbench's bindings (g is go to group,
	// not the table's first row), so its keys are in the help.
	k := st.Keys
	t.KeyMap = table.KeyMap{LineUp: k.Up, LineDown: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown, GotoTop: k.Top, GotoBottom: k.Bottom}
	return &Model{st: st, tbl: t, jump: components.NewLineEditor(12)}
}

func (p *Model) Title() string   { return "Preview" }
func (p *Model) Capturing() bool { return p.jump.Active }

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.detail != nil {
		return []key.Binding{k.Up, k.Down, k.Back}
	}
	if p.jump.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Detail, k.Sort, k.Reverse, k.Filter, k.JumpTo}
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	if p.detail != nil || p.jump.Active {
		return p.ShortHelp()
	}
	return []key.Binding{k.Up, k.Down, k.Detail, k.Sort, k.Reverse, k.Filter, k.JumpTo,
		k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown, k.Top, k.Bottom}
}

// spec is the declaration of the method that made the shown result: a
// result is always drawn under its own method's headings, even while
// another method's first result is on its way.
func (p *Model) spec() method.Spec {
	if p.res != nil {
		return p.res.Spec
	}
	return p.st.Spec()
}

// sortNames are the sortable columns of the shown result's method.
func (p *Model) sortNames() []string {
	names := []string{"id"}
	if !hasSizeFigure(p.spec()) {
		names = append(names, "size")
	}
	for _, f := range p.spec().Figures {
		names = append(names, f.Key)
	}
	return names
}

// hasSizeFigure reports whether the method counts its groups' size
// itself (a figure keyed method.SizeKey): its tables then show that
// figure as the size and not the workbench's count of the records.
func hasSizeFigure(spec method.Spec) bool {
	for _, f := range spec.Figures {
		if f.Key == method.SizeKey {
			return true
		}
	}
	return false
}

// figureIndex is the position of the figure keyed name (-1: none).
func figureIndex(spec method.Spec, name string) int {
	for i, f := range spec.Figures {
		if f.Key == name {
			return i
		}
	}
	return -1
}

// Refresh re-sorts when a new result arrived; the cursor stays on the
// same group id where it can.
func (p *Model) Refresh() {
	if p.st.Result == p.res {
		return
	}
	keep := -1
	if c := p.tbl.Cursor(); p.res != nil && c >= 0 && c < len(p.order) {
		keep = p.res.Groups[p.order[p.tbl.Cursor()]].ID
	}
	if old, r := p.res, p.st.Result; old != nil && r != nil && sameGroups(old, r) {
		// The same groups with figures added (the deferred ones): the
		// order and the cursor stand; the rows are drawn again.
		p.res, p.detail = r, nil
		if p.width > 0 {
			p.layout(p.width)
		}
		return
	}
	p.res = p.st.Result
	p.detail = nil
	p.resort()
	if keep >= 0 && p.res != nil {
		for i, gi := range p.order {
			if p.res.Groups[gi].ID == keep {
				p.tbl.SetCursor(i)
			}
		}
	}
}

// keyedGroup is a group's index with its sort key.
type keyedGroup struct {
	key   float64
	group int
}

// sameGroups reports whether two results show the very same groups (a
// result and its copy with the deferred figures added).
func sameGroups(a, b *method.Result) bool {
	return a.Spec.Name == b.Spec.Name && len(a.Groups) == len(b.Groups) && (len(a.Groups) == 0 || &a.Groups[0] == &b.Groups[0])
}

func (p *Model) resort() {
	r := p.res
	if r == nil {
		p.order = nil
		p.tbl.SetRows(nil)
		return
	}
	p.order = p.order[:0]
	for i, g := range r.Groups {
		if (p.filter == 1 && !g.Violation) || (p.filter == 2 && !g.AtRoot) {
			continue
		}
		p.order = append(p.order, i)
	}
	if p.sortCol >= len(p.sortNames()) {
		p.sortCol = 0
	}
	name := p.sortNames()[p.sortCol]
	fi := figureIndex(p.spec(), name)
	key := func(g *method.Group) float64 {
		switch {
		case fi >= 0 && fi < len(g.Figures):
			return g.Figures[fi]
		case name == "id":
			return float64(g.ID)
		case name == "size":
			return float64(len(g.Rows))
		}
		return 0
	}
	// Each group's key once, then a stable sort on the keys (tens of
	// thousands of groups at 45,000 rows, sorted again on every result).
	keyed := make([]keyedGroup, len(p.order))
	for i, gi := range p.order {
		keyed[i] = keyedGroup{key(&r.Groups[gi]), gi}
	}
	slices.SortStableFunc(keyed, func(a, b keyedGroup) int {
		if p.desc {
			return cmp.Compare(b.key, a.key)
		}
		return cmp.Compare(a.key, b.key)
	})
	for i, k := range keyed {
		p.order[i] = k.group
	}
	if p.width > 0 {
		p.layout(p.width)
	}
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok || p.res == nil {
		return nil
	}
	keys := p.st.Keys
	if p.jump.Active {
		return p.jump.Update(k, func(v string) error {
			id, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("a group id is a number")
			}
			for i, gi := range p.order {
				if p.res.Groups[gi].ID == id {
					p.tbl.SetCursor(i)
					return nil
				}
			}
			for _, g := range p.res.Groups {
				if g.ID == id {
					p.filter = 0 // the group is filtered out: show all
					p.resort()
					return p.jumpTo(id)
				}
			}
			return fmt.Errorf("no group %d (ids 1 to %d)", id, len(p.res.Groups))
		})
	}
	if p.detail != nil {
		switch {
		case key.Matches(k, keys.Back):
			p.detail = nil
		case key.Matches(k, keys.Up):
			if p.dOffset > 0 {
				p.dOffset--
			}
		case key.Matches(k, keys.Down):
			rows := 0
			for _, sec := range p.detail.Sections {
				rows = max(rows, len(sec.Rows))
			}
			if p.dOffset < rows-1 {
				p.dOffset++
			}
		}
		return nil
	}
	switch {
	case key.Matches(k, keys.Sort):
		p.sortCol = (p.sortCol + 1) % len(p.sortNames())
		p.desc = figureIndex(p.spec(), p.sortNames()[p.sortCol]) >= 0 // figures: worst first
		p.resort()
		p.tbl.GotoTop()
		return nil
	case key.Matches(k, keys.Reverse):
		p.desc = !p.desc
		p.resort()
		return nil
	case key.Matches(k, keys.Filter):
		p.filter = (p.filter + 1) % len(filters)
		p.resort()
		p.tbl.GotoTop()
		return nil
	case key.Matches(k, keys.JumpTo):
		return p.jump.Open("group id: ", "")
	case key.Matches(k, keys.Detail):
		if c := p.tbl.Cursor(); c >= 0 && c < len(p.order) && p.res.Detail != nil {
			d := p.res.Detail(p.order[c], detailRows)
			p.detail, p.detailG, p.dOffset = &d, p.order[c], 0
		}
		return nil
	}
	var cmd tea.Cmd
	p.tbl, cmd = p.tbl.Update(msg)
	return cmd
}

// jumpTo moves the cursor to the group with this id.
func (p *Model) jumpTo(id int) error {
	for i, gi := range p.order {
		if p.res.Groups[gi].ID == id {
			p.tbl.SetCursor(i)
			return nil
		}
	}
	return fmt.Errorf("no group %d", id)
}

// layout builds the table's columns and rows for width w: id, the size
// (the method's own size figure when it counts one, see hasSizeFigure),
// the QI summary, the SA histogram, the figures and the mark.
func (p *Model) layout(w int) {
	spec := p.spec()
	own := !hasSizeFigure(spec)
	rows := make([]table.Row, len(p.order))
	for i, gi := range p.order {
		g := p.res.Groups[gi]
		row := table.Row{fmt.Sprint(g.ID)}
		if own {
			row = append(row, common.Thousands(len(g.Rows)))
		}
		row = append(row, common.Safe(strings.Join(g.QI, " ")), common.Sparkline(g.SAHist))
		for fi, f := range spec.Figures {
			row = append(row, figureText(f, g, fi))
		}
		mark := "✓"
		if g.Violation {
			mark = "✗"
		}
		rows[i] = append(row, mark)
	}
	cur := p.tbl.Cursor()
	p.tbl.SetRows(nil) // columns and rows change together
	p.tbl.SetColumns(p.columns(w))
	p.tbl.SetRows(rows)
	p.tbl.SetCursor(max(0, min(cur, len(rows)-1)))
	p.width = w
}

// columns are the table's columns at width w, the sorted one marked ▲ or
// ▼; figures are headed by their key below 110 columns, else by their
// label.
func (p *Model) columns(w int) []table.Column {
	spec := p.spec()
	var figs []table.Column
	fixed := 6 + 9 + 3 // id, SA, ok (+padding)
	if !hasSizeFigure(spec) {
		fixed += 7
	}
	for _, f := range spec.Figures {
		title := f.Label
		if w < 110 {
			title = f.Key
		}
		figs = append(figs, table.Column{Title: title, Width: max(common.LenCells(title), 6)})
		fixed += max(common.LenCells(title), 6) + 1
	}
	cols := []table.Column{{Title: "id", Width: 5}}
	sorts := []string{"id"}
	if !hasSizeFigure(spec) {
		cols, sorts = append(cols, table.Column{Title: "size", Width: 6}), append(sorts, "size")
	}
	cols = append(cols, table.Column{Title: "quasi-identifiers", Width: max(8, w-fixed-2)}, table.Column{Title: "SA", Width: 8})
	sorts = append(sorts, "", "")
	for i, f := range spec.Figures {
		cols, sorts = append(cols, figs[i]), append(sorts, f.Key)
	}
	cols = append(cols, table.Column{Title: "ok", Width: 2})
	arrow := "▲"
	if p.desc {
		arrow = "▼"
	}
	for i, name := range sorts {
		if name != "" && name == p.sortNames()[p.sortCol] {
			cols[i].Title = common.Clip(cols[i].Title, cols[i].Width-1) + arrow
		}
	}
	return cols
}

// figureText is figure fi of group g as the tables show it.
func figureText(f method.Figure, g method.Group, fi int) string {
	switch {
	case fi >= len(g.Figures):
		return ""
	case f.Digits < 0:
		return common.Human(g.Figures[fi])
	}
	return f.Format(g.Figures[fi])
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w, h := p.w, p.h
	st, s := p.st, p.st.Styles
	if msg := p.NotReady(w); msg != "" {
		return msg
	}
	if p.detail != nil {
		return p.detailView(w, h)
	}
	if p.width != w {
		p.layout(w)
	}
	p.tbl.SetHeight(h - 1)
	r := p.res
	sortName := p.sortNames()[p.sortCol]
	dir := "ascending"
	if p.desc {
		dir = "descending"
	}
	title := fmt.Sprintf("Groups (%s)", common.Thousands(len(r.Groups)))
	if p.filter > 0 {
		title = fmt.Sprintf("Groups (%s of %s: %s)", common.Thousands(len(p.order)), common.Thousands(len(r.Groups)), filters[p.filter])
	}
	if st.Stale() {
		title += s.Warn.Render(" · stale: earlier settings (" + common.KeyName(st.Keys.Recompute) + ")")
	}
	title += fmt.Sprintf("  sorted by %s, %s", sortName, dir)
	// The hint is for a first start on demo data; a tour's steps run the
	// papers' examples on purpose.
	if _, demo := pipeline.DatasetName(st.Project.Input); demo && !st.Dirty && st.Tour == nil {
		title += s.Muted.Render(" · demo data: " + common.KeyName(st.Keys.Open) + " opens your own")
	}
	if v := r.Violations(); v > 0 {
		title += s.Error.Render(fmt.Sprintf("  · %d violate", v))
	}
	if st.Running {
		title += s.Muted.Render("  · recomputing…")
	}
	out := s.Title.Render(common.Fit(title, w)) + "\n"
	rows := h - 1
	if legend := p.keyLegend(w); legend != "" {
		out += s.Muted.Render(common.Fit(legend, w)) + "\n"
		rows--
	}
	if p.jump.Active {
		out += p.jump.View(s, w, "")
		rows -= 2
	}
	p.tbl.SetHeight(rows)
	return out + p.tbl.View()
}

// keyLegend names the figures the table heads by their key below 110
// columns ("sor: sum ranges · conf: max P'(v) ..."; the group's detail,
// enter, explains each): "" when the labels head them.
func (p *Model) keyLegend(w int) string {
	if w >= 110 {
		return ""
	}
	var parts []string
	for _, f := range p.spec().Figures {
		if f.Key != f.Label {
			parts = append(parts, f.Key+": "+f.Label)
		}
	}
	return strings.Join(parts, " · ")
}

// NotReady explains why there is no table yet ("" when there is one).
func (p *Model) NotReady(w int) string {
	st, s := p.st, p.st.Styles
	switch {
	case st.LoadErr != nil:
		return st.LoadErrorView(w)
	case st.Table == nil:
		return s.Muted.Render("loading " + st.Project.Input + " …")
	case p.res == nil && st.RunErr != nil:
		hint := st.Hint(st.RunErr)
		if hint == "" {
			hint = fmt.Sprintf("set the roles in %s: %s toggles a QI, %s marks the sensitive attribute.", st.In("Data", common.PaneData), common.KeyName(st.Keys.ToggleQI), common.KeyName(st.Keys.SetSA))
		}
		return s.Error.Render("No preview:") + "\n\n" + common.Wrap(common.WithoutHint(st.RunErr), w) + "\n\n" +
			s.Muted.Render(common.Wrap("What to do: "+hint, w))
	case p.res == nil:
		return s.Muted.Render("computing the first preview …")
	}
	return ""
}

// CompactView is the small live preview beside the parameters.
func (p *Model) CompactView(w, h int) string {
	st, s := p.st, p.st.Styles
	if msg := p.NotReady(w); msg != "" {
		return msg
	}
	r := p.res
	var b strings.Builder
	head := "Live preview: " + common.Plural(len(r.Groups), "group")
	if st.Running {
		head += " · recomputing…"
	}
	b.WriteString(s.Title.Render(head) + "\n")
	if st.Stale() {
		b.WriteString(s.Warn.Render(common.Fit("⚠ stale: earlier settings ("+common.KeyName(st.Keys.Recompute)+")", w)) + "\n")
	}
	ws, old := st.ShownWarnings()
	for _, warn := range ws {
		b.WriteString(common.WarnStyle(s, old).Render(common.Fit("! "+warn, w)) + "\n")
	}
	b.WriteString(p.summaryLines(w))
	spec := r.Spec // the result's own method, whatever is selected now
	own := !hasSizeFigure(spec)
	b.WriteString("\n")
	hdr := fmt.Sprintf("%5s", "id")
	if own {
		hdr += fmt.Sprintf(" %6s", "size")
	}
	for _, f := range spec.Figures {
		hdr += " " + components.PadLeft(common.Clip(f.Key, 7), 7)
	}
	b.WriteString(s.Label.Render(common.Fit(hdr, w)) + "\n")
	lines := strings.Count(b.String(), "\n")
	for i := 0; i < len(p.order) && lines < h; i++ {
		g := r.Groups[p.order[i]]
		line := fmt.Sprintf("%5d", g.ID)
		if own {
			line += fmt.Sprintf(" %6s", common.Thousands(len(g.Rows)))
		}
		for fi, f := range spec.Figures {
			line += " " + components.PadLeft(common.Clip(figureText(f, g, fi), 7), 7)
		}
		if g.Violation {
			line = s.Error.Render(line + " ✗")
		}
		b.WriteString(common.Fit(line, w) + "\n")
		lines++
	}
	return b.String()
}

// summaryLines are the result's summary figures (✓ or ✗ where one has a
// limit) and the live workload's error, the names as wide as the longest
// where the pane has room: they widen with the terminal.
func (p *Model) summaryLines(w int) string {
	st, s, r := p.st, p.st.Styles, p.res
	const workloadName = "workload rel. error (mean)"
	nameW := 0
	for _, f := range r.Summary {
		nameW = max(nameW, common.LenCells(f.Name))
	}
	if st.Workload != nil && st.Workload.Queries > 0 {
		nameW = max(nameW, common.LenCells(workloadName))
	}
	nameW = min(nameW, max(12, w-14)) // room for the mark and the value
	names := make([]string, len(r.Summary))
	for i, f := range r.Summary {
		names[i] = f.Name
	}
	names = common.ClipDistinct(names, nameW)
	var b strings.Builder
	for i, f := range r.Summary {
		mark := "  "
		if f.Limit != "" {
			mark = s.OK.Render("✓ ")
			if !f.OK {
				mark = s.Error.Render("✗ ")
			}
		}
		b.WriteString(common.Fit(mark+common.PadRight(names[i], nameW)+" "+common.Human(f.Value), w) + "\n")
	}
	if st.Workload != nil && st.Workload.Queries > 0 {
		b.WriteString(common.Fit("  "+common.PadRight(workloadName, nameW)+fmt.Sprintf(" %.4f", st.Workload.MeanErr), w) + "\n")
	}
	return b.String()
}

// detailView shows one group: the sections its method gives (its
// members as published and as original, its distributions, notes).
func (p *Model) detailView(w, h int) string {
	s := p.st.Styles
	d := p.detail
	g := p.res.Groups[p.detailG]
	title := common.Safe(fmt.Sprintf("Group %d · %s rows · %s", g.ID, common.Thousands(len(g.Rows)), strings.Join(g.QI, " ")))
	if d.Title != "" {
		title += " · " + common.Safe(d.Title)
	}
	head := common.Fit(s.Title.Render(title)+s.Muted.Render("  ("+common.KeyName(p.st.Keys.Back)+" back)"), w)
	return head + "\n" + components.RenderSections(s, d.Sections, w, h-1, p.dOffset, common.UpDown(p.st.Keys))
}
