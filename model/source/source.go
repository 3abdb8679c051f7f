// Package source opens the tables privlab reads, whatever their format,
// through one loader: CSV text (csvfile.Load), a sheet of an Excel workbook
// (.xlsx, read from its zip with archive/zip and encoding/xml), a Parquet file
// (github.com/parquet-go/parquet-go) and a table of a SQLite database
// (modernc.org/sqlite, pure Go, through database/sql). Every format is
// encoded by model's encoder, so a table has the same profile, kinds,
// missing values, limits and errors whichever file it came from:
//
//	t, err := source.LoadContext(ctx, "adult.csv", csvfile.LoadOptions{})
//	t, err := source.LoadContext(ctx, "extract.xlsx", opt)          // the first sheet
//	t, err := source.LoadContext(ctx, "extract.xlsx:2024", opt)     // the sheet 2024
//	t, err := source.LoadContext(ctx, "census.parquet", opt)
//	t, err := source.LoadContext(ctx, "registry.db:people", opt)    // a table (or view)
//
// Kinds come from the format where it has them: Parquet and SQLite column
// types (a text column stays categorical even when its values look like
// numbers: zip codes keep their leading zeros), Excel's numeric cells. A
// NULL is a missing value whatever the tokens. The file is only read.
package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"privlab/model"
	"privlab/model/csvfile"
)

// Format is a table's file format.
type Format string

// The formats privlab reads.
const (
	CSV     Format = "csv"
	Excel   Format = "xlsx"
	Parquet Format = "parquet"
	SQLite  Format = "sqlite"
)

// Formats lists the extensions of each format (lower case, with the dot),
// for file pickers.
var Formats = map[Format][]string{
	CSV:     {".csv", ".tsv", ".txt", ".data"},
	Excel:   {".xlsx", ".xlsm"},
	Parquet: {".parquet", ".parq", ".pq"},
	SQLite:  {".db", ".sqlite", ".sqlite3", ".db3"},
}

// Extensions lists every extension Formats names.
func Extensions() []string {
	var out []string
	for _, f := range []Format{CSV, Excel, Parquet, SQLite} {
		out = append(out, Formats[f]...)
	}
	return out
}

// byExtension is the format a file's name says (CSV when it says none of
// the others).
func byExtension(path string) Format {
	ext := strings.ToLower(filepath.Ext(path))
	for f, exts := range Formats {
		for _, e := range exts {
			if e == ext {
				return f
			}
		}
	}
	return CSV
}

