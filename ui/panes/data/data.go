// Package data is the Data pane: the table's columns with kind,
// distinct and missing counts and a mini histogram, the roles set with
// single keys, the missing-value policy and tokens, and the public table.
package data

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/source"
	"privlab/ui/common"
	"privlab/ui/components"
)

// Model is the Data pane: it lists the table's columns with kind,
// distinct and missing counts and a mini histogram, and assigns roles
// with single keys.
type Model struct {
	st      *common.State
	w, h    int // the pane's size (SetSize)
	cursor  int
	offset  int
	edit    components.LineEditor // types the public table's path or the missing-value tokens
	editing string                // "public" or "tokens"
	table   *model.Table          // the table the cached stats belong to
	hists   []string
	descs   []string
	// dropped counts the rows the missing-value policy leaves out, for
	// the roles and policy of droppedOf.
	dropped   int
	droppedOf string
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model { return &Model{st: st, edit: components.NewLineEditor(50)} }

func (p *Model) Title() string   { return "Data" }
func (p *Model) Capturing() bool { return p.edit.Active }

// ReadsPublic is true when the current method reads a public table.
func (p *Model) ReadsPublic() bool { return p.st.Spec().Public != method.NoPublic }

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	out := []key.Binding{k.ToggleQI, k.SetSA, k.ToggleID, k.ClearRole}
	if p.ReadsPublic() {
		out = append(out, k.Public)
	}
	return out
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	out := []key.Binding{k.Up, k.Down, k.ToggleQI, k.SetSA, k.ToggleID, k.ClearRole, k.ToggleKind, k.ToggleMissing, k.MissingTokens}
	if p.ReadsPublic() {
		out = append(out, k.Public, k.PublicPath)
	}
	return out
}

// Refresh recomputes the per-column histograms when the table changed.
func (p *Model) Refresh() {
	t := p.st.Table
	if t == p.table {
		return
	}
	p.table = t
	p.hists, p.descs = nil, nil
	if t == nil {
		return
	}
	for _, c := range t.Columns {
		h, d := columnSketch(c)
		p.hists = append(p.hists, h)
		p.descs = append(p.descs, d)
	}
	if p.cursor >= len(t.Columns) {
		p.cursor = 0
	}
}

// columnSketch is a column's mini histogram (8 cells) and a description:
// the range for numeric columns, the top values for categorical ones.
func columnSketch(c *model.Column) (string, string) {
	counts := c.Counts()
	total := 0
	for _, n := range counts {
		total += n
	}
	bins := make([]int32, 8)
	if lo, hi, ok := c.Range(); ok {
		for code, n := range counts {
			b := 0
			if hi > lo {
				b = int((c.Nums[code] - lo) / (hi - lo) * 8)
			}
			if b > 7 {
				b = 7
			}
			bins[b] += int32(n)
		}
		return common.Sparkline(bins), model.FormatNumber(lo) + " .. " + model.FormatNumber(hi)
	}
	idx := make([]int, len(counts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return counts[idx[a]] > counts[idx[b]] })
	var top []string
	for i, code := range idx {
		if i < 8 {
			bins[i] = int32(counts[code])
		}
		if i < 3 && total > 0 {
			top = append(top, fmt.Sprintf("%s %.0f%%", common.Safe(c.Dict[code]), 100*float64(counts[code])/float64(total)))
		}
	}
	return common.Sparkline(bins), strings.Join(top, ", ")
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	st := p.st
	if !ok || st.Table == nil {
		return nil
	}
	keys := st.Keys
	if p.edit.Active {
		if p.editing == "tokens" {
			return p.edit.Update(k, st.SetMissingTokens)
		}
		return p.edit.Update(k, func(v string) error {
			st.SetPublic(strings.TrimSpace(v))
			return nil
		})
	}
	if st.ReceivedDir != "" && p.changesSettings(k) {
		// A received release was made with these roles, kinds and missing
		// values (its audit record's): changed here, the pane would
		// describe another release than the one read.
		st.Refuse("these are the release's own roles, kinds and missing values, read from its audit record (" + common.KeyName(keys.Open) + " opens the original to make a release of your own)")
		return nil
	}
	cols := st.Table.Columns
	col := cols[p.cursor].Name
	switch {
	case p.ReadsPublic() && key.Matches(k, keys.Public):
		return p.pickPublic()
	case p.ReadsPublic() && key.Matches(k, keys.PublicPath):
		p.editing = "public"
		return p.edit.Open("public table (a CSV, .xlsx, .parquet or FILE.db:TABLE file, or dataset:NAME): ", st.Project.Public)
	case key.Matches(k, keys.MissingTokens):
		p.editing = "tokens"
		return p.edit.Open("missing values, comma separated (\"\" or an empty item: the empty cell): ", csvfile.FormatMissingTokens(st.MissingTokens()))
	case key.Matches(k, keys.Up):
		if p.cursor > 0 {
			p.cursor--
		}
	case key.Matches(k, keys.Down):
		if p.cursor < len(cols)-1 {
			p.cursor++
		}
	case key.Matches(k, keys.ToggleQI):
		st.ToggleQI(col)
	case key.Matches(k, keys.SetSA):
		st.SetSA(col)
	case key.Matches(k, keys.ToggleID):
		st.ToggleID(col)
	case key.Matches(k, keys.ClearRole):
		st.ClearRole(col)
	case key.Matches(k, keys.ToggleKind):
		p.toggleKind(cols[p.cursor])
	case key.Matches(k, keys.ToggleMissing):
		st.ToggleMissing()
	}
	return nil
}

