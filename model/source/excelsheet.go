package source

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"privlab/model"
	"privlab/model/csvfile"
)

// sharedStrings are a workbook's shared strings, one after the other in
// one text (ends[i] is where string i ends).
type sharedStrings struct {
	text []byte
	ends []uint32
}

func (s *sharedStrings) get(i int) string {
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return string(s.text[start:s.ends[i]])
}

// readSharedStrings reads the shared strings (none when the workbook has
// no such part): the text of each item, its phonetic reading left out.
func (wb *workbook) readSharedStrings(maxCell int) (*sharedStrings, error) {
	s := &sharedStrings{}
	if wb.sst == "" || wb.parts[strings.ToLower(wb.sst)] == nil {
		return s, nil
	}
	long := func() error {
		return &model.InputError{File: wb.path, Msg: fmt.Sprintf("%s: shared string %d is longer than %s", wb.sst, len(s.ends), sizeText(xmlRunLimit(maxCell))),
			Hint: "no cell of a table is that long: is this the right file?"}
	}
	wb.onLong = long
	defer func() { wb.onLong = nil }()
	start, in := 0, false
	return s, wb.walk(wb.sst, maxCell, func(tok xml.Token, stack []string) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local == "si" {
				start, in = len(s.text), true
			}
		case xml.CharData:
			if in && len(stack) > 0 && stack[len(stack)-1] == "t" && !inside(stack, "rPh") {
				if s.text = append(s.text, t...); int64(len(s.text)-start) > xmlRunLimit(maxCell) {
					return long()
				}
			}
		case xml.EndElement:
			if t.Name.Local == "si" && in {
				s.text = append(s.text[:start], unescapeOOXML(s.text[start:])...)
				if len(s.text) > 1<<32-1 {
					return long()
				}
				s.ends, in = append(s.ends, uint32(len(s.text))), false
			}
		}
		return nil
	})
}

// inside reports whether the stack holds an element of that name.
func inside(stack []string, local string) bool {
	for _, s := range stack {
		if s == local {
			return true
		}
	}
	return false
}

