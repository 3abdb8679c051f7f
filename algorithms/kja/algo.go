package kja

import (
	"context"
	"math"
	"sort"

	"privlab/algorithms/partition"
	"privlab/model"
)

// kAlgorithm is a k-anonymity generalization algorithm (Sacharidis et al.,
// Section 4): it groups the given tuples of t into groups of at least k.
// keep, when set, drops groups it rejects (those without an MT tuple); an
// algorithm may use it to stop working on them early.
type kAlgorithm func(ctx context.Context, t *jt, tuples []int32, k int, keep func([]int32) bool) ([][]int32, error)

// mondrian is Mondrian (LeFevre et al., as Sacharidis et al., Section 2.2
// describe it): median splits until no allowable cut is left, so groups
// hold k..2k-1 tuples where values allow (equal values stay together). The
// rule picks the dimension: round-robin as in the paper, or the widest
// normalised range (partition.Widest). partition.Mondrian is the one
// implementation; Keep prunes partitions without an MT tuple while
// splitting, as Direct does ("if some partition contains no MT record, it
// is excluded from consideration", Section 4).
func mondrian(rule partition.Rule) kAlgorithm {
	return func(ctx context.Context, t *jt, tuples []int32, k int, keep func([]int32) bool) ([][]int32, error) {
		return partition.MondrianWith(ctx, tuples, t.dims(), k, partition.Options{Rule: rule, Keep: keep})
	}
}

// topDown is TopDown (Xu et al. 2006, as Sacharidis et al., Section 2.2
// describe it): split a group around its two farthest tuples, assigning
// the others in random order to the seed whose group's NCP grows least,
// recursively until groups hold at most k tuples; then merge undersized
// groups with neighbouring ones at the least NCP increase.
//
// Neither step is quadratic here. The farthest pair (the distance being
// the normalised perimeter of the pair's box, an L1 distance) is found
// exactly from 2^(d-1) projections for d <= 4, and beyond with Xu et
// al.'s own iteration (from a random tuple, the tuple farthest from it,
// then the one farthest from that: O(n d) per split); the greedy
// assignment keeps each side's bounding box and perimeter, so a tuple
// costs O(d). Merging is done bottom-up in the split tree: a group of
// fewer than k tuples can only come straight out of a split, and it is
// merged with the group of its own subtree (its sibling's groups, the
// neighbours the split left) whose merge raises NCP least, so merging
// costs O(groups of the subtree) per split rather than a global
// all-pairs search.
func topDown(seed uint64) kAlgorithm {
	return func(ctx context.Context, t *jt, tuples []int32, k int, keep func([]int32) bool) ([][]int32, error) {
		td := &tdRun{ctx: ctx, t: t, k: k, rng: model.NewRand(seed)}
		groups := td.split(append([]int32(nil), tuples...))
		if td.err != nil {
			return nil, td.err
		}
		out := make([][]int32, 0, len(groups))
		for _, g := range groups {
			if keep == nil || keep(g.rows) {
				out = append(out, g.rows)
			}
		}
		return out, nil
	}
}

// tdGroup is a group under construction: members, bounding box and its
// normalised perimeter.
type tdGroup struct {
	rows   []int32
	lo, hi []float64
	per    float64
}

type tdRun struct {
	ctx   context.Context
	t     *jt
	k     int
	rng   *model.Rand
	steps int
	err   error
}

func (td *tdRun) cancelled() bool {
	td.steps++
	if td.err == nil && td.steps%4096 == 0 {
		td.err = td.ctx.Err()
	}
	return td.err != nil
}

func (td *tdRun) point(i int32) []float64 {
	d := td.t.d
	return td.t.x[int(i)*d : int(i)*d+d]
}

// dist is the normalised perimeter of the box of two tuples.
func (td *tdRun) dist(p, q []float64) float64 {
	s := 0.0
	for a, v := range p {
		s += math.Abs(v-q[a]) * td.t.sc[a]
	}
	return s
}

// farthest returns the tuple of rows farthest from p.
func (td *tdRun) farthest(rows []int32, p []float64) (int, float64) {
	best, bestD := 0, -1.0
	for j, r := range rows {
		if dd := td.dist(p, td.point(r)); dd > bestD {
			best, bestD = j, dd
		}
	}
	return best, bestD
}

