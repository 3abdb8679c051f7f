package sampling

import (
	"context"
	"encoding/binary"

	"privlab/model"
)

// recoder runs Algorithm 1 of Sattar et al. (Section 5.3) on the sampled
// records.
//
// The paper rescans every record after every generalization (steps 4-19,
// O(n^2)). Here the state is kept as equivalence groups (Definition 8)
// split into cells, one per sensitive value: every record of a cell has
// the same generalized QIs and the same sensitive value, hence the same
// Pr(t), observed and expected confidence and distortion, so Eq. 3 is
// decided per cell. Group sizes and cell counts are updated incrementally
// when records move, and only the cells whose confidence may have risen
// are checked again: the other cells of a group that lost records, and
// the cell that received them. A work queue holds those cells.
//
// Where the paper's loop is ambiguous, the choices are:
//   - A violating cell sends up (or suppresses) the smallest number of its
//     records that lets the rest satisfy Eq. 3 (toMove): the paper's
//     record-by-record pass generalizes one violating record and
//     recomputes the confidences before the next, which stops at the same
//     point. The records that move are the last sampled ones of the cell
//     (the sample's order is random).
//   - A step raises the attribute with the largest left domain size
//     (Definition 11; ties go to the earlier QI) by one level. When that
//     step would take the distortion above delta', or every attribute is
//     at its root, the records are suppressed instead (steps 12-13: a
//     record whose distortion exceeds delta' is not published; variant
//     paper). The paper does not say whether another attribute may be
//     generalized instead when Definition 11's pick would exceed delta';
//     variant within-limit does that: it picks the largest left domain
//     size among the attributes whose step keeps the distortion within
//     delta', and suppresses only when there is none.
//   - Records whose minimum generalization (step 3) already exceeds
//     delta' are suppressed before the loop.
//   - n in Eq. 1 is the size of the published set. Suppressions shrink it,
//     which lowers every expected confidence, so after the queue empties
//     the pass is repeated with the new n until a pass suppresses nothing.
//
// Termination. A step is one call of fix that changes something, and
// each step raises a level or suppresses:
//   - fix counts a step only when toMove returns x >= 1 (x = 0 means the
//     cell satisfies Eq. 3 and nothing happens), and x <= the cell's
//     records, so at least one record leaves the cell;
//   - the records that leave either go to the suppressed list (never to
//     return) or to the group whose nodes are the old group's with the
//     one QI g.next replaced by its parent. g.next >= 0 only when that
//     QI's node has a parent (groupOf picks among non-root nodes), so
//     every moved record has exactly one QI one level higher, the others
//     unchanged;
//   - nothing lowers a level: records enter groups only at their minimum
//     generalization (add) or by a raise.
//
// So every step raises the level sum of at least one record by one or
// suppresses at least one record. A record's level sum can rise at most
// H = sum of the taxonomy heights times and it is suppressed at most
// once, so all passes together take at most n x (H + 1) steps, n the
// sampled records (each pass alone a fortiori). A pass after the first
// runs only when the previous pass suppressed a record, so there are at
// most (suppressed + 1) passes; in practice a few (2 on census with the
// paper's settings, up to 5 when delta' = 0.2 suppresses a third, up to 9
// on tiny tables where suppressions cascade), since a suppression lowers
// n, and so every expected confidence, only slightly.
// stepCount and passCount expose the counts to the tests.
type recoder struct {
	tax     []*taxonomy
	beta    float64
	maxDist float64
	// delta is delta' exactly; scale holds distortions as integers, so
	// that every limit test is exact (Definition 10).
	delta model.Bound
	scale distScale
	// withinLimit picks among the attributes whose step keeps the
	// distortion within delta' (variant within-limit).
	withinLimit bool
	// plain turns off the two shortcuts of a group of many cells (the
	// map by sensitive code, the skipped look for idle cells): a test
	// runs both ways and compares.
	plain  bool
	saP    []float64 // Pr(s) per sensitive code
	groups []group
	index  map[string]int32
	cells  []cell
	queue  []int32
	queued []bool
	n      int     // n of Eq. 1 in the current pass
	supp   []int32 // suppressed rows
	key    []byte
	steps  int
	passes int
}

