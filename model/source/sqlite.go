package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dustin/go-humanize"

	"modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"privlab/model"
	"privlab/model/csvfile"
)

// A SQLite table (or view) is read through database/sql, the database
// opened read-only and query-only. Kinds come from the columns' declared
// types by SQLite's affinity rules (Section 3.1 of "Datatypes In SQLite"):
// INTEGER and REAL affinity are numeric, TEXT affinity categorical (a TEXT
// column of zip codes keeps its leading zeros), NUMERIC and BLOB affinity
// (DATE, DECIMAL, no type) let the values decide. A NULL is a missing
// value; a BLOB must hold UTF-8 text. Dates stored as text are read as
// their text (the driver's conversion to time values is bypassed). Errors
// name the table, the row (1-based, in the order the table is read) and
// the column.

// querier is the one connection a database is read through (its limits
// are set on it).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// openSQLite opens a database file read-only: privlab never writes its
// input (no journal is written either: the connection is query-only). The
// connection's longest string, BLOB or row is limited (SQLite's
// SQLITE_LIMIT_LENGTH) to sqliteMaxLength(maxCell), so that a view
// computing one huge value fails as SQLite builds it. The returned
// function closes the connection and the database.
func openSQLite(ctx context.Context, path string, maxCell int) (*sql.Conn, func(), error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&_query_only=1"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, nil, asInput(path, SQLite, err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, nil, sqliteError(ctx, path, 0, maxCell, err)
	}
	closeAll := func() { conn.Close(); db.Close() }
	if n := sqliteMaxLength(maxCell); n > 0 {
		if _, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, n); err != nil {
			closeAll()
			return nil, nil, asInput(path, SQLite, err)
		}
	}
	return conn, closeAll, nil
}

// sqliteMaxLength is the longest string, BLOB or row SQLite may make
// while a table is read with the given cell limit (csvfile.LoadOptions):
// room for a row of many cells, far below the memory a runaway value
// would take; 0 (SQLite's own limit) when the cells are not limited.
func sqliteMaxLength(maxCell int) int {
	switch {
	case maxCell < 0:
		return 0
	case maxCell == 0:
		maxCell = model.DefaultMaxCell
	}
	return max(maxCell+1, sqliteMinLength)
}

// sqliteMinLength is the least of SQLite's length limit: a row that a
// view sorts or groups is one value of that length.
const sqliteMinLength = 16 << 20

// sqliteError turns an error of SQLite into what the user reads: the
// context's error when it was cancelled (Ctrl-C, a newer load), a value
// over the length limit as the cell limit's input error (row is the row
// being read, 0 when none is), else an input error naming the file.
func sqliteError(ctx context.Context, name string, row, maxCell int, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_TOOBIG {
		return &model.InputError{File: name, Line: row,
			Msg:   fmt.Sprintf("a value or row longer than %s (SQLite: %v)", sizeText(sqliteMaxLength(maxCell)), err),
			Fixes: []model.Fix{{Setting: model.SetMaxCell}}}
	}
	return asInput(name, SQLite, err)
}

func sqliteTables(path string) ([]string, error) {
	ctx := context.Background()
	conn, done, err := openSQLite(ctx, path, 0)
	if err != nil {
		return nil, err
	}
	defer done()
	tables, _, err := listTables(ctx, conn, path)
	return tables, err
}