// exactSeedDims is the largest d for which seeds finds the exact farthest
// pair: 2^(d-1) projections per split.
const exactSeedDims = 4

// seeds picks the two tuples (positions in rows) whose box has the
// largest perimeter, as Sacharidis et al. describe TopDown's first step:
// the farthest pair under the normalised L1 distance. Up to exactSeedDims
// QIs it is found exactly: the L1 diameter is the largest spread of the
// projections on the sign vectors (+-1, ..., +-1, 1), 2^(d-1) linear
// passes. Beyond, Xu et al.'s own iteration approximates it: from a random
// tuple to the tuple farthest from it, and on, keeping the best pair of
// four rounds.
func (td *tdRun) seeds(rows []int32) (int, int) {
	if d := td.t.d; d <= exactSeedDims {
		bu, bv, bd := 0, 0, -1.0
		for mask := 0; mask < 1<<(d-1); mask++ {
			lo, hi := math.Inf(1), math.Inf(-1)
			li, hiI := 0, 0
			for j, r := range rows {
				p := td.point(r)
				s := p[d-1] * td.t.sc[d-1]
				for a := 0; a < d-1; a++ {
					if mask&(1<<a) != 0 {
						s -= p[a] * td.t.sc[a]
					} else {
						s += p[a] * td.t.sc[a]
					}
				}
				if s < lo {
					lo, li = s, j
				}
				if s > hi {
					hi, hiI = s, j
				}
			}
			if hi-lo > bd {
				bu, bv, bd = li, hiI, hi-lo
			}
		}
		if bu == bv {
			bv = (bu + 1) % len(rows)
		}
		return bu, bv
	}
	u := td.rng.Intn(len(rows))
	v, _ := td.farthest(rows, td.point(rows[u]))
	bu, bv, bd := u, v, td.dist(td.point(rows[u]), td.point(rows[v]))
	for round := 0; round < 3; round++ {
		u = v
		v, _ = td.farthest(rows, td.point(rows[u]))
		if dd := td.dist(td.point(rows[u]), td.point(rows[v])); dd > bd {
			bu, bv, bd = u, v, dd
		}
	}
	if bu == bv { // all tuples equal: any two
		bv = (bu + 1) % len(rows)
	}
	return bu, bv
}

func (td *tdRun) newGroup(i int32, capacity int) *tdGroup {
	p := td.point(i)
	g := &tdGroup{rows: make([]int32, 1, capacity), lo: append([]float64(nil), p...), hi: append([]float64(nil), p...)}
	g.rows[0] = i
	return g
}

// grow is the perimeter the group's box gains by taking point p.
func (td *tdRun) grow(g *tdGroup, p []float64) float64 {
	s := 0.0
	for a, v := range p {
		if v < g.lo[a] {
			s += (g.lo[a] - v) * td.t.sc[a]
		} else if v > g.hi[a] {
			s += (v - g.hi[a]) * td.t.sc[a]
		}
	}
	return s
}

func (td *tdRun) add(g *tdGroup, i int32, p []float64, grow float64) {
	for a, v := range p {
		if v < g.lo[a] {
			g.lo[a] = v
		} else if v > g.hi[a] {
			g.hi[a] = v
		}
	}
	g.per += grow
	g.rows = append(g.rows, i)
}

// split is one TopDown step and its recursion.
func (td *tdRun) split(rows []int32) []*tdGroup {
	if len(rows) <= td.k || td.err != nil {
		g := td.newGroup(rows[0], len(rows))
		for _, r := range rows[1:] {
			p := td.point(r)
			td.add(g, r, p, td.grow(g, p))
		}
		return []*tdGroup{g}
	}
	su, sv := td.seeds(rows)
	g1, g2 := td.newGroup(rows[su], len(rows)/2+1), td.newGroup(rows[sv], len(rows)/2+1)
	rest := make([]int32, 0, len(rows)-2)
	for j, r := range rows {
		if j != su && j != sv {
			rest = append(rest, r)
		}
	}
	td.rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for _, r := range rest {
		if td.cancelled() {
			return nil
		}
		p := td.point(r)
		e1, e2 := td.grow(g1, p), td.grow(g2, p)
		// NCP increase: (|G|+1) * per(G + t) - |G| * per(G).
		c1 := float64(len(g1.rows)+1)*(g1.per+e1) - float64(len(g1.rows))*g1.per
		c2 := float64(len(g2.rows)+1)*(g2.per+e2) - float64(len(g2.rows))*g2.per
		if c1 < c2 || (c1 == c2 && len(g1.rows) <= len(g2.rows)) {
			td.add(g1, r, p, e1)
		} else {
			td.add(g2, r, p, e2)
		}
	}
	var out []*tdGroup
	for _, g := range []*tdGroup{g1, g2} {
		if len(g.rows) > td.k {
			out = append(out, td.split(g.rows)...)
		} else {
			out = append(out, g)
		}
	}
	return td.merge(out)
}