// group is one equivalence group: its generalized values (taxonomy node
// per QI), size, cells and what generalizing it next means.
type group struct {
	nodes []int32
	size  int
	cells []int32
	qmass float64 // prod Pr(q'_i)
	dist  float64 // Definition 10
	units int64   // dist as distScale units (exact)
	// next is the QI Definition 11 picks (-1: all at the root) and
	// distNext the distortion after raising it (unitsNext exactly).
	next      int
	distNext  float64
	unitsNext int64
	// idle counts the cells with records that are not queued: fix
	// queues them when the group loses records, and skips the look
	// through the group's cells when there are none (a group of 18,000
	// one-record cells of distinct sensitive values, each suppressed in
	// turn, made that look quadratic).
	idle int
	// bySA finds a cell by sensitive code once the group has many
	// (cellOf's look through them was quadratic too).
	bySA map[int32]int32
}

// manyCells is the number of cells beyond which a group finds them by a
// map.
const manyCells = 8

// cell is the records of one group with one sensitive value, in sample
// order.
type cell struct {
	group int32
	sa    int32
	rows  []int32
}

func newRecoder(tax []*taxonomy, beta float64, delta model.Bound, saP []float64) (*recoder, error) {
	scale, err := newDistScale(tax)
	if err != nil {
		return nil, &model.ParamError{Param: paramMaxDist, Reason: err.Error(), Hint: "use taxonomies of fewer distinct heights"}
	}
	return &recoder{tax: tax, beta: beta, maxDist: delta.Float(), delta: delta, scale: scale, saP: saP, index: map[string]int32{},
		key: make([]byte, 4*len(tax))}, nil
}

// groupOf finds or creates the group with these nodes.
func (r *recoder) groupOf(nodes []int32) int32 {
	for i, x := range nodes {
		binary.LittleEndian.PutUint32(r.key[4*i:], uint32(x))
	}
	if g, ok := r.index[string(r.key)]; ok {
		return g
	}
	g := group{nodes: append([]int32(nil), nodes...), qmass: 1, next: -1}
	terms := make([]float64, len(nodes))
	best := int32(0)
	for i, x := range nodes {
		t := r.tax[i]
		g.qmass *= t.mass[x]
		terms[i] = t.term(x)
		if t.parent[x] >= 0 && t.lds[x] > best {
			best, g.next = t.lds[x], i
		}
	}
	g.dist = Distortion(terms)
	g.units = r.scale.units(r.tax, nodes)
	if r.withinLimit && g.next >= 0 {
		// Variant within-limit: the largest left domain size among the
		// attributes whose step keeps the distortion within delta'.
		g.next, best = -1, 0
		for i, x := range nodes {
			t := r.tax[i]
			if t.parent[x] < 0 || t.lds[x] <= best {
				continue
			}
			// A step up one level adds L/H_i units.
			if r.scale.within(r.delta, g.units+r.scale.mult[i]) {
				best, g.next = t.lds[x], i
			}
		}
	}
	if g.next >= 0 {
		terms[g.next] = r.tax[g.next].term(r.tax[g.next].parent[nodes[g.next]])
		g.distNext = Distortion(terms)
		g.unitsNext = g.units + r.scale.mult[g.next]
	}
	id := int32(len(r.groups))
	r.groups = append(r.groups, g)
	r.index[string(r.key)] = id
	return id
}

// cellOf finds or creates the cell of group g with sensitive code sa.
func (r *recoder) cellOf(g int32, sa int32) int32 {
	gr := &r.groups[g]
	if gr.bySA != nil {
		if c, ok := gr.bySA[sa]; ok {
			return c
		}
	} else {
		for _, c := range gr.cells {
			if r.cells[c].sa == sa {
				return c
			}
		}
	}
	id := int32(len(r.cells))
	r.cells = append(r.cells, cell{group: g, sa: sa})
	r.queued = append(r.queued, false)
	gr.cells = append(gr.cells, id)
	if gr.bySA != nil {
		gr.bySA[sa] = id
	} else if len(gr.cells) > manyCells && !r.plain {
		gr.bySA = make(map[int32]int32, 2*len(gr.cells))
		for _, c := range gr.cells {
			gr.bySA[r.cells[c].sa] = c
		}
	}
	return id
}

