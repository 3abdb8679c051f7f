package check

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"privlab/model"
)

// naiveLeafAt is leafAt as countValues and tableTarget computed it, each
// with maps of its own: by text, else (a numeric column) by number, the
// last of equal leaves, -1 for none.
func naiveLeafAt(a *annotated, col *model.Column, texts []string) []int {
	pos, num := map[string]int{}, map[float64]int{}
	for i, l := range a.leaves {
		pos[a.low[l]] = i
		num[a.lowNum[l]] = i
	}
	at := make([]int, len(texts))
	for code, text := range texts {
		i, ok := pos[text]
		if !ok && col.Kind == model.Numeric && code < len(col.Dict) {
			i, ok = num[col.Nums[code]]
		}
		if !ok {
			i = -1
		}
		at[code] = i
	}
	return at
}

// TestLeafAtIsNaive: the leaves' positions by value, indexed once per
// tree and shared by the checks (on several goroutines at once), are
// those of a map built per check, on random trees with repeated leaf
// values, numbers written two ways ("7" and "7.0"), unknown values, and
// text and numeric columns.
func TestLeafAtIsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	value := func() string {
		v := rng.IntN(12)
		switch rng.IntN(4) {
		case 0:
			return "v" + strconv.Itoa(v)
		case 1:
			return strconv.Itoa(v) + ".0"
		}
		return strconv.Itoa(v)
	}
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(10)
		a := &annotated{low: make([]string, n+3), lowNum: make([]float64, n+3)}
		for x := range a.low {
			a.low[x] = value()
			a.lowNum[x], _ = model.ParseNumber(a.low[x])
		}
		for i := 0; i < n; i++ {
			a.leaves = append(a.leaves, rng.IntN(len(a.low)))
		}
		col := &model.Column{Kind: model.Kind(rng.IntN(2))}
		for i := 0; i < 1+rng.IntN(8); i++ {
			col.Dict = append(col.Dict, value())
			x, _ := model.ParseNumber(col.Dict[i])
			col.Nums = append(col.Nums, x)
		}
		texts := append(append([]string(nil), col.Dict...), "missing")
		var wg sync.WaitGroup
		got := make([][]int, 3)
		for k := range got {
			wg.Add(1)
			go func() { defer wg.Done(); got[k] = a.leafAt(col, texts) }()
		}
		wg.Wait()
		want := naiveLeafAt(a, col, texts)
		for k := range got {
			for code := range want {
				if got[k][code] != want[code] {
					t.Fatalf("trial %d: leaves %v of %q, column %v %q: leafAt %v, want %v", trial, a.leaves, a.low, col.Kind, texts, got[k], want)
				}
			}
		}
	}
}