// ncp is a group's NCP: its size times its perimeter.
func ncp(g *tdGroup) float64 { return float64(len(g.rows)) * g.per }

// merge joins every group of fewer than k tuples with the group of the
// list whose merge raises NCP least (the smallest undersized group first),
// keeping every group below 2k tuples: when the merge would reach 2k, the
// undersized group borrows instead the k - |u| tuples of that group that
// grow its box least, one at a time, which leaves the lender at least k
// (it held at least 2k - |u|). Groups come out of split with at most k
// tuples and out of merge with k..2k-1, so TopDown's groups hold k..2k-1
// tuples (Xu et al.'s post-processing merges or borrows from neighbours;
// Sacharidis et al., Section 2.2: "undersized groups are merged with
// neighboring ones").
func (td *tdRun) merge(groups []*tdGroup) []*tdGroup {
	for len(groups) > 1 && td.err == nil {
		u := -1
		for i, g := range groups {
			if len(g.rows) < td.k && (u < 0 || len(g.rows) < len(groups[u].rows)) {
				u = i
			}
		}
		if u < 0 {
			break
		}
		gu := groups[u]
		best, bestCost := -1, math.Inf(1)
		for i, g := range groups {
			if i == u {
				continue
			}
			td.cancelled()
			per := 0.0
			for a := range g.lo {
				per += (math.Max(g.hi[a], gu.hi[a]) - math.Min(g.lo[a], gu.lo[a])) * td.t.sc[a]
			}
			cost := float64(len(g.rows)+len(gu.rows))*per - ncp(g) - ncp(gu)
			if cost < bestCost {
				best, bestCost = i, cost
			}
		}
		w := groups[best]
		if len(w.rows)+len(gu.rows) >= 2*td.k {
			td.borrow(gu, w)
			continue
		}
		for _, r := range gu.rows {
			p := td.point(r)
			td.add(w, r, p, td.grow(w, p))
		}
		groups = append(groups[:u], groups[u+1:]...)
	}
	return groups
}

// borrow moves to u, one at a time, the tuple of w that grows u's box
// least, until u holds k tuples, and recomputes w's box.
func (td *tdRun) borrow(u, w *tdGroup) {
	for len(u.rows) < td.k {
		td.cancelled()
		best, bestGrow := -1, math.Inf(1)
		for j, r := range w.rows {
			if g := td.grow(u, td.point(r)); g < bestGrow {
				best, bestGrow = j, g
			}
		}
		r := w.rows[best]
		td.add(u, r, td.point(r), bestGrow)
		w.rows[best] = w.rows[len(w.rows)-1]
		w.rows = w.rows[:len(w.rows)-1]
	}
	rest := td.newGroup(w.rows[0], len(w.rows))
	for _, r := range w.rows[1:] {
		p := td.point(r)
		td.add(rest, r, p, td.grow(rest, p))
	}
	*w = *rest
}

