package source

import (
	"fmt"
	"io"
	"math"
	"reflect"

	"github.com/parquet-go/parquet-go"

	"privlab/model"
)

// ParquetColumn is how one column is written to Parquet: text (an
// optional dictionary-encoded string), a 64-bit integer, or a double.
// Shards of one table share their columns, so every shard has one schema.
type ParquetColumn struct {
	Name    string
	Numeric bool
	Integer bool // a numeric column whose values are all integers
}

// ParquetColumnsOf is t's columns as Parquet columns: numeric ones as
// integers when every value is an integer of at most 2^53, else doubles.
func ParquetColumnsOf(t *model.Table) []ParquetColumn {
	out := make([]ParquetColumn, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = ParquetColumn{Name: c.Name, Numeric: c.Kind == model.Numeric, Integer: c.Kind == model.Numeric && integral(c)}
	}
	return out
}

func integral(c *model.Column) bool {
	for _, v := range c.Nums {
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return false
		}
	}
	return true
}

// WriteParquet writes t to w as one Parquet file (Snappy-compressed,
// every column optional, missing values null) laid out as cols, which must
// name t's columns in order; a value the layout cannot hold (a fraction in
// an integer column, text in a numeric one) is an error, not a rounding.
func WriteParquet(w io.Writer, t *model.Table, cols []ParquetColumn) error {
	if err := fitsLayout(t, cols); err != nil {
		return err
	}
	fields := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		typ := reflect.TypeOf("")
		switch {
		case c.Integer:
			typ = reflect.TypeOf(int64(0))
		case c.Numeric:
			typ = reflect.TypeOf(float64(0))
		}
		fields[i] = reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: typ, Tag: reflect.StructTag(fmt.Sprintf(`parquet:"%s,optional,dict"`, c.Name))}
	}
	schema := parquet.SchemaOf(reflect.New(reflect.StructOf(fields)).Elem().Interface())
	pw := parquet.NewWriter(w, schema, parquet.Compression(&parquet.Snappy))
	batch := make([]parquet.Row, 0, 1024)
	for r := 0; r < t.Rows; r++ {
		row := make(parquet.Row, len(cols))
		for i, c := range t.Columns {
			row[i] = parquetValue(c, cols[i], r).Level(0, definition(c, r), i)
		}
		if batch = append(batch, row); len(batch) == cap(batch) || r == t.Rows-1 {
			if _, err := pw.WriteRows(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return pw.Close()
}

// definition is a cell's Parquet definition level: 0 for a null (missing),
// 1 for a value.
func definition(c *model.Column, r int) int {
	if c.IsMissing(r) {
		return 0
	}
	return 1
}

func parquetValue(c *model.Column, pc ParquetColumn, r int) parquet.Value {
	switch {
	case c.IsMissing(r):
		return parquet.Value{}
	case pc.Integer:
		return parquet.ValueOf(int64(c.Num(r)))
	case pc.Numeric:
		return parquet.ValueOf(c.Num(r))
	}
	return parquet.ValueOf(c.Value(r))
}

// fitsLayout checks that t's columns are cols' in name and kind, and that
// an integer column holds integers only.
func fitsLayout(t *model.Table, cols []ParquetColumn) error {
	if len(cols) != len(t.Columns) {
		return fmt.Errorf("parquet: %s has %d columns, the layout %d", t.Name, len(t.Columns), len(cols))
	}
	for i, c := range t.Columns {
		pc := cols[i]
		switch {
		case c.Name != pc.Name:
			return fmt.Errorf("parquet: %s column %d is %q, the layout's %q", t.Name, i+1, c.Name, pc.Name)
		case pc.Numeric != (c.Kind == model.Numeric):
			return fmt.Errorf("parquet: %s column %s is %s, the layout's is not", t.Name, c.Name, c.Kind)
		case pc.Integer && !integral(c):
			return fmt.Errorf("parquet: %s column %s holds a fraction, the layout's is an integer column", t.Name, c.Name)
		}
	}
	return nil
}
