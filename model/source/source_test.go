package source

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"privlab/datasets"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/source/sourcetest"
)

// censusFiles writes rows of the census dataset as census.csv,
// census.xlsx (sheet people), census.parquet and census.db (table
// people) in dir, with missing values in a few cells.
func censusFiles(t testing.TB, dir string, rows int) *model.Table {
	t.Helper()
	d, err := datasets.Lookup("census")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := d.Write(&b, rows, 7); err != nil {
		t.Fatal(err)
	}
	// Missing values: a ? workclass every 50th row, an empty
	// hours-per-week every 70th.
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		f := strings.Split(lines[i], ",")
		if i%50 == 0 {
			f[1] = "?"
		}
		if i%70 == 0 {
			f[9] = ""
		}
		lines[i] = strings.Join(f, ",")
	}
	csv := filepath.Join(dir, "census.csv")
	if err := os.WriteFile(csv, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := csvfile.LoadFile(csv, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteExcel(filepath.Join(dir, "census.xlsx"), "people", tb); err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteParquet(filepath.Join(dir, "census.parquet"), tb, rows/3); err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteSQLite(filepath.Join(dir, "census.db"), "people", tb); err != nil {
		t.Fatal(err)
	}
	return tb
}

// table reads CSV text whose first row is the header.
func table(t testing.TB, text string) *model.Table {
	t.Helper()
	tb, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: "t.csv", HeaderRow: csvfile.HeaderYes})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// sameTable fails unless got holds the same columns, kinds, rows and
// values (missing where want is missing) as want, and the same profile.
func sameTable(t *testing.T, what string, got, want *model.Table) {
	t.Helper()
	if strings.Join(got.Names(), ",") != strings.Join(want.Names(), ",") || got.Rows != want.Rows {
		t.Fatalf("%s: columns %v rows %d, want %v rows %d", what, got.Names(), got.Rows, want.Names(), want.Rows)
	}
	for i, c := range got.Columns {
		w := want.Columns[i]
		if c.Kind != w.Kind || c.Distinct() != w.Distinct() || c.MissingCount != w.MissingCount || strings.Join(c.Dict, "|") != strings.Join(w.Dict, "|") {
			t.Fatalf("%s: column %s: %s, %d distinct, %d missing; want %s, %d, %d", what, c.Name, c.Kind, c.Distinct(), c.MissingCount, w.Kind, w.Distinct(), w.MissingCount)
		}
		lo, hi, _ := c.Range()
		wlo, whi, _ := w.Range()
		if lo != wlo || hi != whi {
			t.Fatalf("%s: column %s range %v..%v, want %v..%v", what, c.Name, lo, hi, wlo, whi)
		}
		for r := 0; r < got.Rows; r++ {
			if c.Codes[r] != w.Codes[r] {
				t.Fatalf("%s: row %d column %s: %q, want %q", what, r+1, c.Name, c.Value(r), w.Value(r))
			}
		}
	}
}