// idle says whether cell c has records and is not queued.
func (r *recoder) idle(c int32) bool { return !r.queued[c] && len(r.cells[c].rows) > 0 }

// track counts cell c's change of idleness (was: before the change) in
// its group's idle count.
func (r *recoder) track(c int32, was bool) {
	if now := r.idle(c); now != was {
		g := &r.groups[r.cells[c].group]
		if now {
			g.idle++
		} else {
			g.idle--
		}
	}
}

// addRows appends rows to cell c.
func (r *recoder) addRows(c int32, rows ...int32) {
	was := r.idle(c)
	r.cells[c].rows = append(r.cells[c].rows, rows...)
	r.track(c, was)
}

func (r *recoder) enqueue(c int32) {
	if r.idle(c) {
		r.queued[c] = true
		r.queue = append(r.queue, c)
		r.groups[r.cells[c].group].idle--
	}
}

// add places a sampled record with its (minimally generalized) nodes.
func (r *recoder) add(row int32, nodes []int32, sa int32) {
	g := r.groupOf(nodes)
	if !r.scale.within(r.delta, r.groups[g].units) {
		r.supp = append(r.supp, row)
		return
	}
	c := r.cellOf(g, sa)
	r.addRows(c, row)
	r.groups[g].size++
}

// published is the number of records in groups.
func (r *recoder) published(sampled int) int { return sampled - len(r.supp) }

// expected is Eq. 1 for cell c under the current n.
func (r *recoder) expected(c *cell) float64 {
	g := &r.groups[c.group]
	return ExpectedConfidence(g.qmass*r.saP[c.sa], r.n)
}

// run is steps 4-19: it fixes every violating cell until none is left.
func (r *recoder) run(ctx context.Context, sampled int) error {
	for {
		r.passes++
		before := len(r.supp)
		r.n = r.published(sampled)
		for c := range r.cells {
			r.enqueue(int32(c))
		}
		for len(r.queue) > 0 {
			if r.steps&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			c := r.queue[len(r.queue)-1]
			r.queue = r.queue[:len(r.queue)-1]
			r.queued[c] = false
			r.track(c, false)
			r.fix(c)
		}
		if len(r.supp) == before {
			return nil
		}
	}
}

// fix moves the records of cell ci that keep it from satisfying Eq. 3 one
// level up (or suppresses them) and queues the cells that may now
// violate.
func (r *recoder) fix(ci int32) {
	c := &r.cells[ci]
	gi := c.group
	count, size := len(c.rows), r.groups[gi].size
	if count == 0 {
		return
	}
	x := toMove(r.beta, r.expected(c), count, size)
	if x == 0 {
		return
	}
	r.steps++
	moved := c.rows[count-x:]
	c.rows = c.rows[:count-x]
	r.track(ci, true) // popped, it had records
	g := &r.groups[gi]
	g.size -= x
	sa := c.sa
	if g.next < 0 || !r.scale.within(r.delta, g.unitsNext) {
		r.supp = append(r.supp, moved...)
	} else {
		nodes := append([]int32(nil), g.nodes...)
		nodes[g.next] = r.tax[g.next].parent[nodes[g.next]]
		g2 := r.groupOf(nodes) // may grow r.groups
		c2 := r.cellOf(g2, sa) // may grow r.cells
		r.addRows(c2, moved...)
		r.groups[g2].size += x
		r.enqueue(c2)
	}
	// The group lost records: every other value's confidence rose.
	others := r.groups[gi].idle
	if r.idle(ci) {
		others--
	}
	if others == 0 && !r.plain {
		return
	}
	for _, oc := range r.groups[gi].cells {
		if oc != ci {
			r.enqueue(oc)
		}
	}
}
