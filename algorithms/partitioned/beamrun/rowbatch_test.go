//go:build beam

package beamrun

import (
	"fmt"
	"reflect"
	"testing"
)

// TestRowBatches sends more than two batches' worth of rows to one
// partition and a few to another: every row comes back once, in order,
// and only the last batch of each partition is short.
func TestRowBatches(t *testing.T) {
	emitted := map[int][][]byte{}
	batches := newRowBatches(func(part int, b []byte) { emitted[part] = append(emitted[part], b) })
	want := map[int][][]string{}
	for i := range 2*batchRows + 20 {
		part := 0
		if i%1000 == 0 {
			part = 3
		}
		row := []string{fmt.Sprint(i), "", "Zürich, \"quoted\"\n"}
		want[part] = append(want[part], row)
		batches.add(part, row)
	}
	batches.flush()
	if len(want[0]) <= 2*batchRows || len(want[3]) >= batchRows {
		t.Fatalf("the test wants more than two batches in partition 0 and one in partition 3, has %d and %d rows", len(want[0]), len(want[3]))
	}
	if len(emitted[0]) != 3 || len(emitted[3]) != 1 {
		t.Fatalf("got %d and %d batches, want 3 and 1", len(emitted[0]), len(emitted[3]))
	}
	for part, list := range emitted {
		var rows [][]string
		for _, b := range list {
			var err error
			if rows, err = appendBatch(rows, b); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(rows, want[part]) {
			t.Errorf("partition %d: rows differ after the round trip", part)
		}
	}
	batches.flush()
	if len(emitted[0]) != 3 {
		t.Error("a second flush emitted again")
	}
}

func TestAppendBatchRefusesACorruptBatch(t *testing.T) {
	whole := appendRow(nil, []string{"alpha", "beta"})
	for cut := 1; cut < len(whole); cut++ {
		if _, err := appendBatch(nil, whole[:cut]); err != errBadBatch {
			t.Errorf("batch cut at %d of %d: got %v, want errBadBatch", cut, len(whole), err)
		}
	}
	if rows, err := appendBatch(nil, whole); err != nil || !reflect.DeepEqual(rows, [][]string{{"alpha", "beta"}}) {
		t.Errorf("whole batch: got %q, %v", rows, err)
	}
}