// trim drops the external tuples of a group that only enlarge its box
// (Sacharidis et al., Section 4, Fig. 8: "in groups with more external
// tuples than necessary, we ignore some of them so as to minimize the
// corresponding G-box perimeter"). The MT tuples all stay; while the
// group is short of k, the external tuple that grows the box least is
// added (greedy; the exact choice is a small covering problem); every
// external tuple inside the final box is kept, since it costs nothing and
// lowers the breach probability 1/|g|.
func (t *jt) trim(group []int32, k int) []int32 {
	var mt, ext []int32
	for _, i := range group {
		if t.isMT(i) {
			mt = append(mt, i)
		} else {
			ext = append(ext, i)
		}
	}
	if len(group) <= k || len(ext) == 0 {
		return group
	}
	b := t.mbb(mt)
	chosen := make([]bool, len(ext))
	for need := k - len(mt); need > 0; need-- {
		best, bestGrow := -1, math.Inf(1)
		for j, i := range ext {
			if chosen[j] {
				continue
			}
			g := 0.0
			for a := 0; a < t.d; a++ {
				v := t.x[int(i)*t.d+a]
				if v < b.lo[a] {
					g += (b.lo[a] - v) * t.sc[a]
				} else if v > b.hi[a] {
					g += (v - b.hi[a]) * t.sc[a]
				}
			}
			if g < bestGrow {
				best, bestGrow = j, g
			}
		}
		chosen[best] = true
		for a := 0; a < t.d; a++ {
			v := t.x[int(ext[best])*t.d+a]
			b.lo[a], b.hi[a] = math.Min(b.lo[a], v), math.Max(b.hi[a], v)
		}
	}
	out := append([]int32(nil), mt...)
	for j, i := range ext {
		if chosen[j] || t.contains(b, i) {
			out = append(out, i)
		}
	}
	return out
}

// outBox is one G-box of the release: its JT tuples, its sensitive group
// and its bounding box.
type outBox struct {
	tuples []int32
	sg     int
	b      box
	mt     int // MT tuples in it
}

// hasMT reports whether a group holds an MT tuple.
func (t *jt) hasMT(g []int32) bool {
	for _, i := range g {
		if t.isMT(i) {
			return true
		}
	}
	return false
}

func (t *jt) newBox(tuples []int32, sg int) outBox {
	sort.Slice(tuples, func(a, b int) bool { return tuples[a] < tuples[b] })
	mt := sort.Search(len(tuples), func(j int) bool { return !t.isMT(tuples[j]) })
	return outBox{tuples: tuples, sg: sg, b: t.mbb(tuples), mt: mt}
}

// plain is k-anonymity on MT alone: the baseline (Sacharidis et al.,
// Section 2.2). Each box is its own sensitive group.
func plain(ctx context.Context, t *jt, alg kAlgorithm, k int) ([]outBox, int, error) {
	m := t.mtOnly()
	groups, err := alg(ctx, m, allTuples(t.mt), k, nil)
	if err != nil {
		return nil, 0, err
	}
	out := make([]outBox, len(groups))
	for i, g := range groups {
		out[i] = t.newBox(g, i)
	}
	return out, len(out), nil
}

// direct is KJA's Direct methodology (Section 4): kAlgorithm on the whole
// JT; the groups without an MT tuple are discarded and the rest replaced
// by their MBBs. Direct has no first-round k-anonymous grouping of MT, so
// its boxes are merged into sensitive groups of at least k MT tuples
// (groupBoxes): Section 3.2 takes SI from a k-anonymous grouping of MT, so
// that attribute disclosure is k-anonymity's, and a box of one MT tuple
// with a group of its own would publish that person's sensitive value.
func direct(ctx context.Context, t *jt, alg kAlgorithm, k int) ([]outBox, int, error) {
	groups, err := alg(ctx, t, allTuples(t.n), k, t.hasMT)
	if err != nil {
		return nil, 0, err
	}
	var out []outBox
	for _, g := range groups {
		if t.hasMT(g) {
			out = append(out, t.newBox(g, 0))
		}
	}
	return out, t.groupBoxes(out, k), nil
}

// groupBoxes sets the sensitive group of every box and returns how many
// there are: Mondrian over the boxes, each box whole. A set of boxes is
// cut in two along the axis on which its boxes' centres spread widest
// (normalised), at the cut in centre order closest to half its MT tuples
// that leaves at least k MT tuples on each side (the next widest axis
// when none does), until no cut is allowed; each part left is a sensitive
// group. Every group so holds at least k MT tuples (all of MT does: k <=
// |MT|), and its boxes are neighbours, as a Mondrian group's tuples are.
func (t *jt) groupBoxes(boxes []outBox, k int) int {
	sgs := 0
	var split func(ix []int)
	split = func(ix []int) {
		if cut := t.boxCut(boxes, ix, k); cut > 0 {
			split(ix[:cut])
			split(ix[cut:])
			return
		}
		for _, i := range ix {
			boxes[i].sg = sgs
		}
		sgs++
	}
	if len(boxes) > 0 {
		split(allInts(len(boxes)))
	}
	return sgs
}

