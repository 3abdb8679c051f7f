package kja

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"privlab/model"
	"privlab/model/query"
)

// The sensitive shares summed value by value over the groups that hold
// each value are, bit for bit, those summed group by group over its
// values (Sacharidis et al., Section 3.3), for random groups, numeric and
// categorical, and random sensitive conditions; without conditions every
// query gets the same shares.
func TestSensitiveSharesByValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 200; trial++ {
		numeric := trial%2 == 0
		groups := make([][]saCount, 1+rng.IntN(40))
		for s := range groups {
			seen := map[string]bool{}
			for j := rng.IntN(6); j >= 0; j-- {
				x := float64(rng.IntN(30)) + 0.25*float64(rng.IntN(4))
				text := strconv.FormatFloat(x, 'f', -1, 64)
				if !numeric {
					text = fmt.Sprintf("v%02d", rng.IntN(30))
				}
				if seen[text] {
					continue
				}
				seen[text] = true
				x, _ = model.ParseNumber(text) // a value's number follows from its text, as newIndex's callers read it
				groups[s] = append(groups[s], saCount{text: text, num: x, n: float64(1 + rng.IntN(9))})
			}
		}
		ix := newIndex(nil, "sa", numeric, nil, groups)
		where := fmt.Sprintf("sa IN ('v%02d', 'v%02d', 'v%02d')", rng.IntN(30), rng.IntN(30), rng.IntN(30))
		if numeric {
			where = fmt.Sprintf("sa BETWEEN %d AND %d AND sa != %d", rng.IntN(15), 10+rng.IntN(20), rng.IntN(30))
		}
		q, err := query.Parse("COUNT(*) WHERE " + where)
		if err != nil {
			t.Fatal(err)
		}
		_, saPreds, err := ix.splitPreds(q)
		if err != nil {
			t.Fatal(err)
		}
		for _, preds := range [][]query.Pred{saPreds, nil} {
			share, sumShare := ix.sensitiveShares(preds)
			for s, vals := range ix.groups {
				var sh, ss float64
				for _, v := range vals { // in text order, as newIndex sorted them
					all := true
					for _, pr := range preds {
						all = all && pr.MatchValue(v.text, v.num, numeric)
					}
					if all {
						sh += v.n
						ss += v.n * v.num
					}
				}
				if ix.groupN[s] > 0 {
					sh, ss = sh/ix.groupN[s], ss/ix.groupN[s]
				}
				if share[s] != sh || sumShare[s] != ss {
					t.Fatalf("trial %d (%s, conditions %d), group %d: shares %v, %v; group by group %v, %v", trial, where, len(preds), s, share[s], sumShare[s], sh, ss)
				}
			}
		}
	}
}
