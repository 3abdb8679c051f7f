package model

import (
	"fmt"
	"strings"
)

// CheckIdentifiers refuses identifier columns whose values repeat: an
// identifier names one person, so a value two rows share is not one, and
// a join on it (Sacharidis et al., Section 3.1: MT and PD joined on the
// ID) would pair the wrong people. ids are t's identifier columns, their
// values together the key (a row missing one has none; numbers compare
// as numbers: 7, 7.0 and 007 are one identifier); rows are the rows of t
// read (nil: all; a row the missing-value policy drops joins no one);
// file names t in the error, with the lines of the two rows. Columns t
// lacks are skipped.
func CheckIdentifiers(t *Table, file string, ids []string, rows []int) error {
	var cols []*Column
	var names []string
	for _, id := range ids {
		if c := t.Column(id); c != nil {
			cols, names = append(cols, c), append(names, id)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	if rows == nil {
		rows = make([]int, t.Rows)
		for r := range rows {
			rows[r] = r
		}
	}
	first, again, ok := repeatedKey(rows, cols)
	if !ok {
		return nil
	}
	l1, l2 := rowLines(t, first, again)
	vals := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = c.Value(again)
	}
	what := "identifier columns " + strings.Join(names, ",") + ": "
	if len(cols) == 1 {
		what = "" // the error names the column
	}
	e := &InputError{File: file, Line: l2,
		Msg: fmt.Sprintf("%sthe identifier %q repeats (lines %d and %d): an identifier names one person, and joined on it the tables would pair the wrong people",
			what, strings.Join(vals, ","), l1, l2),
		Hint:  "mark as an identifier only a column whose every value is one person's",
		Fixes: []Fix{{Setting: SetID, Change: Leave, Value: strings.Join(names, ","), Why: "if it does not name one person"}}}
	if len(cols) == 1 {
		e.Field = names[0]
		for i, c := range t.Columns {
			if c == cols[0] {
				e.Column = i + 1
			}
		}
	}
	return e
}

// repeatedKey finds the first row whose key (its values of cols, numbers
// in canonical form) an earlier row of rows holds: that row and it. One column is
// read on its codes, each value put in canonical form once.
func repeatedKey(rows []int, cols []*Column) (first, again int, found bool) {
	if len(cols) == 1 {
		return repeatedCode(rows, cols[0])
	}
	seen := make(map[string]int, len(rows))
	var b strings.Builder
next:
	for _, r := range rows {
		b.Reset()
		for _, c := range cols {
			if c.IsMissing(r) {
				continue next
			}
			v := c.Value(r)
			if x, ok := ParseNumber(v); ok {
				v = FormatNumber(x)
			}
			b.WriteString(v)
			b.WriteByte(0)
		}
		k := b.String()
		if at, dup := seen[k]; dup {
			return at, r, true
		}
		seen[k] = r
	}
	return 0, 0, false
}

// repeatedCode is repeatedKey for one column.
func repeatedCode(rows []int, c *Column) (first, again int, found bool) {
	canon := make(map[string]int, len(c.Dict))
	rep := make([]int, len(c.Dict)) // each code's first code of its canonical value
	for code, v := range c.Dict {
		if x, ok := ParseNumber(v); ok {
			v = FormatNumber(x)
		}
		at, dup := canon[v]
		if !dup {
			at = code
			canon[v] = code
		}
		rep[code] = at
	}
	firstRow := make([]int32, len(c.Dict))
	for i := range firstRow {
		firstRow[i] = -1
	}
	for _, r := range rows {
		code := c.Codes[r]
		if code == Missing {
			continue
		}
		k := rep[code]
		if firstRow[k] >= 0 {
			return int(firstRow[k]), r, true
		}
		firstRow[k] = int32(r)
	}
	return 0, 0, false
}

// rowLines are the input lines of rows first and again: as many lines
// below the first row's (the loader kept the line where each value first
// appeared, so row 0's) as rows (a record over several lines shifts
// them). A table not read from text counts one header line, or none when
// its first row was read as data.
func rowLines(t *Table, first, again int) (int, int) {
	l := 2
	if t.FirstRowData {
		l = 1
	}
	for _, c := range t.Columns {
		if t.Rows > 0 && !c.IsMissing(0) {
			if at := c.FirstLine(int(c.Codes[0])); at > 0 {
				l = at
			}
			break
		}
	}
	return l + first, l + again
}
