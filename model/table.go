package model

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind says how a column's values are compared.
type Kind int

const (
	// Categorical values are compared as text.
	Categorical Kind = iota
	// Numeric values are parsed as float64 and ordered by value.
	Numeric
)

func (k Kind) String() string {
	if k == Numeric {
		return "numeric"
	}
	return "categorical"
}

// ParseKind reads "numeric" or "categorical" (or their first letters).
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "numeric", "num", "n":
		return Numeric, nil
	case "categorical", "cat", "c":
		return Categorical, nil
	}
	return 0, fmt.Errorf("unknown kind %q: want numeric or categorical", s)
}

// Missing is the code of a missing value in Column.Codes.
const Missing = ^uint32(0)

// Column is one dictionary-encoded column: each distinct text value is stored
// once in Dict and every row holds its index (its code).
type Column struct {
	Name string
	Kind Kind
	// Dict holds the distinct non-missing values in order of first appearance.
	Dict []string
	// Nums holds the parsed value of each Dict entry (numeric columns only).
	Nums []float64
	// Codes holds one Dict index per row, or Missing.
	Codes []uint32
	// MissingCount is the number of rows whose value is missing.
	MissingCount int
	// FirstLines is the input line where each Dict entry first appeared
	// (0 when the table was not loaded from text).
	FirstLines []int
	// AlmostNumeric is set when the column was read as categorical only
	// because a few cells are not numbers.
	AlmostNumeric *KindNote
}

// KindNote describes the cells that keep a column from being numeric.
type KindNote struct {
	Cells int    // cells that are not numbers
	Line  int    // the first such cell's line in the input
	Value string // and its text
}

// NoteAlmostNumeric sets AlmostNumeric when at most 5% of the column's
// non-missing cells (and at most 5 distinct values) are not numbers and
// at least two distinct values are.
func (c *Column) NoteAlmostNumeric() {
	if c.Kind == Numeric || len(c.Dict) < 3 {
		return
	}
	var bad []int
	numbers := 0
	for code, s := range c.Dict {
		if _, ok := ParseNumber(s); ok {
			numbers++
		} else if bad = append(bad, code); len(bad) > 5 {
			return
		}
	}
	if numbers < 2 {
		return
	}
	counts := c.Counts()
	cells, total := 0, 0
	for code, n := range counts {
		total += n
		for _, b := range bad {
			if b == code {
				cells += n
			}
		}
	}
	if cells*20 > total {
		return
	}
	first := bad[0]
	for _, b := range bad {
		if c.FirstLine(b) < c.FirstLine(first) {
			first = b
		}
	}
	c.AlmostNumeric = &KindNote{Cells: cells, Line: c.FirstLine(first), Value: c.Dict[first]}
}

// FirstLine is the input line where the value of code first appears (0:
// not known, as for a table not read from a file).
func (c *Column) FirstLine(code int) int {
	if code < len(c.FirstLines) {
		return c.FirstLines[code]
	}
	return 0
}

// ForceNumbers makes the column numeric, reading the cells that are not
// numbers as missing values; it returns how many cells that changed and
// the first such value (by line).
func (c *Column) ForceNumbers() (cells int, first KindNote) {
	remap := make([]uint32, len(c.Dict))
	var dict []string
	var lines []int
	var nums []float64
	first.Line = -1
	for code, s := range c.Dict {
		v, ok := ParseNumber(s)
		if !ok {
			remap[code] = Missing
			if l := c.FirstLine(code); first.Line < 0 || l < first.Line {
				first = KindNote{Line: l, Value: s}
			}
			continue
		}
		remap[code] = uint32(len(dict))
		dict = append(dict, s)
		nums = append(nums, v)
		if code < len(c.FirstLines) {
			lines = append(lines, c.FirstLines[code])
		}
	}
	for r, code := range c.Codes {
		if code != Missing && remap[code] == Missing {
			cells++
			c.MissingCount++
		}
		if code != Missing {
			c.Codes[r] = remap[code]
		}
	}
	c.Dict, c.Nums, c.FirstLines, c.Kind = dict, nums, lines, Numeric
	first.Cells = cells
	return cells, first
}

// Value returns the text of row r ("" when missing).
func (c *Column) Value(r int) string {
	code := c.Codes[r]
	if code == Missing {
		return ""
	}
	return c.Dict[code]
}

// Num returns the numeric value of row r (NaN-free: 0 when missing or categorical).
func (c *Column) Num(r int) float64 {
	code := c.Codes[r]
	if code == Missing || c.Kind != Numeric {
		return 0
	}
	return c.Nums[code]
}

// IsMissing reports whether row r has no value.
func (c *Column) IsMissing(r int) bool { return c.Codes[r] == Missing }

