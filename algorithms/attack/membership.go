package attack

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/risk"
)

// Membership is the name of the membership attack.
const Membership = "membership"

// membership measures what an attacker who holds a population (the
// data's people and others) learns of who is in the data. The release's
// records lie in its regions (or pools of regions, where it counts them
// so), each the record of a distinct person the region covers: a person
// is certainly in the data when every assignment of the records to the
// people they may be places them (a matching question, decided exactly:
// pools.certain); where the release lists the values of a region one by
// one and each is some record's (Exposure.Witnessed: ambiguity's
// auxiliary tables), a value only one covered person holds places that
// person in the region before. Another person's presence is the largest
// records/people of a pool covering them, and never below the base rate
// (the records over the people covered). The bound is the method's.
// inData (nil without the original) counts per tuple its people in the
// data, which scores the attacker's calls (risk.Calibration).
func membership(v *risk.View, e *risk.Exposure, pop *placed, popName string, k *risk.Knowledge, inData []int32) risk.Finding {
	attacker := "holds the quasi-identifiers of " + popName + ", the data's people and others"
	switch {
	case e.NoMembership != "":
		return notRun(Membership, "holds a population: the data's people and others", e.NoMembership)
	case pop == nil || k.Population == nil && !(e.PublishesPublic && k.Public != nil):
		return notRun(Membership, "holds a population: the data's people and others",
			"needs a population table (people beyond the data's: the original alone says nothing of presence)", "population")
	}
	f := risk.Finding{Attack: Membership, Attacker: attacker, Bound: e.Presence, BoundBy: e.PresenceBy,
		Figure: "largest probability that a person of the population is in the data", Needs: []string{"population"}}
	if k.Population == nil {
		f.Needs = []string{"original", "public"} // the population is theirs together
	}
	m, certain, witnessed := pop.presence(v, e)
	population, sure, above, example := 0, 0, 0, -1
	for t, p := range m.presence {
		n := int(pop.count[t])
		population += n
		f.Measured = math.Max(f.Measured, p)
		if certain[t] {
			sure += n
			if example < 0 {
				example = t
			}
		}
		if !math.IsNaN(e.Presence) && p > e.Presence+1e-12 {
			above += n
		}
	}
	f.Records = sure
	if sure > 0 {
		f.Short = people(sure) + " certainly present"
		f.Brief = fmt.Sprintf("%d certainly present", sure)
	}
	// The denominator is the people the release's regions cover: a row
	// that no region can hold (a value no cell covers, or missing where
	// the run dropped such rows) is in no one's count.
	f.Detail = fmt.Sprintf("%s of %d covered certainly in the data", people(sure), m.covered)
	if population > m.covered {
		f.Detail += fmt.Sprintf(" (%s of the population no %s covers)", people(population-m.covered), e.Unit)
	}
	if !math.IsNaN(e.Presence) {
		f.Detail += fmt.Sprintf("; %s above the bound %s", people(above), trim(e.Presence))
	}
	f.Detail += fmt.Sprintf("; base rate %s (%s over %s covered)", trim(m.base), records(m.records), people(m.covered))
	if example >= 0 {
		f.Example = personLabel(pop, int(pop.first[example])) + " is certainly in the data: " + m.why(v, e, pop, example, witnessed)
	}
	f.Calibration = m.calibrate(pop, inData)
	if f.Trials > 0 && !slices.Contains(f.Needs, "original") {
		f.Needs = append(f.Needs, "original") // the calls are scored against who is in it
	}
	return f
}

// presence is membership's figures per tuple: who is certainly present
// (the matching, with the values only one covered person holds placed
// first) and each tuple's presence probability, with the listed values
// that made tuples certain.
func (p *placed) presence(v *risk.View, e *risk.Exposure) (*presence, []bool, map[int]witnessCell) {
	g := poolsOf(v, e, p)
	taken, used := make([]int32, len(p.count)), make([]int, len(g.records))
	var witnessed map[int]witnessCell
	if e.Witnessed && e.Sets != nil && e.PoolsOf == nil {
		witnessed = p.witness(v, e)
		for t, c := range witnessed {
			if used[c.region] < g.records[c.region] {
				taken[t], used[c.region] = 1, used[c.region]+1
			}
		}
	}
	certain, reached := g.certainReached(p.count, taken, used)
	for t := range witnessed {
		certain[t] = true
	}
	m := presenceOf(g, p, certain)
	m.reached = reached
	return m, certain, witnessed
}

// presence is membership's figures per tuple of the population.
type presence struct {
	g        *pools
	presence []float64 // per tuple
	from     []int32   // the pool that gives it (-1: none)
	records  int       // in the pools
	covered  int       // people in a pool
	base     float64   // records / covered, at most 1
	reached  []bool    // per pool: not tight (pools.certainReached)
}

