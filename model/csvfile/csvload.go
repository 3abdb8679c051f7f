package csvfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"privlab/model"
)

// LoadOptions tune LoadFile and Load. The zero value detects everything.
type LoadOptions struct {
	// Name is the file name used in error messages (LoadFile sets the path).
	Name string
	// Delimiter is the field separator; 0 detects one of , ; tab |. Any
	// other single ASCII character except a quote, CR or LF may be given.
	Delimiter rune
	// Header names the columns of a file that has no header row (its first
	// row is data).
	Header []string
	// HeaderRow says, when Header is empty, whether the first row names
	// the columns: HeaderYes (the zero value: files privlab writes, such
	// as a release's, have a header) and HeaderNo decide; HeaderDetect, as
	// every user's table is read (pipeline, the import wizard), reads it
	// as the header unless it looks like data (see FirstRowIsData; the
	// table then says so in Table.FirstRowData and a note). Columns
	// without a header row are named c1, c2, ... (ColumnNames).
	HeaderRow HeaderMode
	// MissingTokens are the values that mean "missing"; nil means
	// DefaultMissingTokens.
	MissingTokens []string
	// Kinds overrides the inferred kind of the named columns.
	Kinds map[string]model.Kind
	// TrimSpace removes spaces around unquoted fields (the text inside
	// quotes is kept as it is). It is switched on automatically when every
	// delimiter in the first lines is followed by a space (as in the raw UCI
	// Adult file, "39, State-gov, ..."). With it, spaces may also surround a
	// quoted field: 1, "a, b", 3.
	TrimSpace bool
	// MaxCell is the longest cell accepted, in bytes (0: DefaultMaxCell;
	// negative: no limit). A longer cell is an input error naming its line
	// and column: no single value of microdata is that long, and a runaway
	// quote or a binary file would otherwise fill memory.
	MaxCell int
	// NoRows accepts a file of a header and no rows as a table without
	// rows (a release that publishes no record); otherwise it is an
	// input error, as no user's table is empty.
	NoRows bool
}

// HeaderMode says whether a file's first row is its header.
type HeaderMode int

const (
	// HeaderYes: the first row is the header.
	HeaderYes HeaderMode = iota
	// HeaderDetect reads the first row as the header unless it looks
	// like data.
	HeaderDetect
	// HeaderNo: the first row is data.
	HeaderNo
)

// ParseHeaderMode reads "detect" (or "": a project that says nothing
// detects), "yes" or "no".
func ParseHeaderMode(s string) (HeaderMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "detect", "auto":
		return HeaderDetect, nil
	case "yes", "y", "true":
		return HeaderYes, nil
	case "no", "n", "false":
		return HeaderNo, nil
	}
	return 0, &model.ParamError{Param: "header", Value: s, Reason: "must be yes, no or detect",
		Hint: "yes: the first row names the columns; no: it is data, and the columns need names; detect (default)"}
}

// ColumnNames are the names of n columns read without a header row: c1,
// c2, ... (the import wizard offers the same).
func ColumnNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("c%d", i+1)
	}
	return out
}

// DefaultMissingTokens are the values read as missing unless told otherwise.
var DefaultMissingTokens = []string{"", "?", "NA", "NULL"}

// ParseMissingTokens reads a list of missing-value tokens as
// --missing-values takes it: comma separated, spaces around a token
// trimmed, an empty item or "" meaning the empty cell ("?," is ? and the
// empty cell). A token cannot hold a comma or a double quote.
func ParseMissingTokens(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if tok == `""` {
			tok = ""
		}
		if strings.Contains(tok, `"`) {
			return nil, &model.ParamError{Param: "missing-values", Value: s, Reason: fmt.Sprintf("token %s holds a quote", tok),
				Hint: `comma separated tokens; an empty item (or "") is the empty cell: "?," or "",?,NA,NULL`}
		}
		if !seen[tok] {
			seen[tok] = true
			out = append(out, tok)
		}
	}
	return out, nil
}

// FormatMissingTokens writes tokens as ParseMissingTokens reads them, the
// empty cell as "" ("",?,NA,NULL).
func FormatMissingTokens(tokens []string) string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = t
		if t == "" {
			out[i] = `""`
		}
	}
	return strings.Join(out, ",")
}

// LoadFile reads a CSV file into a Table. The file is only read, never
// written. On any error no table is returned and the error is an
// *InputError naming the file and line (or a *ParamError for an option
// that does not fit the file, such as a --kind for an unknown column).
func LoadFile(path string, opt LoadOptions) (*model.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: OpenReason(err), Hint: "check the path; use dataset:NAME for an embedded dataset (privlab datasets lists them)"}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, &model.InputError{File: path, Msg: "is a directory, expected a CSV file"}
	}
	if opt.Name == "" {
		opt.Name = path
	}
	return Load(f, opt)
}

// notText refuses a sample that holds a NUL byte: a binary file, or text
// in UTF-16 (its byte order mark names it, and privlab reads UTF-8).
func notText(name string, sample []byte) error {
	line := model.NULLine(sample)
	if line == 0 {
		return nil
	}
	if bytes.HasPrefix(sample, []byte{0xFF, 0xFE}) || bytes.HasPrefix(sample, []byte{0xFE, 0xFF}) {
		return &model.InputError{File: name, Line: 1, Msg: "is UTF-16 text (its byte order mark says so), not UTF-8",
			Hint: "save the file as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)"}
	}
	return &model.InputError{File: name, Line: line, Msg: "holds a NUL byte: this is a binary file, not CSV text",
		Hint: "privlab reads CSV text, and .xlsx, .parquet and SQLite files (FILE.db:TABLE) by their extension"}
}

// headerOnly is the error of a table with a header and no rows; a header
// that holds a bare carriage return is a file whose lines end in CR alone
// (as classic Mac OS wrote them), read as one line.
func headerOnly(name string, headerEnd int, header []string) error {
	for _, h := range header {
		if strings.Contains(h, "\r") {
			return &model.InputError{File: name, Line: 1, Msg: "lines end in a bare carriage return (CR), so the file reads as one header line and no data rows",
				Hint: "end lines with LF or CRLF (e.g. tr '\\r' '\\n')"}
		}
	}
	return &model.InputError{File: name, Line: headerEnd, Msg: "header only: no data rows",
		Hint: "add at least one row of values below the header"}
}

// OpenReason says in words why a file could not be opened.
func OpenReason(err error) string {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "file does not exist"
	case errors.Is(err, os.ErrPermission):
		return "permission denied"
	}
	// The error names the file already: a path error's own text would
	// repeat it ("stat NAME: file name too long").
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Load reads CSV text into a Table; see LoadFile.
//
// The text is read by a scanner that follows RFC 4180 as encoding/csv does
// (quoted fields may hold the delimiter, quotes written "" and line breaks;
// CRLF and LF both end a record; empty lines are skipped) but that knows the
// line and field of every problem. The scanner runs in its own goroutine and
// hands batches of records to the dictionary encoder, so a large file is
// parsed and encoded at the same time.
func Load(r io.Reader, opt LoadOptions) (*model.Table, error) {
	name := opt.Name
	if name == "" {
		name = "input"
	}
	br := bufio.NewReaderSize(r, sampleSize)
	// Strip a UTF-8 byte order mark.
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	sample, perr := br.Peek(sampleSize)
	if err := notText(name, sample); err != nil {
		return nil, err
	}
	delim := opt.Delimiter
	if delim == 0 {
		delim = DetectDelimiter(sample)
	}
	if delim <= 0 || delim >= utf8.RuneSelf || delim == '"' || delim == '\r' || delim == '\n' {
		return nil, &model.ParamError{Param: "delimiter", Value: string(delim), Reason: "must be a single ASCII character other than a quote or a line break",
			Hint: "the common ones are , ; tab and |"}
	}
	trim := opt.TrimSpace || spaceAfterDelimiter(sample, delim)
	missing := opt.MissingTokens
	if missing == nil {
		missing = DefaultMissingTokens
	}
	maxCell := opt.MaxCell
	if maxCell == 0 {
		maxCell = model.DefaultMaxCell
	}
	sc := &scanner{r: br, name: name, delim: byte(delim), trim: trim, line: 1, maxCell: maxCell}
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			sc.size = fi.Size()
		}
	} else if b, ok := r.(*bytes.Reader); ok {
		sc.size = int64(b.Len()) // a file read whole (a release's, for its check)
	}

	header, guessed := opt.Header, false
	if len(header) == 0 && opt.HeaderRow != HeaderYes {
		// perr is set when the sample is the whole input.
		first, n := sampleFirstRow(sample, perr != nil, byte(delim), trim, missing)
		if n > 0 && (opt.HeaderRow == HeaderNo || first == rowData) {
			header, guessed = ColumnNames(n), opt.HeaderRow == HeaderDetect
		}
	}
	headerEnd := 1 // the first line after the header
	if len(header) > 0 {
		header = append([]string(nil), header...)
		if err := checkHeader(name, 0, header); err != nil {
			return nil, err
		}
	} else {
		var err error
		if header, err = readHeader(sc, name, maxCell); err != nil {
			return nil, err
		}
		headerEnd = sc.line
	}
	sc.names = header

	enc := newEncoder(name, header, missing)
	enc.maxCell = maxCell
	if err := scanInto(sc, enc); err != nil {
		return nil, err
	}
	if enc.rows == 0 && !opt.NoRows {
		return nil, headerOnly(name, headerEnd, header)
	}
	t, err := finish(enc, opt, nil)
	if err != nil {
		return nil, err
	}
	firstRowNotes(t, opt, guessed)
	return t, nil
}

