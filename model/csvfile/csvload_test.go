package csvfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
)

// sharedData returns the path of a file in the folder of real datasets
// ($PRIVLAB_SHARED_DATA, else shared/data beside the repository: model
// cannot import datasets.SharedFile, which reads the same variable),
// skipping the test, with how to enable it, when it is not there (e.g.
// on a clean clone).
func sharedData(t testing.TB, rel ...string) string {
	t.Helper()
	dir := os.Getenv("PRIVLAB_SHARED_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	p := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data file %s is not present: set PRIVLAB_SHARED_DATA=DIR (the folder holding adult/ and adult-uci/) or put it at ../shared/data beside the repository", p)
	}
	return p
}

func loadText(t *testing.T, text string, opt LoadOptions) (*model.Table, error) {
	t.Helper()
	if opt.Name == "" {
		opt.Name = "t.csv"
	}
	return Load(strings.NewReader(text), opt)
}

func mustLoad(t *testing.T, text string, opt LoadOptions) *model.Table {
	t.Helper()
	tb, err := loadText(t, text, opt)
	if err != nil {
		t.Fatalf("Load(%q): %v", text, err)
	}
	checkTable(t, tb)
	checkFirstLines(t, tb)
	return tb
}

// checkFirstLines asserts that a freshly loaded table knows where each value
// first occurs.
func checkFirstLines(t testing.TB, tb *model.Table) {
	t.Helper()
	for _, c := range tb.Columns {
		if len(c.FirstLines) != len(c.Dict) {
			t.Fatalf("column %s: %d first lines for %d values", c.Name, len(c.FirstLines), len(c.Dict))
		}
		for i, l := range c.FirstLines {
			if l < 1 || (i > 0 && l < c.FirstLines[i-1]) {
				t.Fatalf("column %s: first lines %v not increasing from 1", c.Name, c.FirstLines)
			}
		}
	}
}

// checkTable asserts the invariants every table keeps.
func checkTable(t testing.TB, tb *model.Table) {
	t.Helper()
	for _, c := range tb.Columns {
		if len(c.Codes) != tb.Rows {
			t.Fatalf("column %s has %d codes for %d rows", c.Name, len(c.Codes), tb.Rows)
		}
		missing := 0
		for _, code := range c.Codes {
			if code == model.Missing {
				missing++
			} else if int(code) >= len(c.Dict) {
				t.Fatalf("column %s: code %d out of range (%d values)", c.Name, code, len(c.Dict))
			}
		}
		if missing != c.MissingCount {
			t.Fatalf("column %s: MissingCount %d, counted %d", c.Name, c.MissingCount, missing)
		}
		if len(c.FirstLines) > len(c.Dict) {
			t.Fatalf("column %s: %d first lines for %d values", c.Name, len(c.FirstLines), len(c.Dict))
		}
		seen := map[string]bool{}
		for _, v := range c.Dict {
			if seen[v] {
				t.Fatalf("column %s: value %q twice in the dictionary", c.Name, v)
			}
			seen[v] = true
		}
		if c.Kind == model.Numeric && len(c.Nums) != len(c.Dict) {
			t.Fatalf("column %s: %d numbers for %d values", c.Name, len(c.Nums), len(c.Dict))
		}
	}
}

// values returns a column's values row by row ("<nil>" for missing).
func values(t *testing.T, tb *model.Table, col string) []string {
	t.Helper()
	c := tb.Column(col)
	if c == nil {
		t.Fatalf("no column %q in %v", col, tb.Names())
	}
	out := make([]string, tb.Rows)
	for r := range out {
		if c.IsMissing(r) {
			out[r] = "<nil>"
		} else {
			out[r] = c.Value(r)
		}
	}
	return out
}

