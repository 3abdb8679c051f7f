// Package hierarchy is the Hierarchy pane: per attribute (the
// quasi-identifiers and the sensitive attribute), the chosen builder or
// file and the tree with each node's range and row count; nodes fold
// and unfold, and b, w, +/-, f and F change the hierarchy.
package hierarchy

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/release"
	"privlab/model"
	mhierarchy "privlab/model/hierarchy"
	"privlab/ui/common"
	"privlab/ui/components"
)

// builders the b key cycles through.
var builders = []string{"auto", "flat", "masking", "binary", "ternary", "intervals"}

// Model is the Hierarchy pane: per attribute, the chosen builder or file
// and the tree with each node's range and row count; nodes fold and
// unfold.
type Model struct {
	st       *common.State
	w, h     int  // the pane's size (SetSize)
	attr     int  // selected attribute
	inTree   bool // focus on the tree (else the attribute list)
	cursor   int  // selected visible node
	offset   int
	expanded map[string]map[int]bool
	edit     components.LineEditor
	editing  string              // "file" (a path) or "widths" (interval widths)
	files    map[string][]string // hierarchy files used per attribute (the b cycle offers them)
	// row counts per node, cached for the hierarchy they belong to
	countsOf *mhierarchy.Hierarchy
	counts   []int
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	return &Model{st: st, expanded: map[string]map[int]bool{}, edit: components.NewLineEditor(50), files: map[string][]string{}}
}

func (p *Model) Title() string   { return "Hierarchy" }
func (p *Model) Capturing() bool { return p.edit.Active }
func (p *Model) Refresh()        {}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	return []key.Binding{k.Builder, k.File, k.Widths, k.Wider, k.Narrow, k.Expand}
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.Builder, k.File, k.FilePath, k.Widths, k.Wider, k.Narrow, k.Expand}
}

// attrs are the attributes that need a hierarchy: the QIs and the SA.
func (p *Model) attrs() []string {
	return p.st.Project.Roles.Used()
}

func (p *Model) current() (string, *mhierarchy.Hierarchy) {
	as := p.attrs()
	if len(as) == 0 {
		return "", nil
	}
	if p.attr >= len(as) {
		p.attr = len(as) - 1
	}
	a := as[p.attr]
	if p.st.Prep != nil {
		return a, p.st.Prep.Hierarchies[a]
	}
	return a, nil
}

// spec is the attribute's hierarchy as the pipeline resolves it, with
// where it comes from when the user did not set it.
func (p *Model) spec(attr string) string {
	if s, ok := p.st.Project.Hierarchies[attr]; ok {
		return shortPath(s)
	}
	if p.st.Table == nil || p.st.Table.Column(attr) == nil {
		return "auto"
	}
	spec := p.st.Env.HierarchySpec(p.st.Project, p.st.Table.Column(attr), attr == p.st.Project.Roles.SA)
	switch {
	case spec == pipeline.FoundHierarchy(p.st.Project.Input, attr) && spec != "":
		return shortPath(spec) + " (found beside the data)"
	case strings.HasPrefix(p.st.Project.Input, "dataset:") && spec != "auto" && spec != "binary" && spec != "flat":
		return spec + " (dataset default)"
	}
	return spec
}

