package attack

import (
	"fmt"
	"math"
	"sort"

	"privlab/algorithms/risk"
	"privlab/model"
)

// Inference is the name of the attribute-inference attack.
const Inference = "attribute inference"

// Certain is the posterior from which an inferred value counts as
// disclosed.
const Certain = 0.9

// inference measures what the release tells of a person's sensitive
// value (homogeneity and skew). Every region's belief, scaled as the
// method's bound reads it, is held against the bound at the tightest
// place; with the original, each person's posterior is the mix of their
// candidate regions' beliefs weighted by the regions' records (the
// attacker knows the person is in the release), and the people whose
// most likely value is right with posterior >= Certain are counted.
// Without it, the records of regions that give one value >= Certain are.
func inference(v *risk.View, e *risk.Exposure, orig *placed, k *risk.Knowledge) risk.Finding {
	f := risk.Finding{Attack: Inference, Bound: math.NaN(), BoundBy: e.PosteriorBy,
		Attacker: "knows a person is in the release and their quasi-identifiers, and reads what their " + e.Unit + " publishes of " + v.SA}
	scale := e.Scale
	if scale == 0 {
		scale = 1
	}
	f.Figure = "largest belief in one sensitive value"
	if scale != 1 {
		f.Figure = fmt.Sprintf("largest observed confidence (%s x the belief in one sensitive value)", model.FormatNumber(scale))
	}
	top, at := tightest(v, e, scale, &f)
	f.Vacuous = e.PosteriorVacuous
	single := 0
	tops := beliefTops(v) // once per belief: regions share them
	for _, reg := range v.Regions {
		if reg.Belief >= 0 && reg.Records > 0 && tops[reg.Belief] >= 1-1e-12 {
			single += reg.Records
		}
	}
	one := fmt.Sprintf("; %s in %s with one sensitive value", records(single), plural(e.Unit))
	if orig == nil {
		certain := 0
		var expected, published float64
		mass := make([]float64, len(v.SAValues)) // the published records' beliefs, summed
		for _, reg := range v.Regions {
			if reg.Belief < 0 || reg.Records == 0 {
				continue
			}
			if tops[reg.Belief] >= Certain {
				certain += reg.Records
			}
			n := float64(reg.Records)
			expected += n * tops[reg.Belief]
			published += n
			bl := v.Beliefs[reg.Belief]
			for k, sv := range bl.Values {
				mass[sv] += n * bl.P[k]
			}
		}
		f.Records = certain
		// Without the original the attacker's own expected accuracy: its
		// most likely value right with the belief's probability, beside
		// guessing the value most records hold.
		f.Calibration = risk.Calibration{Successes: expected, Trials: int(published), Baseline: maxOf(mass) / math.Max(1, published), Control: math.NaN()}
		if certain > 0 {
			f.Short = records(certain) + " with a sensitive value believed >= " + trim(Certain)
			f.Brief = fmt.Sprintf("%d %s inferred", certain, v.SA)
		}
		f.Detail = fmt.Sprintf("largest belief %s; %s in %s that give one value a belief >= %s (the original table says whether it is right)",
			trim(top), records(certain), plural(e.Unit), trim(Certain)) + one
		if certain > 0 && at >= 0 {
			f.Example = fmt.Sprintf("the %s %s gives one value a belief of %s for its %s", e.Unit, regionLabel(v, e, at), trim(tops[v.Regions[at].Belief]), records(v.Regions[at].Records))
		}
		return f
	}
	f.Needs = []string{"original"}
	f.Attacker = "knows a person of the original is in the release and their quasi-identifiers, and mixes what their candidate " + plural(e.Unit) + " publish of " + v.SA
	got := orig.inferRight(v)
	f.Records = got.right
	// The same attacker without the release guesses the original's most
	// common value for everyone.
	f.Calibration = risk.Calibration{Successes: float64(got.top), Trials: got.scored, Baseline: float64(got.prior) / math.Max(1, float64(got.scored)), Control: math.NaN()}
	if got.right > 0 {
		f.Short = people(got.right) + " with a certain sensitive value"
		f.Brief = fmt.Sprintf("%d %s inferred", got.right, v.SA)
	}
	// The denominator is the original's people with a known sensitive
	// value, published or not: it differs from the records published
	// when rows were dropped for missing values, and says so.
	f.Detail = fmt.Sprintf("largest belief %s; %s of %d whose most likely %s is right with a belief >= %s (the %d: the original's people whose %s is known, published or not); most likely value right for %d (%d without the release)",
		trim(top), people(got.right), got.scored, v.SA, trim(Certain), got.scored, v.SA, got.top, got.prior) + one
	if got.example >= 0 {
		f.Example = personLabel(orig, got.example) + fmt.Sprintf(": the release gives their most likely %s a belief >= %s, and it is theirs", v.SA, trim(Certain))
	}
	return f
}

