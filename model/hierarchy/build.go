package hierarchy

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

	"privlab/model"
	"privlab/model/csvfile"
)

// ReadFile reads a hierarchy CSV file (see Parse).
func ReadFile(attr, path string) (*Hierarchy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err), Hint: "give a hierarchy CSV file or a builder such as intervals:10, binary, masking, flat"}
	}
	defer f.Close()
	return Parse(attr, path, f)
}

// Parse reads the common hierarchy layout (as ARX writes it): no
// header, one row per leaf value, one column per level from the most
// specific to the most general, separated by ';' or ','. Every row must have
// the same number of columns, every node must have one parent and the last
// column must hold a single root. Errors name the file and line.
//
// The text is read within bounds: a record longer than MaxRecordBytes or
// a NUL byte stops the reading with an error, and a label longer than the
// cell limit (DefaultMaxCell) is an error, as a cell of the table would be.
func Parse(attr, file string, r io.Reader) (*Hierarchy, error) {
	cr, err := hierarchyCSVReader(file, r)
	if err != nil {
		return nil, err
	}
	rows, lines, err := readHierarchyRows(cr, file)
	if err != nil {
		return nil, err
	}
	if err := checkHierarchyShape(rows, lines, file); err != nil {
		return nil, err
	}
	specs, err := hierarchyNodes(rows, lines, file)
	if err != nil {
		return nil, err
	}
	if err := checkNumberSpellings(rows, lines, file); err != nil {
		return nil, err
	}
	h, err := newHierarchy(attr, specs)
	if err != nil {
		return nil, &model.InputError{File: file, Msg: err.Error()}
	}
	return h, nil
}

// hierarchyCSVReader skips a byte order mark, refuses an empty file and
// returns a CSV reader with the file's delimiter (';' when the first 64 KB
// hold one, else the detected one).
func hierarchyCSVReader(file string, r io.Reader) (*csv.Reader, error) {
	br := bufio.NewReaderSize(model.NewTextReader(r, file, model.MaxRecordBytes), 64<<10)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	sample, perr := br.Peek(64 << 10)
	if ie := (*model.InputError)(nil); errors.As(perr, &ie) {
		return nil, ie
	}
	if len(bytes.TrimSpace(sample)) == 0 {
		return nil, &model.InputError{File: file, Line: 1, Msg: "hierarchy file is empty",
			Hint: "one row per value: value;level1;...;*"}
	}
	delim := ';'
	if bytes.IndexByte(sample, ';') < 0 {
		delim = csvfile.DetectDelimiter(sample)
	}
	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1
	return cr, nil
}

// MaxLevels is the most levels (columns) a hierarchy file's rows may
// have, as many as a table may have columns: a tree millions of levels deep
// fits in a few MB of text but takes a thousand times that in memory, and
// every walk from a leaf to the root is as long.
const MaxLevels = model.MaxColumns

// readHierarchyRows reads the non-blank rows, their labels trimmed and
// checked, all of the first row's width, with the line of each.
func readHierarchyRows(cr *csv.Reader, file string) (rows [][]string, lines []int, err error) {
	width := -1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, hierarchyReadError(err, file)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if err := checkHierarchyLabels(rec, file, line); err != nil {
			return nil, nil, err
		}
		if width == -1 {
			if len(rec) > MaxLevels {
				return nil, nil, &model.InputError{File: file, Line: line, Column: MaxLevels + 1,
					Msg:  fmt.Sprintf("row has %d levels, more than %d: not a generalization hierarchy", len(rec), MaxLevels),
					Hint: "one row per value: value;level1;...;* (is the delimiter right?)"}
			}
			width = len(rec)
		} else if len(rec) != width {
			return nil, nil, &model.InputError{File: file, Line: line,
				Msg:  fmt.Sprintf("row has %d levels, expected %d as on the first row", len(rec), width),
				Hint: "every row lists the value and all its generalizations up to the root"}
		}
		rows = append(rows, append([]string(nil), rec...))
		lines = append(lines, line)
	}
	return rows, lines, nil
}

// hierarchyReadError makes an error of the CSV reader an InputError.
func hierarchyReadError(err error, file string) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &model.InputError{File: file, Line: pe.Line, Msg: "malformed CSV: " + pe.Err.Error(),
			Hint: `quote values that contain the delimiter; write a quote as ""`}
	}
	var ie *model.InputError
	if errors.As(err, &ie) {
		return ie
	}
	return &model.InputError{File: file, Msg: "read failed: " + err.Error()}
}

