package csvfile

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// onlyReader hides a reader's size (no presizing).
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// A table read from an input of known size (presized when a column's
// values are mostly distinct) is the table read from the same input of
// unknown size: columns of distinct short and long texts, dense
// integers, few values, missing values, values repeated after a
// distinct start, over one chunk and several.
func TestPresizedLoadIsLoad(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, rows := range []int{100, 600, 3000, 40000, 150000} {
		var b strings.Builder
		b.WriteString("id,short,long,few,late,num\n")
		for r := 0; r < rows; r++ {
			late := fmt.Sprint(r)
			if r > 700 {
				late = fmt.Sprint(rng.IntN(50))
			}
			short := fmt.Sprintf("s%d", rng.IntN(rows))
			if rng.IntN(20) == 0 {
				short = "NA"
			}
			fmt.Fprintf(&b, "%d,%s,value-number-%07d,%c,%s,%d.5\n", r, short, rng.IntN(2*rows), 'a'+rune(rng.IntN(3)), late, rng.IntN(rows))
		}
		text := b.String()
		sized, err := Load(bytes.NewReader([]byte(text)), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Load(onlyReader{strings.NewReader(text)}, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkTable(t, sized)
		checkFirstLines(t, sized)
		for i, c := range sized.Columns {
			p := plain.Columns[i]
			if !reflect.DeepEqual(c.Dict, p.Dict) || !reflect.DeepEqual(c.Codes, p.Codes) || !reflect.DeepEqual(c.FirstLines, p.FirstLines) ||
				!reflect.DeepEqual(c.Nums, p.Nums) || c.Kind != p.Kind || c.MissingCount != p.MissingCount {
				t.Fatalf("%d rows, column %s: presized differs", rows, c.Name)
			}
		}
	}
}

// A column of 20,000 distinct values read from an input of known size
// is indexed without doubling its index again and again: fewer
// allocations than from an input of unknown size (its dictionary is
// made at its final size either way).
func TestPresizedLoadAllocatesOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("v\n")
	for r := 0; r < 20000; r++ {
		fmt.Fprintf(&b, "s%05d\n", r)
	}
	data := []byte(b.String())
	keepChunks = false // every read allocates its chunks, as the first of a run does
	defer func() { keepChunks = true }()
	load := func(r io.Reader) {
		if _, err := Load(r, LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	sized := testing.AllocsPerRun(3, func() { load(bytes.NewReader(data)) })
	plain := testing.AllocsPerRun(3, func() { load(onlyReader{bytes.NewReader(data)}) })
	if sized > plain-10 {
		t.Fatalf("%v allocations presized, %v not: want at least 10 fewer (the doublings of the index)", sized, plain)
	}
}