func TestLoadBadInput(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opt  LoadOptions
		// want is the exact error text.
		want       string
		line, col  int
		field      string
		paramError bool
	}{
		{name: "ragged too few", in: "a,b,c\n1,2,3\n4,5\n",
			want: `t.csv:3: column 3 (c): ragged row: too few fields, expected 3 (as in the header), found 2 (hint: every row needs 3 fields separated by ","; quote values that contain it)`,
			line: 3, col: 3, field: "c"},
		{name: "ragged too few after blank lines", in: "a;b;c\n\n1;2;3\n\n\n4\n",
			want: `t.csv:6: column 2 (b): ragged row: too few fields, expected 3 (as in the header), found 1 (hint: every row needs 3 fields separated by ";"; quote values that contain it)`,
			line: 6, col: 2, field: "b"},
		{name: "ragged too many", in: "a,b,c\n1,2,3\n4,5,6,7\n",
			want: `t.csv:3: column 4: ragged row: too many fields, expected 3 (as in the header), found 4 (hint: every row needs 3 fields separated by ","; quote values that contain it)`,
			line: 3, col: 4},
		{name: "ragged row after a quoted line break", in: "a,b\n\"x\ny\",1\n2\n",
			want: `t.csv:4: column 2 (b): ragged row: too few fields, expected 2 (as in the header), found 1 (hint: every row needs 2 fields separated by ","; quote values that contain it)`,
			line: 4, col: 2, field: "b"},
		{name: "unterminated quote", in: "a,b,c\n1,2,3\n4,\"5,6\n7,8,9\n",
			want: `t.csv:3: column 2 (b): unterminated quoted field: the closing " is missing (hint: close every quoted field with "; write a quote inside a quoted field as "")`,
			line: 3, col: 2, field: "b"},
		{name: "unterminated quote on the last line", in: "a,b\n1,\"2", line: 2, col: 2, field: "b"},
		{name: "unterminated quote in the header", in: "a,\"b\n1,2\n", line: 1, col: 2},
		{name: "bare quote", in: "a,b,c\n1,2,3\n4,5\"x,6\n",
			want: `t.csv:3: column 2 (b): bare " in an unquoted field (hint: quote the whole field and double the quote inside it: "a ""b"" c")`,
			line: 3, col: 2, field: "b"},
		{name: "bare quote after spaces without trimming", in: "a;b\n1; \"x\"\n", line: 2, col: 2, field: "b"},
		{name: "text after a closing quote", in: "a,b,c\n1,\"2\"x,3\n",
			want: `t.csv:2: column 2 (b): text after the closing " of a quoted field (hint: close every quoted field with "; write a quote inside a quoted field as "")`,
			line: 2, col: 2, field: "b"},
		{name: "text after a multi-line quoted field", in: "a,b\n1,\"x\ny\"z\n", line: 3, col: 2, field: "b"},
		{name: "duplicate header", in: "a,b,a\n1,2,3\n",
			want: `t.csv:1: column 3 (a): duplicate column name "a" (also column 1) (hint: column names must be unique)`,
			line: 1, col: 3, field: "a"},
		{name: "duplicate header after trimming", in: "a; b ;b\n1;2;3\n", line: 1, col: 3, field: "b"},
		{name: "empty header name", in: "a,,c\n1,2,3\n",
			want: `t.csv:1: column 2: empty column name in the header (hint: name the columns if the file has no header row; give every column a name)`,
			line: 1, col: 2},
		{name: "blank header name", in: "\n\na;  ;c\n1;2;3\n", line: 3, col: 2},
		{name: "empty file", in: "",
			want: `t.csv:1: file is empty, expected a header row and data rows (hint: the first line names the columns, e.g. age,sex,zipcode)`,
			line: 1},
		{name: "whitespace-only file", in: "  \n\t\n \r\n\n", line: 1},
		{name: "BOM only", in: "\xEF\xBB\xBF", line: 1},
		{name: "header only", in: "a,b,c\n",
			want: `t.csv:2: header only: no data rows (hint: add at least one row of values below the header)`,
			line: 2},
		{name: "header only without newline", in: "a,b,c", line: 2},
		{name: "header only with blank lines", in: "a,b,c\r\n\r\n\r\n", line: 2},
		{name: "header only, multi-line header", in: "a,\"b\nc\"\n", line: 3},
		{name: "lines ended by CR alone", in: "a,b\r1,2\r3,4\r",
			want: `t.csv:1: lines end in a bare carriage return (CR), so the file reads as one header line and no data rows (hint: end lines with LF or CRLF (e.g. tr '\r' '\n'))`,
			line: 1},
		{name: "UTF-16 with its byte order mark", in: "\xFF\xFEa\x00,\x00b\x00\n\x001\x00,\x002\x00\n\x00",
			want: `t.csv:1: is UTF-16 text (its byte order mark says so), not UTF-8 (hint: save the file as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8))`,
			line: 1},
		{name: "UTF-16 big-endian", in: "\xFE\xFF\x00a\x00,\x00b\x00\n", line: 1},
		{name: "invalid UTF-8 in the header", in: "a,b\xff,c\n1,2,3\n",
			want: `t.csv:1: column 2: header is not valid UTF-8 (hint: save the file as UTF-8)`,
			line: 1, col: 2},
		{name: "invalid UTF-8 in a value", in: "a,b,c\n1,2,3\n4,\xfe,6\n",
			want: `t.csv:3: column 2 (b): value is not valid UTF-8 (hint: convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8))`,
			line: 3, col: 2, field: "b"},
		// Columns are encoded one after the other; the error must still be
		// the first bad value in the file.
		{name: "first invalid UTF-8 in file order", in: "a,b\n1,2\n3,\xff\n\xfe,4\n", line: 3, col: 2, field: "b"},
		{name: "invalid UTF-8 in a quoted multi-line value", in: "a,b\n1,\"x\ny\"\n\"p\nq\",\"\xfe\"\n", line: 5, col: 2, field: "b"},
		{name: "kind for an unknown column", in: "a,b\n1,2\n", opt: LoadOptions{Kinds: map[string]model.Kind{"zz": model.Numeric}},
			want:       `parameter kind = "zz": t.csv has no column "zz" (hint: columns are: a, b)`,
			paramError: true},
		{name: "delimiter that cannot be one", in: "a,b\n1,2\n", opt: LoadOptions{Delimiter: '"'}, paramError: true},
		{name: "header option with a duplicate name", in: "1,2\n", opt: LoadOptions{Header: []string{"x", "x"}}, col: 2, field: "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb, err := loadText(t, tt.in, tt.opt)
			if err == nil {
				t.Fatalf("loaded %d rows, want an error", tb.Rows)
			}
			if tb != nil {
				t.Errorf("a table came back with the error")
			}
			if tt.want != "" && err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
			if tt.paramError {
				var pe *model.ParamError
				if !errors.As(err, &pe) {
					t.Fatalf("error %T %v, want a *ParamError", err, err)
				}
				return
			}
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T %v, want an *InputError", err, err)
			}
			if ie.File != "t.csv" || ie.Line != tt.line || ie.Column != tt.col || ie.Field != tt.field {
				t.Errorf("error at %s line %d column %d field %q, want t.csv line %d column %d field %q (%v)",
					ie.File, ie.Line, ie.Column, ie.Field, tt.line, tt.col, tt.field, err)
			}
			prefix := "t.csv:"
			if tt.line > 0 {
				prefix = fmt.Sprintf("t.csv:%d:", tt.line)
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
		})
	}
}

