package attack

import (
	"fmt"
	"math"

	"privlab/algorithms/risk"
)

// Membership is the name of the membership attack.
const Membership = "membership"

// membership measures what an attacker who holds a population (the
// data's people and others) learns of who is in the data. A region's
// records are people its cells cover, so each of the m people a region
// covers is in the data with probability records/m (certainly when the
// region has as many records as people covered); where the release lists
// the values of a region one by one and each is some record's
// (Exposure.Witnessed: ambiguity's auxiliary tables), a value only one
// covered person holds puts that person in the data for certain. A
// person's presence is the largest of these; the bound is the method's.
func membership(v *risk.View, e *risk.Exposure, pop *placed, popName string, k *risk.Knowledge) risk.Finding {
	attacker := "holds the quasi-identifiers of " + popName + ", the data's people and others"
	switch {
	case e.NoMembership != "":
		return notRun(Membership, attacker, e.NoMembership)
	case k.Population == nil:
		return notRun(Membership, "holds a population: the data's people and others",
			"needs --population FILE (people beyond the data's: the original alone says nothing of presence)")
	}
	f := risk.Finding{Attack: Membership, Attacker: attacker, Bound: e.Presence, BoundBy: e.PresenceBy,
		Figure: "largest probability that a person of the population is in the data", Needs: []string{"population"}}
	m := pop.covered(len(v.Regions))
	presence := make([]float64, len(pop.count)) // per tuple
	why := make([]string, len(pop.count))
	for t := range pop.count {
		for _, r := range pop.candidates(t) {
			reg := v.Regions[r]
			if reg.Records == 0 || m[r] == 0 {
				continue
			}
			if p := math.Min(1, float64(reg.Records)/float64(m[r])); p > presence[t] {
				presence[t] = p
				why[t] = fmt.Sprintf("the %s %s holds %s and covers %s of the population", e.Unit, regionLabel(v, e, int(r)), records(reg.Records), people(m[r]))
			}
		}
	}
	if e.Witnessed && e.Sets != nil {
		pop.witness(v, e, presence, why)
	}
	certain, above, example, population := 0, 0, -1, 0
	for t, p := range presence {
		n := int(pop.count[t])
		population += n
		f.Measured = math.Max(f.Measured, p)
		if p >= 1 {
			certain += n
			if example < 0 {
				example = t
			}
		}
		if !math.IsNaN(e.Presence) && p > e.Presence+1e-12 {
			above += n
		}
	}
	f.Records = certain
	f.Detail = fmt.Sprintf("%s of %d certainly in the data", people(certain), population)
	if !math.IsNaN(e.Presence) {
		f.Detail += fmt.Sprintf("; %s above the bound %s", people(above), trim(e.Presence))
	}
	if example >= 0 {
		f.Example = personLabel(pop, int(pop.first[example])) + " is certainly in the data: " + why[example]
	}
	return f
}

// witness marks certain the people who alone can hold a value a region
// lists (each listed value is some record's).
func (p *placed) witness(v *risk.View, e *risk.Exposure, presence []float64, why []string) {
	type cell struct {
		region int32
		qi     int
		code   uint32
	}
	type holders struct {
		people int
		tuple  int
	}
	seen := map[cell]holders{}
	for t := range p.count {
		for _, r := range p.candidates(t) {
			for i := range p.cols {
				for _, c := range p.cover(t, i) {
					if !meets(e.RegionCells(v, int(r), i), []uint32{c}) {
						continue
					}
					h := seen[cell{r, i, c}]
					h.people += int(p.count[t])
					h.tuple = t
					seen[cell{r, i, c}] = h
				}
			}
		}
	}
	// One witness per person, the first in (region, QI, cell) order, so
	// the words do not depend on map order.
	best := map[int]cell{}
	for c, h := range seen {
		if h.people != 1 {
			continue
		}
		if b, ok := best[h.tuple]; !ok || c.region < b.region || c.region == b.region && (c.qi < b.qi || c.qi == b.qi && c.code < b.code) {
			best[h.tuple] = c
		}
	}
	labels := e.Labels(v)
	for t, c := range best {
		if presence[t] >= 1 {
			continue // certain already: the region says so
		}
		presence[t] = 1
		why[t] = fmt.Sprintf("the %s %s lists %s = %s, which no one else it covers holds", e.Unit, regionLabel(v, e, int(c.region)), v.QIs[c.qi], labels[c.qi][c.code])
	}
}
