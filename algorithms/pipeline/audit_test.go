package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"privlab/model"
)

// ReadAudit reads an unchanged audit record once (check --original asks
// for it three times; a million-row record takes a second to read), and
// reads it again once it changed.
func TestReadAuditOnceWhileUnchanged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	path := model.AuditPath(dir)
	write := func(seed string, mod time.Time) {
		if err := os.WriteFile(path, []byte(`{"input": "a.csv", "seed": `+seed+`, "seed_fixed": true, "release": "rel"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().Add(-time.Hour)
	write("1", at)
	a, err := ReadAudit(dir)
	if err != nil || a.Seed != 1 {
		t.Fatalf("%+v, %v", a, err)
	}
	if b, err := ReadAudit(dir); err != nil || b != a {
		t.Fatalf("read again: %p, %v (want the record read, %p)", b, err, a)
	}
	write("2", at.Add(time.Second)) // same size, later
	if c, err := ReadAudit(dir); err != nil || c.Seed != 2 {
		t.Fatalf("after a change: %+v, %v", c, err)
	}
	os.Remove(path)
	if _, err := ReadAudit(dir); err == nil {
		t.Fatalf("a removed record still reads")
	}
}
