package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/source/sourcetest"
)

// The readers of the binary formats are fuzzed with their files' bytes
// (go test ./model/source -fuzz FuzzParquet; the corpus is kept under
// testdata/fuzz): a file, whatever its bytes, loads to a consistent table
// or is an input error, never a crash. (parquet-go panics on some damaged
// files, "slice bounds out of range" in its page decoding; the guard turns
// that into an input error, and the corpus keeps such files.)

func fuzzSeed(f *testing.F, name string, write func(path string, t *model.Table) error) {
	f.Helper()
	t, err := csvfile.Load(strings.NewReader("age,zip,job\n30,01234,a\n41,,b\n30,02345,NA\n"), csvfile.LoadOptions{Name: "seed.csv"})
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(f.TempDir(), name)
	if err := write(path, t); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

func fuzzLoad(t *testing.T, data []byte, name, part string) {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if part != "" {
		path += ":" + part
	}
	tb, err := Load(path, csvfile.LoadOptions{})
	if err != nil {
		var ie *model.InputError
		var pe *model.ParamError
		if !errors.As(err, &ie) && !errors.As(err, &pe) {
			t.Fatalf("not an input error: %T %v", err, err)
		}
		if tb != nil {
			t.Fatal("a table with an error")
		}
		return
	}
	if tb.Rows <= 0 || len(tb.Columns) == 0 {
		t.Fatalf("an empty table without an error: %d rows %d columns", tb.Rows, len(tb.Columns))
	}
	for _, c := range tb.Columns {
		if len(c.Codes) != tb.Rows {
			t.Fatalf("column %s has %d rows of %d", c.Name, len(c.Codes), tb.Rows)
		}
		missing := 0
		for _, code := range c.Codes {
			if code == model.Missing {
				missing++
			} else if int(code) >= len(c.Dict) {
				t.Fatalf("column %s: code %d of %d values", c.Name, code, len(c.Dict))
			}
		}
		if missing != c.MissingCount {
			t.Fatalf("column %s: %d missing, counted %d", c.Name, missing, c.MissingCount)
		}
	}
}

func FuzzParquet(f *testing.F) {
	fuzzSeed(f, "s.parquet", func(p string, t *model.Table) error { return sourcetest.WriteParquet(p, t, 0) })
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLoad(t, data, "f.parquet", "") })
}

func FuzzExcel(f *testing.F) {
	fuzzSeed(f, "s.xlsx", func(p string, t *model.Table) error { return sourcetest.WriteExcel(p, "Sheet1", t) })
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLoad(t, data, "f.xlsx", "") })
}

func FuzzSQLite(f *testing.F) {
	fuzzSeed(f, "s.db", func(p string, t *model.Table) error { return sourcetest.WriteSQLite(p, "t", t) })
	f.Fuzz(func(t *testing.T, data []byte) { fuzzLoad(t, data, "f.db", "t") })
}

// FuzzExcelXML fuzzes a workbook's sheet and shared strings as XML text
// (the zip around them made whole, so that the XML is what is read). The
// reader is privlab's own: a panic in it (which the guard would report as
// an unreadable file) fails.
func FuzzExcelXML(f *testing.F) {
	f.Add(``, `<si></x></x>y`) // a text after the elements closed: it indexed an empty stack
	f.Add(`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>b</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>1</v></c></row>`,
		`<si><t>a</t></si><si><r><t>x</t></r><r><t>_x0041_</t></r><rPh><t>p</t></rPh></si>`)
	f.Add(`<row><c><v>1</v></c><c t="b"><v>0</v></c></row><row><c><v>2</v></c><c t="str"><v>&amp;</v></c></row>`, ``)
	f.Fuzz(func(t *testing.T, sheet, sst string) {
		data := xlsxBytes(t, xlsxPart{head: sheet}, xlsxPart{head: sst})
		fuzzLoad(t, data, "f.xlsx", "")
		path := filepath.Join(t.TempDir(), "g.xlsx")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path, csvfile.LoadOptions{}); err != nil && strings.Contains(err.Error(), "not a readable Excel workbook file (") {
			t.Fatal(err)
		}
	})
}
