package attack

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"privlab/algorithms/risk"
)

// comboLimit caps the choices of one candidate region per release that
// linkageTogether enumerates, summed over the tuples (two releases: a
// count per region, cheaper than three's map, so more).
var comboLimit = map[bool]int{false: 1 << 22, true: 1 << 26}

// linkageTogether counts, for each choice of one region with records per
// release, the population's people consistent with every one of them
// (their candidate regions hold it in each release): a person alone in
// such a choice is singled out by the releases together, though each
// region covers k people. An attacker who links a record to that person
// is right with probability 1/people consistent; the bound is the
// tightest of the releases' 1/k.
func linkageTogether(rels []Opened, alone []*Report, pop []*placed, popName string, k *risk.Knowledge) risk.Finding {
	name := together(Linkage)
	if pop == nil {
		return notRun(name, "holds the quasi-identifiers and identities of a population", "needs a population table or the original table", "population", "original")
	}
	for _, r := range rels {
		if r.Exposure.PublishesPublic && k.Population == nil && k.Public == nil {
			return notRun(name, "holds the quasi-identifiers and identities of a population",
				r.Name+"'s "+plural(r.Exposure.Unit)+" hold public-table people the original lacks: needs the public table or a population table (every person once)", "public", "population")
		}
	}
	f := risk.Finding{Attack: name, Attacker: "holds the quasi-identifiers and identities of " + popName + ", and places each person in every release",
		Figure: "largest probability of picking out a person among those consistent with one region of every release", Needs: []string{pop[0].what}}
	f.Bound, f.BoundBy = tightestBound(rels, alone, Linkage)
	smallest, alone1, ok := combos(rels, pop)
	if !ok {
		return notRun(name, f.Attacker, fmt.Sprintf("the people's candidate regions make more than %d choices of one region per release", comboLimit[len(rels) == 2]))
	}
	if smallest < math.MaxInt {
		f.Measured = 1 / float64(smallest)
	}
	example := -1
	for t, a := range alone1 {
		if a {
			f.Records++
			if example < 0 {
				example = t
			}
		}
	}
	if smallest == math.MaxInt {
		smallest = 0
	}
	f.Detail = fmt.Sprintf("%s of %d the only one consistent with one region of every release (each release alone: %s records re-identified); the fewest people such a choice covers: %d",
		people(f.Records), pop[0].table.Rows, aloneRecords(alone, Linkage), smallest)
	if f.Records > 0 {
		f.Short = people(f.Records) + " singled out"
		f.Brief = fmt.Sprintf("%d singled out together", f.Records)
		f.Example = personLabel(pop[0], int(pop[0].first[example])) + " is the only person consistent with one region of every release"
	}
	return f
}

// combos counts the people consistent with each choice of one region
// with records per release that some tuple allows, and returns the
// fewest (math.MaxInt: no choice) and, per tuple, whether it is alone in
// one; false when the tuples allow more than comboLimit's choices in all
// (counted before any is enumerated).
func combos(rels []Opened, pop []*placed) (int, []bool, bool) {
	lists := make([][][]int32, len(pop[0].count)) // per tuple and release: the candidates with records
	work, limit := 0, comboLimit[len(rels) == 2]
	for t := range lists {
		lists[t] = make([][]int32, len(rels))
		size := 1
		for i, p := range pop {
			for _, r := range p.candidates(t) {
				if rels[i].View.Regions[r].Records > 0 {
					lists[t][i] = append(lists[t][i], r)
				}
			}
			size = min(size*len(lists[t][i]), limit+1)
		}
		if work += size; work > limit {
			return 0, nil, false
		}
	}
	if len(rels) == 2 {
		smallest, alone := pairCombos(pop[0].count, lists, len(rels[0].View.Regions), len(rels[1].View.Regions))
		return smallest, alone, true
	}
	m, last := map[string]int32{}, map[string]int32{}
	key := make([]byte, 4*len(rels))
	for t, l := range lists {
		idx := make([]int, len(rels))
		for ok := !slices.ContainsFunc(l, func(c []int32) bool { return len(c) == 0 }); ok; ok = next(idx, l) {
			for i, c := range l {
				binary.LittleEndian.PutUint32(key[4*i:], uint32(c[idx[i]]))
			}
			m[string(key)] += pop[0].count[t]
			last[string(key)] = int32(t)
		}
	}
	smallest, alone := math.MaxInt, make([]bool, len(lists))
	for k, n := range m {
		smallest = min(smallest, int(n))
		if n == 1 {
			alone[last[k]] = true
		}
	}
	return smallest, alone, true
}

