package source

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"privlab/model"
	"privlab/model/csvfile"
)

// Small files that expand (issue 32): each is refused with an input error
// naming the file, fast, before it takes the memory it asks for; a read
// that takes long stops when its context is cancelled. (The time bound is
// loose, refusedWithin, for machines under load: without the bounds these
// files take minutes or never end.)

// refusedWithin bounds the time to refuse a bomb.
const refusedWithin = 10 * time.Second

// bombDB writes a database of the given statements with the driver.
func bombDB(t *testing.T, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bomb.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// wantInputError loads spec and checks the error names file, line and
// says want with a hint, within limit.
func wantInputError(t *testing.T, spec string, opt csvfile.LoadOptions, file string, line int, want string, limit time.Duration) {
	t.Helper()
	start := time.Now()
	tb, err := Load(spec, opt)
	took := time.Since(start)
	var ie *model.InputError
	if tb != nil || !errors.As(err, &ie) || ie.File != file || ie.Line != line || !strings.Contains(ie.Msg, want) {
		t.Fatalf("%s: %v (%#v), want an input error naming %s line %d: %q", spec, err, ie, file, line, want)
	}
	if ie.Hint == "" && len(ie.Fixes) == 0 {
		t.Errorf("%s: %v: no hint", spec, err)
	}
	if took > limit {
		t.Errorf("%s: refused after %v, more than %v", spec, took, limit)
	}
}

// A view that counts without end (a recursive WITH) is refused once it
// has yielded more rows than the database could hold; the same view
// limited to fewer rows reads.
func TestSQLiteEndlessView(t *testing.T) {
	path := bombDB(t,
		`CREATE VIEW v AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT x AS a, 'm' AS b FROM n`,
		`CREATE VIEW w AS SELECT * FROM v LIMIT 5`)
	wantInputError(t, path+":v", csvfile.LoadOptions{}, path+":v", 0,
		"the view yields more than 1,048,576 rows, more than a database of 4096 bytes could hold", refusedWithin)
	tb, err := Load(path+":w", csvfile.LoadOptions{})
	if err != nil || tb.Rows != 5 || strings.Join(tb.Column("a").Dict, ",") != "1,2,3,4,5" {
		t.Fatalf("a view of 5 rows: %v %v", tb, err)
	}
	// A preview reads its first rows.
	tb, err = Preview(path+":v", csvfile.LoadOptions{}, 3)
	if err != nil || tb.Rows != 3 {
		t.Fatalf("a preview of the endless view: %v %v", tb, err)
	}
}

// A view that computes one value of 900 MB fails as SQLite builds it
// (its length limit), naming the row.
func TestSQLiteHugeValue(t *testing.T) {
	path := bombDB(t,
		`CREATE VIEW big AS SELECT 1 AS a, printf('%.*c', 900000000, 'x') AS b`,
		`CREATE VIEW blob AS SELECT 1 AS a, zeroblob(900000000) AS b`)
	for _, v := range []string{"big", "blob"} {
		wantInputError(t, path+":"+v, csvfile.LoadOptions{}, path+":"+v, 1, "a value or row longer than 16 MB", refusedWithin)
	}
	// Below SQLite's limit, the cell limit names the cell.
	path = bombDB(t, `CREATE VIEW v AS SELECT 1 AS a, printf('%.*c', 100000, 'x') AS b`)
	wantInputError(t, path+":v", csvfile.LoadOptions{}, path+":v", 1, "value is longer than 65536 bytes", refusedWithin)
	if tb, err := Load(path+":v", csvfile.LoadOptions{MaxCell: -1}); err != nil || len(tb.Column("b").Dict[0]) != 100000 {
		t.Fatalf("without a cell limit: %v %v", tb, err)
	}
}

// A view that takes long to compute stops when the context is
// cancelled, with the context's error.
func TestSQLiteReadCancelled(t *testing.T) {
	path := bombDB(t, `CREATE VIEW slow AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 4000000000) SELECT count(*) AS a FROM n`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	tb, err := LoadContext(ctx, path+":slow", csvfile.LoadOptions{})
	if tb != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v %v", tb, err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("stopped %v after it was cancelled", took-100*time.Millisecond)
	}
}

// xlsxPart is one part of a workbook made by hand: its text, and a
// repeated text and how many times it follows (a part that expands).
type xlsxPart struct {
	head, repeat, tail string
	times              int
}

// bombXLSX writes a workbook of one sheet (Sheet1) by hand with
// archive/zip: the sheet's rows and shared strings as given, every part
// compressed as strongly as deflate's fastest level does.
func bombXLSX(t *testing.T, sheet, sst xlsxPart) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bomb.xlsx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	writeXLSX(t, f, sheet, sst)
	return path
}