// checkHierarchyLabels trims the labels of one row in place and fails on
// one that is empty, too long or not UTF-8.
func checkHierarchyLabels(rec []string, file string, line int) error {
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
		if !utf8.ValidString(rec[i]) {
			return &model.InputError{File: file, Line: line, Column: i + 1, Msg: "not valid UTF-8", Hint: "save the file as UTF-8"}
		}
		if len(rec[i]) > model.DefaultMaxCell {
			return &model.InputError{File: file, Line: line, Column: i + 1, Msg: fmt.Sprintf("label is longer than %d bytes", model.DefaultMaxCell),
				Hint: "is a quote left open, or is this the right file?"}
		}
		if rec[i] == "" {
			return &model.InputError{File: file, Line: line, Column: i + 1, Msg: "empty node label",
				Hint: "every level needs a label; the last level is usually *"}
		}
	}
	return nil
}

// checkHierarchyShape fails unless there are rows, more than one level
// when there is more than one row, and one root label in the last column.
func checkHierarchyShape(rows [][]string, lines []int, file string) error {
	if len(rows) == 0 {
		return &model.InputError{File: file, Line: 1, Msg: "hierarchy file has no rows"}
	}
	width := len(rows[0])
	if width == 1 && len(rows) > 1 {
		return &model.InputError{File: file, Line: lines[1], Msg: "rows have a single level, so there is no common root",
			Hint: "add a last column * to every row"}
	}
	top := width - 1
	rootLabel := rows[0][top]
	for i, r := range rows {
		if r[top] != rootLabel {
			return &model.InputError{File: file, Line: lines[i], Column: top + 1,
				Msg:  fmt.Sprintf("second root %q (line %d has root %q)", r[top], lines[0], rootLabel),
				Hint: "the last column must be the same on every row, e.g. *"}
		}
	}
	return nil
}

// hierarchyNodes makes the tree's nodes from the rows, root first: a
// label is one node per level, and must have one parent; a value (first
// column) is listed once.
func hierarchyNodes(rows [][]string, lines []int, file string) ([]nodeSpec, error) {
	type key struct {
		level int
		label string
	}
	top := len(rows[0]) - 1
	// Sized for a node per row (a leaf each): the maps' growth was most of
	// the memory a hierarchy of a million values took.
	specs := make([]nodeSpec, 1, len(rows)+1)
	specs[0] = nodeSpec{label: rows[0][top], parent: -1, line: lines[0]}
	index := make(map[key]int, len(rows)+1)
	index[key{top, rows[0][top]}] = 0
	leafLine := make(map[string]int, len(rows))
	for i, r := range rows {
		if prev, dup := leafLine[r[0]]; dup {
			return nil, &model.InputError{File: file, Line: lines[i], Column: 1,
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
			} else if specs[id].parent != parent {
				return nil, &model.InputError{File: file, Line: lines[i], Column: lvl + 1,
					Msg: fmt.Sprintf("node %q has two parents: %q (line %d) and %q", r[lvl],
						specs[specs[id].parent].label, specs[id].line, specs[parent].label),
					Hint: "a node must have exactly one parent; give distinct labels to distinct nodes"}
			}
			parent = id
		}
	}
	return specs, nil
}

