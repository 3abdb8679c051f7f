package csvfile

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Chunks kept from one table read serve the next (a run reads its input,
// then every file of its release): tables of other widths, sizes and
// quoting, read one after another and at once, come out exactly as read
// with fresh chunks.
func TestKeptChunksReadLikeFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var inputs [][]byte
	for i := 0; i < 12; i++ {
		cols := 1 + rng.IntN(20)
		rows := rng.IntN(3) * (1 + rng.IntN(40000)) // some empty, some over a chunk
		var b strings.Builder
		for c := 0; c < cols; c++ {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "c%d", c)
		}
		b.WriteByte('\n')
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				if c > 0 {
					b.WriteByte(',')
				}
				switch rng.IntN(4) {
				case 0:
					fmt.Fprintf(&b, "%d", rng.IntN(1000))
				case 1:
					fmt.Fprintf(&b, "\"q,%d\nx\"", rng.IntN(50))
				default:
					fmt.Fprintf(&b, "v%d", rng.IntN(300))
				}
			}
			b.WriteByte('\n')
		}
		inputs = append(inputs, []byte(b.String()))
	}
	read := func(in []byte) any {
		tab, err := Load(bytes.NewReader(in), LoadOptions{})
		if err != nil {
			return err.Error()
		}
		return tab
	}
	keepChunks = false
	want := make([]any, len(inputs))
	for i, in := range inputs {
		want[i] = read(in)
	}
	keepChunks = true
	for round := 0; round < 2; round++ {
		for i, in := range inputs {
			if got := read(in); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("round %d, input %d read after others differs from a fresh read", round, i)
			}
		}
	}
	var wg sync.WaitGroup
	got := make([]any, len(inputs))
	for i, in := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = read(in)
		}()
	}
	wg.Wait()
	for i := range inputs {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("input %d read at once with others differs from a fresh read", i)
		}
	}
}
