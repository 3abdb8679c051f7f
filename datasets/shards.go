package datasets

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"privlab/model"
	"privlab/model/csvfile"
)

// Shards splits the rows Write would write, in order, into n consecutive
// runs (shard i holds rows i*rows/n up to (i+1)*rows/n) and hands each to
// write as a table, one at a time: a generated dataset is streamed, so
// memory holds one shard, not the table, and the memory check applies to a
// shard. Every shard reads its columns with the first shard's kinds, so
// the shards share one layout (a later shard whose cells do not fit those
// kinds is an error). Generators write one record per line.
func (d Dataset) Shards(rows int, seed uint64, n int, write func(i int, t *model.Table) error) error {
	if rows < 0 {
		return d.CheckRows(rows)
	}
	if d.Fixed {
		return d.fixedShards(n, write)
	}
	if rows == 0 {
		rows = d.DefaultRows
	}
	if err := checkShards(n, rows); err != nil {
		return err
	}
	if err := d.CheckRows((rows + n - 1) / n); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() {
		bw := bufio.NewWriterSize(pw, 256<<10)
		bw.WriteString(strings.Join(d.Columns, ",") + "\n")
		err := d.gen(bw, rows, seed)
		if err == nil {
			err = bw.Flush()
		}
		pw.CloseWithError(err)
	}()
	defer pr.CloseWithError(io.ErrClosedPipe) // unblocks the generator if a shard failed
	return d.splitLines(bufio.NewReaderSize(pr, 256<<10), rows, n, write)
}

// splitLines reads the header and rows lines of CSV from r, loading every
// shard's lines as a table.
func (d Dataset) splitLines(r *bufio.Reader, rows, n int, write func(i int, t *model.Table) error) error {
	header, err := r.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("dataset %s: %w", d.Name, err)
	}
	var kinds map[string]model.Kind
	var buf bytes.Buffer
	for i := range n {
		buf.Reset()
		buf.Write(header)
		for range (i+1)*rows/n - i*rows/n {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return fmt.Errorf("dataset %s shard %d: %w", d.Name, i, err)
			}
			buf.Write(line)
		}
		t, err := csvfile.Load(&buf, csvfile.LoadOptions{Name: fmt.Sprintf("dataset:%s shard %d", d.Name, i), Delimiter: ',', Kinds: kinds})
		if err != nil {
			return err
		}
		if kinds == nil {
			kinds = kindsOf(t)
		} else if len(t.Notes) > 0 {
			return fmt.Errorf("dataset %s shard %d does not read with the first shard's column kinds: %s", d.Name, i, t.Notes[0])
		}
		if err := write(i, t); err != nil {
			return err
		}
	}
	return nil
}

// fixedShards splits a fixed table, which is small, after loading it whole.
func (d Dataset) fixedShards(n int, write func(i int, t *model.Table) error) error {
	t, err := d.Load(0, 0)
	if err != nil {
		return err
	}
	if err := checkShards(n, t.Rows); err != nil {
		return err
	}
	for i := range n {
		rows := make([]int, 0, t.Rows/n+1)
		for r := i * t.Rows / n; r < (i+1)*t.Rows/n; r++ {
			rows = append(rows, r)
		}
		if err := write(i, t.SelectRows(rows)); err != nil {
			return err
		}
	}
	return nil
}

func checkShards(n, rows int) error {
	if n < 1 || n > rows {
		return &model.ParamError{Param: "shards", Value: fmt.Sprint(n), Reason: fmt.Sprintf("must be from 1 to the rows (%d)", rows),
			Hint: "the number of Parquet files the rows are split across, in order"}
	}
	return nil
}

func kindsOf(t *model.Table) map[string]model.Kind {
	kinds := make(map[string]model.Kind, len(t.Columns))
	for _, c := range t.Columns {
		kinds[c.Name] = c.Kind
	}
	return kinds
}
