package check

import (
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/kja/format"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
)

// Expose is what a k-join-anonymity release shows an attacker beyond its
// view (risk.Exposure): a person lies in every box whose sides hold their
// values (numbers by value, categories by their order in the release's
// domain); the method claims every box holds at least k distinct people
// (Sacharidis et al., Definition 6 and Theorem 2: breach probability at
// most 1/k), which an attacker who holds the population can count. It
// does not bound the belief in a sensitive value (Section 3.2 makes
// sensitive groups of at least k, and k-anonymity does not prevent
// homogeneity), and a box mixes the public database's people with the
// microdata's, so presence in the microdata is not measured by boxes.
func Expose(rel *verify.Release, v *risk.View) (*risk.Exposure, error) {
	m := rel.Manifest
	man := filepath.Join(rel.Dir, "manifest.json")
	det, err := format.Read(m)
	if err != nil {
		return nil, err
	}
	axes, err := readDomain(man, m, det)
	if err != nil {
		return nil, err
	}
	e := &risk.Exposure{
		Unit:            "box",
		PosteriorBy:     "k-anonymity does not prevent homogeneity: Section 3.2 only makes every sensitive group hold at least k microdata tuples",
		Presence:        math.NaN(),
		PresenceBy:      "k-anonymity does not hide who is in the microdata",
		PublishesPublic: det.PublicRows > 0,
		JoinColumns:     det.Join,
	}
	if e.PublishesPublic {
		e.PresenceBy = "a box mixes the public database's people with the microdata's (Sacharidis et al., Section 3.1)"
		e.NoMembership = "a kja box holds the public database's people beside the microdata's, so the boxes do not say who is in the microdata (Sacharidis et al., Section 3.1)"
	}
	if k, err := strconv.Atoi(m.Parameters["k"]); err == nil {
		e.K = k
		e.KBy = fmt.Sprintf("k = %d: every box holds at least k distinct people of the join table (Sacharidis et al., Theorem 2: breach probability at most 1/k)", k)
	}
	for i, cells := range v.Cells {
		e.Cover = append(e.Cover, axes[i].cover(cells))
	}
	return e, nil
}

// cover covers a raw value by every box side [lo, hi] that holds it (a
// cell reads "lo" or "lo..hi", as the view writes it).
func (a *axis) cover(cells []string) func(raw []string) [][]uint32 {
	type side struct {
		lo, hi float64
		code   uint32
	}
	var sides []side
	for c, s := range cells {
		lo, hi, ok := strings.Cut(s, "..")
		if !ok {
			hi = lo
		}
		x, ok1 := a.value(lo)
		y, ok2 := a.value(hi)
		if ok1 && ok2 {
			sides = append(sides, side{x, y, uint32(c)})
		}
	}
	return func(raw []string) [][]uint32 {
		type point struct {
			x float64
			i int
		}
		var pts []point
		for i, s := range raw {
			if x, ok := a.value(strings.TrimSpace(s)); ok {
				pts = append(pts, point{x, i})
			}
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
		out := make([][]uint32, len(raw))
		for _, sd := range sides {
			from := sort.Search(len(pts), func(j int) bool { return pts[j].x >= sd.lo })
			for j := from; j < len(pts) && pts[j].x <= sd.hi; j++ {
				out[pts[j].i] = append(out[pts[j].i], sd.code)
			}
		}
		return out
	}
}
