package ui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
)

// importDialog is the import wizard: before a file is loaded it shows its
// first rows as the loader will read them (the detected delimiter, the
// header row or "no header: name the columns", each column's kind) and
// lets the user change each of them. Enter loads the file with those
// settings, which the project remembers (--delimiter, --columns, --kind).
type importDialog struct {
	st      *State
	path    string
	sample  []byte // the file's first bytes, cut at a line end
	delim   rune
	header  bool
	names   []string // the user's names for a header-less file
	kinds   map[string]model.Kind
	preview *model.Table
	err     error
	cursor  int
	edit    lineEditor
	editing string // "name" (one column) or "names" (all)
}

// sampleBytes is how much of the file the wizard reads.
const sampleBytes = 64 << 10

// delimiters the d key cycles through.
var delimiters = []rune{',', ';', '\t', '|'}

func newImportDialog(st *State, path string) *importDialog {
	d := &importDialog{st: st, path: path, kinds: map[string]model.Kind{}, edit: newLineEditor(60)}
	f, err := os.Open(path)
	if err != nil {
		d.err = &model.InputError{File: path, Msg: model.OpenReason(err)}
		return d
	}
	defer f.Close()
	b := make([]byte, sampleBytes)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	if n == sampleBytes {
		if i := bytes.LastIndexByte(b, '\n'); i > 0 {
			b = b[:i+1]
		}
	}
	d.sample = b
	d.delim = model.DetectDelimiter(b)
	d.header = true
	d.reload()
	if d.preview != nil && d.preview.HeaderLooksLikeData() {
		// The first row is data: the columns need names.
		d.header = false
		d.reload()
	}
	return d
}

// reload reads the sample with the current settings.
func (d *importDialog) reload() {
	opt := model.LoadOptions{Name: d.path, Delimiter: d.delim, Kinds: d.kinds, MaxCell: -1}
	if !d.header {
		n := d.fields()
		for len(d.names) < n {
			d.names = append(d.names, fmt.Sprintf("c%d", len(d.names)+1))
		}
		d.names = d.names[:n]
		opt.Header = d.names
	}
	t, err := model.Load(bytes.NewReader(d.sample), opt)
	d.preview, d.err = t, err
	if t != nil && d.cursor >= len(t.Columns) {
		d.cursor = 0
	}
}

// fields is the number of fields of the first line.
func (d *importDialog) fields() int {
	line := d.sample
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return bytes.Count(line, []byte(string(d.delim))) + 1
}

func (d *importDialog) update(msg tea.Msg) (bool, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return false, nil
	}
	if d.edit.active {
		return false, d.edit.update(k, d.submitName)
	}
	keys := d.st.Keys
	switch {
	case key.Matches(k, keys.Back):
		return true, nil
	case key.Matches(k, keys.Up):
		if d.cursor > 0 {
			d.cursor--
		}
	case key.Matches(k, keys.Down):
		if d.preview != nil && d.cursor < len(d.preview.Columns)-1 {
			d.cursor++
		}
	case k.String() == "d":
		for i, r := range delimiters {
			if r == d.delim {
				d.delim = delimiters[(i+1)%len(delimiters)]
				break
			}
		}
		d.names = nil
		d.reload()
	case k.String() == "h":
		d.header = !d.header
		d.reload()
	case k.String() == "t":
		if c := d.column(); c != nil {
			if c.Kind == model.Numeric {
				d.kinds[c.Name] = model.Categorical
			} else {
				d.kinds[c.Name] = model.Numeric
			}
			d.reload()
		}
	case k.String() == "r" && !d.header:
		d.editing = "name"
		return false, d.edit.open("name of column "+fmt.Sprint(d.cursor+1)+": ", d.names[d.cursor])
	case k.String() == "N" && !d.header:
		d.editing = "names"
		return false, d.edit.open("column names, comma separated: ", strings.Join(d.names, ","))
	case key.Matches(k, keys.Enter):
		if d.err != nil || d.preview == nil {
			return false, nil
		}
		d.st.importFile(d.path, d.delim, d.header, d.names, d.kinds)
		return true, func() tea.Msg { return showPaneMsg{paneData} } // roles come first
	}
	return false, nil
}

