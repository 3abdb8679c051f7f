package hierarchy

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"privlab/model"
)

// TestEndlessHierarchyStops: a hierarchy file that never ends, or whose
// one line is longer than a record can be, is an error naming the line;
// a label longer than the cell limit is refused, not taken as a value.
func TestEndlessHierarchyStops(t *testing.T) {
	for _, tt := range []struct {
		in   *endless
		line int
		msg  string
	}{
		{forever("", "\x00"), 1, "NUL byte"},
		{forever("a;*\n", "b"), 2, "a record longer than 4 MB"},
		{forever("a;*\n\"", "\n"), 2, "a record longer than 4 MB"},
	} {
		_, err := Parse("x", "h.csv", tt.in)
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.Line != tt.line || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("got %v, want line %d %q", err, tt.line, tt.msg)
		}
		if tt.in.read > 8<<20 {
			t.Errorf("read %d bytes before the error", tt.in.read)
		}
	}
	long := "a;*\n" + strings.Repeat("b", model.DefaultMaxCell+1) + ";*\n"
	_, err := Parse("x", "h.csv", strings.NewReader(long))
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.Line != 2 || ie.Column != 1 || !strings.Contains(err.Error(), "label is longer than 65536 bytes") {
		t.Fatalf("a long label: %v", err)
	}
}

// endless is an input that never ends: head, then body repeated forever.
// It fails the read (and so the test) once more than max bytes are asked
// for: a reader that is bounded by the record limit stops long before.
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

// TestDeepHierarchyRefused: a hierarchy file of a few MB whose rows have
// millions of levels took 1.5 GB; a row of more than MaxLevels levels is
// refused at its line, and MaxLevels levels still read.
func TestDeepHierarchyRefused(t *testing.T) {
	deep := func(levels int) string {
		var b strings.Builder
		for _, v := range []string{"1", "2"} {
			b.WriteString(v)
			b.WriteString(strings.Repeat(";x", levels-2))
			b.WriteString(";*\n")
		}
		return b.String()
	}
	_, err := Parse("x", "h.csv", strings.NewReader(deep(MaxLevels+1)))
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.Line != 1 || ie.Column != MaxLevels+1 || ie.Hint == "" ||
		!strings.Contains(err.Error(), "row has 16385 levels, more than 16384") {
		t.Fatalf("a row of %d levels: %v", MaxLevels+1, err)
	}
	h, err := Parse("x", "h.csv", strings.NewReader(deep(MaxLevels)))
	if err != nil {
		t.Fatalf("a row of %d levels: %v", MaxLevels, err)
	}
	if got := h.Height(); got != MaxLevels-1 {
		t.Errorf("height %d, want %d", got, MaxLevels-1)
	}
}

// TestParseMemoryPerValue: a hierarchy file of 200,000 values (1.7 MB)
// is parsed within 720 bytes allocated per value (about 590 today); node
// maps grown a step at a time and a map of every node's parent took 870.
func TestParseMemoryPerValue(t *testing.T) {
	var b strings.Builder
	const values = 200000
	for i := range values {
		fmt.Fprintf(&b, "%d;*\n", i)
	}
	text := b.String()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h, err := Parse("x", "h.csv", strings.NewReader(text))
	runtime.ReadMemStats(&after)
	if err != nil || len(h.Leaves) != values {
		t.Fatalf("%v", err)
	}
	if per := (after.TotalAlloc - before.TotalAlloc) / values; per > 720 {
		t.Errorf("%d bytes allocated per value, want at most 720", per)
	}
}
