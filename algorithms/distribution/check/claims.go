package check

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// The worst cases a release states, with the method's fixed limits:
// Definition 3.2 holds exactly, no value may be certain, no member
// impossible.
const (
	figPosterior  = "posterior deviation (max)"
	figConfidence = "max P'(v) in a group"
	figImpossible = "members with P'(v) = 0"
)

// claims holds the manifest's counts, worst cases and utility to the
// files (verify.Report.Compare). Ranges are max-min of numeric
// subdomains and the number of values minus one of categorical ones
// (Koudas et al. 2009, footnote 3).
func claims(c *release, r *verify.Report) error {
	g := c.groupsOf()
	p, err := c.posteriorsOf()
	if err != nil {
		return err
	}
	sor := sumFloats(g.ranges(c.h))
	rc := verify.Recomputed{Groups: len(g.sizes), Published: c.qi.Rows,
		Tables: map[string]*model.Table{format.FileQI: c.qi, format.FileSA: c.sa, format.FileHierarchy: c.h.table},
		Figures: map[string]float64{figPosterior: p.worst, figConfidence: p.maxConf,
			"sum of ranges": sor, "avg range per subdomain": sor / math.Max(1, float64(c.sa.Rows))},
		Holds:    map[string]bool{figPosterior: p.worst <= 1e-9, figConfidence: p.maxConf <= 1-1e-6},
		Later:    map[string]bool{figImpossible: true},
		Limits:   map[string]string{figPosterior: "0", figConfidence: "< 1", figImpossible: "0"},
		Complete: true,
	}
	if w, err := c.weightsOf(); err == nil && w.table != nil {
		rc.Tables[format.FileGroupWeights] = w.table
	}
	if c.opt.Original != nil {
		if f, err := c.originalOf(); err == nil && f.zero != nil {
			rc.Figures[figImpossible] = float64(f.impossible)
			rc.Holds[figImpossible] = f.impossible == 0
		}
	}
	r.Compare(c.rel, rc, c.opt)
	return nil
}

// ranges is every group's sum of ranges of its subdomains.
func (g *groups) ranges(h *annotated) []float64 {
	out := make([]float64, len(g.subs))
	for gi := range g.subs {
		for x, n := range g.subs[gi] {
			if h.numeric {
				out[gi] += n * (h.highNum[x] - h.lowNum[x])
			} else {
				out[gi] += n * float64(h.leafCount(x)-1)
			}
		}
	}
	return out
}

// detailParameters: the manifest's details read, and the parameters it
// states are the ones the details repeat.
func detailParameters(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	if err != nil {
		r.Add(false, "claim details", "the manifest's details do not read: %v", err)
		return nil
	}
	m := c.m
	r.ClaimText("parameters.target", format.ParamTarget.Of(m.Parameters), d.Target)
	r.ClaimText("parameters.grouping", format.ParamGrouping.Of(m.Parameters), d.Grouping)
	r.ClaimText("parameters.max-denominator", format.ParamMaxDenominator.Text(m.Parameters), strconv.Itoa(d.MaxDenominator))
	return nil
}

// detailCounts: the domain is hierarchy.csv's leaves in order, and the
// subdomains, fake values and sum of ranges are the files'.
func detailCounts(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	if err != nil {
		return nil
	}
	g := c.groupsOf()
	r.ClaimText("details.domain", strings.Join(d.Domain, "|"), strings.Join(c.h.values(), "|"))
	r.Claim("details.sa_rows", float64(d.Subdomains), float64(sumInts(g.nsub)))
	r.Claim("details.fake_values", float64(d.FakeValues), sumFloats(g.fakes()))
	r.Claim("details.sum_of_ranges", d.SumOfRanges, sumFloats(g.ranges(c.h)))
	return nil
}

// fakes is every group's fake values: its subdomains beyond its tuples.
func (g *groups) fakes() []float64 {
	out := make([]float64, len(g.sizes))
	for gi := range g.sizes {
		out[gi] = float64(max(0, g.nsub[gi]-g.sizes[gi]))
	}
	return out
}