// boxCut orders ix along the first axis (by decreasing normalised spread
// of the boxes' centres) that allows a cut and returns the cut's position
// (0: no axis allows one). Ties keep box order, so the grouping is
// deterministic.
func (t *jt) boxCut(boxes []outBox, ix []int, k int) int {
	total := 0
	for _, i := range ix {
		total += boxes[i].mt
	}
	if total < 2*k || len(ix) < 2 {
		return 0
	}
	centre := func(i, a int) float64 { return boxes[i].b.lo[a] + boxes[i].b.hi[a] }
	axes := allInts(t.d)
	spread := make([]float64, t.d)
	for a := range axes {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, i := range ix {
			lo, hi = math.Min(lo, centre(i, a)), math.Max(hi, centre(i, a))
		}
		spread[a] = (hi - lo) * t.sc[a]
	}
	sort.SliceStable(axes, func(x, y int) bool { return spread[axes[x]] > spread[axes[y]] })
	for _, a := range axes {
		sort.SliceStable(ix, func(x, y int) bool {
			cx, cy := centre(ix[x], a), centre(ix[y], a)
			return cx < cy || cx == cy && ix[x] < ix[y]
		})
		best, bestGap, left := 0, math.MaxInt, 0
		for j := 0; j < len(ix)-1; j++ {
			left += boxes[ix[j]].mt
			if gap := abs(2*left - total); left >= k && total-left >= k && gap < bestGap {
				best, bestGap = j+1, gap
			}
		}
		if best > 0 {
			return best
		}
	}
	return 0
}

func allInts(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// refinement is KJA's Refinement methodology (Section 4): kAlgorithm on MT,
// then, for each of its boxes, a range query on JT and kAlgorithm again on
// the tuples retrieved; the new groups with an MT tuple are kept, without
// the external tuples that only enlarge them. The first-round groups are
// the sensitive groups (Section 3.2): every MT tuple keeps the SA bag it
// has in the k-anonymous table. An external tuple inside two first-round
// boxes (TopDown's boxes may overlap) is offered to the one of smaller
// perimeter, so no tuple is published twice. round1 forms the first
// round (alg, or a given grouping); trace, when set, sees every box's
// JT tuples and the groups alg forms of them (the tour shows them).
func refinement(ctx context.Context, t *jt, round1, alg kAlgorithm, k int, progress func(float64), trace refineTrace) ([]outBox, int, error) {
	m := t.mtOnly()
	first, err := round1(ctx, m, allTuples(t.mt), k, nil)
	if err != nil {
		return nil, 0, err
	}
	boxes := make([]box, len(first))
	pers := make([]float64, len(first))
	for i, g := range first {
		boxes[i] = t.mbb(g)
		pers[i] = t.perimeter(boxes[i])
	}
	members := make([][]int32, len(first))
	for i, g := range first {
		members[i] = append([]int32(nil), g...)
	}
	idx := newBoxIndex(boxes, t.sc)
	for i := int32(t.mt); int(i) < t.n; i++ {
		if (int(i)-t.mt)%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		best := -1
		idx.stab(t.x[int(i)*t.d:int(i)*t.d+t.d], func(b int) {
			if best < 0 || pers[b] < pers[best] || (pers[b] == pers[best] && b < best) {
				best = b
			}
		})
		if best >= 0 {
			members[best] = append(members[best], i)
		}
	}
	var out []outBox
	for sg, g := range members {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if progress != nil && sg%64 == 0 {
			progress(0.2 + 0.7*float64(sg)/float64(len(members)))
		}
		if len(g) == len(first[sg]) { // no external tuple inside: the box stays
			out = append(out, t.newBox(g, sg))
			continue
		}
		inner, err := alg(ctx, t, g, k, t.hasMT)
		if err != nil {
			return nil, 0, err
		}
		if trace != nil {
			trace(sg, g, inner)
		}
		for _, h := range inner {
			if t.hasMT(h) {
				out = append(out, t.newBox(t.trim(h, k), sg))
			}
		}
	}
	return out, len(first), nil
}

// refineTrace sees a first-round box's JT tuples (sg: its index) and
// the groups the second round forms of them, before those without a
// microdata tuple go and the rest are trimmed.
type refineTrace func(sg int, members []int32, inner [][]int32)

func allTuples(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}
