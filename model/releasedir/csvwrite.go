package releasedir

import (
	"io"
	"runtime"
	"sync"
	"unicode"
	"unicode/utf8"
)

// AppendCSVRecord appends one record as CSV text to b, byte for byte as
// encoding/csv's Writer writes it with a comma and "\n" line ends: a
// field is quoted when it holds a comma, a quote, CR or LF, begins with
// a space (unicode.IsSpace) or is `\.`, and a quote inside is doubled.
// It allocates nothing beyond b's growth, so a release of millions of
// rows is written without a call per field.
func AppendCSVRecord(b []byte, rec []string) []byte {
	for i, f := range rec {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendCSVField(b, f)
	}
	return append(b, '\n')
}

// AppendCSVField appends one field as AppendCSVRecord writes it: quoted
// (its quotes doubled) when encoding/csv would quote it.
func AppendCSVField(b []byte, f string) []byte {
	if !needsQuotes(f) {
		return append(b, f...)
	}
	b = append(b, '"')
	for j := 0; j < len(f); j++ {
		if f[j] == '"' {
			b = append(b, '"')
		}
		b = append(b, f[j])
	}
	return append(b, '"')
}

// needsQuotes is encoding/csv's fieldNeedsQuotes for a comma. The field
// is looked at eight bytes at a time (a short one as one word of its
// bytes, some read twice), not byte by byte.
func needsQuotes(f string) bool {
	n := len(f)
	if n == 0 {
		return false
	}
	if c := f[0]; c < utf8.RuneSelf {
		if csvLeadSpace[c] {
			return true
		}
	} else if r, _ := utf8.DecodeRuneInString(f); unicode.IsSpace(r) {
		return true
	}
	var w uint64
	switch {
	case n >= 8:
		for j := 0; j+8 < n; j += 8 {
			if csvSpecialWord(le64(f, j)) {
				return true
			}
		}
		w = le64(f, n-8) // the last eight bytes, some seen already
	case n >= 4:
		w = uint64(le32(f, 0)) | uint64(le32(f, n-4))<<32
	default:
		if n == 2 && f == `\.` {
			return true
		}
		w = uint64(f[0]) | uint64(f[n/2])<<8 | uint64(f[n-1])<<16
	}
	return csvSpecialWord(w)
}

// le64 and le32 read eight and four bytes of s from i, little endian
// (one load each).
func le64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

func le32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// csvLeadSpace marks the ASCII bytes unicode.IsSpace accepts.
var csvLeadSpace = [utf8.RuneSelf]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// csvSpecialWord reports whether a byte of w is a comma, a quote, CR or
// LF (a zero byte is none of them).
func csvSpecialWord(w uint64) bool {
	const comma, quote, cr, lf = ',' * swarOnes, '"' * swarOnes, '\r' * swarOnes, '\n' * swarOnes
	return zeroBytes(w^comma)|zeroBytes(w^quote)|zeroBytes(w^cr)|zeroBytes(w^lf) != 0
}

// csvChunk is how many bytes of rows are gathered before they are
// written on.
const csvChunk = 64 << 10

