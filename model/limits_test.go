package model

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