// TestFormatsLoadAsTheCSV: the census table written as .xlsx, .parquet and
// a SQLite table loads to the same table as its CSV: the same columns,
// kinds, rows, values, missing values and profile.
func TestFormatsLoadAsTheCSV(t *testing.T) {
	dir := t.TempDir()
	want := censusFiles(t, dir, 600)
	if want.Column("workclass").MissingCount != 12 || want.Column("hours-per-week").MissingCount != 8 {
		t.Fatalf("the fixture's missing values: %d, %d", want.Column("workclass").MissingCount, want.Column("hours-per-week").MissingCount)
	}
	for _, spec := range []string{"census.csv", "census.xlsx", "census.xlsx:people", "census.parquet", "census.db:people", "census.db"} {
		got, err := Load(filepath.Join(dir, spec), csvfile.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		sameTable(t, spec, got, want)
		if len(got.Notes) != 0 {
			t.Errorf("%s: notes %q", spec, got.Notes)
		}
	}
	// The same options apply: a kind, the limit.
	opt := csvfile.LoadOptions{Kinds: map[string]model.Kind{"age": model.Categorical, "hours-per-week": model.Categorical}}
	want, _ = csvfile.LoadFile(filepath.Join(dir, "census.csv"), opt)
	for _, spec := range []string{"census.xlsx", "census.parquet", "census.db:people"} {
		got, err := Load(filepath.Join(dir, spec), opt)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		sameTable(t, spec+" with kinds", got, want)
	}
}

// TestFormatKinds: a text column of numbers with leading zeros stays text
// (categorical, zeros kept) in every format; a null is missing whatever
// the tokens; a NaN is missing.
func TestFormatKinds(t *testing.T) {
	dir := t.TempDir()
	src, err := csvfile.Load(strings.NewReader("zip,age,note\n01234,30,a\n02345,40,\n01234,,NA\n"),
		csvfile.LoadOptions{MissingTokens: []string{""}, Kinds: map[string]model.Kind{"zip": model.Categorical}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteExcel(filepath.Join(dir, "z.xlsx"), "Sheet1", src); err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteParquet(filepath.Join(dir, "z.parquet"), src, 0); err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteSQLite(filepath.Join(dir, "z.db"), "z", src); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"z.xlsx", "z.parquet", "z.db"} {
		tb, err := Load(filepath.Join(dir, spec), csvfile.LoadOptions{MissingTokens: []string{"?", ""}})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		zip, age, note := tb.Column("zip"), tb.Column("age"), tb.Column("note")
		if zip.Kind != model.Categorical || zip.Value(0) != "01234" || strings.Join(zip.Dict, ",") != "01234,02345" {
			t.Errorf("%s: zip %s %v", spec, zip.Kind, zip.Dict)
		}
		if age.Kind != model.Numeric || age.MissingCount != 1 || age.Value(1) != "40" {
			t.Errorf("%s: age %s %v missing %d", spec, age.Kind, age.Dict, age.MissingCount)
		}
		// note: "a", a null (an empty cell in Excel), and NA (a value
		// under these tokens).
		if note.MissingCount != 1 || note.Value(2) != "NA" {
			t.Errorf("%s: note %v missing %d", spec, note.Dict, note.MissingCount)
		}
		if len(tb.Notes) == 0 || !strings.Contains(tb.Notes[0].Text, "holds numbers as text") {
			t.Errorf("%s: no note on the zip codes read as text: %q", spec, tb.Notes)
		}
	}
}

// TestSheetsAndTables: FILE.xlsx:SHEET and FILE.db:TABLE choose; the
// first sheet is the default; a sheet or table that is not there, or a
// database of several tables without one named, is an error listing them.
func TestSheetsAndTables(t *testing.T) {
	dir := t.TempDir()
	a := table(t, "x,y\n1,a\n2,b\n")
	b := table(t, "x,z\n3,c\n")
	path := filepath.Join(dir, "w.xlsx")
	if err := sourcetest.WriteExcel(path, "first", a); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "d.db")
	if err := sourcetest.WriteSQLite(db, "alpha", a); err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteSQLite(db, "beta", b); err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{path: "x,y 2", path + ":first": "x,y 2", path + ":FIRST": "x,y 2", db + ":beta": "x,z 1", db + ":alpha": "x,y 2"} {
		tb, err := Load(spec, csvfile.LoadOptions{})
		if err != nil || fmt.Sprintf("%s %d", strings.Join(tb.Names(), ","), tb.Rows) != want {
			t.Errorf("%s: %v %v", spec, tb, err)
		}
	}
	for spec, want := range map[string]string{
		path + ":second": `w.xlsx: no sheet "second" (hint: sheets: first)`,
		db + ":gamma":    `d.db: no table "gamma" (hint: tables: alpha, beta)`,
		db:               "d.db: which table? a database holds tables, a table is read (hint: name one: " + db + ":TABLE (tables: alpha, beta))",
	} {
		_, err := Load(spec, csvfile.LoadOptions{})
		var ie *model.InputError
		if !errors.As(err, &ie) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want …%s", spec, err, want)
		}
	}
	if parts, err := Parts(db); err != nil || strings.Join(parts, ",") != "alpha,beta" {
		t.Errorf("tables %v %v", parts, err)
	}
	if parts, err := Parts(path); err != nil || strings.Join(parts, ",") != "first" {
		t.Errorf("sheets %v %v", parts, err)
	}
}

