package source

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strings"

	"privlab/model"
)

// An Excel sheet is read as it is decompressed, straight from the
// workbook's zip (archive/zip and encoding/xml: no part is held whole in
// memory or spilled to a temporary file): the first sheet, or the one
// FILE.xlsx:SHEET names. Cells are read as Excel stores them: a number
// with all its digits, not rounded by the cell's display format; a date
// as its serial day number (a number); text as it is. The first row is
// the header or data as for CSV (csvfile.FirstRowIsData; --header,
// --columns). A column of numbers in which a value has a leading zero
// ("01234") holds text cells, since Excel never writes a number so: it is
// read as categorical and keeps its zeros. Errors name the sheet, the row
// (as Excel numbers it) and the column.
//
// A workbook is a zip of small files that may expand a thousandfold, so
// every bound holds as the parts are read, before memory is taken: a part
// may expand to maxPartBytes at most (zip bombs), an XML text or tag may
// be xmlRunLimit long (a cell of a gigabyte fails at its first bytes past
// the cell limit), elements nest maxXMLDepth deep, and a cell that refers
// to a shared string that is not there is an error naming the cell.

// Bounds of a workbook's parts as they are read.
const (
	// A part may expand to partRatio times its compressed size, or to
	// partFloor when that is more: a sheet of text compresses a few
	// times to a few tens of times, a bomb a thousand times.
	partRatio = 100
	partFloor = 16 << 20
	// maxXMLDepth bounds the nesting of elements (a sheet's is 6).
	maxXMLDepth = 64
	// maxTagBytes bounds one XML tag (a start tag and its attributes).
	maxTagBytes = 1 << 20
)

// Excel's own bounds: 1,048,576 rows of 16,384 columns (A to XFD); a
// text of a part longer than excelRunLimit is no cell's.
const (
	excelRows     = 1 << 20
	excelCols     = 1 << 14
	excelRunLimit = 16 << 20
)

// notAWorkbookHint is the hint of a file that is no workbook Excel (or
// another spreadsheet program) writes: a bomb, damage, or another format.
const notAWorkbookHint = "open the file in the program that wrote it and save it as .xlsx again, or export the sheet as CSV"

// maxPartBytes is how far a part of compressed bytes may expand.
func maxPartBytes(compressed uint64) uint64 {
	if compressed > math.MaxUint64/partRatio {
		return math.MaxUint64 // a size no file has: reading it fails
	}
	return max(compressed*partRatio, partFloor)
}

// xmlRunLimit bounds one text of a part (between tags) for a cell limit
// (csvfile.LoadOptions.MaxCell): room for the cell's text escaped; without a
// cell limit, room for the longest text a cell of Excel holds (32,767
// characters) many times over.
func xmlRunLimit(maxCell int) int64 {
	switch {
	case maxCell < 0:
		return excelRunLimit
	case maxCell == 0:
		maxCell = model.DefaultMaxCell
	}
	return 8*int64(maxCell) + 4096
}

// workbook is an opened .xlsx: its parts, its sheets in order and where
// they are, and its shared strings' part ("" when it has none).
type workbook struct {
	path   string
	zr     *zip.ReadCloser
	parts  map[string]*zip.File // by lower-case name
	names  []string             // the sheets, in order
	sheets map[string]string    // sheet name -> part
	sst    string
	// onLong says where a text too long is (a cell, a shared string),
	// while a part is read.
	onLong func() error
}

