package check

import (
	"math/rand/v2"
	"testing"
)

// kuhnMatching is Definition 3.1's matching by brute force: every copy
// of a value (a unit) and every copy of a subdomain (a slot) apart, a
// unit fitting a slot of a node on its leaf's path, augmenting paths
// one unit at a time.
func kuhnMatching(vals map[int]int, subs map[int]float64, parent []int) int {
	var units, slots []int
	for l, n := range vals {
		for ; n > 0; n-- {
			units = append(units, l)
		}
	}
	for x, c := range subs {
		for k := 0; k < int(c); k++ {
			slots = append(slots, x)
		}
	}
	fits := func(l, x int) bool {
		for y := l; y >= 0; y = parent[y] {
			if y == x {
				return true
			}
		}
		return false
	}
	owner := make([]int, len(slots))
	for i := range owner {
		owner[i] = -1
	}
	var try func(u int, seen []bool) bool
	try = func(u int, seen []bool) bool {
		for s, x := range slots {
			if !seen[s] && fits(units[u], x) {
				seen[s] = true
				if owner[s] < 0 || try(owner[s], seen) {
					owner[s] = u
					return true
				}
			}
		}
		return false
	}
	n := 0
	for u := range units {
		if try(u, make([]bool, len(slots))) {
			n++
		}
	}
	return n
}

// TestMatchGroupsIsBruteForce: the flow per group (subdomain nodes
// indexed by a slice reset between groups, the network grown to a bound
// beforehand) matches as many values as a brute-force matching, on
// random trees of depth up to 4 and random groups, several per call.
func TestMatchGroupsIsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		nodes := 1 + rng.IntN(12)
		a := &annotated{parent: make([]int, nodes)}
		a.parent[0] = -1
		isParent := make([]bool, nodes)
		for x := 1; x < nodes; x++ {
			a.parent[x] = rng.IntN(x)
			isParent[a.parent[x]] = true
		}
		for x := range isParent {
			if !isParent[x] {
				a.leaves = append(a.leaves, x)
			}
		}
		groups := 1 + rng.IntN(4)
		values, subs := make([]map[int]int, groups), make([]map[int]float64, groups)
		want, wantTotal := 0, 0
		for g := range values {
			if rng.IntN(5) == 0 {
				continue // an empty group
			}
			values[g], subs[g] = map[int]int{}, map[int]float64{}
			for i := rng.IntN(4); i >= 0; i-- {
				values[g][a.leaves[rng.IntN(len(a.leaves))]] += 1 + rng.IntN(2)
			}
			for i := rng.IntN(5); i >= 0; i-- {
				subs[g][rng.IntN(nodes)] += float64(rng.IntN(3))
			}
			for _, n := range values[g] {
				wantTotal += n
			}
			want += kuhnMatching(values[g], subs[g], a.parent)
		}
		got, total := matchGroups(values, subs, a)
		if got != want || total != wantTotal {
			t.Fatalf("trial %d: parents %v, values %v, subdomains %v: matched %d of %d, want %d of %d", trial, a.parent, values, subs, got, total, want, wantTotal)
		}
	}
}
