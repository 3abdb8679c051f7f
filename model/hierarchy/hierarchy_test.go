package hierarchy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
)

func seq(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// tree checks a builder's result and the hierarchy's invariants:
// tree(t)(Flat(...)).
func tree(t *testing.T) func(*Hierarchy, error) *Hierarchy {
	return func(h *Hierarchy, err error) *Hierarchy {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, h)
		return h
	}
}

func wantTree(t *testing.T, h *Hierarchy, want string) {
	t.Helper()
	want = strings.TrimLeft(want, "\n")
	if got := h.String(); got != want {
		t.Errorf("tree\n%s\nwant\n%s", got, want)
	}
}

// node finds the node with this label (the deepest one when labels repeat
// at several levels).
func node(t *testing.T, h *Hierarchy, label string) int {
	t.Helper()
	found := -1
	for i, nd := range h.Nodes {
		if nd.Label == label && (found < 0 || nd.Depth > h.Nodes[found].Depth) {
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("no node %q in\n%s", label, h)
	}
	return found
}

func TestFlat(t *testing.T) {
	h := tree(t)(Flat("sex", []string{"F", "M", "X"}))
	wantTree(t, h, `
*
  F
  M
  X
`)
	if h.Numeric || h.Height() != 1 || h.LeafCount(0) != 3 || h.Range(0) != 2 || h.Range(node(t, h, "M")) != 0 {
		t.Errorf("numeric %v height %d leaves %d range %v", h.Numeric, h.Height(), h.LeafCount(0), h.Range(0))
	}
	if lo, hi := h.Bounds(0); lo != "F" || hi != "X" {
		t.Errorf("bounds %s-%s", lo, hi)
	}
	if _, err := Flat("x", []string{"a", "a"}); err == nil || !strings.Contains(err.Error(), `"a" appears as more than one leaf`) {
		t.Errorf("duplicate values: %v", err)
	}
}

func TestMasking(t *testing.T) {
	h := tree(t)(Masking("zip", []string{"91210", "91110", "92110", "91130"}))
	wantTree(t, h, `
*
  9****
    91***
      911**
        9111*
          91110
        9113*
          91130
      912**
        9121*
          91210
    92***
      921**
        9211*
          92110
`)
	leaf, ok := h.Leaf("91110")
	if !ok {
		t.Fatal("no leaf 91110")
	}
	for up, want := range []string{"91110", "9111*", "911**", "91***", "9****", "*", "*"} {
		if got := h.Nodes[h.Ancestor(leaf, up)].Label; got != want {
			t.Errorf("%d levels up from 91110: %q, want %q", up, got, want)
		}
	}
	// Numeric codes: the range of 911** is 91130-91110.
	if !h.Numeric || h.Range(node(t, h, "911**")) != 20 || h.Range(0) != 1000 {
		t.Errorf("numeric %v, range(911**) %v, range(*) %v", h.Numeric, h.Range(node(t, h, "911**")), h.Range(0))
	}
	// Codes of different lengths and text codes.
	h = tree(t)(Masking("c", []string{"AB", "AC", "B"}))
	wantTree(t, h, `
*
  A*
    AB
    AC
  *
    B
`)
	if _, err := Masking("c", []string{strings.Repeat("x", 65)}); err == nil || !strings.Contains(err.Error(), "at most 64 characters") {
		t.Errorf("long value: %v", err)
	}
}

func TestMaskingKeepsLeadingZeros(t *testing.T) {
	tb := mustLoad(t, "zip\n02134\n91110\n02139\n", csvfile.LoadOptions{})
	c := tb.Column("zip")
	if c.Kind != model.Numeric {
		t.Fatalf("zip is %v", c.Kind)
	}
	h := tree(t)(Build("masking", c))
	wantTree(t, h, `
*
  0****
    02***
      021**
        0213*
          02134
          02139
  9****
    91***
      911**
        9111*
          91110
`)
	leaves, err := h.MapColumn(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Nodes[leaves[0]].Label; got != "02134" {
		t.Errorf("02134 maps to %q", got)
	}
}

func TestIntervals(t *testing.T) {
	vals := []float64{23, 1, 4, 7, 12, 4}
	// One width climbs the round ladder: 5, then 10 (50 would hold all).
	auto := tree(t)(Intervals("age", vals, []float64{5}))
	want := `
*
  0-9
    0-4
      1
      4
    5-9
      7
  10-19
    10-14
      12
  20-29
    20-24
      23
`
	wantTree(t, auto, want)
	explicit := tree(t)(Intervals("age", vals, []float64{5, 10}))
	wantTree(t, explicit, want)
	if err := auto.CheckIntervals(); err != nil {
		t.Error(err)
	}
	n := node(t, auto, "0-9")
	if nd := auto.Nodes[n]; nd.Low != 1 || nd.High != 7 || auto.Range(n) != 6 || auto.LeafCount(n) != 3 {
		t.Errorf("0-9: low %v high %v range %v leaves %d", nd.Low, nd.High, auto.Range(n), auto.LeafCount(n))
	}
	if auto.Range(0) != 22 || auto.Height() != 3 {
		t.Errorf("root range %v height %d", auto.Range(0), auto.Height())
	}
	if lo, hi := auto.Bounds(node(t, auto, "10-19")); lo != "12" || hi != "12" {
		t.Errorf("bounds of 10-19: %s-%s", lo, hi)
	}
	// One width that already holds everything: a single interval.
	wantTree(t, tree(t)(Intervals("x", []float64{1, 2, 3}, []float64{5})), `
*
  0-4
    1
    2
    3
`)
	// Negative values align at multiples of the width too; the ladder
	// stops when one interval holds the negative and one the other values.
	wantTree(t, tree(t)(Intervals("x", []float64{-3, 2}, []float64{5})), `
*
  -5--1
    -3
  0-4
    2
`)
	wantTree(t, tree(t)(Intervals("x", []float64{-12, 3}, []float64{5})), `
*
  -50--1
    -20--11
      -15--11
        -12
  0-49
    0-9
      0-4
        3
`)
	// Widths float64 cannot represent exactly still nest, with clean labels.
	h := tree(t)(Intervals("x", []float64{0.25, 0.3, 0.35, 0.55}, []float64{0.1, 0.3}))
	wantTree(t, h, `
*
  [0,0.3)
    [0.2,0.3)
      0.25
  [0.3,0.6)
    [0.3,0.4)
      0.3
      0.35
    [0.5,0.6)
      0.55
`)
	for _, bad := range [][]float64{{5, 12}, {5, 5}, {10, 5}, {5, 10, 25}, {0}, {-1}, {}} {
		_, err := Intervals("age", vals, bad)
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "hierarchy age" {
			t.Errorf("widths %v: got %v, want a parameter error", bad, err)
		}
	}
	if _, err := Intervals("age", vals, []float64{5, 12}); err == nil || !strings.Contains(err.Error(), "multiple of the previous one") {
		t.Errorf("non-nesting widths: %v", err)
	}
	if _, err := Intervals("age", []float64{1e300}, []float64{1e-300}); err == nil {
		t.Errorf("too many intervals accepted")
	}
}

func TestBalanced(t *testing.T) {
	tests := []struct {
		n, arity int
		want     string
	}{
		{5, 2, `
1-5
  1-3
    1-2
      1
      2
    3
  4-5
    4
    5
`},
		{8, 2, `
1-8
  1-4
    1-2
      1
      2
    3-4
      3
      4
  5-8
    5-6
      5
      6
    7-8
      7
      8
`},
		{5, 3, `
1-5
  1-2
    1
    2
  3-4
    3
    4
  5
`},
		{8, 3, `
1-8
  1-3
    1
    2
    3
  4-6
    4
    5
    6
  7-8
    7
    8
`},
		{16, 3, `
1-16
  1-6
    1-2
      1
      2
    3-4
      3
      4
    5-6
      5
      6
  7-11
    7-8
      7
      8
    9-10
      9
      10
    11
  12-16
    12-13
      12
      13
    14-15
      14
      15
    16
`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d-ary over 1..%d", tt.arity, tt.n), func(t *testing.T) {
			h := tree(t)(Balanced("v", seq(1, tt.n), tt.arity))
			wantTree(t, h, tt.want)
			if h.MaxArity() != tt.arity || h.IsBinary() != (tt.arity == 2) {
				t.Errorf("max arity %d binary %v", h.MaxArity(), h.IsBinary())
			}
		})
	}
	t.Run("binary over 1..16", func(t *testing.T) {
		h := tree(t)(Balanced("v", seq(1, 16), 2))
		if h.Height() != 4 || len(h.Nodes) != 31 {
			t.Fatalf("height %d nodes %d, want a perfect tree of height 4", h.Height(), len(h.Nodes))
		}
		var inner []string
		for _, nd := range h.Nodes {
			if len(nd.Children) > 0 {
				inner = append(inner, nd.Label)
				if len(nd.Children) != 2 || h.LeafCount(nd.Children[0]) != h.LeafCount(nd.Children[1]) {
					t.Errorf("%s is not split in halves", nd.Label)
				}
			}
			if len(nd.Children) == 0 && nd.Depth != 4 {
				t.Errorf("leaf %s at depth %d", nd.Label, nd.Depth)
			}
		}
		want := []string{"1-16", "1-8", "1-4", "1-2", "3-4", "5-8", "5-6", "7-8", "9-16", "9-12", "9-10", "11-12", "13-16", "13-14", "15-16"}
		if !reflect.DeepEqual(inner, want) {
			t.Errorf("inner nodes %v\nwant %v", inner, want)
		}
	})
	t.Run("one value", func(t *testing.T) {
		wantTree(t, tree(t)(Balanced("v", []string{"x"}, 2)), "\n*\n  x\n")
	})
	if _, err := Balanced("v", seq(1, 3), 1); err == nil {
		t.Error("arity 1 accepted")
	}
	if _, err := Balanced("v", nil, 2); err == nil {
		t.Error("no values accepted")
	}
}

func TestRange(t *testing.T) {
	// Numeric: max - min of the values under the node.
	h := tree(t)(Balanced("salary", []string{"30000", "40000", "50000", "60000"}, 2))
	for label, want := range map[string]float64{"30000-60000": 30000, "30000-40000": 10000, "50000-60000": 10000, "40000": 0} {
		if got := h.Range(node(t, h, label)); got != want {
			t.Errorf("range(%s) = %v, want %v", label, got, want)
		}
	}
	// Categorical: leaves - 1.
	c := tree(t)(Balanced("c", []string{"a", "b", "c", "d", "e"}, 2))
	for label, want := range map[string]float64{"a-e": 4, "a-c": 2, "a-b": 1, "d-e": 1, "c": 0} {
		if got := c.Range(node(t, c, label)); got != want {
			t.Errorf("range(%s) = %v, want %v", label, got, want)
		}
	}
	if lo, hi := c.Bounds(node(t, c, "a-c")); lo != "a" || hi != "c" {
		t.Errorf("bounds(a-c) = %s-%s", lo, hi)
	}
}

func TestCheckIntervals(t *testing.T) {
	good := tree(t)(Parse("x", "h.csv", strings.NewReader("1;lo;*\n2;lo;*\n3;hi;*\n4;hi;*\n")))
	if err := good.CheckIntervals(); err != nil {
		t.Error(err)
	}
	bad := tree(t)(Parse("x", "h.csv", strings.NewReader("1;odd;*\n2;even;*\n3;odd;*\n4;even;*\n")))
	if err := bad.CheckIntervals(); err == nil || !strings.Contains(err.Error(), "not intervals") {
		t.Errorf("odd/even split: %v", err)
	}
	// Categorical hierarchies have no order to check.
	if err := tree(t)(Flat("c", []string{"b", "a"})).CheckIntervals(); err != nil {
		t.Error(err)
	}
}

func TestParseHierarchyErrors(t *testing.T) {
	tests := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"rows with different lengths", "a;x;*\nb;*\n", 2, 0, "row has 2 levels, expected 3 as on the first row"},
		{"two roots", "a;x;*\nb;y;*\nc;z;ALL\n", 3, 3, `second root "ALL" (line 1 has root "*")`},
		{"a node with two parents", "a;x;p;*\nb;y;p;*\nc;x;q;*\n", 3, 2, `node "x" has two parents: "p" (line 1) and "q"`},
		{"duplicate leaf", "a;*\nb;*\n\na;*\n", 4, 1, `value "a" is listed twice (also line 1)`},
		{"duplicate number", "5;*\n6;*\n5.0;*\n", 3, 1, `value "5.0" is the same number as the value on line 1`},
		{"empty label", "a;x;*\nb;;*\n", 2, 2, "empty node label"},
		{"empty file", "", 1, 0, "hierarchy file is empty"},
		{"blank file", "\n \r\n", 1, 0, "hierarchy file is empty"},
		{"one level, two rows", "a\nb\n", 2, 0, "rows have a single level"},
		{"bad quote", "a;x;*\n\"b;*\n", 2, 0, "malformed CSV"},
		{"not UTF-8", "a;*\n\xff;*\n", 2, 1, "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("attr", "h.csv", strings.NewReader(tt.in))
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("got %v, want an input error", err)
			}
			if ie.File != "h.csv" || ie.Line != tt.line || ie.Column != tt.col || !strings.Contains(ie.Msg, tt.msg) {
				t.Errorf("got %s line %d column %d %q\nwant line %d column %d %q", ie.File, ie.Line, ie.Column, ie.Msg, tt.line, tt.col, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("h.csv:%d: ", tt.line)) {
				t.Errorf("error text %q does not start with h.csv:%d:", err, tt.line)
			}
		})
	}
	if _, err := ReadFile("a", filepath.Join(t.TempDir(), "none.csv")); err == nil || !strings.Contains(err.Error(), "file does not exist") {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseHierarchyGood(t *testing.T) {
	t.Run("embedded salary hierarchy", func(t *testing.T) {
		f, err := os.Open(filepath.Join("testdata", "salary_hierarchy.csv"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		h := tree(t)(Parse("salary", "salary_hierarchy.csv", f))
		wantTree(t, h, `
*
  [30K,40K]
    30000
    40000
  [50K,60K]
    50000
    60000
`)
		if !h.Numeric || h.Range(0) != 30000 || h.Range(1) != 10000 {
			t.Errorf("numeric %v ranges %v %v", h.Numeric, h.Range(0), h.Range(1))
		}
		if n, ok := h.Leaf("4e4"); !ok || h.Nodes[n].Label != "40000" {
			t.Errorf("Leaf(4e4) = %d, %v", n, ok)
		}
	})
	t.Run("embedded zip hierarchy, comma separated, CRLF", func(t *testing.T) {
		h := tree(t)(ReadFile("zip", filepath.Join("testdata", "zip_hierarchy.csv")))
		wantTree(t, h, `
*
  911**
    9111*
      91110
      91119
    9113*
      91130
  912**
    9121*
      91210
`)
	})
	t.Run("children are ordered by value, spaces trimmed", func(t *testing.T) {
		h := tree(t)(Parse("x", "h.csv", strings.NewReader(" 3 ; hi ; * \n1;lo;*\n\n2;hi;*\n")))
		wantTree(t, h, `
*
  lo
    1
  hi
    2
    3
`)
	})
	t.Run("single value", func(t *testing.T) {
		h := tree(t)(Parse("x", "h.csv", strings.NewReader("only\n")))
		if len(h.Nodes) != 1 || len(h.Leaves) != 1 || h.Height() != 0 {
			t.Errorf("nodes %d leaves %d height %d", len(h.Nodes), len(h.Leaves), h.Height())
		}
	})
}

func TestParseARXHierarchies(t *testing.T) {
	dir := filepath.Dir(sharedData(t, "adult", "adult.csv"))
	tb, err := csvfile.LoadFile(filepath.Join(dir, "adult.csv"), csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ leaves, height int }{
		"age": {100, 4}, "education": {16, 3}, "marital-status": {7, 2}, "native-country": {41, 2},
		"occupation": {14, 2}, "race": {5, 1}, "salary-class": {2, 1}, "sex": {2, 1}, "workclass": {8, 2},
	}
	for attr, w := range want {
		t.Run(attr, func(t *testing.T) {
			h := tree(t)(ReadFile(attr, filepath.Join(dir, "adult_hierarchy_"+attr+".csv")))
			if len(h.Leaves) != w.leaves || h.Height() != w.height {
				t.Errorf("%d leaves height %d, want %d and %d", len(h.Leaves), h.Height(), w.leaves, w.height)
			}
			if h.Nodes[0].Label != "*" {
				t.Errorf("root %q", h.Nodes[0].Label)
			}
			// Every value of the column is covered.
			c := tb.Column(attr)
			leaves, err := h.MapColumn(c)
			if err != nil {
				t.Fatal(err)
			}
			for code, l := range leaves {
				if h.Nodes[l].Label != c.Dict[code] && !(h.Numeric && h.Nodes[l].Value == c.Nums[code]) {
					t.Errorf("%q maps to leaf %q", c.Dict[code], h.Nodes[l].Label)
				}
			}
		})
	}
	h := tree(t)(ReadFile("age", filepath.Join(dir, "adult_hierarchy_age.csv")))
	if !h.Numeric || h.CheckIntervals() != nil || h.Range(0) != 99 {
		t.Errorf("age: numeric %v intervals %v range %v", h.Numeric, h.CheckIntervals(), h.Range(0))
	}
	leaf, _ := h.Leaf("37")
	for up, want := range []string{"37", "35-39", "30-39", "20-39", "*"} {
		if got := h.Nodes[h.Ancestor(leaf, up)].Label; got != want {
			t.Errorf("age 37, %d up: %q want %q", up, got, want)
		}
	}
}

func TestMapColumn(t *testing.T) {
	tb := mustLoad(t, "sex,age\nF,30\nM,30.0\nX,40\nF,?\n", csvfile.LoadOptions{})
	h := tree(t)(Flat("sex", []string{"F", "M"}))
	_, err := h.MapColumn(tb.Column("sex"))
	if err == nil || err.Error() != `hierarchy for "sex" does not cover the value "X" (first on line 4)` {
		t.Errorf("got %v", err)
	}
	// Numeric values match any spelling.
	ages := tree(t)(Intervals("age", []float64{30, 40}, []float64{10}))
	leaves, err := ages.MapColumn(tb.Column("age"))
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{ages.Nodes[leaves[0]].Label, ages.Nodes[leaves[1]].Label, ages.Nodes[leaves[2]].Label}; !reflect.DeepEqual(got, []string{"30", "30", "40"}) {
		t.Errorf("age leaves %v", got)
	}
}

// Rows writes a builder tree in the leaf-first layout; parsing it gives the
// same leaves and subdomains.
func TestRowsRoundTrip(t *testing.T) {
	mk := func(h *Hierarchy, err error) *Hierarchy { return tree(t)(h, err) }
	trees := map[string]*Hierarchy{
		"flat":      mk(Flat("c", []string{"a", "b", "c"})),
		"masking":   mk(Masking("zip", []string{"91110", "91130", "91210", "92110", "1234"})),
		"intervals": mk(Intervals("age", []float64{1, 4, 7, 12, 23, 61}, []float64{5})),
		"floats":    mk(Intervals("x", []float64{0.25, 0.3, 0.35, 0.55}, []float64{0.1, 0.3})),
		"binary":    mk(Balanced("n", seq(1, 5), 2)),
		"ternary":   mk(Balanced("n", seq(1, 16), 3)),
		"text":      mk(Balanced("c", []string{"a", "b", "c", "d", "e"}, 2)),
	}
	for name, h := range trees {
		t.Run(name, func(t *testing.T) {
			var lines []string
			for _, r := range h.Rows() {
				if len(r) != h.Height()+1 {
					t.Fatalf("row %v has %d levels, height %d", r, len(r), h.Height())
				}
				lines = append(lines, strings.Join(r, ";"))
			}
			back := tree(t)(Parse(h.Attr, "rows.csv", strings.NewReader(strings.Join(lines, "\n"))))
			if !reflect.DeepEqual(leafLabels(h), leafLabels(back)) {
				t.Errorf("leaves %v, back %v", leafLabels(h), leafLabels(back))
			}
			if !reflect.DeepEqual(subdomains(h), subdomains(back)) {
				t.Errorf("subdomains %v\nback %v", subdomains(h), subdomains(back))
			}
			if h.Numeric != back.Numeric {
				t.Errorf("numeric %v back %v", h.Numeric, back.Numeric)
			}
		})
	}
	rows := trees["binary"].Rows()
	want := [][]string{{"1", "1-2", "1-3", "1-5"}, {"2", "1-2", "1-3", "1-5"}, {"3", "3", "1-3", "1-5"}, {"4", "4", "4-5", "1-5"}, {"5", "5", "4-5", "1-5"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %v\nwant %v", rows, want)
	}
}

func TestBuildHierarchy(t *testing.T) {
	tb := mustLoad(t, "age,sex\n23,F\n37,M\n41,F\n37,F\n", csvfile.LoadOptions{})
	age, sex := tb.Column("age"), tb.Column("sex")
	cases := []struct {
		spec string
		col  *model.Column
		want string
	}{
		{"flat", sex, "*\n  F\n  M\n"},
		{"binary", age, "23-41\n  23-37\n    23\n    37\n  41\n"},
		{"ternary", age, "23-41\n  23\n  37\n  41\n"},
		// One width climbs the round ladder: 10, then 50 holds them all.
		{"intervals:10", age, "*\n  20-29\n    23\n  30-39\n    37\n  40-49\n    41\n"},
		{"intervals:10,20", age, "*\n  20-39\n    20-29\n      23\n    30-39\n      37\n  40-59\n    40-49\n      41\n"},
	}
	for _, c := range cases {
		h := tree(t)(Build(c.spec, c.col))
		if got := h.String(); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.spec, got, c.want)
		}
	}
	// auto: AutoWidth gives about ten intervals: (41-23)/10 = 1.8 -> 2.
	if w := AutoWidth(age); w != 2 {
		t.Errorf("AutoWidth = %v, want 2", w)
	}
	if h := tree(t)(Build("auto", age)); h.Nodes[h.Nodes[h.Leaves[0]].Parent].Label != "22-23" {
		t.Errorf("auto: %s", h)
	}
	if h := tree(t)(Build("", sex)); h.String() != "*\n  F\n  M\n" {
		t.Errorf("auto for text: %s", h)
	}
	for _, spec := range []string{"intervals:0", "intervals:x", "intervals:5,7", "nosuch"} {
		_, err := Build(spec, age)
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "hierarchy age" {
			t.Errorf("%s: got %v, want a parameter error for hierarchy age", spec, err)
		}
	}
	if _, err := Build("intervals:5", sex); err == nil || !strings.Contains(err.Error(), "numeric column") {
		t.Errorf("intervals on text: %v", err)
	}
	h := tree(t)(Build(filepath.Join("testdata", "zip_hierarchy.csv"), sex))
	if h.Attr != "sex" || len(h.Leaves) != 4 {
		t.Errorf("file spec: %s %d", h.Attr, len(h.Leaves))
	}
}
