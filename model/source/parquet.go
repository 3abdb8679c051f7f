package source

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"privlab/model"
	"privlab/model/csvfile"
)

// A Parquet file is read column by column, page by page, each column by
// one of two workers: a dictionary-encoded page costs one lookup per
// distinct value and an array index per row, a plain page of numbers one
// map lookup per row. Kinds come from the schema: integers, floats and
// decimals are numeric; strings, enums, booleans, dates, times, timestamps
// and UUIDs are categorical (dates and times read as ISO 8601 text). A
// null, or a floating-point NaN, is a missing value; an infinite number is
// an error. Nested and repeated columns are refused: privlab reads flat
// tables. Errors name the row (1-based, in file order) and the column.

func loadParquet(path string, opt csvfile.LoadOptions) (*model.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err)}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, asInput(path, Parquet, err)
	}
	if err := checkTrailer(path, f, st.Size()); err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, asInput(path, Parquet, err)
	}
	if err := checkChunks(path, f, st.Size(), pf); err != nil {
		return nil, err
	}
	cols, err := parquetColumns(path, pf)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cols))
	declared := make([]model.Kind, len(cols))
	for i, c := range cols {
		names[i], declared[i] = c.col.Name(), c.kind
	}
	b, err := csvfile.NewTableBuilder(path, names, declared, opt)
	if err != nil {
		return nil, err
	}
	rows := pf.NumRows()
	if rows < 0 || rows > math.MaxInt32 {
		return nil, &model.InputError{File: path, Msg: fmt.Sprintf("holds %d rows, more than a table can hold", rows), Hint: tooManyRowsHint}
	}
	// The footer's row count is checked against memory, but only the rows
	// the pages hold take room: a damaged footer reserves little.
	if err := model.CheckFits(path, int(rows), len(cols), false); err != nil {
		return nil, err
	}
	if err := b.Reserve(int(min(rows, 1<<22))); err != nil {
		return nil, err
	}
	if err := readColumns(path, pf, cols, b); err != nil {
		return nil, err
	}
	return b.Table()
}

// checkTrailer reads a Parquet file's last 8 bytes (the footer's length
// and the magic PAR1) before parquet-go does: it allocates the length the
// file states before comparing it with the file's size (a damaged byte
// made it allocate 4 GB).
func checkTrailer(path string, f io.ReaderAt, size int64) error {
	var tail [8]byte
	if size < 12 {
		return &model.InputError{File: path, Msg: "not a readable Parquet file: too short", Hint: "is the file complete?"}
	}
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return asInput(path, Parquet, err)
	}
	switch string(tail[4:]) {
	case "PAR1":
	case "PARE":
		return &model.InputError{File: path, Msg: "an encrypted Parquet file", Hint: "write the file without encryption"}
	default:
		return &model.InputError{File: path, Msg: fmt.Sprintf("not a readable Parquet file: it ends in %q, not PAR1", tail[4:]),
			Hint: "is the file complete? write it again"}
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return &model.InputError{File: path, Msg: fmt.Sprintf("not a readable Parquet file: its footer claims %d bytes of a file of %d", n, size),
			Hint: "is the file complete? write it again"}
	}
	return nil
}

// checkChunks refuses, before a page is decoded, what parquet-go v0.32.0
// would decode unsafely: LZ4 pages (its LZ4 decoder doubles its buffer
// without bound on a damaged page, and mis-reads some intact ones: its
// issue #608), column chunks outside the file, and pages whose header
// (read here with parquet-go's own thrift decoder, from a bounded buffer)
// is damaged or claims more than its column chunk holds. So no page
// allocates more than its chunk's size, and the chunks together no more
// than memory.
func checkChunks(path string, f io.ReaderAt, size int64, pf *parquet.File) error {
	bad := func(col []string, msg string) error {
		return &model.InputError{File: path, Field: strings.Join(col, "."), Msg: "column " + strings.Join(col, ".") + ": " + msg,
			Hint: "is the file complete? write it again"}
	}
	var total float64
	for _, rg := range pf.Metadata().RowGroups {
		for _, cc := range rg.Columns {
			md := &cc.MetaData
			switch md.Codec {
			case format.Lz4, format.Lz4Raw:
				return &model.InputError{File: path, Field: strings.Join(md.PathInSchema, "."),
					Msg:  "column " + strings.Join(md.PathInSchema, ".") + " is compressed with LZ4, which the Parquet reader privlab uses cannot read safely",
					Hint: "write the file with Snappy, Zstd or Gzip compression (pyarrow: compression='snappy')"}
			}
			start := md.DataPageOffset
			if md.DictionaryPageOffset != 0 {
				start = md.DictionaryPageOffset
			}
			if start < 4 || md.TotalCompressedSize < 0 || md.TotalCompressedSize > size-start || md.TotalUncompressedSize < 0 {
				return bad(md.PathInSchema, "its column chunk lies outside the file")
			}
			total += float64(md.TotalUncompressedSize)
			if err := checkPages(f, start, md.TotalCompressedSize, md.TotalUncompressedSize); err != nil {
				return bad(md.PathInSchema, err.Error())
			}
		}
	}
	if have := model.Memory(); total > have/2 {
		return &model.InputError{File: path, Msg: fmt.Sprintf("its pages would take %.0f MB to decompress; this machine has %.0f MB", total/(1<<20), have/(1<<20)),
			Hint: "load a sample of the rows"}
	}
	return nil
}

