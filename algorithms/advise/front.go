package advise

import (
	"math"
	"sort"
)

// High is the point's risk as the front and the pick judge it: its
// interval's upper end, the most the attack may gain beyond the
// baseline (SPEC 3.8: the front is of the lowest risk upper end and
// loss, the pick holds the upper end to the limit).
func (p Point) High() float64 { return p.Interval[1] }

// onMap reports whether the point may be on the front: it holds and has
// its loss and its risk's upper end.
func (p Point) onMap() bool {
	return p.Holds && p.Measured() && !math.IsNaN(p.High())
}

// MarkFront sets Front on the points of the Pareto front: a point is on
// it iff it holds, has both figures, and no other such point has a risk
// upper end <= and a loss <= with at least one strictly lower. The risk
// compared is the interval's upper end, the figure Pick holds to the
// limit, so the pick is always on the front. Ties: points with the same
// upper end and the same loss do not dominate one another, so equal
// points are on the front together or off it together; among points of
// equal upper end only the lowest loss can be on it. The points are
// swept in order of upper end, then loss: a group of equal upper end is
// on the front when its lowest loss is below every loss at a strictly
// lower upper end.
func MarkFront(points []Point) {
	var idx []int
	for i := range points {
		points[i].Front = false
		if points[i].onMap() {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := points[idx[a]], points[idx[b]]
		if pa.High() != pb.High() {
			return pa.High() < pb.High()
		}
		return pa.Loss < pb.Loss
	})
	best := math.Inf(1) // the lowest loss at a strictly lower upper end
	for g := 0; g < len(idx); {
		end := g
		for end < len(idx) && points[idx[end]].High() == points[idx[g]].High() {
			end++
		}
		low := points[idx[g]].Loss
		for _, i := range idx[g:end] {
			points[i].Front = points[i].Loss == low && low < best
		}
		best = math.Min(best, low)
		g = end
	}
}

// Pick is the point to adopt under a risk limit: the lowest loss among
// the holding points whose risk interval's upper end is <= maxRisk;
// ties go to the lower upper end (so the pick is on the front), then to
// the lower risk, then to the earlier point (method order, then grid
// order). ok is false when no point qualifies.
func Pick(points []Point, maxRisk float64) (at int, ok bool) {
	at = -1
	for i, p := range points {
		if !p.onMap() || p.High() > maxRisk {
			continue
		}
		if at < 0 || before(p, points[at]) {
			at = i
		}
	}
	return at, at >= 0
}

// before orders the pick's candidates: lower loss, then lower upper
// end, then lower risk.
func before(p, q Point) bool {
	switch {
	case p.Loss != q.Loss:
		return p.Loss < q.Loss
	case p.High() != q.High():
		return p.High() < q.High()
	default:
		return p.Risk < q.Risk
	}
}