// readHeader reads the header record and checks its names.
func readHeader(sc *scanner, name string, maxCell int) ([]string, error) {
	rec, err := sc.header()
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, &model.InputError{File: name, Line: 1, Msg: "file is empty, expected a header row and data rows",
			Hint: "the first line names the columns, e.g. age,sex,zipcode"}
	}
	if len(rec.fields) > model.MaxColumns {
		return nil, &model.InputError{File: name, Line: rec.line, Column: model.MaxColumns + 1, Msg: fmt.Sprintf("more than %d columns", model.MaxColumns),
			Hint: "is the delimiter right?", Fixes: []model.Fix{{Setting: model.SetDelimiter}}}
	}
	header := make([]string, len(rec.fields))
	for i, f := range rec.fields {
		h := rec.text(f)
		if maxCell > 0 && len(h) > maxCell {
			return nil, &model.InputError{File: name, Line: f.line, Column: i + 1, Msg: fmt.Sprintf("column name is longer than %d bytes", maxCell),
				Hint: "is a quote left open?", Fixes: []model.Fix{{Setting: model.SetMaxCell}}}
		}
		if !utf8.Valid(h) {
			return nil, &model.InputError{File: name, Line: f.line, Column: i + 1, Msg: "header is not valid UTF-8",
				Hint: "save the file as UTF-8"}
		}
		header[i] = strings.TrimSpace(string(h))
	}
	if err := checkHeader(name, rec.line, header); err != nil {
		return nil, err
	}
	return header, nil
}

// scanInto runs the scanner in its own goroutine and encodes the chunks
// of records it hands over.
func scanInto(sc *scanner, enc *encoder) error {
	out := make(chan *chunk, 2)
	// The scanner may already hold one chunk (the one the header came
	// from), so chunkCount-1 more make the pool; all chunkCount fit in free.
	free := make(chan *chunk, chunkCount)
	for i := 1; i < chunkCount; i++ {
		free <- newChunk()
	}
	stop := make(chan struct{})
	go sc.run(len(enc.cols), out, free, stop)
	var err error
	for c := range out {
		if err == nil {
			err = enc.add(c, sc.size)
			if err == nil && c.err != nil {
				err = c.err
			}
			if err != nil {
				close(stop) // the scanner quits; keep draining until it closes out
			}
		}
		free <- c
	}
	// The scanner has stopped (it closed out): the chunks are free for
	// the next table read.
	for {
		select {
		case c := <-free:
			putChunk(c)
		default:
			return err
		}
	}
}

// keptChunks holds the chunks of tables read, for the next: a run reads
// its input, then every file of its release, and allocating (and
// zeroing) a fresh megabyte for each chunk of each cost more than the
// reading. Not a sync.Pool: the collections between two reads would
// empty it. At most maxKept chunks (two reads at once) are kept.
var keptChunks struct {
	sync.Mutex
	free []*chunk
}

const maxKept = 2 * chunkCount

func newChunk() *chunk {
	keptChunks.Lock()
	defer keptChunks.Unlock()
	if n := len(keptChunks.free); n > 0 {
		c := keptChunks.free[n-1]
		keptChunks.free[n-1] = nil
		keptChunks.free = keptChunks.free[:n-1]
		return c
	}
	return &chunk{}
}

// keepChunks is false in tests that count a read's allocations.
var keepChunks = true

// keptFootprint is the most memory a kept chunk may hold: a block and
// room for the offsets of its fields and lines. A chunk sized for more (a
// long record grew it, or a block of short cells or of many lines sized
// its offsets past this) is let go, for the workbench keeps what is kept
// for as long as it runs.
const keptFootprint = 4 * chunkSize

// footprint is the bytes c holds: its block and its offsets.
func footprint(c *chunk) int {
	return cap(c.buf) + 4*cap(c.offs) + 8*cap(c.lines) + 16*cap(c.flines) // a fieldLine: two ints
}

// putChunk keeps c for the next table read, unless it holds more than
// keptFootprint.
func putChunk(c *chunk) {
	if !keepChunks || footprint(c) > keptFootprint {
		return
	}
	c.n, c.nrec, c.raw, c.err, c.sizedFor = 0, 0, 0, nil, nil
	c.offs, c.lines, c.flines = c.offs[:0], c.lines[:0], c.flines[:0]
	keptChunks.Lock()
	defer keptChunks.Unlock()
	if len(keptChunks.free) < maxKept {
		keptChunks.free = append(keptChunks.free, c)
	}
}

// finish turns the encoded columns into a table: kinds inferred (or as
// the format declares them, declared[i] >= 0), the user's kinds applied,
// and the notes on columns that are almost numeric.
func finish(enc *encoder, opt LoadOptions, declared []model.Kind) (*model.Table, error) {
	name := enc.name
	t := &model.Table{Name: name, Columns: enc.cols, Rows: enc.rows}
	for i, c := range enc.cols {
		enc.fresh[i].materialize(c)
		c.Codes = c.Codes[:len(c.Codes):len(c.Codes)]
		inferKindIndexed(c, enc.index[i])
		if i < len(declared) && declared[i] == model.Categorical && c.Kind == model.Numeric {
			c.Kind, c.Nums = model.Categorical, nil
			if _, forced := opt.Kinds[c.Name]; !forced {
				t.Notes = append(t.Notes, model.Note{Text: fmt.Sprintf("%s: column %d (%s) holds numbers as text, so it is read as categorical (first %q)",
					name, i+1, c.Name, c.Dict[0]), Fixes: []model.Fix{{Setting: model.SetKind, Attr: c.Name, Value: "numeric", Why: "to compare them as numbers"}}})
			}
		}
	}
	kinds := make([]string, 0, len(opt.Kinds))
	for colName := range opt.Kinds {
		kinds = append(kinds, colName)
	}
	sort.Strings(kinds) // report problems in a stable order
	for _, colName := range kinds {
		i := t.ColumnIndex(colName)
		if i < 0 {
			return nil, &model.ParamError{Param: "kind", Value: colName, Reason: fmt.Sprintf("%s has no column %q", name, colName),
				Hint: "columns are: " + strings.Join(t.Names(), ", ")}
		}
		c := t.Columns[i]
		if opt.Kinds[colName] == model.Numeric && c.Kind != model.Numeric {
			// The user asked for numbers: cells that are not numbers are
			// read as missing values, and the table says so.
			if n, first := c.ForceNumbers(); n > 0 {
				t.Notes = append(t.Notes, model.Note{Text: fmt.Sprintf("%s:%d: column %d (%s): %d cells are not numbers and are read as missing values (first %q; the column is read as numeric)",
					name, first.Line, i+1, c.Name, n, first.Value)})
			}
			continue
		}
		if err := c.SetKind(opt.Kinds[colName]); err != nil {
			return nil, &model.InputError{File: name, Msg: err.Error(), Hint: "leave the column categorical or fix the value"}
		}
	}
	for i, c := range t.Columns {
		if _, forced := opt.Kinds[c.Name]; forced || i < len(declared) && declared[i] == model.Categorical {
			continue
		}
		if c.NoteAlmostNumeric(); c.AlmostNumeric != nil {
			a := c.AlmostNumeric
			t.Notes = append(t.Notes, model.Note{Text: fmt.Sprintf("%s:%d: column %d (%s) is read as categorical because %d cells are not numbers (first %q)",
				name, a.Line, i+1, c.Name, a.Cells, a.Value), Fixes: []model.Fix{{Setting: model.SetKind, Attr: c.Name, Value: "numeric", Why: "to read them as missing values"}}})
		}
	}
	return t, nil
}

