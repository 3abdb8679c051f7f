// Package distribution implements distribution-based anonymization
// (Koudas, Srivastava, Yu, Zhang, "Distribution-based Microdata
// Anonymization", VLDB 2009): quasi-identifiers stay as they are, and each
// group's sensitive values are generalized to subdomains of a
// privacy-annotated hierarchy and permuted, optionally after adding fake
// values, so that every tuple's sensitive value appears to follow a target
// distribution.
package distribution

import (
	"context"
	"errors"
	"fmt"
	"math"

	"privlab/model/hierarchy"
)

// NodeCount is a number of copies of one hierarchy node.
type NodeCount struct {
	Node  int32
	Count int32
}

// Generalization is a P-private generalization of one group: a multiset of
// subdomains (hierarchy nodes with multiplicities), the fake values added
// (leaf nodes with multiplicities) and its cost.
type Generalization struct {
	Copies      []NodeCount
	Fakes       []NodeCount
	SumOfRanges float64
	NumFakes    int
	// Assign gives, for each real value passed in, the node it was mapped
	// to (Definition 3.1); aligned with the leaves given to Solve.
	Assign []int32
}

// Size is the number of subdomains (real values plus fakes).
func (g *Generalization) Size() int {
	n := 0
	for _, c := range g.Copies {
		n += int(c.Count)
	}
	return n
}

// Solver solves groups against one privacy-annotated hierarchy. It keeps
// scratch space between groups, so one Solver serves one goroutine.
type Solver struct {
	A     *Annotated
	h     *hierarchy.Hierarchy
	wsum  []int64   // sum of the children's weights per node
	rng   []float64 // Range per node
	count []int32   // per-node count of the current group (scratch)
	copy_ []int32   // per-node copies of the current solution (scratch)
	touch []int32   // nodes with a non-zero count
}

// NewSolver prepares a solver for the annotated hierarchy.
func NewSolver(a *Annotated) *Solver {
	h := a.H
	s := &Solver{A: a, h: h, wsum: make([]int64, len(h.Nodes)), rng: make([]float64, len(h.Nodes)),
		count: make([]int32, len(h.Nodes)), copy_: make([]int32, len(h.Nodes))}
	for n := range h.Nodes {
		for _, c := range h.Nodes[n].Children {
			s.wsum[n] += a.Weight[c]
		}
		s.rng[n] = h.Range(n)
	}
	return s
}

// maxBound is the multiplier j of the maximum m-bound allocation
// (Koudas et al. 2009, Section 4.1): the largest j with j*w_i <= count_i
// for every child i of positive weight and j*sum(w) <= m, so that the
// allocation n_i = j*w_i is the largest in the ratio of the (reduced)
// weights that the counts and m allow.
func maxBound(m, wsum int64, k int, count, weight func(i int) int64) int64 {
	if wsum <= 0 {
		return 0
	}
	j := m / wsum
	for i := 0; i < k; i++ {
		if w := weight(i); w > 0 {
			if x := count(i) / w; x < j {
				j = x
			}
		}
	}
	return max(j, 0)
}

// load counts the group's leaves into s.count for every node on their
// paths; it returns the touched nodes so reset can clear them.
func (s *Solver) load(leaves []int32) {
	for _, l := range leaves {
		if s.count[l] == 0 {
			s.touch = append(s.touch, l)
		}
		s.count[l]++
	}
	// Walk up from each distinct leaf, adding its count to the ancestors.
	nLeaves := len(s.touch)
	for i := 0; i < nLeaves; i++ {
		l := s.touch[i]
		c := s.count[l]
		for n := s.h.Nodes[l].Parent; n >= 0; n = s.h.Nodes[n].Parent {
			if s.count[n] == 0 {
				s.touch = append(s.touch, int32(n))
			}
			s.count[n] += c
		}
	}
}

func (s *Solver) reset() {
	for _, n := range s.touch {
		s.count[n] = 0
		s.copy_[n] = 0
	}
	s.touch = s.touch[:0]
}

// MinSumOfRange is Algorithm 1 of Koudas et al. 2009 (Section 4.1) for a
// group given by the leaf nodes of its values: starting at the root with m =
// |g|, each node keeps the maximum m-bound allocation of its children's
// counts for its subtrees and outputs the rest as copies of itself. Linear
// in |g| plus the touched part of the hierarchy.
func (s *Solver) MinSumOfRange(leaves []int32) *Generalization {
	s.load(leaves)
	defer s.reset()
	s.minSOR(0, s.count[0])
	return s.collect(leaves, nil)
}