// checkNumberSpellings fails when every value is a number and two values
// are spellings of one number ("5" and "5.0"), which would be one value of
// a numeric attribute.
func checkNumberSpellings(rows [][]string, lines []int, file string) error {
	for _, r := range rows {
		if _, ok := model.ParseNumber(r[0]); !ok {
			return nil // the labels are compared as text
		}
	}
	numLine := make(map[float64]int, len(rows))
	for i, r := range rows {
		v, _ := model.ParseNumber(r[0])
		if prev, dup := numLine[v]; dup {
			return &model.InputError{File: file, Line: lines[i], Column: 1,
				Msg: fmt.Sprintf("value %q is the same number as the value on line %d", r[0], prev), Hint: "list each value once"}
		}
		numLine[v] = lines[i]
	}
	return nil
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
	if maxLen > maxMaskLength {
		return nil, &model.ParamError{Param: "hierarchy " + attr, Value: "masking",
			Reason: fmt.Sprintf("masking is for short codes (at most %d characters); the longest value has %d", maxMaskLength, maxLen),
			Hint:   "use flat, binary or a hierarchy file"}
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

// maxMaskLength bounds the values Masking accepts: one level per character.
const maxMaskLength = 64

func mask(r []rune, n int) string {
	out := append([]rune(nil), r...)
	for i := len(out) - 1; i >= 0 && i >= len(out)-n; i-- {
		out[i] = '*'
	}
	return string(out)
}

// Intervals builds numeric intervals: level 1 groups values into intervals
// of width widths[0] aligned at multiples of the width, level 2 into
// widths[1], and so on; with a single width w the widths climb a ladder
// of round widths (ladderStep: 1, 5, 10, 50, ... times a power of ten, 2
// to 10; a width off the ladder doubles) until one interval holds every
// value (or, for values on both sides of 0, until one interval holds the
// negative and one the other values). Ages get 30-39 under 0-49 where
// doubling gave 0-79 and 80-159 (issue 35 polish). The root is *. Each
// width must be a whole multiple of the previous one so that intervals
// nest.
//
// Intervals are numbered (value v is in interval floor(v/w) of width w) and
// a coarser interval is found by dividing the number, so nesting holds
// exactly even for widths such as 0.1 and 0.3 that float64 cannot represent.
// Labels are lo-hi for whole numbers (0-4 holds 0..4) and [lo,hi) otherwise.
func Intervals(attr string, values []float64, widths []float64) (*Hierarchy, error) {
	param := "hierarchy " + attr
	vals, err := intervalValues(attr, param, values, widths)
	if err != nil {
		return nil, err
	}
	// ratio[l] = widths[l] / widths[0], a whole number.
	ratio, err := widthRatios(param, widths)
	if err != nil {
		return nil, err
	}
	idx0, err := finestIntervals(param, vals, widths)
	if err != nil {
		return nil, err
	}
	if len(widths) == 1 {
		ratio = ladderLevels(ratio, idx0, widths[0])
	}
	return intervalTree(attr, vals, idx0, ratio, widths[0])
}

// intervalValues checks the widths and values and returns the distinct
// values in order.
func intervalValues(attr, param string, values, widths []float64) ([]float64, error) {
	if len(widths) == 0 {
		return nil, &model.ParamError{Param: param, Reason: "interval width must be > 0", Hint: "e.g. intervals:5"}
	}
	for _, w := range widths {
		if !(w > 0) || math.IsInf(w, 0) {
			return nil, &model.ParamError{Param: param, Value: widthsText(widths), Reason: "interval width must be > 0", Hint: "e.g. intervals:5"}
		}
	}
	vals := append([]float64(nil), values...)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("hierarchy for %q: value %v is not a finite number", attr, v)
		}
	}
	sort.Float64s(vals)
	vals = dedupFloats(vals)
	if len(vals) == 0 {
		return nil, fmt.Errorf("hierarchy for %q: no values", attr)
	}
	return vals, nil
}

// widthRatios returns widths[l] / widths[0] for each level, failing unless
// each width is a whole multiple of the one before it.
func widthRatios(param string, widths []float64) ([]int64, error) {
	ratio := []int64{1}
	for i := 1; i < len(widths); i++ {
		r := widths[i] / widths[i-1]
		if widths[i] <= widths[i-1] {
			return nil, &model.ParamError{Param: param, Value: widthsText(widths),
				Reason: fmt.Sprintf("interval widths must grow from level to level (%s is not wider than %s)", model0(widths[i]), model0(widths[i-1])),
				Hint:   "e.g. intervals:5,10,20"}
		}
		if math.Abs(r-math.Round(r)) > 1e-9 {
			return nil, &model.ParamError{Param: param, Value: widthsText(widths),
				Reason: "each interval width must be a multiple of the previous one so intervals nest", Hint: "e.g. intervals:5,10,20"}
		}
		next := ratio[i-1] * int64(math.Round(r))
		if next > 1<<40 {
			return nil, &model.ParamError{Param: param, Value: widthsText(widths), Reason: "the widths grow too far apart", Hint: "e.g. intervals:5,10,20"}
		}
		ratio = append(ratio, next)
	}
	return ratio, nil
}

