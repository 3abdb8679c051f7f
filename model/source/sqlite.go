package source

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"

	"privlab/model"
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

// openSQLite opens a database file read-only: privlab never writes its
// input (no journal is written either: the connection is query-only).
func openSQLite(path string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&_query_only=1"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, asInput(path, SQLite, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

func sqliteTables(path string) ([]string, error) {
	db, err := openSQLite(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return listTables(db, path)
}

func listTables(db *sql.DB, path string) ([]string, error) {
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`)
	if err != nil {
		return nil, asInput(path, SQLite, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, asInput(path, SQLite, err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, asInput(path, SQLite, err)
	}
	return out, nil
}

// tableOf finds the table part names (any case), or the only one.
func tableOf(db *sql.DB, path, part string) (string, error) {
	tables, err := listTables(db, path)
	if err != nil {
		return "", err
	}
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
		return model.NoKind
	case strings.Contains(d, "REAL"), strings.Contains(d, "FLOA"), strings.Contains(d, "DOUB"):
		return model.Numeric
	}
	return model.NoKind // NUMERIC affinity: numbers or text, the values say
}

// loadSQLite reads the table; limit > 0 reads that many rows at most (a
// preview).
func loadSQLite(path, part string, opt model.LoadOptions, limit int) (*model.Table, error) {
	db, err := openSQLite(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	table, err := tableOf(db, path, part)
	if err != nil {
		return nil, err
	}
	name := tableName(path, table)
	ctx := context.Background()
	names, declared, err := sqliteColumns(ctx, db, name, table)
	if err != nil {
		return nil, err
	}
	b, err := model.NewTableBuilder(name, names, declared, opt)
	if err != nil {
		return nil, err
	}
	var count int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(table)).Scan(&count); err != nil {
		return nil, asInput(name, SQLite, err)
	}
	if count > 1<<31-1 {
		return nil, &model.InputError{File: name, Msg: fmt.Sprintf("holds %d rows, more than a table can hold", count)}
	}
	if limit > 0 && count > int64(limit) {
		count = int64(limit)
	}
	if err := b.Reserve(int(count)); err != nil {
		return nil, err
	}
	if err := sqliteRows(ctx, db, name, table, names, b, limit); err != nil {
		return nil, err
	}
	return b.Table()
}

// sqliteColumns reads the table's column names and declared types.
func sqliteColumns(ctx context.Context, db *sql.DB, name, table string) ([]string, []model.Kind, error) {
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+quoteIdent(table)+" LIMIT 0")
	if err != nil {
		return nil, nil, asInput(name, SQLite, err)
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, asInput(name, SQLite, err)
	}
	names := make([]string, len(types))
	kinds := make([]model.Kind, len(types))
	for i, t := range types {
		names[i], kinds[i] = t.Name(), affinity(t.DatabaseTypeName())
	}
	return names, kinds, nil
}

// sqliteRows reads every row. Each column is selected as +"col" (the
// unary plus keeps the value and its storage class but drops the declared
// type, so the driver hands text over as text, never as a time value).
func sqliteRows(ctx context.Context, db *sql.DB, name, table string, names []string, b *model.TableBuilder, limit int) error {
	cols := make([]string, len(names))
	for i, n := range names {
		cols[i] = "+" + quoteIdent(n)
	}
	query := "SELECT " + strings.Join(cols, ", ") + " FROM " + quoteIdent(table)
	if limit > 0 {
		query += " LIMIT " + strconv.Itoa(limit)
	}
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return asInput(name, SQLite, err)
	}
	defer rows.Close()
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	buf := make([]byte, 0, 64) // never nil: nil text means NULL
	for row := 1; rows.Next(); row++ {
		if err := rows.Scan(ptrs...); err != nil {
			return asInput(name, SQLite, err)
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
		return asInput(name, SQLite, err)
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