// unescapeOOXML decodes the _xHHHH_ escapes of a workbook's text (a
// character XML cannot hold; _x005F_ is the underscore itself).
func unescapeOOXML(b []byte) []byte {
	if !bytes.Contains(b, []byte("_x")) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '_' && i+7 <= len(b) && b[i+1] == 'x' && b[i+6] == '_' {
			if r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32); err == nil && utf8.ValidRune(rune(r)) {
				out = utf8.AppendRune(out, rune(r))
				i += 6
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

// sheetReader reads a sheet's rows into a RowLoader.
type sheetReader struct {
	ctx     context.Context
	name    string // FILE:SHEET, for errors
	sst     *sharedStrings
	maxCell int
	limit   int // the last row to read (0: all)
	l       *csvfile.RowLoader
	row     int      // the row being read (as Excel numbers it)
	col     int      // the cell being read (0 is A)
	typ     string   // its type (t)
	val     []byte   // its value so far
	inCell  bool     // inside a cell
	cells   []string // the row so far, by column
	zeros   []bool   // per column: a value with a leading zero was seen
	row0    []csvfile.Cell
	rows    int // rows read
}

// errEnough stops a sheet's reading at the preview's last row.
var errEnough = errors.New("enough rows")

// visit takes one token of the sheet.
func (r *sheetReader) visit(tok xml.Token, stack []string) error {
	parent := ""
	if len(stack) > 0 {
		parent = stack[len(stack)-1]
	}
	switch t := tok.(type) {
	case xml.StartElement:
		switch {
		case t.Name.Local == "row" && parent == "sheetData":
			return r.startRow(attr(t, "r"))
		case t.Name.Local == "c" && parent == "row":
			return r.startCell(attr(t, "r"), attr(t, "t"))
		}
	case xml.CharData:
		if r.inCell && (parent == "v" && r.typ != "inlineStr" || parent == "t" && r.typ == "inlineStr" && inside(stack, "is") && !inside(stack, "rPh")) {
			r.val = append(r.val, t...)
			if r.maxCell >= 0 && len(r.val) > r.maxCell {
				return r.tooLong()
			}
		}
	case xml.EndElement:
		switch {
		case t.Name.Local == "c" && r.inCell:
			r.inCell = false
			return r.endCell()
		case t.Name.Local == "row" && parent == "sheetData":
			return r.endRow()
		}
	}
	return nil
}

// damaged is an input error naming a place in the sheet.
func (r *sheetReader) damaged(msg string) error {
	return &model.InputError{File: r.name, Line: r.row, Column: r.col + 1, Msg: msg,
		Hint: "the workbook is damaged: open it in the program that wrote it and save it again"}
}

// tooLong is the cell limit's error for the cell being read.
func (r *sheetReader) tooLong() error {
	if r.maxCell < 0 {
		return r.damaged(fmt.Sprintf("cell %s: a text longer than %s, more than a cell of Excel holds", cellRef(r.col, r.row), sizeText(excelRunLimit)))
	}
	return &model.InputError{File: r.name, Line: r.row, Column: r.col + 1,
		Msg: fmt.Sprintf("cell %s: value is longer than %d bytes", cellRef(r.col, r.row), r.maxCell), Fixes: []model.Fix{{Setting: model.SetMaxCell}}}
}

func (r *sheetReader) startRow(ref string) error {
	n := r.row + 1
	if ref != "" {
		var err error
		if n, err = strconv.Atoi(ref); err != nil || n <= r.row || n > excelRows {
			r.col = -1
			return r.damaged(fmt.Sprintf("a row numbered %q after row %d", ref, r.row))
		}
	}
	if r.limit > 0 && n > r.limit {
		return errEnough
	}
	if r.rows++; r.rows%1024 == 0 && r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	r.row, r.col, r.cells = n, -1, r.cells[:0]
	return nil
}

func (r *sheetReader) startCell(ref, typ string) error {
	c := r.col + 1
	if ref != "" {
		letters := strings.TrimRight(ref, "0123456789")
		c = columnIndex(letters)
		if c < 0 || len(letters) == len(ref) || strings.TrimLeft(ref[len(letters):], "0") != strconv.Itoa(r.row) {
			return r.damaged(fmt.Sprintf("a cell %q in row %d", ref, r.row))
		}
		if c <= r.col {
			return r.damaged(fmt.Sprintf("cell %s comes after cell %s", ref, cellRef(r.col, r.row)))
		}
	}
	if c >= excelCols {
		return r.damaged(fmt.Sprintf("a cell beyond column XFD, the last of a sheet (%q)", ref))
	}
	r.col, r.typ, r.val, r.inCell = c, typ, r.val[:0], true
	return nil
}

// endCell resolves the cell's value (a shared string, inline text, a
// number or a flag as stored) and puts it in its column.
func (r *sheetReader) endCell() error {
	var v string
	switch r.typ {
	case "s":
		if len(r.val) > 0 {
			ref := strings.TrimSpace(string(r.val))
			i, err := strconv.Atoi(ref)
			switch {
			case err != nil || i < 0:
				return r.damaged(fmt.Sprintf("cell %s refers to shared string %q, not a number", cellRef(r.col, r.row), clip(ref)))
			case i >= len(r.sst.ends):
				return r.damaged(fmt.Sprintf("cell %s refers to shared string %d, and the workbook holds %d", cellRef(r.col, r.row), i, len(r.sst.ends)))
			}
			v = r.sst.get(i)
		}
	case "inlineStr":
		v = string(unescapeOOXML(r.val))
	default:
		v = string(r.val)
	}
	if r.maxCell >= 0 && len(v) > r.maxCell {
		return r.tooLong()
	}
	for len(r.cells) < r.col {
		r.cells = append(r.cells, "")
	}
	r.cells = append(r.cells, v)
	return nil
}

func (r *sheetReader) endRow() error {
	r.row0 = r.row0[:0]
	for i, v := range r.cells {
		r.row0 = append(r.row0, csvfile.Cell{Text: v})
		if leadingZero(v) {
			for len(r.zeros) <= i {
				r.zeros = append(r.zeros, false)
			}
			r.zeros[i] = true
		}
	}
	return r.l.Add(r.row0, r.row)
}

// clip shortens a damaged reference for a message.
func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// columnIndex reads a column's letters (A is 0, XFD 16383); -1 when they
// are not a column.
func columnIndex(letters string) int {
	if letters == "" || len(letters) > 3 {
		return -1
	}
	n := 0
	for _, c := range letters {
		if c < 'A' || c > 'Z' {
			return -1
		}
		n = n*26 + int(c-'A'+1)
	}
	return n - 1
}

// cellRef writes a cell's reference (B3) from its column (0 is A) and row.
func cellRef(col, row int) string {
	name := ""
	for c := col + 1; c > 0; c = (c - 1) / 26 {
		name = string(rune('A'+(c-1)%26)) + name
	}
	return name + strconv.Itoa(row)
}

func excelSheets(path string) ([]string, error) {
	wb, err := openWorkbook(path)
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	return wb.names, nil
}

// sheetOf finds the sheet part names: the first one when part is empty,
// else the one of that name (in any case).
func sheetOf(sheets []string, path, part string) (string, error) {
	if len(sheets) == 0 {
		return "", &model.InputError{File: path, Msg: "the workbook has no sheets", Hint: notAWorkbookHint}
	}
	if part == "" {
		return sheets[0], nil
	}
	for _, s := range sheets {
		if s == part {
			return s, nil
		}
	}
	for _, s := range sheets {
		if strings.EqualFold(s, part) {
			return s, nil
		}
	}
	return "", notFound(path, "sheet", part, sheets)
}

// loadExcel reads the sheet; limit > 0 stops after that many rows (a
// preview). It stops when ctx is cancelled.
func loadExcel(ctx context.Context, path, part string, opt csvfile.LoadOptions, limit int) (*model.Table, error) {
	wb, err := openWorkbook(path)
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	sheet, err := sheetOf(wb.names, path, part)
	if err != nil {
		return nil, err
	}
	maxCell := opt.MaxCell
	if maxCell == 0 {
		maxCell = model.DefaultMaxCell
	}
	sst, err := wb.readSharedStrings(maxCell)
	if err != nil {
		return nil, err
	}
	name := tableName(path, sheet)
	l, err := csvfile.NewRowLoader(name, nil, nil, opt)
	if err != nil {
		return nil, err
	}
	r := &sheetReader{ctx: ctx, name: name, sst: sst, maxCell: maxCell, limit: limit, l: l}
	wb.onLong = func() error {
		if r.inCell {
			return r.tooLong()
		}
		return r.damaged(fmt.Sprintf("a text longer than %s between cells", sizeText(xmlRunLimit(maxCell))))
	}
	if err := wb.walk(wb.sheets[sheet], maxCell, r.visit); err != nil && err != errEnough {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, z := range r.zeros {
		if z {
			l.Declare(i, model.Categorical)
		}
	}
	return l.Table()
}

// leadingZero reports whether v reads as a number written with a leading
// zero (007, -01.5): text, since Excel writes no number so.
func leadingZero(v string) bool {
	s := strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	if len(s) < 2 || s[0] != '0' || s[1] < '0' || s[1] > '9' {
		return false
	}
	_, ok := model.ParseNumber(v)
	return ok
}