// finestIntervals returns, for each value, the number of the finest
// interval (width widths[0]) holding it.
func finestIntervals(param string, vals, widths []float64) ([]int64, error) {
	w0 := widths[0]
	idx0 := make([]int64, len(vals))
	for i, v := range vals {
		q := math.Floor(v / w0)
		if math.Abs(q) > 1<<52 {
			return nil, &model.ParamError{Param: param, Value: widthsText(widths),
				Reason: fmt.Sprintf("width %s is too small for the value %s", model.FormatNumber(w0), model.FormatNumber(v)), Hint: "choose a larger width"}
		}
		k := int64(q)
		// v/w0 may round across a boundary: settle on the interval whose
		// (printed) bounds hold v. Only a quotient near a whole number can.
		if f := v/w0 - q; f < 1e-6 || f > 1-1e-6 {
			if cleanNumber(float64(k+1)*w0) <= v {
				k++
			} else if cleanNumber(float64(k)*w0) > v {
				k--
			}
		}
		idx0[i] = k
	}
	return idx0, nil
}

// ladderLevels adds levels of the next round width that nests the one
// below (x5 from 1 and 2, x2 from 5: 1, 5, 10, 50, ...; ladderStep)
// until one interval would hold every value. Intervals are aligned at multiples of the width, so values
// on both sides of 0 never share one: it stops once the negative and the
// non-negative values each fill one interval (the root joins them).
func ladderLevels(ratio, idx0 []int64, w0 float64) []int64 {
	lo, hi := idx0[0], idx0[len(idx0)-1]
	prevLo, prevHi := lo, hi
	for r := ladderStep(w0); len(ratio) <= 60 && r <= 1<<40; r *= ladderStep(w0 * float64(r)) {
		a, b := floorDiv(lo, r), floorDiv(hi, r)
		if a == b || (prevLo == -1 && prevHi == 0) {
			break
		}
		ratio = append(ratio, r)
		prevLo, prevHi = a, b
	}
	return ratio
}

// intervalTree builds the tree: under the root one level per ratio, the
// coarsest first, and the values as leaves.
func intervalTree(attr string, vals []float64, idx0, ratio []int64, w0 float64) (*Hierarchy, error) {
	label := intervalLabeler(vals, w0)
	b := treeBuilder{specs: make([]nodeSpec, 0, 2*len(vals)+1)}
	root := b.add("*", -1)
	// The values are sorted, so at every level the interval number only
	// grows: the node of the last value is the only one to compare with.
	levels := len(ratio)
	curK := make([]int64, levels)
	curID := make([]int, levels)
	for i := range curID {
		curID[i] = -1
	}
	for i, v := range vals {
		parent := root
		for lvl := levels - 1; lvl >= 0; lvl-- {
			k := floorDiv(idx0[i], ratio[lvl])
			if curID[lvl] < 0 || curK[lvl] != k {
				curK[lvl], curID[lvl] = k, b.add(label(k, ratio[lvl]), parent)
				for j := lvl - 1; j >= 0; j-- {
					curID[j] = -1 // a new interval starts new ones below it
				}
			}
			parent = curID[lvl]
		}
		b.add(model.FormatNumber(v), parent)
	}
	return newHierarchy(attr, b.specs)
}

// intervalLabeler returns the label of interval k of width r*w0: lo-hi
// when the width and every value are whole numbers, [lo,hi) otherwise.
func intervalLabeler(vals []float64, w0 float64) func(k, r int64) string {
	integral := w0 == math.Trunc(w0)
	for _, v := range vals {
		if v != math.Trunc(v) {
			integral = false
		}
	}
	return func(k, r int64) string {
		lo := cleanNumber(float64(k*r) * w0)
		if integral {
			return model.FormatNumber(lo) + "-" + model.FormatNumber(cleanNumber(float64((k+1)*r)*w0-1))
		}
		return "[" + model.FormatNumber(lo) + "," + model.FormatNumber(cleanNumber(float64((k+1)*r)*w0)) + ")"
	}
}

// model0 writes a width as a number.
func model0(x float64) string { return model.FormatNumber(x) }

