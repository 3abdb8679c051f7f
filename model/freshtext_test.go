package model

import (
	"fmt"
	"strings"
	"testing"
)

// TestLoadFreshText: the text of new short values is gathered per chunk
// and set in the dictionary in one string (freshText): over several
// chunks, every row's value reads back as written and each dictionary
// holds the distinct values in order of first appearance — for whole
// numbers (the dense index), short words (some of two-byte letters),
// numbers with a leading zero and values over 8 bytes (kept as they
// come).
func TestLoadFreshText(t *testing.T) {
	rng := NewRand(4)
	const rows = 150_000
	var b strings.Builder
	b.WriteString("id,w,z,long\n")
	want := make([][4]string, rows)
	perm := rng.Perm(rows)
	for r := 0; r < rows; r++ {
		row := [4]string{
			fmt.Sprint(perm[r] / 2),                                // each id twice
			fmt.Sprintf("%sé%d", "ab"[r%2:r%2+1], rng.Intn(50000)), // 3 to 8 bytes
			fmt.Sprintf("0%d", rng.Intn(1000)),
			fmt.Sprintf("value-%d", rng.Intn(3*rows)), // 7 to 12 bytes
		}
		want[r] = row
		fmt.Fprintf(&b, "%s,%s,%s,%s\n", row[0], row[1], row[2], row[3])
	}
	if b.Len() < 3*chunkSize {
		t.Fatalf("the input (%d bytes) should span several chunks", b.Len())
	}
	tb, err := Load(strings.NewReader(b.String()), LoadOptions{Name: "fresh.csv", MissingTokens: []string{}, Kinds: map[string]Kind{"id": Categorical, "z": Categorical}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range tb.Columns {
		var dict []string
		seen := map[string]bool{}
		for r := 0; r < rows; r++ {
			if got := c.Dict[c.Codes[r]]; got != want[r][i] {
				t.Fatalf("%s row %d: %q, want %q", c.Name, r, got, want[r][i])
			}
			if !seen[want[r][i]] {
				seen[want[r][i]] = true
				dict = append(dict, want[r][i])
			}
		}
		if strings.Join(c.Dict, "\n") != strings.Join(dict, "\n") {
			t.Fatalf("%s: dictionary of %d values, want the %d distinct in order", c.Name, len(c.Dict), len(dict))
		}
	}
}
