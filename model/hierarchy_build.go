package model

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// LoadHierarchyFile reads a hierarchy CSV file (see ParseHierarchy).
func LoadHierarchyFile(attr, path string) (*Hierarchy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: openReason(err), Hint: "give a hierarchy CSV file or a builder such as intervals:10, binary, masking, flat"}
	}
	defer f.Close()
	return ParseHierarchy(attr, path, f)
}

// ParseHierarchy reads the common hierarchy layout (as ARX writes it): no
// header, one row per leaf value, one column per level from the most
// specific to the most general, separated by ';' or ','. Every row must have
// the same number of columns, every node must have one parent and the last
// column must hold a single root. Errors name the file and line.
func ParseHierarchy(attr, file string, r io.Reader) (*Hierarchy, error) {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	sample, _ := br.Peek(64 << 10)
	if len(bytes.TrimSpace(sample)) == 0 {
		return nil, &InputError{File: file, Line: 1, Msg: "hierarchy file is empty",
			Hint: "one row per value: value;level1;...;*"}
	}
	delim := ';'
	if bytes.IndexByte(sample, ';') < 0 {
		delim = DetectDelimiter(sample)
	}
	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	type key struct {
		level int
		label string
	}
	index := map[key]int{}
	var specs []nodeSpec
	parentOf := map[int]int{} // node -> parent spec index
	width := -1
	var rows [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &InputError{File: file, Line: pe.Line, Msg: "malformed CSV: " + pe.Err.Error(),
					Hint: `quote values that contain the delimiter; write a quote as ""`}
			}
			return nil, &InputError{File: file, Msg: err.Error()}
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
			if !utf8.ValidString(rec[i]) {
				return nil, &InputError{File: file, Line: line, Column: i + 1, Msg: "not valid UTF-8", Hint: "save the file as UTF-8"}
			}
			if rec[i] == "" {
				return nil, &InputError{File: file, Line: line, Column: i + 1, Msg: "empty node label",
					Hint: "every level needs a label; the last level is usually *"}
			}
		}
		if width == -1 {
			width = len(rec)
		} else if len(rec) != width {
			return nil, &InputError{File: file, Line: line,
				Msg:  fmt.Sprintf("row has %d levels, expected %d as on the first row", len(rec), width),
				Hint: "every row lists the value and all its generalizations up to the root"}
		}
		rows = append(rows, append([]string(nil), rec...))
		lines = append(lines, line)
	}
	if len(rows) == 0 {
		return nil, &InputError{File: file, Line: 1, Msg: "hierarchy file has no rows"}
	}
	if width == 1 && len(rows) > 1 {
		return nil, &InputError{File: file, Line: lines[1], Msg: "rows have a single level, so there is no common root",
			Hint: "add a last column * to every row"}
	}
	// The root: the last column must hold one label.
	top := width - 1
	rootLabel := rows[0][top]
	for i, r := range rows {
		if r[top] != rootLabel {
			return nil, &InputError{File: file, Line: lines[i], Column: top + 1,
				Msg:  fmt.Sprintf("second root %q (line %d has root %q)", r[top], lines[0], rootLabel),
				Hint: "the last column must be the same on every row, e.g. *"}
		}
	}
	specs = append(specs, nodeSpec{label: rootLabel, parent: -1, line: lines[0]})
	index[key{top, rootLabel}] = 0
	leafLine := map[string]int{}
	for i, r := range rows {
		if prev, dup := leafLine[r[0]]; dup {
			return nil, &InputError{File: file, Line: lines[i], Column: 1,
				Msg: fmt.Sprintf("value %q is listed twice (also line %d)", r[0], prev), Hint: "list each value once"}
		}
		leafLine[r[0]] = lines[i]
		parent := 0
		for lvl := top - 1; lvl >= 0; lvl-- {
			k := key{lvl, r[lvl]}
			id, ok := index[k]
			if !ok {
				id = len(specs)
				index[k] = id
				specs = append(specs, nodeSpec{label: r[lvl], parent: parent, line: lines[i]})
				parentOf[id] = parent
			} else if parentOf[id] != parent {
				return nil, &InputError{File: file, Line: lines[i], Column: lvl + 1,
					Msg: fmt.Sprintf("node %q has two parents: %q (line %d) and %q", r[lvl],
						specs[parentOf[id]].label, specs[id].line, specs[parent].label),
					Hint: "a node must have exactly one parent; give distinct labels to distinct nodes"}
			}
			parent = id
		}
	}
	// A label used as a leaf must not also be an inner node at level 0.
	h, err := newHierarchy(attr, specs)
	if err != nil {
		return nil, &InputError{File: file, Msg: err.Error()}
	}
	return h, nil
}

