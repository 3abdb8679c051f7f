package lossyjoin

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"privlab/model"
	"privlab/model/hierarchy"
)

// This file is Algorithm 1 of Wong et al. (Section 6): top-down
// specialization with local recoding. All tuples start fully generalized
// in one partition; a partition is specialized one level down the
// hierarchy of one quasi-identifier; children that violate (alpha,k) are
// merged back into the parent (line 8); when the parent's remainder then
// violates, tuples are moved back from the children until it satisfies
// (line 10); the children are specialized further and the remainder is a
// QID-EC of the output (line 13).
//
// Choices where the paper is silent (Algorithm 1 is written for a single
// attribute):
//   - Attribute choice: every not yet fully specialized QI is tried and the
//     one whose specialization keeps the most child partitions after steps
//     8-10 wins; ties go to the one that specializes the most tuples, then
//     to the earlier QI. A QI whose children would all be merged back is
//     never chosen, so one badly splitting attribute cannot stop the
//     specialization of the others ("until we cannot specialize the tuples
//     anymore", Section 6). This is the "most child groups" criterion; the
//     information gain of Fung et al. [4] needs a class label this setting
//     lacks.
//   - The remainder of a partition keeps the partition's generalization and
//     is specialized further on the other QIs, never again on the one just
//     used (its tuples were moved back because that split violates). So
//     every output partition has its own generalization vector: the
//     QID-ECs of the generalized table (Alpha) are exactly the classes.
//   - Step 10 moves the tuples whose sensitive value is rarest in the
//     remainder, in bulk, from a child that stays (alpha,k)-anonymous
//     without them; when no child can spare one, the smallest child is
//     merged back whole. Both steps make progress, and merging every child
//     gives back the parent, which satisfies (alpha,k), so it terminates.

// qiAttr is one quasi-identifier prepared for specialization.
type qiAttr struct {
	h *hierarchy.Hierarchy
	// codes holds each row's dictionary code (a missing value, which the
	// pipeline never passes, has the extra code len(Dict)).
	codes []uint32
	// path[code] lists the hierarchy nodes from the root to the code's leaf.
	path [][]int32
	// childPos[node] is the node's position among its parent's children.
	childPos []int32
	// childAt[depth][code] is the position, among the children of the
	// code's ancestor at depth, of its ancestor at depth+1 (the inner loop
	// of the specialization: one lookup per row).
	childAt [][]int32
}

// problem is the input of the specialization.
type problem struct {
	attrs []qiAttr
	sa    []int32 // per row: the sensitive value's index 0..m-1
	m     int
	k     int
	alpha model.Bound
	// alphaText is alpha as the user wrote it (for messages).
	alphaText string
}

// feasible is the (alpha,k) test of one group: at least k tuples and no
// sensitive value above alpha of them, decided exactly (maxCount <=
// alpha x size on integers, alpha the decimal the user wrote), as the
// checker decides it.
func feasible(size, maxCount int, k int, alpha model.Bound) bool {
	return size >= k && alpha.Allows(maxCount, size)
}

// partition is a set of rows with its generalization vector (one hierarchy
// node per QI).
type partition struct {
	rows   []int32
	vec    []int32
	frozen []bool // QIs this partition may no longer specialize
	// path orders the output deterministically: the positions taken from
	// the root (0 for a remainder, 1+i for the i-th child).
	path []uint16
}

// class is one output QID-EC.
type class struct {
	rows []int32
	vec  []int32
	path []uint16
}