// shortPath is a file's name without its folder (builder specs as given).
func shortPath(spec string) string {
	if strings.ContainsAny(spec, `/\`) {
		return filepath.Base(spec)
	}
	return spec
}

func (p *Model) setSpec(attr, spec string) {
	p.st.SetHierarchy(attr, spec)
	if isFileSpec(spec) && !slices.Contains(p.files[attr], spec) {
		p.files[attr] = append(p.files[attr], spec)
	}
}

// isFileSpec reports whether a hierarchy spec names a file.
func isFileSpec(spec string) bool {
	name, _, _ := strings.Cut(spec, ":")
	return !slices.Contains(builders, name) && name != "embedded"
}

// useFile loads a hierarchy file for an attribute, refusing one that does
// not fit the column (the reason is the status).
func (p *Model) useFile(attr, path string) error {
	if err := checkHierarchyFile(attr, path, p.st.Table); err != nil {
		return err
	}
	p.setSpec(attr, path)
	p.cursor, p.offset = 0, 0
	delete(p.expanded, attr)
	return nil
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := p.st.Keys
	attr, h := p.current()
	if p.edit.Active {
		return p.edit.Update(msg, func(v string) error { return p.applyEdit(attr, v) })
	}
	if attr == "" {
		return nil
	}
	switch {
	case key.Matches(k, keys.Left):
		p.inTree = false
	case key.Matches(k, keys.Right):
		p.inTree = true
	case key.Matches(k, keys.Up):
		p.moveUp()
	case key.Matches(k, keys.Down):
		p.moveDown(attr, h)
	case key.Matches(k, keys.Builder):
		p.cycleBuilder(attr)
	case key.Matches(k, keys.Wider):
		p.scaleWidth(attr, 2)
	case key.Matches(k, keys.Narrow):
		p.scaleWidth(attr, 0.5)
	case key.Matches(k, keys.File):
		return p.pickFile(attr)
	case key.Matches(k, keys.FilePath):
		p.editing = "file"
		return p.edit.Open("hierarchy file: ", "")
	case key.Matches(k, keys.Widths):
		return p.editWidths(attr)
	case key.Matches(k, keys.Expand):
		p.expandAtCursor(attr, h)
	}
	return nil
}

// applyEdit takes the text typed for the attribute: interval widths
// (checked by building the hierarchy) or a hierarchy file's path.
func (p *Model) applyEdit(attr, v string) error {
	v = strings.TrimSpace(v)
	if p.editing != "widths" {
		return p.useFile(attr, v)
	}
	spec := "intervals:" + strings.ReplaceAll(v, " ", "")
	col := p.st.Table.Column(attr)
	if col == nil {
		return fmt.Errorf("no column %s", attr)
	}
	if _, err := mhierarchy.Build(spec, col); err != nil {
		return err
	}
	p.setSpec(attr, spec)
	delete(p.expanded, attr)
	return nil
}

// moveUp moves the cursor up the tree, or to the previous attribute
// outside it.
func (p *Model) moveUp() {
	if p.inTree {
		if p.cursor > 0 {
			p.cursor--
		}
	} else if p.attr > 0 {
		p.attr--
		p.cursor, p.offset = 0, 0
	}
}

// moveDown moves the cursor down the tree, or to the next attribute
// outside it.
func (p *Model) moveDown(attr string, h *mhierarchy.Hierarchy) {
	if p.inTree {
		if h != nil && p.cursor < len(p.visible(attr, h))-1 {
			p.cursor++
		}
	} else if p.attr < len(p.attrs())-1 {
		p.attr++
		p.cursor, p.offset = 0, 0
	}
}

// pickFile opens a picker for the attribute's hierarchy file, in the
// last folder used or the data's.
func (p *Model) pickFile(attr string) tea.Cmd {
	st := p.st
	dir := st.LastDir
	if dir == "" && !strings.HasPrefix(st.Project.Input, "dataset:") {
		dir = common.DirOf(st.Project.Input)
	}
	pick := common.PickFileMsg{Title: "Pick a hierarchy file for " + common.Safe(attr) + " (value;level1;...;*)", Dir: dir, OnPick: func(path string) {
		if err := p.useFile(attr, path); err != nil {
			st.Fail(err)
			return
		}
		st.Notify("hierarchy of %s from %s", attr, path)
	}}
	return func() tea.Msg { return pick }
}

// editWidths opens the input of a numeric attribute's interval widths,
// filled with the current ones (or the automatic width).
func (p *Model) editWidths(attr string) tea.Cmd {
	st := p.st
	col := st.Table.Column(attr)
	if col == nil || col.Kind != model.Numeric {
		st.Notify("%s is categorical: interval widths apply to numeric attributes", attr)
		return nil
	}
	p.editing = "widths"
	cur := strings.TrimPrefix(strings.Fields(p.spec(attr))[0], "intervals:")
	if !strings.Contains(p.spec(attr), "intervals") {
		cur = model.FormatNumber(mhierarchy.AutoWidth(col))
	}
	return p.edit.Open("interval widths (e.g. 5,10,20): ", cur)
}

// expandAtCursor opens or closes the tree's node under the cursor, or
// enters the tree.
func (p *Model) expandAtCursor(attr string, h *mhierarchy.Hierarchy) {
	if h != nil && p.inTree {
		vis := p.visible(attr, h)
		if p.cursor < len(vis) {
			n := vis[p.cursor]
			p.expandedOf(attr)[n] = !p.isExpanded(attr, n)
		}
	} else {
		p.inTree = true
	}
}

// cycleBuilder moves to the next hierarchy for the attribute: the
// builders that fit its kind (intervals with the dataset's default widths
// when it has some, else the column's own width), then the files used
// for it (and the one found beside the data).
func (p *Model) cycleBuilder(attr string) {
	col := p.st.Table.Column(attr)
	var options []string
	for _, b := range builders {
		if b == "intervals" {
			if col == nil || col.Kind != model.Numeric {
				continue
			}
			b = p.defaultIntervals(col, attr)
		}
		options = append(options, b)
	}
	files := append([]string(nil), p.files[attr]...)
	if f := pipeline.FoundHierarchy(p.st.Project.Input, attr); f != "" && !slices.Contains(files, f) {
		files = append(files, f)
	}
	options = append(options, files...)
	cur := p.st.Project.Hierarchies[attr]
	if cur == "" && col != nil {
		cur = p.st.Env.HierarchySpec(p.st.Project, col, attr == p.st.Project.Roles.SA)
	}
	i := -1
	for j, o := range options {
		name, _, _ := strings.Cut(o, ":")
		curName, _, _ := strings.Cut(cur, ":")
		if o == cur || (!isFileSpec(o) && name == curName) {
			i = j
		}
	}
	next := options[(i+1)%len(options)]
	p.setSpec(attr, next)
	p.cursor, p.offset = 0, 0
	delete(p.expanded, attr)
}

// defaultIntervals is the intervals builder the attribute's default
// hierarchy (pipeline.Env.HierarchySpec without the user's choice) names,
// such as a dataset's intervals:5,10,20, or intervals of the column's own
// width (hierarchy.AutoWidth) when it names none.
func (p *Model) defaultIntervals(col *model.Column, attr string) string {
	q := p.st.Project
	q.Hierarchies = maps.Clone(q.Hierarchies)
	delete(q.Hierarchies, attr)
	if def := p.st.Env.HierarchySpec(q, col, attr == q.Roles.SA); strings.HasPrefix(def, "intervals:") {
		return def
	}
	return "intervals:" + model.FormatNumber(mhierarchy.AutoWidth(col))
}

func (p *Model) scaleWidth(attr string, f float64) {
	col := p.st.Table.Column(attr)
	if col == nil || col.Kind != model.Numeric {
		p.st.Notify("%s is categorical: interval widths apply to numeric attributes", attr)
		return
	}
	cur := strings.Fields(p.spec(attr))[0]
	w := mhierarchy.AutoWidth(col)
	if strings.HasPrefix(cur, "intervals:") {
		first, _, _ := strings.Cut(strings.TrimPrefix(cur, "intervals:"), ",")
		if x, ok := model.ParseNumber(first); ok {
			w = x
		}
	}
	w *= f
	if w < 1 && isIntegral(col) {
		w = 1
	}
	w = math.Max(w, 1e-9)
	p.setSpec(attr, "intervals:"+model.FormatNumber(w))
	delete(p.expanded, attr)
}

func isIntegral(c *model.Column) bool {
	for _, v := range c.Nums {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}

func checkHierarchyFile(attr, path string, t *model.Table) error {
	if path == "" {
		return fmt.Errorf("give a file path")
	}
	h, err := mhierarchy.ReadFile(attr, path)
	if err != nil {
		return err
	}
	if t != nil {
		if c := t.Column(attr); c != nil {
			if _, err := h.MapColumn(c); err != nil {
				// privlab run's refusal, with its hint (pipeline's hierarchy).
				return &model.ParamError{Param: "hierarchy " + attr, Value: path, Reason: err.Error(),
					Hint: "the hierarchy must list every value of the column"}
			}
		}
	}
	return nil
}

func (p *Model) expandedOf(attr string) map[int]bool {
	m := p.expanded[attr]
	if m == nil {
		m = map[int]bool{}
		p.expanded[attr] = m
	}
	return m
}

// isExpanded: the root and its children start unfolded.
func (p *Model) isExpanded(attr string, n int) bool {
	if v, ok := p.expandedOf(attr)[n]; ok {
		return v
	}
	return n == 0
}

// visible lists the nodes shown, depth first, skipping folded subtrees.
func (p *Model) visible(attr string, h *mhierarchy.Hierarchy) []int {
	var out []int
	var walk func(n int)
	walk = func(n int) {
		out = append(out, n)
		if p.isExpanded(attr, n) {
			for _, c := range h.Nodes[n].Children {
				walk(c)
			}
		}
	}
	walk(0)
	return out
}

// nodeCounts counts the table's rows under every node.
func nodeCounts(h *mhierarchy.Hierarchy, c *model.Column) []int {
	counts := make([]int, len(h.Nodes))
	leafOf, err := h.MapColumn(c)
	if err != nil {
		return counts
	}
	per := c.Counts()
	for code, n := range per {
		for x := leafOf[code]; x >= 0; x = h.Nodes[x].Parent {
			counts[x] += n
		}
	}
	return counts
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w, h := p.w, p.h
	st, s := p.st, p.st.Styles
	as := p.attrs()
	if len(as) == 0 {
		return s.Muted.Render("Choose quasi-identifiers and the sensitive attribute in " + p.st.In("Data", common.PaneData) + " first.")
	}
	attr, hier := p.current()
	// left: the attributes and their specs
	lw := 30
	if w < 70 {
		lw = w / 3
	}
	var left strings.Builder
	left.WriteString(s.Title.Render("Attributes") + "\n")
	for i, a := range as {
		role := st.Project.Roles.Of(a).Short()
		line := fmt.Sprintf(" %s %s %s", role, common.PadRight(common.Clip(common.Safe(a), 12), 12), common.Safe(p.spec(a)))
		if i == p.attr {
			style := s.Selected
			if p.inTree {
				style = s.Cursor
			}
			line = style.Render(common.Fit("▸"+line[1:], lw))
		}
		left.WriteString(common.Fit(line, lw) + "\n")
	}
	left.WriteString("\n" + s.Muted.Render(common.Wrap(p.treeHint(), lw)))
	// right: the tree
	rw := w - lw - 3
	var right strings.Builder
	if p.edit.Active {
		right.WriteString(p.edit.View(s, rw, ""))
		right.WriteString(s.Muted.Render(common.KeyName(st.Keys.Enter)+" load · "+common.KeyName(st.Keys.Back)+" cancel") + "\n")
	}
	if hier == nil {
		if st.RunErr != nil {
			right.WriteString(s.Error.Render(common.Wrap(st.Explain(st.RunErr), rw)))
		} else {
			right.WriteString(s.Muted.Render("building…"))
		}
		return common.SideBySide(left.String(), lw, right.String(), rw, h)
	}
	if p.countsOf != hier {
		// The hierarchy was built on the table the run reads (after the
		// missing-value policy): count that table's rows, not the
		// loaded ones (a value only dropped rows hold is not in it).
		p.countsOf, p.counts = hier, nodeCounts(hier, st.Prep.Table.Column(attr))
	}
	counts := p.counts
	// The column's kind (what t toggles), not how the hierarchy orders
	// its leaves.
	kind := "categorical"
	if hier.Numeric {
		kind = "numeric"
	}
	if c := st.Table.Column(attr); c != nil {
		kind = c.Kind.String()
	}
	right.WriteString(s.Title.Render(common.Fit(fmt.Sprintf("%s: %d nodes, %d values, height %d, %s", common.Safe(attr), len(hier.Nodes), len(hier.Leaves), hier.Height(), kind), rw)) + "\n")
	from := "from " + common.Safe(p.spec(attr))
	if f, ok := strings.CutSuffix(p.spec(attr), " (found beside the data)"); ok {
		from = "found beside the data: " + common.Safe(f)
	}
	right.WriteString(s.Muted.Render(common.Fit(from, rw)) + "\n")
	vis := p.visible(attr, hier)
	if p.cursor >= len(vis) {
		p.cursor = len(vis) - 1
	}
	rows := h - 3
	if p.edit.Active {
		rows -= 3
	}
	p.offset = common.Scroll(p.cursor, p.offset, rows, len(vis))
	for i := p.offset; i < len(vis) && i < p.offset+rows; i++ {
		line := p.nodeLine(attr, hier, vis[i], counts, i == p.cursor && p.inTree, rw)
		right.WriteString(common.Fit(line, rw) + "\n")
	}
	return common.SideBySide(left.String(), lw, right.String(), rw, h)
}

// nodeLine is node n of the tree: fold mark, label, values, range and
// rows. The cursor is a » mark as well as a colour: it shows without
// colours (NO_COLOR, the ASCII profile).
func (p *Model) nodeLine(attr string, hier *mhierarchy.Hierarchy, n int, counts []int, cursor bool, w int) string {
	s := p.st.Styles
	nd := hier.Nodes[n]
	mark := "  "
	if len(nd.Children) > 0 {
		mark = "▸ "
		if p.isExpanded(attr, n) {
			mark = "▾ "
		}
	}
	detail := fmt.Sprintf("range %s · %s rows", common.Human(hier.Range(n)), common.Thousands(counts[n]))
	if len(nd.Children) > 0 {
		detail = fmt.Sprintf("%d values · ", hier.LeafCount(n)) + detail
	}
	head := strings.Repeat("  ", nd.Depth) + mark + common.Safe(displayLabel(hier, n)) + "  "
	if cursor {
		return s.Selected.Render(common.Fit("» "+head+detail, w))
	}
	return "  " + head + s.Muted.Render(detail)
}

// displayLabel is a node's label as the workbench shows it: a categorical
// node whose label is a mask or a bare * reads as the values it covers,
// "{Adm-clerical, …, Sales} (4 values)", "{9th}" for one (release.ValuesLabel).
func displayLabel(h *mhierarchy.Hierarchy, n int) string {
	nd := h.Nodes[n]
	if h.Numeric || len(nd.Children) == 0 || !strings.Contains(nd.Label, "*") {
		return nd.Label
	}
	first := h.Nodes[h.Leaves[nd.First]].Label
	last := h.Nodes[h.Leaves[nd.Last]].Label
	if !hasLetter(first) {
		return nd.Label // a masked code (911**) reads as it is
	}
	return release.ValuesLabel(first, last, nd.Last-nd.First+1)
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// treeHint says what the pane's keys do.
func (p *Model) treeHint() string {
	k := p.st.Keys
	return fmt.Sprintf("%s enters the tree (%s folds a node, %s comes back); %s cycles the builders that fit the column and the files used; "+
		"%s picks a file (value;level1;...;*), %s types its path; %s types interval widths, %s/%s doubles or halves them.",
		common.FirstKey(k.Right), common.KeyName(k.Expand), common.FirstKey(k.Left), common.KeyName(k.Builder), common.KeyName(k.File), common.KeyName(k.FilePath), common.KeyName(k.Widths),
		common.KeyName(k.Wider), common.KeyName(k.Narrow))
}