func widthsText(ws []float64) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = model.FormatNumber(w)
	}
	return strings.Join(parts, ",")
}

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// cleanNumber rounds away the last-digit noise of a product such as 3*0.1
// (0.30000000000000004 -> 0.3). Whole numbers below 2^53 are exact already.
func cleanNumber(x float64) float64 {
	if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return x
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	if err != nil {
		return x
	}
	return v
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
		return nil, &model.ParamError{Param: "hierarchy " + attr, Value: strconv.Itoa(arity), Reason: "arity must be at least 2"}
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
func SortedValues(c *model.Column) []string {
	codes := c.SortedCodes()
	out := make([]string, len(codes))
	for i, code := range codes {
		out[i] = c.Dict[code]
	}
	if c.Kind == model.Numeric {
		// Normalise the text so that leaves match any spelling of the number.
		out = out[:0]
		seen := map[float64]bool{}
		for _, code := range codes {
			v := c.Nums[code]
			if !seen[v] {
				seen[v] = true
				out = append(out, model.FormatNumber(v))
			}
		}
	}
	return out
}

// distinctText returns a column's values as written, in value order; of
// several spellings of one number (1, 1.0) the first is kept.
func distinctText(c *model.Column) []string {
	codes := c.SortedCodes()
	out := make([]string, 0, len(codes))
	seen := map[float64]bool{}
	for _, code := range codes {
		if c.Kind == model.Numeric {
			if seen[c.Nums[code]] {
				continue
			}
			seen[c.Nums[code]] = true
		}
		out = append(out, c.Dict[code])
	}
	return out
}

// Build makes the hierarchy a spec asks for, over the values of
// column c. Specs: "flat", "masking", "binary", "ternary",
// "intervals:W[,W2,...]", "auto" (the default: intervals for numeric
// quasi-identifiers, flat for categorical ones), or a path to a hierarchy
// CSV file.
func Build(spec string, c *model.Column) (*Hierarchy, error) {
	name, arg, _ := strings.Cut(spec, ":")
	param := "hierarchy " + c.Name
	switch strings.ToLower(name) {
	case "flat":
		return Flat(c.Name, SortedValues(c))
	case "masking", "mask":
		// Mask the values as written: a numeric zip code 02134 keeps its
		// leading zero.
		return Masking(c.Name, distinctText(c))
	case "binary":
		return Balanced(c.Name, SortedValues(c), 2)
	case "ternary":
		return Balanced(c.Name, SortedValues(c), 3)
	case "intervals", "interval":
		if c.Kind != model.Numeric {
			return nil, &model.ParamError{Param: param, Value: spec, Reason: "intervals need a numeric column", Hint: "use flat, masking, binary or a file"}
		}
		var ws []float64
		if arg == "" {
			ws = []float64{AutoWidth(c)}
		} else {
			for _, s := range strings.Split(arg, ",") {
				w, ok := model.ParseNumber(strings.TrimSpace(s))
				if !ok || w <= 0 {
					return nil, &model.ParamError{Param: param, Value: spec, Reason: fmt.Sprintf("width %q is not a positive number", s), Hint: "e.g. intervals:5 or intervals:5,10,20"}
				}
				ws = append(ws, w)
			}
		}
		return Intervals(c.Name, c.Nums, ws)
	case "auto", "":
		if c.Kind == model.Numeric {
			return Intervals(c.Name, c.Nums, []float64{AutoWidth(c)})
		}
		return Flat(c.Name, SortedValues(c))
	}
	if _, err := os.Stat(spec); err != nil {
		return nil, &model.ParamError{Param: param, Value: spec, Reason: "neither a builder nor a readable file",
			Hint: "builders: flat, masking, binary, ternary, intervals:W; or a CSV file path"}
	}
	return ReadFile(c.Name, spec)
}

// AutoWidth picks a round interval width (1, 2, 5 x 10^k) giving about ten
// intervals over the column's range.
func AutoWidth(c *model.Column) float64 {
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

// ladderStep is the factor from width w to the next round width that
// nests it: x5 from 1 and 2 (times a power of ten), x2 from 5 and from a
// width off the ladder.
func ladderStep(w float64) int64 {
	m := w / math.Pow(10, math.Floor(math.Log10(w)))
	switch {
	case math.Abs(m-1) < 1e-9, math.Abs(m-2) < 1e-9:
		return 5
	}
	return 2
}

func isIntegral(c *model.Column) bool {
	for _, v := range c.Nums {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}