// firstValues lists row r's values of the first max columns ("…" for
// more).
func firstValues(t *model.Table, r, max int) string {
	var vals []string
	for i, c := range t.Columns {
		if i == max {
			vals = append(vals, "…")
			break
		}
		vals = append(vals, c.Value(r))
	}
	return strings.Join(vals, ", ")
}

// nameRange is "c1..cN" (or the one name).
func nameRange(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return names[0] + ".." + names[len(names)-1]
}

// Header detection ----------------------------------------------------------

// firstRow is what a file's first row looks like.
type firstRow int

const (
	rowHeader    firstRow = iota // column names
	rowAmbiguous                 // could be either: read as the header, with a note
	rowData                      // a row of data
)

// sampleFirstRow reads the sample (the first bytes of the input; complete
// when it is all of it) with the first row as data and tells what that row
// looks like (FirstRowIsData), and how many fields it has (0 when the
// sample cannot be read: the load itself then says why).
func sampleFirstRow(sample []byte, complete bool, delim byte, trim bool, missing []string) (firstRow, int) {
	if !complete {
		i := bytes.LastIndexByte(sample, '\n')
		if i < 0 {
			return rowHeader, 0
		}
		sample = sample[:i+1]
	}
	sc := &scanner{r: bytes.NewReader(sample), name: "sample", delim: delim, trim: trim, line: 1, maxCell: -1}
	rec, err := sc.header()
	if err != nil || rec == nil || len(rec.fields) > model.MaxColumns {
		return rowHeader, 0
	}
	n := len(rec.fields)
	t, err := Load(bytes.NewReader(sample), LoadOptions{Name: "sample", Delimiter: rune(delim), TrimSpace: trim, MissingTokens: missing,
		MaxCell: -1, Header: ColumnNames(n)})
	if err != nil {
		return rowHeader, n
	}
	return classifyFirstRow(t), n
}

// FirstRowIsData reports whether row 0 of t (a table read without a
// header row, such as the first rows of a file) looks like data rather
// than column names, by the rule every way of loading a table uses:
// compared with the rows below it, its cells are numbers in columns of
// numbers, or they repeat as values of their columns.
func FirstRowIsData(t *model.Table) bool { return classifyFirstRow(t) == rowData }

// HeaderLooksLikeData reports whether the column names of t look like a
// row of data (see FirstRowIsData for the rule): a table whose names were
// its first row, read as the header, may have lost a record.
func HeaderLooksLikeData(t *model.Table) bool {
	return classifyNames(t.Names(), t.Columns) != rowHeader
}

func classifyFirstRow(t *model.Table) firstRow {
	if t.Rows < 2 {
		return rowHeader
	}
	rows := make([]int, t.Rows-1)
	for i := range rows {
		rows[i] = i + 1
	}
	rest := t.SelectRows(rows)
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Value(0)
	}
	for _, c := range rest.Columns {
		inferKind(c)
	}
	return classifyNames(names, rest.Columns)
}

// classifyNames tells whether names (a first row) are the names of cols
// (the rows below it):
//   - a column of numbers named by something other than a number is
//     named: the row is a header;
//   - otherwise the row is data when every name is a number, or when some
//     column of numbers is named by a number and either no column holds
//     text or a name repeats as a value of its column (UCI's adult.data:
//     "39, State-gov, 77516, ..."), or when more than half of the names of
//     text columns, and at least two, repeat as values of their columns;
//   - a first row that is not data by these rules but has a column of
//     numbers named by a number (a year as a column name:
//     "region,2019,2020") or a name that repeats as a value (a single
//     column "c" holding c) is ambiguous.
//
// Empty names (a missing value in the first row) count for neither.
func classifyNames(names []string, cols []*model.Column) firstRow {
	var named, numbers, numericNamed, text, repeated int
	for i, c := range cols {
		if names[i] == "" {
			continue
		}
		named++
		_, isNum := model.ParseNumber(names[i])
		if isNum {
			numbers++
		}
		switch {
		case c.Kind == model.Numeric && !isNum:
			return rowHeader
		case c.Kind == model.Numeric:
			numericNamed++
		default:
			text++
			if c.Holds(names[i]) {
				repeated++
			}
		}
	}
	switch {
	case named == 0:
		return rowHeader
	case numbers == named,
		numericNamed > 0 && (text == 0 || repeated > 0),
		repeated >= 2 && 2*repeated > text:
		return rowData
	case numericNamed > 0 || repeated > 0:
		return rowAmbiguous
	}
	return rowHeader
}

// sampleSize is how much of the input delimiter detection looks at.
const sampleSize = 64 << 10

// chunkSize is the size of the blocks the scanner reads; chunkCount blocks
// circulate between the scanner and the encoder. An input of known size
// is read in blocks of a sixteenth of it, at least minChunk: a small
// table (a run's input, its release's files) then fills fewer fresh
// pages, whose first touch costs more than the reading.
const (
	chunkSize  = 1 << 20
	minChunk   = 128 << 10
	chunkCount = 4
)

// chunkFor is the block size for an input of size bytes (0: unknown).
func chunkFor(size int64) int {
	if size <= 0 {
		return chunkSize
	}
	return int(min(max(size/16, minChunk), chunkSize))
}

func checkHeader(name string, line int, header []string) error {
	seen := make(map[string]int, len(header))
	for i, h := range header {
		if h == "" {
			return &model.InputError{File: name, Line: line, Column: i + 1, Msg: "empty column name in the header",
				Hint: "give every column a name", Fixes: []model.Fix{{Setting: model.SetColumns, Why: "if the file has no header row"}}}
		}
		if j, dup := seen[h]; dup {
			return &model.InputError{File: name, Line: line, Column: i + 1, Field: h,
				Msg:  fmt.Sprintf("duplicate column name %q (also column %d)", h, j+1),
				Hint: "column names must be unique"}
		}
		seen[h] = i
	}
	return nil
}

// Scanner -----------------------------------------------------------------

// chunk is a block of input holding complete records: the field texts stay
// in buf (quoted fields are unescaped in place) and offs gives the start
// and end of every field, n fields per record.
type chunk struct {
	buf   []byte
	n     int      // valid bytes in buf
	offs  []uint32 // start, end of each field
	lines []int    // the line each record starts on
	// flines lists the fields that start on a later line than their record
	// (records with quoted line breaks), in field order.
	flines []fieldLine
	nrec   int
	raw    int   // bytes of buf taken by the complete records
	err    error // the scanner stopped here (after nrec records)
	// sizedFor is the scanner offs and lines were sized for (a chunk
	// kept from another table read holds what that table needed).
	sizedFor *scanner
}

type fieldLine struct {
	field int // index within the chunk (record*n + column)
	line  int
}

// fieldLineOf returns the line where field k (of record r) starts.
func (c *chunk) fieldLineOf(r, k int) int {
	if len(c.flines) > 0 {
		return c.flineOf(r, k)
	}
	return c.lines[r]
}

// flineOf is fieldLineOf for a chunk with records over several lines.
func (c *chunk) flineOf(r, k int) int {
	i := sort.Search(len(c.flines), func(i int) bool { return c.flines[i].field >= k })
	if i < len(c.flines) && c.flines[i].field == k {
		return c.flines[i].line
	}
	return c.lines[r]
}

// span is one field found by the slow path.
type span struct {
	start, end int
	line       int
}

// record is a header record (text copied out of the chunk).
type record struct {
	buf    []byte
	fields []span
	line   int
}

func (r *record) text(s span) []byte { return r.buf[s.start:s.end] }

type scanner struct {
	r     io.Reader
	name  string
	delim byte
	trim  bool
	size  int64    // input size when known (for pre-sizing columns)
	names []string // the header, for error messages
	// maxCell is the cell limit (< 0: none): a record that does not end
	// within the buffered data is checked against it before the buffer
	// grows (checkPartial), so no line can take more memory than its
	// fields may hold.
	maxCell int

	cur  *chunk // the chunk being filled
	pos  int    // next unread byte of cur.buf
	eof  bool   // r is exhausted: cur.buf[:cur.n] is the rest of the input
	rerr error  // a read error other than EOF
	line int    // line number at pos

	tmp       []span // the fields of the record parse read
	lineAfter int    // the line after that record
}

type status int

const (
	stOK       status = iota // a record was read
	stSkip                   // a blank line (or a record of one blank field) was skipped
	stNeedMore               // the record does not end inside the buffered data
	stEnd                    // no more input
	stErr
)