// checkPages walks the page headers of a column chunk of length bytes at
// start: each must decode, and its sizes fit the chunk.
func checkPages(f io.ReaderAt, start, length, uncompressed int64) error {
	var buf []byte
	for pos := int64(0); pos < length; {
		var h format.PageHeader
		var n int
		for want := int64(4 << 10); ; want *= 8 {
			want = min(want, length-pos)
			if int64(cap(buf)) < want {
				buf = make([]byte, want)
			}
			b := buf[:want]
			if _, err := f.ReadAt(b, start+pos); err != nil {
				return fmt.Errorf("cannot read a page header: %v", err)
			}
			r := (&thrift.CompactProtocol{}).NewReaderFromBytes(b)
			h = format.PageHeader{}
			err := thrift.NewDecoder(r).Decode(&h)
			if err == nil {
				n = r.(interface{ BytesRead() int }).BytesRead()
				break
			}
			if want == length-pos || !errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("a damaged page header: %v", err)
			}
		}
		pos += int64(n)
		if h.CompressedPageSize < 0 || int64(h.CompressedPageSize) > length-pos || h.UncompressedPageSize < 0 || int64(h.UncompressedPageSize) > uncompressed {
			return fmt.Errorf("a page header claims %d bytes (%d uncompressed) where its chunk holds %d (%d)",
				h.CompressedPageSize, h.UncompressedPageSize, length-pos, uncompressed)
		}
		pos += int64(h.CompressedPageSize)
	}
	return nil
}

// pqColumn is a leaf column of the schema and how its values read.
type pqColumn struct {
	col    *parquet.Column
	index  int // its position among the leaf columns (its chunk)
	kind   model.Kind
	format func(v parquet.Value, dst []byte) ([]byte, error) // the value's text
	plain  bool                                              // a plain number: the fast path applies
}

// parquetColumns lists the file's columns, refusing nested and repeated
// ones.
func parquetColumns(path string, pf *parquet.File) ([]pqColumn, error) {
	var out []pqColumn
	for _, c := range pf.Root().Columns() {
		if !c.Leaf() {
			return nil, &model.InputError{File: path, Field: c.Name(), Msg: fmt.Sprintf("column %s is a nested group", c.Name()),
				Hint: "privlab reads flat tables: flatten the column before loading"}
		}
		if c.Repeated() {
			return nil, &model.InputError{File: path, Field: c.Name(), Msg: fmt.Sprintf("column %s is repeated (a list per row)", c.Name()),
				Hint: "privlab reads flat tables: one value per row and column"}
		}
		pc, err := describe(path, c)
		if err != nil {
			return nil, err
		}
		pc.index = c.Index()
		out = append(out, pc)
	}
	if len(out) == 0 {
		return nil, &model.InputError{File: path, Msg: "the schema has no columns"}
	}
	return out, nil
}

