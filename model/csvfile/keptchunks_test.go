package csvfile

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// The chunks kept between table reads hold at most keptFootprint bytes
// each (the block and its field and line offsets): the workbench lives
// on after reading a large table, and a chunk sized for many fields or
// lines (a table of short cells, or of cells over many lines) would stay
// with it for good.
func TestKeptChunksAreBounded(t *testing.T) {
	defer func() {
		keptChunks.Lock()
		keptChunks.free = nil
		keptChunks.Unlock()
	}()
	for _, row := range []string{"1,2,3,4,5,6,7,8\n", "\"1\n\n\n\n\n\n\n\n\n\n\",2,3,4,5,6,7,8\n"} {
		var b strings.Builder
		b.WriteString("a,b,c,d,e,f,g,h\n")
		for b.Len() < 20<<20 {
			b.WriteString(row)
		}
		path := filepath.Join(t.TempDir(), "t.csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Load(f, LoadOptions{Name: "t.csv"})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		keptChunks.Lock()
		for _, c := range keptChunks.free {
			if n := footprint(c); n > keptFootprint {
				t.Errorf("rows %q: a chunk of %d bytes is kept (at most %d)", row[:4], n, keptFootprint)
			}
		}
		keptChunks.Unlock()
	}
}
