package attack

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"privlab/algorithms/risk"
	"privlab/model"
)

// Predicates is the most predicates the singling-out attacker tries (as
// many again are tried without the release, for the baseline).
const Predicates = 2000

// predicate is a conjunction of conditions on distinct quasi-identifiers:
// QI qis[j] takes values[j], a published cell of that QI (a person
// satisfies it when the cell covers their value) or, raw, a value code of
// the population's column (the baseline's guesses, made without the
// release).
type predicate struct {
	qis    []int
	values []uint32
	raw    bool
}

// plan is the attacker's predicates built from the release and as many
// built without it, the i-th of the second on the same quasi-identifiers
// as the i-th of the first.
type plan struct {
	main, base []predicate
	univariate int // main's first univariate predicates
}

// splitmix is a small seeded generator (Steele et al.'s SplitMix64): the
// attacker's draws depend on the seed alone, never on global state or on
// the Go release.
type splitmix struct{ s uint64 }

func (m *splitmix) next() uint64 {
	m.s += 0x9E3779B97F4A7C15
	z := m.s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// intN is a draw in 0..n-1.
func (m *splitmix) intN(n int) int {
	hi, _ := bits.Mul64(m.next(), uint64(n))
	return int(hi)
}

// releaseSeed hashes what the release publishes to the attacker: the
// quasi-identifiers, the cells' labels, and each region's records and
// cells (FNV-1a, a 32-bit word at a time for the numbers). The same
// release gives the same predicates.
func releaseSeed(v *risk.View, e *risk.Exposure) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	text := func(s string) {
		for k := 0; k < len(s); k++ {
			h = (h ^ uint64(s[k])) * prime
		}
		h = (h ^ 0xff) * prime
	}
	for i, q := range v.QIs {
		text(q)
		for _, l := range e.Labels(v)[i] {
			text(l)
		}
	}
	for r, reg := range v.Regions {
		h = (h ^ uint64(uint32(reg.Records))) * prime
		for i := range v.QIs {
			cells := e.RegionCells(v, r, i)
			h = (h ^ uint64(len(cells))) * prime
			for _, c := range cells {
				h = (h ^ uint64(c)) * prime
			}
		}
	}
	return h
}

// regionCells are the published regions' cells a person can be placed
// in: the k-th region's cells on QI i are at(k, i).
type regionCells struct {
	d       int
	regions []int
	cells   []uint32
	start   []int32 // len(regions)*d + 1
}

func (rc *regionCells) at(k, i int) []uint32 {
	j := k*rc.d + i
	return rc.cells[rc.start[j]:rc.start[j+1]]
}

// published lists the regions that publish a record and, on every QI, a
// cell a person can be placed in.
func published(v *risk.View, e *risk.Exposure, labels [][]string) *regionCells {
	d := len(v.QIs)
	rc := &regionCells{d: d, start: []int32{0}}
	for r, reg := range v.Regions {
		if reg.Records == 0 {
			continue
		}
		cells, starts, ok := len(rc.cells), len(rc.start), true
		for i := 0; i < d && ok; i++ {
			n := len(rc.cells)
			for _, c := range e.RegionCells(v, r, i) {
				if int(c) < len(labels[i]) {
					rc.cells = append(rc.cells, c)
				}
			}
			ok = len(rc.cells) > n
			rc.start = append(rc.start, int32(len(rc.cells)))
		}
		if !ok {
			rc.cells, rc.start = rc.cells[:cells], rc.start[:starts]
			continue
		}
		rc.regions = append(rc.regions, r)
	}
	return rc
}

// makePlan builds the attacker's n predicates from the published regions
// (Giomi et al., Section 4.1, read for a generalized release): first the
// distinct cells a region publishes on one QI, then conjunctions of a
// region's cells on two or more of its QIs. Half of the n go to each
// kind, and what one kind cannot fill to the other; a kind offering more
// than its share is drawn (a conjunction: a published region, a number
// of QIs, which QIs, one of the region's cells on each), else taken
// whole: a release offering at most n distinct predicates is tried on
// every one. The baseline's predicates guess,
// on the same QIs, values drawn from the population's marginals (a
// random person's value, QI by QI). pop gives the marginals.
func makePlan(v *risk.View, e *risk.Exposure, pop *placed, n int) *plan {
	rng := &splitmix{s: releaseSeed(v, e)}
	labels := e.Labels(v)
	rc := published(v, e, labels)
	p := &plan{}
	uni := univariates(labels, rc)
	var conj []predicate
	if rc.d > 1 && len(rc.regions) > 0 {
		conj = conjunctions(rc, rng, n-min(len(uni), n/2))
	}
	p.main = append(pick(uni, rng, n-len(conj)), conj...)
	p.univariate = len(p.main) - len(conj)
	for _, q := range p.main {
		b := predicate{qis: q.qis, values: make([]uint32, len(q.qis)), raw: true}
		for j, i := range q.qis {
			b.values[j] = pop.code(int32(rng.intN(len(pop.tupleOf))), i)
		}
		p.base = append(p.base, b)
	}
	return p
}