// TestSheetHeaderRow: a sheet's first row is its header unless it looks
// like data, as for CSV; --columns names a sheet without a header row.
func TestSheetHeaderRow(t *testing.T) {
	dir := t.TempDir()
	data := table(t, "c1,c2\n39,State-gov\n50,Private\n38,State-gov\n")
	path := filepath.Join(dir, "h.xlsx")
	// WriteExcel writes the names as the first row: here they are "c1",
	// "c2"; write the rows alone by naming the columns as the first row.
	named := table(t, "39,State-gov\n50,Private\n38,State-gov\n")
	if err := sourcetest.WriteExcel(path, "Sheet1", named); err != nil {
		t.Fatal(err)
	}
	tb, err := Load(path, csvfile.LoadOptions{HeaderRow: csvfile.HeaderDetect})
	if err != nil || tb.Rows != 3 || !tb.FirstRowData || strings.Join(tb.Names(), ",") != "c1,c2" {
		t.Fatalf("detected: %v %v", tb, err)
	}
	sameTable(t, "header-less sheet", tb, data)
	tb, err = Load(path, csvfile.LoadOptions{Header: []string{"age", "job"}})
	if err != nil || tb.Rows != 3 || strings.Join(tb.Names(), ",") != "age,job" {
		t.Fatalf("named: %v %v", tb, err)
	}
	tb, err = Load(path, csvfile.LoadOptions{HeaderRow: csvfile.HeaderYes})
	if err != nil || tb.Rows != 2 || tb.Names()[0] != "39" {
		t.Fatalf("header yes: %v %v", tb, err)
	}
}