// writeRecords writes the file's header and rows to out in chunks of
// csvChunk bytes; check, when set, is called every 4096 rows and stops
// the write with its error.
func writeRecords(out io.Writer, f ReleaseFile, check func() error) error {
	if f.Text != nil {
		return writeText(out, f.Text, check)
	}
	buf := make([]byte, 0, csvChunk+4096)
	buf = AppendCSVRecord(buf, f.Header)
	rec := make([]string, len(f.Header))
	for i := 0; i < f.Rows; i++ {
		if check != nil && i%4096 == 4095 {
			if err := check(); err != nil {
				return err
			}
		}
		buf = f.appendRecord(buf, i, rec)
		if len(buf) >= csvChunk {
			if _, err := out.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := out.Write(buf)
	return err
}

// writeText writes a file's rendered text in chunks of csvChunk * 16
// bytes, calling check, when set, before each.
func writeText(out io.Writer, text []byte, check func() error) error {
	for len(text) > 0 {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		n := min(len(text), csvChunk*16)
		if _, err := out.Write(text[:n]); err != nil {
			return err
		}
		text = text[n:]
	}
	return nil
}

// CSVText is the file's CSV text, WriteCSV's bytes (Text itself when
// it is set). A file of many rows is rendered in parts at once on every
// core (Fill is called from several goroutines, on different rows), each
// part into one slice sized from its first rows.
func (f ReleaseFile) CSVText() []byte {
	if f.Text != nil {
		return f.Text
	}
	parts := min(runtime.GOMAXPROCS(0), f.Rows/csvPartRows)
	if parts < 2 {
		return f.appendRows(AppendCSVRecord(nil, f.Header), 0, f.Rows, f.Rows)
	}
	texts := make([][]byte, parts)
	var wg sync.WaitGroup
	for p := range texts {
		lo, hi := f.Rows*p/parts, f.Rows*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The first part has room for the whole file, so the others
			// are copied after it, not all into a new slice.
			if p == 0 {
				texts[p] = f.appendRows(AppendCSVRecord(nil, f.Header), lo, hi, f.Rows)
			} else {
				texts[p] = f.appendRows(nil, lo, hi, hi-lo)
			}
		}()
	}
	wg.Wait()
	out := texts[0]
	for _, t := range texts[1:] {
		out = append(out, t...)
	}
	return out
}

// csvPartRows is the fewest rows CSVText renders as a part of its own
// (Adult's 30,162 rows render in two).
const csvPartRows = 4096

// appendRows appends rows lo..hi-1 to b, growing it once to hold room
// rows in all, at the size its first rows promise.
func (f ReleaseFile) appendRows(b []byte, lo, hi, room int) []byte {
	const sample = 256
	start := len(b)
	rec := make([]string, len(f.Header))
	for i := lo; i < hi; i++ {
		if i == lo+sample {
			per := (len(b) - start + sample - 1) / sample
			grown := make([]byte, len(b), len(b)+(room-sample)*per*21/20+64)
			copy(grown, b)
			b = grown
		}
		b = f.appendRecord(b, i, rec)
	}
	return b
}

// appendRecord appends row i's CSV record to b: Append's or Record's
// when one is set, else the one rendered from Fill into rec.
func (f ReleaseFile) appendRecord(b []byte, i int, rec []string) []byte {
	if f.Append != nil {
		return f.Append(b, i)
	}
	if f.Record != nil {
		return append(b, f.Record(i)...)
	}
	f.Fill(i, rec)
	return AppendCSVRecord(b, rec)
}

// CSVWriter writes records to w as AppendCSVRecord does, buffered until
// Flush. It has the methods of encoding/csv's Writer that gocsv's
// marshalling calls, so tables of structs are written by the same code
// as releases.
type CSVWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// NewCSVWriter returns a CSVWriter on w.
func NewCSVWriter(w io.Writer) *CSVWriter { return &CSVWriter{w: w} }

// Write appends one record; the first error writing to w is kept and
// returned from then on.
func (c *CSVWriter) Write(rec []string) error {
	if c.err != nil {
		return c.err
	}
	c.buf = AppendCSVRecord(c.buf, rec)
	if len(c.buf) >= 64<<10 {
		c.Flush()
	}
	return c.err
}

// Flush writes the buffered records to w.
func (c *CSVWriter) Flush() {
	if c.err == nil && len(c.buf) > 0 {
		_, c.err = c.w.Write(c.buf)
	}
	c.buf = c.buf[:0]
}

// Error is the first error writing to w.
func (c *CSVWriter) Error() error { return c.err }

// swarOnes has a one in every byte.
const swarOnes = 0x0101010101010101

// zeroBytes sets the high bit of the lowest zero byte of v (and maybe
// of bytes above it); 0 when v has none (as the CSV scanner's, in model).
func zeroBytes(v uint64) uint64 {
	return (v - swarOnes) & ^v & (0x80 * swarOnes)
}
