package csvfile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"privlab/model"
)

// FuzzLoad: Load never panics; a table it returns is consistent; and it
// agrees with encoding/csv (the reference RFC 4180 reader) on what the
// input holds: the same values where both accept the input, an error where
// encoding/csv rejects it, and the same line for ragged rows and bad UTF-8.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"a,b,c\n1,2,3\n",
		"a;b\r\n\"x;y\";\"p\r\nq\"\r\n",
		"a,b\n1,\"2",
		"a,b\n1,2\"x\n",
		"\xEF\xBB\xBFa|b\n?|NA\n",
		"a, b\n1, \"x, y\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The first row is the header here (encoding/csv cannot say
		// otherwise); FuzzFirstRow covers the detection.
		tb, err := Load(bytes.NewReader(data), LoadOptions{Name: "f.csv", HeaderRow: HeaderYes})
		if body := bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}); bytes.IndexByte(body[:min(len(body), sampleSize)], 0) >= 0 {
			// A NUL byte in the first 64 KiB: not text, whatever
			// encoding/csv makes of it.
			if err == nil || !strings.Contains(err.Error(), "NUL byte") {
				t.Fatalf("a NUL byte in the sample: %v", err)
			}
			return
		}
		if err == nil {
			checkTable(t, tb)
			checkFirstLines(t, tb)
			if tb.Rows == 0 || len(tb.Columns) == 0 {
				t.Fatalf("empty table without an error")
			}
		} else {
			if tb != nil {
				t.Fatalf("table and error")
			}
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T: %v", err, err)
			}
			if ie.File != "f.csv" || ie.Line < 0 || ie.Column < 0 {
				t.Fatalf("bad position in %v", err)
			}
		}
		compareWithEncodingCSV(t, data, tb, err)
	})
}

// compareWithEncodingCSV checks Load's result against what encoding/csv
// reads from the same text with the same delimiter, applying the loader's
// own rules (blank lines skipped, header trimmed and checked, same field
// count on every row, UTF-8, missing tokens).
func compareWithEncodingCSV(t *testing.T, data []byte, tb *model.Table, err error) {
	in := bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	sample := in
	if len(sample) > sampleSize {
		sample = sample[:sampleSize]
	}
	delim := DetectDelimiter(sample)
	if spaceAfterDelimiter(sample, delim) {
		return // trimming is the loader's own extension
	}
	cr := csv.NewReader(bytes.NewReader(in))
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	blank := func(rec []string) bool { return len(rec) == 1 && strings.TrimSpace(rec[0]) == "" }
	// expect an error at (line, column); line 0 means any error will do.
	fail := func(line, col int, why string) {
		t.Helper()
		if err == nil {
			t.Fatalf("loaded %d rows; encoding/csv says: %s", tb.Rows, why)
		}
		var ie *model.InputError
		if line > 0 && (!errors.As(err, &ie) || ie.Line != line || ie.Column != col) {
			t.Fatalf("got %v; want an error at line %d column %d: %s", err, line, col, why)
		}
	}
	var header []string
	for {
		rec, rerr := cr.Read()
		if rerr == io.EOF {
			fail(1, 0, "empty file")
			return
		}
		if rerr != nil {
			fail(0, 0, rerr.Error())
			return
		}
		if blank(rec) {
			continue
		}
		line, _ := cr.FieldPos(0)
		for i, h := range rec {
			if !utf8.ValidString(h) {
				l, _ := cr.FieldPos(i)
				fail(l, i+1, "header not UTF-8")
				return
			}
		}
		seen := map[string]bool{}
		for i, h := range rec {
			h = strings.TrimSpace(h)
			if h == "" || seen[h] {
				fail(line, i+1, "empty or duplicate name")
				return
			}
			seen[h] = true
			header = append(header, h)
		}
		break
	}
	n := len(header)
	missing := map[string]bool{}
	for _, m := range DefaultMissingTokens {
		missing[m] = true
	}
	var rows [][]string
	var firstLines []map[string]int
	for range header {
		firstLines = append(firstLines, map[string]int{})
	}
	for {
		rec, rerr := cr.Read()
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			fail(0, 0, rerr.Error())
			return
		}
		if len(rec) != n {
			if len(rec) == 1 && blank(rec) {
				continue
			}
			line, _ := cr.FieldPos(0)
			col := n + 1
			if len(rec) < n {
				col = len(rec) + 1
			}
			fail(line, col, "ragged row")
			return
		}
		for i, v := range rec {
			l, _ := cr.FieldPos(i)
			if missing[v] {
				continue
			}
			if !utf8.ValidString(v) {
				fail(l, i+1, "value not UTF-8")
				return
			}
			if _, ok := firstLines[i][v]; !ok {
				firstLines[i][v] = l
			}
		}
		rows = append(rows, append([]string(nil), rec...))
	}
	if len(rows) == 0 {
		fail(0, 0, "header only")
		return
	}
	if err != nil {
		t.Fatalf("Load failed: %v; encoding/csv read %d rows", err, len(rows))
	}
	if !reflect.DeepEqual(tb.Names(), header) || tb.Rows != len(rows) {
		t.Fatalf("columns %q rows %d; encoding/csv: %q rows %d", tb.Names(), tb.Rows, header, len(rows))
	}
	for i, c := range tb.Columns {
		for r, rec := range rows {
			if missing[rec[i]] {
				if !c.IsMissing(r) {
					t.Fatalf("row %d column %d: %q should be missing", r, i, rec[i])
				}
			} else if c.IsMissing(r) || c.Value(r) != rec[i] {
				t.Fatalf("row %d column %d: got %q, encoding/csv %q", r, i, c.Value(r), rec[i])
			}
		}
		for code, v := range c.Dict {
			if c.FirstLines[code] != firstLines[i][v] {
				t.Fatalf("column %d value %q first on line %d, encoding/csv says %d", i, v, c.FirstLines[code], firstLines[i][v])
			}
		}
	}
}
