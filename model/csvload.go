package model

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// LoadOptions tune LoadFile and Load. The zero value detects everything.
type LoadOptions struct {
	// Name is the file name used in error messages (LoadFile sets the path).
	Name string
	// Delimiter is the field separator; 0 detects one of , ; tab |.
	Delimiter rune
	// Header names the columns of a file that has no header row. When empty
	// the first row is the header.
	Header []string
	// MissingTokens are the values that mean "missing"; nil means
	// DefaultMissingTokens.
	MissingTokens []string
	// Kinds overrides the inferred kind of the named columns.
	Kinds map[string]Kind
	// TrimSpace removes spaces around unquoted fields. It is switched on
	// automatically when every delimiter in the first lines is followed by a
	// space (as in the raw UCI Adult file, "39, State-gov, ...").
	TrimSpace bool
}

// DefaultMissingTokens are the values read as missing unless told otherwise.
var DefaultMissingTokens = []string{"", "?", "NA", "NULL"}

// LoadFile reads a CSV file into a Table. The file is only read, never
// written. On any error no table is returned and the error is an
// *InputError naming the file and line.
func LoadFile(path string, opt LoadOptions) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{File: path, Msg: openReason(err), Hint: "check the path; use dataset:NAME for an embedded dataset (privlab datasets lists them)"}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, &InputError{File: path, Msg: "is a directory, expected a CSV file"}
	}
	if opt.Name == "" {
		opt.Name = path
	}
	return Load(f, opt)
}

func openReason(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "file does not exist"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// Load reads CSV text into a Table; see LoadFile.
func Load(r io.Reader, opt LoadOptions) (*Table, error) {
	name := opt.Name
	if name == "" {
		name = "input"
	}
	br := bufio.NewReaderSize(r, 1<<20)
	// Strip a UTF-8 byte order mark.
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	sample, _ := br.Peek(64 << 10)
	if len(bytes.TrimSpace(sample)) == 0 {
		return nil, &InputError{File: name, Line: 1, Msg: "file is empty, expected a header row and data rows",
			Hint: "the first line names the columns, e.g. age,sex,zipcode"}
	}
	delim := opt.Delimiter
	if delim == 0 {
		delim = DetectDelimiter(sample)
	}
	trim := opt.TrimSpace || spaceAfterDelimiter(sample, delim)

	cr := csv.NewReader(br)
	cr.Comma = delim
	cr.FieldsPerRecord = -1 // we check counts ourselves to word the error
	cr.ReuseRecord = true
	cr.LazyQuotes = false

	missing := opt.MissingTokens
	if missing == nil {
		missing = DefaultMissingTokens
	}
	isMissing := make(map[string]bool, len(missing))
	for _, m := range missing {
		isMissing[m] = true
	}

	var header []string
	if len(opt.Header) > 0 {
		header = append([]string(nil), opt.Header...)
		if err := checkHeader(name, 0, header); err != nil {
			return nil, err
		}
	} else {
		rec, err := cr.Read()
		if err != nil {
			return nil, csvError(name, cr, err, 0)
		}
		header = make([]string, len(rec))
		for i, h := range rec {
			if !utf8.ValidString(h) {
				line, col := cr.FieldPos(i)
				_ = col
				return nil, &InputError{File: name, Line: line, Column: i + 1, Msg: "header is not valid UTF-8",
					Hint: "save the file as UTF-8"}
			}
			header[i] = strings.TrimSpace(h)
		}
		line, _ := cr.FieldPos(0)
		if err := checkHeader(name, line, header); err != nil {
			return nil, err
		}
	}

	n := len(header)
	cols := make([]*Column, n)
	index := make([]map[string]uint32, n)
	for i, h := range header {
		cols[i] = &Column{Name: h}
		index[i] = make(map[string]uint32)
	}
	rows := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, cr, err, n)
		}
		if len(rec) != n {
			// A lone empty field is a blank line with spaces; skip it.
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue
			}
			line, _ := cr.FieldPos(0)
			col := n + 1
			what := "too many"
			if len(rec) < n {
				col, what = len(rec)+1, "too few"
			}
			field := ""
			if col <= n {
				field = header[col-1]
			}
			return nil, &InputError{File: name, Line: line, Column: col, Field: field,
				Msg:  fmt.Sprintf("ragged row: %s fields, expected %d (as in the header), found %d", what, n, len(rec)),
				Hint: fmt.Sprintf("every row needs %d fields separated by %q; quote values that contain it", n, string(delim))}
		}
		for i, v := range rec {
			if trim {
				v = strings.TrimSpace(v)
			}
			c := cols[i]
			if isMissing[v] {
				c.Codes = append(c.Codes, Missing)
				c.MissingCount++
				continue
			}
			code, ok := index[i][v]
			if !ok {
				if !utf8.ValidString(v) {
					line, _ := cr.FieldPos(i)
					return nil, &InputError{File: name, Line: line, Column: i + 1, Field: header[i],
						Msg: "value is not valid UTF-8", Hint: "convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)"}
				}
				v = strings.Clone(v)
				code = uint32(len(c.Dict))
				index[i][v] = code
				c.Dict = append(c.Dict, v)
				line, _ := cr.FieldPos(i)
				c.firstLine = append(c.firstLine, line)
			}
			c.Codes = append(c.Codes, code)
		}
		rows++
	}
	if rows == 0 {
		return nil, &InputError{File: name, Line: 2, Msg: "header only: no data rows",
			Hint: "add at least one row of values below the header"}
	}
	t := &Table{Name: name, Columns: cols, Rows: rows}
	for _, c := range cols {
		c.Codes = c.Codes[:len(c.Codes):len(c.Codes)]
		inferKind(c)
	}
	for colName, k := range opt.Kinds {
		c := t.Column(colName)
		if c == nil {
			return nil, &ParamError{Param: "kind", Value: colName, Reason: fmt.Sprintf("%s has no column %q", name, colName),
				Hint: "columns are: " + strings.Join(t.Names(), ", ")}
		}
		if err := c.SetKind(k); err != nil {
			return nil, &InputError{File: name, Msg: err.Error(), Hint: "leave the column categorical or fix the value"}
		}
	}
	return t, nil
}