// Distinct is the number of distinct non-missing values.
func (c *Column) Distinct() int { return len(c.Dict) }

// Counts returns how many rows hold each Dict code.
func (c *Column) Counts() []int {
	n := make([]int, len(c.Dict))
	for _, code := range c.Codes {
		if code != Missing {
			n[code]++
		}
	}
	return n
}

// SortedCodes returns the Dict codes in value order: numeric order for
// numeric columns, text order otherwise.
func (c *Column) SortedCodes() []uint32 {
	idx := make([]uint32, len(c.Dict))
	for i := range idx {
		idx[i] = uint32(i)
	}
	if c.Kind == Numeric {
		sort.Slice(idx, func(a, b int) bool { return c.Nums[idx[a]] < c.Nums[idx[b]] })
	} else {
		sort.Slice(idx, func(a, b int) bool { return c.Dict[idx[a]] < c.Dict[idx[b]] })
	}
	return idx
}

// Range returns the smallest and largest numeric value (numeric columns).
func (c *Column) Range() (lo, hi float64, ok bool) {
	if c.Kind != Numeric || len(c.Nums) == 0 {
		return 0, 0, false
	}
	lo, hi = c.Nums[0], c.Nums[0]
	for _, v := range c.Nums[1:] {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return lo, hi, true
}

// SetKind changes how the column is compared. Turning a column numeric fails,
// naming the first line with a value that is not a number.
func (c *Column) SetKind(k Kind) error {
	if k == c.Kind {
		return nil
	}
	if k == Categorical {
		c.Kind, c.Nums = Categorical, nil
		return nil
	}
	nums := make([]float64, len(c.Dict))
	for i, s := range c.Dict {
		v, ok := ParseNumber(s)
		if !ok {
			where := ""
			if i < len(c.FirstLines) && c.FirstLines[i] > 0 {
				where = fmt.Sprintf(" (first on line %d)", c.FirstLines[i])
			}
			return fmt.Errorf("column %q cannot be numeric: value %q%s is not a number", c.Name, s, where)
		}
		nums[i] = v
	}
	c.Kind, c.Nums = Numeric, nums
	return nil
}

// ParseNumber parses a decimal number the way the loader does: plain
// decimal or exponent notation ([+-]digits[.digits][e[+-]digits]), no
// thousands separators or underscores, no hexadecimal, no NaN or Inf, and
// nothing that overflows a float64.
func ParseNumber(s string) (float64, bool) {
	if s == "" || len(s) > 64 {
		return 0, false
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	if v, ok := plainInt(s[i:]); ok {
		// Up to 15 digits: exactly the float ParseFloat reads (the GroupID
		// columns of a release hold hundreds of thousands of them).
		if s[0] == '-' {
			v = -v // "-0" is -0, as ParseFloat reads it
		}
		return v, true
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return 0, false
		}
	}
	if i != len(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// plainInt reads 1 to 15 decimal digits (any leading zeros) as a float.
func plainInt(s string) (float64, bool) {
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = 10*n + int64(d)
	}
	return float64(n), true
}

// FormatNumber prints a float the shortest way that reads back the same.
func FormatNumber(v float64) string {
	if v == float64(int64(v)) && v > -1e15 && v < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Table is a loaded microdata table: columns of equal length.
type Table struct {
	// Name is what error messages and the UI call the table (a file path or
	// dataset:NAME).
	Name    string
	Columns []*Column
	Rows    int
	// Notes are what the loader has to say about the table: columns read
	// as categorical because of a few cells, cells read as missing because
	// a column was made numeric, a first row read as data (each with the
	// settings that would read it otherwise).
	Notes []Note
	// FirstRowData is set when the loader read the first row as data
	// because it looks like data (no header row was said to be there or
	// not): the columns are named c1, c2, ... and want better names.
	FirstRowData bool
}

// Holds reports whether v is one of the column's values.
func (c *Column) Holds(v string) bool {
	for _, s := range c.Dict {
		if s == v {
			return true
		}
	}
	return false
}

// Column returns the column with this name, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// ColumnIndex returns the position of the named column, or -1.
func (t *Table) ColumnIndex(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Names lists the column names in order.
func (t *Table) Names() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// MustColumns returns the named columns or an error that names the first
// unknown one and lists the columns that exist.
func (t *Table) MustColumns(param string, names []string) ([]*Column, error) {
	out := make([]*Column, 0, len(names))
	for _, n := range names {
		c := t.Column(n)
		if c == nil {
			pe := &ParamError{Param: param, Value: n,
				Reason: fmt.Sprintf("%s has no column %q", t.Name, n),
				Hint:   "columns are: " + strings.Join(t.Names(), ", ")}
			if t.headerless() {
				pe.Reason += " (the file has no header row: its columns were read as c1, c2, ...)"
				pe.Fixes = []Fix{{Setting: SetColumns, Why: "if the file has no header row"}}
			}
			return nil, pe
		}
		out = append(out, c)
	}
	return out, nil
}

// headerless reports whether the columns are named c1, c2, ... as a file
// read without a header row is.
func (t *Table) headerless() bool {
	for i, c := range t.Columns {
		if c.Name != fmt.Sprintf("c%d", i+1) {
			return false
		}
	}
	return len(t.Columns) > 0
}

// SelectRows returns a new table holding the given rows in the given order.
// Each column's dictionary keeps only the values those rows hold (in order
// of first appearance among them), so distinct counts, domains and
// hierarchies built on the result describe the selected rows alone.
func (t *Table) SelectRows(rows []int) *Table {
	out := &Table{Name: t.Name, Rows: len(rows)}
	for _, c := range t.Columns {
		nc := &Column{Name: c.Name, Kind: c.Kind, Codes: make([]uint32, len(rows))}
		remap := make([]uint32, len(c.Dict))
		for i := range remap {
			remap[i] = Missing
		}
		for i, r := range rows {
			code := c.Codes[r]
			if code == Missing {
				nc.Codes[i] = Missing
				nc.MissingCount++
				continue
			}
			if remap[code] == Missing {
				remap[code] = uint32(len(nc.Dict))
				nc.Dict = append(nc.Dict, c.Dict[code])
				if c.Kind == Numeric {
					nc.Nums = append(nc.Nums, c.Nums[code])
				}
				if int(code) < len(c.FirstLines) {
					nc.FirstLines = append(nc.FirstLines, c.FirstLines[code])
				}
			}
			nc.Codes[i] = remap[code]
		}
		out.Columns = append(out.Columns, nc)
	}
	return out
}

// MissingPolicy says what to do with missing values in the columns a run uses.
type MissingPolicy int

const (
	// DropMissing removes every row with a missing value in a used column.
	DropMissing MissingPolicy = iota
	// MissingAsCategory keeps such rows when the column is categorical: a
	// missing value becomes the value "?". A number cannot be "?", so rows
	// missing a numeric value are still dropped (the column keeps its
	// numeric order and range queries).
	MissingAsCategory
)

// ParseMissingPolicy reads "drop" or "category".
func ParseMissingPolicy(s string) (MissingPolicy, error) {
	switch s {
	case "", "drop":
		return DropMissing, nil
	case "category", "keep":
		return MissingAsCategory, nil
	}
	return 0, &ParamError{Param: "missing", Value: s, Reason: "unknown policy", Hint: "use drop or category"}
}

// HandleMissing applies the policy to the named columns and returns the
// resulting table and the number of dropped rows. The receiver is unchanged.
func (t *Table) HandleMissing(cols []string, p MissingPolicy) (*Table, int) {
	var drop, categorize []*Column
	for _, n := range cols {
		c := t.Column(n)
		switch {
		case c == nil || c.MissingCount == 0:
		case p == DropMissing || c.Kind == Numeric:
			drop = append(drop, c)
		default:
			categorize = append(categorize, c)
		}
	}
	out, dropped := t, 0
	if len(drop) > 0 {
		keep := make([]int, 0, t.Rows)
	rows:
		for r := 0; r < t.Rows; r++ {
			for _, c := range drop {
				if c.Codes[r] == Missing {
					continue rows
				}
			}
			keep = append(keep, r)
		}
		out, dropped = t.SelectRows(keep), t.Rows-len(keep)
	}
	if len(categorize) == 0 {
		return out, dropped
	}
	res := &Table{Name: out.Name, Rows: out.Rows, Columns: append([]*Column(nil), out.Columns...)}
	for _, orig := range categorize {
		i := out.ColumnIndex(orig.Name)
		c := out.Columns[i]
		if c.MissingCount == 0 {
			continue
		}
		nc := &Column{Name: c.Name, Kind: Categorical, Dict: append(append([]string(nil), c.Dict...), "?"),
			Codes: make([]uint32, out.Rows), FirstLines: c.FirstLines}
		q := uint32(len(c.Dict))
		// "?" may already be a regular value when the user chose other tokens.
		for j, s := range c.Dict {
			if s == "?" {
				q = uint32(j)
				nc.Dict = nc.Dict[:len(c.Dict)]
			}
		}
		for r, code := range c.Codes {
			if code == Missing {
				code = q
			}
			nc.Codes[r] = code
		}
		res.Columns[i] = nc
	}
	return res, dropped
}
