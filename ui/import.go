package ui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/source"
	"privlab/ui/common"
	"privlab/ui/components"
	"privlab/ui/session"
)

// importDialog is the import wizard: before a file is loaded it shows its
// first rows as the loader will read them (the detected delimiter of a CSV
// file, the sheet of a workbook or the table of a database, the header row
// or "no header: name the columns", the values read as missing, each
// column's kind) and lets the user change each of them. Enter loads the
// file with those settings, which the project remembers (FILE.xlsx:SHEET,
// FILE.db:TABLE, --delimiter, --columns or --header, --missing-values,
// --kind).
type importDialog struct {
	st     *State
	path   string
	format source.Format
	parts  []string // the sheets of a workbook, the tables of a database
	part   string   // the chosen one
	sample []byte   // a CSV file's first bytes, cut at a line end
	delim  rune
	header bool
	// detected is what the loader makes of the first row by itself
	// (csvfile.FirstRowIsData): the project says --header yes only when the
	// user reads a row as the header that the loader would read as data.
	detected bool
	names    []string // the user's names for a header-less file
	kinds    map[string]model.Kind
	tokens   []string // missing-value tokens (nil: the default ones)
	preview  *model.Table
	err      error
	cursor   int
	edit     components.LineEditor
	editing  string // "name" (one column), "names" (all) or "tokens"
	showKeys bool   // ? shows the wizard's keys
	// population: the wizard reads the population the attacks read, not
	// the input; enter sets its columns (population_columns).
	population bool
}

// sampleBytes is how much of the file the wizard reads.
const sampleBytes = 64 << 10

// delimiters the d key cycles through.
var delimiters = []rune{',', ';', '\t', '|'}

