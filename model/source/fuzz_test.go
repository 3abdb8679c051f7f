package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/model"
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
	t, err := model.Load(strings.NewReader("age,zip,job\n30,01234,a\n41,,b\n30,02345,NA\n"), model.LoadOptions{Name: "seed.csv"})
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
	tb, err := Load(path, model.LoadOptions{})
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