// perGroupTarget: the details say per-group targets exactly when
// group_weights.csv gives them.
func perGroupTarget(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	w, werr := c.weightsOf()
	if err != nil || werr != nil {
		return nil
	}
	if has := w.table != nil; d.PerGroupTarget != has {
		r.Add(false, "claim details.per_group_target", "the manifest states %v, the release %s group_weights.csv", d.PerGroupTarget, map[bool]string{true: "has", false: "has no"}[has])
	}
	return nil
}

// maxDenominator: every weight is within the stated bound (SPEC 2.4);
// the group target keeps each group's exact counts.
func maxDenominator(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	w, werr := c.weightsOf()
	if err != nil || werr != nil || d.MaxDenominator <= 0 || d.Target == "group" {
		return nil
	}
	over := 0
	for gi := range c.groupsOf().sizes {
		for x, n := range w.of(gi) {
			if x != c.h.root && n > int64(d.MaxDenominator) {
				over++
			}
		}
	}
	if over > 0 {
		r.Add(false, "claim max-denominator", "%d weights exceed the stated bound %d", over, d.MaxDenominator)
	}
	return nil
}

// effectiveTarget: the effective target the details state is the
// hierarchy's weights pushed to the leaves.
func effectiveTarget(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	if err != nil || d.PerGroupTarget {
		return nil
	}
	eff := c.h.target(c.h.weight)
	if len(d.Effective) != len(eff) {
		r.Add(false, "claim details.effective_target", "the manifest states %d probabilities for %d values", len(d.Effective), len(eff))
		return nil
	}
	for i := range eff {
		if math.Abs(d.Effective[i]-eff[i]) > 1e-8 {
			r.Add(false, "claim details.effective_target", "value %s: the manifest states %v, hierarchy.csv gives %v", c.h.values()[i], d.Effective[i], eff[i])
			break
		}
	}
	return nil
}

// requestedTarget: the effective target's distance to the requested one,
// wherever the requested target is a function of the domain (uniform,
// zipf, normal) or of the original (table); max-denominator 0 means
// exact weights: the effective target is the requested one.
func requestedTarget(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	if err != nil || d.PerGroupTarget {
		return nil
	}
	var orig *verify.Original
	if c.opt.Original != nil {
		if f, err := c.originalOf(); err == nil {
			orig = f.o
		}
	}
	req, ok := requested(d.Target, c.h, orig)
	if d.Target == "table" && c.opt.Whole != nil {
		// A partition's table target is the whole input's (model.Whole).
		req, ok = wholeTarget(c.h, c.opt.Whole.Counts[c.m.SA])
	}
	if !ok {
		return nil
	}
	emd, maxAbs := distance(c.h.numeric, c.h.target(c.h.weight), req)
	r.Claim("details.effective_vs_requested_emd", d.TargetEMD, emd)
	r.Claim("details.effective_vs_requested_max_abs", d.TargetMaxAbs, maxAbs)
	if d.MaxDenominator == 0 && maxAbs > 1e-6 {
		r.Add(false, "claim max-denominator", "the manifest states exact weights (0), but the effective target is %s from the requested one", model.FormatNumber(maxAbs))
	}
	return nil
}

// groupFigures: the per-group figures' summaries (min, mean, max) are
// the files'; the members with P'(v) = 0 are a figure about the original
// values.
func groupFigures(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	p, perr := c.posteriorsOf()
	if err != nil || perr != nil {
		return nil
	}
	g := c.groupsOf()
	perGroup := map[string][]float64{"sum ranges": g.ranges(c.h), "max P'(v)": p.conf, "posterior dev": p.post, "fakes": g.fakes()}
	if c.opt.Original != nil {
		if f, err := c.originalOf(); err == nil && f.zero != nil {
			perGroup["P'(v)=0"] = f.zero
		}
	}
	for _, s := range d.FigureSummary {
		vals, ok := perGroup[s.Figure]
		if !ok {
			if s.Figure == "P'(v)=0" && c.opt.Original == nil {
				continue // a figure about the original values
			}
			r.Add(false, "claim details.group_figures", "the manifest states a per-group figure %q the files cannot confirm", s.Figure)
			continue
		}
		lo, mean, hi := summary(vals)
		r.Claim("details.group_figures."+s.Figure+".min", s.Min, lo)
		r.Claim("details.group_figures."+s.Figure+".mean", s.Mean, mean)
		r.Claim("details.group_figures."+s.Figure+".max", s.Max, hi)
	}
	return nil
}