// TestBadFilesAreInputErrors: corrupt or truncated files, a file of
// another format under an extension, options that do not fit the format:
// errors naming the file, never a panic or a half-loaded table.
func TestBadFilesAreInputErrors(t *testing.T) {
	dir := t.TempDir()
	censusFiles(t, dir, 60)
	for _, name := range []string{"census.xlsx", "census.parquet", "census.db"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, cut := range []int{0, 4, 100, len(b) / 2, len(b) - 8} {
			bad := filepath.Join(dir, fmt.Sprintf("cut%d-%s", cut, name))
			os.WriteFile(bad, b[:cut], 0o644)
			tb, err := Load(bad+map[bool]string{true: ":people", false: ""}[name == "census.db"], csvfile.LoadOptions{})
			var ie *model.InputError
			if (tb != nil || !errors.As(err, &ie)) && !(err == nil && tb.Rows == 60) {
				t.Errorf("%s cut at %d: %v %v", name, cut, tb, err)
			}
		}
	}
	os.WriteFile(filepath.Join(dir, "text.parquet"), []byte("a,b\n1,2\n"), 0o644)
	if _, err := Load(filepath.Join(dir, "text.parquet"), csvfile.LoadOptions{}); err == nil || !strings.Contains(err.Error(), "Parquet") {
		t.Errorf("CSV text named .parquet: %v", err)
	}
	// A workbook named .csv still opens as a workbook.
	b, _ := os.ReadFile(filepath.Join(dir, "census.xlsx"))
	os.WriteFile(filepath.Join(dir, "renamed.csv"), b, 0o644)
	if tb, err := Load(filepath.Join(dir, "renamed.csv"), csvfile.LoadOptions{}); err != nil || tb.Rows != 60 {
		t.Errorf("a workbook named .csv: %v %v", tb, err)
	}
	for spec, want := range map[string]string{
		"census.parquet:x": "a Parquet file has no sheets or tables",
		"census.csv:x":     "a CSV file has no sheets or tables",
		"nothere.csv":      "file does not exist",
	} {
		if _, err := Load(filepath.Join(dir, spec), csvfile.LoadOptions{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		// A device named as a workbook or a Parquet file: refused before
		// a byte is read (those readers read at random places).
		os.Symlink("/dev/zero", filepath.Join(dir, "zero.xlsx"))
		os.Symlink("/dev/zero", filepath.Join(dir, "zero.parquet"))
		for _, spec := range []string{"zero.xlsx", "zero.parquet", "/dev/zero"} {
			if !filepath.IsAbs(spec) {
				spec = filepath.Join(dir, spec)
			}
			if _, err := Load(spec, csvfile.LoadOptions{}); err == nil || !strings.Contains(err.Error(), "not ") {
				t.Errorf("%s: %v", spec, err)
			}
		}
	}
	if _, err := Load(filepath.Join(dir, "census.parquet"), csvfile.LoadOptions{Delimiter: ';'}); err == nil || !strings.Contains(err.Error(), "applies to CSV text") {
		t.Errorf("a delimiter for Parquet: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "census.db:people"), csvfile.LoadOptions{Header: []string{"a"}}); err == nil || !strings.Contains(err.Error(), "names its columns itself") {
		t.Errorf("--columns for SQLite: %v", err)
	}
}

// TestLimitsApplyToEveryFormat: the cell limit holds for every format.
func TestLimitsApplyToEveryFormat(t *testing.T) {
	dir := t.TempDir()
	censusFiles(t, dir, 30)
	for _, spec := range []string{"census.xlsx", "census.parquet", "census.db:people"} {
		_, err := Load(filepath.Join(dir, spec), csvfile.LoadOptions{MaxCell: 3})
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.Line == 0 || ie.Column == 0 || !strings.Contains(err.Error(), "value is longer than 3 bytes") {
			t.Errorf("%s: %v", spec, err)
		}
	}
}

// TestSplit: the file and the sheet or table of a spec.
func TestSplit(t *testing.T) {
	for spec, want := range map[string]string{
		"a.xlsx:Sheet 2":   "a.xlsx|Sheet 2",
		"a.db:people":      "a.db|people",
		"a.sqlite3:t":      "a.sqlite3|t",
		"a.csv":            "a.csv|",
		"dir/a.csv":        "dir/a.csv|",
		"a.parquet":        "a.parquet|",
		`C:\data\x.csv`:    `C:\data\x.csv|`,
		"b.xlsx":           "b.xlsx|",
		"dataset:census":   "dataset:census|",
		"x.db:main.people": "x.db|main.people",
	} {
		p, part := Split(spec)
		if p+"|"+part != want {
			t.Errorf("Split(%q) = %q, %q", spec, p, part)
		}
	}
}

// TestDamagedParquetStaysSmall: what fuzzing found to crash or balloon
// parquet-go v0.32.0 is refused before it decodes: LZ4 pages (a damaged
// one made its decoder double its buffer until out of memory), a footer
// length beyond the file (it allocated the 4 GB stated), a page header
// that claims more than its column chunk. Each is an input error, and
// little memory is allocated.
func TestDamagedParquetStaysSmall(t *testing.T) {
	dir := t.TempDir()
	src := table(t, "age,job\n30,a\n41,b\n30,c\n")
	good := filepath.Join(dir, "good.parquet")
	if err := sourcetest.WriteParquetWith(good, src, 0, &parquet.Uncompressed); err != nil {
		t.Fatal(err)
	}
	lz4 := filepath.Join(dir, "lz4.parquet")
	if err := sourcetest.WriteParquetWith(lz4, src, 0, &parquet.Lz4Raw); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	footer := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(footer[len(footer)-8:], 0xfffffff0)
	os.WriteFile(filepath.Join(dir, "footer.parquet"), footer, 0o644)
	// The first page header follows the magic PAR1: its uncompressed and
	// compressed sizes are zigzag varints after the page type; make both
	// huge (a 5-byte varint in place of a 1-byte one shifts the header,
	// so the header is damaged or claims too much, either way refused).
	page := append(append(append([]byte(nil), b[:6]...), 0xfe, 0xff, 0xff, 0xff, 0x0f), b[7:]...)
	os.WriteFile(filepath.Join(dir, "page.parquet"), page, 0o644)
	for name, want := range map[string]string{
		"lz4.parquet":    "compressed with LZ4",
		"footer.parquet": "its footer claims 4294967280 bytes",
		"page.parquet":   "column age: a",
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Load(filepath.Join(dir, name), csvfile.LoadOptions{})
		runtime.ReadMemStats(&after)
		var ie *model.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
			t.Errorf("%s: %d MB allocated", name, d>>20)
		}
	}
	if tb, err := Load(good, csvfile.LoadOptions{}); err != nil || tb.Rows != 3 {
		t.Fatalf("the intact file: %v %v", tb, err)
	}
}
