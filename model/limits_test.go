package model

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endless is an input that never ends: head, then body repeated forever.
// It fails the read (and so the test) once more than max bytes are asked
// for: a reader that is bounded by the cell limit stops long before.
type endless struct {
	head, body []byte
	read, max  int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.read > e.max {
		return 0, errors.New("read on past the bound: the input is read whole")
	}
	n := 0
	for n < len(p) {
		src := e.body
		if e.read < len(e.head) {
			src = e.head[e.read:]
		} else {
			src = src[(e.read-len(e.head))%len(src):]
		}
		m := copy(p[n:], src)
		n += m
		e.read += m
	}
	return n, nil
}

func forever(head, body string) *endless {
	return &endless{head: []byte(head), body: []byte(body), max: 64 << 20}
}

// TestEndlessInputsStopAtTheCellLimit: inputs that never end (/dev/zero,
// a line without a line break, a quote left open, a header of endless
// columns) end in an input error naming the line and column after a few
// megabytes, not after all of memory (SPEC 2.1; audit #25.10).
func TestEndlessInputsStopAtTheCellLimit(t *testing.T) {
	for _, tt := range []struct {
		name      string
		in        *endless
		line, col int
		msg       string
	}{
		{"zeros", forever("", "\x00"), 1, 0, "NUL byte"},
		{"one endless header cell", forever("", "a"), 1, 1, "column name is longer than 65536 bytes"},
		{"one endless value", forever("a,b\n1,2\n", "x"), 3, 1, "value is longer than 65536 bytes"},
		{"endless value after a long sample", forever("a,b\n"+strings.Repeat("1,2\n", 40000), "x"), 40002, 1, "value is longer than 65536 bytes"},
		{"quote left open", forever("a,b\n1,\"", "x\n"), 2, 2, "value is longer than 65536 bytes"},
		{"endless fields", forever("a,b\n1,", "2,"), 2, 3, "ragged row: too many fields"},
		{"endless header", forever("", "a,"), 1, MaxColumns + 1, "more than 16384 columns"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.in, LoadOptions{Name: "in.csv"})
			var ie *InputError
			if !errors.As(err, &ie) || ie.Line != tt.line || ie.Column != tt.col || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v (read %d bytes), want line %d column %d %q", err, tt.in.read, tt.line, tt.col, tt.msg)
			}
			if tt.in.read > 8<<20 {
				t.Fatalf("read %d bytes before the error", tt.in.read)
			}
		})
	}
}

// TestOpenTextBoundsRecords: the reader of small CSV files passes short
// records through unchanged (quoted line breaks included) and stops a
// long one.
func TestOpenTextBoundsRecords(t *testing.T) {
	text := "a,\"x\ny\"\nb,2\n"
	got, err := io.ReadAll(NewTextReader(strings.NewReader(text), "t.csv", 8))
	if err != nil || string(got) != text {
		t.Fatalf("%q %v", got, err)
	}
	cr := csv.NewReader(NewTextReader(strings.NewReader("a,1\nb,"+strings.Repeat("2", 20)+"\n"), "t.csv", 8))
	if _, err := cr.ReadAll(); err == nil || !strings.Contains(err.Error(), "t.csv:2: a record longer than 8 B") {
		t.Fatalf("long record: %v", err)
	}
}

// TestReadFileLimit: JSON files are read only when they are regular
// files of a bounded size.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.json")
	os.WriteFile(p, []byte("{}"), 0o644)
	if b, err := ReadFileLimit(p, 2, "a project file"); err != nil || string(b) != "{}" {
		t.Fatalf("%q %v", b, err)
	}
	if _, err := ReadFileLimit(p, 1, "a project file"); err == nil || !strings.Contains(err.Error(), "more than a project file can be") {
		t.Fatalf("too large: %v", err)
	}
	if _, err := ReadFileLimit(dir, 1<<20, "a project file"); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Fatalf("a directory: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := ReadFileLimit("/dev/zero", 1<<20, "a manifest"); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
			t.Fatalf("/dev/zero: %v", err)
		}
	}
}

// TestCheckFits: a table that would not fit in memory is refused with
// the estimate.
func TestCheckFits(t *testing.T) {
	if err := CheckFits("t.csv", 1000, 10, false); err != nil {
		t.Fatal(err)
	}
	rows := int(Memory()/bytesPerCell) + 1
	if err := CheckFits("t.csv", rows, 1, true); err == nil || !strings.Contains(err.Error(), "need about") || !strings.Contains(err.Error(), "this machine has") {
		t.Fatalf("%v", err)
	}
}