// newProblem prepares the QIs and the sensitive attribute of t.
func newProblem(t *model.Table, qis []string, hs map[string]*hierarchy.Hierarchy, sa string, k int, alpha model.Bound) (*problem, error) {
	p := &problem{k: k, alpha: alpha}
	for _, name := range qis {
		c := t.Column(name)
		h := hs[name]
		if c == nil {
			return nil, &model.ParamError{Param: "qi", Value: name, Reason: "no such column"}
		}
		if h == nil {
			var err error
			if h, err = hierarchy.Build("auto", c); err != nil {
				return nil, err
			}
		}
		leafOf, err := h.MapColumn(c)
		if err != nil {
			return nil, &model.ParamError{Param: "hierarchy " + name, Reason: err.Error(),
				Hint: "the hierarchy must list every value of the column"}
		}
		a := qiAttr{h: h, codes: c.Codes, path: make([][]int32, len(c.Dict)+1), childPos: make([]int32, len(h.Nodes))}
		if c.MissingCount > 0 {
			a.codes = make([]uint32, len(c.Codes))
			for r, code := range c.Codes {
				if code == model.Missing {
					code = uint32(len(c.Dict))
				}
				a.codes[r] = code
			}
		}
		for code, leaf := range leafOf {
			var path []int32
			for n := leaf; n >= 0; n = h.Nodes[n].Parent {
				path = append(path, int32(n))
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			a.path[code] = path
		}
		// A missing value (kept as its own category only for categorical
		// columns, so never seen here) would stay at the root.
		a.path[len(c.Dict)] = []int32{0}
		for n := range h.Nodes {
			for i, ch := range h.Nodes[n].Children {
				a.childPos[ch] = int32(i)
			}
		}
		a.childAt = make([][]int32, h.Height()+1)
		for d := range a.childAt {
			a.childAt[d] = make([]int32, len(a.path))
			for code, path := range a.path {
				a.childAt[d][code] = -1
				if d+1 < len(path) {
					a.childAt[d][code] = a.childPos[path[d+1]]
				}
			}
		}
		p.attrs = append(p.attrs, a)
	}
	sc := t.Column(sa)
	if sc == nil {
		return nil, &model.ParamError{Param: "sa", Value: sa, Reason: "no such column"}
	}
	p.m = len(sc.Dict) + 1
	p.sa = make([]int32, t.Rows)
	for r, code := range sc.Codes {
		if code == model.Missing {
			p.sa[r] = int32(len(sc.Dict))
		} else {
			p.sa[r] = int32(code)
		}
	}
	return p, nil
}

// scratch is one worker's reusable memory.
type scratch struct {
	stamp []int32 // per SA value: the partition that numbered it
	local []int32 // per SA value: its local index in that partition
	cur   int32
	ml    int     // distinct SA values in the partition
	lsa   []int32 // per row of the partition: its local SA index
	dest  []int32 // per row of the partition: its child's position
	cnt   []int32 // child*ml + local value
	moved []int32 // child*ml + local value: tuples moved back
	size  []int32
	m1    []int32 // per child: largest count
	arg1  []int32 // per child: its local value
	m2    []int32 // per child: second largest count (other values)
	live  []bool  // per child: kept (not merged back)
	rc    []int32 // remainder counts per local value
	// the best split so far: its dest, live and moved
	bestDest  []int32
	bestLive  []bool
	bestMoved []int32
	buf       []int32
	childN    []int32
	// arenas for the small slices of new partitions
	i32 []int32
	u16 []uint16
}

// vec returns a copy of v from the worker's arena.
func (s *scratch) vec(v []int32) []int32 {
	if len(s.i32) < len(v) {
		s.i32 = make([]int32, max(4096, len(v)))
	}
	out := s.i32[:len(v):len(v)]
	s.i32 = s.i32[len(v):]
	copy(out, v)
	return out
}

// path returns p with x appended, from the worker's arena.
func (s *scratch) path(p []uint16, x uint16) []uint16 {
	n := len(p) + 1
	if len(s.u16) < n {
		s.u16 = make([]uint16, max(8192, n))
	}
	out := s.u16[:n:n]
	s.u16 = s.u16[n:]
	copy(out, p)
	out[len(p)] = x
	return out
}

// prepare numbers the partition's sensitive values locally (only the
// values present count, whatever the domain's size).
func (p *problem) prepare(s *scratch, part *partition) {
	if len(s.local) < p.m {
		s.local = make([]int32, p.m)
		s.stamp = make([]int32, p.m)
	}
	n := len(part.rows)
	if cap(s.dest) < n {
		s.dest = make([]int32, n)
		s.bestDest = make([]int32, n)
		s.buf = make([]int32, n)
		s.lsa = make([]int32, n)
	}
	s.lsa = s.lsa[:n]
	s.cur++
	if s.cur == 1<<30 {
		clear(s.stamp)
		s.cur = 1
	}
	ml := int32(0)
	for i, r := range part.rows {
		v := p.sa[r]
		if s.stamp[v] != s.cur {
			s.stamp[v] = s.cur
			s.local[v] = ml
			ml++
		}
		s.lsa[i] = s.local[v]
	}
	s.ml = int(ml)
}

// simulate specializes part on attribute q (steps 7-10 of Algorithm 1)
// on counts only and leaves the outcome in s (each row's child, the live
// children, the tuples moved back per child and value). It returns the
// number of children kept and of tuples outside the remainder.
func (p *problem) simulate(s *scratch, part *partition, q int) (kept, specialized int) {
	a := &p.attrs[q]
	node := part.vec[q]
	child := a.childAt[a.h.Nodes[node].Depth]
	nch := len(a.h.Nodes[node].Children)
	ml := s.ml
	s.reset(nch, ml)
	dest := s.dest[:len(part.rows)]
	codes := a.codes
	lsa := s.lsa
	for i, r := range part.rows {
		ch := child[codes[r]]
		dest[i] = ch
		s.cnt[int(ch)*ml+int(lsa[i])]++
		s.size[ch]++
	}
	for c := 0; c < nch; c++ {
		s.refresh(c, ml)
		s.live[c] = s.size[c] > 0 && feasible(int(s.size[c]), int(s.m1[c]), p.k, p.alpha)
	}
	rsize, rmax := s.mergeViolating(nch, ml)
	p.moveBack(s, nch, ml, rsize, rmax)
	for c := 0; c < nch; c++ {
		if s.live[c] {
			kept++
			specialized += int(s.size[c])
		}
	}
	return kept, specialized
}

// reset sizes and clears the per-child counts of a simulation over nch
// children and ml local sensitive values.
func (s *scratch) reset(nch, ml int) {
	need := nch * ml
	if cap(s.cnt) < need {
		s.cnt = make([]int32, need)
		s.moved = make([]int32, need)
	}
	s.cnt = s.cnt[:need]
	s.moved = s.moved[:need]
	clear(s.cnt)
	clear(s.moved)
	s.size = resize(s.size, nch)
	s.m1 = resize(s.m1, nch)
	s.arg1 = resize(s.arg1, nch)
	s.m2 = resize(s.m2, nch)
	if cap(s.live) < nch {
		s.live = make([]bool, nch)
	}
	s.live = s.live[:nch]
	s.rc = resize(s.rc, ml)
}

// mergeViolating is step 8 of Algorithm 1 (Wong et al., Section 6): the
// children that violate (alpha,k) are merged back into the parent, the
// remainder. It returns the remainder's size and the count of its most
// frequent value.
func (s *scratch) mergeViolating(nch, ml int) (rsize, rmax int) {
	for c := 0; c < nch; c++ {
		if s.live[c] || s.size[c] == 0 {
			continue
		}
		for v := 0; v < ml; v++ {
			s.rc[v] += s.cnt[c*ml+v]
		}
		rsize += int(s.size[c])
	}
	for v := 0; v < ml; v++ {
		rmax = max(rmax, int(s.rc[v]))
	}
	return rsize, rmax
}

// moveBack is step 10 of Algorithm 1 (Wong et al., Section 6): tuples
// move from the live children back to the remainder until it satisfies
// (alpha,k); when no child can spare a useful tuple, the smallest child is
// merged back whole.
func (p *problem) moveBack(s *scratch, nch, ml, rsize, rmax int) {
	for rsize > 0 && !feasible(rsize, rmax, p.k, p.alpha) {
		bc, bv, bt := p.bestSpare(s, nch, ml, rsize, rmax)
		if bc < 0 {
			small := s.smallestLive(nch)
			if small < 0 {
				break // cannot happen: the parent itself satisfies (alpha,k)
			}
			s.live[small] = false
			for v := 0; v < ml; v++ {
				s.rc[v] += s.cnt[small*ml+v]
				rmax = max(rmax, int(s.rc[v]))
			}
			rsize += int(s.size[small])
			continue
		}
		s.cnt[bc*ml+bv] -= int32(bt)
		s.moved[bc*ml+bv] += int32(bt)
		s.size[bc] -= int32(bt)
		s.refresh(bc, ml)
		s.rc[bv] += int32(bt)
		rsize += bt
		rmax = max(rmax, int(s.rc[bv]))
	}
}

// bestSpare picks the move of step 10: the live child c and local value v
// rarest in the remainder that can spare t > 0 useful tuples. bc is -1
// when there is none.
func (p *problem) bestSpare(s *scratch, nch, ml, rsize, rmax int) (bc, bv, bt int) {
	bc, bv = -1, -1
	for c := 0; c < nch; c++ {
		if !s.live[c] {
			continue
		}
		for v := 0; v < ml; v++ {
			if s.cnt[c*ml+v] == 0 || (bv >= 0 && s.rc[v] >= s.rc[bv]) {
				continue
			}
			// Only a value rarer in the remainder than its most
			// frequent one lowers that value's share; any value helps
			// a remainder short of k.
			if int(s.rc[v]) >= rmax && rsize >= p.k {
				continue
			}
			if t := p.spare(s, c, v, ml, rsize, rmax); t > 0 {
				bc, bv, bt = c, v, t
			}
		}
	}
	return bc, bv, bt
}

// smallestLive is the live child with the fewest tuples (the first of
// equals), or -1 when none is live.
func (s *scratch) smallestLive(nch int) int {
	small := -1
	for c := 0; c < nch; c++ {
		if s.live[c] && (small < 0 || s.size[c] < s.size[small]) {
			small = c
		}
	}
	return small
}

// keep saves the outcome of the last simulate as the best split.
func (s *scratch) keep(nch int) {
	s.dest, s.bestDest = s.bestDest, s.dest
	s.bestLive = append(s.bestLive[:0], s.live[:nch]...)
	s.bestMoved = append(s.bestMoved[:0], s.moved...)
}

// spare is how many tuples of local value v child c can give the
// remainder (rsize tuples, most frequent value rmax times) while staying
// (alpha,k)-anonymous, capped at what the remainder needs: enough to
// reach k tuples and to bring its most frequent value down to alpha,
// without v overtaking that value.
func (p *problem) spare(s *scratch, c, v, ml, rsize, rmax int) int {
	size := int(s.size[c])
	have := int(s.cnt[c*ml+v])
	other := int(s.m1[c]) // the child's most frequent other value
	if int(s.arg1[c]) == v {
		other = int(s.m2[c])
	}
	// The child keeps k tuples and other <= alpha (size - t), i.e. size -
	// t >= ceil(other / alpha).
	t := min(have, size-p.k, size-p.alpha.MinSize(other))
	// The remainder needs k tuples and rmax <= alpha (rsize + t).
	want := max(1, p.k-rsize, p.alpha.MinSize(rmax)-rsize)
	if rc := int(s.rc[v]); rc < rmax {
		want = min(want, rmax-rc) // v must not overtake rmax
	} else {
		want = 1
	}
	t = min(t, want)
	// Confirm with the (alpha,k) test: the child's most frequent value
	// may be v itself.
	for ; t > 0 && !feasible(size-t, max(other, have-t), p.k, p.alpha); t-- {
	}
	return max(t, 0)
}

// refresh recomputes child c's largest and second largest counts.
func (s *scratch) refresh(c, ml int) {
	m1, a1, m2 := int32(0), int32(-1), int32(0)
	for v := 0; v < ml; v++ {
		x := s.cnt[c*ml+v]
		if x > m1 {
			m2 = m1
			m1, a1 = x, int32(v)
		} else if x > m2 {
			m2 = x
		}
	}
	s.m1[c], s.arg1[c], s.m2[c] = m1, a1, m2
}

func resize(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// step specializes one partition: it tries every QI it may still
// specialize, applies the best split and returns the new partitions
// (children first, then the remainder), or nil when the partition is
// final.
func (p *problem) step(s *scratch, part *partition) []partition {
	p.prepare(s, part)
	best, bestKept, bestSpec := -1, 0, 0
	for q := range p.attrs {
		if part.frozen[q] || p.attrs[q].h.IsLeaf(int(part.vec[q])) {
			continue
		}
		kept, spec := p.simulate(s, part, q)
		if kept > 0 && (best < 0 || kept > bestKept || (kept == bestKept && spec > bestSpec)) {
			best, bestKept, bestSpec = q, kept, spec
			s.keep(len(p.attrs[q].h.Nodes[part.vec[q]].Children))
		}
	}
	if best < 0 {
		return nil
	}
	q := best
	a := &p.attrs[q]
	nch := len(a.h.Nodes[part.vec[q]].Children)
	ml := s.ml
	dest := s.bestDest[:len(part.rows)]
	// dest: child position -> 1+child, or 0 for the remainder.
	for i := range part.rows {
		c := dest[i]
		lv := s.lsa[i]
		switch {
		case !s.bestLive[c]:
			dest[i] = 0
		case s.bestMoved[int(c)*ml+int(lv)] > 0:
			s.bestMoved[int(c)*ml+int(lv)]--
			dest[i] = 0
		default:
			dest[i] = c + 1
		}
	}
	// Counting sort of the rows by destination, stable.
	s.childN = resize(s.childN, nch+2)
	for _, d := range dest {
		s.childN[d+1]++
	}
	for d := 1; d < len(s.childN); d++ {
		s.childN[d] += s.childN[d-1]
	}
	start := s.vec(s.childN)
	buf := s.buf[:len(part.rows)]
	for i, r := range part.rows {
		d := dest[i]
		buf[s.childN[d]] = r
		s.childN[d]++
	}
	copy(part.rows, buf)
	var out []partition
	for c := 0; c < nch; c++ {
		lo, hi := start[c+1], start[c+2]
		if lo == hi {
			continue
		}
		vec := s.vec(part.vec)
		vec[q] = int32(a.h.Nodes[part.vec[q]].Children[c])
		out = append(out, partition{rows: part.rows[lo:hi], vec: vec, frozen: part.frozen,
			path: s.path(part.path, uint16(1+c))})
	}
	if n := start[1]; n > 0 {
		frozen := append([]bool(nil), part.frozen...)
		frozen[q] = true
		out = append(out, partition{rows: part.rows[:n], vec: part.vec, frozen: frozen, path: s.path(part.path, 0)})
	}
	return out
}

// specialize runs Algorithm 1 on rows (all of the table, or a subset) and
// returns the QID-ECs in a deterministic order (depth first over the
// specialization tree, children in hierarchy order, then remainders). The
// caller has checked that rows satisfy (alpha,k). Partitions are
// independent, so they are processed on all cores.
func (p *problem) specialize(ctx context.Context, rows []int32, progress func(float64)) ([]class, error) {
	root := partition{rows: rows, vec: make([]int32, len(p.attrs)), frozen: make([]bool, len(p.attrs))}
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		stack   = []partition{root}
		busy    int
		out     []class
		done    int
		firstEr error
	)
	total := len(rows)
	workers := runtime.GOMAXPROCS(0)
	if len(rows) < 20000 {
		workers = 1
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &scratch{}
			var local []class
			for {
				mu.Lock()
				for len(stack) == 0 && busy > 0 && firstEr == nil {
					cond.Wait()
				}
				if len(stack) == 0 || firstEr != nil {
					out = append(out, local...)
					mu.Unlock()
					cond.Broadcast()
					return
				}
				part := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				busy++
				mu.Unlock()

				kids, finished, err := p.specializeOne(ctx, s, part, &local)
				mu.Lock()
				busy--
				if err != nil && firstEr == nil {
					firstEr = err
				}
				// Push in reverse so the first child is processed next.
				for i := len(kids) - 1; i >= 0; i-- {
					stack = append(stack, kids[i])
				}
				if finished > 0 {
					done += finished
					if progress != nil && total > 0 && done*20/total != (done-finished)*20/total {
						progress(float64(done) / float64(total))
					}
				}
				mu.Unlock()
				cond.Broadcast()
			}
		}()
	}
	wg.Wait()
	if firstEr != nil {
		return nil, firstEr
	}
	sortClasses(out)
	return out, nil
}

