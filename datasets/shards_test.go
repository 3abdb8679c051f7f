package datasets

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/source"
)

// The shards, written as Parquet and read back by model/source, are the
// unsharded table's rows in order, cell for cell, with its column kinds.
func TestShardsReadBackAsTheWholeTable(t *testing.T) {
	d, err := Lookup("census")
	if err != nil {
		t.Fatal(err)
	}
	const rows, seed = 2503, 11
	whole, err := d.Load(rows, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3, 7} {
		dir := t.TempDir()
		var layout []source.ParquetColumn
		var sizes []int
		err := d.Shards(rows, seed, n, func(i int, tab *model.Table) error {
			if layout == nil {
				layout = source.ParquetColumnsOf(tab)
			}
			sizes = append(sizes, tab.Rows)
			var b bytes.Buffer
			if err := source.WriteParquet(&b, tab, layout); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", i)), b.Bytes(), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(sizes) != n || sizes[0] != rows/n || sizes[n-1] != rows-(n-1)*rows/n {
			t.Fatalf("%d shards of %v rows", n, sizes)
		}
		row := 0
		for i := range n {
			back, err := source.LoadContext(context.Background(), filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", i)), csvfile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, whole, row, back)
			row += back.Rows
		}
		if row != rows {
			t.Fatalf("%d shards hold %d rows, want %d", n, row, rows)
		}
	}
}

// sameRows checks that part is whole's rows from first on, kinds included.
func sameRows(t *testing.T, whole *model.Table, first int, part *model.Table) {
	t.Helper()
	if len(part.Columns) != len(whole.Columns) {
		t.Fatalf("%d columns, want %d", len(part.Columns), len(whole.Columns))
	}
	for k, c := range whole.Columns {
		pc := part.Columns[k]
		if pc.Name != c.Name || pc.Kind != c.Kind {
			t.Fatalf("column %d is %s %v, want %s %v", k, pc.Name, pc.Kind, c.Name, c.Kind)
		}
		for r := 0; r < part.Rows; r++ {
			if pc.Value(r) != c.Value(first+r) {
				t.Fatalf("%s row %d: %q, want %q", c.Name, first+r, pc.Value(r), c.Value(first+r))
			}
		}
	}
}

func TestShardsRefuses(t *testing.T) {
	d, _ := Lookup("census")
	none := func(int, *model.Table) error { return nil }
	for _, n := range []int{0, -1, 11} {
		if err := d.Shards(10, 1, n, none); err == nil {
			t.Errorf("%d shards of 10 rows accepted", n)
		}
	}
	if err := d.Shards(-5, 1, 2, none); err == nil {
		t.Error("-5 rows accepted")
	}
	fixed, _ := Lookup("employees")
	var total int
	if err := fixed.Shards(0, 0, 2, func(_ int, tab *model.Table) error { total += tab.Rows; return nil }); err != nil {
		t.Fatal(err)
	}
	if whole, _ := fixed.Load(0, 0); total != whole.Rows {
		t.Fatalf("fixed shards hold %d rows, want %d", total, whole.Rows)
	}
}
