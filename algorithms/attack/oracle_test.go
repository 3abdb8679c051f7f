package attack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"privlab/algorithms/risk"
	"privlab/model"
)

// world is a random tiny release as an attacker reads it, with the
// raw values each cell stands for, so that a brute force can compare
// every person with every region.
type world struct {
	v      *risk.View
	e      *risk.Exposure
	values [][][]string // per QI, per cell: the raw values it stands for
	pop    *model.Table
	orig   *model.Table
}

// table builds a table of text columns from rows.
func table(name string, cols []string, rows [][]string) *model.Table {
	t := &model.Table{Name: name, Rows: len(rows)}
	for i, c := range cols {
		col := &model.Column{Name: c}
		index := map[string]uint32{}
		for _, r := range rows {
			code, ok := index[r[i]]
			if !ok {
				code = uint32(len(col.Dict))
				index[r[i]] = code
				col.Dict = append(col.Dict, r[i])
			}
			col.Codes = append(col.Codes, code)
		}
		t.Columns = append(t.Columns, col)
	}
	return t
}

// randomWorld draws a release over two QIs with values 0..5: exact cells,
// intervals (overlapping, as local recoding and boxes give) or, with
// sets, regions that list several values per QI (ambiguity's groups).
func randomWorld(rng *rand.Rand, kind string) *world {
	const d, domain = 2, 6
	w := &world{values: make([][][]string, d)}
	v := &risk.View{QIs: []string{"a", "b"}, SA: "s", SAValues: []string{"x", "y", "z"}, Cells: make([][]string, d)}
	e := &risk.Exposure{Unit: "class", Presence: 0.5, K: 2, Posterior: func(int, int) float64 { return 0.6 }}
	for i := 0; i < d; i++ {
		switch kind {
		case "exact", "sets":
			for x := 0; x < domain; x++ {
				v.Cells[i] = append(v.Cells[i], strconv.Itoa(x))
				w.values[i] = append(w.values[i], []string{strconv.Itoa(x)})
			}
		case "intervals":
			for c := 0; c < 5; c++ {
				lo := rng.IntN(domain)
				hi := min(domain-1, lo+rng.IntN(3))
				v.Cells[i] = append(v.Cells[i], fmt.Sprintf("%d-%d#%d", lo, hi, c))
				var vals []string
				for x := lo; x <= hi; x++ {
					vals = append(vals, strconv.Itoa(x))
				}
				w.values[i] = append(w.values[i], vals)
			}
		}
		vals := map[uint32][]string{}
		for c, vs := range w.values[i] {
			vals[uint32(c)] = vs
		}
		e.Cover = append(e.Cover, risk.SetCover(v.Cells[i], vals))
	}
	for r := 0; r < 2+rng.IntN(6); r++ {
		p := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		switch rng.IntN(4) {
		case 0:
			p = []float64{0, 1, 0}
		case 1: // at Certain, below 1: a world may have no belief of 1
			p = []float64{0.05, 0.9, 0.05}
		}
		sum := p[0] + p[1] + p[2]
		for j := range p {
			p[j] /= sum
		}
		v.Beliefs = append(v.Beliefs, sparseBelief(p))
		reg := risk.Region{Records: 1 + rng.IntN(3), Belief: int32(len(v.Beliefs) - 1)}
		var sets [][]uint32
		for i := 0; i < d; i++ {
			c := uint32(rng.IntN(len(v.Cells[i])))
			reg.Cells = append(reg.Cells, c)
			set := []uint32{c}
			if kind == "sets" && rng.IntN(2) == 0 {
				set = risk.SortedUnique(append(set, uint32(rng.IntN(len(v.Cells[i])))))
			}
			sets = append(sets, set)
		}
		v.Regions = append(v.Regions, reg)
		e.Sets = append(e.Sets, sets)
	}
	if kind != "sets" {
		e.Sets = nil
	} else {
		e.Witnessed = true
	}
	var rows, orows [][]string
	for p := 0; p < 4+rng.IntN(14); p++ {
		row := []string{strconv.Itoa(rng.IntN(domain)), strconv.Itoa(rng.IntN(domain))}
		rows = append(rows, row)
		if rng.IntN(2) == 0 {
			orows = append(orows, append(append([]string(nil), row...), v.SAValues[rng.IntN(3)]))
		}
	}
	w.v, w.e = v, e
	w.pop = table("population", []string{"a", "b"}, rows)
	w.orig = table("original", []string{"a", "b", "s"}, append(orows, []string{"0", "0", "x"}))
	return w
}

