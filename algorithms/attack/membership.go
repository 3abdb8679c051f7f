package attack

import (
	"fmt"
	"math"
	"sort"

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
		return notRun(Membership, "holds a population: the data's people and others", e.NoMembership)
	case k.Population == nil:
		return notRun(Membership, "holds a population: the data's people and others",
			"needs a population table (people beyond the data's: the original alone says nothing of presence)", "population")
	}
	f := risk.Finding{Attack: Membership, Attacker: attacker, Bound: e.Presence, BoundBy: e.PresenceBy,
		Figure: "largest probability that a person of the population is in the data", Needs: []string{"population"}}
	presence, from, m, witnessed := pop.presence(v, e)
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
	if certain > 0 {
		f.Short = people(certain) + " certainly present"
		f.Brief = fmt.Sprintf("%d certainly present", certain)
	}
	f.Detail = fmt.Sprintf("%s of %d certainly in the data", people(certain), population)
	if !math.IsNaN(e.Presence) {
		f.Detail += fmt.Sprintf("; %s above the bound %s", people(above), trim(e.Presence))
	}
	if example >= 0 {
		why := fmt.Sprintf("the %s %s holds %s and covers %s of the population", e.Unit, regionLabel(v, e, int(from[example])),
			records(v.Regions[from[example]].Records), people(m[from[example]]))
		if c, ok := witnessed[example]; ok {
			why = fmt.Sprintf("the %s %s lists %s = %s, which no one else it covers holds", e.Unit, regionLabel(v, e, int(c.region)),
				v.QIs[c.qi], e.Labels(v)[c.qi][c.code])
		}
		f.Example = personLabel(pop, int(pop.first[example])) + " is certainly in the data: " + why
	}
	return f
}

// presence is each tuple's presence in the data (membership's model),
// the region that gives it, the people each region covers, and the
// tuples a listed value makes certain (with the value).
func (p *placed) presence(v *risk.View, e *risk.Exposure) ([]float64, []int32, []int, map[int]witnessCell) {
	m := p.covered(len(v.Regions))
	presence := make([]float64, len(p.count)) // per tuple
	from := make([]int32, len(p.count))       // the region that gives it
	for t := range p.count {
		for _, r := range p.candidates(t) {
			reg := v.Regions[r]
			if reg.Records == 0 || m[r] == 0 {
				continue
			}
			if x := math.Min(1, float64(reg.Records)/float64(m[r])); x > presence[t] {
				presence[t], from[t] = x, r
			}
		}
	}
	var witnessed map[int]witnessCell
	if e.Witnessed && e.Sets != nil {
		witnessed = p.witness(v, e, presence)
	}
	return presence, from, m, witnessed
}

// witnessCell is a value a region lists (the code of a cell of a QI).
type witnessCell struct {
	region int32
	qi     int
	code   uint32
}

// witness marks certain the people who alone can hold a value a region
// lists (each listed value is some record's), and returns, for each
// tuple it made certain, the first such value in (region, QI, cell)
// order.
func (p *placed) witness(v *risk.View, e *risk.Exposure, presence []float64) map[int]witnessCell {
	// One slot per value a region lists: its covered people and the
	// last tuple seen holding it.
	base := make([][]int32, len(v.Regions))
	n := int32(0)
	for r := range base {
		base[r] = make([]int32, len(p.cols))
		for i := range p.cols {
			base[r][i] = n
			n += int32(len(e.Sets[r][i]))
		}
	}
	held := make([]int32, n)
	by := make([]int32, n)
	for t := range p.count {
		for _, r := range p.candidates(t) {
			for i := range p.cols {
				set := e.Sets[r][i]
				for _, c := range p.cover(t, i) {
					j := sort.Search(len(set), func(j int) bool { return set[j] >= c })
					if j < len(set) && set[j] == c {
						held[base[r][i]+int32(j)] += p.count[t]
						by[base[r][i]+int32(j)] = int32(t)
					}
				}
			}
		}
	}
	out := map[int]witnessCell{}
	for r := range base {
		for i := range p.cols {
			for j, c := range e.Sets[r][i] {
				slot := base[r][i] + int32(j)
				if held[slot] != 1 || presence[by[slot]] >= 1 {
					continue
				}
				presence[by[slot]] = 1
				out[int(by[slot])] = witnessCell{int32(r), i, c}
			}
		}
	}
	return out
}
