package attack

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"privlab/model"
)

// The distinct tuples found on codes as one integer (a slice over every
// possible tuple, or a map) are those a map of the codes' bytes finds:
// the same numbering in order of first appearance, counts, first rows
// and codes, missing values included.
func TestGroupOnOneInteger(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 50; iter++ {
		rows := 1 + rng.IntN(300)
		var cols []*model.Column
		for c := 0; c < 1+rng.IntN(4); c++ {
			col := &model.Column{Name: "c", Codes: make([]uint32, rows)}
			for k := 0; k < 1+rng.IntN(6); k++ {
				col.Dict = append(col.Dict, string(rune('a'+k)))
			}
			for r := range col.Codes {
				col.Codes[r] = uint32(rng.IntN(len(col.Dict)))
				if rng.IntN(10) == 0 {
					col.Codes[r] = model.Missing
				}
			}
			cols = append(cols, col)
		}
		want := &placed{cols: cols, tupleOf: make([]int32, rows)}
		index := map[string]int32{}
		for row := 0; row < rows; row++ {
			key := ""
			for _, c := range cols {
				key += string(rune(c.Codes[row]%1000)) + "|"
				if c.Codes[row] == model.Missing {
					key += "m"
				}
			}
			tu, ok := index[key]
			if !ok {
				tu = want.newTuple(row)
				index[key] = tu
			}
			want.count[tu]++
			want.tupleOf[row] = tu
		}
		span, ok := (&placed{cols: cols}).radix()
		if !ok {
			t.Fatal("no radix")
		}
		for _, s := range []uint64{span, 1 << 40} { // a slice, a map
			got := &placed{cols: cols, tupleOf: make([]int32, rows)}
			got.groupBy(s)
			if !reflect.DeepEqual(got.tupleOf, want.tupleOf) || !reflect.DeepEqual(got.count, want.count) ||
				!reflect.DeepEqual(got.first, want.first) || !reflect.DeepEqual(got.codes, want.codes) {
				t.Fatalf("span %d: tuples %v, want %v", s, got.tupleOf, want.tupleOf)
			}
		}
		got := &placed{cols: cols, tupleOf: make([]int32, rows)}
		got.group()
		if !reflect.DeepEqual(got.tupleOf, want.tupleOf) {
			t.Fatal("group differs")
		}
	}
}

// TestKeyTable: the tuples' key table finds what a map holds, and -1 for
// keys it does not (clustered keys, 0, the largest key), at any size.
func TestKeyTable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 5, 100, 5000} {
		want := map[uint64]int32{}
		x := newKeyTable(n)
		for i := 0; i < n; i++ {
			key := uint64(rng.IntN(3 * n))
			if i%7 == 0 {
				key = ^uint64(0) - uint64(i)
			}
			if _, dup := want[key]; dup {
				continue
			}
			want[key] = int32(len(want))
			x.put(key, want[key])
		}
		for key := uint64(0); key < uint64(4*n+8); key++ {
			w, ok := want[key]
			if !ok {
				w = -1
			}
			if got := x.find(key); got != w {
				t.Fatalf("n=%d: key %d found %d, want %d", n, key, got, w)
			}
		}
		for key, w := range want {
			if got := x.find(key); got != w {
				t.Fatalf("n=%d: key %d found %d, want %d", n, key, got, w)
			}
		}
		// findAll: the tuples of the keys that have one, in order, over
		// blocks of any length (keys known, unknown and repeated).
		var keys []uint64
		for j := 0; j < 3*findBlock+5; j++ {
			keys = append(keys, uint64(rng.IntN(4*n+8)))
		}
		for _, cut := range []int{0, 1, findBlock, len(keys)} {
			var found chunks
			x.findAll(keys[:cut], &found)
			got := make([]int32, found.n)
			for k := range got {
				got[k] = found.at(k)
			}
			var w []int32
			for _, key := range keys[:cut] {
				if t, ok := want[key]; ok {
					w = append(w, t)
				}
			}
			if !slices.Equal(got, w) {
				t.Fatalf("n=%d: findAll of %d keys %v, want %v", n, cut, got, w)
			}
		}
	}
}

// TestAppendKeys: every combination of the values once, the first QI's
// varying slowest (the order of a nested loop over the QIs), with the
// buffers reused from call to call.
func TestAppendKeys(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	shift := []uint{0, 5, 10, 20}
	var keys, spare []uint64
	for trial := 0; trial < 50; trial++ {
		values := make([][]int32, 1+rng.IntN(len(shift)))
		for i := range values {
			for k := rng.IntN(4); k >= 0; k-- {
				values[i] = append(values[i], int32(rng.IntN(30)))
			}
		}
		var want []uint64
		var nest func(i int, key uint64)
		nest = func(i int, key uint64) {
			if i == len(values) {
				want = append(want, key)
				return
			}
			for _, x := range values[i] {
				nest(i+1, key|uint64(x)<<shift[i])
			}
		}
		nest(0, 0)
		keys, spare = appendKeys(keys, spare, values, shift)
		if !slices.Equal(keys, want) {
			t.Fatalf("values %v: keys %v, want %v", values, keys, want)
		}
	}
}
