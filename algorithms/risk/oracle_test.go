package risk

// The figures as they were computed before the single pass over codes
// (privlab at 57ba5a0, algorithms/risk/builder.go and risk.go, verbatim
// but for the names): the oracle the new Builder and Compute are held to
// on random views (TestSameFiguresAsBefore).

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"privlab/algorithms/figure"
)

// View is a release as an attacker reads it.
type oldView struct {
	QIs []string
	SA  string // "" when the release has no sensitive attribute
	// SANumeric orders SAValues by value (ordered distance for
	// t-closeness); otherwise every two values are equally far apart.
	SANumeric bool
	SAValues  []string
	// Beliefs are the attacker's distributions over SAValues, shared by
	// regions (a group's target, a class's value frequencies).
	Beliefs [][]float64
	Regions []Region
	// Cells label the published QI cells, per QI, for the regions'
	// Cells codes; nil when the release publishes no record-level QI
	// tuple (QI values published apart from each other).
	Cells [][]string
	// RowsIn counts the input records; Suppressed those the release
	// leaves out (both from the manifest; they only enter DM and the
	// suppressed share).
	RowsIn     int
	Suppressed int
	// Generalized is true when QI cells stand for sets of values (NCP
	// and DM are reported).
	Generalized bool
	// Notes say in one line each what the view assumes.
	Notes []string
}

// oldBuilder collects a release's published records into a View: records
// with the same published QI cells form one region, whose belief is the
// mix of its records' beliefs (a QI tuple whose records lie in two groups
// gets both groups' values, weighted by its records in each). Checkers
// use it to build their views.
type oldBuilder struct {
	v      *oldView
	dicts  []map[string]uint32
	index  map[string]int32
	mixes  []map[int32]int // per region: records per belief, when mixed
	loss   []float64       // per region: summed loss
	belief map[string]int32
	value  []int32 // the belief of each known value (Value)
	key    []byte
	cells  []uint32
}

