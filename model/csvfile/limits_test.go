package csvfile

import (
	"errors"
	"strings"
	"testing"

	"privlab/model"
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
		{"endless header", forever("", "a,"), 1, model.MaxColumns + 1, "more than 16384 columns"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.in, LoadOptions{Name: "in.csv"})
			var ie *model.InputError
			if !errors.As(err, &ie) || ie.Line != tt.line || ie.Column != tt.col || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v (read %d bytes), want line %d column %d %q", err, tt.in.read, tt.line, tt.col, tt.msg)
			}
			if tt.in.read > 8<<20 {
				t.Fatalf("read %d bytes before the error", tt.in.read)
			}
		})
	}
}
