package distribution

import (
	"fmt"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/query"
)

// countSA decides the conditions on the sensitive attribute once per
// distinct value of the domain (bound as a column); these tests hold it
// to the bounds of Koudas et al. 2009, Section 3.3 computed leaf by leaf
// with Pred.MatchValue (the evaluator it replaced), on random domains,
// subdomain spans, selections and conditions (numeric and categorical,
// IN lists, repeated texts in the domain).
func TestCountSAMatchesLeafByLeafProperty(t *testing.T) {
	r := model.NewRand(20)
	for iter := 0; iter < 300; iter++ {
		numeric := iter%2 == 0
		n := 1 + r.Intn(12)
		dom := saDomain{numeric: numeric}
		for i := 0; i < n; i++ {
			v := 10 + r.Intn(8) // repeats on purpose
			if numeric {
				dom.text = append(dom.text, fmt.Sprint(v))
				dom.num = append(dom.num, float64(v))
			} else {
				dom.text = append(dom.text, fmt.Sprintf("s%d", v))
				dom.num = append(dom.num, 0)
			}
		}
		groups := 1 + r.Intn(4)
		spans := make([][][2]int32, groups)
		sel := make([]int, groups)
		for g := range spans {
			for k := 1 + r.Intn(4); k > 0; k-- {
				a := r.Intn(n)
				z := a + r.Intn(n-a)
				spans[g] = append(spans[g], [2]int32{int32(a), int32(z)})
			}
			sel[g] = r.Intn(len(spans[g]) + 1)
		}
		b := &boundsIndex{sa: "sa", dom: dom, spans: spans}
		q := randomSAQuery(t, r, numeric)
		low, high, err := b.countSA(q, q.Preds, sel)
		if err != nil {
			t.Fatalf("%s: %v", q.Text, err)
		}
		wantLow, wantHigh := leafByLeaf(b, q.Preds, sel)
		if low != wantLow || high != wantHigh {
			t.Fatalf("%s on domain %v, spans %v, selected %v: bounds [%v, %v], leaf by leaf [%v, %v]",
				q.Text, dom.text, spans, sel, low, high, wantLow, wantHigh)
		}
	}
}

// randomSAQuery is a COUNT with one or two conditions on sa.
func randomSAQuery(t *testing.T, r *model.Rand, numeric bool) *query.Query {
	t.Helper()
	lit := func() string {
		v := 9 + r.Intn(10)
		if numeric {
			return fmt.Sprint(v)
		}
		return fmt.Sprintf("'s%d'", v)
	}
	var preds []string
	for k := 1 + r.Intn(2); k > 0; k-- {
		switch r.Intn(4) {
		case 0:
			preds = append(preds, "sa = "+lit())
		case 1:
			preds = append(preds, "sa >= "+lit())
		case 2:
			preds = append(preds, "sa != "+lit())
		default:
			var vs []string
			for j := 1 + r.Intn(5); j > 0; j-- {
				vs = append(vs, lit())
			}
			preds = append(preds, "sa IN ("+strings.Join(vs, ", ")+")")
		}
	}
	q, err := query.Parse("COUNT(*) WHERE " + strings.Join(preds, " AND "))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// leafByLeaf is countSA as it was: every leaf against every condition.
func leafByLeaf(b *boundsIndex, onSA []query.Pred, sel []int) (low, high float64) {
	for g, m := range sel {
		if m == 0 {
			continue
		}
		inside, meets := 0, 0
		for _, s := range b.spans[g] {
			all, some := true, false
			for i := s[0]; i <= s[1]; i++ {
				ok := true
				for _, p := range onSA {
					ok = ok && p.MatchValue(b.dom.text[i], b.dom.num[i], b.dom.numeric)
				}
				all, some = all && ok, some || ok
			}
			if some {
				meets++
			}
			if all {
				inside++
			}
		}
		low += float64(max(0, m-(len(b.spans[g])-inside)))
		high += float64(min(m, meets))
	}
	return low, high
}