// Builders ---------------------------------------------------------------

// treeBuilder accumulates nodes for the builders below.
type treeBuilder struct{ specs []nodeSpec }

func (b *treeBuilder) add(label string, parent int) int {
	b.specs = append(b.specs, nodeSpec{label: label, parent: parent})
	return len(b.specs) - 1
}

// Flat builds value -> * (SPEC 2.3).
func Flat(attr string, values []string) (*Hierarchy, error) {
	var b treeBuilder
	root := b.add("*", -1)
	for _, v := range values {
		b.add(v, root)
	}
	return newHierarchy(attr, b.specs)
}

// Masking builds prefix masking for codes: 91110 -> 9111* -> 911** -> ... ->
// * (SPEC 2.3). Level L above the leaves masks the last L characters.
func Masking(attr string, values []string) (*Hierarchy, error) {
	maxLen := 0
	for _, v := range values {
		if n := utf8.RuneCountInString(v); n > maxLen {
			maxLen = n
		}
	}
	var b treeBuilder
	root := b.add("*", -1)
	type key struct {
		level int
		label string
	}
	index := map[key]int{}
	sorted := append([]string(nil), values...)
	sort.Strings(sorted)
	for _, v := range sorted {
		r := []rune(v)
		// ancestors from the most general (level maxLen-1) to level 1
		parent := root
		for lvl := maxLen - 1; lvl >= 1; lvl-- {
			m := mask(r, lvl)
			k := key{lvl, m}
			id, ok := index[k]
			if !ok {
				id = b.add(m, parent)
				index[k] = id
			}
			parent = id
		}
		b.add(v, parent)
	}
	return newHierarchy(attr, b.specs)
}

func mask(r []rune, n int) string {
	out := append([]rune(nil), r...)
	for i := len(out) - 1; i >= 0 && i >= len(out)-n; i-- {
		out[i] = '*'
	}
	return string(out)
}

// Intervals builds numeric intervals: level 1 groups values into intervals
// of width widths[0] aligned at multiples of the width, level 2 into
// widths[1], and so on; with a single width w the widths go w, 2w, 4w, ...
// until one interval holds every value. The root is *. Each width must
// divide the next so that intervals nest.
func Intervals(attr string, values []float64, widths []float64) (*Hierarchy, error) {
	if len(widths) == 0 || widths[0] <= 0 || math.IsInf(widths[0], 0) || math.IsNaN(widths[0]) {
		return nil, &ParamError{Param: "hierarchy " + attr, Value: fmt.Sprint(widths), Reason: "interval width must be > 0", Hint: "e.g. intervals:5"}
	}
	vals := append([]float64(nil), values...)
	sort.Float64s(vals)
	vals = dedupFloats(vals)
	if len(vals) == 0 {
		return nil, fmt.Errorf("hierarchy for %q: no values", attr)
	}
	ws := append([]float64(nil), widths...)
	for i := 1; i < len(ws); i++ {
		r := ws[i] / ws[i-1]
		if ws[i] <= ws[i-1] || math.Abs(r-math.Round(r)) > 1e-9 {
			return nil, &ParamError{Param: "hierarchy " + attr, Value: fmt.Sprint(widths),
				Reason: "each interval width must be a multiple of the previous one so intervals nest", Hint: "e.g. intervals:5,10,20"}
		}
	}
	span := vals[len(vals)-1] - vals[0]
	if len(ws) == 1 {
		for w := ws[0] * 2; ; w *= 2 {
			lo := math.Floor(vals[0]/w) * w
			if vals[len(vals)-1] < lo+w || len(ws) > 60 {
				break
			}
			ws = append(ws, w)
		}
		_ = span
	}
	integral := true
	for _, v := range vals {
		if v != math.Trunc(v) {
			integral = false
		}
	}
	for _, w := range ws {
		if w != math.Trunc(w) {
			integral = false
		}
	}
	label := func(lo, w float64) string {
		if integral {
			return FormatNumber(lo) + "-" + FormatNumber(lo+w-1)
		}
		return "[" + FormatNumber(lo) + "," + FormatNumber(lo+w) + ")"
	}
	var b treeBuilder
	root := b.add("*", -1)
	type key struct {
		level int
		lo    float64
	}
	index := map[key]int{}
	for _, v := range vals {
		parent := root
		for lvl := len(ws) - 1; lvl >= 0; lvl-- {
			w := ws[lvl]
			lo := math.Floor(v/w) * w
			k := key{lvl, lo}
			id, ok := index[k]
			if !ok {
				id = b.add(label(lo, w), parent)
				index[k] = id
			}
			parent = id
		}
		b.add(FormatNumber(v), parent)
	}
	return newHierarchy(attr, b.specs)
}

