//go:build beam

package beamrun

import (
	"encoding/binary"
	"errors"
	"slices"
)

// batchRows is how many rows of one partition the read stage packs into
// one element. Runners pay a fixed cost per element (Prism keeps each in
// its in-memory shuffle with a timestamp, window and heap entry), which
// for rows of a few short cells is many times the rows' own bytes; a
// batch pays it once for thousands of rows.
const batchRows = 4096

// rowBatches gathers one input's rows by partition into encoded batches.
type rowBatches struct {
	emit    func(int, []byte)
	pending map[int][]byte
	counts  map[int]int
}

func newRowBatches(emit func(int, []byte)) *rowBatches {
	return &rowBatches{emit: emit, pending: map[int][]byte{}, counts: map[int]int{}}
}

// add appends row to its partition's batch, emitting the batch when full.
func (b *rowBatches) add(part int, row []string) {
	b.pending[part] = appendRow(b.pending[part], row)
	if b.counts[part]++; b.counts[part] == batchRows {
		b.emit(part, b.pending[part])
		delete(b.pending, part)
		delete(b.counts, part)
	}
}

// flush emits every partly filled batch, in partition order.
func (b *rowBatches) flush() {
	parts := make([]int, 0, len(b.pending))
	for part := range b.pending {
		parts = append(parts, part)
	}
	slices.Sort(parts)
	for _, part := range parts {
		b.emit(part, b.pending[part])
	}
	clear(b.pending)
	clear(b.counts)
}

// appendRow encodes row after buf: its cell count, then each cell's
// length and bytes (unsigned varints).
func appendRow(buf []byte, row []string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(row)))
	for _, cell := range row {
		buf = binary.AppendUvarint(buf, uint64(len(cell)))
		buf = append(buf, cell...)
	}
	return buf
}

var errBadBatch = errors.New("beamrun: a row batch is truncated or corrupt")

// appendBatch decodes a batch appendRow wrote and appends its rows to
// rows. The cells share one string per batch (one allocation for all of
// them).
func appendBatch(rows [][]string, batch []byte) ([][]string, error) {
	text := string(batch)
	at := 0
	next := func() (int, bool) {
		v, n := binary.Uvarint(batch[at:])
		if n <= 0 || v > uint64(len(batch)-at-n) {
			return 0, false
		}
		at += n
		return int(v), true
	}
	for at < len(batch) {
		cells, ok := next()
		if !ok {
			return rows, errBadBatch
		}
		row := make([]string, cells)
		for i := range row {
			size, ok := next()
			if !ok {
				return rows, errBadBatch
			}
			row[i] = text[at : at+size]
			at += size
		}
		rows = append(rows, row)
	}
	return rows, nil
}