// describe says how a column's values read, from its physical and logical
// type.
func describe(path string, c *parquet.Column) (pqColumn, error) {
	t := c.Type()
	var lt format.LogicalTypeValue
	if l := t.LogicalType(); l != nil {
		lt = l.Value
	}
	pc := pqColumn{col: c, kind: model.Numeric}
	switch x := lt.(type) {
	case *format.DateType:
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) {
			return time.Unix(int64(v.Int32())*86400, 0).UTC().AppendFormat(dst, "2006-01-02"), nil
		}
		return pc, nil
	case *format.TimestampType:
		unit := unitOf(&x.Unit)
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) {
			return timeAt(v.Int64(), unit).AppendFormat(dst, time.RFC3339Nano), nil
		}
		return pc, nil
	case *format.TimeType:
		unit := unitOf(&x.Unit)
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) {
			n := v.Int64()
			if v.Kind() == parquet.Int32 {
				n = int64(v.Int32())
			}
			return timeAt(n, unit).AppendFormat(dst, "15:04:05.999999999"), nil
		}
		return pc, nil
	case *format.DecimalType:
		scale := int(x.Scale)
		pc.format = func(v parquet.Value, dst []byte) ([]byte, error) { return appendDecimal(dst, v, scale), nil }
		return pc, nil
	case *format.IntType:
		if !x.IsSigned {
			pc.format = func(v parquet.Value, dst []byte) ([]byte, error) {
				if v.Kind() == parquet.Int32 {
					return strconv.AppendUint(dst, uint64(uint32(v.Int32())), 10), nil
				}
				return strconv.AppendUint(dst, uint64(v.Int64()), 10), nil
			}
			return pc, nil
		}
	case *format.UUIDType:
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) {
			b := v.ByteArray()
			if len(b) != 16 {
				return fmt.Appendf(dst, "%x", b), nil
			}
			return fmt.Appendf(dst, "%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
		}
		return pc, nil
	case nil, *format.StringType, *format.EnumType, *format.JsonType, *format.BsonType:
	default:
		return pc, &model.InputError{File: path, Field: c.Name(), Msg: fmt.Sprintf("column %s has the type %s, which privlab does not read", c.Name(), lt),
			Hint: "convert the column to text or numbers"}
	}
	return physical(path, c, pc)
}

// physical says how a column without a logical type (or a signed integer
// one) reads, from its physical type.
func physical(path string, c *parquet.Column, pc pqColumn) (pqColumn, error) {
	t := c.Type()
	switch t.Kind() {
	case parquet.Boolean:
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) {
			return strconv.AppendBool(dst, v.Boolean()), nil
		}
	case parquet.Int32:
		pc.plain, pc.format = true, func(v parquet.Value, dst []byte) ([]byte, error) {
			return strconv.AppendInt(dst, int64(v.Int32()), 10), nil
		}
	case parquet.Int64:
		pc.plain, pc.format = true, func(v parquet.Value, dst []byte) ([]byte, error) { return strconv.AppendInt(dst, v.Int64(), 10), nil }
	case parquet.Float:
		pc.plain, pc.format = true, func(v parquet.Value, dst []byte) ([]byte, error) { return appendFloat(dst, float64(v.Float()), 32) }
	case parquet.Double:
		pc.plain, pc.format = true, func(v parquet.Value, dst []byte) ([]byte, error) { return appendFloat(dst, v.Double(), 64) }
	case parquet.Int96:
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) {
			return int96Time(v.Int96()).AppendFormat(dst, time.RFC3339Nano), nil
		}
	case parquet.ByteArray, parquet.FixedLenByteArray:
		pc.kind, pc.format = model.Categorical, func(v parquet.Value, dst []byte) ([]byte, error) { return append(dst, v.ByteArray()...), nil }
	default:
		return pc, &model.InputError{File: path, Field: c.Name(), Msg: fmt.Sprintf("column %s has a type privlab does not read (%s)", c.Name(), t)}
	}
	return pc, nil
}

func unitOf(u *format.TimeUnit) time.Duration {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return time.Millisecond
	case *format.NanoSeconds:
		return time.Nanosecond
	}
	return time.Microsecond
}

func timeAt(n int64, unit time.Duration) time.Time {
	per := int64(time.Second / unit)
	return time.Unix(n/per, (n%per)*int64(unit)).UTC()
}

// int96Time reads a legacy INT96 timestamp: nanoseconds of the day, then
// the Julian day.
func int96Time(v deprecated.Int96) time.Time {
	nanos := int64(v[1])<<32 | int64(v[0])
	days := int64(v[2]) - 2440588 // the Julian day of 1970-01-01
	return time.Unix(days*86400, nanos).UTC()
}

// errInfinite marks an infinite floating-point value.
var errInfinite = errors.New("an infinite number is not a value privlab can publish")

// appendFloat writes a float the shortest way that reads back the same; a
// NaN is missing (nil, no error), an infinity an error.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	switch {
	case math.IsNaN(f):
		return nil, nil
	case math.IsInf(f, 0):
		return nil, errInfinite
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.AppendInt(dst, int64(f), 10), nil
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits), nil
}