func dedupFloats(v []float64) []float64 {
	out := v[:0]
	for i, x := range v {
		if i == 0 || x != v[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// Balanced builds a balanced tree of the given arity (2 = binary, 3 =
// ternary) over the values in order (Koudas et al. 2009, Section 6.3 uses
// such trees). A node over n values gets `arity` children of sizes as equal
// as possible, larger ones first. Inner nodes are labelled first-last.
func Balanced(attr string, values []string, arity int) (*Hierarchy, error) {
	if arity < 2 {
		return nil, &ParamError{Param: "hierarchy " + attr, Value: strconv.Itoa(arity), Reason: "arity must be at least 2"}
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("hierarchy for %q: no values", attr)
	}
	var b treeBuilder
	var build func(lo, hi, parent int)
	build = func(lo, hi, parent int) { // values[lo:hi]
		n := hi - lo
		if n == 1 {
			b.add(values[lo], parent)
			return
		}
		id := b.add(values[lo]+"-"+values[hi-1], parent)
		parts := arity
		if n < parts {
			parts = n
		}
		start := lo
		for p := 0; p < parts; p++ {
			size := n / parts
			if p < n%parts {
				size++
			}
			build(start, start+size, id)
			start += size
		}
	}
	if len(values) == 1 {
		root := b.add("*", -1)
		b.add(values[0], root)
	} else {
		build(0, len(values), -1)
	}
	return newHierarchy(attr, b.specs)
}

// SortedValues returns a column's distinct values in value order (numeric
// order for numeric columns).
func SortedValues(c *Column) []string {
	codes := c.SortedCodes()
	out := make([]string, len(codes))
	for i, code := range codes {
		out[i] = c.Dict[code]
	}
	if c.Kind == Numeric {
		// Normalise the text so that leaves match any spelling of the number.
		out = out[:0]
		seen := map[float64]bool{}
		for _, code := range codes {
			v := c.Nums[code]
			if !seen[v] {
				seen[v] = true
				out = append(out, FormatNumber(v))
			}
		}
	}
	return out
}

// BuildHierarchy makes the hierarchy a spec asks for, over the values of
// column c. Specs: "flat", "masking", "binary", "ternary",
// "intervals:W[,W2,...]", "auto" (the default: intervals for numeric
// quasi-identifiers, flat for categorical ones), or a path to a hierarchy
// CSV file.
func BuildHierarchy(spec string, c *Column) (*Hierarchy, error) {
	name, arg, _ := strings.Cut(spec, ":")
	param := "hierarchy " + c.Name
	switch strings.ToLower(name) {
	case "flat":
		return Flat(c.Name, SortedValues(c))
	case "masking", "mask":
		return Masking(c.Name, SortedValues(c))
	case "binary":
		return Balanced(c.Name, SortedValues(c), 2)
	case "ternary":
		return Balanced(c.Name, SortedValues(c), 3)
	case "intervals", "interval":
		if c.Kind != Numeric {
			return nil, &ParamError{Param: param, Value: spec, Reason: "intervals need a numeric column", Hint: "use flat, masking, binary or a file"}
		}
		var ws []float64
		if arg == "" {
			ws = []float64{AutoWidth(c)}
		} else {
			for _, s := range strings.Split(arg, ",") {
				w, ok := ParseNumber(strings.TrimSpace(s))
				if !ok || w <= 0 {
					return nil, &ParamError{Param: param, Value: spec, Reason: fmt.Sprintf("width %q is not a positive number", s), Hint: "e.g. intervals:5 or intervals:5,10,20"}
				}
				ws = append(ws, w)
			}
		}
		return Intervals(c.Name, c.Nums, ws)
	case "auto", "":
		if c.Kind == Numeric {
			return Intervals(c.Name, c.Nums, []float64{AutoWidth(c)})
		}
		return Flat(c.Name, SortedValues(c))
	}
	if _, err := os.Stat(spec); err != nil {
		return nil, &ParamError{Param: param, Value: spec, Reason: "neither a builder nor a readable file",
			Hint: "builders: flat, masking, binary, ternary, intervals:W; or a CSV file path"}
	}
	return LoadHierarchyFile(c.Name, spec)
}

// AutoWidth picks a round interval width (1, 2, 5 x 10^k) giving about ten
// intervals over the column's range.
func AutoWidth(c *Column) float64 {
	lo, hi, ok := c.Range()
	if !ok || hi <= lo {
		return 1
	}
	raw := (hi - lo) / 10
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			w := m * p
			if w < 1 && isIntegral(c) {
				return 1
			}
			return w
		}
	}
	return 10 * p
}

func isIntegral(c *Column) bool {
	for _, v := range c.Nums {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}