// Errors deep in a large file (past the first read buffers) still carry
// the exact line.
func TestLoadBadInputDeepInFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,name,note\n")
	for i := 0; i < 60000; i++ { // about 1.3 MB, more than one chunk
		fmt.Fprintf(&b, "%d,name%d,\"a, quoted\nnote\"\n", i, i%50)
	}
	good := b.String()
	lines := 1 + 60000*2
	cases := []struct {
		name      string
		tail      string
		line, col int
	}{
		{"ragged", "1,2\n", lines + 1, 3},
		{"bare quote", "1,x\"y,z\n", lines + 1, 2},
		{"invalid UTF-8", "1,\xff,z\n", lines + 1, 2},
		{"unterminated", "1,2,\"abc\n\n", lines + 1, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadText(t, good+c.tail, LoadOptions{})
			var ie *model.InputError
			if !errors.As(err, &ie) || ie.Line != c.line || ie.Column != c.col {
				t.Fatalf("got %v, want an input error at line %d column %d", err, c.line, c.col)
			}
		})
	}
	tb := mustLoad(t, good, LoadOptions{})
	if tb.Rows != 60000 {
		t.Fatalf("rows %d, want 60000", tb.Rows)
	}
	name := tb.Column("name")
	if len(name.Dict) != 50 || name.FirstLines[49] != 2+49*2 {
		t.Errorf("name: %d values, name49 first on line %d; want 50 and %d", len(name.Dict), name.FirstLines[49], 2+49*2)
	}
}

func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.csv")
	_, err := LoadFile(missing, LoadOptions{})
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.File != missing || ie.Line != 0 || ie.Msg != "file does not exist" {
		t.Errorf("nonexistent file: %v", err)
	}
	if !strings.HasPrefix(err.Error(), missing+": file does not exist") {
		t.Errorf("nonexistent file: error text %q", err)
	}
	_, err = LoadFile(dir, LoadOptions{})
	if !errors.As(err, &ie) || ie.File != dir || ie.Msg != "is a directory, expected a CSV file" {
		t.Errorf("directory: %v", err)
	}
	if err.Error() != dir+": is a directory, expected a CSV file" {
		t.Errorf("directory: error text %q", err)
	}
	// A bad file names its path and line.
	p := filepath.Join(dir, "bad.csv")
	os.WriteFile(p, []byte("a,b\n1,2\n3\n"), 0o644)
	_, err = LoadFile(p, LoadOptions{})
	if !errors.As(err, &ie) || ie.File != p || ie.Line != 3 || !strings.HasPrefix(err.Error(), p+":3: column 2 (b): ragged row") {
		t.Errorf("bad file: %v", err)
	}
	// A name too long to open is named once, not again in the reason.
	long := filepath.Join(dir, strings.Repeat("x", 300))
	_, err = LoadFile(long, LoadOptions{})
	if !errors.As(err, &ie) || ie.File != long || ie.Msg != "file name too long" {
		t.Errorf("long name: %v", err)
	}
}

