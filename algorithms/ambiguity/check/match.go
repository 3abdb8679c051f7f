package check

import (
	"sort"

	"privlab/algorithms/verify"
)

// matcher finds a largest assignment of original records to the st.csv
// rows of one sensitive value (a b-matching: a row of frequency f takes f
// records of that value its group covers, a tuple gives at most its
// count of records). It is Dinic's maximum flow on a network whose edges
// are enumerated from the groups' tables when a row is expanded (boxes),
// never stored: source -> row (its frequency) -> tuple it covers ->
// sink (the tuple's records), from a greedy start (greedy).
type matcher struct {
	b     *boxes
	sa    uint32
	group []int32 // per row of this value: its group
	need  []int   // per row: records it still lacks
	took  [][]int32
	spare []int     // per tuple: records not placed
	held  [][]int32 // per tuple: the rows holding one of its records (repeated per record)
	// Levels of the current phase (valid where the stamp is the phase).
	phase          int32
	levX, levT     []int32
	stampX, stampT []int32
	deadX, deadT   []int32 // stamp of the phase a node was found a dead end in
}

func newMatcher(b *boxes, sa uint32, rows []int, rl *release, spare []int) *matcher {
	m := &matcher{b: b, sa: sa, spare: spare, held: make([][]int32, len(b.ts.codes))}
	for _, row := range rows {
		m.group = append(m.group, rl.st.group[row])
		m.need = append(m.need, rl.freq[row])
	}
	n, nt := len(rows), len(b.ts.codes)
	m.took = make([][]int32, n)
	m.levX, m.stampX, m.deadX = make([]int32, n), make([]int32, n), make([]int32, n)
	m.levT, m.stampT, m.deadT = make([]int32, nt), make([]int32, nt), make([]int32, nt)
	return m
}

// take gives row x one record of tuple t.
func (m *matcher) take(x, t int32) {
	m.spare[t]--
	m.need[x]--
	m.took[x] = append(m.took[x], t)
	m.held[t] = append(m.held[t], x)
}

// release takes one record of tuple t back from row x.
func (m *matcher) release(x, t int32) {
	m.spare[t]++
	m.need[x]++
	m.took[x] = removeOne(m.took[x], t)
	m.held[t] = removeOne(m.held[t], x)
}

func removeOne(list []int32, v int32) []int32 {
	for i, x := range list {
		if x == v {
			list[i] = list[len(list)-1]
			return list[:len(list)-1]
		}
	}
	return list
}

// start loads the greedy start's records of each row (see greedy).
func (m *matcher) start(rows []int, took [][]int32) {
	for x, row := range rows {
		for _, t := range took[row] {
			m.spare[t]++ // greedy counted it already
			m.take(int32(x), t)
		}
	}
}

// levels is the breadth-first search of a phase from every row that
// lacks records: row -> tuple it covers -> row holding one of that
// tuple's records -> ... It reports whether a tuple with a record to
// spare is reachable.
func (m *matcher) levels() bool {
	m.phase++
	var front []int32
	for x, n := range m.need {
		if n > 0 {
			m.levX[x], m.stampX[x] = 0, m.phase
			front = append(front, int32(x))
		}
	}
	for level := int32(0); len(front) > 0; level += 2 {
		var tuples []int32
		found := false
		for _, x := range front {
			m.b.each(m.group[x], m.sa, func(t int32) bool {
				if m.stampT[t] != m.phase {
					m.stampT[t], m.levT[t] = m.phase, level+1
					found = found || m.spare[t] > 0
					tuples = append(tuples, t)
				}
				return true
			})
		}
		if found {
			return true
		}
		front = front[:0]
		for _, t := range tuples {
			for _, y := range m.held[t] {
				if m.stampX[y] != m.phase {
					m.stampX[y], m.levX[y] = m.phase, level+2
					front = append(front, y)
				}
			}
		}
	}
	return false
}

// augment finds one more record for row x along the phase's levels: a
// covered tuple with one to spare, or one whose record a row of the next
// level can give up for another (found the same way). It marks dead ends.
func (m *matcher) augment(x int32) bool {
	ok := false
	m.b.each(m.group[x], m.sa, func(t int32) bool {
		if m.stampT[t] != m.phase || m.levT[t] != m.levX[x]+1 || m.deadT[t] == m.phase {
			return true
		}
		if m.spare[t] > 0 {
			m.take(x, t)
			ok = true
			return false
		}
		for i := 0; i < len(m.held[t]); i++ {
			y := m.held[t][i]
			if m.stampX[y] == m.phase && m.levX[y] == m.levT[t]+1 && m.deadX[y] != m.phase && m.augment(y) {
				m.release(y, t)
				m.take(x, t)
				ok = true
				return false
			}
		}
		m.deadT[t] = m.phase
		return true
	})
	if !ok {
		m.deadX[x] = m.phase
	}
	return ok
}

// solve runs Dinic's phases until no row that lacks records can reach a
// tuple with one to spare (a phase that reaches one augments at least
// once; the guard only makes that plain).
func (m *matcher) solve() {
	for short := m.short(); short > 0 && m.levels(); {
		for x := range m.need {
			for m.need[x] > 0 && m.stampX[x] == m.phase && m.levX[x] == 0 && m.deadX[x] != m.phase && m.augment(int32(x)) {
			}
		}
		now := m.short()
		if now == short {
			return
		}
		short = now
	}
}

// short counts the records the rows still lack.
func (m *matcher) short() int {
	n := 0
	for _, x := range m.need {
		n += x
	}
	return n
}

// membersByFlow assigns original records to the groups, one sensitive
// value at a time: it returns each group's members and the number of
// published records placed (every one exactly when the members are a
// faithful assignment), and the flows it ran.
func membersByFlow(rl *release, o *verify.Original) ([][]int, int, *flows) {
	fl := newFlows(rl, originalTuples(rl, o))
	members, placed := fl.run()
	return members, placed, fl
}

// greedy is the start of the flows: the st.csv rows with the fewest
// covering tuples first, each takes as many as it needs of records of the covered tuple with
// some to spare on which the rows' demand presses least (per record of
// the tuple). It returns each row's tuples.
func greedy(rl *release, b *boxes, spare, need []int) [][]int32 {
	n := rl.st.t.Rows
	cands := make([]int, n)
	press := make([]float64, len(spare)) // demand on a tuple per record
	for row := 0; row < n; row++ {
		b.each(rl.st.group[row], rl.st.value.Codes[row], func(t int32) bool {
			cands[row]++
			press[t] += float64(rl.freq[row]) / float64(spare[t])
			return true
		})
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, c int) bool { return cands[order[a]] < cands[order[c]] })
	took := make([][]int32, n)
	for _, row := range order {
		g, sa := rl.st.group[row], rl.st.value.Codes[row]
		for k := 0; k < need[row]; k++ {
			best := int32(-1)
			b.each(g, sa, func(t int32) bool {
				if spare[t] > 0 && (best < 0 || press[t] < press[best]) {
					best = t
				}
				return true
			})
			if best < 0 {
				break
			}
			spare[best]--
			took[row] = append(took[row], best)
		}
	}
	return took
}