// fill reads more input into cur after the bytes from pos on, moving them
// to the front of a (possibly new, possibly larger) buffer dst.
func (s *scanner) fill(dst *chunk) {
	src := s.cur
	keep := 0
	if src != nil {
		keep = src.n - s.pos
	}
	need := chunkFor(s.size)
	if s.size > 0 && s.size < int64(need) {
		// An input of known size smaller than a chunk is read into a
		// buffer of its size (+1: the read that finds its end), not a
		// whole chunk: a release's small tables are read at every check.
		need = int(s.size) + 1
	}
	if keep*2 > need {
		need = keep * 2
	}
	if cap(dst.buf) < need {
		nb := make([]byte, need)
		if src != nil {
			copy(nb, src.buf[s.pos:src.n])
		}
		dst.buf = nb
	} else {
		dst.buf = dst.buf[:need] // a kept chunk may be larger: read a block, as into a new one
		if src != nil {
			copy(dst.buf, src.buf[s.pos:src.n])
		}
	}
	dst.n = keep
	dst.offs, dst.lines, dst.flines = dst.offs[:0], dst.lines[:0], dst.flines[:0]
	dst.nrec, dst.raw, dst.err = 0, 0, nil
	s.cur, s.pos = dst, 0
	for dst.n < len(dst.buf) && !s.eof {
		m, err := s.r.Read(dst.buf[dst.n:])
		dst.n += m
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			s.eof, s.rerr = true, err
		}
	}
	// A chunk gets room for every field and line it may hold at once (a
	// field ends at a delimiter or a line end), rather than growing to
	// it; one kept from another table read may hold too little.
	if dst.sizedFor != s {
		dst.sizedFor = s
		text := dst.buf[:dst.n]
		lines := bytes.Count(text, []byte{'\n'}) + 1
		if fields := 2 * (bytes.Count(text, []byte{s.delim}) + lines); cap(dst.offs) < fields {
			dst.offs = make([]uint32, 0, fields)
		}
		if cap(dst.lines) < lines {
			dst.lines = make([]int, 0, lines)
		}
	}
}

// header reads the first record that is not blank; nil at the end of the
// input.
func (s *scanner) header() (*record, error) {
	s.fill(newChunk())
	for {
		st, err := s.next(-1)
		switch st {
		case stOK:
			c := s.cur
			rec := &record{line: c.lines[0]}
			for k := 0; k < len(c.offs)/2; k++ {
				start, end := int(c.offs[2*k]), int(c.offs[2*k+1])
				rec.fields = append(rec.fields, span{start: len(rec.buf), end: len(rec.buf) + end - start, line: c.fieldLineOf(0, k)})
				rec.buf = append(rec.buf, c.buf[start:end]...)
			}
			c.offs, c.lines, c.flines, c.nrec = c.offs[:0], c.lines[:0], c.flines[:0], 0
			return rec, nil
		case stSkip:
			continue
		case stNeedMore:
			if err := s.checkPartial(-1); err != nil {
				return nil, err
			}
			s.fill(&chunk{buf: make([]byte, 0, 2*len(s.cur.buf))})
		case stEnd:
			if s.rerr != nil {
				return nil, &model.InputError{File: s.name, Msg: "read failed: " + s.rerr.Error()}
			}
			return nil, nil
		case stErr:
			return nil, err
		}
	}
}

// run scans records of n fields and sends them in chunks; the last chunk
// sent carries the error that stopped the scan, if any.
func (s *scanner) run(n int, out chan<- *chunk, free chan *chunk, stop <-chan struct{}) {
	defer close(out)
	send := func(c *chunk) bool {
		select {
		case out <- c:
			return true
		case <-stop:
			return false
		}
	}
	take := func() *chunk {
		select {
		case c := <-free:
			return c
		case <-stop:
			return nil
		}
	}
	if s.cur == nil { // no header row was read
		s.fill(newChunk())
	}
	for {
		s.plainLines(n)
		st, err := s.next(n)
		switch st {
		case stOK, stSkip:
			continue
		case stNeedMore:
			c := s.cur
			c.raw = s.pos
			next := take()
			if next == nil {
				return
			}
			if c.nrec == 0 {
				// No complete record: read on. When the buffer holds only
				// part of one long record, read into a larger buffer (fill
				// copies the part over) — unless the part already breaks
				// the cell limit or has too many fields.
				if err := s.checkPartial(n); err != nil {
					free <- next
					c.err = err
					send(c)
					return
				}
				if s.pos == 0 && cap(next.buf) < 2*c.n {
					next.buf = make([]byte, 0, 2*c.n)
				}
				s.fill(next)
				free <- c
				continue
			}
			s.fill(next)
			if !send(c) {
				return
			}
		case stEnd, stErr:
			c := s.cur
			c.raw = s.pos
			if st == stEnd && s.rerr != nil {
				err = &model.InputError{File: s.name, Msg: "read failed: " + s.rerr.Error()}
			}
			c.err = err
			send(c)
			return
		}
	}
}

// checkPartial checks the record being read, which does not end within
// the buffered data (from pos on), before more is read: a field longer
// than the cell limit allows (2*maxCell+2 bytes of text, enough for a
// quoted field whose every character is an escaped quote) or more fields
// than the n expected (MaxColumns for a header, n < 0) is an error now,
// not after the whole line has been read into memory.
func (s *scanner) checkPartial(n int) error {
	c := s.cur
	buf := c.buf[s.pos:c.n]
	limit := -1
	if s.maxCell >= 0 {
		limit = 2*s.maxCell + 2
	}
	maxFields := n
	if n < 0 {
		maxFields = model.MaxColumns
	}
	line, field, start, fline := s.line, 1, 0, s.line
	inQuote := false
	for i, b := range buf {
		switch {
		case b == '"':
			inQuote = !inQuote
		case b == '\n':
			line++
		case b == s.delim && !inQuote:
			if field++; field > maxFields {
				if n < 0 {
					return s.errAt(line, field, fmt.Sprintf("more than %d columns", model.MaxColumns), "is the delimiter right?", model.Fix{Setting: model.SetDelimiter})
				}
				return s.errAt(line, field, fmt.Sprintf("ragged row: too many fields, expected %d (as in the header)", n),
					fmt.Sprintf("every row needs %d fields separated by %q; quote values that contain it", n, string(rune(s.delim))))
			}
			start, fline = i+1, line
		}
		if limit >= 0 && i-start >= limit {
			what := "value"
			if n < 0 {
				what = "column name"
			}
			return s.errAt(fline, field, fmt.Sprintf("%s is longer than %d bytes", what, s.maxCell),
				"is a quote left open?", model.Fix{Setting: model.SetMaxCell})
		}
	}
	return nil
}

func (s *scanner) errAt(line, field int, msg, hint string, fixes ...model.Fix) error {
	e := &model.InputError{File: s.name, Line: line, Column: field, Msg: msg, Hint: hint, Fixes: fixes}
	if field >= 1 && field <= len(s.names) {
		e.Field = s.names[field-1]
	}
	return e
}

// next reads one record into s.cur. n is the number of fields every record
// must have (-1 for any).
func (s *scanner) next(n int) (status, error) {
	c := s.cur
	p := s.pos
	if p >= c.n {
		if s.eof {
			return stEnd, nil
		}
		return stNeedMore, nil
	}
	buf := c.buf[:c.n]
	// Fast path: one physical line without quotes, read in one pass
	// that stops at each delimiter, the line's end or a quote.
	line := s.line
	mark := len(c.offs)
	fields := 1 // the field being read
	start := p
	d := s.delim
	dpat := uint64(d) * swarOnes
	lineEnd := len(buf)
	for i := p; ; {
		j := nextSpecial(buf, i, d, dpat)
		if j == len(buf) {
			if !s.eof {
				c.offs = c.offs[:mark]
				return stNeedMore, nil
			}
			break
		}
		if b := buf[j]; b == '\n' {
			lineEnd = j
			break
		} else if b == '"' {
			c.offs = c.offs[:mark]
			if !s.eof && bytes.IndexByte(buf[j:], '\n') < 0 {
				return stNeedMore, nil // as for a line without quotes
			}
			return s.slow(n)
		}
		if fields <= n || n < 0 {
			s.addField(buf, start, j)
		}
		fields++
		start, i = j+1, j+1
	}
	next := min(lineEnd+1, len(buf))
	e := lineEnd
	if e > p && buf[e-1] == '\r' {
		e--
	}
	if e == p { // an empty line
		s.pos, s.line = next, line+1
		return stSkip, nil
	}
	if fields <= n || n < 0 {
		s.addField(buf, start, e)
	}
	if n >= 0 && fields != n {
		c.offs = c.offs[:mark]
		if fields == 1 && isBlank(buf[p:e]) {
			s.pos, s.line = next, line+1
			return stSkip, nil
		}
		return stErr, s.ragged(line, fields, n)
	}
	if n < 0 && fields == 1 && isBlank(buf[p:e]) {
		c.offs = c.offs[:mark]
		s.pos, s.line = next, line+1
		return stSkip, nil
	}
	c.lines = append(c.lines, line)
	c.nrec++
	s.pos, s.line = next, line+1
	return stOK, nil
}