func TestLoadARXFixtures(t *testing.T) {
	t.Run("test-import.csv", func(t *testing.T) {
		p := sharedData(t, "arx_toy", "test-import.csv")
		_, err := LoadFile(p, LoadOptions{})
		var ie *model.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("got %v, want an input error", err)
		}
		want := p + `:2: column 4 (additional): ragged row: too few fields, expected 4 (as in the header), found 3`
		if ie.Line != 2 || ie.Column != 4 || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %v\nwant %s ...", err, want)
		}
	})
	t.Run("test_dirty.csv", func(t *testing.T) {
		p := sharedData(t, "arx_toy", "test_dirty.csv")
		tb, err := LoadFile(p, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkTable(t, tb)
		if tb.Rows != 7 || tb.Column("age").Kind != model.Categorical || tb.Column("zipcode").Kind != model.Numeric {
			t.Errorf("rows %d, age %v, zipcode %v; want 7, categorical, numeric", tb.Rows, tb.Column("age").Kind, tb.Column("zipcode").Kind)
		}
		if got := values(t, tb, "age"); !reflect.DeepEqual(got, []string{"34", "4e", "66", "70", "34", "7f", "45"}) {
			t.Errorf("age %q", got)
		}
		// Asked for numbers, the two cells that are not become missing and
		// the table says so.
		tb, err = LoadFile(p, LoadOptions{Kinds: map[string]model.Kind{"age": model.Numeric}})
		if err != nil {
			t.Fatal(err)
		}
		if c := tb.Column("age"); c.Kind != model.Numeric || c.MissingCount != 2 || len(tb.Notes) != 1 ||
			!strings.Contains(tb.Notes[0].Text, p+`:3: column 1 (age): 2 cells are not numbers and are read as missing values (first "4e"`) {
			t.Errorf("numeric age: %v missing %d notes %q", c.Kind, c.MissingCount, tb.Notes)
		}
	})
	t.Run("adult.csv", func(t *testing.T) {
		p := sharedData(t, "adult", "adult.csv")
		tb, err := LoadFile(p, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkTable(t, tb)
		want := []string{"sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation", "salary-class"}
		if tb.Rows != 30162 || !reflect.DeepEqual(tb.Names(), want) {
			t.Fatalf("%d rows, columns %v", tb.Rows, tb.Names())
		}
		distinct := map[string]int{"sex": 2, "age": 72, "race": 5, "marital-status": 7, "education": 16,
			"native-country": 41, "workclass": 7, "occupation": 14, "salary-class": 2}
		for name, n := range distinct {
			c := tb.Column(name)
			if c.Distinct() != n || c.MissingCount != 0 {
				t.Errorf("%s: %d distinct, %d missing; want %d, 0", name, c.Distinct(), c.MissingCount, n)
			}
			if want := name == "age"; (c.Kind == model.Numeric) != want {
				t.Errorf("%s: kind %v", name, c.Kind)
			}
		}
		lo, hi, _ := tb.Column("age").Range()
		if lo != 17 || hi != 90 {
			t.Errorf("age range %v-%v, want 17-90", lo, hi)
		}
		sal := tb.Column("salary-class")
		counts := sal.Counts()
		got := map[string]int{}
		for code, n := range counts {
			got[sal.Dict[code]] = n
		}
		if got["<=50K"] != 22654 || got[">50K"] != 7508 {
			t.Errorf("salary-class counts %v", got)
		}
		for _, v := range sal.Dict {
			if strings.ContainsAny(v, "\r\n") {
				t.Errorf("CRLF leaked into value %q", v)
			}
		}
	})
	t.Run("adult.data (UCI, comma-space, no header)", func(t *testing.T) {
		p := sharedData(t, "adult-uci", "adult.data")
		header := []string{"age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
			"relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country", "salary"}
		tb, err := LoadFile(p, LoadOptions{Header: header})
		if err != nil {
			t.Fatal(err)
		}
		checkTable(t, tb)
		if tb.Rows != 32561 {
			t.Fatalf("rows %d, want 32561", tb.Rows)
		}
		for name, n := range map[string]int{"workclass": 1836, "occupation": 1843, "native-country": 583, "age": 0} {
			if c := tb.Column(name); c.MissingCount != n {
				t.Errorf("%s: %d missing, want %d", name, c.MissingCount, n)
			}
		}
		if c := tb.Column("age"); c.Kind != model.Numeric || c.Distinct() != 73 {
			t.Errorf("age: %v with %d values, want numeric with 73", c.Kind, c.Distinct())
		}
		if got := tb.Column("workclass").Value(0); got != "State-gov" {
			t.Errorf("workclass of row 0 is %q: spaces after the delimiter were not trimmed", got)
		}
		if c := tb.Column("capital-loss"); c.Kind != model.Numeric || c.Distinct() != 92 {
			t.Errorf("capital-loss: %v with %d values, want numeric with 92 (91 non-zero + 0)", c.Kind, c.Distinct())
		}
	})
}

func TestDetectDelimiter(t *testing.T) {
	tests := []struct {
		in   string
		want rune
	}{
		{"a,b,c\n1,2,3\n", ','},
		{"a;b;c\n1;2;3\n", ';'},
		{"a\tb\tc\n1\t2\t3\n", '\t'},
		{"a|b|c\n1|2|3\n", '|'},
		{"a;b,c\n1;2,3\n", ','},                    // a tie goes to the first of , ; tab |
		{"a,b;c;d\n1,2;3;4\n", ';'},                // the one giving most fields
		{"\"x;y\",b\n\"1;2\",3\n", ','},            // delimiters inside quotes do not count
		{"a;b;c\n1;2\n3;4;5\n", ';'},               // ragged: most frequent in the header
		{"single\nvalue\n", ','},                   // nothing: comma
		{"a\tb\n\"multi\nline\"\tx\n", '\t'},       // quoted line break
		{"name|note\nx|\"a,b,c,d,e\"\ny|z\n", '|'}, // commas in quotes
	}
	for _, tt := range tests {
		if got := DetectDelimiter([]byte(tt.in)); got != tt.want {
			t.Errorf("DetectDelimiter(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLoadGoodInput(t *testing.T) {
	for _, d := range []string{",", ";", "\t", "|"} {
		t.Run(fmt.Sprintf("delimiter %q", d), func(t *testing.T) {
			// The quoted city holds the delimiter (or a comma).
			in := "name" + d + "age" + d + "city\nann" + d + "30" + d + "Paris\nbob" + d + "41" + d + "\"Rome, IT\"\n"
			tb := mustLoad(t, in, LoadOptions{})
			if !reflect.DeepEqual(tb.Names(), []string{"name", "age", "city"}) || tb.Rows != 2 {
				t.Fatalf("columns %v rows %d", tb.Names(), tb.Rows)
			}
			if got := values(t, tb, "city"); !reflect.DeepEqual(got, []string{"Paris", "Rome, IT"}) {
				t.Errorf("city %q", got)
			}
			if tb.Column("age").Kind != model.Numeric || tb.Column("name").Kind != model.Categorical {
				t.Errorf("kinds %v %v", tb.Column("age").Kind, tb.Column("name").Kind)
			}
		})
	}
	t.Run("quoted delimiter, line breaks and doubled quotes", func(t *testing.T) {
		in := "a,b\n\"x,y\",\"line1\nline2\"\n\"say \"\"hi\"\"\",\"\"\"\"\nplain,\"\"\n"
		tb := mustLoad(t, in, LoadOptions{})
		if got := values(t, tb, "a"); !reflect.DeepEqual(got, []string{"x,y", `say "hi"`, "plain"}) {
			t.Errorf("a %q", got)
		}
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"line1\nline2", `"`, "<nil>"}) {
			t.Errorf("b %q", got)
		}
		// line numbers count the line break inside the quotes
		if got := tb.Column("a").FirstLines; !reflect.DeepEqual(got, []int{2, 4, 5}) {
			t.Errorf("first lines %v, want [2 4 5]", got)
		}
	})
	t.Run("BOM and CRLF", func(t *testing.T) {
		tb := mustLoad(t, "\xEF\xBB\xBFa;b\r\n1;x\r\n2;\"p\r\nq\"\r\n", LoadOptions{})
		if !reflect.DeepEqual(tb.Names(), []string{"a", "b"}) {
			t.Fatalf("header %q", tb.Names())
		}
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"x", "p\nq"}) {
			t.Errorf("b %q (CRLF must read as LF)", got)
		}
	})
	t.Run("lone CR is kept, CR before EOF dropped", func(t *testing.T) {
		tb := mustLoad(t, "a,b\nx\ry,1\nz,2\r", LoadOptions{})
		if got := values(t, tb, "a"); !reflect.DeepEqual(got, []string{"x\ry", "z"}) {
			t.Errorf("a %q", got)
		}
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"1", "2"}) {
			t.Errorf("b %q", got)
		}
	})
	t.Run("no trailing newline", func(t *testing.T) {
		tb := mustLoad(t, "a,b\n1,2\n3,\"4\"", LoadOptions{})
		if got := values(t, tb, "b"); tb.Rows != 2 || !reflect.DeepEqual(got, []string{"2", "4"}) {
			t.Errorf("rows %d b %q", tb.Rows, got)
		}
	})
	t.Run("blank lines are skipped", func(t *testing.T) {
		tb := mustLoad(t, "\n\na,b\n\n1,2\n   \n\r\n3,4\n\n", LoadOptions{})
		if tb.Rows != 2 || !reflect.DeepEqual(values(t, tb, "a"), []string{"1", "3"}) {
			t.Errorf("rows %d a %q", tb.Rows, values(t, tb, "a"))
		}
		if got := tb.Column("a").FirstLines; !reflect.DeepEqual(got, []int{5, 8}) {
			t.Errorf("first lines %v, want [5 8]", got)
		}
	})
	t.Run("missing tokens counted per column", func(t *testing.T) {
		tb := mustLoad(t, "a,b,c,d\n1,?,x,NA\nNA,2,,NA\nNULL,,y,NA\n4,5,z,NA\n", LoadOptions{})
		want := map[string]int{"a": 2, "b": 2, "c": 1, "d": 4}
		for name, n := range want {
			if got := tb.Column(name).MissingCount; got != n {
				t.Errorf("%s: %d missing, want %d", name, got, n)
			}
		}
		if got := values(t, tb, "a"); !reflect.DeepEqual(got, []string{"1", "<nil>", "<nil>", "4"}) {
			t.Errorf("a %q", got)
		}
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"<nil>", "2", "<nil>", "5"}) {
			t.Errorf("b %q", got)
		}
		if tb.Column("a").Kind != model.Numeric || tb.Column("d").Kind != model.Categorical || tb.Column("d").Distinct() != 0 {
			t.Errorf("kinds: a %v, d %v with %d values", tb.Column("a").Kind, tb.Column("d").Kind, tb.Column("d").Distinct())
		}
		// Quoted "" is missing too; "NA " with trimming off is a value.
		tb = mustLoad(t, "a;b\n\"\";NA \n1;2\n", LoadOptions{})
		if tb.Column("a").MissingCount != 1 || tb.Column("b").MissingCount != 0 {
			t.Errorf("missing %d %d, want 1 0", tb.Column("a").MissingCount, tb.Column("b").MissingCount)
		}
	})
	t.Run("custom missing tokens", func(t *testing.T) {
		tb := mustLoad(t, "a,b\n?,-\n1,\n", LoadOptions{MissingTokens: []string{"-"}})
		if got := values(t, tb, "a"); !reflect.DeepEqual(got, []string{"?", "1"}) {
			t.Errorf("a %q", got)
		}
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"<nil>", ""}) {
			t.Errorf("b %q", got)
		}
	})
	t.Run("kind inference", func(t *testing.T) {
		tb := mustLoad(t, "int,float,exp,mixed,text,hex,inf,under\n1,1.5,1e3,1,a,0x10,+Inf,1_000\n-2,.25,-2.5E-1,2a,b,0x1p4,NaN,2\n", LoadOptions{})
		kinds := map[string]model.Kind{"int": model.Numeric, "float": model.Numeric, "exp": model.Numeric, "mixed": model.Categorical,
			"text": model.Categorical, "hex": model.Categorical, "inf": model.Categorical, "under": model.Categorical}
		for name, k := range kinds {
			if got := tb.Column(name).Kind; got != k {
				t.Errorf("%s: %v, want %v", name, got, k)
			}
		}
		if got := tb.Column("exp").Nums; !reflect.DeepEqual(got, []float64{1000, -0.25}) {
			t.Errorf("exp nums %v", got)
		}
		if got := tb.Column("float").Nums; !reflect.DeepEqual(got, []float64{1.5, 0.25}) {
			t.Errorf("float nums %v", got)
		}
	})
	t.Run("kind override", func(t *testing.T) {
		tb := mustLoad(t, "zip,n\n01234,1\n91110,2\n", LoadOptions{Kinds: map[string]model.Kind{"zip": model.Categorical, "n": model.Numeric}})
		if tb.Column("zip").Kind != model.Categorical || tb.Column("zip").Nums != nil || tb.Column("n").Kind != model.Numeric {
			t.Errorf("kinds %v %v", tb.Column("zip").Kind, tb.Column("n").Kind)
		}
	})
	t.Run("header option", func(t *testing.T) {
		tb := mustLoad(t, "1,x\n2,y\n\n3,\"z\"\n", LoadOptions{Header: []string{"n", "s"}})
		if tb.Rows != 3 || !reflect.DeepEqual(values(t, tb, "s"), []string{"x", "y", "z"}) {
			t.Errorf("rows %d s %q", tb.Rows, values(t, tb, "s"))
		}
		if got := tb.Column("n").FirstLines; !reflect.DeepEqual(got, []int{1, 2, 4}) {
			t.Errorf("first lines %v, want [1 2 4]", got)
		}
	})
	t.Run("comma-space files are trimmed", func(t *testing.T) {
		tb := mustLoad(t, "a, b, c\n1, x y , 3\n2,  \"p, q\" , 4\n", LoadOptions{})
		if !reflect.DeepEqual(tb.Names(), []string{"a", "b", "c"}) {
			t.Fatalf("names %q", tb.Names())
		}
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"x y", "p, q"}) {
			t.Errorf("b %q", got)
		}
		if tb.Column("c").Kind != model.Numeric {
			t.Errorf("c is %v", tb.Column("c").Kind)
		}
		// Inside quotes spaces are kept.
		tb = mustLoad(t, "a, b\n1, \" x \"\n", LoadOptions{})
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{" x "}) {
			t.Errorf("quoted b %q", got)
		}
	})
	t.Run("no trimming without comma-space", func(t *testing.T) {
		tb := mustLoad(t, "a,b\n1, x\n2,y \n", LoadOptions{})
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{" x", "y "}) {
			t.Errorf("b %q", got)
		}
		tb = mustLoad(t, "a,b\n1, x\n2,y \n", LoadOptions{TrimSpace: true})
		if got := values(t, tb, "b"); !reflect.DeepEqual(got, []string{"x", "y"}) {
			t.Errorf("TrimSpace b %q", got)
		}
	})
	t.Run("explicit delimiter", func(t *testing.T) {
		tb := mustLoad(t, "a:b\n1:2\n", LoadOptions{Delimiter: ':'})
		if !reflect.DeepEqual(tb.Names(), []string{"a", "b"}) {
			t.Errorf("names %q", tb.Names())
		}
	})
	t.Run("single column with blank values", func(t *testing.T) {
		tb := mustLoad(t, "a\nx\n  \ny\n", LoadOptions{})
		if got := values(t, tb, "a"); !reflect.DeepEqual(got, []string{"x", "  ", "y"}) {
			t.Errorf("a %q", got)
		}
	})
	t.Run("record longer than a read buffer", func(t *testing.T) {
		long := strings.Repeat("ab\"\"cd,\n", 400000)                             // 3.2 MB with quotes and line breaks
		tb := mustLoad(t, "a,b\n\""+long+"\",1\nz,2\n", LoadOptions{MaxCell: -1}) // no cell limit: the scanner, not the limit, is under test
		want := strings.ReplaceAll(long, `""`, `"`)
		if got := tb.Column("a").Value(0); got != want {
			t.Errorf("long value of %d bytes, want %d", len(got), len(want))
		}
		if got := tb.Column("a").FirstLines; !reflect.DeepEqual(got, []int{2, 400003}) {
			t.Errorf("first lines %v", got)
		}
	})
}

