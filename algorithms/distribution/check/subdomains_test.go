package check

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
)

// subdomains, on dictionary codes with its maps sized beforehand, counts
// what a row-by-row reading by text counts: per group (qi.csv's) each
// node's sa.csv rows, sa.csv rows per group, rows naming a group qi.csv
// lacks and rows whose bounds are no node of the hierarchy, on random
// releases with groups of one row and of many, missing GroupIDs and
// bounds, and bounds of no node. Fails when bounds of no node are
// counted as a node (or as no unknown subdomain).
func TestSubdomainsIsNaive(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	load := func(text string, kinds map[string]model.Kind) *model.Table {
		tb, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}, Kinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	for trial := 0; trial < 200; trial++ {
		groups, values := 1+rng.IntN(6), 1+rng.IntN(30)
		h := &annotated{byBounds: map[[2]string]int{}}
		for x := 0; x < 1+rng.IntN(2*values); x++ {
			lo := rng.IntN(values)
			h.byBounds[[2]string{fmt.Sprint(lo), fmt.Sprint(lo + rng.IntN(3))}] = x
		}
		var qi, sa strings.Builder
		qi.WriteString("GroupID,age\n")
		for r := 0; r < 1+rng.IntN(40); r++ {
			fmt.Fprintf(&qi, "g%d,%d\n", rng.IntN(groups), r)
		}
		sa.WriteString("GroupID,Low,High\n")
		for r := 0; r < 1+rng.IntN(60); r++ {
			id, lo := fmt.Sprintf("g%d", rng.IntN(groups+1)), rng.IntN(values+1)
			hi := fmt.Sprint(lo + rng.IntN(3))
			if rng.IntN(20) == 0 {
				id = ""
			}
			if rng.IntN(20) == 0 {
				hi = ""
			}
			fmt.Fprintf(&sa, "%s,%d,%s\n", id, lo, hi)
		}
		qt := load(qi.String(), map[string]model.Kind{"GroupID": model.Categorical})
		st := load(sa.String(), map[string]model.Kind{"GroupID": model.Categorical, "Low": model.Categorical, "High": model.Categorical})
		g := groupRows(qt)
		g.subdomains(st, h)
		subs, nsub := make([]map[int]float64, len(g.sizes)), make([]int, len(g.sizes))
		unknownGroup, unknownNode := 0, 0
		for r := 0; r < st.Rows; r++ {
			gi, ok := g.index[st.Columns[0].Value(r)]
			if !ok {
				unknownGroup++
				continue
			}
			x, ok := h.byBounds[[2]string{st.Columns[1].Value(r), st.Columns[2].Value(r)}]
			if !ok {
				unknownNode++
				continue
			}
			if subs[gi] == nil {
				subs[gi] = map[int]float64{}
			}
			subs[gi][x]++
			nsub[gi]++
		}
		if !reflect.DeepEqual(g.subs, subs) || !reflect.DeepEqual(g.nsub, nsub) || g.unknownGroup != unknownGroup || g.unknownNode != unknownNode {
			t.Fatalf("trial %d:\nqi.csv\n%s\nsa.csv\n%s\ngot  %v %v %d %d\nwant %v %v %d %d", trial, qi.String(), sa.String(),
				g.subs, g.nsub, g.unknownGroup, g.unknownNode, subs, nsub, unknownGroup, unknownNode)
		}
	}
}
