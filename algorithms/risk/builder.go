package risk

import (
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"strings"

	"privlab/model"
)

// Builder collects a release's published records into a View: records
// with the same published QI cells form one region, whose belief is the
// mix of its records' beliefs (a QI tuple whose records lie in two groups
// gets both groups' values, weighted by its records in each). Checkers
// use it to build their views.
type Builder struct {
	v      *View
	dicts  []map[string]uint32
	index  map[string]int32
	mixes  []map[int32]int // per region: records per belief, when mixed
	loss   []float64       // per region: summed loss
	belief map[string]int32
	value  []int32 // the belief of each known value (Value)
	key    []byte
	cells  []uint32
}

// NewBuilder starts a view of a release with the given QIs and
// sensitive attribute (its values in order; numeric orders them by value).
func NewBuilder(qis []string, sa string, saValues []string, numeric bool) *Builder {
	b := &Builder{
		v:      &View{QIs: qis, SA: sa, SAValues: saValues, SANumeric: numeric, Cells: make([][]string, len(qis))},
		dicts:  make([]map[string]uint32, len(qis)),
		index:  map[string]int32{},
		belief: map[string]int32{},
		cells:  make([]uint32, len(qis)),
	}
	for i := range b.dicts {
		b.dicts[i] = map[string]uint32{}
	}
	return b
}

// Belief registers a distribution over the SA values (equal ones are
// stored once) and returns its index.
func (b *Builder) Belief(p []float64) int32 {
	k := make([]byte, 0, 8*len(p))
	for _, x := range p {
		k = binary.LittleEndian.AppendUint64(k, math.Float64bits(x))
	}
	if i, ok := b.belief[string(k)]; ok {
		return i
	}
	i := int32(len(b.v.Beliefs))
	b.v.Beliefs = append(b.v.Beliefs, append([]float64(nil), p...))
	b.belief[string(k)] = i
	return i
}

// Counts registers the belief of a bag of SA values: value i counted
// counts[i] times (a class's published values).
func (b *Builder) Counts(counts []int) int32 {
	var n int
	for _, c := range counts {
		n += c
	}
	p := make([]float64, len(counts))
	for i, c := range counts {
		if n > 0 {
			p[i] = float64(c) / float64(n)
		}
	}
	return b.Belief(p)
}

// Value registers the belief of one known value (a record published
// with its sensitive value: a class's beliefs then mix its records').
func (b *Builder) Value(i int) int32 {
	if b.value == nil {
		b.value = make([]int32, len(b.v.SAValues))
		for j := range b.value {
			p := make([]float64, len(b.v.SAValues))
			p[j] = 1
			b.value[j] = b.Belief(p)
		}
	}
	return b.value[i]
}

// Add adds one published record with its QI cells (aligned with the
// QIs), the belief of its sensitive value (-1 for none) and its
// generalization loss.
func (b *Builder) Add(cells []string, belief int32, loss float64) {
	b.key = b.key[:0]
	for i, c := range cells {
		code, ok := b.dicts[i][c]
		if !ok {
			code = uint32(len(b.v.Cells[i]))
			b.dicts[i][c] = code
			b.v.Cells[i] = append(b.v.Cells[i], c)
		}
		b.cells[i] = code
		b.key = binary.LittleEndian.AppendUint32(b.key, code)
	}
	r, ok := b.index[string(b.key)]
	if !ok {
		r = int32(len(b.v.Regions))
		b.index[string(b.key)] = r
		b.v.Regions = append(b.v.Regions, Region{Cells: append([]uint32(nil), b.cells...), Belief: belief, Presence: math.NaN()})
		b.mixes = append(b.mixes, nil)
		b.loss = append(b.loss, 0)
	}
	reg := &b.v.Regions[r]
	if reg.Belief != belief || b.mixes[r] != nil {
		if b.mixes[r] == nil {
			b.mixes[r] = map[int32]int{reg.Belief: reg.Records}
		}
		b.mixes[r][belief]++
	}
	reg.Records++
	b.loss[r] += loss
}