// specializeOne is one worker's turn in specialize: it splits part one
// step and returns its children to share, or, when part cannot be split
// or is small enough to solve whole here (without the shared stack),
// appends its final classes to local and returns the rows they finish.
func (p *problem) specializeOne(ctx context.Context, s *scratch, part partition, local *[]class) (kids []partition, finished int, err error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if len(part.rows) < localRows {
		before := len(*local)
		*local, err = p.solveLocal(ctx, s, part, *local)
		for _, c := range (*local)[before:] {
			finished += len(c.rows)
		}
		return nil, finished, err
	}
	if kids = p.step(s, &part); kids == nil {
		*local = append(*local, class{rows: part.rows, vec: part.vec, path: part.path})
		finished = len(part.rows)
	}
	return kids, finished, nil
}

// localRows is the partition size below which a worker specializes the
// whole subtree itself.
const localRows = 4096

// solveLocal specializes part and all its descendants depth first and
// appends the final partitions to out.
func (p *problem) solveLocal(ctx context.Context, s *scratch, part partition, out []class) ([]class, error) {
	stack := []partition{part}
	for n := 0; len(stack) > 0; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return out, ctx.Err()
		}
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids := p.step(s, &cur)
		if kids == nil {
			out = append(out, class{rows: cur.rows, vec: cur.vec, path: cur.path})
			continue
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out, nil
}

// sortClasses orders classes by their path: children in hierarchy order
// before the remainder of their parent (a remainder's path ends in 0 but
// sorts after the children, 1+i).
func sortClasses(cs []class) {
	key := func(x uint16) int {
		if x == 0 {
			return 1 << 17
		}
		return int(x)
	}
	slices.SortFunc(cs, func(a, b class) int {
		for x := 0; x < len(a.path) && x < len(b.path); x++ {
			if a.path[x] != b.path[x] {
				return key(a.path[x]) - key(b.path[x])
			}
		}
		return len(a.path) - len(b.path)
	})
}
