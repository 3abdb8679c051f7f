package advise

import (
	"math"
	"sort"
)

// MarkFront sets Front on the points of the Pareto front: a point is on
// it iff it holds, has both figures, and no other such point has a risk
// <= and a loss <= with at least one strictly lower. Ties: points with
// the same risk and the same loss do not dominate one another, so equal
// points are on the front together or off it together; among points of
// equal risk only the lowest loss can be on it. The points are swept in
// order of risk, then loss: a group of equal risk is on the front when
// its lowest loss is below every loss at a strictly lower risk.
func MarkFront(points []Point) {
	var idx []int
	for i := range points {
		points[i].Front = false
		if points[i].Holds && points[i].Measured() {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := points[idx[a]], points[idx[b]]
		if pa.Risk != pb.Risk {
			return pa.Risk < pb.Risk
		}
		return pa.Loss < pb.Loss
	})
	best := math.Inf(1) // the lowest loss at a strictly lower risk
	for g := 0; g < len(idx); {
		end := g
		for end < len(idx) && points[idx[end]].Risk == points[idx[g]].Risk {
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
// ties go to the lower risk, then to the earlier point (method order,
// then grid order). ok is false when no point qualifies.
func Pick(points []Point, maxRisk float64) (at int, ok bool) {
	at = -1
	for i, p := range points {
		if !p.Holds || !p.Measured() || math.IsNaN(p.Interval[1]) || p.Interval[1] > maxRisk {
			continue
		}
		if at < 0 || p.Loss < points[at].Loss || p.Loss == points[at].Loss && p.Risk < points[at].Risk {
			at = i
		}
	}
	return at, at >= 0
}
