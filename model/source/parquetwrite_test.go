package source

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
)

func loadCSV(t *testing.T, text string) *model.Table {
	t.Helper()
	tab, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// WriteParquet's file reads back as the table: integers, fractions, text
// and missing cells.
func TestWriteParquetRoundTrip(t *testing.T) {
	tab := loadCSV(t, "n,x,s\n1,0.5,a\n,2.25,\n-3,,b c\n")
	cols := ParquetColumnsOf(tab)
	if !cols[0].Integer || cols[1].Integer || !cols[1].Numeric || cols[2].Numeric {
		t.Fatalf("layout %+v", cols)
	}
	var b bytes.Buffer
	if err := WriteParquet(&b, tab, cols); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := LoadContext(context.Background(), path, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range tab.Columns {
		for r := 0; r < tab.Rows; r++ {
			if got := back.Columns[k].Value(r); got != c.Value(r) || back.Columns[k].Kind != c.Kind {
				t.Errorf("%s row %d: %q (%v), want %q (%v)", c.Name, r, got, back.Columns[k].Kind, c.Value(r), c.Kind)
			}
		}
	}
}

// A table that does not fit the layout (other names, kinds, a fraction in
// an integer column) is refused, not rounded.
func TestWriteParquetRefusesAnotherLayout(t *testing.T) {
	layout := ParquetColumnsOf(loadCSV(t, "n,s\n1,a\n"))
	for _, text := range []string{"n\n1\n", "m,s\n1,a\n", "n,s\nx,a\n", "n,s\n1.5,a\n", "n,s\n1,2\n"} {
		if err := WriteParquet(&bytes.Buffer{}, loadCSV(t, text), layout); err == nil {
			t.Errorf("%q written with layout %+v", text, layout)
		}
	}
}