// pickPublic opens a picker for the public table.
func (p *Model) pickPublic() tea.Cmd {
	st := p.st
	pick := common.PickFileMsg{Title: "Pick the public table", Types: source.Extensions(), OnPick: func(path string) {
		st.SetPublic(path)
		st.Notify("public table %s", path)
	}}
	return func() tea.Msg { return pick }
}

// changesSettings reports whether k changes a role, a kind, the
// missing values or the public table.
func (p *Model) changesSettings(k tea.KeyMsg) bool {
	keys := p.st.Keys
	return key.Matches(k, keys.ToggleQI, keys.SetSA, keys.ToggleID, keys.ClearRole, keys.ToggleKind, keys.ToggleMissing, keys.MissingTokens) ||
		p.ReadsPublic() && key.Matches(k, keys.Public, keys.PublicPath)
}

// toggleKind reads the column as categorical if it is numeric, as
// numeric otherwise (refused, with the reason and what to do as the
// status, when a value is not a number), and reloads the table.
func (p *Model) toggleKind(c *model.Column) {
	st, col := p.st, c.Name
	kind := "numeric"
	if c.Kind == model.Numeric {
		kind = "categorical"
	}
	if kind == "numeric" {
		if _, ok := model.ParseNumber(firstNonNumber(c)); !ok {
			st.Refuse(fmt.Sprintf("%s cannot be numeric: %q is not a number; %s adds it to the missing values", col, firstNonNumber(c), common.KeyName(st.Keys.MissingTokens)))
			return
		}
	}
	st.SetKind(col, kind) // the shown result is of the old kind: stale until the new run lands
}

// droppedRows counts the rows the missing-value policy leaves out of a
// run: a missing value in a used column (under category only in a numeric
// one), as model.Table.HandleMissing decides.
func droppedRows(t *model.Table, used []string, category bool) int {
	var cols []*model.Column
	for _, n := range used {
		if c := t.Column(n); c != nil && c.MissingCount > 0 && (!category || c.Kind == model.Numeric) {
			cols = append(cols, c)
		}
	}
	n := 0
	for r := 0; r < t.Rows; r++ {
		for _, c := range cols {
			if c.IsMissing(r) {
				n++
				break
			}
		}
	}
	return n
}

// missingLine says which values count as missing and what the policy
// does with them on this table.
func (p *Model) missingLine() string {
	st, t := p.st, p.st.Table
	category := st.Project.Missing == "category"
	used := st.Project.Roles.Used()
	key := fmt.Sprint(used, category, st.Project.MissingValues)
	if p.droppedOf != key {
		p.dropped, p.droppedOf = droppedRows(t, used, category), key
	}
	toks := csvfile.FormatMissingTokens(st.MissingTokens())
	what := fmt.Sprintf("%s of %s rows dropped: one in a QI/SA (%s)", common.Thousands(p.dropped), common.Thousands(t.Rows), common.KeyName(st.Keys.ToggleMissing))
	if category {
		what = fmt.Sprintf("kept as ? (%s); in a numeric QI/SA: %s rows dropped", common.KeyName(st.Keys.ToggleMissing), common.Thousands(p.dropped))
	}
	return "missing " + toks + " (" + common.KeyName(st.Keys.MissingTokens) + ") · " + what
}

