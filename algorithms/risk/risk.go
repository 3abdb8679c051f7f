// Package risk computes the figures every release gets whatever method
// made it (SPEC 3.6): the sizes of the classes an attacker cannot split,
// records unique on the published quasi-identifiers, prosecutor and
// journalist re-identification risk, distinct and entropy l-diversity,
// t-closeness, generalization loss (NCP) and discernibility (DM), and the
// presence probability of the methods that model it.
//
// The figures are computed from a View: the release as an attacker reads
// it, built by each method's independent checker from the published files
// (so the preview, privlab eval, check and report.md all measure what is
// published, by the same code). The View is a list of regions: the
// records an attacker who knows a person's quasi-identifier values cannot
// tell apart, each with the attacker's belief about the sensitive value
// of a member.
package risk

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/figure"
	"privlab/model"
	"privlab/model/releasedir"
)

// View is a release as an attacker reads it.
type View struct {
	QIs []string
	SA  string // "" when the release has no sensitive attribute
	// SANumeric orders SAValues by value (ordered distance for
	// t-closeness); otherwise every two values are equally far apart.
	SANumeric bool
	SAValues  []string
	// Beliefs are the attacker's distributions over SAValues, shared by
	// regions (a group's target, a class's value frequencies).
	Beliefs []Belief
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

// Belief is a distribution over a view's SAValues, by the values it
// gives a probability other than 0: Values in increasing order, P[k]
// the probability of SAValues[Values[k]].
type Belief struct {
	Values []int32
	P      []float64
}

// At is the belief's probability of SA value i (0 when it holds none),
// found by binary search over Values (in increasing order): a caller
// that asks for each of a belief's values stays n log n on a wide
// sensitive domain.
func (b Belief) At(i int) float64 {
	if k, ok := slices.BinarySearch(b.Values, int32(i)); ok && i == int(int32(i)) {
		return b.P[k]
	}
	return 0
}

// Dense is the belief as one probability per SA value (m values).
func (b Belief) Dense(m int) []float64 {
	p := make([]float64, m)
	for k, i := range b.Values {
		p[i] = b.P[k]
	}
	return p
}

// Region is a set of published records an attacker who knows a person's
// quasi-identifier values cannot tell apart.
type Region struct {
	// Cells are the region's published QI cells (codes into View.Cells),
	// nil when View.Cells is nil.
	Cells []uint32
	// Records is the number of published records in the region.
	Records int
	// Population counts the individuals of a public table the region's
	// cells match (0: no public table).
	Population int
	// Belief indexes View.Beliefs: what the attacker believes of a
	// member's sensitive value (-1: nothing, no sensitive attribute).
	Belief int32
	// Loss is the region's generalization loss in [0,1] (NCP: the mean
	// over QIs of the covered share of the domain; 0 for exact values).
	Loss float64
	// Presence is the probability that an individual matching the region
	// is in the data (NaN where the method does not model it).
	Presence float64
}

// Options tune Compute.
type Options struct {
	// Threshold is the prosecutor risk above which a record counts as at
	// risk (default 0.2: classes of fewer than five records).
	Threshold float64
}

// DefaultThreshold is Options.Threshold's default.
const DefaultThreshold = 0.2

// Figure is one computed figure.
type Figure struct {
	Key   string
	Name  string
	Value float64
	// Limit is the threshold the figure counts against ("" for none).
	Limit string
	// Help says in one line what the figure measures and for which
	// attacker.
	Help string
	// Better is -1 when lower is better, +1 when higher is, 0 for counts
	// that describe the release.
	Better int
	// Digits to show (-1: an integer).
	Digits int
}

// Format renders the value.
func (f Figure) Format() string {
	switch {
	case math.IsNaN(f.Value):
		return "—"
	case math.IsInf(f.Value, 1):
		return "∞"
	case f.Digits < 0:
		return fmt.Sprintf("%.0f", f.Value)
	}
	return fmt.Sprintf("%.*f", f.Digits, f.Value)
}

// Report is every figure of a view.
type Report struct {
	Figures []Figure
	// Sizes is the class-size distribution: records in classes of each
	// size band.
	Sizes []Band
	// Pairs lists, for every pair of QIs, the records unique on it (nil
	// without record-level cells).
	Pairs []Pair
	// Summary is a paragraph an officer can read and sign.
	Summary string
}

// Band counts the records in classes of Min..Max records.
type Band struct {
	Min, Max int // Max 0: no upper bound
	Records  int
}

// Label renders the band ("1", "2-4", "50+").
func (b Band) Label() string {
	switch {
	case b.Max == 0:
		return fmt.Sprintf("%d+", b.Min)
	case b.Min == b.Max:
		return fmt.Sprint(b.Min)
	}
	return fmt.Sprintf("%d-%d", b.Min, b.Max)
}

// Pair is the records unique on two QIs' published cells.
type Pair struct {
	A, B   string
	Unique int
}

// Keys of the figures (stable identifiers; names may be reworded).
const (
	KeyRecords      = "records"
	KeyClasses      = "classes"
	KeySmallest     = "smallest"
	KeyUnique       = "unique"
	KeyUniqueShare  = "unique-share"
	KeyUniquePair   = "unique-pair"
	KeyProsMax      = "prosecutor-max"
	KeyProsAvg      = "prosecutor-avg"
	KeyAtRisk       = "at-risk"
	KeyJournMax     = "journalist-max"
	KeyJournAvg     = "journalist-avg"
	KeyDistinctL    = "distinct-l"
	KeyEntropyL     = "entropy-l"
	KeyTopBelief    = "top-belief"
	KeyTCloseness   = "t-closeness"
	KeyNCP          = "ncp"
	KeyDM           = "dm"
	KeyPresence     = "presence"
	KeySuppressed   = "suppressed-share"
	namePrefixRisky = "records at risk"
)

// tally is what one pass over a view's regions gathers.
type tally struct {
	records, smallest, unique, atRisk int
	prosSum, prosMax                  float64
	journSum, journMax                float64
	journal                           bool
	loss, dm                          float64
	presence                          float64
	used                              []bool    // beliefs of regions with records
	overall                           []float64 // records-weighted SA distribution
	total                             float64   // records with a belief
	sizes                             []Band
}

// tallyRegions passes once over the regions. Every sum adds the regions
// in their order (the figures do not depend on how the pass is split).
func tallyRegions(v *View, threshold float64) *tally {
	t := &tally{smallest: math.MaxInt, presence: math.NaN(), used: make([]bool, len(v.Beliefs)),
		overall: make([]float64, len(v.SAValues)), sizes: newBands()}
	for _, r := range v.Regions {
		t.records += r.Records
		t.loss += r.Loss * float64(r.Records)
		t.dm += float64(r.Records) * float64(r.Records)
		addBand(t.sizes, r.Records)
		if r.Records == 0 {
			continue
		}
		t.smallest = min(t.smallest, r.Records)
		p := 1 / float64(r.Records)
		t.prosSum += p * float64(r.Records)
		t.prosMax = math.Max(t.prosMax, p)
		if r.Records == 1 {
			t.unique++
		}
		if p > threshold+1e-12 {
			t.atRisk += r.Records
		}
		if r.Population > 0 {
			t.journal = true
			j := 1 / float64(r.Population)
			t.journSum += j * float64(r.Records)
			t.journMax = math.Max(t.journMax, j)
		}
		if !math.IsNaN(r.Presence) {
			if math.IsNaN(t.presence) {
				t.presence = r.Presence
			}
			t.presence = math.Max(t.presence, r.Presence)
		}
		if r.Belief >= 0 {
			t.used[r.Belief] = true
			t.total += float64(r.Records)
		}
	}
	if t.records == 0 {
		t.smallest = 0
	}
	overall(v, t.overall)
	for i := range t.overall {
		t.overall[i] = ratio(t.overall[i], t.total)
	}
	return t
}

// overall sums the regions' beliefs weighted by their records into sum:
// region by region as before while the values summed stay under
// exactBudget (bit for bit), otherwise belief by belief, each weighted
// by its regions' records (linear in the beliefs' values; the same sums
// to within rounding, TestFastEMDInCompute).
func overall(v *View, sum []float64) {
	work := 0
	for _, r := range v.Regions {
		if r.Records > 0 && r.Belief >= 0 {
			work += len(v.Beliefs[r.Belief].Values)
		}
	}
	if work <= exactBudget {
		for _, r := range v.Regions {
			if r.Records > 0 && r.Belief >= 0 {
				b := v.Beliefs[r.Belief]
				for k, i := range b.Values {
					sum[i] += b.P[k] * float64(r.Records)
				}
			}
		}
		return
	}
	records := make([]int, len(v.Beliefs))
	for _, r := range v.Regions {
		if r.Records > 0 && r.Belief >= 0 {
			records[r.Belief] += r.Records
		}
	}
	for id, n := range records {
		b := v.Beliefs[id]
		for k, i := range b.Values {
			sum[i] += b.P[k] * float64(n)
		}
	}
}

// Compute measures a view.
func Compute(v *View, opt Options) *Report {
	if opt.Threshold <= 0 || opt.Threshold > 1 {
		opt.Threshold = DefaultThreshold
	}
	rep := &Report{}
	add := func(key, name string, value float64, better, digits int, help string) {
		rep.Figures = append(rep.Figures, Figure{Key: key, Name: name, Value: value, Better: better, Digits: digits, Help: help})
	}
	t := tallyRegions(v, opt.Threshold)
	records := t.records
	add(KeyRecords, "records published", float64(records), 0, -1,
		"rows of the release that stand for individuals (every attacker starts from these)")
	add(KeyClasses, "equivalence classes", float64(len(v.Regions)), 0, -1,
		"sets of published records an attacker who knows a person's quasi-identifiers cannot tell apart")
	add(KeySmallest, "smallest class", float64(t.smallest), +1, -1,
		"the fewest records anyone hides among (the k of k-anonymity); prosecutor: knows the person is in the release and their quasi-identifiers")

	// Re-identification (prosecutor, journalist).
	add(KeyUnique, "records unique on the published QIs", float64(t.unique), -1, -1,
		"records no other published record shares the quasi-identifier cells of: a prosecutor who knows a person's quasi-identifiers finds their record")
	add(KeyUniqueShare, "share unique on the published QIs", ratio(float64(t.unique), float64(records)), -1, 4,
		"the same as a share of the published records")
	if v.Cells != nil && len(v.QIs) >= 2 {
		rep.Pairs = uniquePairs(v)
		worst := 0
		for _, p := range rep.Pairs {
			worst = max(worst, p.Unique)
		}
		add(KeyUniquePair, "records unique on a pair of QIs (worst pair)", float64(worst), -1, -1,
			"records an attacker who knows only two of a person's quasi-identifiers singles out (the worst pair)")
	}
	add(KeyProsMax, "prosecutor risk (max)", t.prosMax, -1, 4,
		"the largest 1/|class|: the chance a prosecutor who knows the person is in the release picks their record")
	add(KeyProsAvg, "prosecutor risk (average)", ratio(t.prosSum, float64(records)), -1, 4,
		"1/|class| averaged over the published records: the expected share a prosecutor re-identifies")
	rep.Figures = append(rep.Figures, Figure{Key: KeyAtRisk, Name: namePrefixRisky, Value: float64(t.atRisk), Better: -1, Digits: -1,
		Limit: fmt.Sprint(opt.Threshold),
		Help:  "records whose prosecutor risk 1/|class| exceeds the threshold (the limit)"})
	if t.journal {
		add(KeyJournMax, "journalist risk (max)", t.journMax, -1, 4,
			"the largest 1/(public individuals matching a class): a journalist who does not know whether the person is in the release")
		add(KeyJournAvg, "journalist risk (average)", ratio(t.journSum, float64(records)), -1, 4,
			"the journalist risk averaged over the published records")
	}

	// Attribute disclosure: l-diversity, the top belief, t-closeness.
	if v.SA != "" && len(v.Beliefs) > 0 {
		distinct, entropyL, top, tc := beliefFigures(v, t)
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
		add(KeyTCloseness, "t-closeness (max EMD)", tc, -1, 4,
			"the largest Earth Mover's Distance between a class's sensitive values and the whole release's, "+distance+": what finding the class teaches beyond the table")
	}
	utility(v, t, add)
	rep.Sizes = t.sizes
	rep.Summary = summary(v, rep)
	return rep
}

// utility adds the loss, DM, presence and suppression figures.
func utility(v *View, t *tally, add func(key, name string, value float64, better, digits int, help string)) {
	if v.Generalized {
		add(KeyNCP, figure.NCP.Name, ratio(t.loss, float64(t.records)), -1, 4, figure.NCP.Help)
	}
	dm := t.dm + float64(v.Suppressed)*float64(max(v.RowsIn, t.records))
	add(KeyDM, "DM (discernibility)", dm, -1, -1,
		"the sum over records of their class's size (a suppressed record costs the whole table): lower keeps records apart")
	if !math.IsNaN(t.presence) {
		add(KeyPresence, "presence probability (max)", t.presence, -1, 4,
			"the largest probability that an individual matching a class's values is in the data (Wang, Theorem 5.1)")
	}
	if v.RowsIn > 0 {
		add(KeySuppressed, "suppressed share", ratio(float64(v.Suppressed), float64(v.RowsIn)), -1, 4,
			"input records the release leaves out")
	}
}

// Get returns a figure by key.
func (r *Report) Get(key string) (Figure, bool) {
	for _, f := range r.Figures {
		if f.Key == key {
			return f, true
		}
	}
	return Figure{}, false
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// beliefFigures are the least distinct and entropy l-diversity, the
// largest belief in one value and the largest EMD to the release's
// overall distribution, over the beliefs of regions with records (each
// belief measured once).
func beliefFigures(v *View, t *tally) (distinct, entropyL, top, tc float64) {
	distinct, entropyL = math.Inf(1), math.Inf(1)
	used := 0
	for _, u := range t.used {
		if u {
			used++
		}
	}
	emd := exactEMD(t.overall, v.SANumeric)
	if used*len(t.overall) > exactBudget {
		emd = newFastEMD(t.overall, v.SANumeric)
	}
	for id, u := range t.used {
		if !u {
			continue
		}
		b := v.Beliefs[id]
		var d, h, tp float64
		for _, x := range b.P {
			if x > 1e-12 {
				d++
				h -= x * math.Log(x)
			}
			tp = math.Max(tp, x)
		}
		distinct = math.Min(distinct, d)
		entropyL = math.Min(entropyL, math.Exp(h))
		top = math.Max(top, tp)
		tc = math.Max(tc, emd(b))
	}
	if math.IsInf(distinct, 1) {
		distinct, entropyL = 0, 0
	}
	return distinct, entropyL, top, tc
}

// exactBudget is the number of (belief, SA value) steps up to which each
// belief's EMD is summed value by value, as EMD does on dense
// distributions (bit for bit), and the regions' beliefs are summed region
// by region; above it, a sensitive attribute of many values with many
// beliefs, the EMD is computed from the belief's values and prefix sums
// of the overall distribution (equal to within 1e-12: TestFastEMD), and
// the overall distribution belief by belief.
var exactBudget = 1 << 24

// exactEMD is EMD(b.Dense(m), q, ordered) without the dense belief: the
// same additions in the same order (a value the belief leaves out adds
// 0 - q[i], as the dense loop does).
func exactEMD(q []float64, ordered bool) func(Belief) float64 {
	m := len(q)
	return func(b Belief) float64 {
		if m < 2 {
			return 0
		}
		var d, cum float64
		last := m
		if ordered {
			last = m - 1
		}
		i := 0
		for k := 0; k <= len(b.Values); k++ {
			next, p := last, 0.0
			if k < len(b.Values) {
				next, p = min(int(b.Values[k]), last), b.P[k]
			}
			for ; i < next; i++ {
				if ordered {
					cum += 0 - q[i]
					d += math.Abs(cum)
				} else {
					d += math.Abs(0 - q[i])
				}
			}
			if i == last {
				break
			}
			if ordered {
				cum += p - q[i]
				d += math.Abs(cum)
			} else {
				d += math.Abs(p - q[i])
			}
			i++
		}
		if ordered {
			return d / float64(m-1)
		}
		return d / 2
	}
}

// newFastEMD computes a belief's EMD to q in time linear in the belief's
// values (times log m for the ordered distance). Equal distance: the
// values a belief leaves out each add q[i], so half of
// sum(q) + sum over its values of (|p - q| - q). Ordered distance: between
// two of the belief's values its cumulative P is a constant c, and
// sum |c - Q(i)| over a stretch follows from where the increasing
// cumulative Q crosses c and the prefix sums of Q (kept with Kahan's
// compensation, so that a long domain loses no precision).
func newFastEMD(q []float64, ordered bool) func(Belief) float64 {
	m := len(q)
	if m < 2 {
		return func(Belief) float64 { return 0 }
	}
	if !ordered {
		var sum float64
		for _, x := range q {
			sum += x
		}
		return func(b Belief) float64 {
			d := sum
			for k, i := range b.Values {
				d += math.Abs(b.P[k]-q[i]) - q[i]
			}
			return d / 2
		}
	}
	cq := make([]float64, m)   // Q(i) = q[0] + ... + q[i]
	sq := make([]float64, m+1) // sq[i] = Q(0) + ... + Q(i-1)
	var c, comp, s, sComp float64
	for i, x := range q {
		c, comp = kahan(c, comp, x)
		cq[i] = c
		sq[i+1], sComp = kahan(s, sComp, c)
		s = sq[i+1]
	}
	// stretch is sum over i in [a, b) of |p - Q(i)|.
	stretch := func(p float64, a, b int) float64 {
		if a >= b {
			return 0
		}
		x := a + sort.Search(b-a, func(j int) bool { return cq[a+j] >= p })
		return p*float64(x-a) - (sq[x] - sq[a]) + (sq[b] - sq[x]) - p*float64(b-x)
	}
	return func(b Belief) float64 {
		var d, cum float64
		from := 0
		for k, i := range b.Values {
			if int(i) >= m-1 {
				break
			}
			d += stretch(cum, from, int(i))
			cum += b.P[k]
			from = int(i)
		}
		d += stretch(cum, from, m-1)
		return d / float64(m-1)
	}
}

// kahan adds x to the sum s with compensation c.
func kahan(s, c, x float64) (float64, float64) {
	y := x - c
	t := s + y
	return t, (t - s) - y
}

// uniquePairs counts, for each pair of QIs, the records whose two cells no
// other record shares: the records of each pair of cells summed in a
// table indexed by the two codes (a map when the table would be larger
// than the regions), then the pairs holding one record counted.
func uniquePairs(v *View) []Pair {
	var out []Pair
	var dense []int32
	sparse := map[uint64]int{}
	for a := 0; a < len(v.QIs); a++ {
		for b := a + 1; b < len(v.QIs); b++ {
			na, nb := len(v.Cells[a]), len(v.Cells[b])
			u := 0
			if size := uint64(na) * uint64(nb); size <= uint64(max(4*len(v.Regions), 1<<16)) {
				if uint64(cap(dense)) < size {
					dense = make([]int32, size)
				}
				dense = dense[:size]
				u = densePairs(v, a, b, nb, dense)
			} else {
				clear(sparse)
				for _, r := range v.Regions {
					sparse[uint64(r.Cells[a])<<32|uint64(r.Cells[b])] += r.Records
				}
				for _, n := range sparse {
					if n == 1 {
						u++
					}
				}
			}
			out = append(out, Pair{A: v.QIs[a], B: v.QIs[b], Unique: u})
		}
	}
	return out
}

// densePairs counts the records unique on cells a and b with a zeroed
// table of one entry per pair of codes (left zeroed).
func densePairs(v *View, a, b, nb int, counts []int32) int {
	for _, r := range v.Regions {
		k := int(r.Cells[a])*nb + int(r.Cells[b])
		counts[k] = int32(min(int(counts[k])+r.Records, 2)) // 2: more than one
	}
	u := 0
	for _, r := range v.Regions {
		k := int(r.Cells[a])*nb + int(r.Cells[b])
		if counts[k] == 1 {
			u++
		}
		counts[k] = 0
	}
	return u
}

// newBands is the class-size distribution in the bands ARX and sdcMicro
// users read: 1, 2, 3-4, 5-9, 10-19, 20-49, 50-99, 100+.
func newBands() []Band {
	return []Band{{1, 1, 0}, {2, 2, 0}, {3, 4, 0}, {5, 9, 0}, {10, 19, 0}, {20, 49, 0}, {50, 99, 0}, {100, 0, 0}}
}

// addBand counts a class of the given records in its band.
func addBand(bands []Band, records int) {
	for i := range bands {
		if records >= bands[i].Min && (bands[i].Max == 0 || records <= bands[i].Max) {
			bands[i].Records += records
			return
		}
	}
}

// summary is the plain-language paragraph of report.md on the figures
// every release gets: what the published classes are, measured, never a
// promise about an attacker the figures do not model (the attacks of
// algorithms/attack measure those).
func summary(v *View, rep *Report) string {
	get := func(k string) float64 { f, _ := rep.Get(k); return f.Value }
	var b strings.Builder
	k := int(get(KeySmallest))
	records := int(get(KeyRecords))
	switch {
	case records == 0:
		b.WriteString("The release publishes no record.")
		return b.String()
	case k <= 1:
		fmt.Fprintf(&b, "Some individuals are not hidden among others: %d of the %d published records are unique on the published quasi-identifiers, which the method does not hide.", int(get(KeyUnique)), records)
	default:
		fmt.Fprintf(&b, "The published records fall in classes of at least %d records that share the published quasi-identifier values (records, not necessarily distinct people): a prosecutor who knows a person's quasi-identifiers and that they are in the release, and counts records as people, picks their record with probability %s at most.", k, trimFloat(get(KeyProsMax)))
	}
	if v.SA != "" {
		if f, ok := rep.Get(KeyTopBelief); ok {
			fmt.Fprintf(&b, " The largest belief a class gives one value of %s is %s", v.SA, trimFloat(f.Value))
			if l, ok := rep.Get(KeyDistinctL); ok && l.Value > 1 {
				fmt.Fprintf(&b, ", and every class holds at least %d values", int(l.Value))
			} else if ok {
				b.WriteString("; some classes publish a single value, which they disclose")
			}
			b.WriteString(".")
		}
	}
	if f, ok := rep.Get(KeyPresence); ok {
		fmt.Fprintf(&b, " The method's model gives a class a presence probability of up to %s, for an attacker who knows nothing beyond the release.", trimFloat(f.Value))
	}
	if k > 1 && get(KeyUnique) == 0 {
		b.WriteString(" No record is unique on the published quasi-identifiers.")
	}
	for _, n := range v.Notes {
		b.WriteString(" " + n)
	}
	return b.String()
}

// trimFloat writes a probability with at most four decimals.
func trimFloat(x float64) string {
	s := fmt.Sprintf("%.4f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "" || s == "-" {
		return "0"
	}
	return s
}

// Sorted returns the beliefs' values in the view's order with their
// probability, most likely first (for a region's detail).
func (v *View) Sorted(belief int32) []string {
	if belief < 0 {
		return nil
	}
	b := v.Beliefs[belief]
	idx := make([]int, len(b.Values))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(x, y int) bool { return b.P[idx[x]] > b.P[idx[y]] })
	var out []string
	for _, k := range idx {
		if b.P[k] > 1e-12 {
			out = append(out, fmt.Sprintf("%s %.3g", v.SAValues[b.Values[k]], b.P[k]))
		}
	}
	return out
}

// ManifestFigures are the report's figures as a manifest states them,
// the class-size distribution included ("records in classes of 2-4").
func (r *Report) ManifestFigures() []releasedir.Figure {
	var out []releasedir.Figure
	for _, f := range r.Figures {
		out = append(out, releasedir.Figure{Name: f.Name, Value: f.Value, Limit: f.Limit, OK: true, Help: f.Help})
	}
	for _, b := range r.Sizes {
		out = append(out, releasedir.Figure{Name: "records in classes of " + b.Label(), Value: float64(b.Records), OK: true,
			Help: "the class-size distribution: records whose class has this many records"})
	}
	return out
}

// ThresholdOf reads the at-risk threshold a manifest's figures state
// (DefaultThreshold when none does).
func ThresholdOf(figs []releasedir.Figure) float64 {
	for _, f := range figs {
		if f.Name == namePrefixRisky {
			if x, ok := model.ParseNumber(f.Limit); ok && x > 0 && x <= 1 {
				return x
			}
		}
	}
	return DefaultThreshold
}
