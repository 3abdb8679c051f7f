package attack

import (
	"fmt"
	"math"
	"math/bits"
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
	// The population holds every original person (attack.HoldsOriginal),
	// the last one included.
	w.pop = table("population", []string{"a", "b"}, append(rows, []string{"0", "0"}))
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
	enumerated := 0
	defer func() {
		if enumerated < 800 {
			t.Errorf("membership's assignments enumerated on %d worlds of 900, want most", enumerated)
		}
	}()
	for _, kind := range []string{"exact", "intervals", "sets"} {
		rng := rand.New(rand.NewPCG(7, uint64(len(kind))))
		for trial := 0; trial < 300; trial++ {
			w := randomWorld(rng, kind)
			name := fmt.Sprintf("%s/%d (bitset budget %d)", kind, trial, budget)
			checkLinkage(t, name, w)
			if checkMembership(t, name, w) {
				enumerated++
			}
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

// checkMembership: the records of each region are those of distinct
// people it covers; every way to place them is enumerated. A person is
// certain when every assignment placing the most records places them;
// where each value a region lists is some record's (sets), the
// assignments that place every record and honour the listed values
// (when there are some) place every person found certain, and the old
// rule (a listed value only one covered person holds) still holds.
// Presence is 1 when certain, else the largest records/people of a
// region covering them and at least the base rate.
func checkMembership(t *testing.T, name string, w *world) bool {
	k := &risk.Knowledge{Population: w.pop, PopulationName: "test"}
	p, _ := place(w.pop, "population", w.v, w.e)
	f := membership(w.v, w.e, p, "test", k, nil)
	b, ok := bruteAssign(w)
	if !ok {
		return false
	}
	got := certainOf(w, p)
	n := 0
	for row, c := range got {
		if c {
			n++
		}
		switch {
		case w.e.Witnessed && (b.maxCertain[row] || b.witness[row]) && !c:
			t.Fatalf("%s: person %d certain by matching or witness, not found", name, row)
		case w.e.Witnessed && c && b.honoured && !b.honouredCertain[row]:
			t.Fatalf("%s: person %d found certain, some assignment honouring the listed values leaves them out", name, row)
		case !w.e.Witnessed && c != b.maxCertain[row]:
			t.Fatalf("%s: person %d certain %v, brute force %v", name, row, c, b.maxCertain[row])
		}
	}
	measured, above := 0.0, 0
	for row := range got {
		x := b.presence[row]
		if got[row] {
			x = 1
		}
		measured = math.Max(measured, x)
		if x > 0.5 {
			above++
		}
	}
	if f.Records != n || f.Measured != measured || f.Holds() != boolInt(above == 0) {
		t.Fatalf("%s: membership measured %v certain %d holds %d, brute force %v %d (above %d)", name, f.Measured, f.Records, f.Holds(), measured, n, above)
	}
	return true
}

// certainOf is, per population row, whether membership finds it certain.
func certainOf(w *world, p *placed) []bool {
	g := poolsOf(w.v, w.e, p)
	taken, used := make([]int32, len(p.count)), make([]int, len(g.records))
	var wit map[int]witnessCell
	if w.e.Witnessed {
		wit = p.witness(w.v, w.e)
		for t, c := range wit {
			if used[c.region] < g.records[c.region] {
				taken[t], used[c.region] = 1, used[c.region]+1
			}
		}
	}
	c := g.certain(p.count, taken, used)
	out := make([]bool, w.pop.Rows)
	for row := range out {
		t := int(p.tupleOf[row])
		_, forced := wit[t]
		out[row] = c[t] || forced
	}
	return out
}

// brute is what enumerating the assignments finds, per population row.
type brute struct {
	maxCertain      []bool // in every assignment placing the most records
	honoured        bool   // some assignment places every record honouring the listed values
	honouredCertain []bool // in every such assignment
	witness         []bool // alone to hold a value a region lists
	presence        []float64
}

// bruteAssign enumerates the assignments of the regions' records to
// distinct people they cover (false: too many to enumerate).
func bruteAssign(w *world) (*brute, bool) {
	n, R := w.pop.Rows, len(w.v.Regions)
	cover := make([]uint32, R)
	var listed [][]uint32 // per region: per listed value, the covered people holding it
	covered, total := uint32(0), 0
	for r := range w.v.Regions {
		for row := 0; row < n; row++ {
			if w.covers(w.pop, row, r) {
				cover[r] |= 1 << row
			}
		}
		covered |= cover[r]
		total += w.v.Regions[r].Records
		var masks []uint32
		if w.e.Witnessed {
			for i := range w.v.QIs {
				for _, c := range w.e.Sets[r][i] {
					m := uint32(0)
					for row := 0; row < n; row++ {
						if cover[r]&(1<<row) != 0 && contains(w.values[i][c], w.pop.Columns[i].Value(row)) {
							m |= 1 << row
						}
					}
					masks = append(masks, m)
				}
			}
		}
		listed = append(listed, masks)
	}
	b := &brute{witness: make([]bool, n), presence: make([]float64, n)}
	for _, masks := range listed {
		for _, m := range masks {
			if bits.OnesCount32(m) == 1 {
				b.witness[bits.TrailingZeros32(m)] = true
			}
		}
	}
	best, inBest, inHonoured := -1, ^uint32(0), ^uint32(0)
	nodes := 0
	var walk func(r int, used uint32, placed int, honours bool) bool
	walk = func(r int, used uint32, placed int, honours bool) bool {
		if nodes++; nodes > 2_000_000 {
			return false
		}
		if r == R {
			switch {
			case placed > best:
				best, inBest = placed, used
			case placed == best:
				inBest &= used
			}
			if honours && placed == total {
				b.honoured = true
				inHonoured &= used
			}
			return true
		}
		avail := cover[r] &^ used
		for s := avail; ; s = (s - 1) & avail {
			if k := bits.OnesCount32(s); k <= w.v.Regions[r].Records {
				h := honours
				for _, m := range listed[r] {
					h = h && s&m != 0
				}
				if !walk(r+1, used|s, placed+k, h) {
					return false
				}
			}
			if s == 0 {
				break
			}
		}
		return true
	}
	if !walk(0, 0, 0, true) {
		return nil, false
	}
	b.maxCertain, b.honouredCertain = make([]bool, n), make([]bool, n)
	people := bits.OnesCount32(covered)
	for row := 0; row < n; row++ {
		b.maxCertain[row] = inBest&(1<<row) != 0
		b.honouredCertain[row] = inHonoured&(1<<row) != 0
		if covered&(1<<row) == 0 {
			continue
		}
		b.presence[row] = math.Min(1, float64(total)/float64(people))
		for r, reg := range w.v.Regions {
			if cover[r]&(1<<row) != 0 {
				b.presence[row] = math.Max(b.presence[row], math.Min(1, float64(reg.Records)/float64(bits.OnesCount32(cover[r]))))
			}
		}
	}
	return b, true
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