// firstNonNumber returns a value that does not parse as a number, or "0".
func firstNonNumber(c *model.Column) string {
	for _, v := range c.Dict {
		if _, ok := model.ParseNumber(v); !ok {
			return v
		}
	}
	return "0"
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w, h := p.w, p.h
	st, s := p.st, p.st.Styles
	if st.Table == nil {
		if st.LoadErr != nil {
			return st.LoadErrorView(w)
		}
		return s.Muted.Render("loading " + common.Safe(st.Project.Input) + " …")
	}
	t := st.Table
	var b strings.Builder
	b.WriteString(s.Title.Render("Columns of "+common.Safe(t.Name)) + s.Muted.Render(fmt.Sprintf("  %s rows", common.Thousands(t.Rows))) + "\n")
	b.WriteString(s.Muted.Render(common.Fit(p.missingLine(), w)) + "\n")
	hdr := fmt.Sprintf("  %-18s %-4s %-11s %8s %7s  %-8s  %s", "column", "role", "kind", "distinct", "missing", "histogram", "range / top values")
	b.WriteString(s.Label.Render(common.Fit(hdr, w)) + "\n")
	notes := st.NoteTexts(t.Notes)
	if len(notes) > 2 {
		notes = append(notes[:1:1], fmt.Sprintf("… and %d more notes (privlab inspect lists them)", len(t.Notes)-1))
	}
	// Every key shows: the hint wraps at its items, not inside one.
	k := st.Keys
	keyItems := []string{common.KeyName(k.ToggleQI) + " QI", common.KeyName(k.SetSA) + " sensitive", common.KeyName(k.ToggleID) + " identifier", common.KeyName(k.ClearRole) + " no role",
		common.KeyName(k.ToggleKind) + " numeric/categorical", common.KeyName(k.ToggleMissing) + " drop/category", common.KeyName(k.MissingTokens) + " missing values"}
	if p.ReadsPublic() {
		keyItems = append(keyItems, common.KeyName(k.Public)+"/"+common.KeyName(k.PublicPath)+" public table")
	}
	keyLines := wrapItems(keyItems, " · ", w)
	footN := 2 + len(keyLines) + len(notes)
	if p.ReadsPublic() {
		footN++
	}
	if p.edit.Active {
		footN += 2
	}
	rows := h - 4 - footN
	p.offset = common.Scroll(p.cursor, p.offset, rows, len(t.Columns))
	for i := p.offset; i < len(t.Columns) && i < p.offset+rows; i++ {
		c := t.Columns[i]
		role := st.Project.Roles.Of(c.Name).Short()
		// Names are padded by display width: a wide character takes two cells.
		line := fmt.Sprintf("  %s %-4s %-11s %8d %7d  %-8s  %s", common.PadRight(common.Clip(common.Safe(c.Name), 18), 18), role, c.Kind, c.Distinct(), c.MissingCount, p.hists[i], p.descs[i])
		if i == p.cursor {
			line = s.Selected.Render(common.Fit("▸"+line[1:], w))
		} else if role == "SA" {
			line = s.Cursor.Render(line)
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	r := st.Project.Roles
	hint := common.Safe(fmt.Sprintf("QI: %s · SA: %s · identifiers (dropped): %s", common.OrNone(strings.Join(r.QIs, ", ")), common.OrNone(r.SA), common.OrNone(strings.Join(r.IDs, ", "))))
	ins := "insensitive: " + common.Safe(common.OrNone(strings.Join(r.Insensitive(t), ", ")))
	if how := st.Spec().Insensitive; how != "" {
		ins += " — " + how
	}
	foot := []string{s.Muted.Render(common.Fit(hint, w)), s.Muted.Render(common.Fit(ins, w))}
	for _, l := range keyLines {
		foot = append(foot, s.Muted.Render(common.Fit(l, w)))
	}
	for _, n := range notes {
		// The note's file name is on the screen already.
		foot = append(foot, s.Warn.Render(common.Fit("! "+common.Safe(strings.TrimPrefix(n, t.Name+":")), w)))
	}
	if p.ReadsPublic() {
		foot = append(foot, p.publicLine(w))
	}
	if p.edit.Active {
		foot = append(foot, p.edit.View(s, w, ""))
	}
	for len(strings.Split(b.String(), "\n")) < h-len(foot) {
		b.WriteString("\n")
	}
	b.WriteString(strings.Join(foot, "\n"))
	return b.String()
}

// publicLine names the public table of a method that reads one, and
// what runs without it.
func (p *Model) publicLine(w int) string {
	st, s := p.st, p.st.Styles
	keys := fmt.Sprintf(" (%s: pick a file, %s: type a path or dataset:NAME)", common.KeyName(st.Keys.Public), common.KeyName(st.Keys.PublicPath))
	if st.Project.Public != "" {
		return s.Muted.Render(common.Fit("public table: "+common.Safe(st.Project.Public)+keys, w))
	}
	if v, noPublic := st.Variant(); noPublic {
		return s.Muted.Render(common.Fit("public table: none — "+st.Project.Method+" runs its plain variant "+v+keys, w))
	}
	if st.Spec().Public == method.PublicRequired {
		return s.Warn.Render(common.Fit("public table: none — "+st.Project.Method+" needs one"+keys, w))
	}
	return s.Muted.Render(common.Fit("public table: none"+keys, w))
}

// wrapItems joins items with sep into lines of at most w cells, breaking
// only between items.
func wrapItems(items []string, sep string, w int) []string {
	var lines []string
	line := ""
	for _, it := range items {
		if line != "" && common.LenCells(line+sep+it) > w {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += sep
		}
		line += it
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