// appendDecimal writes a decimal (an integer of scale digits after the
// point, in an int32, an int64 or big-endian two's complement bytes).
func appendDecimal(dst []byte, v parquet.Value, scale int) []byte {
	var n big.Int
	switch v.Kind() {
	case parquet.Int32:
		n.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		n.SetInt64(v.Int64())
	default:
		b := v.ByteArray()
		n.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			n.Sub(&n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	}
	s := n.String()
	if scale <= 0 {
		return append(dst, s...)
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
		dst = append(dst, '-')
	}
	for len(s) <= scale {
		s = "0" + s
	}
	return append(append(append(dst, s[:len(s)-scale]...), '.'), s[len(s)-scale:]...)
}

// readColumns reads every column, two workers taking the next column not
// yet read; the first error (in column order) is returned.
func readColumns(path string, pf *parquet.File, cols []pqColumn, b *csvfile.TableBuilder) error {
	errs := make([]error, len(cols))
	var next atomic.Int32
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(cols) {
				return
			}
			errs[i] = readColumn(path, pf, cols[i], b.Column(i), i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), 2, len(cols))
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					errs[len(errs)-1] = fmt.Errorf("%v", r)
				}
			}()
			work()
		}()
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return asInput(path, Parquet, err)
		}
	}
	return nil
}

// colReader reads one column's pages into its writer.
type colReader struct {
	path string
	c    pqColumn
	w    *csvfile.ColumnWriter
	num  int // the column's position, for errors
	row  int // rows read so far
	text []byte
	vals []parquet.Value
	// codes of the values seen: by dictionary index (the current
	// dictionary's), by integer or float bits (plain pages)
	dict     parquet.Dictionary
	dictCode []int64
	byValue  map[uint64]uint32
	codes    []uint32
}

func readColumn(path string, pf *parquet.File, c pqColumn, w *csvfile.ColumnWriter, num int) error {
	r := &colReader{path: path, c: c, w: w, num: num, byValue: map[uint64]uint32{}, text: make([]byte, 0, 64)}
	maxDef := c.col.MaxDefinitionLevel()
	for _, rg := range pf.RowGroups() {
		chunks := rg.ColumnChunks()
		if c.index >= len(chunks) {
			return &model.InputError{File: path, Msg: "a row group lacks column " + c.col.Name()}
		}
		pages := chunks[c.index].Pages()
		for {
			p, err := pages.ReadPage()
			if err == io.EOF {
				break
			}
			if err != nil {
				pages.Close()
				return r.fail(err)
			}
			err = r.page(p, maxDef)
			parquet.Release(p)
			if err != nil {
				pages.Close()
				return err
			}
		}
		if err := pages.Close(); err != nil {
			return r.fail(err)
		}
	}
	return nil
}

func (r *colReader) fail(err error) error {
	if errors.Is(err, errInfinite) {
		return &model.InputError{File: r.path, Line: r.row + 1, Column: r.num + 1, Field: r.c.col.Name(), Msg: err.Error(),
			Hint: "leave the value out (null) or give a finite number"}
	}
	var ie *model.InputError
	if errors.As(err, &ie) {
		return ie
	}
	return &model.InputError{File: r.path, Line: r.row + 1, Column: r.num + 1, Field: r.c.col.Name(),
		Msg: "cannot read the column: " + err.Error(), Hint: "is the file complete? write it again"}
}

// page reads one page: indexed (dictionary) and plain numeric pages by
// the fast path, any other value by value.
func (r *colReader) page(p parquet.Page, maxDef int) error {
	if len(p.RepetitionLevels()) > 0 {
		return r.fail(errors.New("repeated values in a flat column"))
	}
	defs := p.DefinitionLevels()
	n := int(p.NumRows())
	if len(defs) > 0 && len(defs) != n {
		return r.fail(errors.New("definition levels do not match the rows"))
	}
	data := p.Data()
	if d := p.Dictionary(); d != nil && data.Kind() == encoding.Int32 {
		return r.indexed(d, data.Int32(), defs, maxDef, n)
	}
	if r.c.plain {
		switch r.c.col.Type().Kind() {
		case parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
			return r.numbers(data, defs, maxDef, n)
		}
	}
	return r.values(p)
}