// listTables lists the tables and views of the database, and which are
// views.
func listTables(ctx context.Context, q querier, path string) ([]string, map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`)
	if err != nil {
		return nil, nil, sqliteError(ctx, path, 0, 0, err)
	}
	defer rows.Close()
	var out []string
	views := map[string]bool{}
	for rows.Next() {
		var n, typ string
		if err := rows.Scan(&n, &typ); err != nil {
			return nil, nil, sqliteError(ctx, path, 0, 0, err)
		}
		out = append(out, n)
		views[n] = typ == "view"
	}
	if err := rows.Err(); err != nil {
		return nil, nil, sqliteError(ctx, path, 0, 0, err)
	}
	return out, views, nil
}

// tableOf finds the table part names (any case), or the only one.
func tableOf(tables []string, path, part string) (string, error) {
	if part == "" {
		if len(tables) == 1 {
			return tables[0], nil
		}
		hint := "the database holds no tables"
		if len(tables) > 0 {
			hint = "name one: " + path + ":TABLE (tables: " + strings.Join(quoteAll(tables), ", ") + ")"
		}
		return "", &model.InputError{File: path, Msg: "which table? a database holds tables, a table is read", Hint: hint}
	}
	for _, t := range tables {
		if t == part {
			return t, nil
		}
	}
	for _, t := range tables {
		if strings.EqualFold(t, part) {
			return t, nil
		}
	}
	return "", notFound(path, "table", part, tables)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// affinity is the kind a declared column type gives (SQLite's rules).
func affinity(decl string) model.Kind {
	d := strings.ToUpper(decl)
	switch {
	case strings.Contains(d, "INT"):
		return model.Numeric
	case strings.Contains(d, "CHAR"), strings.Contains(d, "CLOB"), strings.Contains(d, "TEXT"):
		return model.Categorical
	case d == "", strings.Contains(d, "BLOB"):
		return csvfile.NoKind
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return model.Numeric
	}
	return csvfile.NoKind // NUMERIC affinity: numbers or text, the values say
}

// loadSQLite reads the table; limit > 0 reads that many rows at most (a
// preview). The queries run under ctx: cancelling it interrupts SQLite.
func loadSQLite(ctx context.Context, path, part string, opt csvfile.LoadOptions, limit int) (*model.Table, error) {
	conn, done, err := openSQLite(ctx, path, opt.MaxCell)
	if err != nil {
		return nil, err
	}
	defer done()
	tables, views, err := listTables(ctx, conn, path)
	if err != nil {
		return nil, err
	}
	table, err := tableOf(tables, path, part)
	if err != nil {
		return nil, err
	}
	name := tableName(path, table)
	if !views[table] {
		return readSQLite(ctx, conn, path, table, false, opt, limit)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err)}
	}
	budget := maxViewTime(st.Size())
	vctx, cancel := context.WithTimeoutCause(ctx, budget, errViewTooSlow)
	defer cancel()
	t, err := readSQLite(vctx, conn, path, table, true, opt, limit)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(vctx), errViewTooSlow) {
		return nil, &model.InputError{File: name, Msg: fmt.Sprintf("the view computed for more than %v on a database of %s: it makes work of its own (a recursive WITH that counts far?)", budget, sizeText(st.Size())),
			Hint: "read a table, or store the rows you mean in one: CREATE TABLE t AS SELECT * FROM view"}
	}
	return t, err
}

// errViewTooSlow is the cause of a view's reading stopped by maxViewTime.
var errViewTooSlow = errors.New("the view computes too long")

// viewTimeBase is the time any view may take to read; maxViewTime adds
// to it with the database's size.
var viewTimeBase = 15 * time.Second

// maxViewTime is the longest a view of a database of size bytes may take
// to read: a view computes its rows, and one that takes longer than
// viewTimeBase plus a second per MB (SQLite scans a hundred times as
// fast) computes far more than its database holds (a recursive WITH
// that counts to 10^9 and yields one row); without a bound it is a hang.
func maxViewTime(size int64) time.Duration {
	return viewTimeBase + time.Duration(size>>20)*time.Second
}

// readSQLite reads the table (a view when view is true) of the open
// database.
func readSQLite(ctx context.Context, conn *sql.Conn, path, table string, view bool, opt csvfile.LoadOptions, limit int) (*model.Table, error) {
	name := tableName(path, table)
	names, declared, err := sqliteColumns(ctx, conn, name, table, opt.MaxCell)
	if err != nil {
		return nil, err
	}
	b, err := csvfile.NewTableBuilder(name, names, declared, opt)
	if err != nil {
		return nil, err
	}
	count, err := sqliteCount(ctx, conn, path, table, view, opt.MaxCell, limit)
	if err != nil {
		return nil, err
	}
	if err := b.Reserve(count); err != nil {
		return nil, err
	}
	if err := sqliteRows(ctx, conn, name, table, names, b, count, opt.MaxCell); err != nil {
		return nil, err
	}
	return b.Table()
}

// maxViewRows is the most rows a view of a database of size bytes may
// yield: a view computes its rows, and one that yields more rows than the
// database has bytes makes them out of nothing (a recursive WITH without
// an end yields rows forever); a small database's view may still yield
// minViewRows (a join of small tables).
func maxViewRows(size int64) int64 {
	return max(size, minViewRows)
}

// minViewRows is the most rows any database's view may yield.
const minViewRows = 1 << 20

// sqliteCount counts the rows to read: limit at most when it is above 0
// (a preview). A view is counted up to maxViewRows; a table holds at most
// as many rows as a table can.
func sqliteCount(ctx context.Context, q querier, path, table string, view bool, maxCell, limit int) (int, error) {
	name := tableName(path, table)
	bound, size := int64(1<<31-1), int64(0)
	if view {
		st, err := os.Stat(path)
		if err != nil {
			return 0, &model.InputError{File: path, Msg: csvfile.OpenReason(err)}
		}
		size = st.Size()
		bound = maxViewRows(size)
	}
	if limit > 0 {
		bound = min(bound, int64(limit))
	}
	query := "SELECT count(*) FROM " + quoteIdent(table)
	if view || limit > 0 {
		// Counted no further than one row past the bound.
		query = "SELECT count(*) FROM (SELECT 1 FROM " + quoteIdent(table) + " LIMIT " + strconv.FormatInt(bound+1, 10) + ")"
	}
	var count int64
	if err := q.QueryRowContext(ctx, query).Scan(&count); err != nil {
		return 0, sqliteError(ctx, name, 0, maxCell, err)
	}
	switch {
	case count <= bound:
		return int(count), nil
	case limit > 0:
		return limit, nil
	case view:
		return 0, &model.InputError{File: name, Msg: fmt.Sprintf("the view yields more than %s rows, more than a database of %s could hold: it makes rows of its own (a recursive WITH without an end?)", humanize.Comma(bound), sizeText(size)),
			Hint: "read a table, or store the rows you mean in one: CREATE TABLE t AS SELECT * FROM view LIMIT n"}
	}
	return 0, &model.InputError{File: name, Msg: fmt.Sprintf("holds %d rows, more than a table can hold", count), Hint: tooManyRowsHint}
}

// tooManyRowsHint is the hint of a file that states more rows than a
// table holds (2,147,483,647): a damaged file states any number.
const tooManyRowsHint = "a table holds at most 2,147,483,647 rows; is the file damaged? load a sample of its rows"

// sqliteColumns reads the table's column names and declared types.
func sqliteColumns(ctx context.Context, q querier, name, table string, maxCell int) ([]string, []model.Kind, error) {
	rows, err := q.QueryContext(ctx, "SELECT * FROM "+quoteIdent(table)+" LIMIT 0")
	if err != nil {
		return nil, nil, sqliteError(ctx, name, 0, maxCell, err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, sqliteError(ctx, name, 0, maxCell, err)
	}
	names := make([]string, len(types))
	kinds := make([]model.Kind, len(types))
	for i, t := range types {
		names[i], kinds[i] = t.Name(), affinity(t.DatabaseTypeName())
	}
	return names, kinds, nil
}

// sqliteRows reads count rows (a table that yields another number of
// them changed while it was read). Each column is selected as +"col" (the
// unary plus keeps the value and its storage class but drops the declared
// type, so the driver hands text over as text, never as a time value).
func sqliteRows(ctx context.Context, q querier, name, table string, names []string, b *csvfile.TableBuilder, count, maxCell int) error {
	cols := make([]string, len(names))
	for i, n := range names {
		cols[i] = "+" + quoteIdent(n)
	}
	query := "SELECT " + strings.Join(cols, ", ") + " FROM " + quoteIdent(table) + " LIMIT " + strconv.Itoa(count)
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return sqliteError(ctx, name, 1, maxCell, err)
	}
	defer rows.Close()
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	buf := make([]byte, 0, 64) // never nil: nil text means NULL
	row := 1
	for ; rows.Next(); row++ {
		if err := rows.Scan(ptrs...); err != nil {
			return sqliteError(ctx, name, row, maxCell, err)
		}
		for i, v := range vals {
			w := b.Column(i)
			text, bad := sqlText(buf[:0], v)
			if text != nil {
				buf = text
			}
			switch {
			case bad != "":
				return &model.InputError{File: name, Line: row, Column: i + 1, Field: names[i], Msg: bad,
					Hint: "privlab reads text and numbers; leave the value NULL or convert it"}
			case text == nil:
				w.Append(model.Missing)
			default:
				code, err := w.Code(text, row)
				if err != nil {
					return err
				}
				w.Append(code)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return sqliteError(ctx, name, row, maxCell, err)
	}
	return nil
}

// sqlText is a value's text (nil for NULL or NaN), or why it has none.
func sqlText(dst []byte, v any) ([]byte, string) {
	switch x := v.(type) {
	case nil:
		return nil, ""
	case int64:
		return strconv.AppendInt(dst, x, 10), ""
	case float64:
		t, err := appendFloat(dst, x, 64)
		if err != nil {
			return nil, err.Error()
		}
		return t, ""
	case string:
		return append(dst, x...), ""
	case []byte:
		if !utf8.Valid(x) {
			return nil, "a BLOB of binary data, not text"
		}
		return append(dst, x...), ""
	case bool:
		return strconv.AppendBool(dst, x), ""
	}
	return fmt.Appendf(dst, "%v", v), ""
}