// addField appends the field buf[start:end] (trimmed when s.trim) to
// the chunk's offsets.
func (s *scanner) addField(buf []byte, start, end int) {
	if s.trim {
		start, end = trimSpan(buf, start, end)
	}
	s.cur.offs = append(s.cur.offs, uint32(start), uint32(end))
}

// swarOnes has a one in every byte.
const swarOnes = 0x0101010101010101

// nextSpecial returns the position of the first line feed, double quote
// or delimiter d (dpat: d in every byte) in buf from i on, or len(buf).
// It reads eight bytes at a time: zeroBytes flags the bytes of a word
// that equal the one sought (the lowest flag exactly: a false flag
// needs a borrow from a zero byte below it).
func nextSpecial(buf []byte, i int, d byte, dpat uint64) int {
	const nl, quote = '\n' * swarOnes, '"' * swarOnes
	for ; i+8 <= len(buf); i += 8 {
		w := binary.LittleEndian.Uint64(buf[i:])
		if m := zeroBytes(w^nl) | zeroBytes(w^quote) | zeroBytes(w^dpat); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(buf); i++ {
		if b := buf[i]; b == '\n' || b == '"' || b == d {
			return i
		}
	}
	return len(buf)
}

// zeroBytes sets the high bit of the lowest zero byte of v (and maybe
// of bytes above it); 0 when v has none.
func zeroBytes(v uint64) uint64 {
	return (v - swarOnes) & ^v & (0x80 * swarOnes)
}

// plainLines reads the records from s.pos on that are one line of n
// fields without quotes, eight bytes at a time: each delimiter and line
// feed of a word in turn, the records one after the other with no call
// between them. It stops before the first line it cannot read so (a
// quote, an empty line, a row of another number of fields, a line the
// buffer does not end within whole words), which next reads.
func (s *scanner) plainLines(n int) {
	c := s.cur
	buf := c.buf[:c.n]
	p, line := s.pos, s.line // the record being read and its line
	start, fields := p, 1    // the field being read
	mark := len(c.offs)
	dpat := uint64(s.delim) * swarOnes
words:
	for i := p; i+8 <= len(buf); i += 8 {
		for m := specialBytes(binary.LittleEndian.Uint64(buf[i:]), dpat); m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)/8
			switch buf[j] {
			case '\n':
				e := j
				if e > p && buf[e-1] == '\r' {
					e--
				}
				if fields != n || e == p {
					break words
				}
				s.addField(buf, start, e)
				c.lines = append(c.lines, line)
				c.nrec++
				p, line = j+1, line+1
				start, fields, mark = p, 1, len(c.offs)
			case '"':
				break words
			default: // the delimiter
				if fields == n {
					break words
				}
				s.addField(buf, start, j)
				start = j + 1
				fields++
			}
		}
	}
	c.offs = c.offs[:mark] // the fields of the record not read
	s.pos, s.line = p, line
}

// specialBytes sets the high bit of each byte of w that is a line feed,
// a double quote or the delimiter (dpat: it in every byte), exactly.
func specialBytes(w, dpat uint64) uint64 {
	const nl, quote = '\n' * swarOnes, '"' * swarOnes
	return exactZeroBytes(w^nl) | exactZeroBytes(w^quote) | exactZeroBytes(w^dpat)
}

// exactZeroBytes sets the high bit of each zero byte of v, and no other
// bit.
func exactZeroBytes(v uint64) uint64 {
	const low7 = 0x7F * swarOnes
	return ^((v&low7 + low7) | v | low7)
}

func (s *scanner) ragged(line, found, n int) error {
	col := n + 1
	what := "too many"
	if found < n {
		col, what = found+1, "too few"
	}
	return s.errAt(line, col,
		fmt.Sprintf("ragged row: %s fields, expected %d (as in the header), found %d", what, n, found),
		fmt.Sprintf("every row needs %d fields separated by %q; quote values that contain it", n, string(rune(s.delim))))
}

// slow reads a record with quotes. It first checks, without changing the
// buffer, that the record ends inside the buffered data (or that the input
// ends), then parses it, unescaping quoted fields in place.
func (s *scanner) slow(n int) (status, error) {
	st, _, err := s.parse(false)
	if st != stOK {
		return st, err
	}
	st, next, err := s.parse(true)
	if st != stOK {
		return st, err
	}
	c := s.cur
	line := s.line
	fields := s.tmp
	if len(fields) == 1 && (n != 1) && isBlank(c.buf[fields[0].start:fields[0].end]) {
		s.pos, s.line = next, s.lineAfter
		return stSkip, nil
	}
	if n >= 0 && len(fields) != n {
		return stErr, s.ragged(line, len(fields), n)
	}
	base := c.nrec * len(fields)
	if n >= 0 {
		base = c.nrec * n
	}
	for k, f := range fields {
		c.offs = append(c.offs, uint32(f.start), uint32(f.end))
		if f.line != line {
			c.flines = append(c.flines, fieldLine{field: base + k, line: f.line})
		}
	}
	c.lines = append(c.lines, line)
	c.nrec++
	s.pos, s.line = next, s.lineAfter
	return stOK, nil
}

// parse reads the record at s.pos into s.tmp. With write it unescapes quoted
// fields in place; without it it only finds out whether the record is
// complete (stNeedMore if not) or bad (stErr). It returns the position after
// the record and sets s.lineAfter.
func (s *scanner) parse(write bool) (status, int, error) {
	p := recordParser{s: s, buf: s.cur.buf[:s.cur.n], i: s.pos, line: s.line, write: write}
	s.tmp = s.tmp[:0]
	for field := 1; ; field++ {
		var st status
		var more bool
		var err error
		if p.quoteAhead() {
			st, more, err = p.quoted(field)
		} else {
			st, more, err = p.unquoted(field)
		}
		if st != stOK {
			return st, 0, err
		}
		if !more {
			s.lineAfter = p.line + 1
			return stOK, p.i, nil
		}
	}
}

// recordParser is parse's place in the buffer: the next byte and its line.
type recordParser struct {
	s     *scanner
	buf   []byte // the buffered data
	i     int    // next byte to read
	line  int    // line number at i
	write bool   // unescape quoted fields in place
}

// quoteAhead reports whether the field at p.i is quoted; with trimming,
// blanks before an opening quote are skipped.
func (p *recordParser) quoteAhead() bool {
	buf, n, d := p.buf, len(p.buf), p.s.delim
	if p.s.trim {
		j := p.i
		for j < n && (buf[j] == ' ' || buf[j] == '\t') && buf[j] != d {
			j++
		}
		if j < n && buf[j] == '"' {
			p.i = j
		}
	}
	return p.i < n && buf[p.i] == '"'
}

// quoted reads the quoted field at p.i and what ends it. With stOK, more
// says whether another field of the record follows; otherwise p.i is the
// position after the record.
func (p *recordParser) quoted(field int) (st status, more bool, err error) {
	if st, err := p.quotedText(field); st != stOK {
		return st, false, err
	}
	return p.afterQuoted(field)
}

// quotedText reads a quoted field from its opening quote at p.i to its
// closing one, appending its span to s.tmp and leaving p.i after the
// closing quote. A doubled quote reads as one and CRLF as LF.
func (p *recordParser) quotedText(field int) (status, error) {
	s, buf, n := p.s, p.buf, len(p.buf)
	fline := p.line
	i := p.i + 1
	w, cstart := i, i
	for {
		if i >= n {
			if !s.eof {
				return stNeedMore, nil
			}
			return stErr, s.errAt(fline, field, `unterminated quoted field: the closing " is missing`,
				`close every quoted field with "; write a quote inside a quoted field as ""`)
		}
		b := buf[i]
		if b == '"' {
			if i+1 >= n && !s.eof {
				return stNeedMore, nil
			}
			if i+1 < n && buf[i+1] == '"' {
				if p.write {
					buf[w] = '"'
				}
				w++
				i += 2
				continue
			}
			i++ // the closing quote
			break
		}
		if b == '\r' {
			if i+1 >= n && !s.eof {
				return stNeedMore, nil
			}
			if i+1 < n && buf[i+1] == '\n' { // CRLF inside quotes reads as LF
				i++
				b = '\n'
			}
		}
		if b == '\n' {
			p.line++
		}
		if p.write {
			buf[w] = b
		}
		w++
		i++
	}
	s.tmp = append(s.tmp, span{start: cstart, end: w, line: fline})
	p.i = i
	return stOK, nil
}