func TestLoadNeverWrites(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in.csv")
	data := []byte("a,b\n1,2\n")
	os.WriteFile(p, data, 0o444)
	if _, err := LoadFile(p, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, data) {
		t.Errorf("input changed")
	}
}

func TestHandleMissing(t *testing.T) {
	tb := mustLoad(t, "a,b,c\n1,x,p\n?,y,q\n3,?,r\n4,z,\n", LoadOptions{})
	t.Run("drop", func(t *testing.T) {
		out, dropped := tb.HandleMissing([]string{"a", "b"}, model.DropMissing)
		checkTable(t, out)
		if dropped != 2 || out.Rows != 2 {
			t.Fatalf("dropped %d rows %d, want 2 2", dropped, out.Rows)
		}
		if got := values(t, out, "a"); !reflect.DeepEqual(got, []string{"1", "4"}) {
			t.Errorf("a %q", got)
		}
		// c is not used: its missing value stays.
		if got := values(t, out, "c"); !reflect.DeepEqual(got, []string{"p", "<nil>"}) || out.Column("c").MissingCount != 1 {
			t.Errorf("c %q", got)
		}
		if tb.Rows != 4 || tb.Column("a").MissingCount != 1 {
			t.Errorf("the receiver changed")
		}
	})
	t.Run("category", func(t *testing.T) {
		// b is categorical: its missing value becomes "?". a is numeric: a
		// number cannot be "?", so its row with a missing value is dropped.
		out, dropped := tb.HandleMissing([]string{"a", "b"}, model.MissingAsCategory)
		checkTable(t, out)
		if dropped != 1 || out.Rows != 3 {
			t.Fatalf("dropped %d rows %d", dropped, out.Rows)
		}
		if got := values(t, out, "a"); !reflect.DeepEqual(got, []string{"1", "3", "4"}) {
			t.Errorf("a %q", got)
		}
		if out.Column("a").Kind != model.Numeric || out.Column("a").MissingCount != 0 {
			t.Errorf("a: %v with %d missing", out.Column("a").Kind, out.Column("a").MissingCount)
		}
		if got := values(t, out, "b"); !reflect.DeepEqual(got, []string{"x", "?", "z"}) {
			t.Errorf("b %q", got)
		}
		if tb.Column("a").Kind != model.Numeric || tb.Column("a").MissingCount != 1 {
			t.Errorf("the receiver changed")
		}
	})
	t.Run("nothing missing", func(t *testing.T) {
		out, dropped := tb.HandleMissing([]string{"zz"}, model.DropMissing)
		if out != tb || dropped != 0 {
			t.Errorf("got a new table")
		}
	})
	if p, err := model.ParseMissingPolicy("category"); err != nil || p != model.MissingAsCategory {
		t.Errorf("ParseMissingPolicy(category) = %v, %v", p, err)
	}
	if _, err := model.ParseMissingPolicy("ignore"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("ParseMissingPolicy(ignore) = %v", err)
	}
}

