// Package sourcetest writes a table as an Excel workbook, a Parquet file
// and a SQLite database, for tests that show each loads to the same table
// as its CSV (model/source). Numeric columns are written as numbers
// (integers where every value is one), categorical ones as text, missing
// values as empty cells (Excel) or nulls.
package sourcetest

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"unicode"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/xuri/excelize/v2"
	_ "modernc.org/sqlite"

	"privlab/model"
)

// integral reports whether every value of a numeric column is an integer.
func integral(c *model.Column) bool {
	for _, v := range c.Nums {
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return false
		}
	}
	return true
}

// cell is row r of c as a Go value: int64, float64, string, or nil when
// missing.
func cell(c *model.Column, r int) any {
	if c.IsMissing(r) {
		return nil
	}
	if c.Kind != model.Numeric {
		return c.Value(r)
	}
	if integral(c) {
		return int64(c.Num(r))
	}
	return c.Num(r)
}

// WriteExcel writes t to sheet of a new workbook at path: a header row,
// then one row per record.
func WriteExcel(path, sheet string, t *model.Table) error {
	f := excelize.NewFile()
	defer f.Close()
	if sheet != "Sheet1" {
		if err := f.SetSheetName("Sheet1", sheet); err != nil {
			return err
		}
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	row := make([]any, len(t.Columns))
	for i, c := range t.Columns {
		row[i] = c.Name
	}
	if err := sw.SetRow("A1", row); err != nil {
		return err
	}
	for r := 0; r < t.Rows; r++ {
		for i, c := range t.Columns {
			row[i] = cell(c, r)
		}
		ref, _ := excelize.CoordinatesToCellName(1, r+2)
		if err := sw.SetRow(ref, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}

// WriteParquet writes t as a Parquet file, every column optional and
// dictionary-encoded (as pyarrow writes by default), Snappy-compressed,
// in row groups of rowGroup rows (0: one group).
func WriteParquet(path string, t *model.Table, rowGroup int) error {
	return WriteParquetWith(path, t, rowGroup, &parquet.Snappy)
}

// WriteParquetWith writes t as WriteParquet does, with the given
// compression codec.
func WriteParquetWith(path string, t *model.Table, rowGroup int, codec compress.Codec) error {
	fields := make([]reflect.StructField, len(t.Columns))
	for i, c := range t.Columns {
		typ := reflect.TypeOf("")
		if c.Kind == model.Numeric {
			typ = reflect.TypeOf(float64(0))
			if integral(c) {
				typ = reflect.TypeOf(int64(0))
			}
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: typ, Tag: reflect.StructTag(fmt.Sprintf(`parquet:"%s,optional,dict"`, c.Name))}
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Elem().Interface())
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := parquet.NewWriter(f, schema, parquet.Compression(codec))
	batch := make([]parquet.Row, 0, 1024)
	flush := func() error {
		_, err := w.WriteRows(batch)
		batch = batch[:0]
		return err
	}
	for r := 0; r < t.Rows; r++ {
		row := make(parquet.Row, len(t.Columns))
		for i, c := range t.Columns {
			v := cell(c, r)
			if v == nil {
				row[i] = parquet.Value{}.Level(0, 0, i)
				continue
			}
			row[i] = parquet.ValueOf(v).Level(0, 1, i)
		}
		batch = append(batch, row)
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				f.Close()
				return err
			}
		}
		if rowGroup > 0 && (r+1)%rowGroup == 0 {
			if err := flush(); err != nil {
				f.Close()
				return err
			}
			if err := w.Flush(); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := flush(); err != nil {
		f.Close()
		return err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteSQLite writes t as the table name of a new SQLite database at
// path, with declared types INTEGER, REAL and TEXT.
func WriteSQLite(path, name string, t *model.Table) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	var defs, marks []string
	for _, c := range t.Columns {
		typ := "TEXT"
		if c.Kind == model.Numeric {
			typ = "REAL"
			if integral(c) {
				typ = "INTEGER"
			}
		}
		defs = append(defs, quote(c.Name)+" "+typ)
		marks = append(marks, "?")
	}
	if _, err := db.Exec("CREATE TABLE " + quote(name) + " (" + strings.Join(defs, ", ") + ")"); err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	st, err := tx.Prepare("INSERT INTO " + quote(name) + " VALUES (" + strings.Join(marks, ", ") + ")")
	if err != nil {
		tx.Rollback()
		return err
	}
	row := make([]any, len(t.Columns))
	for r := 0; r < t.Rows; r++ {
		for i, c := range t.Columns {
			row[i] = cell(c, r)
		}
		if _, err := st.Exec(row...); err != nil {
			tx.Rollback()
			return err
		}
	}
	st.Close()
	return tx.Commit()
}

func quote(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) < 0 {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