// Split separates a table's spec into the file and the part of it that
// holds the table: FILE.xlsx:SHEET, FILE.db:TABLE. A spec that names an
// existing file is that file whole (a colon may be part of a file name);
// otherwise the part follows the last colon of a spec whose file part is
// a workbook or a database.
func Split(spec string) (path, part string) {
	if _, err := os.Stat(spec); err == nil {
		return spec, ""
	}
	i := strings.LastIndexByte(spec, ':')
	if i <= 0 {
		return spec, ""
	}
	p, part := spec[:i], spec[i+1:]
	if f := byExtension(p); f == Excel || f == SQLite {
		return p, part
	}
	if _, err := os.Stat(p); err == nil && !strings.ContainsAny(part, `/\`) {
		return p, part
	}
	return spec, ""
}

// Path is the file of a table's spec (Split).
func Path(spec string) string {
	p, _ := Split(spec)
	return p
}

// FormatOf is the format of a table's file: its content decides when it
// starts as a workbook, a Parquet file or a SQLite database does (a file
// renamed .csv still opens), else its extension.
func FormatOf(path string) Format {
	if f, err := os.Open(path); err == nil {
		head := make([]byte, 16)
		n, _ := io.ReadFull(f, head)
		f.Close()
		head = head[:n]
		switch {
		case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
			return SQLite
		case bytes.HasPrefix(head, []byte("PAR1")):
			return Parquet
		case bytes.HasPrefix(head, []byte("PK\x03\x04")) && byExtension(path) != CSV:
			return byExtension(path)
		case bytes.HasPrefix(head, []byte("PK\x03\x04")):
			return Excel
		}
	}
	return byExtension(path)
}

// LoadContext is Load under a context: cancelling it (Ctrl-C, a newer
// load in the workbench) stops the reading of a workbook or a database,
// and the error is then the context's.
func LoadContext(ctx context.Context, spec string, opt csvfile.LoadOptions) (*model.Table, error) {
	return load(ctx, spec, opt, 0)
}

// Preview reads the first rows of a table (at most rows of them, the header
// row not counted) as Load reads the whole: the import wizard shows them.
// A CSV file's first 64 KiB are read whole.
func Preview(spec string, opt csvfile.LoadOptions, rows int) (*model.Table, error) {
	return load(context.Background(), spec, opt, rows)
}

func load(ctx context.Context, spec string, opt csvfile.LoadOptions, limit int) (*model.Table, error) {
	path, part := Split(spec)
	st, err := os.Stat(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err), Hint: "check the path; use dataset:NAME for an embedded dataset (privlab datasets lists them)"}
	}
	if st.IsDir() {
		return nil, &model.InputError{File: path, Msg: "is a directory, expected a data file (CSV, .xlsx, .parquet or a SQLite FILE.db:TABLE)"}
	}
	format := FormatOf(path)
	if format != CSV && !st.Mode().IsRegular() {
		// A workbook, a Parquet file and a database are read at random
		// places: from a file, not from a device or a pipe.
		return nil, &model.InputError{File: path, Msg: "is not a regular file, expected a " + formatName(format) + " file"}
	}
	if err := fits(format, path, part, opt); err != nil {
		return nil, err
	}
	switch format {
	case Excel:
		if limit > 0 {
			limit++ // the header row
		}
		return guard(path, format, func() (*model.Table, error) { return loadExcel(ctx, path, part, opt, limit) })
	case Parquet:
		t, err := guard(path, format, func() (*model.Table, error) { return loadParquet(path, opt) })
		if err == nil && limit > 0 && t.Rows > limit {
			t = firstRows(t, limit)
		}
		return t, err
	case SQLite:
		return guard(path, format, func() (*model.Table, error) { return loadSQLite(ctx, path, part, opt, limit) })
	}
	if limit > 0 {
		return previewCSV(path, opt)
	}
	return csvfile.LoadFile(path, opt)
}

// firstRows keeps a table's first n rows (and its notes).
func firstRows(t *model.Table, n int) *model.Table {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	out := t.SelectRows(rows)
	out.Notes, out.FirstRowData = t.Notes, t.FirstRowData
	return out
}

// previewCSV reads a CSV file's first 64 KiB, cut at a line end.
func previewCSV(path string, opt csvfile.LoadOptions) (*model.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err)}
	}
	defer f.Close()
	b := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, b)
	b = b[:n]
	if n == len(b) {
		if i := bytes.LastIndexByte(b, '\n'); i > 0 {
			b = b[:i+1]
		}
	}
	if opt.Name == "" {
		opt.Name = path
	}
	return csvfile.Load(bytes.NewReader(b), opt)
}

// fits refuses options that do not apply to the format.
func fits(format Format, path, part string, opt csvfile.LoadOptions) error {
	if part != "" && format != Excel && format != SQLite {
		return &model.InputError{File: path, Msg: fmt.Sprintf("a %s file has no sheets or tables (%q)", formatName(format), part),
			Hint: "FILE.xlsx:SHEET names a sheet, FILE.db:TABLE a table"}
	}
	if format != CSV && opt.Delimiter != 0 {
		return &model.ParamError{Param: "delimiter", Value: string(opt.Delimiter), Reason: "applies to CSV text, and " + path + " is " + string(format),
			Fixes: []model.Fix{{Setting: model.SetDelimiter, Change: model.Leave}}}
	}
	if (format == Parquet || format == SQLite) && (len(opt.Header) > 0 || opt.HeaderRow == csvfile.HeaderNo) {
		return &model.ParamError{Param: "columns", Reason: path + " names its columns itself (a " + string(format) + " schema has no header row)",
			Hint:  "the schema names the columns, so whether a first row does is not asked either",
			Fixes: []model.Fix{{Setting: model.SetColumns, Change: model.Leave}}}
	}
	return nil
}

// guard turns a panic inside a format's library (a corrupt file it did
// not expect) into an input error: a bad file is never a crash.
func guard(path string, format Format, load func() (*model.Table, error)) (t *model.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, &model.InputError{File: path, Msg: fmt.Sprintf("not a readable %s file (%v)", formatName(format), r),
				Hint: "is the file complete? open it in the program that wrote it and save it again"}
		}
	}()
	return load()
}

func formatName(f Format) string {
	switch f {
	case Excel:
		return "Excel workbook"
	case Parquet:
		return "Parquet"
	case SQLite:
		return "SQLite database"
	}
	return "CSV"
}

// Parts lists the sheets of a workbook or the tables (and views) of a
// database, in their order; nil for the other formats.
func Parts(path string) ([]string, error) {
	switch FormatOf(path) {
	case Excel:
		var out []string
		_, err := guard(path, Excel, func() (*model.Table, error) {
			var err error
			out, err = excelSheets(path)
			return nil, err
		})
		return out, err
	case SQLite:
		var out []string
		_, err := guard(path, SQLite, func() (*model.Table, error) {
			var err error
			out, err = sqliteTables(path)
			return nil, err
		})
		return out, err
	}
	return nil, nil
}

// inputError names the file (and part) of a table for errors: FILE:PART.
func tableName(path, part string) string {
	if part == "" {
		return path
	}
	return path + ":" + part
}

// notFound says a sheet or table is not there, listing those that are.
func notFound(path, what, part string, have []string) error {
	hint := "the file holds no " + what + "s"
	if len(have) > 0 {
		hint = what + "s: " + strings.Join(quoteAll(have), ", ")
	}
	return &model.InputError{File: path, Msg: fmt.Sprintf("no %s %q", what, part), Hint: hint}
}

// sizeText writes a size in bytes for messages: 64 KB, 16 MB.
func sizeText[N int | int64](n N) string {
	switch {
	case n >= 10<<30:
		return strconv.FormatInt(int64(n>>30), 10) + " GB"
	case n >= 10<<20:
		return strconv.FormatInt(int64(n>>20), 10) + " MB"
	case n >= 10<<10:
		return strconv.FormatInt(int64(n>>10), 10) + " KB"
	}
	return strconv.FormatInt(int64(n), 10) + " bytes"
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x
		if strings.ContainsAny(x, " ,:") {
			out[i] = fmt.Sprintf("%q", x)
		}
	}
	return out
}

// asInput keeps an *model.InputError as it is and names the file in any
// other error from a format's library.
func asInput(path string, format Format, err error) error {
	var ie *model.InputError
	var pe *model.ParamError
	if errors.As(err, &ie) || errors.As(err, &pe) {
		return err
	}
	return &model.InputError{File: path, Msg: fmt.Sprintf("not a readable %s file: %v", formatName(format), err),
		Hint: "is the file complete? open it in the program that wrote it and save it again"}
}