func TestParseNumber(t *testing.T) {
	good := map[string]float64{"0": 0, "-1": -1, "+2": 2, "1.5": 1.5, ".5": 0.5, "5.": 5, "1e3": 1000, "-2.5E-1": -0.25, "007": 7}
	for s, want := range good {
		if v, ok := model.ParseNumber(s); !ok || v != want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v", s, v, ok, want)
		}
	}
	for _, s := range []string{"", "-", ".", "e5", "1e", "1e+", "1,000", "1_000", "0x10", "0x1p4", "Inf", "+Inf", "-inf", "NaN", "1e999", " 1", "1 ", "1.2.3", "--1", strings.Repeat("1", 65)} {
		if v, ok := model.ParseNumber(s); ok {
			t.Errorf("ParseNumber(%q) = %v, want no number", s, v)
		}
	}
}

func TestKindNotes(t *testing.T) {
	// A numeric column with a few text cells is read as categorical, and
	// the table says which cells and how to read it as numbers.
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := 0; i < 40; i++ {
		v := fmt.Sprint(i)
		if i == 7 || i == 30 {
			v = "n/a"
		}
		fmt.Fprintf(&b, "%s,x%d\n", v, i%3)
	}
	tb, err := loadText(t, b.String(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := tb.Column("a")
	if a.Kind != model.Categorical || a.AlmostNumeric == nil || *a.AlmostNumeric != (model.KindNote{Cells: 2, Line: 9, Value: "n/a"}) {
		t.Fatalf("kind %v note %+v", a.Kind, a.AlmostNumeric)
	}
	want := model.Note{Text: `t.csv:9: column 1 (a) is read as categorical because 2 cells are not numbers (first "n/a")`,
		Fixes: []model.Fix{{Setting: model.SetKind, Attr: "a", Value: "numeric", Why: "to read them as missing values"}}}
	if len(tb.Notes) != 1 || !reflect.DeepEqual(tb.Notes[0], want) {
		t.Fatalf("notes %q", tb.Notes)
	}
	// A text column says nothing.
	if tb.Column("b").AlmostNumeric != nil {
		t.Fatal("b noted")
	}
	// With --kind a=numeric the two cells are missing values.
	tb, err = loadText(t, b.String(), LoadOptions{Kinds: map[string]model.Kind{"a": model.Numeric}})
	if err != nil {
		t.Fatal(err)
	}
	if a := tb.Column("a"); a.Kind != model.Numeric || a.MissingCount != 2 || len(a.Dict) != 38 || a.Value(9) != "9" || !a.IsMissing(7) {
		t.Fatalf("numeric a: %v %d %d", a.Kind, a.MissingCount, len(a.Dict))
	}
	if len(tb.Notes) != 1 || !strings.HasPrefix(tb.Notes[0].Text, "t.csv:9: column 1 (a): 2 cells are not numbers and are read as missing values") {
		t.Fatalf("notes %q", tb.Notes)
	}
}

func TestMaxCell(t *testing.T) {
	long := strings.Repeat("x", model.DefaultMaxCell+1)
	in := "a,b\n1,2\n3,\"" + long + "\"\n"
	_, err := loadText(t, in, LoadOptions{})
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.Line != 3 || ie.Column != 2 || ie.Field != "b" ||
		!strings.Contains(err.Error(), "value is longer than 65536 bytes") || len(ie.Fixes) != 1 || ie.Fixes[0].Setting != model.SetMaxCell {
		t.Fatalf("got %v", err)
	}
	if tb, err := loadText(t, in, LoadOptions{MaxCell: -1}); err != nil || len(tb.Column("b").Dict[1]) != model.DefaultMaxCell+1 {
		t.Fatalf("no limit: %v", err)
	}
	if _, err := loadText(t, "a\n12345\n", LoadOptions{MaxCell: 4}); err == nil || !strings.Contains(err.Error(), "longer than 4 bytes") {
		t.Fatalf("limit 4: %v", err)
	}
	// The header row is held to the same limit.
	_, err = loadText(t, "a,"+long+"\n1,2\n", LoadOptions{})
	if !errors.As(err, &ie) || ie.Line != 1 || ie.Column != 2 || !strings.Contains(err.Error(), "column name is longer than 65536 bytes") {
		t.Fatalf("long header: %v", err)
	}
}

// TestFirstRowDetection: a first row that looks like data is read as
// data (no record is lost), one that could be either is kept as the
// header with a note, and a header is read silently; --header and
// --columns decide.
func TestFirstRowDetection(t *testing.T) {
	for _, tt := range []struct {
		in    string
		opt   LoadOptions
		names string
		rows  int
		note  string
	}{
		// UCI adult.data: numbers in columns of numbers, and text that
		// repeats as a value of its column.
		{"39, State-gov, 77516\n50, Private, 83311\n38, State-gov, 215646\n", LoadOptions{HeaderRow: HeaderDetect}, "c1,c2,c3", 3, "the first row looks like data (39, State-gov, 77516)"},
		{"1,2,3\n4,5,6\n", LoadOptions{HeaderRow: HeaderDetect}, "c1,c2,c3", 2, "the first row looks like data"},
		{"M,Private\nF,Public\nM,Private\n", LoadOptions{HeaderRow: HeaderDetect}, "c1,c2", 3, "the first row looks like data"},
		// A missing value in the first row counts for neither.
		{"39,?,77516\n50,Private,83311\n", LoadOptions{HeaderRow: HeaderDetect}, "c1,c2,c3", 2, "the first row looks like data"},
		{"age,job\n39,clerk\n", LoadOptions{HeaderRow: HeaderDetect}, "age,job", 1, ""},
		{"age,2019\n39,x\n", LoadOptions{HeaderRow: HeaderDetect}, "age,2019", 1, ""}, // a year as a name, but age is numeric and named
		// Years as names over numbers: could be either; read as the
		// header, and said.
		{"region,2019,2020\nnorth,5,6\nsouth,7,8\n", LoadOptions{HeaderRow: HeaderDetect}, "region,2019,2020", 2, "the header row looks like data"},
		{"39,State-gov\n50,Private\n", LoadOptions{HeaderRow: HeaderDetect}, "39,State-gov", 1, "the header row looks like data"},
		// One column of text whose name is among its values.
		{"c\nb\na\nc\n", LoadOptions{HeaderRow: HeaderDetect}, "c", 3, "the header row looks like data"},
		// The user decides.
		{"1,2,3\n4,5,6\n", LoadOptions{HeaderRow: HeaderYes}, "1,2,3", 1, ""},
		{"age,job\n39,clerk\n", LoadOptions{HeaderRow: HeaderNo}, "c1,c2", 2, ""},
		{"39,State-gov\n50,Self-emp\n", LoadOptions{Header: []string{"age", "workclass"}}, "age,workclass", 2, ""},
		// Files privlab writes itself are read with their header (the
		// zero value): no detection.
		{"1,2,3\n4,5,6\n", LoadOptions{}, "1,2,3", 1, ""},
	} {
		tb, err := loadText(t, tt.in, tt.opt)
		if err != nil {
			t.Fatalf("%q: %v", tt.in, err)
		}
		var said []string
		for _, n := range tb.Notes {
			said = append(said, n.String())
		}
		got := strings.Join(said, "\n")
		if strings.Join(tb.Names(), ",") != tt.names || tb.Rows != tt.rows || (tt.note == "") != (got == "") || !strings.Contains(got, tt.note) {
			t.Errorf("%q %+v: columns %v, %d rows, notes %q", tt.in, tt.opt, tb.Names(), tb.Rows, got)
		}
		if tb.FirstRowData != (tt.opt.HeaderRow == HeaderDetect && strings.HasPrefix(tt.names, "c1")) {
			t.Errorf("%q: FirstRowData %v", tt.in, tb.FirstRowData)
		}
	}
}

// TestAdultDataFirstRowIsData: the raw UCI file has no header row; every
// record is read (32,561), whatever way the file is loaded.
func TestAdultDataFirstRowIsData(t *testing.T) {
	tb, err := LoadFile(sharedData(t, "adult-uci", "adult.data"), LoadOptions{HeaderRow: HeaderDetect})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Rows != 32561 || !tb.FirstRowData || tb.Columns[0].Name != "c1" || len(tb.Columns) != 15 {
		t.Fatalf("%d rows, first row data %v, columns %v", tb.Rows, tb.FirstRowData, tb.Names())
	}
}