// code is a row's value code on QI i (a missing value: len(Dict)).
func (p *placed) code(row int32, i int) uint32 {
	c := p.cols[i].Codes[row]
	if c == model.Missing || c >= uint32(len(p.cols[i].Dict)) {
		return uint32(len(p.cols[i].Dict))
	}
	return c
}

// univariates are the distinct cells the published regions show on one
// QI, in the order they first appear.
func univariates(labels [][]string, rc *regionCells) []predicate {
	seen := make([][]bool, rc.d)
	for i := range seen {
		seen[i] = make([]bool, len(labels[i]))
	}
	var out []predicate
	for k := range rc.regions {
		for i := 0; i < rc.d; i++ {
			for _, c := range rc.at(k, i) {
				if !seen[i][c] {
					seen[i][c] = true
					out = append(out, predicate{qis: []int{i}, values: []uint32{c}})
				}
			}
		}
	}
	return out
}

// pick keeps n of the predicates drawn at random (all, in order, when
// there are no more).
func pick(out []predicate, rng *splitmix, n int) []predicate {
	if len(out) <= n {
		return out
	}
	for j := 0; j < n; j++ {
		k := j + rng.intN(len(out)-j)
		out[j], out[k] = out[k], out[j]
	}
	return out[:n]
}

// conjunctions are n distinct conjunctions of a published region's
// cells on two or more QIs: every one (n drawn when there are more) when
// the regions offer few, else drawn one by one.
func conjunctions(rc *regionCells, rng *splitmix, n int) []predicate {
	d := rc.d
	if n <= 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []predicate
	add := func(q predicate) {
		if k := q.key(); !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
	}
	if offered(rc, 4*n) <= 4*n {
		cells := make([][]uint32, d)
		for k := range rc.regions {
			for i := range cells {
				cells[i] = rc.at(k, i)
			}
			for mask := 1; mask < 1<<d; mask++ {
				if bits.OnesCount(uint(mask)) >= 2 {
					everyCombination(mask, cells, add)
				}
			}
		}
		return pick(out, rng, n)
	}
	idx := make([]int, d)
	for tries := 0; tries < 20*n && len(out) < n; tries++ {
		r := rng.intN(len(rc.regions))
		a := 2 + rng.intN(d-1)
		for i := range idx {
			idx[i] = i
		}
		for j := 0; j < a; j++ {
			k := j + rng.intN(d-j)
			idx[j], idx[k] = idx[k], idx[j]
		}
		q := predicate{qis: slices.Clone(idx[:a]), values: make([]uint32, a)}
		slices.Sort(q.qis)
		for j, i := range q.qis {
			cells := rc.at(r, i)
			q.values[j] = cells[rng.intN(len(cells))]
		}
		add(q)
	}
	return out
}

// offered counts the conjunctions on two or more QIs the regions offer,
// repeats included, up to just over limit.
func offered(rc *regionCells, limit int) int {
	if rc.d >= 30 {
		return limit + 1
	}
	total := 0
	for k := range rc.regions {
		// prod(1 + |cells_i|) - 1 - sum |cells_i|: the products on two or more QIs.
		prod, sum := 1, 0
		for i := 0; i < rc.d; i++ {
			n := len(rc.at(k, i))
			if prod *= 1 + n; prod > 4*limit+4 {
				return limit + 1
			}
			sum += n
		}
		if total += prod - 1 - sum; total > limit {
			return limit + 1
		}
	}
	return total
}

// everyCombination calls add with every conjunction of one cell per QI
// of mask.
func everyCombination(mask int, cells [][]uint32, add func(predicate)) {
	var qis []int
	for i := range cells {
		if mask&(1<<i) != 0 {
			qis = append(qis, i)
		}
	}
	at := make([]int, len(qis))
	for {
		q := predicate{qis: qis, values: make([]uint32, len(qis))}
		for j, i := range qis {
			q.values[j] = cells[i][at[j]]
		}
		add(q)
		j := len(qis) - 1
		for ; j >= 0; j-- {
			if at[j]++; at[j] < len(cells[qis[j]]) {
				break
			}
			at[j] = 0
		}
		if j < 0 {
			return
		}
	}
}

// key identifies a predicate among those of its kind.
func (q predicate) key() string {
	b := make([]byte, 0, 8*len(q.qis))
	for j, i := range q.qis {
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
		b = binary.LittleEndian.AppendUint32(b, q.values[j])
	}
	return string(b)
}
