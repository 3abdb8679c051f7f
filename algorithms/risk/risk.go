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
	"sort"
	"strings"

	"privlab/model"
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

// Compute measures a view.
func Compute(v *View, opt Options) *Report {
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
		rep.Pairs = uniquePairs(v)
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
		stats := beliefStats(v)
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
		add(KeyNCP, "NCP (generalization loss)", ratio(loss, float64(records)), -1, 4,
			"the share of each quasi-identifier's domain a published cell covers, averaged over QIs and records (0 exact, 1 fully generalized)")
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
	rep.Sizes = bands(v)
	rep.Summary = summary(v, rep)
	return rep
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

type beliefStat struct {
	distinct, entropyL, top, emd float64
}

// beliefStats measures every belief once: distinct values, entropy l,
// the top probability and its EMD to the release's overall distribution
// (the beliefs weighted by the records that hold them).
func beliefStats(v *View) []beliefStat {
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
	out := make([]beliefStat, len(v.Beliefs))
	for b, p := range v.Beliefs {
		var s beliefStat
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

// EMD is the Earth Mover's Distance between two distributions over the
// same values (Li, Li, Venkatasubramanian 2007): with ordered distance
// |i-j|/(m-1) for a numeric attribute (values in order), the sum of the
// absolute cumulative differences over m-1; with equal distance for a
// categorical one, half the L1 distance.
func EMD(p, q []float64, ordered bool) float64 {
	m := len(p)
	if m < 2 {
		return 0
	}
	var d float64
	if ordered {
		var cum float64
		for i := 0; i < m-1; i++ {
			cum += p[i] - q[i]
			d += math.Abs(cum)
		}
		return d / float64(m-1)
	}
	for i := range p {
		d += math.Abs(p[i] - q[i])
	}
	return d / 2
}

// uniquePairs counts, for each pair of QIs, the records whose two cells no
// other record shares.
func uniquePairs(v *View) []Pair {
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
func bands(v *View) []Band {
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

// ManifestFigures are the report's figures as a manifest states them,
// the class-size distribution included ("records in classes of 2-4").
func (r *Report) ManifestFigures() []model.Figure {
	var out []model.Figure
	for _, f := range r.Figures {
		out = append(out, model.Figure{Name: f.Name, Value: f.Value, Limit: f.Limit, OK: true, Help: f.Help})
	}
	for _, b := range r.Sizes {
		out = append(out, model.Figure{Name: "records in classes of " + b.Label(), Value: float64(b.Records), OK: true,
			Help: "the class-size distribution: records whose class has this many records"})
	}
	return out
}

// ThresholdOf reads the at-risk threshold a manifest's figures state
// (DefaultThreshold when none does).
func ThresholdOf(figs []model.Figure) float64 {
	for _, f := range figs {
		if f.Name == namePrefixRisky {
			if x, ok := model.ParseNumber(f.Limit); ok && x > 0 && x <= 1 {
				return x
			}
		}
	}
	return DefaultThreshold
}
