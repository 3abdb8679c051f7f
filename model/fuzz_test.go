package model

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"privlab/model/strictjson"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
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
			var ie *InputError
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
func compareWithEncodingCSV(t *testing.T, data []byte, tb *Table, err error) {
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
		var ie *InputError
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
			if c.firstLine[code] != firstLines[i][v] {
				t.Fatalf("column %d value %q first on line %d, encoding/csv says %d", i, v, c.firstLine[code], firstLines[i][v])
			}
		}
	}
}

// FuzzReadManifest: any manifest.json is read without a panic, and a
// manifest that reads renders a report (twice the same: the report is a
// function of the manifest, which check relies on).
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"method":"distribution","parameters":{"fakes":"0"},"quasi_identifiers":["a"],"sensitive":"s","rows_in":3,"rows_published":3,"groups":1,"details":{"domain":["1","2"],"group_figures":[{"figure":"x","min":1}]},"files":[{"name":"qi.csv","rows":3,"sha256":"00"}]}`))
	f.Add([]byte(`{"method":"x","details":[1,[2,{"a":null}],"|pipe|"],"worst_cases":[{"name":"w","value":1e308,"ok":true}]}`))
	f.Add([]byte(`{"files":[{"name":"../etc/passwd"}],"notes":["a\nb"]}`))
	f.Add([]byte(`{not json`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"method":"x","details":{"a":` + strings.Repeat("[", strictjson.MaxDepth-1) + strings.Repeat("]", strictjson.MaxDepth-1) + `}}`))
	f.Add([]byte(`{"details":` + strings.Repeat(`{"a":[`, 40) + `"\"[{"` + strings.Repeat(`]}`, 40) + `}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(dir)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if r1, r2 := RenderReport(m), RenderReport(m); r1 != r2 {
			t.Fatal("the report of one manifest differs between renderings")
		}
	})
}

// FuzzDecodeAudit: any audit record reads as strictjson.Decode reads it (the
// same record, or the same error), whatever its row map's fast path
// makes of it, and one nested too deep is an error.
func FuzzDecodeAudit(f *testing.F) {
	f.Add([]byte(`{"input":"in.csv","seed":7,"row_map":{"a.csv":[3,0,-2],"b.csv":[]},"config":{"k":"v"}}`))
	f.Add([]byte("{\"row_map\": {\"a.csv\": [1,\n2]},\n\"seed\": 1,\n\"Seed\": 2}"))
	f.Add([]byte(`{"row_map":{"a.csv":[1]},"config":` + strings.Repeat("[", strictjson.MaxDepth) + strings.Repeat("]", strictjson.MaxDepth) + `}`))
	f.Add([]byte(`{"config":{"x":"\"[[[\\"},"row_map":{"a.csv":[` + strings.Repeat("[", 70) + `]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var want, got Audit
		werr := strictjson.Decode(b, &want)
		gerr := decodeAudit(b, &got)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || werr == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("strictjson.Decode gives %+v (%v), decodeAudit %+v (%v)", want, werr, got, gerr)
		}
		if gerr == nil && jsonNesting(b) > strictjson.MaxDepth {
			t.Fatal("a record nested too deep was read")
		}
	})
}

// jsonNesting is the deepest nesting of objects and lists in the JSON
// document b (brackets inside strings aside).
func jsonNesting(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
