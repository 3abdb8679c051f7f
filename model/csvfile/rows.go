package csvfile

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"privlab/model"
)

// Tables that are not CSV text (a sheet of a workbook, a Parquet file, a
// database table) are read by readers of their format (model/source) and
// encoded here, by the encoder Load uses for CSV: the same missing-value
// tokens, cell limit, UTF-8 check, dictionary, kinds inferred from the
// values (or declared by the format), the user's kinds, the same notes and
// the same errors. A TableBuilder takes columns (ColumnWriter, one per
// column, safe to fill from one goroutine per column); a RowLoader takes
// rows and decides, as Load does, whether the first one is the header.

// NoKind marks a column whose format declares no kind: the values decide
// (numeric when every one is a number), as for CSV.
const NoKind model.Kind = -1

// Cell is one value handed to a RowLoader. Null marks a value the format
// itself records as absent (a NULL): it is missing whatever the tokens.
type Cell struct {
	Text string
	Null bool
}

// TableBuilder encodes a table column by column.
type TableBuilder struct {
	enc      *encoder
	opt      LoadOptions
	declared []model.Kind
	cols     []*ColumnWriter
}

// NewTableBuilder starts a table of the named columns read from name (the
// file, and sheet or table, for errors). declared gives the kind the format
// declares per column (nil, or NoKind for a column the values decide). The
// names are checked as a CSV header is (none empty, none twice).
func NewTableBuilder(name string, header []string, declared []model.Kind, opt LoadOptions) (*TableBuilder, error) {
	if len(header) == 0 {
		return nil, &model.InputError{File: name, Msg: "no columns", Hint: "a table needs at least one column"}
	}
	if len(header) > model.MaxColumns {
		return nil, &model.InputError{File: name, Column: model.MaxColumns + 1, Msg: fmt.Sprintf("more than %d columns", model.MaxColumns)}
	}
	if err := checkHeader(name, 0, header); err != nil {
		return nil, err
	}
	missing := opt.MissingTokens
	if missing == nil {
		missing = DefaultMissingTokens
	}
	enc := newEncoder(name, append([]string(nil), header...), missing)
	enc.maxCell = opt.MaxCell
	if enc.maxCell == 0 {
		enc.maxCell = model.DefaultMaxCell
	}
	b := &TableBuilder{enc: enc, opt: opt, declared: declared}
	for i := range header {
		b.cols = append(b.cols, &ColumnWriter{e: enc, i: i})
	}
	return b, nil
}

// Column is the writer of column i.
func (b *TableBuilder) Column(i int) *ColumnWriter { return b.cols[i] }

// Reserve makes room for rows more rows in every column, after checking
// that the table fits in memory (CheckFits).
func (b *TableBuilder) Reserve(rows int) error {
	if err := model.CheckFits(b.enc.name, rows, len(b.cols), false); err != nil {
		return err
	}
	for _, c := range b.enc.cols {
		if cap(c.Codes)-len(c.Codes) < rows {
			codes := make([]uint32, len(c.Codes), len(c.Codes)+rows)
			copy(codes, c.Codes)
			c.Codes = codes
		}
	}
	return nil
}

// Table finishes the table: every column must hold the same number of
// rows, at least one.
func (b *TableBuilder) Table() (*model.Table, error) {
	rows := len(b.enc.cols[0].Codes)
	for _, c := range b.enc.cols {
		if len(c.Codes) != rows {
			return nil, &model.InputError{File: b.enc.name, Msg: fmt.Sprintf("column %s has %d rows, column %s %d", b.enc.cols[0].Name, rows, c.Name, len(c.Codes)),
				Hint: "the file is damaged: its columns differ in length"}
		}
	}
	if rows == 0 {
		return nil, &model.InputError{File: b.enc.name, Msg: "no data rows", Hint: "the table holds its column names and nothing else"}
	}
	b.enc.rows = rows
	return finish(b.enc, b.opt, b.declared)
}

// ColumnWriter appends the values of one column.
type ColumnWriter struct {
	e *encoder
	i int
}

