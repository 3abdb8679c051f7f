package source

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
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

// A footer that states more rows than a table holds is refused with a
// hint (it had none), before anything is reserved.
func TestParquetFooterStatesTooManyRows(t *testing.T) {
	var text strings.Builder
	text.WriteString("n\n")
	for i := 0; i < 200000; i++ {
		text.WriteString("1\n")
	}
	tab := loadCSV(t, text.String())
	var b bytes.Buffer
	if err := WriteParquet(&b, tab, ParquetColumnsOf(tab)); err != nil {
		t.Fatal(err)
	}
	// The footer's counts of 200,000 (zigzag varints 0x80 0xb5 0x18)
	// become 2^62.
	data := b.Bytes()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	footer := data[len(data)-8-n : len(data)-8]
	lie := bytes.ReplaceAll(footer, []byte{0x80, 0xb5, 0x18}, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})
	if bytes.Equal(lie, footer) {
		t.Fatal("no row count of 200,000 in the footer")
	}
	out := append(append([]byte(nil), data[:len(data)-8-n]...), lie...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(lie)))
	out = append(out, "PAR1"...)
	path := filepath.Join(t.TempDir(), "lie.parquet")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadContext(context.Background(), path, csvfile.LoadOptions{})
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.File != path || !strings.Contains(ie.Msg, "more than a table can hold") || ie.Hint != tooManyRowsHint {
		t.Fatalf("got %v", err)
	}
}