// tightest sets the finding's measured figure and bound at the place the
// belief comes closest to (or furthest beyond) its bound, and returns the
// largest belief and the region that gives it.
func tightest(v *risk.View, e *risk.Exposure, scale float64, f *risk.Finding) (float64, int) {
	top, at := 0.0, -1
	best, bestP := math.Inf(-1), 0.0
	// A later region with a belief already measured changes nothing (ties
	// keep the first) when the bound depends on the region only through
	// its belief, or there is none.
	once := e.Posterior == nil || e.PosteriorPerBelief
	seen := make([]bool, len(v.Beliefs))
	for r, reg := range v.Regions {
		if reg.Belief < 0 || reg.Records == 0 {
			continue
		}
		if once {
			if seen[reg.Belief] {
				continue
			}
			seen[reg.Belief] = true
		}
		bl := v.Beliefs[reg.Belief]
		for k, sv := range bl.Values {
			s, p := int(sv), bl.P[k]
			if p <= 0 {
				continue
			}
			if p > top {
				top, at = p, r
			}
			if e.Posterior == nil {
				continue
			}
			b := e.Posterior(r, s)
			if math.IsNaN(b) {
				continue
			}
			if x := scale*p - b; x > best || x == best && p > bestP {
				best, bestP = x, p
				f.Measured, f.Bound = scale*p, b
			}
		}
	}
	if math.IsInf(best, -1) {
		f.Measured, f.Bound = scale*top, math.NaN()
	}
	return top, at
}

// topValues is every belief's most likely value (the first of the
// largest), and whether its probability is >= Certain.
func topValues(v *risk.View) ([]int32, []bool) {
	first := make([]int32, len(v.Beliefs))
	sure := make([]bool, len(v.Beliefs))
	for i, bl := range v.Beliefs {
		first[i] = -1
		top := 0.0
		for k, x := range bl.P {
			if x > top {
				top, first[i] = x, bl.Values[k]
			}
		}
		sure[i] = first[i] >= 0 && top >= Certain-1e-12
	}
	return first, sure
}

// briefRegion is a region's belief and records, packed: tuples read
// their candidate regions in no order, and a risk.Region (cells, loss,
// presence) is four times larger.
type briefRegion struct {
	records float64
	belief  int32
}

func briefRegions(v *risk.View) []briefRegion {
	regs := make([]briefRegion, len(v.Regions))
	for r := range v.Regions {
		regs[r] = briefRegion{float64(v.Regions[r].Records), v.Regions[r].Belief}
	}
	return regs
}

// inferRight counts the rows whose most likely value is their own (top)
// and those among them where its posterior is >= Certain (right), of
// the rows with a sensitive value (scored), the rows of the most common
// value among them (prior: the attacker's best guess without the
// release, the original's marginal), and returns one row inferred with
// certainty (-1: none).
func (p *placed) inferRight(v *risk.View) inferred {
	var out inferred
	out.example = -1
	sa := p.table.Column(v.SA)
	if sa == nil {
		return out
	}
	guess := make([]int32, len(p.count)) // per tuple: the most likely value (-1: none)
	sure := make([]bool, len(p.count))   // and whether its posterior is >= Certain
	first, certain := topValues(v)
	regs := briefRegions(v)
	p.inCandidateParts(func(lo, hi int) { p.guessTuples(v, regs, first, certain, guess[lo:hi], sure[lo:hi], lo) })
	// The view's position of each of the column's values, once per value.
	index := valueIndex(v.SAValues)
	at := make([]int32, len(sa.Dict))
	for c, x := range sa.Dict {
		at[c] = -1
		if s, ok := index(x); ok {
			at[c] = int32(s)
		}
	}
	perValue := make([]int, len(sa.Dict))
	for row, t := range p.tupleOf {
		c := sa.Codes[row]
		if c == model.Missing {
			continue
		}
		out.scored++
		perValue[c]++
		if g := guess[t]; g >= 0 && at[c] == g {
			out.top++
			if sure[t] {
				out.right++
				if out.example < 0 {
					out.example = row
				}
			}
		}
	}
	for _, n := range perValue {
		out.prior = max(out.prior, n)
	}
	return out
}