// Code returns the code of a value's text (Missing for a missing-value
// token), adding it to the column's values the first time; line is where
// the value is (its row) for errors and the column's first lines. A value
// longer than the cell limit, or not UTF-8, is an *InputError naming the
// line and column.
func (w *ColumnWriter) Code(v []byte, line int) (uint32, error) {
	e, i := w.e, w.i
	if e.maxCell >= 0 && len(v) > e.maxCell {
		return 0, &model.InputError{File: e.name, Line: line, Column: i + 1, Field: e.header[i],
			Msg: fmt.Sprintf("value is longer than %d bytes", e.maxCell), Fixes: []model.Fix{{Setting: model.SetMaxCell}}}
	}
	x := e.index[i]
	code, found := x.lookup(v, 0, len(v))
	if found {
		return code, nil
	}
	if !utf8.Valid(v) {
		return 0, &model.InputError{File: e.name, Line: line, Column: i + 1, Field: e.header[i], Msg: "value is not valid UTF-8 text",
			Hint: "is the column binary data? privlab reads text and numbers"}
	}
	col := e.cols[i]
	s := string(v)
	code = uint32(len(col.Dict))
	x.insert(s, code)
	col.Dict = append(col.Dict, s)
	col.FirstLines = append(col.FirstLines, line)
	return code, nil
}

// Append adds rows holding the given codes (from Code, or Missing for a
// null).
func (w *ColumnWriter) Append(codes ...uint32) {
	col := w.e.cols[w.i]
	for _, c := range codes {
		if c == model.Missing {
			col.MissingCount++
		}
	}
	col.Codes = append(col.Codes, codes...)
}

// RowLoader encodes a table row by row.
type RowLoader struct {
	name     string
	opt      LoadOptions
	declared []model.Kind
	b        *TableBuilder
	// Until the header is decided, rows wait here.
	pending      [][]Cell
	pendingLines []int
	pendingText  int
	guessed      bool // the first row was read as data because it looks like data
	width        int
	rows         int // rows added
	buf          []byte
}

// pendingRows and pendingBytes bound the rows the header decision reads.
const (
	pendingRows  = 1000
	pendingBytes = sampleSize
)

// NewRowLoader starts a table read row by row from name (file and sheet
// or table, for errors). With names (the format's own column names) every
// row is data; without them the first row is the header or data as
// opt.Header and opt.HeaderRow say, and as FirstRowIsData finds on the
// first rows when they do not.
func NewRowLoader(name string, names []string, declared []model.Kind, opt LoadOptions) (*RowLoader, error) {
	l := &RowLoader{name: name, opt: opt, declared: declared}
	if len(names) == 0 {
		names = opt.Header
	}
	if len(names) > 0 {
		b, err := NewTableBuilder(name, names, declared, opt)
		if err != nil {
			return nil, err
		}
		l.b, l.width = b, len(names)
	}
	return l, nil
}

// Declare sets the kind the format declares for column i (learnt while
// reading: a sheet's text cells); it applies when the table is finished.
func (l *RowLoader) Declare(i int, k model.Kind) {
	for len(l.declared) <= i {
		l.declared = append(l.declared, NoKind)
	}
	l.declared[i] = k
	if l.b != nil {
		l.b.declared = l.declared
	}
}

// Add adds a row (line is its number in the source, for errors). Rows of
// no cell or only empty cells are skipped, as blank lines are; a row
// shorter than the header is filled with empty cells (a sheet leaves out
// empty cells at a row's end), one with a value beyond the header's
// columns is an error.
func (l *RowLoader) Add(cells []Cell, line int) error {
	for len(cells) > 0 && !cells[len(cells)-1].Null && cells[len(cells)-1].Text == "" {
		cells = cells[:len(cells)-1]
	}
	if len(cells) == 0 {
		return nil
	}
	if l.b == nil {
		row := append([]Cell(nil), cells...)
		l.pending = append(l.pending, row)
		l.pendingLines = append(l.pendingLines, line)
		for _, c := range cells {
			l.pendingText += len(c.Text)
		}
		if len(l.pending) < pendingRows && l.pendingText < pendingBytes {
			return nil
		}
		return l.decide()
	}
	return l.add(cells, line)
}

func (l *RowLoader) add(cells []Cell, line int) error {
	if l.rows++; l.rows%(64<<10) == 0 {
		if err := model.CheckFits(l.name, l.rows, l.width, false); err != nil {
			return err
		}
	}
	if len(cells) > l.width {
		return &model.InputError{File: l.name, Line: line, Column: l.width + 1,
			Msg:  fmt.Sprintf("ragged row: a value beyond the %d columns of the header (%q)", l.width, clipText(cells[l.width].Text)),
			Hint: "every value needs a column with a name"}
	}
	for i := 0; i < l.width; i++ {
		w := l.b.Column(i)
		if i >= len(cells) || cells[i].Null {
			if i >= len(cells) {
				code, err := w.Code(nil, line)
				if err != nil {
					return err
				}
				w.Append(code)
				continue
			}
			w.Append(model.Missing)
			continue
		}
		l.buf = append(l.buf[:0], cells[i].Text...)
		code, err := w.Code(l.buf, line)
		if err != nil {
			return err
		}
		w.Append(code)
	}
	return nil
}