func checkHeader(name string, line int, header []string) error {
	seen := make(map[string]int, len(header))
	for i, h := range header {
		if h == "" {
			return &InputError{File: name, Line: line, Column: i + 1, Msg: "empty column name in the header",
				Hint: "give every column a name; if the file has no header row, pass the names with --columns"}
		}
		if j, dup := seen[h]; dup {
			return &InputError{File: name, Line: line, Column: i + 1, Field: h,
				Msg:  fmt.Sprintf("duplicate column name %q (also column %d)", h, j+1),
				Hint: "column names must be unique"}
		}
		seen[h] = i
	}
	return nil
}

// csvError turns an encoding/csv error into an InputError.
func csvError(name string, cr *csv.Reader, err error, fields int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		e := &InputError{File: name, Line: pe.Line, Column: pe.Column}
		switch {
		case errors.Is(pe.Err, csv.ErrQuote):
			if pe.StartLine != pe.Line {
				e.Msg = fmt.Sprintf("unterminated quoted field (the record starts on line %d)", pe.StartLine)
				e.Line = pe.StartLine
			} else {
				e.Msg = `extraneous or missing " in a quoted field`
			}
			e.Column = 0
			e.Hint = `close every quoted field with "; write a quote inside a quoted field as ""`
		case errors.Is(pe.Err, csv.ErrBareQuote):
			e.Msg = `bare " in an unquoted field`
			e.Column = 0
			e.Hint = `quote the whole field and double the quote inside it: "a ""b"" c"`
		default:
			e.Msg = pe.Err.Error()
		}
		return e
	}
	if err == io.EOF {
		return &InputError{File: name, Line: 1, Msg: "file is empty, expected a header row and data rows",
			Hint: "the first line names the columns, e.g. age,sex,zipcode"}
	}
	return &InputError{File: name, Msg: "read failed: " + err.Error()}
}

// inferKind makes a column numeric when it has values and all of them parse
// as numbers.
func inferKind(c *Column) {
	if len(c.Dict) == 0 {
		c.Kind = Categorical
		return
	}
	nums := make([]float64, len(c.Dict))
	for i, s := range c.Dict {
		v, ok := ParseNumber(s)
		if !ok {
			c.Kind = Categorical
			return
		}
		nums[i] = v
	}
	c.Kind, c.Nums = Numeric, nums
}

// DetectDelimiter picks the separator among , ; tab | that splits the first
// lines of sample into the same number (more than one) of fields, preferring
// the one giving the most fields. It falls back to a comma.
func DetectDelimiter(sample []byte) rune {
	lines := sampleLines(sample, 20)
	best, bestFields := ',', 0
	for _, d := range []rune{',', ';', '\t', '|'} {
		fields := -1
		consistent := true
		for _, l := range lines {
			n := countOutsideQuotes(l, byte(d)) + 1
			if fields == -1 {
				fields = n
			} else if n != fields {
				consistent = false
				break
			}
		}
		if consistent && fields > 1 && fields > bestFields {
			best, bestFields = d, fields
		}
	}
	if bestFields == 0 {
		// Nothing consistent: take the delimiter most frequent in the header.
		if len(lines) > 0 {
			most := 0
			for _, d := range []rune{',', ';', '\t', '|'} {
				if n := countOutsideQuotes(lines[0], byte(d)); n > most {
					best, most = d, n
				}
			}
		}
	}
	return best
}

// sampleLines returns up to max complete lines of sample (a line ends at a
// newline outside quotes); the last, possibly cut, line is left out unless
// it is the only one.
func sampleLines(sample []byte, max int) [][]byte {
	var lines [][]byte
	inQuote := false
	start := 0
	for i, b := range sample {
		switch b {
		case '"':
			inQuote = !inQuote
		case '\n':
			if !inQuote {
				l := bytes.TrimRight(sample[start:i], "\r")
				if len(bytes.TrimSpace(l)) > 0 {
					lines = append(lines, l)
				}
				start = i + 1
				if len(lines) == max {
					return lines
				}
			}
		}
	}
	if len(lines) == 0 && start < len(sample) {
		lines = append(lines, sample[start:])
	}
	return lines
}

func countOutsideQuotes(line []byte, d byte) int {
	n := 0
	inQuote := false
	for _, b := range line {
		if b == '"' {
			inQuote = !inQuote
		} else if b == d && !inQuote {
			n++
		}
	}
	return n
}

// spaceAfterDelimiter reports whether, in the first lines, every delimiter
// is followed by a space (", " separated files).
func spaceAfterDelimiter(sample []byte, d rune) bool {
	lines := sampleLines(sample, 20)
	seen := 0
	for _, l := range lines {
		inQuote := false
		for i, b := range l {
			if b == '"' {
				inQuote = !inQuote
				continue
			}
			if rune(b) == d && !inQuote {
				seen++
				if i+1 >= len(l) || l[i+1] != ' ' {
					return false
				}
			}
		}
	}
	return seen > 0 && d != ' '
}
