package ambiguity

import (
	"fmt"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
)

// TestDistinctTuples: the distinct combinations and their counts, in
// lexicographic order of the codes, agree with a map over the records,
// both when the codes pack into 64 bits and when they do not (five
// columns of 8,192 values need 70 bits), and records with a missing
// value are left out.
func TestDistinctTuples(t *testing.T) {
	for _, c := range []struct {
		rows, dom int
		packed    bool
	}{{500, 3, true}, {9000, 8192, false}} {
		rng := model.NewRand(uint64(c.rows))
		var b strings.Builder
		b.WriteString("a,b,c,d,e,s\n")
		for r := 0; r < c.rows; r++ {
			for i := 0; i < 5; i++ {
				v := rng.Intn(c.dom)
				if r < c.dom { // every value occurs: the dictionaries are full
					v = r
				}
				fmt.Fprintf(&b, "v%d,", v)
			}
			if r%97 == 5 {
				b.WriteString("?\n")
			} else {
				b.WriteString("s\n")
			}
		}
		tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "wide"})
		if err != nil {
			t.Fatal(err)
		}
		var cols []*model.Column
		for _, name := range []string{"a", "b", "c", "d", "e"} {
			cols = append(cols, tb.Column(name))
		}
		width := 0
		for _, col := range cols {
			width += len(fmt.Sprintf("%b", len(col.Dict)))
		}
		if (width <= 64) != c.packed {
			t.Fatalf("%d bits: the case does not test the path it names", width)
		}
		sa := tb.Column("s")
		want := map[string]int{}
		missing := 0
		for r := 0; r < tb.Rows; r++ {
			if sa.IsMissing(r) {
				missing++
				continue
			}
			want[fmt.Sprint(cols[0].Codes[r], cols[1].Codes[r], cols[2].Codes[r], cols[3].Codes[r], cols[4].Codes[r])]++
		}
		if missing == 0 {
			t.Fatal("no record has a missing value")
		}
		tuples, counts := distinctTuples(cols, sa)
		if len(counts) != len(want) {
			t.Fatalf("%d distinct combinations, want %d", len(counts), len(want))
		}
		for x := range counts {
			tu := tuples[x*5 : x*5+5]
			if key := fmt.Sprint(tu[0], tu[1], tu[2], tu[3], tu[4]); want[key] != counts[x] {
				t.Fatalf("combination %s: %d records, want %d", key, counts[x], want[key])
			}
			if x > 0 {
				prev := tuples[x*5-5 : x*5]
				for i := range tu {
					if tu[i] != prev[i] {
						if tu[i] < prev[i] {
							t.Fatalf("combinations %v, %v out of order", prev, tu)
						}
						break
					}
				}
			}
		}
	}
}