// xlsxBytes is the workbook bombXLSX writes, in memory.
func xlsxBytes(t *testing.T, sheet, sst xlsxPart) []byte {
	var b bytes.Buffer
	writeXLSX(t, &b, sheet, sst)
	return b.Bytes()
}

func writeXLSX(t *testing.T, out io.Writer, sheet, sst xlsxPart) {
	t.Helper()
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	sheet.head = `<worksheet ` + ns + `><sheetData>` + sheet.head
	sheet.tail += `</sheetData></worksheet>`
	sst.head = `<sst ` + ns + `>` + sst.head
	sst.tail += `</sst>`
	parts := []struct {
		name string
		p    xlsxPart
	}{
		{"[Content_Types].xml", xlsxPart{head: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`}},
		{"_rels/.rels", xlsxPart{head: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="` + rel + `officeDocument" Target="xl/workbook.xml"/></Relationships>`}},
		{"xl/workbook.xml", xlsxPart{head: `<workbook ` + ns + `><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`}},
		{"xl/_rels/workbook.xml.rels", xlsxPart{head: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="` + rel + `worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="` + rel + `sharedStrings" Target="sharedStrings.xml"/></Relationships>`}},
		{"xl/worksheets/sheet1.xml", sheet},
		{"xl/sharedStrings.xml", sst},
	}
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.p.head)
		if p.p.times > 0 {
			chunk := strings.Repeat(p.p.repeat, max(1, (1<<20)/len(p.p.repeat)))
			n := len(chunk) / len(p.p.repeat)
			for left := p.p.times; left > 0; left -= n {
				if left < n {
					chunk = chunk[:left*len(p.p.repeat)]
				}
				io.WriteString(w, chunk)
			}
		}
		io.WriteString(w, p.p.tail)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// A header row of two shared strings (a, b) and the row given.
func sheetRows(row string) xlsxPart {
	return xlsxPart{head: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` + row}
}

var twoStrings = xlsxPart{head: `<si><t>a</t></si><si><t>b</t></si>`}

// The cell limit holds as a sheet is read: a cell of 12 MB (its part
// within the bounds of expansion) fails at its first bytes past the
// limit, naming its cell; one of 64 MB, a part that expands 800 times, is
// refused before it is read. Neither takes much memory.
func TestXLSXHugeCell(t *testing.T) {
	for _, c := range []struct {
		size     int
		line     int
		want     string
		maxAlloc uint64
	}{
		{12 << 20, 2, "cell B2: value is longer than 65536 bytes", 8 << 20},
		{64 << 20, 0, "xl/worksheets/sheet1.xml expands from", 1 << 20},
	} {
		path := bombXLSX(t, xlsxPart{head: sheetRows("").head + `<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><t>`,
			repeat: "x", times: c.size, tail: `</t></is></c></row>`}, twoStrings)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		wantInputError(t, path, csvfile.LoadOptions{}, map[bool]string{true: path + ":Sheet1", false: path}[c.line > 0], c.line, c.want, refusedWithin)
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > c.maxAlloc {
			t.Errorf("%d MB cell: %d KB allocated", c.size>>20, d>>10)
		}
	}
}

// Shared strings that expand a hundred times and more are refused before
// they are read; a string longer than any cell may be is refused as it is
// read; damaged references to shared strings are errors naming the cell.
func TestXLSXSharedStrings(t *testing.T) {
	path := bombXLSX(t, sheetRows(""), xlsxPart{head: twoStrings.head, repeat: "<si><t>a</t></si>", times: 8 << 20})
	wantInputError(t, path, csvfile.LoadOptions{}, path, 0, "xl/sharedStrings.xml expands from", refusedWithin)
	path = bombXLSX(t, sheetRows(""), xlsxPart{head: twoStrings.head + "<si><t>", repeat: "y", times: 4 << 20, tail: "</t></si>"})
	wantInputError(t, path, csvfile.LoadOptions{}, path, 0, "xl/sharedStrings.xml: shared string 2 is longer than 516 KB", refusedWithin)
	for ref, want := range map[string]string{
		"2":   "cell B2 refers to shared string 2, and the workbook holds 2",
		"abc": `cell B2 refers to shared string "abc", not a number`,
		"-1":  `cell B2 refers to shared string "-1", not a number`,
	} {
		path := bombXLSX(t, sheetRows(`<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>`+ref+`</v></c></row>`), twoStrings)
		wantInputError(t, path, csvfile.LoadOptions{}, path+":Sheet1", 2, want, refusedWithin)
	}
	path = bombXLSX(t, sheetRows(`<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v> 1 </v></c></row>`), twoStrings)
	tb, err := Load(path, csvfile.LoadOptions{})
	if err != nil || tb.Rows != 1 || strings.Join(tb.Names(), ",") != "a,b" || tb.Column("b").Dict[0] != "b" {
		t.Fatalf("an intact workbook: %v %v", tb, err)
	}
}

// Rows and cells that are out of order or beyond a sheet's bounds, and
// elements nested without end, are errors naming where.
func TestXLSXDamagedSheet(t *testing.T) {
	for row, want := range map[string]string{
		`<row r="1"><c r="C1"><v>1</v></c></row>`:                       `a row numbered "1" after row 1`,
		`<row r="2"><c r="B2"><v>1</v></c><c r="A2"><v>1</v></c></row>`: "cell A2 comes after cell B2",
		`<row r="2"><c r="A3"><v>1</v></c></row>`:                       `a cell "A3" in row 2`,
		`<row r="2"><c r="XFE2"><v>1</v></c></row>`:                     "a cell beyond column XFD, the last of a sheet",
	} {
		path := bombXLSX(t, sheetRows(row), twoStrings)
		_, err := Load(path, csvfile.LoadOptions{})
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != path+":Sheet1" || !strings.Contains(ie.Msg, want) {
			t.Errorf("%s: %v, want %q", row, err, want)
		}
	}
	path := bombXLSX(t, xlsxPart{head: sheetRows("").head, repeat: "<x>", times: 100}, twoStrings)
	wantInputError(t, path, csvfile.LoadOptions{}, path, 0, "elements nested more than 64 deep", refusedWithin)
}

// A sheet's reading stops when its context is cancelled.
func TestXLSXReadCancelled(t *testing.T) {
	path := bombXLSX(t, xlsxPart{head: sheetRows("").head, repeat: `<row><c><v>1</v></c><c><v>2</v></c></row>`, times: 20000}, twoStrings)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tb, err := LoadContext(ctx, path, csvfile.LoadOptions{}); tb != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v %v", tb, err)
	}
	if tb, err := Load(path, csvfile.LoadOptions{}); err != nil || tb.Rows != 20000 {
		t.Fatalf("not cancelled: %v %v", tb, err)
	}
}

// A view that computes long and yields little (one count of a recursive
// WITH) took minutes without the context's cancel: it is refused once it
// has taken maxViewTime (viewTimeBase, cut short here), naming the view;
// a table of the same database reads.
func TestSQLiteSlowViewStops(t *testing.T) {
	path := bombDB(t, `CREATE VIEW slow AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 4000000000) SELECT count(*) AS a FROM n`,
		`CREATE TABLE t(a)`, `INSERT INTO t VALUES (1)`)
	defer func(base time.Duration) { viewTimeBase = base }(viewTimeBase)
	viewTimeBase = 200 * time.Millisecond
	wantInputError(t, path+":slow", csvfile.LoadOptions{}, path+":slow", 0,
		"the view computed for more than 200ms on a database of", refusedWithin)
	if tb, err := Load(path+":t", csvfile.LoadOptions{}); err != nil || tb.Rows != 1 {
		t.Fatalf("the table: %v %v", tb, err)
	}
}
