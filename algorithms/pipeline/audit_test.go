package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"privlab/model"
	"privlab/model/releasedir"
)

// rewrite writes text to path and sets its modification time.
func rewrite(t *testing.T, path, text string, mod time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
}

// Files.ReadAudit reads an unchanged audit record once (check --original
// asks for it three times; a million-row record takes a second to read),
// and reads it again once it changed: rewritten at the same size with a
// new time, grown, or replaced by another file of the same size and time.
func TestReadAuditOnceWhileUnchanged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	path := releasedir.AuditPath(dir)
	record := func(seed string) string {
		return `{"input": "a.csv", "seed": ` + seed + `, "seed_fixed": true, "release": "rel"}`
	}
	f := &Cache{}
	read := func(want uint64) *releasedir.Audit {
		t.Helper()
		a, err := f.ReadAudit(dir)
		if err != nil || a.Seed != want {
			t.Fatalf("%+v, %v (want seed %d)", a, err, want)
		}
		return a
	}
	at := time.Now().Add(-time.Hour)
	rewrite(t, path, record("1"), at)
	a := read(1)
	if b := read(1); b != a {
		t.Fatalf("read again: %p (want the record read, %p)", b, a)
	}
	rewrite(t, path, record("2"), at.Add(time.Second)) // same size, later
	read(2)
	rewrite(t, path, record("30"), at.Add(time.Second)) // grown, same time
	read(30)
	other := filepath.Join(filepath.Dir(dir), "other.json")
	rewrite(t, other, record("40"), at.Add(time.Second)) // same size and time
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	read(40)
	if c, err := (*Cache)(nil).ReadAudit(dir); err != nil || c.Seed != 40 {
		t.Fatalf("without Files: %+v, %v", c, err)
	}
	os.Remove(path)
	if _, err := f.ReadAudit(dir); err == nil {
		t.Fatalf("a removed record still reads")
	}
}

// The workbench's preview attacks read the project's population through
// its session's Files: a population file that grew from 2 to 4 rows is
// read again (it used to be kept by its path, 2 rows, while an export
// loaded 4), as is one rewritten at the same size with a new time.
func TestPreviewPopulationReadAgainWhenChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "population.csv")
	e := Env{Cache: &Cache{}}
	p := &Prepared{Project: Project{Population: path}}
	population := func(wantRows int, wantFirst string) *model.Table {
		t.Helper()
		k, err := e.previewKnowledge(p)
		if err != nil {
			t.Fatal(err)
		}
		pop := k.Population
		if pop.Rows != wantRows || pop.Column("age").Value(0) != wantFirst || k.PopulationName != PopulationWords(wantRows) {
			t.Fatalf("population of %d rows, first %q, named %q; want %d rows, first %q", pop.Rows, pop.Column("age").Value(0), k.PopulationName, wantRows, wantFirst)
		}
		fresh, _, err := e.LoadPopulation(path, nil, 0)
		if err != nil || fresh.Rows != pop.Rows {
			t.Fatalf("a fresh load reads %v rows (%v), the preview %d", fresh, err, pop.Rows)
		}
		return pop
	}
	at := time.Now().Add(-time.Hour)
	rewrite(t, path, "age,zip\n31,100\n32,200\n", at)
	first := population(2, "31")
	if again := population(2, "31"); again != first {
		t.Fatalf("an unchanged population was loaded again")
	}
	rewrite(t, path, "age,zip\n31,100\n32,200\n33,300\n34,400\n", at)
	population(4, "31")
	rewrite(t, path, "age,zip\n41,100\n42,200\n43,300\n44,400\n", at.Add(time.Second))
	population(4, "41")
}
