package check

import (
	"math"
	"privlab/algorithms/distribution/format"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// groupFacts are what the checker recomputed per group.
type groupFacts struct {
	sizes    []int
	nsub     []int
	sor      []float64 // sum of ranges of the group's subdomains
	conf     []float64 // the largest probability the group's target gives a value
	post     []float64 // max |posterior - target| (Definition 3.2)
	zero     []float64 // members whose value the target makes impossible (nil without the original)
	qiGroup  []int
	qiValues [][]string // per qi.csv row, its QI values
	qis      []string   // the QI names, in qiValues order
}

// checkDetails holds every figure of the manifest's details and the
// parameters that bound the data to the files.
func checkDetails(rel *verify.Release, h *annotated, weights func(gi int) []int64, gw bool, g groupFacts, opt verify.Options, r *verify.Report) {
	m := rel.Manifest
	d, err := format.Read(m)
	if err != nil {
		r.Add(false, "claim details", "the manifest's details do not read: %v", err)
		return
	}
	// The parameters the manifest states are the ones the details repeat.
	r.ClaimText("parameters.target", m.Parameters["target"], d.Target)
	r.ClaimText("parameters.grouping", m.Parameters["grouping"], d.Grouping)
	r.ClaimText("parameters.max-denominator", m.Parameters["max-denominator"], strconv.Itoa(d.MaxDenominator))

	// The SA domain is hierarchy.csv's leaves, in order.
	var leaves []string
	for _, l := range h.leaves {
		leaves = append(leaves, h.low[l])
	}
	r.ClaimText("details.domain", strings.Join(d.Domain, "|"), strings.Join(leaves, "|"))

	r.Claim("details.sa_rows", float64(d.Subdomains), float64(sumInts(g.nsub)))
	fakes := 0
	for gi := range g.sizes {
		fakes += max(0, g.nsub[gi]-g.sizes[gi])
	}
	r.Claim("details.fake_values", float64(d.FakeValues), float64(fakes))
	r.Claim("details.sum_of_ranges", d.SumOfRanges, sumFloats(g.sor))

	// Per-group targets are the ones group_weights.csv holds.
	if d.PerGroupTarget != gw {
		r.Add(false, "claim details.per_group_target", "the manifest states %v, the release %s group_weights.csv", d.PerGroupTarget, map[bool]string{true: "has", false: "has no"}[gw])
	}
	// Every weight within the stated bound (SPEC 2.4); the group target
	// keeps each group's exact counts.
	if d.MaxDenominator > 0 && d.Target != "group" {
		over := 0
		for gi := range g.sizes {
			for x, w := range weights(gi) {
				if x != h.root && w > int64(d.MaxDenominator) {
					over++
				}
			}
		}
		if over > 0 {
			r.Add(false, "claim max-denominator", "%d weights exceed the stated bound %d", over, d.MaxDenominator)
		}
	}
	// The effective target is the hierarchy's weights pushed to the leaves;
	// its distance to the requested target is computable wherever the
	// requested target is a function of the domain (uniform, zipf, normal)
	// or of the original (table).
	if !d.PerGroupTarget {
		leafIndex := make([]int, len(h.parent))
		for i, l := range h.leaves {
			leafIndex[l] = i
		}
		eff := h.mixture(h.weight, map[int]float64{h.root: 1}, len(h.leaves), leafIndex)
		if len(d.Effective) != len(eff) {
			r.Add(false, "claim details.effective_target", "the manifest states %d probabilities for %d values", len(d.Effective), len(eff))
		} else {
			for i := range eff {
				if math.Abs(d.Effective[i]-eff[i]) > 1e-8 {
					r.Add(false, "claim details.effective_target", "value %s: the manifest states %v, hierarchy.csv gives %v", leaves[i], d.Effective[i], eff[i])
					break
				}
			}
		}
		var orig *verify.Originals
		if opt.Original != nil {
			orig, _ = verify.NewOriginals(opt.Original, m)
		}
		if req, ok := requested(d.Target, h, orig); ok {
			emd, maxAbs := distance(h.numeric, eff, req)
			r.Claim("details.effective_vs_requested_emd", d.TargetEMD, emd)
			r.Claim("details.effective_vs_requested_max_abs", d.TargetMaxAbs, maxAbs)
			// max-denominator 0 means exact weights: the effective target is
			// the requested one.
			if d.MaxDenominator == 0 && maxAbs > 1e-6 {
				r.Add(false, "claim max-denominator", "the manifest states exact weights (0), but the effective target is %s from the requested one", model.FormatNumber(maxAbs))
			}
		}
	}
	// The per-group figures' summaries.
	perGroup := map[string][]float64{"sum ranges": g.sor, "max P'(v)": g.conf, "posterior dev": g.post}
	fk := make([]float64, len(g.sizes))
	for gi := range g.sizes {
		fk[gi] = float64(max(0, g.nsub[gi]-g.sizes[gi]))
	}
	perGroup["fakes"] = fk
	if g.zero != nil {
		perGroup["P'(v)=0"] = g.zero
	}
	for _, s := range d.FigureSummary {
		vals, ok := perGroup[s.Figure]
		if !ok {
			if s.Figure == "P'(v)=0" && opt.Original == nil {
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
	checkGrouping(d.Grouping, g, r)
}

// checkGrouping holds the groups to the stated grouping where the files
// can tell (Koudas et al. 2009, Section 4.2): one group for sa-only,
// groups of identical QI tuples for qi-sa, one value of the column per
// group for column:NAME, groups of at least SIZE for mondrian:SIZE.
func checkGrouping(grouping string, g groupFacts, r *verify.Report) {
	kind, arg, _ := strings.Cut(grouping, ":")
	bad := func(format string, args ...any) {
		r.Add(false, "claim parameters.grouping", "the groups are not a %s grouping: "+format, append([]any{grouping}, args...)...)
	}
	switch kind {
	case "sa-only":
		if len(g.sizes) != 1 {
			bad("%d groups", len(g.sizes))
		}
	case "qi-sa":
		key := map[string]int{}
		for row, vals := range g.qiValues {
			k := strings.Join(vals, "\x00")
			if gi, ok := key[k]; ok && gi != g.qiGroup[row] {
				bad("one QI tuple is in two groups")
				return
			}
			key[k] = g.qiGroup[row]
		}
		if len(key) != len(g.sizes) {
			bad("a group holds several QI tuples")
		}
	case "column", "level":
		// A column's value, or its generalization at a level, decides the
		// group: a value never lies in two groups (and for column:NAME a
		// group holds one value).
		name, _, _ := strings.Cut(arg, "=")
		col := -1
		for i, q := range g.qis {
			if q == name {
				col = i
			}
		}
		if col < 0 {
			bad("%s is not a published quasi-identifier", name)
			return
		}
		groupOf := map[string]int{}
		values := make([]map[string]bool, len(g.sizes))
		for row, vals := range g.qiValues {
			if col >= len(vals) {
				bad("qi.csv has no column %s", name) // its header already failed
				return
			}
			v, gi := vals[col], g.qiGroup[row]
			if prev, ok := groupOf[v]; ok && prev != gi {
				bad("%s = %s lies in two groups", name, v)
				return
			}
			groupOf[v] = gi
			if values[gi] == nil {
				values[gi] = map[string]bool{}
			}
			values[gi][v] = true
		}
		if kind == "column" {
			for _, vs := range values {
				if len(vs) > 1 {
					bad("a group holds %d values of %s", len(vs), name)
					return
				}
			}
		}
	case "mondrian":
		size, err := strconv.Atoi(arg)
		if err != nil {
			bad("no size")
			return
		}
		for _, s := range g.sizes {
			if s < size && len(g.sizes) > 1 {
				bad("a group of %d", s)
				return
			}
		}
	}
}

// requested is the requested target when it is a function of the domain
// (or, for the table's own distribution, of the original).
func requested(target string, h *annotated, orig *verify.Originals) ([]float64, bool) {
	n := len(h.leaves)
	m := make([]float64, n)
	name, arg, _ := strings.Cut(target, ":")
	switch name {
	case "uniform":
		for i := range m {
			m[i] = 1
		}
	case "zipf":
		s, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			return nil, false
		}
		for i := range m {
			m[i] = math.Pow(1/float64(i+1), s)
		}
	case "normal":
		a, b, _ := strings.Cut(arg, ",")
		mu, err1 := strconv.ParseFloat(a, 64)
		sigma, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil || !h.numeric || !(sigma > 0) {
			return nil, false
		}
		// Each value takes the normal mass between the midpoints to its
		// neighbours (leaves are in increasing order).
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
	case "table":
		// The distribution of the rows the release publishes.
		if orig == nil {
			return nil, false
		}
		c := orig.SA
		pos := map[string]int{}
		num := map[float64]int{}
		for i, l := range h.leaves {
			pos[h.low[l]] = i
			num[h.lowNum[l]] = i
		}
		for _, rows := range orig.ByKey {
			for _, row := range rows {
				v, _ := orig.Text(c, row)
				i, ok := pos[v]
				if !ok && c.Kind == model.Numeric && !c.IsMissing(row) {
					i, ok = num[c.Num(row)]
				}
				if ok {
					m[i]++
				}
			}
		}
	default:
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
