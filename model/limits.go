package model

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/dustin/go-humanize"
)

// Every file privlab opens is read within bounds fixed before it is read,
// so that no input (a device such as /dev/zero, a pipe that never ends, a
// line of hundreds of megabytes, a corrupt file) can fill memory: a table's
// cells are held to the cell limit as they are read (LoadOptions.MaxCell),
// its size to this machine's memory (CheckFits), the small CSV files beside
// it (hierarchies, targets, marginals) to MaxRecordBytes per record
// (OpenText), and JSON files (project, manifest, audit record) to a size
// (ReadFileLimit). The readers of workbooks and databases (model/source)
// hold their files to the same cell limit as they read, before they
// allocate: a part of a workbook to a hundred times its compressed size,
// a database's values to SQLite's length limit, a view to the rows its
// database could hold.

// MaxColumns is the most columns a table may have (as many as a sheet of
// Excel holds). A header longer than that is an input error, read no
// further.
const MaxColumns = 16384

// MaxRecordBytes bounds one record of the small CSV files read beside a
// table (hierarchies, target distributions, marginals): 64 cells of the
// default cell limit.
const MaxRecordBytes = 64 * DefaultMaxCell

// DefaultMaxCell is the default cell-size limit (64 KiB).
const DefaultMaxCell = 64 << 10

// Size limits of the JSON files privlab reads.
const (
	MaxProjectBytes  = 16 << 20
	MaxManifestBytes = 256 << 20
	// An audit record holds a row map: a few bytes per published row.
	MaxAuditBytes = 2 << 30
)

// bytesPerCell is what one loaded cell costs in a run: a 4-byte code in
// the table, and a few times that in a run (groups, row maps, the copy
// the missing-value policy makes, sort scratch).
const bytesPerCell = 16

var memOnce sync.Once
var memBytes float64

// Memory is the memory privlab may use, in bytes: this machine's memory
// (/proc/meminfo; 16 GiB when unknown), or less when a Go memory limit is
// set (GOMEMLIMIT).
func Memory() float64 {
	memOnce.Do(func() {
		memBytes = 16 << 30
		if b, err := os.ReadFile("/proc/meminfo"); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
					if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
						memBytes = kb * 1024
					}
				}
			}
		}
		if lim := debug.SetMemoryLimit(-1); lim > 0 && lim < math.MaxInt64 && float64(lim) < memBytes {
			memBytes = float64(lim)
		}
	})
	return memBytes
}

// CheckFits refuses a table of rows x cols that would not fit in memory
// once loaded and anonymized (rows may be an estimate: estimated says so
// in the message). name is the file the table comes from.
func CheckFits(name string, rows, cols int, estimated bool) error {
	need := float64(rows) * float64(cols) * bytesPerCell
	have := Memory()
	if rows < 1<<31-1 && need <= have {
		return nil
	}
	about := ""
	if estimated {
		about = "about "
	}
	return &InputError{File: name,
		Msg: fmt.Sprintf("%s%s rows of %d columns need about %s of memory to load and anonymize; this machine has %s",
			about, humanize.Comma(int64(rows)), cols, HumanBytes(need), HumanBytes(have)),
		Hint: "load a sample of the rows, or fewer columns"}
}

// HumanBytes writes a size in bytes for messages in steps of 1024 with
// no decimals: 512 B, 16 GB (go-humanize would write 16 GiB).
func HumanBytes(b float64) string {
	for _, u := range []string{"B", "KB", "MB", "GB", "TB"} {
		if b < 1024 || u == "TB" {
			return fmt.Sprintf("%.0f %s", b, u)
		}
		b /= 1024
	}
	return ""
}

// ReadFileLimit reads a whole file of at most max bytes. A file that is
// not a regular file (a device, a pipe, a directory) or that is larger is
// an *InputError, and nothing beyond max bytes is read.
func ReadFileLimit(path string, max int64, what string) ([]byte, error) {
	// Opened without waiting for a writer: a named pipe is refused below,
	// not waited on.
	f, err := os.OpenFile(path, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpenFileLimit(f, path, max, what)
}

// ReadOpenFileLimit reads the open file f (path) whole, as ReadFileLimit
// does, for a caller that opened it with flags of its own.
func ReadOpenFileLimit(f *os.File, path string, max int64, what string) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &InputError{File: path, Msg: "is not a regular file, expected " + what}
	}
	if st.Size() > max {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("is %s, more than %s can be (%s)", HumanBytes(float64(st.Size())), what, HumanBytes(float64(max)))}
	}
	// Room for the file as it stands (and a byte to see it grow), read
	// without growing.
	b := make([]byte, 0, st.Size()+1)
	r := io.LimitReader(f, max+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > max {
		return nil, &InputError{File: path, Msg: fmt.Sprintf("grew beyond %s while it was read, more than %s can be", HumanBytes(float64(max)), what)}
	}
	return b, nil
}

// OpenText opens a small CSV text file (a hierarchy, a target
// distribution, marginals) for reading by encoding/csv or any reader: the
// returned reader fails with an *InputError naming the file and line as
// soon as one record (a line, or several lines inside quotes) is longer
// than MaxRecordBytes, or a NUL byte shows that the file is not text. An
// error opening the file is returned as os.Open returns it.
func OpenText(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, &InputError{File: path, Msg: "is a directory, expected a CSV file"}
	}
	return &textReader{r: bufio.NewReaderSize(f, 64<<10), c: f, name: path, max: MaxRecordBytes, line: 1}, nil
}

// NewTextReader bounds the records of r as OpenText does (name is the
// file name for errors, max the longest record in bytes).
func NewTextReader(r io.Reader, name string, max int) io.Reader {
	return &textReader{r: r, name: name, max: max, line: 1}
}

// textReader passes text through while it counts the bytes of the
// record being read: a record ends at a line break outside quotes (RFC
// 4180, as sampleLines reads it).
type textReader struct {
	r       io.Reader
	c       io.Closer
	name    string
	max     int
	cur     int  // bytes of the current record so far
	line    int  // the line being read
	start   int  // the line the current record started on
	inQuote bool // inside a quoted field
	err     error
}

func (t *textReader) Read(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n, err := t.r.Read(p)
	if t.start == 0 {
		t.start = 1
	}
	for i, b := range p[:n] {
		switch b {
		case 0:
			t.err = &InputError{File: t.name, Line: t.line, Msg: "holds a NUL byte: this is not a text file",
				Hint: "give a CSV text file"}
			return i, t.err
		case '"':
			t.inQuote = !t.inQuote
		case '\n':
			t.line++
			if !t.inQuote {
				t.cur, t.start = -1, t.line
			}
		}
		t.cur++
		if t.cur > t.max {
			t.err = &InputError{File: t.name, Line: t.start, Msg: fmt.Sprintf("a record longer than %s: not a file of short rows", HumanBytes(float64(t.max))),
				Hint: "is a quote left open, or is this the right file?"}
			return i, t.err
		}
	}
	return n, err
}

func (t *textReader) Close() error {
	if t.c == nil {
		return nil
	}
	return t.c.Close()
}

// NULLine returns the line of the first NUL byte in b (0 when none).
func NULLine(b []byte) int {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return 0
	}
	return 1 + bytes.Count(b[:i], []byte{'\n'})
}