// AddRegion adds a region that is not a set of record-level cells (a
// group of ambiguity's per-attribute tables): its records, belief,
// loss and presence. A view with such regions has no record-level cells.
func (b *Builder) AddRegion(records int, belief int32, loss, presence float64) {
	b.v.Cells = nil
	b.v.Regions = append(b.v.Regions, Region{Records: records, Belief: belief, Loss: loss, Presence: presence})
	b.mixes = append(b.mixes, nil)
	b.loss = append(b.loss, loss*float64(records))
}

// SetPopulation sets the public individuals matching the region of the
// given cells (k-join-anonymity: the public tuples in a box).
func (b *Builder) SetPopulation(cells []string, n int) {
	b.key = b.key[:0]
	for i, c := range cells {
		code, ok := b.dicts[i][c]
		if !ok {
			return
		}
		b.key = binary.LittleEndian.AppendUint32(b.key, code)
	}
	if r, ok := b.index[string(b.key)]; ok {
		b.v.Regions[r].Population = n
	}
}

// View finishes the view: mixed regions get their mixed belief, every
// region its mean loss.
func (b *Builder) View(rowsIn, suppressed int, generalized bool, notes ...string) *View {
	v := b.v
	for r := range v.Regions {
		reg := &v.Regions[r]
		if reg.Records > 0 {
			reg.Loss = b.loss[r] / float64(reg.Records)
		}
		if m := b.mixes[r]; m != nil {
			reg.Belief = b.mix(m)
		}
	}
	v.RowsIn, v.Suppressed, v.Generalized, v.Notes = rowsIn, suppressed, generalized, notes
	return v
}

// mix registers the records-weighted mix of beliefs.
func (b *Builder) mix(m map[int32]int) int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if len(ids) == 1 {
		return ids[0]
	}
	p := make([]float64, len(b.v.SAValues))
	var n float64
	for _, id := range ids {
		if id < 0 {
			continue
		}
		for i, x := range b.v.Beliefs[id] {
			p[i] += x * float64(m[id])
		}
		n += float64(m[id])
	}
	for i := range p {
		p[i] /= math.Max(1, n)
	}
	return b.Belief(p)
}

// CellKey joins a region's cells for display ("17-30 | Male").
func (v *View) CellKey(r Region) string {
	if v.Cells == nil {
		return ""
	}
	parts := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		parts[i] = v.Cells[i][c]
	}
	return strings.Join(parts, " | ")
}

// NumericLoss is the share of a numeric domain [lo, hi] a range [a, b]
// covers (NCP of one cell, Xu et al. as used by Sacharidis et al.,
// Section 2.1).
func NumericLoss(a, b, lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	return math.Min(1, math.Max(0, (b-a)/(hi-lo)))
}

// SetLoss is the share of a categorical domain of size n that a cell
// covering k values loses: (k-1)/(n-1).
func SetLoss(k, n int) float64 {
	if n <= 1 || k <= 1 {
		return 0
	}
	return math.Min(1, float64(k-1)/float64(n-1))
}

// ParseRange reads a published numeric cell: a number, or "a-b" / "[a,b]"
// / "a..b"; false when it is neither.
func ParseRange(s string) (lo, hi float64, ok bool) {
	s = strings.TrimSpace(s)
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		return x, x, true
	}
	t := strings.Trim(s, "[]() ")
	for _, sep := range []string{",", "..", " - ", "-"} {
		if i := strings.Index(t[min(1, len(t)):], sep); i >= 0 {
			i += min(1, len(t))
			a, err1 := strconv.ParseFloat(strings.TrimSpace(t[:i]), 64)
			b, err2 := strconv.ParseFloat(strings.TrimSpace(t[i+len(sep):]), 64)
			if err1 == nil && err2 == nil {
				return a, b, true
			}
		}
	}
	return 0, 0, false
}

// Ordered lists a sensitive column's distinct values in the view's order
// (numbers by value, text alphabetically) with each value's position: the
// SAValues of a view.
func Ordered(dict []string, numeric bool) ([]string, map[string]int) {
	values := append([]string(nil), dict...)
	if numeric {
		num := func(s string) float64 { x, _ := model.ParseNumber(s); return x }
		sort.SliceStable(values, func(i, j int) bool { return num(values[i]) < num(values[j]) })
	} else {
		sort.Strings(values)
	}
	pos := make(map[string]int, len(values))
	for i, v := range values {
		pos[v] = i
	}
	return values, pos
}
