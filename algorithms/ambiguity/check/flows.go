package check

import (
	"fmt"
	"slices"
)

// flows are membersByFlow's maximum flows, one per sensitive value, and
// the assignment they found: the st.csv rows holding each tuple's
// records, and the records of each tuple left over.
type flows struct {
	rl      *release
	ts      *tuples
	b       *boxes
	rowsOf  map[uint32][]int // st.csv rows by sensitive code
	holders [][]int32        // per tuple: the st.csv rows holding one of its records
	spare   []int            // per tuple: its records no row holds
	// work is what possible may still read (tuples met, combinations
	// enumerated), all values
	// together: past it a value is left possible.
	work int
}

// possibleWork bounds what possible reads over all values, so that
// a large release is checked within a second: a value past it is left
// possible (which member holds it only the audit record settles).
const possibleWork = 1 << 20

func newFlows(rl *release, ts *tuples) *flows {
	f := &flows{rl: rl, ts: ts, b: newBoxes(rl, ts), rowsOf: map[uint32][]int{}, work: possibleWork}
	for row := 0; row < rl.st.t.Rows; row++ {
		c := rl.st.value.Codes[row]
		f.rowsOf[c] = append(f.rowsOf[c], row)
	}
	return f
}

// run assigns distinct original records to the groups: each group's
// members and the records placed.
func (f *flows) run() ([][]int, int) {
	rl, ts := f.rl, f.ts
	f.spare = make([]int, len(ts.codes))
	for t := range f.spare {
		f.spare[t] = len(ts.rows[t])
	}
	f.holders = make([][]int32, len(ts.codes))
	members := make([][]int, rl.groups)
	used := make([]int, len(ts.codes)) // records of a tuple handed out
	placed := 0
	took := greedy(rl, f.b, f.spare, rl.freq)
	for sa, rows := range f.rowsOf {
		m := newMatcher(f.b, sa, rows, rl, f.spare)
		m.start(rows, took)
		m.solve()
		for x, list := range m.took {
			g := m.group[x]
			for _, t := range list {
				members[g] = append(members[g], ts.rows[t][used[t]])
				used[t]++
				f.holders[t] = append(f.holders[t], int32(rows[x]))
			}
			placed += len(list)
		}
	}
	return members, placed
}

// possible reports whether some faithful assignment (every st.csv row
// given its frequency of distinct records its group covers) gives group
// v.group a member holding value v, when the flows' assignment does not:
// some row x of the group, of sensitive code sa, can take a record of a
// tuple holding v (candidates) and the rows stay full. From the full
// assignment found that is reachability in its residual network, as
// an augmenting path is found: from the tuple x takes, through a row
// holding one of its records that takes another tuple it covers instead,
// to a tuple with a record to spare, or to one x holds (x gives that up).
// Past the work bound it answers true (not proven impossible).
func (f *flows) possible(v value) bool {
	st := f.rl.st
	for p := st.start[v.group]; p < st.start[v.group+1]; p++ {
		x := st.rows[p]
		sa := st.value.Codes[x]
		seen := map[int32]bool{}
		queue := f.candidates(v, sa)
		for _, t := range queue {
			seen[t] = true
		}
		for len(queue) > 0 {
			if f.work--; f.work < 0 {
				return true
			}
			t := queue[0]
			queue = queue[1:]
			if f.spare[t] > 0 || slices.Contains(f.holders[t], x) {
				return true
			}
			for _, y := range f.holders[t] {
				// Enumerating a group's tuples reads its combinations.
				f.work -= min(f.b.sizes[st.group[y]], enumBudget)
				f.b.each(st.group[y], sa, func(u int32) bool {
					if !seen[u] {
						seen[u] = true
						queue = append(queue, u)
					}
					return true
				})
			}
		}
	}
	return false
}

// candidates are the tuples group v.group covers with value v of its QI
// and sensitive code sa (boxes.held's enumeration).
func (f *flows) candidates(v value, sa uint32) []int32 {
	b, g := f.b, v.group
	vals := b.gv[g][v.qi]
	b.gv[g][v.qi] = []uint32{v.code}
	defer func() { b.gv[g][v.qi] = vals }()
	var out []int32
	b.each(g, sa, func(t int32) bool {
		out = append(out, t)
		return true
	})
	return out
}

// valueName names a value of an auxiliary table for a line: its table,
// group and text.
func valueName(rl *release, v value) string {
	tb := rl.at[v.qi]
	if v.group < 0 {
		return fmt.Sprintf("%s's %q in no group", tb.file, labelOf(tb.value, int(v.code)))
	}
	return fmt.Sprintf("%s's %q in group %d", tb.file, labelOf(tb.value, int(v.code)), rl.ids[v.group])
}
