package releasedir

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
	"unicode/utf8"

	"privlab/model"
)

// csvWriterBytes is what encoding/csv writes for the records.
func csvWriterBytes(t testing.TB, recs [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The release writer's CSV text is byte for byte encoding/csv's (the
// bytes every release, its hashes and the goldens were made with): the
// fields that need quotes (comma, quote, CR, LF, a leading space of any
// kind, \.) and the ones that do not, on random records from an alphabet
// of the characters that matter.
func TestAppendCSVRecordIsEncodingCSV(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "Bc", "7", "-1.5", ",", `"`, "\r", "\n", " ", "\t", "\v", "\f", "\u00a0", "\u0085", "\u2003", "\u3000",
		"é", "\\", ".", `\.`, "\xff", "\xe2\x80", ";", "'", "x y"}
	r := model.NewRand(20)
	for iter := 0; iter < 3000; iter++ {
		var recs [][]string
		for n := 1 + r.Intn(3); n > 0; n-- {
			rec := make([]string, 1+r.Intn(4))
			for i := range rec {
				var f strings.Builder
				for k := r.Intn(4); k > 0; k-- {
					f.WriteString(pieces[r.Intn(len(pieces))])
				}
				rec[i] = f.String()
			}
			recs = append(recs, rec)
		}
		var got []byte
		for _, rec := range recs {
			got = AppendCSVRecord(got, rec)
		}
		if want := csvWriterBytes(t, recs); !bytes.Equal(got, want) {
			t.Fatalf("%q: wrote %q, encoding/csv writes %q", recs, got, want)
		}
	}
	// The one-field record of an empty field, and `\.` alone.
	for _, rec := range [][]string{{""}, {`\.`}, {"", ""}} {
		if got, want := AppendCSVRecord(nil, rec), csvWriterBytes(t, [][]string{rec}); !bytes.Equal(got, want) {
			t.Errorf("%q: wrote %q, encoding/csv writes %q", rec, got, want)
		}
	}
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes for a comma, byte
// by byte.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` {
		return true
	}
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case ',', '"', '\r', '\n':
			return true
		}
	}
	if c := f[0]; c < utf8.RuneSelf {
		return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}

// needsQuotes decides as csvNeedsQuotes on random fields of 0 to 30
// bytes (a comma, quote, CR or LF at every place of a word, leading
// spaces of one and more bytes, `\.`, bytes over 0x80), cut from
// longer text with specials after them.
func TestNeedsQuotesIsByteByByte(t *testing.T) {
	t.Parallel()
	pieces := []string{",", `"`, "\r", "\n", " ", "\t", "\v", "\u00a0", "\u2003", "\\", ".", "\xff", "é", "\x00"}
	r := model.NewRand(21)
	for iter := 0; iter < 100000; iter++ {
		f := make([]byte, r.Intn(31))
		for i := range f {
			f[i] = byte('a' + r.Intn(26))
		}
		for k := r.Intn(3); k > 0 && len(f) > 0; k-- {
			p := pieces[r.Intn(len(pieces))]
			at := r.Intn(len(f))
			f = append(f[:at], append([]byte(p), f[at:]...)...)
		}
		if r.Intn(50) == 0 {
			f = []byte(`\.`)
		}
		text := string(f) + ",\"\r\n"[r.Intn(4):]
		field := text[:len(f)]
		if got, want := needsQuotes(field), csvNeedsQuotes(field); got != want {
			t.Fatalf("%q: %v, want %v", field, got, want)
		}
	}
}

func FuzzAppendCSVRecord(f *testing.F) {
	f.Add("a", " b", "c,d")
	f.Add(`"`, "\u00a0x", `\.`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		rec := []string{a, b, c}
		if got, want := AppendCSVRecord(nil, rec), csvWriterBytes(t, [][]string{rec}); !bytes.Equal(got, want) {
			t.Fatalf("%q: wrote %q, encoding/csv writes %q", rec, got, want)
		}
	})
}