func newImportDialog(st *State, path string) *importDialog {
	d := &importDialog{st: st, path: path, kinds: map[string]model.Kind{}, edit: components.NewLineEditor(60), tokens: st.Project.MissingValues}
	d.path, d.part = source.Split(path)
	d.format = source.FormatOf(d.path)
	if d.format != source.CSV {
		d.parts, d.err = source.Parts(d.path)
		if d.part == "" && len(d.parts) > 0 {
			d.part = d.parts[0]
		}
		d.header = true
		if d.err == nil {
			d.detect()
		}
		return d
	}
	f, err := os.Open(d.path)
	if err != nil {
		d.err = &model.InputError{File: d.path, Msg: csvfile.OpenReason(err)}
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
	d.delim = csvfile.DetectDelimiter(b)
	d.detect()
	return d
}

// detect reads the first rows as the loader does by itself (its own
// header detection, csvfile.FirstRowIsData) and starts from what it finds.
func (d *importDialog) detect() {
	opt := csvfile.LoadOptions{Name: d.path, MissingTokens: d.tokens, MaxCell: -1, HeaderRow: csvfile.HeaderDetect}
	var t *model.Table
	var err error
	if d.format == source.CSV {
		opt.Delimiter = d.delim
		t, err = csvfile.Load(bytes.NewReader(d.sample), opt)
	} else {
		t, err = source.Preview(d.spec(), opt, previewRows)
	}
	d.detected = err == nil && t.FirstRowData
	d.header = !d.detected
	d.names = nil
	if d.detected {
		d.names = t.Names()
	}
	d.reload()
}

// previewRows is how many rows of a sheet or table the wizard reads.
const previewRows = 200

// spec is the table the wizard reads: the file, and its sheet or table.
func (d *importDialog) spec() string {
	if d.part == "" {
		return d.path
	}
	return d.path + ":" + d.part
}

// headerRow says whether the format has a header row to ask about (a
// Parquet schema and a database table name their columns).
func (d *importDialog) headerRow() bool {
	return d.format == source.CSV || d.format == source.Excel
}

// reload reads the sample with the current settings.
func (d *importDialog) reload() {
	opt := csvfile.LoadOptions{Name: d.path, Kinds: d.kinds, MaxCell: -1, MissingTokens: d.tokens}
	if d.headerRow() {
		opt.HeaderRow = csvfile.HeaderYes
		if !d.header {
			n := d.fields()
			for len(d.names) < n {
				d.names = append(d.names, fmt.Sprintf("c%d", len(d.names)+1))
			}
			d.names = d.names[:n]
			opt.Header = d.names
		}
	}
	var t *model.Table
	var err error
	if d.format == source.CSV {
		opt.Delimiter = d.delim
		t, err = csvfile.Load(bytes.NewReader(d.sample), opt)
	} else {
		t, err = source.Preview(d.spec(), opt, previewRows)
	}
	d.preview, d.err = t, err
	if t != nil && d.cursor >= len(t.Columns) {
		d.cursor = 0
	}
}

// fields is the number of fields of the first row.
func (d *importDialog) fields() int {
	if d.format != source.CSV {
		if d.preview != nil && len(d.names) == 0 {
			return len(d.preview.Columns)
		}
		if len(d.names) > 0 {
			return len(d.names)
		}
		t, err := source.Preview(d.spec(), csvfile.LoadOptions{HeaderRow: csvfile.HeaderNo, MaxCell: -1}, 1)
		if err != nil {
			return 1
		}
		return len(t.Columns)
	}
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
	if d.edit.Active {
		return false, d.edit.Update(k, d.submitName)
	}
	keys := d.st.Keys
	if d.showKeys {
		d.showKeys = !key.Matches(k, keys.Back, keys.Help)
		return false, nil
	}
	switch {
	case key.Matches(k, keys.Help):
		d.showKeys = true
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
	case key.Matches(k, keys.NextPart) && len(d.parts) > 1:
		d.nextPart()
	case key.Matches(k, keys.Delimiter) && d.format == source.CSV:
		d.nextDelimiter()
	case key.Matches(k, keys.HeaderRow) && d.headerRow():
		d.header = !d.header
		d.reload()
	case key.Matches(k, keys.ImportKind):
		d.toggleKind()
	case key.Matches(k, keys.RenameCol) && !d.header && d.cursor < len(d.names):
		d.editing = "name"
		return false, d.edit.Open("name of column "+fmt.Sprint(d.cursor+1)+": ", d.names[d.cursor])
	case key.Matches(k, keys.NameAll) && !d.header:
		d.editing = "names"
		return false, d.edit.Open("column names, comma separated: ", strings.Join(d.names, ","))
	case key.Matches(k, keys.ImportMiss):
		d.editing = "tokens"
		return false, d.edit.Open("missing values, comma separated (\"\" or an empty item: the empty cell): ", csvfile.FormatMissingTokens(d.missing()))
	case key.Matches(k, keys.Load):
		return d.load()
	}
	return false, nil
}

// nextPart reads the archive's next part, detecting its kinds afresh.
func (d *importDialog) nextPart() {
	for i, p := range d.parts {
		if p == d.part {
			d.part = d.parts[(i+1)%len(d.parts)]
			break
		}
	}
	d.kinds = map[string]model.Kind{}
	d.detect()
}

// nextDelimiter reads the CSV with the next delimiter (the column names
// typed for the old one no longer apply).
func (d *importDialog) nextDelimiter() {
	for i, r := range delimiters {
		if r == d.delim {
			d.delim = delimiters[(i+1)%len(delimiters)]
			break
		}
	}
	d.names = nil
	d.reload()
}

// toggleKind makes the column under the cursor categorical if it is
// numeric, numeric otherwise.
func (d *importDialog) toggleKind() {
	if c := d.column(); c != nil {
		if c.Kind == model.Numeric {
			d.kinds[c.Name] = model.Categorical
		} else {
			d.kinds[c.Name] = model.Numeric
		}
		d.reload()
	}
}

// load imports what the wizard read (as the population, or as the
// table, whose roles come first); nothing while it reads nothing.
func (d *importDialog) load() (bool, tea.Cmd) {
	if d.err != nil || d.preview == nil {
		return false, nil
	}
	if d.population {
		d.st.importPopulation(d)
		return true, nil
	}
	d.st.importFile(d)
	return true, func() tea.Msg { return common.ShowPaneMsg{Pane: common.PaneData} } // roles come first
}

// submitName takes a typed column name (or all of them).
func (d *importDialog) submitName(v string) error {
	if d.editing == "tokens" {
		toks, err := csvfile.ParseMissingTokens(v)
		if err != nil {
			return err
		}
		if csvfile.FormatMissingTokens(toks) == csvfile.FormatMissingTokens(csvfile.DefaultMissingTokens) {
			toks = nil
		}
		d.tokens = toks
	} else if d.editing == "names" {
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

// missing are the tokens read as missing.
func (d *importDialog) missing() []string {
	if d.tokens != nil {
		return d.tokens
	}
	return csvfile.DefaultMissingTokens
}

func (d *importDialog) column() *model.Column {
	if d.preview == nil || d.cursor >= len(d.preview.Columns) {
		return nil
	}
	return d.preview.Columns[d.cursor]
}

// help is the wizard's footer: the keys that act on this file, then ?
// for the list of them (keysView).
func (d *importDialog) help() []key.Binding {
	k := d.st.Keys
	if d.edit.Active {
		return []key.Binding{k.Enter, k.Back}
	}
	if d.showKeys {
		return []key.Binding{key.NewBinding(key.WithKeys(append(k.Back.Keys(), k.Help.Keys()...)...),
			key.WithHelp(common.KeyName(k.Back)+"/"+common.KeyName(k.Help), "close help"))}
	}
	return append(d.actions(), k.Help)
}

// actions are the keys that act on this file.
func (d *importDialog) actions() []key.Binding {
	k := d.st.Keys
	var out []key.Binding
	switch {
	case d.format == source.CSV:
		out = append(out, k.Delimiter)
	case len(d.parts) > 1:
		out = append(out, common.Described(k.NextPart, common.KeyName(k.NextPart), "next "+d.partWord()))
	}
	if d.headerRow() {
		out = append(out, k.HeaderRow)
	}
	out = append(out, k.ImportKind, k.ImportMiss)
	if !d.header {
		out = append(out, k.RenameCol, k.NameAll)
	}
	return append(out, k.Load, k.Back)
}

// keysView is the wizard's full help (?): its keys with what they do,
// as the panes' full help lists theirs.
func (d *importDialog) keysView(w int) string {
	s, k := d.st.Styles, d.st.Keys
	title := s.Title.Render("Keys") + s.Muted.Render(fmt.Sprintf("  of the import wizard · %s or %s closes", common.KeyName(k.Back), common.KeyName(k.Help)))
	h := help.New()
	h.Width = w
	return title + "\n\n" + h.FullHelpView([][]key.Binding{{k.Up, k.Down}, d.actions()})
}

// partWord names what a part of the file is: a sheet or a table.
func (d *importDialog) partWord() string {
	if d.format == source.Excel {
		return "sheet"
	}
	return "table"
}

// sourceLine is the wizard's first line: the delimiter of a CSV file, the
// sheet or table of a workbook or database, and the header row.
func (d *importDialog) sourceLine() string {
	s := d.st.Styles
	k := d.st.Keys
	head := "header row: yes (its names are the columns')"
	switch {
	case !d.header && d.detected:
		head = fmt.Sprintf("header row: no, row 1 is data — name the columns (%s one, %s all)", common.KeyName(k.RenameCol), common.KeyName(k.NameAll))
	case !d.header:
		head = fmt.Sprintf("header row: no — name the columns (%s renames one, %s names all)", common.KeyName(k.RenameCol), common.KeyName(k.NameAll))
	}
	switch d.format {
	case source.CSV:
		return fmt.Sprintf("%s %-5s  %s", s.Label.Render("delimiter"), delimName(d.delim), head)
	case source.Parquet:
		return s.Label.Render("Parquet") + "  columns and kinds from its schema"
	}
	what := fmt.Sprintf("%s %s", s.Label.Render(d.partWord()), common.Safe(d.part))
	if len(d.parts) > 1 {
		what += fmt.Sprintf(" (%s: next of %d)", common.KeyName(k.NextPart), len(d.parts))
	}
	if d.format == source.Excel {
		return what + "  " + head
	}
	return what + "  columns and kinds from the database"
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
	if d.showKeys {
		return common.Block(d.keysView(w), w, h)
	}
	var b strings.Builder
	title := "Import "
	if d.population {
		title = "Population (the people an attacker can name): "
	}
	b.WriteString(s.Title.Render(common.Fit(title+common.Safe(d.path), w)) + "\n")
	b.WriteString(common.Fit(d.sourceLine(), w) + "\n")
	b.WriteString(common.Fit(fmt.Sprintf("%s %s (%s)", s.Label.Render("missing values"), csvfile.FormatMissingTokens(d.missing()), common.KeyName(d.st.Keys.ImportMiss)), w) + "\n")
	if d.err != nil {
		b.WriteString(s.Error.Render(common.Wrap(common.WithoutHint(d.err), w)) + "\n")
		if h := d.st.Hint(d.err); h != "" {
			b.WriteString(s.Muted.Render(common.Wrap("What to do: "+h, w)) + "\n")
		}
	}
	if d.edit.Active {
		b.WriteString(d.edit.View(s, w, "refused: "))
	}
	if d.preview != nil {
		// The wizard reads a sample: its counts say so (issue 35.4: 35
		// missing where the table holds 1,836).
		b.WriteString(s.Muted.Render(common.Fit(fmt.Sprintf("  kinds and missing: the first %s rows read (the Data pane counts every row)", common.Thousands(d.preview.Rows)), w)) + "\n")
		b.WriteString(s.Label.Render(common.Fit(fmt.Sprintf("  %-3s %-20s %-12s %7s  %s", "#", "column", "kind", "missing", "first values"), w)) + "\n")
		rows := h - strings.Count(b.String(), "\n") - 1
		for i, c := range d.preview.Columns {
			if i >= rows {
				b.WriteString(s.Muted.Render(fmt.Sprintf("  … %d more columns", len(d.preview.Columns)-i)) + "\n")
				break
			}
			var vals []string
			for r := 0; r < d.preview.Rows && r < 6; r++ {
				vals = append(vals, common.Safe(c.Value(r)))
			}
			kind := c.Kind.String()
			if _, set := d.kinds[c.Name]; set {
				kind += "*"
			}
			line := fmt.Sprintf("  %-3d %-20s %-12s %7d  %s", i+1, common.PadRight(common.Clip(common.Safe(c.Name), 20), 20), kind, c.MissingCount, strings.Join(vals, ", "))
			if i == d.cursor {
				line = s.Selected.Render(common.Fit("▸"+line[1:], w))
			}
			b.WriteString(common.Fit(line, w) + "\n")
		}
		for _, n := range d.st.NoteTexts(d.preview.Notes) {
			b.WriteString(s.Warn.Render(common.Fit("! "+common.Safe(strings.TrimPrefix(n, d.path+":")), w)) + "\n")
		}
	}
	return common.Block(b.String(), w, h)
}

// importFile loads a file with the wizard's settings: the project keeps
// them (its delimiter, the column names of a header-less file or a header
// row the loader would have read as data, the missing-value tokens, the
// kinds the user set), so privlab run --config reads the file the same
// way.
func (st *State) importFile(d *importDialog) {
	var r session.Reading
	if d.format == source.CSV {
		r.CSV, r.Delimiter = true, delimName(d.delim)
	}
	switch {
	case d.headerRow() && !d.header:
		r.Columns = d.names
	case d.headerRow() && d.detected:
		r.Header = "yes"
	}
	r.MissingValues = d.tokens
	for c, k := range d.kinds {
		if r.Kinds == nil {
			r.Kinds = map[string]string{}
		}
		r.Kinds[c] = k.String()
	}
	st.ImportFile(d.spec(), r)
	st.UseFolder(common.DirOf(d.path))
	st.Notify("loading %s: set the roles in the Data pane", d.path)
}

// newPopulationDialog is the import wizard on the project's population:
// its header row, or the names of its columns when it has none (issue
// 35.1: a header-less population could not be named in the workbench).
func newPopulationDialog(st *State) *importDialog {
	d := newImportDialog(st, st.Project.Population)
	d.population = true
	if cols := st.Project.PopulationColumns; len(cols) > 0 && d.headerRow() {
		d.header, d.names = false, append([]string(nil), cols...)
		d.reload()
	}
	return d
}

// importPopulation sets the population with the wizard's reading of it:
// the column names of a header-less file (population_columns), none
// when its first row names them.
func (st *State) importPopulation(d *importDialog) {
	var columns []string
	if d.headerRow() && !d.header {
		columns = d.names
	}
	st.ImportPopulation(d.spec(), columns)
}