// presenceOf is each tuple's presence: 1 when certain, else the largest
// records/people of its pools and at least the base rate; 0 outside every
// pool.
func presenceOf(g *pools, pop *placed, certain []bool) *presence {
	m := &presence{g: g, presence: make([]float64, len(pop.count)), from: make([]int32, len(pop.count))}
	for _, r := range g.records {
		m.records += r
	}
	for t, n := range pop.count {
		if len(g.at(t)) > 0 {
			m.covered += int(n)
		}
	}
	if m.covered > 0 {
		m.base = math.Min(1, float64(m.records)/float64(m.covered))
	}
	for t := range pop.count {
		m.from[t] = -1
		for _, j := range g.at(t) {
			if g.records[j] == 0 || g.covered[j] == 0 {
				continue
			}
			if p := math.Min(1, float64(g.records[j])/float64(g.covered[j])); p > m.presence[t] || m.from[t] < 0 {
				m.presence[t], m.from[t] = p, j
			}
		}
		if len(g.at(t)) > 0 {
			m.presence[t] = math.Max(m.presence[t], m.base)
		}
		if certain[t] {
			m.presence[t] = 1
		}
	}
	return m
}

// why says why tuple t (certain) is in the data.
func (m *presence) why(v *risk.View, e *risk.Exposure, pop *placed, t int, witnessed map[int]witnessCell) string {
	if c, ok := witnessed[t]; ok {
		return fmt.Sprintf("the %s %s lists %s = %s, which no one else it covers holds", e.Unit, regionLabel(v, e, int(c.region)),
			v.QIs[c.qi], e.Labels(v)[c.qi][c.code])
	}
	if j := m.from[t]; j >= 0 && m.g.records[j] >= m.g.covered[j] && e.PoolsOf == nil {
		return fmt.Sprintf("the %s %s holds %s and covers %s of the population", e.Unit, regionLabel(v, e, int(j)),
			records(m.g.records[j]), people(m.g.covered[j]))
	}
	poolSet, tuples := m.g.tight(t, m.reached, len(pop.count))
	held, covered := 0, 0
	for _, j := range poolSet {
		held += m.g.records[j]
	}
	for _, x := range tuples {
		covered += int(pop.count[x])
	}
	if len(poolSet) > 0 && e.PoolsOf == nil && held >= covered {
		names := make([]string, 0, 2)
		for _, j := range poolSet[:min(2, len(poolSet))] {
			names = append(names, regionLabel(v, e, int(j)))
		}
		if len(poolSet) > 2 {
			names = append(names, fmt.Sprintf("… %d in all", len(poolSet)))
		}
		return fmt.Sprintf("the %s that can hold them (%s) hold %s and cover only %s of the population", plural(e.Unit),
			strings.Join(names, "; "), records(held), people(covered))
	}
	return fmt.Sprintf("every way to give the release's %s each to a distinct person its %s cover places them in the data",
		records(m.records), plural(e.Unit))
}

// calibrate scores the attacker who calls a covered person present when
// their presence is at least 1/2: right on the people in the data called
// present and those outside it called absent (inData: per tuple, its
// people in the data; nil, without the original: no score), against the
// best call knowing only the share of those people in the data, and on the people outside the
// data alone (the control).
func (m *presence) calibrate(pop *placed, inData []int32) risk.Calibration {
	c := risk.NoCalibration()
	if inData == nil {
		return c
	}
	right, outside, outRight := 0, 0, 0
	for t, n := range pop.count {
		if len(m.g.at(t)) == 0 {
			continue
		}
		in := int(min(inData[t], n))
		out := int(n) - in
		c.Trials += int(n)
		outside += out
		if m.presence[t] >= 0.5 {
			right += in
		} else {
			right += out
			outRight += out
		}
	}
	c.Successes = float64(right)
	// Without the release the attacker knows how many of the people it
	// covers are in the data (the data's size) and calls them all as the
	// larger share is.
	if c.Trials > 0 {
		q := float64(c.Trials-outside) / float64(c.Trials)
		c.Baseline = math.Max(q, 1-q)
	}
	if outside > 0 {
		c.Control = float64(outRight) / float64(outside)
	}
	return c
}

// poolsOf places the population's tuples in the pools: each region alone,
// or the pools its regions lie in (e.PoolsOf).
func poolsOf(v *risk.View, e *risk.Exposure, pop *placed) *pools {
	g := &pools{}
	if e.PoolsOf == nil {
		g.records = make([]int, len(v.Regions))
		for r, reg := range v.Regions {
			g.records[r] = reg.Records
		}
		g.start, g.of = pop.start, pop.regions
	} else {
		g.records = append([]int(nil), e.PoolRecords...)
		mark := fill(len(g.records))
		g.start = make([]int32, 1, len(pop.count)+1)
		for t := range pop.count {
			for _, r := range pop.candidates(t) {
				for _, j := range e.PoolsOf[r] {
					if mark[j] != int32(t) {
						mark[j] = int32(t)
						g.of = append(g.of, j)
					}
				}
			}
			g.start = append(g.start, int32(len(g.of)))
		}
	}
	g.covered = make([]int, len(g.records))
	for t, n := range pop.count {
		for _, j := range g.at(t) {
			g.covered[j] += int(n)
		}
	}
	return g
}

// witnessCell is a value a region lists (the code of a cell of a QI).
type witnessCell struct {
	region int32
	qi     int
	code   uint32
}

// witness finds the people who alone can hold a value a region lists
// (each listed value is some record's: that person holds one of the
// region's records), and returns for each the first such value in
// (region, QI, cell) order.
func (p *placed) witness(v *risk.View, e *risk.Exposure) map[int]witnessCell {
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
				if _, seen := out[int(by[slot])]; held[slot] != 1 || seen {
					continue
				}
				out[int(by[slot])] = witnessCell{int32(r), i, c}
			}
		}
	}
	return out
}
