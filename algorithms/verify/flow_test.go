package verify

import (
	"testing"

	"privlab/model"
)

// minCut is the smallest capacity of a cut separating s from t, over
// every set of nodes holding s and not t: by max-flow/min-cut, the
// maximum flow.
func minCut(n, s, t int, edges [][3]int) int {
	best := -1
	for set := 0; set < 1<<n; set++ {
		if set&(1<<s) == 0 || set&(1<<t) != 0 {
			continue
		}
		cut := 0
		for _, e := range edges {
			if set&(1<<e[0]) != 0 && set&(1<<e[1]) == 0 {
				cut += e[2]
			}
		}
		if best < 0 || cut < best {
			best = cut
		}
	}
	return best
}

// Dinic's maximum flow equals the brute-force minimum cut on random
// small networks (parallel edges, cycles, edges into the source and out
// of the sink included), and on the matchings the checkers build; a
// network reset and built again (smaller or larger than the last, its
// memory reused) solves as a new one.
func TestMaxFlowAgainstBruteForce(t *testing.T) {
	t.Parallel()
	rng := model.NewRand(7)
	reused := NewFlow()
	for trial := 0; trial < 400; trial++ {
		n := 2 + rng.Intn(7)
		var edges [][3]int
		for i := rng.Intn(3 * n); i > 0; i-- {
			edges = append(edges, [3]int{rng.Intn(n), rng.Intn(n), rng.Intn(6)})
		}
		reused.Reset()
		// A network grown beforehand (by too little, exactly, or too
		// much; reused or new) solves as one grown edge by edge.
		grown := NewFlow()
		if trial%2 == 1 {
			grown = reused
		}
		for _, f := range []*Flow{NewFlow(), reused, grown} {
			if f == grown {
				f.Reset()
				f.Grow(rng.Intn(2*n), rng.Intn(2*len(edges)+1))
			}
			for i := 0; i < n; i++ {
				if f.Node() != i {
					t.Fatal("nodes are not numbered in order")
				}
			}
			for i, e := range edges {
				if f == grown && i == len(edges)/2 {
					f.Grow(1, rng.Intn(len(edges)+1)) // midway: the edges so far are kept
				}
				f.Edge(e[0], e[1], e[2])
			}
			if got, want := f.MaxFlow(0, n-1), minCut(n, 0, n-1, edges); got != want {
				t.Fatalf("trial %d (reused %v): %d nodes, edges %v: flow %d, min cut %d", trial, f == reused, n, edges, got, want)
			}
		}
	}
}

// A matching of three values into two subdomains that hold them: one
// value is left out (Koudas et al. 2009, Definition 3.1 fails).
func TestMaxFlowMatching(t *testing.T) {
	t.Parallel()
	f := NewFlow()
	src, sink := f.Node(), f.Node()
	a, b, c, x, y := f.Node(), f.Node(), f.Node(), f.Node(), f.Node()
	for _, v := range []int{a, b, c} {
		f.Edge(src, v, 1)
	}
	f.Edge(a, x, 1)
	f.Edge(b, x, 1)
	f.Edge(c, x, 1)
	f.Edge(c, y, 1)
	f.Edge(x, sink, 1)
	f.Edge(y, sink, 1)
	if got := f.MaxFlow(src, sink); got != 2 {
		t.Errorf("matched %d, want 2", got)
	}
	// A long path (deeper than any recursion would like) carries its flow.
	f = NewFlow()
	first := f.Node()
	prev := first
	for i := 0; i < 100_000; i++ {
		next := f.Node()
		f.Edge(prev, next, 3)
		prev = next
	}
	if got := f.MaxFlow(first, prev); got != 3 {
		t.Errorf("path flow %d", got)
	}
}

// Used reads the matching a maximum flow found: a and b both want x, c
// wants x or y; the only full matching gives c y.
func TestFlowUsed(t *testing.T) {
	t.Parallel()
	f := NewFlow()
	src, sink := f.Node(), f.Node()
	a, c, x, y := f.Node(), f.Node(), f.Node(), f.Node()
	f.Edge(src, a, 1)
	f.Edge(src, c, 1)
	ax := f.Edge(a, x, 1)
	cx := f.Edge(c, x, 1)
	cy := f.Edge(c, y, 1)
	f.Edge(x, sink, 1)
	f.Edge(y, sink, 1)
	if got := f.MaxFlow(src, sink); got != 2 {
		t.Fatalf("matched %d, want 2", got)
	}
	if f.Used(ax) != 1 || f.Used(cx) != 0 || f.Used(cy) != 1 {
		t.Errorf("used a-x %d, c-x %d, c-y %d; want 1, 0, 1", f.Used(ax), f.Used(cx), f.Used(cy))
	}
}
