package attack

import (
	"fmt"
	"math"

	"privlab/algorithms/risk"
)

// Linkage is the name of the re-identification attack.
const Linkage = "re-identification by linkage"

// linkage links the population's people to the published records: a
// record of a region is one of the people the region's cells cover, so an
// attacker who assigns it to one of them at random is right with
// probability 1/|people covered| (the journalist's risk; the prosecutor's
// when the population is the data). Records whose region covers exactly
// one person are re-identified. The bound is 1/k where the method claims
// every region holds k distinct people.
func linkage(v *risk.View, e *risk.Exposure, pop *placed, popName string, k *risk.Knowledge) risk.Finding {
	attacker := "holds the quasi-identifiers and identities of " + popName
	if pop == nil {
		return notRun(Linkage, "holds the quasi-identifiers and identities of a population", "needs a population table or the original table", "population", "original")
	}
	if e.PublishesPublic && k.Population == nil && k.Public == nil {
		return notRun(Linkage, "holds the quasi-identifiers and identities of a population",
			"the release's "+plural(e.Unit)+" hold public-table people the original lacks: needs the public table or a population table (every person once)", "public", "population")
	}
	f := risk.Finding{Attack: Linkage, Attacker: attacker, Bound: math.NaN(), BoundBy: e.KBy,
		Figure: "largest probability of re-identifying a record (1/people its " + e.Unit + " covers)",
		Needs:  []string{pop.what}}
	if e.K > 0 {
		f.Bound = 1 / float64(e.K)
	}
	m := pop.covered(len(v.Regions))
	var expected float64
	published, smallest, at := 0, math.MaxInt, -1
	for r, reg := range v.Regions {
		if reg.Records == 0 {
			continue
		}
		published += reg.Records
		if m[r] == 0 {
			continue
		}
		f.Measured = math.Max(f.Measured, 1/float64(m[r]))
		expected += float64(min(reg.Records, m[r])) / float64(m[r])
		if m[r] < smallest {
			smallest = m[r]
		}
		if m[r] == 1 {
			f.Records += reg.Records
			if at < 0 {
				at = r
			}
		}
	}
	if smallest == math.MaxInt {
		smallest = 0
	}
	// Without the release the attacker can only guess a record's person
	// among everyone it names.
	f.Calibration = risk.Calibration{Successes: expected, Trials: published, Baseline: 1 / math.Max(1, float64(len(pop.tupleOf))), Control: math.NaN()}
	f.Detail = fmt.Sprintf("%s of %d match exactly one person; expected correct re-identifications %.1f; the fewest people a %s covers: %d",
		records(f.Records), published, expected, e.Unit, smallest)
	if f.Records > 0 {
		f.Short = records(f.Records) + " re-identified"
		f.Brief = fmt.Sprintf("%d re-identified", f.Records)
	}
	if at >= 0 {
		f.Example = fmt.Sprintf("the published record of the %s %s is %s", e.Unit, regionLabel(v, e, at), personLabel(pop, pop.firstIn(at)))
	}
	return f
}

// firstIn is the first row whose tuple region r covers (-1: none).
func (p *placed) firstIn(r int) int {
	for t := range p.count {
		for _, c := range p.candidates(t) {
			if int(c) == r {
				return int(p.first[t])
			}
		}
	}
	return -1
}