// requested is the requested target when it is a function of the domain
// (or, for the table's own distribution, of the original's published
// rows).
func requested(target string, h *annotated, orig *verify.Original) ([]float64, bool) {
	var m []float64
	name, arg, _ := strings.Cut(target, ":")
	switch name {
	case "uniform":
		m = make([]float64, len(h.leaves))
		for i := range m {
			m[i] = 1
		}
	case "zipf":
		s, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return nil, false
		}
		m = make([]float64, len(h.leaves))
		for i := range m {
			m[i] = math.Pow(1/float64(i+1), s)
		}
	case "normal":
		m = normalTarget(arg, h)
	case "table":
		m = tableTarget(h, orig)
	}
	if m == nil {
		return nil, false // a custom file or a per-group target: not published
	}
	total := sumFloats(m)
	if !(total > 0) {
		return nil, false
	}
	for i := range m {
		m[i] /= total
	}
	return m, true
}

// normalTarget gives each value the normal mass between the midpoints to
// its neighbours (leaves are in increasing order); nil when the argument
// or the domain does not allow it.
func normalTarget(arg string, h *annotated) []float64 {
	a, b, _ := strings.Cut(arg, ",")
	mu, err1 := strconv.ParseFloat(a, 64)
	sigma, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || !h.numeric || !(sigma > 0) {
		return nil
	}
	n := len(h.leaves)
	m := make([]float64, n)
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-(x-mu)/(sigma*math.Sqrt2)) }
	for i, l := range h.leaves {
		lo, hi := math.Inf(-1), math.Inf(1)
		if i > 0 {
			lo = (h.lowNum[h.leaves[i-1]] + h.lowNum[l]) / 2
		}
		if i < n-1 {
			hi = (h.lowNum[l] + h.lowNum[h.leaves[i+1]]) / 2
		}
		m[i] = cdf(hi) - cdf(lo)
	}
	return m
}

// tableTarget is the distribution of the sensitive values of the rows
// the release publishes (nil without the original).
func tableTarget(h *annotated, orig *verify.Original) []float64 {
	if orig == nil {
		return nil
	}
	col := orig.SA
	at := h.leafAt(col, orig.Texts(col))
	m := make([]float64, len(h.leaves))
	for row, kept := range orig.Kept {
		if i := at[verify.Code(col, row)]; kept && i >= 0 {
			m[i]++
		}
	}
	return m
}

// distance is the earth mover's distance (ordered ground distance over a
// numeric domain, equal distance otherwise) and the largest absolute
// difference between two distributions over the same domain.
func distance(ordered bool, p, q []float64) (emd, maxAbs float64) {
	for i := range p {
		maxAbs = math.Max(maxAbs, math.Abs(p[i]-q[i]))
	}
	if len(p) <= 1 {
		return 0, maxAbs
	}
	if !ordered {
		for i := range p {
			emd += math.Abs(p[i] - q[i])
		}
		return emd / 2, maxAbs
	}
	cum := 0.0
	for i := 0; i < len(p)-1; i++ {
		cum += p[i] - q[i]
		emd += math.Abs(cum)
	}
	return emd / float64(len(p)-1), maxAbs
}

func summary(v []float64) (lo, mean, hi float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	for _, x := range s {
		mean += x / float64(len(s))
	}
	return s[0], mean, s[len(s)-1]
}

func sumInts(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}

func sumFloats(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// wholeTarget is the table target of a partitioned release's partition:
// the distribution of the whole input's sensitive values (counts by
// text); false when a value is no leaf of the hierarchy.
func wholeTarget(h *annotated, counts map[string]int) ([]float64, bool) {
	col := &model.Column{Kind: model.Numeric}
	for v := range counts {
		x, ok := model.ParseNumber(v)
		col.Dict, col.Nums = append(col.Dict, v), append(col.Nums, x)
		if !ok {
			col.Kind = model.Categorical
		}
	}
	at := h.leafAt(col, col.Dict)
	m := make([]float64, len(h.leaves))
	total := 0.0
	for code, v := range col.Dict {
		if at[code] < 0 {
			return nil, false
		}
		m[at[code]] += float64(counts[v])
		total += float64(counts[v])
	}
	if !(total > 0) {
		return nil, false
	}
	for i := range m {
		m[i] /= total
	}
	return m, true
}
