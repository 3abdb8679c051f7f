package source

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"privlab/model"
)

// Small files that expand (issue 32): each is refused with an input error
// naming the file, fast, before it takes the memory it asks for; a read
// that takes long stops when its context is cancelled.

// bombDB writes a database of the given statements with the driver.
func bombDB(t *testing.T, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bomb.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return path
}

// wantInputError loads spec and checks the error names file, line and
// says want, within limit.
func wantInputError(t *testing.T, spec string, opt model.LoadOptions, file string, line int, want string, limit time.Duration) {
	t.Helper()
	start := time.Now()
	tb, err := Load(spec, opt)
	took := time.Since(start)
	var ie *model.InputError
	if tb != nil || !errors.As(err, &ie) || ie.File != file || ie.Line != line || !strings.Contains(ie.Msg, want) {
		t.Fatalf("%s: %v (%#v), want an input error naming %s line %d: %q", spec, err, ie, file, line, want)
	}
	if took > limit {
		t.Errorf("%s: refused after %v, more than %v", spec, took, limit)
	}
}

// A view that counts without end (a recursive WITH) is refused once it
// has yielded more rows than the database could hold; the same view
// limited to fewer rows reads.
func TestSQLiteEndlessView(t *testing.T) {
	path := bombDB(t,
		`CREATE VIEW v AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT x AS a, 'm' AS b FROM n`,
		`CREATE VIEW w AS SELECT * FROM v LIMIT 5`)
	wantInputError(t, path+":v", model.LoadOptions{}, path+":v", 0,
		"the view yields more than 1,048,576 rows, more than a database of 4096 bytes could hold", 2*time.Second)
	tb, err := Load(path+":w", model.LoadOptions{})
	if err != nil || tb.Rows != 5 || strings.Join(tb.Column("a").Dict, ",") != "1,2,3,4,5" {
		t.Fatalf("a view of 5 rows: %v %v", tb, err)
	}
	// A preview reads its first rows.
	tb, err = Preview(path+":v", model.LoadOptions{}, 3)
	if err != nil || tb.Rows != 3 {
		t.Fatalf("a preview of the endless view: %v %v", tb, err)
	}
}

// A view that computes one value of 900 MB fails as SQLite builds it
// (its length limit), naming the row.
func TestSQLiteHugeValue(t *testing.T) {
	path := bombDB(t,
		`CREATE VIEW big AS SELECT 1 AS a, printf('%.*c', 900000000, 'x') AS b`,
		`CREATE VIEW blob AS SELECT 1 AS a, zeroblob(900000000) AS b`)
	for _, v := range []string{"big", "blob"} {
		wantInputError(t, path+":"+v, model.LoadOptions{}, path+":"+v, 1, "a value or row longer than 16 MB", 2*time.Second)
	}
	// Below SQLite's limit, the cell limit names the cell.
	path = bombDB(t, `CREATE VIEW v AS SELECT 1 AS a, printf('%.*c', 100000, 'x') AS b`)
	wantInputError(t, path+":v", model.LoadOptions{}, path+":v", 1, "value is longer than 65536 bytes", 2*time.Second)
	if tb, err := Load(path+":v", model.LoadOptions{MaxCell: -1}); err != nil || len(tb.Column("b").Dict[0]) != 100000 {
		t.Fatalf("without a cell limit: %v %v", tb, err)
	}
}

// A view that takes long to compute stops when the context is
// cancelled, with the context's error.
func TestSQLiteReadCancelled(t *testing.T) {
	path := bombDB(t, `CREATE VIEW slow AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 4000000000) SELECT count(*) AS a FROM n`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	tb, err := LoadContext(ctx, path+":slow", model.LoadOptions{})
	if tb != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v %v", tb, err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("stopped %v after it was cancelled", took-100*time.Millisecond)
	}
}