// decide settles the header from the rows read so far and adds them.
func (l *RowLoader) decide() error {
	rows, lines := l.pending, l.pendingLines
	l.pending, l.pendingLines = nil, nil
	if len(rows) == 0 {
		return &model.InputError{File: l.name, Line: 1, Msg: "empty: no rows", Hint: "the first row names the columns, the rows below hold the values"}
	}
	first := rows[0]
	header := make([]string, len(first))
	for i, c := range first {
		header[i] = strings.TrimSpace(c.Text)
		if c.Null {
			header[i] = ""
		}
	}
	data := l.opt.HeaderRow == HeaderNo
	if l.opt.HeaderRow == HeaderDetect && len(rows) > 1 {
		data = l.sampleIsData(rows, lines)
		l.guessed = data
	}
	if data {
		header = ColumnNames(len(first))
	} else {
		if len(header) > model.MaxColumns {
			return &model.InputError{File: l.name, Line: lines[0], Column: model.MaxColumns + 1, Msg: fmt.Sprintf("more than %d columns", model.MaxColumns)}
		}
		if err := checkHeader(l.name, lines[0], header); err != nil {
			return err
		}
		rows, lines = rows[1:], lines[1:]
	}
	b, err := NewTableBuilder(l.name, header, l.declared, l.opt)
	if err != nil {
		return err
	}
	l.b, l.width = b, len(header)
	for i, r := range rows {
		if err := l.add(r, lines[i]); err != nil {
			return err
		}
	}
	return nil
}

// sampleIsData applies FirstRowIsData to the rows read so far, the first
// one read as data.
func (l *RowLoader) sampleIsData(rows [][]Cell, lines []int) bool {
	n := len(rows[0])
	b, err := NewTableBuilder(l.name, ColumnNames(n), nil, LoadOptions{MissingTokens: l.opt.MissingTokens, MaxCell: -1})
	if err != nil {
		return false
	}
	sample := &RowLoader{name: l.name, b: b, width: n}
	for i, r := range rows {
		if len(r) > n {
			r = r[:n] // the sample is about the first row's columns
		}
		if sample.add(r, lines[i]) != nil {
			return false
		}
	}
	t, err := b.Table()
	return err == nil && FirstRowIsData(t)
}

// Table finishes the table (see TableBuilder.Table) with the notes Load
// gives on the first row.
func (l *RowLoader) Table() (*model.Table, error) {
	if l.b == nil {
		if err := l.decide(); err != nil {
			return nil, err
		}
	}
	if len(l.b.enc.cols[0].Codes) == 0 && !l.guessed && len(l.opt.Header) == 0 && l.opt.HeaderRow != HeaderNo {
		return nil, &model.InputError{File: l.name, Msg: "header only: no data rows", Hint: "add at least one row of values below the header"}
	}
	t, err := l.b.Table()
	if err != nil {
		return nil, err
	}
	firstRowNotes(t, l.opt, l.guessed)
	return t, nil
}

// firstRowNotes adds the note on the first row: read as data because it
// looks like data, or kept as the header although it could be data.
func firstRowNotes(t *model.Table, opt LoadOptions, guessed bool) {
	switch {
	case guessed:
		t.FirstRowData = true
		t.Notes = append([]model.Note{{Text: fmt.Sprintf("%s:1: the first row looks like data (%s), so it is read as data and the columns are named %s",
			t.Name, firstValues(t, 0, 6), nameRange(t.Names())),
			Fixes: []model.Fix{{Setting: model.SetColumns}, {Setting: model.SetHeader, Value: "yes", Why: "if the first row names the columns"}}}}, t.Notes...)
	case len(opt.Header) == 0 && opt.HeaderRow == HeaderDetect && HeaderLooksLikeData(t):
		t.Notes = append([]model.Note{{Text: fmt.Sprintf("%s:1: the header row looks like data (%s)", t.Name, strings.Join(t.Names(), ",")),
			Fixes: []model.Fix{{Setting: model.SetColumns, Why: "if the file has no header row"}}}}, t.Notes...)
	}
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