// covers is the brute force: does region r cover person row of t?
func (w *world) covers(t *model.Table, row, r int) bool {
	for i := range w.v.QIs {
		raw := t.Columns[i].Value(row)
		ok := false
		for _, c := range w.e.RegionCells(w.v, r, i) {
			for _, x := range w.values[i][c] {
				ok = ok || x == raw
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// TestAttacksAgainstBruteForce compares the placement, linkage, presence
// and inference with a brute force over every person and region on
// random tiny releases of each shape, placed each way: by looking exact
// cells up or enumerating the regions' sets, by bitsets and by posting
// lists alone (a release beyond the bitsets' budget), and the regions'
// sets enumerated and the people's values inferred in three parts at
// once (every item its own part when there are fewer).
func TestAttacksAgainstBruteForce(t *testing.T) {
	defer func(b int, x, n bool, r int, m func() int) {
		bitsetBudget, tryExact, tryEnumerate, partItems, maxParts = b, x, n, r, m
	}(bitsetBudget, tryExact, tryEnumerate, partItems, maxParts)
	for _, way := range []struct {
		exact, enumerate bool
		budget           int
		split            bool
	}{{true, true, bitsetBudget, false}, {false, false, bitsetBudget, false}, {false, false, 0, false}, {true, true, bitsetBudget, true}} {
		tryExact, tryEnumerate, bitsetBudget = way.exact, way.enumerate, way.budget
		if way.split {
			partItems, maxParts = 1, func() int { return 3 }
		}
		bruteForce(t, way.budget)
	}
}

func bruteForce(t *testing.T, budget int) {
	for _, kind := range []string{"exact", "intervals", "sets"} {
		rng := rand.New(rand.NewPCG(7, uint64(len(kind))))
		for trial := 0; trial < 300; trial++ {
			w := randomWorld(rng, kind)
			name := fmt.Sprintf("%s/%d (bitset budget %d)", kind, trial, budget)
			checkLinkage(t, name, w)
			checkMembership(t, name, w)
			checkInference(t, name, w)
		}
	}
}

func checkLinkage(t *testing.T, name string, w *world) {
	k := &risk.Knowledge{Population: w.pop, PopulationName: "test"}
	p, err := place(w.pop, "population", w.v, w.e)
	if err != nil {
		t.Fatal(err)
	}
	m := make([]int, len(w.v.Regions))
	for row := 0; row < w.pop.Rows; row++ {
		var want []int32
		for r := range w.v.Regions {
			if w.covers(w.pop, row, r) {
				m[r]++
				want = append(want, int32(r))
			}
		}
		if got := p.candidates(int(p.tupleOf[row])); fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("%s: person %d placed in %v, brute force %v", name, row, got, want)
		}
	}
	f := linkage(w.v, w.e, p, "test", k)
	measured, records := 0.0, 0
	for r, reg := range w.v.Regions {
		if m[r] > 0 {
			measured = math.Max(measured, 1/float64(m[r]))
		}
		if m[r] == 1 {
			records += reg.Records
		}
	}
	if f.Measured != measured || f.Records != records || f.Bound != 0.5 {
		t.Fatalf("%s: linkage measured %v records %d bound %v, brute force %v %d 0.5", name, f.Measured, f.Records, f.Bound, measured, records)
	}
}

// checkMembership: a person is certain when a region covering them has
// as many records as people covered, or (sets) a value of a region only
// they hold among the people it covers; presence is the largest
// records/people of a region covering them.
func checkMembership(t *testing.T, name string, w *world) {
	k := &risk.Knowledge{Population: w.pop, PopulationName: "test"}
	p, _ := place(w.pop, "population", w.v, w.e)
	f := membership(w.v, w.e, p, "test", k)
	m := make([]int, len(w.v.Regions))
	for row := 0; row < w.pop.Rows; row++ {
		for r := range w.v.Regions {
			if w.covers(w.pop, row, r) {
				m[r]++
			}
		}
	}
	presence := make([]float64, w.pop.Rows)
	for row := range presence {
		for r, reg := range w.v.Regions {
			if w.covers(w.pop, row, r) {
				presence[row] = math.Max(presence[row], math.Min(1, float64(reg.Records)/float64(m[r])))
			}
		}
	}
	if w.e.Witnessed {
		for r := range w.v.Regions {
			for i := range w.v.QIs {
				for _, c := range w.e.Sets[r][i] {
					var holders []int
					for row := 0; row < w.pop.Rows; row++ {
						if w.covers(w.pop, row, r) && contains(w.values[i][c], w.pop.Columns[i].Value(row)) {
							holders = append(holders, row)
						}
					}
					if len(holders) == 1 {
						presence[holders[0]] = 1
					}
				}
			}
		}
	}
	measured, certain, above := 0.0, 0, 0
	for _, x := range presence {
		measured = math.Max(measured, x)
		if x >= 1 {
			certain++
		}
		if x > 0.5 {
			above++
		}
	}
	if f.Measured != measured || f.Records != certain || f.Holds() != boolInt(above == 0) {
		t.Fatalf("%s: membership measured %v certain %d holds %d, brute force %v %d (above %d)", name, f.Measured, f.Records, f.Holds(), measured, certain, above)
	}
}

// checkInference: each original person's posterior mixes the beliefs of
// the regions covering them by their records.
func checkInference(t *testing.T, name string, w *world) {
	k := &risk.Knowledge{Original: w.orig}
	p, _ := place(w.orig, "original", w.v, w.e)
	f := inference(w.v, w.e, p, k)
	right := 0
	for row := 0; row < w.orig.Rows; row++ {
		post := make([]float64, 3)
		var n float64
		for r, reg := range w.v.Regions {
			if w.covers(w.orig, row, r) {
				for s, x := range w.v.Beliefs[reg.Belief].Dense(3) {
					post[s] += x * float64(reg.Records)
				}
				n += float64(reg.Records)
			}
		}
		best := 0
		for s := range post {
			if post[s] > post[best] {
				best = s
			}
		}
		if n > 0 && post[best]/n >= Certain-1e-12 && w.v.SAValues[best] == w.orig.Columns[2].Value(row) {
			right++
		}
	}
	top := 0.0
	for _, reg := range w.v.Regions {
		top = math.Max(top, maxOf(w.v.Beliefs[reg.Belief].P))
	}
	if f.Records != right || f.Measured != top || f.Bound != 0.6 || f.Holds() != boolInt(top <= 0.6) {
		t.Fatalf("%s: inference right %d measured %v bound %v, brute force %d %v 0.6", name, f.Records, f.Measured, f.Bound, right, top)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sparseBelief is a dense distribution as the view stores it: the values
// with positive probability, in order.
func sparseBelief(p []float64) risk.Belief {
	var b risk.Belief
	for i, x := range p {
		if x > 0 {
			b.Values = append(b.Values, int32(i))
			b.P = append(b.P, x)
		}
	}
	return b
}