func (s *Solver) minSOR(n int, m int32) {
	nd := &s.h.Nodes[n]
	if len(nd.Children) == 0 {
		s.addCopies(n, m)
		return
	}
	ws := s.wsum[n]
	ch := nd.Children
	j := maxBound(int64(m), ws, len(ch), func(i int) int64 { return int64(s.count[ch[i]]) }, func(i int) int64 { return s.A.Weight[ch[i]] })
	s.addCopies(n, m-int32(j*ws))
	if j == 0 {
		return
	}
	for _, c := range nd.Children {
		if w := s.A.Weight[c]; w > 0 {
			s.minSOR(c, int32(j*w))
		}
	}
}

func (s *Solver) addCopies(n int, m int32) {
	if m == 0 {
		return
	}
	if s.count[n] == 0 && s.copy_[n] == 0 {
		s.touch = append(s.touch, int32(n)) // a fake-only node
	}
	s.copy_[n] += m
}

// collect turns the scratch copies into a Generalization and assigns the
// real values to subdomains: each value takes the deepest available copy on
// its leaf's path, which is optimal for nested subdomains (a chain of sets
// containing the value), so a valid mapping is always found.
func (s *Solver) collect(leaves []int32, fakes map[int32]int32) *Generalization {
	g := &Generalization{}
	for _, n := range s.touch {
		if c := s.copy_[n]; c > 0 {
			g.Copies = append(g.Copies, NodeCount{n, c})
			g.SumOfRanges += float64(c) * s.rng[n]
		}
	}
	sortNodeCounts(g.Copies)
	for n, c := range fakes {
		if c > 0 {
			g.Fakes = append(g.Fakes, NodeCount{n, c})
			g.NumFakes += int(c)
		}
	}
	sortNodeCounts(g.Fakes)
	g.Assign = make([]int32, len(leaves))
	for i, l := range leaves {
		n := int(l)
		for s.copy_[n] == 0 {
			n = s.h.Nodes[n].Parent
			if n < 0 {
				panic("distribution: generalization cannot hold every value") // broken invariant, not bad input
			}
		}
		s.copy_[n]--
		g.Assign[i] = int32(n)
	}
	return g
}

func sortNodeCounts(v []NodeCount) {
	// insertion sort is fine for the short lists here; fall back for long ones
	if len(v) < 64 {
		for i := 1; i < len(v); i++ {
			for j := i; j > 0 && v[j].Node < v[j-1].Node; j-- {
				v[j], v[j-1] = v[j-1], v[j]
			}
		}
		return
	}
	quickSortNC(v)
}

func quickSortNC(v []NodeCount) {
	if len(v) < 2 {
		return
	}
	p := v[len(v)/2].Node
	i, j := 0, len(v)-1
	for i <= j {
		for v[i].Node < p {
			i++
		}
		for v[j].Node > p {
			j--
		}
		if i <= j {
			v[i], v[j] = v[j], v[i]
			i++
			j--
		}
	}
	quickSortNC(v[:j+1])
	quickSortNC(v[i:])
}

// ErrFakesNeedBinary is returned when fakes are requested on a hierarchy
// with a node of more than two children.
var ErrFakesNeedBinary = errors.New("fake values need a binary hierarchy for the sensitive attribute (Koudas et al. 2009, Section 5 assumes one)")

// solve is SolveContext that reports, after each k of the fake-value
// search, the work done for it in units of (k+1)^2 - k^2 (see fakeWork).
func (s *Solver) solve(ctx context.Context, leaves []int32, budget int, done func(units float64)) (*Generalization, error) {
	if budget <= 0 {
		return s.MinSumOfRange(leaves), nil
	}
	if !s.h.IsBinary() {
		return nil, ErrFakesNeedBinary
	}
	s.load(leaves)
	defer s.reset()
	dp := newFakeDP(s)
	dp.ctx = ctx
	bestK, best := 0, math.Inf(1)
	for k := 0; k <= budget; k++ {
		c := dp.f(0, int32(k), 0)
		if dp.cancelled {
			return nil, ctx.Err()
		}
		if done != nil {
			done(float64(2*k + 1))
		}
		if c < best-1e-9 {
			best, bestK = c, k
		}
	}
	fakes := map[int32]int32{}
	dp.trace(0, int32(bestK), 0, fakes)
	g := s.collect(leaves, fakes)
	if math.Abs(g.SumOfRanges-best) > 1e-6*math.Max(1, best) {
		return nil, fmt.Errorf("distribution: traceback cost %v differs from the optimum %v", g.SumOfRanges, best)
	}
	return g, nil
}