// openWorkbook opens a workbook and reads its list of sheets.
func openWorkbook(path string) (*workbook, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, asInput(path, Excel, err)
	}
	wb := &workbook{path: path, zr: zr, parts: map[string]*zip.File{}, sheets: map[string]string{}}
	for _, f := range zr.File {
		wb.parts[strings.ToLower(strings.ReplaceAll(f.Name, `\`, "/"))] = f
	}
	if err := wb.readSheetList(); err != nil {
		zr.Close()
		return nil, err
	}
	return wb, nil
}

func (wb *workbook) Close() error { return wb.zr.Close() }

// readSheetList reads the workbook part (the package's relationships say
// where it is) and its relationships: the sheets and the shared strings.
func (wb *workbook) readSheetList() error {
	main := "xl/workbook.xml"
	root, err := wb.rels("_rels/.rels")
	if err != nil {
		return err
	}
	for _, r := range root {
		if strings.HasSuffix(r.typ, "/officeDocument") {
			main = resolvePart("", r.target)
		}
	}
	rels, err := wb.rels(path.Join(path.Dir(main), "_rels", path.Base(main)+".rels"))
	if err != nil {
		return err
	}
	targets := map[string]string{}
	for _, r := range rels {
		t := resolvePart(path.Dir(main), r.target)
		targets[r.id] = t
		if strings.HasSuffix(r.typ, "/sharedStrings") {
			wb.sst = t
		}
	}
	return wb.walk(main, 0, func(tok xml.Token, stack []string) error {
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "sheet" {
			return nil
		}
		name, id := attr(se, "name"), attr(se, "id")
		if name == "" || targets[id] == "" {
			return &model.InputError{File: wb.path, Msg: fmt.Sprintf("sheet %q has no part in the workbook", name),
				Hint: "is the file complete? open it in the program that wrote it and save it again"}
		}
		wb.names = append(wb.names, name)
		wb.sheets[name] = targets[id]
		return nil
	})
}

// relationship is one entry of a part's relationships.
type relationship struct{ id, typ, target string }

// rels reads a relationships part (none when the workbook has not got it).
func (wb *workbook) rels(part string) ([]relationship, error) {
	if wb.parts[strings.ToLower(part)] == nil {
		return nil, nil
	}
	var out []relationship
	err := wb.walk(part, 0, func(tok xml.Token, stack []string) error {
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "Relationship" && attr(se, "TargetMode") != "External" {
			out = append(out, relationship{attr(se, "Id"), attr(se, "Type"), attr(se, "Target")})
		}
		return nil
	})
	return out, err
}

// resolvePart is the part a relationship's target names, from dir.
func resolvePart(dir, target string) string {
	target = strings.ReplaceAll(target, `\`, "/")
	if strings.HasPrefix(target, "/") {
		return path.Clean(target[1:])
	}
	return path.Join(dir, target)
}

// attr is the value of a start tag's attribute of that local name.
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// walk reads a part token by token, handing each to visit with the
// local names of the elements it is inside (an element's end is not
// inside itself; the stack is visit's to read, not to keep). maxCell bounds the texts as xmlRunLimit says. An error
// of the zip, of the XML or of a bound is an input error naming the part.
func (wb *workbook) walk(part string, maxCell int, visit func(tok xml.Token, stack []string) error) error {
	f := wb.parts[strings.ToLower(part)]
	if f == nil {
		return &model.InputError{File: wb.path, Msg: fmt.Sprintf("the workbook has no part %s", part),
			Hint: "is the file complete? open it in the program that wrote it and save it again"}
	}
	if limit := maxPartBytes(f.CompressedSize64); f.UncompressedSize64 > limit {
		return &model.InputError{File: wb.path, Msg: fmt.Sprintf("%s expands from %s to %s, more than %d times: a zip bomb, not a workbook",
			f.Name, sizeText(int64(f.CompressedSize64)), sizeText(int64(f.UncompressedSize64)), partRatio), Hint: notAWorkbookHint}
	}
	rc, err := f.Open()
	if err != nil {
		return asInput(wb.path, Excel, err)
	}
	defer rc.Close()
	g := &xmlGuard{r: rc, maxRun: xmlRunLimit(maxCell)}
	d := xml.NewDecoder(g)
	var stack []string
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return wb.partError(f.Name, d, g, err)
		}
		if _, end := tok.(xml.EndElement); end && len(stack) > 0 {
			stack = stack[:len(stack)-1]
		}
		if err := visit(tok, stack); err != nil {
			return err
		}
		if t, ok := tok.(xml.StartElement); ok {
			if stack = append(stack, t.Name.Local); len(stack) > maxXMLDepth {
				return &model.InputError{File: wb.path, Msg: fmt.Sprintf("%s: elements nested more than %d deep: not a part of a workbook", f.Name, maxXMLDepth),
					Hint: notAWorkbookHint}
			}
		}
	}
}

// partError names the part (and the line in it) of an error reading it.
func (wb *workbook) partError(part string, d *xml.Decoder, g *xmlGuard, err error) error {
	var ie *model.InputError
	if errors.As(err, &ie) {
		return err
	}
	line, _ := d.InputPos()
	if g.err != nil {
		err = g.err
	}
	if errors.Is(err, errTooLong) && wb.onLong != nil {
		return wb.onLong()
	}
	return &model.InputError{File: wb.path, Msg: fmt.Sprintf("%s, line %d: %v", part, line, err),
		Hint: "is the file complete? open it in the program that wrote it and save it again"}
}

// xmlGuard passes a part's XML through while it bounds each text (between
// tags) to maxRun bytes and each tag to maxTagBytes, so that the XML
// decoder never holds more of either.
type xmlGuard struct {
	r      io.Reader
	maxRun int64
	inTag  bool
	open   bool  // the byte after a tag's '<' is next
	plain  bool  // the tag is a comment, a CDATA section or a declaration: no quotes
	quote  byte  // the quote of an attribute value being read, or 0
	run    int64 // bytes of the text or tag being read
	err    error
}

func (g *xmlGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	for i, b := range p[:n] {
		g.run++
		if g.open {
			g.open, g.plain = false, b == '!'
		}
		switch {
		case g.inTag && g.quote != 0:
			if b == g.quote {
				g.quote = 0
			}
		case g.inTag && !g.plain && (b == '"' || b == '\''):
			g.quote = b
		case g.inTag && b == '>':
			g.inTag, g.run = false, 0
		case !g.inTag && b == '<':
			g.inTag, g.open, g.run = true, true, 0
		}
		if g.inTag && g.run > maxTagBytes {
			g.err = fmt.Errorf("a tag longer than %s", sizeText(int64(maxTagBytes)))
		} else if !g.inTag && g.run > g.maxRun {
			g.err = errTooLong
		}
		if g.err != nil {
			return i, g.err
		}
	}
	return n, err
}

// errTooLong is the guard's error for a text past its bound.
var errTooLong = errors.New("a text longer than the cell limit allows")
