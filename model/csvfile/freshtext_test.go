package csvfile

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"privlab/model"
)

// TestLoadFreshText: the text of new short values is gathered per chunk
// and set in the dictionary in one string (freshText): over several
// chunks, every row's value reads back as written and each dictionary
// holds the distinct values in order of first appearance — for whole
// numbers (the dense index), short words (some of two-byte letters),
// numbers with a leading zero and values over 8 bytes (kept as they
// come); each value's first line is its first row's.
func TestLoadFreshText(t *testing.T) {
	rng := model.NewRand(4)
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
	tb, err := Load(strings.NewReader(b.String()), LoadOptions{Name: "fresh.csv", MissingTokens: []string{}, Kinds: map[string]model.Kind{"id": model.Categorical, "z": model.Categorical}})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range tb.Columns {
		var dict []string
		var lines []int
		seen := map[string]bool{}
		for r := 0; r < rows; r++ {
			if got := c.Dict[c.Codes[r]]; got != want[r][i] {
				t.Fatalf("%s row %d: %q, want %q", c.Name, r, got, want[r][i])
			}
			if !seen[want[r][i]] {
				seen[want[r][i]] = true
				dict = append(dict, want[r][i])
				lines = append(lines, r+2) // the header is line 1
			}
		}
		if strings.Join(c.Dict, "\n") != strings.Join(dict, "\n") {
			t.Fatalf("%s: dictionary of %d values, want the %d distinct in order", c.Name, len(c.Dict), len(dict))
		}
		if !slices.Equal(c.FirstLines, lines) {
			t.Fatalf("%s: first lines differ from the values' first rows", c.Name)
		}
	}
}

// TestLoadDenseBlock: encodeColumn reads the dense index for a block of
// records at once (probeDense) before it adds a block's new values; a
// value repeated inside its block, a missing token that is a whole
// number and values beyond the dense range get the same codes, missing
// count and dictionary as a map from text to first appearance gives.
func TestLoadDenseBlock(t *testing.T) {
	rng := model.NewRand(9)
	const rows = 20_000
	var b strings.Builder
	b.WriteString("g\n")
	var want []string
	perm := rng.Perm(rows / 3)
	for r := 0; r < rows; r++ {
		v := fmt.Sprint(perm[(r/3)%len(perm)]) // three times in a row: within a block
		switch r % 97 {
		case 5:
			v = "3" // the missing token
		case 11:
			v = fmt.Sprint(90_000_000 + rng.Intn(50)) // beyond the dense range
		}
		want = append(want, v)
		fmt.Fprintf(&b, "%s\n", v)
	}
	tb, err := Load(strings.NewReader(b.String()), LoadOptions{Name: "g.csv", MissingTokens: []string{"3"}, Kinds: map[string]model.Kind{"g": model.Categorical}})
	if err != nil {
		t.Fatal(err)
	}
	c := tb.Columns[0]
	code := map[string]uint32{}
	var dict []string
	missing := 0
	for r, v := range want {
		if v == "3" {
			missing++
			if c.Codes[r] != model.Missing {
				t.Fatalf("row %d: %q is the missing token, code %d", r, v, c.Codes[r])
			}
			continue
		}
		k, ok := code[v]
		if !ok {
			k = uint32(len(dict))
			code[v] = k
			dict = append(dict, v)
		}
		if c.Codes[r] != k {
			t.Fatalf("row %d (%q): code %d, want %d", r, v, c.Codes[r], k)
		}
	}
	if c.MissingCount != missing || strings.Join(c.Dict, ",") != strings.Join(dict, ",") {
		t.Fatalf("missing %d (want %d), dictionary of %d values (want %d)", c.MissingCount, missing, len(c.Dict), len(dict))
	}
	if len(tb.Columns[0].Dict) < 1000 || len(c.Codes) != rows {
		t.Fatalf("%d values over %d rows", len(c.Dict), len(c.Codes))
	}
}
