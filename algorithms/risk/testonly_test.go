package risk

import (
	"math"
	"privlab/model"
	"strconv"
	"strings"
)

// Counts registers the belief of a bag of SA values: value i counted
// counts[i] times (a class's published values).
func (b *Builder) Counts(counts []int) int32 {
	var n int
	bl := b.start()
	for i, c := range counts {
		if c != 0 {
			n += c
			bl.Values = append(bl.Values, int32(i))
			bl.P = append(bl.P, float64(c))
		}
	}
	for k := range bl.P {
		bl.P[k] /= float64(n)
	}
	if n == 0 {
		bl.Values, bl.P = bl.Values[:0], bl.P[:0]
	}
	return b.register(*bl)
}

// Cells declares QI i's published cells as a dictionary (a release
// column's Dict), so that AddCodes takes records' codes into it.
func (b *Builder) Cells(i int, dict []string) {
	b.remap[i] = make([]uint32, len(dict))
	for c, s := range dict {
		b.remap[i][c] = b.code(i, s)
	}
}

// AddCodes is Add with the cells given as codes into the dictionaries
// declared with Cells (model.Missing for an empty cell).
func (b *Builder) AddCodes(codes []uint32, belief int32, loss float64) {
	for i, c := range codes {
		if c == model.Missing {
			b.codes[i] = b.code(i, "")
		} else {
			b.codes[i] = b.remap[i][c]
		}
	}
	b.add(belief, loss)
}

// SetPopulation sets the public individuals matching the region of the
// given cells (k-join-anonymity: the public tuples in a box).
func (b *Builder) SetPopulation(cells []string, n int) {
	codes := make([]uint32, len(cells))
	for i, c := range cells {
		code, ok := b.dicts[i][c]
		if !ok {
			return
		}
		codes[i] = code
	}
	if r := b.find(codes); r >= 0 {
		b.v.Regions[r].Population = n
	}
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

// EMD is the Earth Mover's Distance between two distributions over the
// same values (Li, Li, Venkatasubramanian 2007): with ordered distance
// |i-j|/(m-1) for a numeric attribute (values in order), the sum of the
// absolute cumulative differences over m-1; with equal distance for a
// categorical one, half the L1 distance.
func EMD(p, q []float64, ordered bool) float64 {
	m := len(p)
	if m < 2 {
		return 0
	}
	var d float64
	if ordered {
		var cum float64
		for i := 0; i < m-1; i++ {
			cum += p[i] - q[i]
			d += math.Abs(cum)
		}
		return d / float64(m-1)
	}
	for i := range p {
		d += math.Abs(p[i] - q[i])
	}
	return d / 2
}