// fakeDP memoises minSORFake(node, k, r): the minimum sum of ranges inside
// node's subtree when k fake values are added to it and r of its values are
// removed (handed up to be generalized higher) (Koudas et al. 2009, Section
// 5.2). Only binary and unary nodes occur.
type fakeDP struct {
	s    *Solver
	memo map[dpState]float64
	// ctx is checked every few thousand new states; once it is done every
	// call returns at once and cancelled is set.
	ctx       context.Context
	cancelled bool
	ops       uint64 // inner steps, to look at ctx often enough
}

type dpState struct{ n, k, r int32 }

func newFakeDP(s *Solver) *fakeDP {
	return &fakeDP{s: s, memo: make(map[dpState]float64)}
}

// split computes, for x fakes into the left child, the maximum pair (u, v)
// in the children's weight ratio, the removals r1, r2 handed up from the
// children and the number of copies of the node itself.
func (d *fakeDP) split(n int, k, r, x int32) (r1, r2, here int32) {
	s := d.s
	ch := s.h.Nodes[n].Children
	L, R := ch[0], ch[1]
	a, b := s.A.Weight[L], s.A.Weight[R]
	c := s.count[n]
	sL := int64(s.count[L] + x)
	sR := int64(s.count[R] + k - x)
	j := int64(c+k-r) / (a + b)
	if a > 0 && sL/a < j {
		j = sL / a
	}
	if b > 0 && sR/b < j {
		j = sR / b
	}
	u, v := a*j, b*j
	return int32(sL - u), int32(sR - v), int32(int64(c+k) - u - v - int64(r))
}

func (d *fakeDP) f(n int, k, r int32) float64 {
	s := d.s
	nd := &s.h.Nodes[n]
	if len(nd.Children) == 0 {
		return 0
	}
	if k == 0 && s.count[n] == 0 {
		return 0
	}
	if len(nd.Children) == 1 {
		return d.f(nd.Children[0], k, r)
	}
	key := dpState{int32(n), k, r}
	if v, ok := d.memo[key]; ok {
		return v
	}
	if d.cancelled {
		return math.Inf(1)
	}
	if len(d.memo)&4095 == 0 && d.ctx != nil && d.ctx.Err() != nil {
		d.cancelled = true
		return math.Inf(1)
	}
	best := math.Inf(1)
	L, R := nd.Children[0], nd.Children[1]
	rg := s.rng[n]
	for x := int32(0); x <= k; x++ {
		if d.ops++; d.ops&0xffff == 0 && d.ctx != nil && d.ctx.Err() != nil {
			d.cancelled = true
			return math.Inf(1)
		}
		r1, r2, here := d.split(n, k, r, x)
		cost := float64(here) * rg
		if cost >= best {
			continue
		}
		cost += d.f(L, x, r1)
		if cost >= best {
			continue
		}
		cost += d.f(R, k-x, r2)
		if cost < best {
			best = cost
		}
	}
	d.memo[key] = best
	return best
}

// trace replays the optimal choices, adding copies and fakes.
func (d *fakeDP) trace(n int, k, r int32, fakes map[int32]int32) {
	s := d.s
	nd := &s.h.Nodes[n]
	if len(nd.Children) == 0 {
		if k > 0 {
			fakes[int32(n)] += k
		}
		s.addCopies(n, s.count[n]+k-r)
		return
	}
	if len(nd.Children) == 1 {
		d.trace(nd.Children[0], k, r, fakes)
		return
	}
	if k == 0 {
		// No fakes below: MinSumOfRange with bound count-r.
		s.minSOR(n, s.count[n]-r)
		return
	}
	L, R := nd.Children[0], nd.Children[1]
	target := d.f(n, k, r)
	for x := int32(0); x <= k; x++ {
		r1, r2, here := d.split(n, k, r, x)
		cost := float64(here)*s.rng[n] + d.f(L, x, r1) + d.f(R, k-x, r2)
		if cost <= target+1e-9*math.Max(1, target) {
			s.addCopies(n, here)
			d.trace(L, x, r1, fakes)
			d.trace(R, k-x, r2, fakes)
			return
		}
	}
	panic("distribution: minSORFake traceback found no optimal choice")
}

// fakeWork is the work of the fake-value search of a group with budget t
// in units of one DP step per hierarchy node: minSORFake is evaluated for
// k = 0..t, each costing O(k) per state (Koudas et al. 2009, Theorem 2),
// so (t+1)^2 in all. A group without fakes costs 1.
func fakeWork(t int) float64 {
	if t <= 0 {
		return 1
	}
	return float64(t+1) * float64(t+1)
}

// secondsPerUnit is the measured cost of one unit of fakeWork per
// hierarchy node on the reference machine (BenchmarkMinSORFake measures
// it).
const secondsPerUnit = 100e-9
