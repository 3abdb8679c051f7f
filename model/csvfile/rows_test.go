package csvfile

import (
	"errors"
	"strings"
	"testing"

	"privlab/model"
)

func cells(vals ...string) []Cell {
	out := make([]Cell, len(vals))
	for i, v := range vals {
		if v == "<null>" {
			out[i] = Cell{Null: true}
		} else {
			out[i] = Cell{Text: v}
		}
	}
	return out
}

// TestRowLoaderReadsAsLoad: rows handed over one by one give the table
// Load gives the same rows as CSV text: names, kinds, values, missing
// values, notes; a null is missing whatever the tokens.
func TestRowLoaderReadsAsLoad(t *testing.T) {
	rows := [][]string{{"age", "job", "zip"}, {"30", "a", "01"}, {"41", "?", ""}, {"30", "NA", "02"}, {}, {"52", "b", "03", ""}}
	l, err := NewRowLoader("s.xlsx:Sheet1", nil, nil, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for i, r := range rows {
		if err := l.Add(cells(r...), i+1); err != nil {
			t.Fatal(err)
		}
		if len(r) > 0 {
			text = append(text, strings.Join(r[:min(len(r), 3)], ","))
		}
	}
	got, err := l.Table()
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(strings.NewReader(strings.Join(text, "\n")+"\n"), LoadOptions{Name: "s.xlsx:Sheet1"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Names(), ",") != "age,job,zip" || got.Rows != want.Rows {
		t.Fatalf("columns %v rows %d", got.Names(), got.Rows)
	}
	for i, c := range got.Columns {
		w := want.Columns[i]
		if c.Kind != w.Kind || strings.Join(c.Dict, "|") != strings.Join(w.Dict, "|") || c.MissingCount != w.MissingCount {
			t.Fatalf("column %s: %s %v %d; want %s %v %d", c.Name, c.Kind, c.Dict, c.MissingCount, w.Kind, w.Dict, w.MissingCount)
		}
	}
	// A null under tokens that do not make "" missing.
	l, _ = NewRowLoader("d.db:t", []string{"a"}, nil, LoadOptions{MissingTokens: []string{"?"}})
	l.Add(cells("<null>"), 1)
	l.Add(cells(""), 2)
	l.Add(cells("x"), 3)
	tb, err := l.Table()
	if err != nil || tb.Columns[0].MissingCount != 1 || tb.Columns[0].Value(1) != "x" || tb.Rows != 2 {
		// the row of one empty cell is skipped as a blank line
		t.Fatalf("%v %v", tb, err)
	}
}

// TestRowLoaderErrors: a value beyond the header's columns, a header
// only, a value over the cell limit, a duplicate name: input errors naming
// the row and column.
func TestRowLoaderErrors(t *testing.T) {
	add := func(opt LoadOptions, rows ...[]string) error {
		l, err := NewRowLoader("w.xlsx:S", nil, nil, opt)
		if err != nil {
			return err
		}
		for i, r := range rows {
			if err := l.Add(cells(r...), i+1); err != nil {
				return err
			}
		}
		_, err = l.Table()
		return err
	}
	for _, tt := range []struct {
		err       error
		line, col int
		msg       string
	}{
		{add(LoadOptions{}, []string{"a", "b"}, []string{"1", "2", "3"}), 2, 3, "ragged row: a value beyond the 2 columns of the header"},
		{add(LoadOptions{}, []string{"a", "b"}), 0, 0, "header only: no data rows"},
		{add(LoadOptions{MaxCell: 2}, []string{"a"}, []string{"xyz"}), 2, 1, "value is longer than 2 bytes"},
		{add(LoadOptions{}, []string{"a", "a"}, []string{"1", "2"}), 1, 2, `duplicate column name "a"`},
		{add(LoadOptions{}), 1, 0, "empty: no rows"},
	} {
		var ie *model.InputError
		if !errors.As(tt.err, &ie) || ie.Line != tt.line || ie.Column != tt.col || !strings.Contains(tt.err.Error(), tt.msg) {
			t.Errorf("got %v, want line %d column %d %q", tt.err, tt.line, tt.col, tt.msg)
		}
	}
	b, _ := NewTableBuilder("p.parquet", []string{"a", "b"}, nil, LoadOptions{})
	code, _ := b.Column(0).Code([]byte("1"), 1)
	b.Column(0).Append(code)
	if _, err := b.Table(); err == nil || !strings.Contains(err.Error(), "column a has 1 rows, column b 0") {
		t.Fatalf("columns of different lengths: %v", err)
	}
}