// afterQuoted reads what follows a quoted field's closing quote: the
// delimiter (more is true), the end of the line or of the input (the
// record ends), or anything else (an error).
func (p *recordParser) afterQuoted(field int) (st status, more bool, err error) {
	s, buf, n, d := p.s, p.buf, len(p.buf), p.s.delim
	i := p.i
	if s.trim {
		for i < n && (buf[i] == ' ' || buf[i] == '\t') && buf[i] != d {
			i++
		}
	}
	if i >= n {
		if !s.eof {
			return stNeedMore, false, nil
		}
		p.i = n
		return stOK, false, nil
	}
	switch b := buf[i]; {
	case b == d:
		p.i = i + 1
		return stOK, true, nil
	case b == '\n':
		p.i = i + 1
		return stOK, false, nil
	case b == '\r' && i+1 < n && buf[i+1] == '\n':
		p.i = i + 2
		return stOK, false, nil
	case b == '\r' && i+1 >= n:
		if !s.eof {
			return stNeedMore, false, nil
		}
		p.i = n
		return stOK, false, nil
	}
	return stErr, false, s.errAt(p.line, field, `text after the closing " of a quoted field`,
		`close every quoted field with "; write a quote inside a quoted field as ""`)
}

// unquoted reads the unquoted field at p.i up to the delimiter (more is
// true) or the end of the line or of the input (the record ends); a
// quote inside it is an error.
func (p *recordParser) unquoted(field int) (st status, more bool, err error) {
	s, buf, n, d := p.s, p.buf, len(p.buf), p.s.delim
	i := p.i
	j := i
	for j < n && buf[j] != d && buf[j] != '\n' && buf[j] != '"' {
		j++
	}
	if j < n && buf[j] == '"' {
		return stErr, false, s.errAt(p.line, field, `bare " in an unquoted field`,
			`quote the whole field and double the quote inside it: "a ""b"" c"`)
	}
	if j >= n {
		if !s.eof {
			return stNeedMore, false, nil
		}
		s.appendUnquoted(buf, i, withoutCR(buf, i, j), p.line)
		p.i = n
		return stOK, false, nil
	}
	if buf[j] == d {
		s.appendUnquoted(buf, i, j, p.line)
		p.i = j + 1
		return stOK, true, nil
	}
	s.appendUnquoted(buf, i, withoutCR(buf, i, j), p.line) // buf[j] == '\n'
	p.i = j + 1
	return stOK, false, nil
}

// withoutCR returns end, less one when buf[start:end] ends in a carriage
// return (the CR of a CRLF line end).
func withoutCR(buf []byte, start, end int) int {
	if end > start && buf[end-1] == '\r' {
		end--
	}
	return end
}

func (s *scanner) appendUnquoted(buf []byte, start, end, line int) {
	if s.trim {
		start, end = trimSpan(buf, start, end)
	}
	s.tmp = append(s.tmp, span{start: start, end: end, line: line})
}