// CSVText renders WriteCSV's bytes, whatever the rows; a file given its
// rendered text writes that text, the bytes Header and Fill render, in
// chunks however long it is, and stops when told to.
func TestReleaseFileTextIsWrittenAsRendered(t *testing.T) {
	t.Parallel()
	f := ReleaseFile{Name: "a.csv", Header: []string{"x", "y"}, Rows: 200_000, Fill: func(i int, rec []string) {
		rec[0], rec[1] = string(rune('a'+i%26)), "v, "+string(rune('A'+i%7))
	}}
	var want bytes.Buffer
	if err := f.WriteCSV(&want); err != nil {
		t.Fatal(err)
	}
	if want.Len() <= csvChunk*16 {
		t.Fatalf("the text (%d bytes) fits one chunk", want.Len())
	}
	for _, rows := range []int{0, 1, 255, 256, 257, 1000, f.Rows} {
		h := f
		h.Rows = rows
		var w bytes.Buffer
		h.WriteCSV(&w)
		if got := h.CSVText(); !bytes.Equal(got, w.Bytes()) {
			t.Fatalf("%d rows: CSVText gives %d bytes, WriteCSV %d", rows, len(got), w.Len())
		}
	}
	g := f
	g.Text, g.Fill = want.Bytes(), nil
	var got bytes.Buffer
	if err := g.WriteCSV(&got); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("wrote %d bytes (%v), want the %d rendered", got.Len(), err, want.Len())
	}
	stop := errors.New("stop")
	calls := 0
	err := writeRecords(io.Discard, g, func() error {
		if calls++; calls == 2 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 {
		t.Fatalf("the write went on after it was stopped: %v after %d calls", err, calls)
	}
}

// A file written from its rendered text (re-read and compared byte for
// byte, hashed as read back) is the file and the SHA-256 that writing it
// from Fill gives (hashed as written, re-read and hashed again).
func TestWriteCSVFromTextIsWriteCSVFromFill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := ReleaseFile{Name: "a.csv", Header: []string{"x", "y"}, Rows: 300_000, Fill: func(i int, rec []string) {
		rec[0], rec[1] = string(rune('a'+i%26)), "v"
	}}
	fromFill, err := writeCSV(context.Background(), filepath.Join(dir, "fill.csv"), f)
	if err != nil {
		t.Fatal(err)
	}
	g := f
	g.Text = f.CSVText()
	fromText, err := writeCSV(context.Background(), filepath.Join(dir, "text.csv"), g)
	if err != nil || fromText != fromFill {
		t.Fatalf("from text %s (%v), from Fill %s", fromText, err, fromFill)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "fill.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "text.csv"))
	if !bytes.Equal(a, b) || len(a) < 1<<20 {
		t.Fatalf("the files differ (%d and %d bytes)", len(a), len(b))
	}
}

// A file whose rows repeat a few records, given each rendered once
// (Record), renders and writes the bytes Fill gives, in every part of
// CSVText; Record, not Fill, gives them.
func TestReleaseFileRecordIsFillRendered(t *testing.T) {
	t.Parallel()
	recs := [][]string{{"a", "v, b"}, {"", `"q"`}, {" c", "d"}}
	f := ReleaseFile{Name: "a.csv", Header: []string{"x", "y"}, Rows: 30_000, Fill: func(i int, rec []string) {
		copy(rec, recs[i*7%len(recs)])
	}}
	var want bytes.Buffer
	if err := f.WriteCSV(&want); err != nil {
		t.Fatal(err)
	}
	rendered := make([][]byte, len(recs))
	for i, rec := range recs {
		rendered[i] = AppendCSVRecord(nil, rec)
	}
	var fills atomic.Int64
	g := f
	g.Fill = func(i int, rec []string) { fills.Add(1); f.Fill(i, rec) }
	g.Record = func(i int) []byte { return rendered[i*7%len(recs)] }
	for _, rows := range []int{0, 1, 300, f.Rows} {
		h, w := g, f
		h.Rows, w.Rows = rows, rows
		var got, exp bytes.Buffer
		if err := h.WriteCSV(&got); err != nil {
			t.Fatal(err)
		}
		w.WriteCSV(&exp)
		if text := h.CSVText(); !bytes.Equal(text, exp.Bytes()) || !bytes.Equal(got.Bytes(), exp.Bytes()) {
			t.Fatalf("%d rows: CSVText %d bytes, WriteCSV %d, from Fill %d", rows, len(text), got.Len(), exp.Len())
		}
	}
	if fills.Load() != 0 || !bytes.Equal(want.Bytes()[:40], g.CSVText()[:40]) {
		t.Fatalf("Fill was called %d times with Record set", fills.Load())
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

// CSVWriter writes what encoding/csv's Writer writes for the same
// records, across its buffer's flushes, and keeps the first error of
// the writer under it.
func TestCSVWriterIsEncodingCSV(t *testing.T) {
	t.Parallel()
	var recs [][]string
	for i := range 5000 {
		recs = append(recs, []string{"row", strings.Repeat("x", i%40), `a "quoted", field`, " lead", "line\nbreak"})
	}
	var got bytes.Buffer
	w := NewCSVWriter(&got)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	w.Flush()
	if w.Error() != nil || !bytes.Equal(got.Bytes(), csvWriterBytes(t, recs)) {
		t.Fatalf("error %v; %d bytes, encoding/csv writes %d", w.Error(), got.Len(), len(csvWriterBytes(t, recs)))
	}
	f := NewCSVWriter(&failAfter{n: 10})
	for _, r := range recs {
		f.Write(r)
	}
	f.Flush()
	if err := f.Write(recs[0]); !errors.Is(err, errFull) || !errors.Is(f.Error(), errFull) {
		t.Fatalf("Write after a failed flush = %v, Error = %v, want %v", err, f.Error(), errFull)
	}
}