// newOldBuilder starts a view of a release with the given QIs and
// sensitive attribute (its values in order; numeric orders them by value).
func newOldBuilder(qis []string, sa string, saValues []string, numeric bool) *oldBuilder {
	b := &oldBuilder{
		v:      &oldView{QIs: qis, SA: sa, SAValues: saValues, SANumeric: numeric, Cells: make([][]string, len(qis))},
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
func (b *oldBuilder) Belief(p []float64) int32 {
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
func (b *oldBuilder) Counts(counts []int) int32 {
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
func (b *oldBuilder) Value(i int) int32 {
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
func (b *oldBuilder) Add(cells []string, belief int32, loss float64) {
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
func (b *oldBuilder) AddRegion(records int, belief int32, loss, presence float64) {
	b.v.Cells = nil
	b.v.Regions = append(b.v.Regions, Region{Records: records, Belief: belief, Loss: loss, Presence: presence})
	b.mixes = append(b.mixes, nil)
	b.loss = append(b.loss, loss*float64(records))
}

// SetPopulation sets the public individuals matching the region of the
// given cells (k-join-anonymity: the public tuples in a box).
func (b *oldBuilder) SetPopulation(cells []string, n int) {
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
func (b *oldBuilder) view(rowsIn, suppressed int, generalized bool, notes ...string) *oldView {
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
func (b *oldBuilder) mix(m map[int32]int) int32 {
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

// Compute measures a view.
func oldCompute(v *oldView, opt Options) *Report {
	if opt.Threshold <= 0 || opt.Threshold > 1 {
		opt.Threshold = DefaultThreshold
	}
	rep := &Report{}
	add := func(key, name string, value float64, better, digits int, help string) {
		rep.Figures = append(rep.Figures, Figure{Key: key, Name: name, Value: value, Better: better, Digits: digits, Help: help})
	}
	records, smallest := 0, math.MaxInt
	for _, r := range v.Regions {
		records += r.Records
		if r.Records > 0 {
			smallest = min(smallest, r.Records)
		}
	}
	if records == 0 {
		smallest = 0
	}
	add(KeyRecords, "records published", float64(records), 0, -1,
		"rows of the release that stand for individuals (every attacker starts from these)")
	add(KeyClasses, "equivalence classes", float64(len(v.Regions)), 0, -1,
		"sets of published records an attacker who knows a person's quasi-identifiers cannot tell apart")
	add(KeySmallest, "smallest class", float64(smallest), +1, -1,
		"the fewest records anyone hides among (the k of k-anonymity); prosecutor: knows the person is in the release and their quasi-identifiers")

	// Re-identification (prosecutor, journalist).
	unique, atRisk := 0, 0
	var prosSum, prosMax float64
	var journSum, journMax float64
	journal := false
	for _, r := range v.Regions {
		if r.Records == 0 {
			continue
		}
		p := 1 / float64(r.Records)
		prosSum += p * float64(r.Records)
		prosMax = math.Max(prosMax, p)
		if r.Records == 1 {
			unique++
		}
		if p > opt.Threshold+1e-12 {
			atRisk += r.Records
		}
		if r.Population > 0 {
			journal = true
			j := 1 / float64(r.Population)
			journSum += j * float64(r.Records)
			journMax = math.Max(journMax, j)
		}
	}
	add(KeyUnique, "records unique on the published QIs", float64(unique), -1, -1,
		"records no other published record shares the quasi-identifier cells of: a prosecutor who knows a person's quasi-identifiers finds their record")
	add(KeyUniqueShare, "share unique on the published QIs", ratio(float64(unique), float64(records)), -1, 4,
		"the same as a share of the published records")
	if v.Cells != nil && len(v.QIs) >= 2 {
		rep.Pairs = oldUniquePairs(v)
		worst := 0
		for _, p := range rep.Pairs {
			worst = max(worst, p.Unique)
		}
		add(KeyUniquePair, "records unique on a pair of QIs (worst pair)", float64(worst), -1, -1,
			"records an attacker who knows only two of a person's quasi-identifiers singles out (the worst pair)")
	}
	add(KeyProsMax, "prosecutor risk (max)", prosMax, -1, 4,
		"the largest 1/|class|: the chance a prosecutor who knows the person is in the release picks their record")
	add(KeyProsAvg, "prosecutor risk (average)", ratio(prosSum, float64(records)), -1, 4,
		"1/|class| averaged over the published records: the expected share a prosecutor re-identifies")
	rep.Figures = append(rep.Figures, Figure{Key: KeyAtRisk, Name: namePrefixRisky, Value: float64(atRisk), Better: -1, Digits: -1,
		Limit: fmt.Sprint(opt.Threshold),
		Help:  "records whose prosecutor risk 1/|class| exceeds the threshold (the limit)"})
	if journal {
		add(KeyJournMax, "journalist risk (max)", journMax, -1, 4,
			"the largest 1/(public individuals matching a class): a journalist who does not know whether the person is in the release")
		add(KeyJournAvg, "journalist risk (average)", ratio(journSum, float64(records)), -1, 4,
			"the journalist risk averaged over the published records")
	}

	// Attribute disclosure: l-diversity, the top belief, t-closeness.
	if v.SA != "" && len(v.Beliefs) > 0 {
		stats := oldBeliefStats(v)
		distinct, entropyL, top, t := math.Inf(1), math.Inf(1), 0.0, 0.0
		for _, r := range v.Regions {
			if r.Records == 0 || r.Belief < 0 {
				continue
			}
			s := stats[r.Belief]
			distinct = math.Min(distinct, s.distinct)
			entropyL = math.Min(entropyL, s.entropyL)
			top = math.Max(top, s.top)
			t = math.Max(t, s.emd)
		}
		if math.IsInf(distinct, 1) {
			distinct, entropyL = 0, 0
		}
		add(KeyDistinctL, "distinct l-diversity", distinct, +1, -1,
			"the fewest sensitive values an attacker who found a person's class must still choose from")
		add(KeyEntropyL, "entropy l-diversity", entropyL, +1, 2,
			"exp of the least entropy of a class's sensitive values: how many equally likely values it is worth")
		add(KeyTopBelief, "largest belief in one sensitive value", top, -1, 4,
			"the attacker's highest confidence in a person's sensitive value after finding their class")
		distance := "equal distance (categorical)"
		if v.SANumeric {
			distance = "ordered distance (numeric)"
		}
		add(KeyTCloseness, "t-closeness (max EMD)", t, -1, 4,
			"the largest Earth Mover's Distance between a class's sensitive values and the whole release's, "+distance+": what finding the class teaches beyond the table")
	}

	// Utility loss.
	if v.Generalized {
		var loss float64
		for _, r := range v.Regions {
			loss += r.Loss * float64(r.Records)
		}
		add(KeyNCP, figure.NCP.Name, ratio(loss, float64(records)), -1, 4, figure.NCP.Help)
	}
	var dm float64
	for _, r := range v.Regions {
		dm += float64(r.Records) * float64(r.Records)
	}
	dm += float64(v.Suppressed) * float64(max(v.RowsIn, records))
	add(KeyDM, "DM (discernibility)", dm, -1, -1,
		"the sum over records of their class's size (a suppressed record costs the whole table): lower keeps records apart")
	presence := math.NaN()
	for _, r := range v.Regions {
		if !math.IsNaN(r.Presence) && r.Records > 0 {
			if math.IsNaN(presence) {
				presence = r.Presence
			}
			presence = math.Max(presence, r.Presence)
		}
	}
	if !math.IsNaN(presence) {
		add(KeyPresence, "presence probability (max)", presence, -1, 4,
			"the largest probability that an individual matching a class's values is in the data (Wang, Theorem 5.1)")
	}
	if v.RowsIn > 0 {
		add(KeySuppressed, "suppressed share", ratio(float64(v.Suppressed), float64(v.RowsIn)), -1, 4,
			"input records the release leaves out")
	}
	rep.Sizes = oldBands(v)
	rep.Summary = oldSummary(v, rep)
	return rep
}

type oldBeliefStat struct {
	distinct, entropyL, top, emd float64
}

// oldBeliefStats measures every belief once: distinct values, entropy l,
// the top probability and its EMD to the release's overall distribution
// (the beliefs weighted by the records that hold them).
func oldBeliefStats(v *oldView) []oldBeliefStat {
	m := len(v.SAValues)
	overall := make([]float64, m)
	var total float64
	for _, r := range v.Regions {
		if r.Belief < 0 || r.Records == 0 {
			continue
		}
		for i, p := range v.Beliefs[r.Belief] {
			overall[i] += p * float64(r.Records)
		}
		total += float64(r.Records)
	}
	for i := range overall {
		overall[i] = ratio(overall[i], total)
	}
	out := make([]oldBeliefStat, len(v.Beliefs))
	for b, p := range v.Beliefs {
		var s oldBeliefStat
		var h float64
		for _, x := range p {
			if x > 1e-12 {
				s.distinct++
				h -= x * math.Log(x)
			}
			s.top = math.Max(s.top, x)
		}
		s.entropyL = math.Exp(h)
		s.emd = EMD(p, overall, v.SANumeric)
		out[b] = s
	}
	return out
}

// oldUniquePairs counts, for each pair of QIs, the records whose two cells no
// other record shares.
func oldUniquePairs(v *oldView) []Pair {
	var out []Pair
	counts := map[uint64]int{}
	for a := 0; a < len(v.QIs); a++ {
		for b := a + 1; b < len(v.QIs); b++ {
			clear(counts)
			for _, r := range v.Regions {
				counts[uint64(r.Cells[a])<<32|uint64(r.Cells[b])] += r.Records
			}
			u := 0
			for _, n := range counts {
				if n == 1 {
					u++
				}
			}
			out = append(out, Pair{A: v.QIs[a], B: v.QIs[b], Unique: u})
		}
	}
	return out
}

// bands is the class-size distribution in the bands ARX and sdcMicro
// users read: 1, 2, 3-4, 5-9, 10-19, 20-49, 50-99, 100+.
func oldBands(v *oldView) []Band {
	out := []Band{{1, 1, 0}, {2, 2, 0}, {3, 4, 0}, {5, 9, 0}, {10, 19, 0}, {20, 49, 0}, {50, 99, 0}, {100, 0, 0}}
	for _, r := range v.Regions {
		for i := range out {
			if r.Records >= out[i].Min && (out[i].Max == 0 || r.Records <= out[i].Max) {
				out[i].Records += r.Records
				break
			}
		}
	}
	return out
}

// oldSummary is the plain-language paragraph of report.md. Its words
// changed after this oracle was taken (the attacks measure what it used
// to promise); it reads only the figures, the SA's name and the notes, so
// the production wording over the oracle's figures compares them.
func oldSummary(v *oldView, rep *Report) string {
	return summary(&View{SA: v.SA, Notes: v.Notes}, rep)
}

// Sorted returns the beliefs' values in the view's order with their
// probability, most likely first (for a region's detail).
func (v *oldView) Sorted(belief int32) []string {
	if belief < 0 {
		return nil
	}
	p := v.Beliefs[belief]
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] > p[idx[b]] })
	var out []string
	for _, i := range idx {
		if p[i] > 1e-12 {
			out = append(out, fmt.Sprintf("%s %.3g", v.SAValues[i], p[i]))
		}
	}
	return out
}
