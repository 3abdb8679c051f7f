package check

import (
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/sampling/format"
	"strings"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// knowledge reads the public knowledge of a sampling release: the
// taxonomies, the sensitive values' probabilities and the sampling rate.
func knowledge(rel *verify.Release) (*format.Details, []*tree, map[string]float64, error) {
	m := rel.Manifest
	man := filepath.Join(rel.Dir, "manifest.json")
	d, err := format.Read(m)
	if err != nil || len(d.Attributes) != len(m.QIs) {
		return nil, nil, nil, &model.InputError{File: man, Msg: "details do not carry the public knowledge of a sampling release"}
	}
	trees := make([]*tree, len(m.QIs))
	for i, a := range d.Attributes {
		t, err := readTree(a)
		if err != nil || a.Name != m.QIs[i] {
			return nil, nil, nil, &model.InputError{File: man, Msg: fmt.Sprintf("public_knowledge of %s: %v", m.QIs[i], err)}
		}
		trees[i] = t
	}
	sa := map[string]float64{}
	for _, v := range d.Sensitive {
		sa[v.Value] = v.P
	}
	return &d, trees, sa, nil
}

// Expose is what a sampling release shows an attacker beyond its view
// (risk.Exposure): a person's raw values lie below the taxonomy nodes the
// release publishes (local recoding may cover them by several groups);
// the method claims no anonymity and no presence bound, and bounds the
// observed confidence beta·#s/|E| of a record by its expected confidence
// 1-(1-Pr(t))^n (Sattar et al., Eq. 1-3).
func Expose(rel *verify.Release, v *risk.View) (*risk.Exposure, error) {
	d, trees, sa, err := knowledge(rel)
	if err != nil {
		return nil, err
	}
	e := &risk.Exposure{
		Unit:        "equivalence group",
		KBy:         "sampling claims no anonymity: it bounds the confidence of linking a person to a sensitive value (Sattar et al., Eq. 3)",
		Scale:       d.SamplingRate,
		PosteriorBy: "the record's expected confidence 1-(1-Pr(t))^n (Sattar et al., Eq. 1), against the observed confidence beta·#s/|E| (Eq. 2)",
		Presence:    math.NaN(),
		PresenceBy:  fmt.Sprintf("sampling publishes a record with probability %s and bounds no presence probability", model.FormatNumber(d.SamplingRate)),
	}
	for i, cells := range v.Cells {
		e.Cover = append(e.Cover, treeCover(trees[i], cells))
	}
	e.Posterior = expectedOf(v, trees, func(i int, x int) float64 { return trees[i].mass[x] }, sa)
	return e, nil
}

// treeCover covers a raw value by the published cells that are its leaf
// or an ancestor of it in the taxonomy.
func treeCover(t *tree, cells []string) func(raw []string) [][]uint32 {
	code := map[int]uint32{}
	for c, s := range cells {
		if x, ok := t.byLabel[s]; ok {
			code[x] = uint32(c)
		}
	}
	return func(raw []string) [][]uint32 {
		out := make([][]uint32, len(raw))
		for i, s := range raw {
			l, ok := t.leaf(strings.TrimSpace(s))
			for x := l; ok; x = t.nodes[x].Parent {
				if c, pub := code[x]; pub {
					out[i] = append(out[i], c)
				}
				if x == 0 {
					break
				}
			}
			risk.SortedUnique(out[i])
		}
		return out
	}
}

// expectedOf gives every region's expected confidence per sensitive
// value (Eq. 1) with Pr(t) the product of the published nodes' masses
// and the value's probability, n the published records.
func expectedOf(v *risk.View, trees []*tree, mass func(qi, node int) float64, sa map[string]float64) func(region, value int) float64 {
	n := 0
	for _, r := range v.Regions {
		n += r.Records
	}
	qiP := make([]float64, len(v.Regions))
	for r := range qiP {
		qiP[r] = math.NaN()
	}
	return func(region, value int) float64 {
		if math.IsNaN(qiP[region]) {
			p := 1.0
			for i, c := range v.Regions[region].Cells {
				x, ok := trees[i].byLabel[v.Cells[i][c]]
				if !ok {
					return math.NaN()
				}
				p *= mass(i, x)
			}
			qiP[region] = p
		}
		return expected(qiP[region]*sa[v.SAValues[value]], n)
	}
}

// Attack re-evaluates Eq. 3 under other public marginals (Sattar et al.,
// Definition 5): the attacker's, from --marginals, or the population's
// value frequencies. The release's certificate holds under the marginals
// it states; records whose observed confidence exceeds their expected
// confidence under the attacker's are over their cap.
func Attack(rel *verify.Release, v *risk.View, k *risk.Knowledge) ([]risk.Finding, error) {
	f := risk.Finding{Attack: "Eq. 3 under other marginals", Measured: math.NaN(), Bound: 0,
		Figure:  "largest excess of observed over expected confidence",
		BoundBy: "0: observed confidence at most expected (Sattar et al., Eq. 3)"}
	d, trees, sa, err := knowledge(rel)
	if err != nil {
		return nil, err
	}
	marg, from := k.Marginals, k.MarginalsName
	switch {
	case marg != nil:
		f.Needs = []string{"marginals"}
	case k.Population != nil:
		marg, from = risk.PopulationMarginals(k.Population, append(append([]string(nil), rel.Manifest.QIs...), rel.Manifest.SA)), "the population's value frequencies ("+k.PopulationName+")"
		f.Needs = []string{"population"}
	default:
		f.Attacker = "holds public marginals other than the release's"
		f.NotRun = "needs a marginals file (attribute,value,probability) or a population table"
		f.Lacks = []string{"marginals", "population"}
		return []risk.Finding{f}, nil
	}
	f.Attacker = "computes Pr(t) from " + from
	masses := make([][]float64, len(trees))
	var kept []string
	for i, t := range trees {
		p, ok := marg[rel.Manifest.QIs[i]]
		if !ok {
			// An attribute the attacker's marginals do not give keeps the
			// release's.
			masses[i], kept = t.mass, append(kept, rel.Manifest.QIs[i])
			continue
		}
		masses[i] = t.massesUnder(p)
	}
	if len(kept) > 0 {
		f.Attacker += " (the release's own for " + strings.Join(kept, ", ") + ")"
	}
	saP := sa
	if p, ok := marg[rel.Manifest.SA]; ok {
		saP = p
	}
	exp := expectedOf(v, trees, func(i, x int) float64 { return masses[i][x] }, saP)
	measure(v, d.SamplingRate, exp, &f)
	return []risk.Finding{f}, nil
}

// measure counts the records over their cap and the largest excess.
func measure(v *risk.View, beta float64, exp func(region, value int) float64, f *risk.Finding) {
	worst, at := math.Inf(-1), -1
	for r, reg := range v.Regions {
		if reg.Belief < 0 || reg.Records == 0 {
			continue
		}
		bl := v.Beliefs[reg.Belief]
		for k, sv := range bl.Values {
			s, p := int(sv), bl.P[k]
			if p <= 0 {
				continue
			}
			excess := beta*p - exp(r, s)
			if excess > tolerance {
				f.Records += int(math.Round(p * float64(reg.Records)))
			}
			if excess > worst {
				worst, at = excess, r
			}
		}
	}
	if at < 0 {
		f.Measured = 0
		return
	}
	f.Measured = worst
	// Without the release no record has an observed confidence to exceed
	// its cap: the baseline is 0.
	f.Calibration = risk.Calibration{Successes: float64(f.Records), Trials: publishedOf(v), Baseline: 0, Control: math.NaN()}
	f.Detail = fmt.Sprintf("%d of %d published records over their cap", f.Records, publishedOf(v))
	if f.Records > 0 {
		f.Short = fmt.Sprintf("%d records over their cap", f.Records)
		f.Example = fmt.Sprintf("the %d records of the group (%s): observed confidence exceeds the expected by %.4g", v.Regions[at].Records, v.CellKey(v.Regions[at]), worst)
	}
}

func publishedOf(v *risk.View) int {
	n := 0
	for _, r := range v.Regions {
		n += r.Records
	}
	return n
}

// massesUnder is every node's mass under other leaf probabilities (by
// the leaf's label; a leaf they do not name has probability 0).
func (t *tree) massesUnder(p map[string]float64) []float64 {
	out := make([]float64, len(t.nodes))
	for x := range t.nodes {
		for i := t.first[x]; i <= t.last[x] && i < len(t.leaves); i++ {
			out[x] += p[t.nodes[t.leaves[i]].Value]
		}
	}
	return out
}