// pairCombos is combos for two releases: region by region of the first,
// the people of its tuples counted per region of the second.
func pairCombos(count []int32, lists [][][]int32, regions0, regions1 int) (int, []bool) {
	byFirst := make([][]int32, regions0) // the tuples each region of the first release may hold
	for t, l := range lists {
		if len(l[1]) == 0 {
			continue
		}
		for _, r := range l[0] {
			byFirst[r] = append(byFirst[r], int32(t))
		}
	}
	n, last := make([]int32, regions1), make([]int32, regions1)
	var touched []int32
	smallest, alone := math.MaxInt, make([]bool, len(lists))
	for _, tuples := range byFirst {
		for _, t := range tuples {
			for _, r := range lists[t][1] {
				if n[r] == 0 {
					touched = append(touched, r)
				}
				n[r] += count[t]
				last[r] = t
			}
		}
		for _, r := range touched {
			smallest = min(smallest, int(n[r]))
			if n[r] == 1 {
				alone[last[r]] = true
			}
			n[r] = 0
		}
		touched = touched[:0]
	}
	return smallest, alone
}

// next steps idx to the next choice of one entry per list (false: done).
func next(idx []int, lists [][]int32) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i]++; idx[i] < len(lists[i]) {
			return true
		}
		idx[i] = 0
	}
	return false
}

// membershipTogether takes each population person's presence in the
// data as the largest any release gives (the releases come from one
// original: a person certainly in one is certainly in it).
func membershipTogether(rels []Opened, alone []*Report, pop []*placed, popName string, k *risk.Knowledge) risk.Finding {
	name := together(Membership)
	if k.Population == nil || pop == nil {
		return notRun(name, "holds a population: the data's people and others",
			"needs a population table (people beyond the data's: the original alone says nothing of presence)", "population")
	}
	f := risk.Finding{Attack: name, Attacker: "holds the quasi-identifiers of " + popName + ", the data's people and others, and reads every release",
		Figure: "largest probability that a person of the population is in the data, over the releases", Needs: []string{"population"}}
	f.Bound, f.BoundBy = tightestBound(rels, alone, Membership)
	presence := make([]float64, len(pop[0].count))
	var skipped []string
	for i, r := range rels {
		if r.Exposure.NoMembership != "" {
			skipped = append(skipped, r.Name)
			continue
		}
		m, _, _ := pop[i].presence(r.View, r.Exposure)
		for t, x := range m.presence {
			presence[t] = math.Max(presence[t], x)
		}
	}
	if len(skipped) == len(rels) {
		return notRun(name, f.Attacker, "no release says who is in the data: "+rels[0].Exposure.NoMembership)
	}
	example := -1
	for t, x := range presence {
		f.Measured = math.Max(f.Measured, x)
		if x >= 1 {
			f.Records += int(pop[0].count[t])
			if example < 0 {
				example = t
			}
		}
	}
	f.Detail = fmt.Sprintf("%s of %d certainly in the data by one release or another (each release alone: %s)", people(f.Records), pop[0].table.Rows, aloneRecords(alone, Membership))
	if len(skipped) > 0 {
		f.Detail += "; not read for presence: " + strings.Join(skipped, ", ")
	}
	if f.Records > 0 {
		f.Short = people(f.Records) + " certainly present"
		f.Brief = fmt.Sprintf("%d certainly present", f.Records)
		f.Example = personLabel(pop[0], int(pop[0].first[example])) + " is certainly in the data"
	}
	return f
}