// rows walks the rows of a page: each row is null (def < maxDef) or
// the next value.
func (r *colReader) rows(defs []byte, maxDef, n, values int, each func(k, j int) (uint32, error)) error {
	r.codes = r.codes[:0]
	j := 0
	for k := 0; k < n; k++ {
		if len(defs) > 0 && int(defs[k]) != maxDef {
			r.codes = append(r.codes, model.Missing)
			continue
		}
		if j >= values {
			return r.fail(errors.New("fewer values than rows"))
		}
		code, err := each(k, j)
		if err != nil {
			r.row += k
			return r.fail(err)
		}
		r.codes = append(r.codes, code)
		j++
	}
	r.w.Append(r.codes...)
	r.row += n
	return nil
}

func (r *colReader) indexed(d parquet.Dictionary, idx []int32, defs []byte, maxDef, n int) error {
	if d != r.dict {
		r.dict = d
		r.dictCode = r.dictCode[:0]
		for i := 0; i < d.Len(); i++ {
			r.dictCode = append(r.dictCode, -1)
		}
	}
	return r.rows(defs, maxDef, n, len(idx), func(k, j int) (uint32, error) {
		x := idx[j]
		if x < 0 || int(x) >= len(r.dictCode) {
			return 0, errors.New("a dictionary index out of range")
		}
		if c := r.dictCode[x]; c >= 0 {
			return uint32(c), nil
		}
		code, err := r.code(d.Index(x), r.row+k+1)
		if err == nil {
			r.dictCode[x] = int64(code)
		}
		return code, err
	})
}

// numbers reads a plain page of numbers: one map lookup per row (by the
// number's bits), the text written once per distinct number.
func (r *colReader) numbers(data encoding.Values, defs []byte, maxDef, n int) error {
	switch data.Kind() {
	case encoding.Int32:
		vs := data.Int32()
		return r.rows(defs, maxDef, n, len(vs), func(k, j int) (uint32, error) {
			return r.byKey(uint64(int64(vs[j])), k, func(dst []byte) ([]byte, error) { return strconv.AppendInt(dst, int64(vs[j]), 10), nil })
		})
	case encoding.Int64:
		vs := data.Int64()
		return r.rows(defs, maxDef, n, len(vs), func(k, j int) (uint32, error) {
			return r.byKey(uint64(vs[j]), k, func(dst []byte) ([]byte, error) { return strconv.AppendInt(dst, vs[j], 10), nil })
		})
	case encoding.Float:
		vs := data.Float()
		return r.rows(defs, maxDef, n, len(vs), func(k, j int) (uint32, error) {
			return r.byKey(uint64(math.Float32bits(vs[j])), k, func(dst []byte) ([]byte, error) { return appendFloat(dst, float64(vs[j]), 32) })
		})
	case encoding.Double:
		vs := data.Double()
		return r.rows(defs, maxDef, n, len(vs), func(k, j int) (uint32, error) {
			return r.byKey(math.Float64bits(vs[j]), k, func(dst []byte) ([]byte, error) { return appendFloat(dst, vs[j], 64) })
		})
	}
	return r.fail(fmt.Errorf("a page of %v values in a column of %v", data.Kind(), r.c.col.Type()))
}

// byKey is the code of a number seen before under the same key, or of
// its text, written now (nil text: a NaN, missing).
func (r *colReader) byKey(key uint64, k int, text func([]byte) ([]byte, error)) (uint32, error) {
	if c, ok := r.byValue[key]; ok {
		return c, nil
	}
	t, err := text(r.text[:0])
	if err != nil {
		return 0, err
	}
	code := model.Missing
	if t != nil {
		r.text = t
		if code, err = r.w.Code(t, r.row+k+1); err != nil {
			return 0, err
		}
	}
	r.byValue[key] = code
	return code, nil
}

// code is the code of one value.
func (r *colReader) code(v parquet.Value, line int) (uint32, error) {
	if v.IsNull() {
		return model.Missing, nil
	}
	text, err := r.c.format(v, r.text[:0])
	if err != nil {
		return 0, err
	}
	if text == nil {
		return model.Missing, nil // NaN
	}
	r.text = text
	return r.w.Code(text, line)
}

// values reads a page value by value (any type).
func (r *colReader) values(p parquet.Page) error {
	vr := p.Values()
	if cap(r.vals) < 1024 {
		r.vals = make([]parquet.Value, 1024)
	}
	for {
		n, err := vr.ReadValues(r.vals[:cap(r.vals)])
		r.codes = r.codes[:0]
		for k, v := range r.vals[:n] {
			code, cerr := r.code(v, r.row+k+1)
			if cerr != nil {
				r.row += k
				return r.fail(cerr)
			}
			r.codes = append(r.codes, code)
		}
		r.w.Append(r.codes...)
		r.row += n
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return r.fail(err)
		}
	}
}