// trimSpan narrows buf[start:end] to drop leading and trailing white space
// (as strings.TrimSpace does).
func trimSpan(buf []byte, start, end int) (int, int) {
	for start < end {
		b := buf[start]
		if b < utf8.RuneSelf {
			if asciiSpace[b] == 0 {
				break
			}
			start++
			continue
		}
		r, size := utf8.DecodeRune(buf[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += size
	}
	for start < end {
		b := buf[end-1]
		if b < utf8.RuneSelf {
			if asciiSpace[b] == 0 {
				break
			}
			end--
			continue
		}
		r, size := utf8.DecodeLastRune(buf[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= size
	}
	return start, end
}

var asciiSpace = [256]uint8{'\t': 1, '\n': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1}

func isBlank(b []byte) bool {
	s, e := trimSpan(b, 0, len(b))
	return s == e
}

// Encoder -----------------------------------------------------------------

// encoder turns records into dictionary-encoded columns.
type encoder struct {
	maxCell int // longest cell in bytes (< 0: no limit)
	name    string
	cols    []*model.Column
	index   []*dictIndex
	rows    int
	sized   bool
	est     int // the rows the input's size suggests (0: unknown)
	header  []string
	fresh   []freshText // per column
}

// freshText gathers the new values of one column found in a chunk (the
// index keeps no text of a short value): their text in one buffer, made
// into one string once the chunk's column is encoded (one allocation
// rather than one per value: a release's GroupID column has hundreds of
// thousands), and their first lines. The values take the codes after
// the column's last, in order; the chunk's values are kept as a
// dictPart, and the column's Dict and first lines are made from its
// parts once, at their final size, when the table is finished
// (materialize): appending to them value by value copied them again
// and again as they grew, and a []string is copied with the garbage
// collector's write barriers.
type freshText struct {
	buf   []byte
	ends  []uint32 // where each value's text ends in buf
	lines []int    // the line where each value first appears
	long  []longValue
	parts []dictPart // the chunks' values not yet in Dict
	count int        // the values in parts
}

// longValue is a new value over 8 bytes: the string the index keeps
// (its text is not in freshText.buf).
type longValue struct {
	code uint32
	s    string
}

// dictPart is the new values of one chunk: codes first, first+1, ...
type dictPart struct {
	text  string
	first uint32
	ends  []uint32
	lines []int
	long  []longValue
}

// add holds v (of up to 8 bytes) as the next value, first seen on line.
func (f *freshText) add(v []byte, line int) {
	f.buf = append(f.buf, v...)
	f.ends = append(f.ends, uint32(len(f.buf)))
	f.lines = append(f.lines, line)
}

// addLong holds s (over 8 bytes) as the next value, code.
func (f *freshText) addLong(s string, code uint32, line int) {
	f.long = append(f.long, longValue{code: code, s: s})
	f.ends = append(f.ends, uint32(len(f.buf)))
	f.lines = append(f.lines, line)
}

// flush keeps the chunk's values as a part whose first code is first,
// and empties f's buffers for the next chunk.
func (f *freshText) flush(first uint32) {
	if len(f.ends) == 0 {
		return
	}
	p := dictPart{text: string(f.buf), first: first, ends: slices.Clone(f.ends), lines: slices.Clone(f.lines), long: slices.Clone(f.long)}
	f.parts = append(f.parts, p)
	f.count += len(f.ends)
	clear(f.long) // drop the strings
	f.buf, f.ends, f.lines, f.long = f.buf[:0], f.ends[:0], f.lines[:0], f.long[:0]
}

// next is the code the column's next new value takes.
func (f *freshText) next(col *model.Column) uint32 {
	return uint32(len(col.Dict) + f.count + len(f.ends))
}

// materialize appends the parts' values to col.Dict and their first
// lines to col.FirstLines, each grown once to its final size.
func (f *freshText) materialize(col *model.Column) {
	if f.count == 0 {
		return
	}
	base := len(col.Dict)
	col.Dict = slices.Grow(col.Dict, f.count)[:base+f.count]
	col.FirstLines = slices.Grow(col.FirstLines, f.count)
	for _, p := range f.parts {
		dict := col.Dict[p.first:]
		start := uint32(0)
		for j, end := range p.ends {
			dict[j] = p.text[start:end]
			start = end
		}
		for _, l := range p.long {
			col.Dict[l.code] = l.s
		}
		col.FirstLines = append(col.FirstLines, p.lines...)
	}
	f.parts, f.count = nil, 0
}

func newEncoder(name string, header []string, missing []string) *encoder {
	e := &encoder{name: name, header: header, cols: make([]*model.Column, len(header)), index: make([]*dictIndex, len(header)),
		fresh: make([]freshText, len(header))}
	for i, h := range header {
		e.cols[i] = &model.Column{Name: h}
		// Missing tokens are looked up like values, so one lookup per field
		// tells a missing value, a known value and a new one apart.
		x := newDictIndex()
		for _, tok := range missing {
			if _, found := x.lookup([]byte(tok), 0, len(tok)); !found {
				x.insert(tok, model.Missing)
			}
		}
		e.index[i] = x
	}
	return e
}

// add encodes the records of c. size is the input size in bytes (0 when
// unknown), used once to reserve room for every row. Columns are
// independent, so with more than one CPU two workers share them, each
// taking the next column not yet done.
func (e *encoder) add(c *chunk, size int64) error {
	n := len(e.cols)
	if c.nrec == 0 {
		return nil
	}
	if !e.sized && size > 0 && c.raw > 0 {
		e.sized = true
		est := int(float64(size)/float64(c.raw)*float64(c.nrec)*1.02) + 64
		e.est = est
		if err := model.CheckFits(e.name, int(float64(size)/float64(c.raw)*float64(c.nrec)), n, true); err != nil {
			return err
		}
		if est > e.rows+c.nrec && est < 1<<31 {
			for _, col := range e.cols {
				codes := make([]uint32, len(col.Codes), est)
				copy(codes, col.Codes)
				col.Codes = codes
			}
		}
	}
	if err := model.CheckFits(e.name, e.rows+c.nrec, n, false); err != nil {
		return err // a stream of unknown size that outgrows memory
	}
	bad := make([]int, n)   // per column: the record of its first bad value, or -1
	long := make([]bool, n) // whether that value is too long (else not UTF-8)
	var next atomic.Int32
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= n {
				return
			}
			bad[i], long[i] = e.encodeColumn(c, i)
		}
	}
	if n > 1 && c.nrec >= 64 && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
		work()
		wg.Wait()
	} else {
		work()
	}
	// The first bad value in file order: the earliest record, then column.
	br, bi := -1, -1
	for i, r := range bad {
		if r >= 0 && (br < 0 || r < br) {
			br, bi = r, i
		}
	}
	if br >= 0 {
		k := br*n + bi
		if long[bi] {
			return &model.InputError{File: e.name, Line: c.fieldLineOf(br, k), Column: bi + 1, Field: e.header[bi],
				Msg:  fmt.Sprintf("value is longer than %d bytes", e.maxCell),
				Hint: "is a quote left open?", Fixes: []model.Fix{{Setting: model.SetMaxCell}}}
		}
		return &model.InputError{File: e.name, Line: c.fieldLineOf(br, k), Column: bi + 1, Field: e.header[bi],
			Msg: "value is not valid UTF-8", Hint: "convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)"}
	}
	e.rows += c.nrec
	return nil
}

// encodeColumn appends the codes of column i of c's records. It returns the
// record of the first value that is too long or not valid UTF-8 (and stops
// there; long says which), or -1.
func (e *encoder) encodeColumn(c *chunk, i int) (bad int, long bool) {
	n := len(e.cols)
	col := e.cols[i]
	x := e.index[i]
	buf, offs := c.buf, c.offs[:2*n*c.nrec]
	codes := col.Codes
	missing := 0
	fresh := &e.fresh[i]
	first := fresh.next(col)
	defer func() {
		col.Codes = codes
		col.MissingCount += missing
		fresh.flush(first)
	}()
	// known holds, for the records of a block, the code dense gives
	// their field (denseAbsent: look it up): read in a loop of its own,
	// whose loads do not wait for one another (shuffled release files
	// read a GroupID's slot at random, a cache miss each time; a branch
	// on each loaded code, as lookup takes, waits for every miss in turn).
	// A code once given never changes, so a block's known codes stay true
	// while its new values are added; a field that dense covers but had
	// no code is looked up there by its number (lookupDense: an earlier
	// record of the block may have added it), not parsed again.
	var known [denseBlock]uint32
	var at [denseBlock]uint32
	for r, k := 0, i; r < c.nrec; r, k = r+1, k+n {
		if j := r % denseBlock; j == 0 {
			x.probeDense(buf, offs, k, n, min(denseBlock, c.nrec-r), &known, &at)
		}
		start, end := int(offs[2*k]), int(offs[2*k+1])
		if e.maxCell >= 0 && end-start > e.maxCell {
			return r, true
		}
		code, found := known[r%denseBlock], true
		if code == denseAbsent {
			if v := at[r%denseBlock]; v != notDense {
				code, found = x.lookupDense(v)
			} else {
				code, found = x.lookup(buf, start, end)
			}
		}
		if !found {
			v := buf[start:end]
			if !x.atDense && !utf8.Valid(v) { // a whole number's digits are ASCII
				return r, false
			}
			code = fresh.next(col)
			if len(v) <= 8 { // the index keeps no text of a short key
				x.insert("", code)
				fresh.add(v, c.fieldLineOf(r, k))
			} else {
				s := string(v)
				x.insert(s, code)
				fresh.addLong(s, code, c.fieldLineOf(r, k))
			}
			if code+1 == presizeFrom {
				e.presize(x, presizeFrom, e.rows+r+1)
			}
		} else if code == model.Missing {
			missing++
		}
		codes = append(codes, code)
	}
	return -1, false
}

// dictIndex maps field text to a code: an open-addressing hash table
// specialised for the short keys of CSV fields. A key of up to 8 bytes is
// stored packed in its slot, so a probe costs one memory access and no
// string comparison; longer keys are stored with their 64-bit hash and
// compared on a hash match. On high-cardinality columns it is faster
// than a map[string]uint32, which hashes and compares every key.
type dictIndex struct {
	slots []dictSlot
	mask  uint64
	count int
	// long keys (over 8 bytes) and their codes
	longKeys []string
	longVals []uint32
	// where the last failed lookup stopped (for insert)
	pending dictSlot
	at      uint64
	// pendingInt is the last failed lookup's canonical integer + 1 (0:
	// none), a key for hashedInts when it is inserted in the hash table.
	pendingInt uint64
	// hashedInts holds the canonical integers in the hash table that
	// dense does not cover yet, as value<<32 | code: growDense moves the
	// ones it comes to cover without reading every slot of the table.
	hashedInts []uint64
	// dense maps a canonical decimal integer v < len(dense) (digits only,
	// no leading zero, at most 8 bytes) to its code, or denseAbsent: the
	// GroupID columns of a release hold hundreds of thousands of such
	// values, and a direct index avoids the hash table's cache misses and
	// growth. It covers [0, len(dense)) exactly: a key in that range is
	// looked up there only (entries hashed before it grew are copied in).
	dense      []uint32
	denseCount int
	atDense    bool // the last failed lookup was in dense (at is the value)
}

// denseAbsent marks a value not yet seen in dictIndex.dense.
const denseAbsent = model.Missing - 1

// dictSlot is one table entry. meta is 0 for an empty slot; otherwise its
// high 32 bits are the key length + 1 (with bit 63 set for long keys) and
// its low 32 bits the code (short keys) or the index into longKeys.
type dictSlot struct {
	word uint64 // the packed key, or the hash of a long key
	meta uint64
}

const longKey = 1 << 63

func newDictIndex() *dictIndex {
	return &dictIndex{slots: make([]dictSlot, 16), mask: 15}
}

// lookup returns the code of buf[start:end] and whether it is known.
func (x *dictIndex) lookup(buf []byte, start, end int) (uint32, bool) {
	n := end - start
	x.atDense = false
	x.pendingInt = 0
	if start < end && buf[start]-'0' < 10 { // a whole number starts with a digit
		if v, ok := canonicalIntAt(buf, start, end); ok {
			if c, found, done := x.lookupInt(v); done {
				return c, found
			}
		}
	}
	var word, meta, h uint64
	if n <= 8 {
		if start+8 <= len(buf) {
			word = binary.LittleEndian.Uint64(buf[start:]) & (1<<(8*uint(n)) - 1)
			if n == 8 {
				word = binary.LittleEndian.Uint64(buf[start:])
			}
		} else {
			for i := end - 1; i >= start; i-- {
				word = word<<8 | uint64(buf[i])
			}
		}
		meta = uint64(n+1) << 32
		h = mixShort(word, n)
	} else {
		word = hashBytes(buf[start:end])
		meta = longKey | uint64((n+1)&0x7fffffff)<<32
		h = word
	}
	i := h & x.mask
	for {
		s := x.slots[i]
		if s.meta == 0 {
			x.pending, x.at = dictSlot{word: word, meta: meta}, i
			return 0, false
		}
		if s.word == word && s.meta>>32 == meta>>32 {
			if meta&longKey == 0 {
				return uint32(s.meta), true
			}
			k := uint32(s.meta)
			if x.longKeys[k] == string(buf[start:end]) {
				return x.longVals[k], true
			}
		}
		i = (i + 1) & x.mask
	}
}

// lookupInt is lookup of the canonical integer v in dense, which grows
// to cover it when it may (done: dense covers v; else the hash table
// holds it).
func (x *dictIndex) lookupInt(v uint64) (code uint32, found, done bool) {
	x.pendingInt = v + 1
	if v >= uint64(len(x.dense)) && v < 4*uint64(x.count+x.denseCount+64) {
		x.growDense(v)
	}
	if v < uint64(len(x.dense)) {
		if c := x.dense[v]; c != denseAbsent {
			return c, true, true
		}
		x.atDense, x.at = true, v
		return 0, false, true
	}
	return 0, false, false
}

// denseBlock is how many records encodeColumn probes dense for at once.
const denseBlock = 32

// notDense marks a field that is not a canonical integer dense covers.
const notDense = ^uint32(0)

// probeDense sets known[j], for the m fields k, k+n, ... of offs, to the
// code dense holds for the field, or denseAbsent (not a canonical
// integer dense covers, or not seen yet: lookup decides), and at[j] to
// the field's number when dense covers it, else notDense.
func (x *dictIndex) probeDense(buf []byte, offs []uint32, k, n, m int, known, at *[denseBlock]uint32) {
	dense := x.dense
	if len(dense) == 0 {
		for j := range m {
			known[j], at[j] = denseAbsent, notDense
		}
		return
	}
	// The fields' numbers first, then the codes in a loop of its own
	// (with nothing between the loads, many are in flight at once).
	for j := 0; j < m; j, k = j+1, k+n {
		at[j] = notDense
		if v, ok := canonicalIntAt(buf, int(offs[2*k]), int(offs[2*k+1])); ok && v < uint64(len(dense)) {
			at[j] = uint32(v)
		}
	}
	for j, v := range at[:m] {
		known[j] = denseAbsent
		if v != notDense {
			known[j] = dense[v]
		}
	}
}

// lookupDense is lookup of the canonical integer v, which dense covers.
func (x *dictIndex) lookupDense(v uint32) (uint32, bool) {
	if c := x.dense[v]; c != denseAbsent {
		x.atDense = false
		return c, true
	}
	x.atDense, x.at = true, uint64(v)
	return 0, false
}

// insert adds the key the last lookup did not find, with its code. The
// key's text is read only when it is longer than 8 bytes (a shorter one
// is packed in its slot or is an index into dense).
func (x *dictIndex) insert(key string, code uint32) {
	if x.atDense {
		x.dense[x.at] = code
		x.denseCount++
		return
	}
	s := x.pending
	if x.pendingInt > 0 {
		x.hashedInts = append(x.hashedInts, (x.pendingInt-1)<<32|uint64(code))
	}
	if s.meta&longKey != 0 {
		s.meta |= uint64(len(x.longKeys))
		x.longKeys = append(x.longKeys, key)
		x.longVals = append(x.longVals, code)
	} else {
		s.meta |= uint64(code)
	}
	x.slots[x.at] = s
	x.count++
	if 2*x.count > len(x.slots) {
		x.grow()
	}
}

// presizeFrom and presizeMost bound encoder.presize: the distinct values
// a column has when it is looked at, and the most it reserves room for.
const (
	presizeFrom = 512
	presizeMost = 1 << 16
)

// presize reserves room in the index of a column whose values are
// mostly distinct so far (values of them, at least one new value in
// two of the first rows seen) for as many values as the input's
// estimated rows (at most presizeMost), rather than doubling it again
// and again: each doubling copies it into fresh memory, which a short
// run pays in page faults (a release's table of 20,000 distinct values
// doubled its index seven times). The column's dictionary is made at
// its final size when the table is finished (freshText.materialize).
// An input of unknown size is not presized.
func (e *encoder) presize(x *dictIndex, values, seen int) {
	if e.est <= 0 || 2*values < seen {
		return
	}
	n := min(e.est, presizeMost)
	if n <= values {
		return
	}
	if 2*x.count >= values { // mostly hashed (not dense integers)
		x.reserve(n)
	}
}

// reserve grows the table to hold n keys without growing again.
func (x *dictIndex) reserve(n int) {
	size := len(x.slots)
	for 2*n > size {
		size *= 2
	}
	if size > len(x.slots) {
		x.growTo(size)
	}
}

func (x *dictIndex) grow() { x.growTo(2 * len(x.slots)) }

func (x *dictIndex) growTo(size int) {
	slots := make([]dictSlot, size)
	mask := uint64(len(slots) - 1)
	for _, s := range x.slots {
		if s.meta == 0 {
			continue
		}
		h := s.word
		if s.meta&longKey == 0 {
			h = mixShort(s.word, int(s.meta>>32)-1)
		}
		i := h & mask
		for slots[i].meta != 0 {
			i = (i + 1) & mask
		}
		slots[i] = s
	}
	x.slots, x.mask = slots, mask
}

// canonicalIntAt is canonicalInt(buf[start:end]), read as one word when
// eight bytes from start are in buf (a field is followed by the rest of
// its chunk): the digits are checked and summed for all bytes at once,
// without a branch per byte on a length the processor cannot predict.
func canonicalIntAt(buf []byte, start, end int) (uint64, bool) {
	n := end - start
	if n < 1 || n > 8 || start+8 > len(buf) {
		return canonicalInt(buf[start:end])
	}
	w := binary.LittleEndian.Uint64(buf[start:])
	shift := uint(8 * (8 - n))
	w = w << shift // the n bytes at the top, zeros (leading zeros) below
	const ones = swarOnes
	digits := uint64(0x30*ones) << shift
	// Every byte 0x30..0x3F, then 0x30..0x39 (adding 6 carries no byte
	// over once all are below 0x40).
	if w&(0xF0*ones) != digits || (w+(6*ones)<<shift)&(0xF0*ones) != digits {
		return 0, false
	}
	if n > 1 && w>>shift&0xFF == '0' {
		return 0, false // a leading zero
	}
	// Lemire's eight-digit sum: pairs, then fours, then all eight.
	w = (w & (0x0F * ones)) * 2561 >> 8
	w = (w & 0x00FF00FF00FF00FF) * 6553601 >> 16
	return (w & 0x0000FFFF0000FFFF) * 42949672960001 >> 32, true
}

// canonicalInt parses b as a decimal integer of 1 to 8 digits without a
// leading zero (so that each value has one spelling).
func canonicalInt(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 8 || b[0] < '0' || b[0] > '9' || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// growDense extends dense to cover v, copying in the hashed keys it now
// covers (they stay in the hash table, never looked up there again).
func (x *dictIndex) growDense(v uint64) {
	size := uint64(1024)
	for size <= v {
		size *= 2
	}
	dense := make([]uint32, size)
	n := copy(dense, x.dense)
	for i := n; i < len(dense); i++ {
		dense[i] = denseAbsent
	}
	rest := x.hashedInts[:0]
	for _, h := range x.hashedInts {
		if w := h >> 32; w < size {
			dense[w] = uint32(h)
			x.denseCount++
		} else {
			rest = append(rest, h)
		}
	}
	x.hashedInts = rest
	x.dense = dense
}

// mixShort hashes a key of n <= 8 bytes packed into w (splitmix64).
func mixShort(w uint64, n int) uint64 {
	z := w + uint64(n)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// hashBytes is a 64-bit hash of a byte string (splitmix-style mixing of
// 8-byte words).
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
		b = b[8:]
	}
	var w uint64
	for i := len(b) - 1; i >= 0; i-- {
		w = w<<8 | uint64(b[i])
	}
	h = (h ^ w) * 0x94d049bb133111eb
	h ^= h >> 29
	h = (h ^ h>>32) * 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// inferKind makes a column numeric when it has values and all of them parse
// as numbers.
func inferKind(c *model.Column) {
	if len(c.Dict) == 0 {
		c.Kind = model.Categorical
		return
	}
	parseUnread(c, unreadNumbers(len(c.Dict)))
}

// inferKindIndexed is inferKind for a column indexed by x: the values
// the dense index holds are whole numbers read already (float64 of the
// number is what ParseNumber reads from their text), so only the others
// are parsed (a release's GroupID column has hundreds of thousands).
func inferKindIndexed(c *model.Column, x *dictIndex) {
	if len(c.Dict) == 0 || x.denseCount == 0 {
		inferKind(c)
		return
	}
	nums := unreadNumbers(len(c.Dict))
	for v, code := range x.dense {
		if code < uint32(len(nums)) { // not absent, not the missing code
			nums[code] = float64(v)
		}
	}
	parseUnread(c, nums)
}

// unreadNumbers is n values not read yet (unreadNumber).
func unreadNumbers(n int) []float64 {
	nums := make([]float64, n)
	for i := range nums {
		nums[i] = math.Float64frombits(unreadNumber)
	}
	return nums
}

// parseUnread parses the values of c not read yet into nums and makes c
// numeric with them, or categorical at the first that is no number.
func parseUnread(c *model.Column, nums []float64) {
	for i, s := range c.Dict {
		if math.Float64bits(nums[i]) != unreadNumber {
			continue
		}
		v, ok := model.ParseNumber(s)
		if !ok {
			c.Kind = model.Categorical
			return
		}
		nums[i] = v
	}
	c.Kind, c.Nums = model.Numeric, nums
}

// unreadNumber marks a value inferKindIndexed has not read yet (a NaN;
// only its bits are compared, and only before the value is parsed).
const unreadNumber = 0x7FF8_0000_DEAD_BEEF

// Detection ---------------------------------------------------------------

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