// submitName takes a typed column name (or all of them).
func (d *importDialog) submitName(v string) error {
	if d.editing == "names" {
		var names []string
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n == "" {
				return fmt.Errorf("an empty name in the list")
			}
			names = append(names, n)
		}
		if len(names) != d.fields() {
			return fmt.Errorf("%d names for %d columns", len(names), d.fields())
		}
		d.names = names
	} else {
		v = strings.TrimSpace(v)
		if v == "" {
			return fmt.Errorf("a column needs a name")
		}
		for i, n := range d.names {
			if n == v && i != d.cursor {
				return fmt.Errorf("column %d is called %s already", i+1, v)
			}
		}
		old := d.names[d.cursor]
		if k, ok := d.kinds[old]; ok {
			delete(d.kinds, old)
			d.kinds[v] = k
		}
		d.names[d.cursor] = v
	}
	d.reload()
	return d.err
}

func (d *importDialog) column() *model.Column {
	if d.preview == nil || d.cursor >= len(d.preview.Columns) {
		return nil
	}
	return d.preview.Columns[d.cursor]
}

func (d *importDialog) help() []key.Binding {
	k := d.st.Keys
	if d.edit.active {
		return []key.Binding{k.Enter, k.Back}
	}
	out := []key.Binding{
		key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delimiter")),
		key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "header row")),
		key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "numeric/categorical")),
	}
	if !d.header {
		out = append(out, key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rename")),
			key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "name all")))
	}
	return append(out, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "load")), k.Back)
}

func delimName(r rune) string {
	switch r {
	case '\t':
		return "tab"
	case ' ':
		return "space"
	}
	return string(r)
}

func (d *importDialog) view(w, h int) string {
	s := d.st.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Import "+d.path) + "\n")
	head := "header row: yes (its names are the columns')"
	if !d.header {
		head = "header row: no — name the columns (r renames one, N names all)"
	}
	b.WriteString(fmt.Sprintf("%s %-5s  %s\n", s.Label.Render("delimiter"), delimName(d.delim), head))
	if d.err != nil {
		b.WriteString(s.Error.Render(wrap(withoutHint(d.err), w)) + "\n")
		if h := d.st.hint(d.err); h != "" {
			b.WriteString(s.Muted.Render(wrap("What to do: "+h, w)) + "\n")
		}
	}
	if d.edit.active {
		b.WriteString(d.edit.view(s, w, "refused: "))
	}
	if d.preview != nil {
		b.WriteString(s.Label.Render(fit(fmt.Sprintf("  %-3s %-20s %-12s %s", "#", "column", "kind", "first values"), w)) + "\n")
		rows := h - strings.Count(b.String(), "\n") - 1
		for i, c := range d.preview.Columns {
			if i >= rows {
				b.WriteString(s.Muted.Render(fmt.Sprintf("  … %d more columns", len(d.preview.Columns)-i)) + "\n")
				break
			}
			var vals []string
			for r := 0; r < d.preview.Rows && r < 6; r++ {
				vals = append(vals, c.Value(r))
			}
			kind := c.Kind.String()
			if _, set := d.kinds[c.Name]; set {
				kind += "*"
			}
			line := fmt.Sprintf("  %-3d %-20s %-12s %s", i+1, clip(c.Name, 20), kind, strings.Join(vals, ", "))
			if i == d.cursor {
				line = s.Selected.Render(fit("▸"+line[1:], w))
			}
			b.WriteString(fit(line, w) + "\n")
		}
		for _, n := range d.preview.Notes {
			b.WriteString(s.Warn.Render(fit("! "+strings.TrimPrefix(n, d.path+":"), w)) + "\n")
		}
	}
	return block(b.String(), w, h)
}

// importFile loads a file with the wizard's settings: the project keeps
// them (its delimiter, the column names of a header-less file, the kinds
// the user set), so privlab run --config reads the file the same way.
func (st *State) importFile(path string, delim rune, header bool, names []string, kinds map[string]model.Kind) {
	st.SetInput(path)
	st.Project.Delimiter = delimName(delim)
	st.Project.Columns = nil
	if !header {
		st.Project.Columns = append([]string(nil), names...)
	}
	st.Project.Kinds = nil
	for c, k := range kinds {
		if st.Project.Kinds == nil {
			st.Project.Kinds = map[string]string{}
		}
		st.Project.Kinds[c] = k.String()
	}
	st.LastDir = dirOf(path)
	st.Notify("loading %s: set the roles in the Data pane", path)
}

// dirOf is the directory of a path.
func dirOf(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[:i]
	}
	return "."
}