// inferred is what attribute inference finds of the original's rows.
type inferred struct {
	right, top, scored, prior, example int
}

// inCandidateParts calls fn(lo, hi) on parts of the tuples at once, one
// per core, cut so that each holds about as many candidate regions (a
// tuple's work): the first tuples of a table are often its most common,
// covered by many more regions than the rest.
func (p *placed) inCandidateParts(fn func(lo, hi int)) {
	n := len(p.count)
	total := int(p.start[n])
	k := partsOf(max(n, total))
	cut := make([]int, k+1)
	cut[k] = n
	for i := 1; i < k; i++ {
		want := int32(total * i / k)
		cut[i] = max(cut[i-1], sort.Search(n, func(t int) bool { return p.start[t] >= want }))
	}
	atOnce(k, func(i int) { fn(cut[i], cut[i+1]) })
}

// guessTuples sets guess[j], for the tuples lo+j, to the most likely
// value (-1: none) and sure[j] to whether its posterior is >= Certain.
func (p *placed) guessTuples(v *risk.View, regs []briefRegion, first []int32, certain []bool, guess []int32, sure []bool, lo int) {
	post := make([]float64, len(v.SAValues))
	var touched []int32 // the values post holds for the tuple at hand (cleared after it)
	// A tuple with one candidate region believes that region's belief: its
	// most likely value (the first of the largest) is found once per
	// belief, not once per tuple (a wide sensitive domain costs its
	// beliefs, not tuples x values). Beliefs hold no zero probability, so
	// the mix below gives the same value.
	for j := range guess {
		guess[j] = -1
		cands := p.candidates(lo + j)
		if len(cands) == 1 {
			if reg := regs[cands[0]]; reg.belief >= 0 && reg.records > 0 {
				guess[j], sure[j] = first[reg.belief], certain[reg.belief]
			}
			continue
		}
		var w float64
		for _, r := range cands {
			reg := regs[r]
			if reg.belief < 0 || reg.records == 0 {
				continue
			}
			bl := v.Beliefs[reg.belief]
			for k, sv := range bl.Values {
				s, x := int(sv), bl.P[k]
				if post[s] == 0 {
					touched = append(touched, sv)
				}
				post[s] += x * reg.records
			}
			w += reg.records
		}
		// The most likely value, the first of the largest (values never
		// touched hold 0: the largest is one touched when w > 0).
		best := 0
		for _, s := range touched {
			if post[s] > post[best] || post[s] == post[best] && int(s) < best {
				best = int(s)
			}
		}
		if w != 0 {
			guess[j], sure[j] = int32(best), post[best]/w >= Certain-1e-12
		}
		for _, s := range touched {
			post[s] = 0
		}
		touched = touched[:0]
	}
}

// valueIndex finds a sensitive value's position among the view's values
// (by text, or by number where both read as numbers).
func valueIndex(values []string) func(string) (int, bool) {
	byText := make(map[string]int, len(values))
	byNum := map[float64]int{}
	for i, s := range values {
		byText[s] = i
		if x, ok := model.ParseNumber(s); ok {
			byNum[x] = i
		}
	}
	return func(s string) (int, bool) {
		if i, ok := byText[s]; ok {
			return i, true
		}
		if x, ok := model.ParseNumber(s); ok {
			i, ok := byNum[x]
			return i, ok
		}
		return 0, false
	}
}

// beliefTops is each belief's largest probability.
func beliefTops(v *risk.View) []float64 {
	out := make([]float64, len(v.Beliefs))
	for i, bl := range v.Beliefs {
		out[i] = maxOf(bl.P)
	}
	return out
}

func maxOf(p []float64) float64 {
	m := 0.0
	for _, x := range p {
		m = math.Max(m, x)
	}
	return m
}

// trim writes a probability with at most four decimals.
func trim(x float64) string {
	s := fmt.Sprintf("%.4f", x)
	for len(s) > 1 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
