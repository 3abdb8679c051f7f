package check

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/sampling/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// tolerance absorbs floating-point noise in Eq. 3, whose expected
// confidence 1 - (1 - Pr(t))^n is computed in float64 (as the method
// computes it); toleranceText is how the check lines state it. The
// distortion bound and the sample's size are exact.
const (
	tolerance     = 1e-9
	toleranceText = "1e-9"
)

// The worst cases a release states.
const (
	figMargin     = "worst margin (expected - observed confidence)"
	figDistortion = "max distortion"
)

// parameters: the sampling rate beta is in (0,1] and the distortion
// limit delta' in [0,1] (Algorithm 1), and the details repeat them.
func parameters(c *release, r *verify.Report) error {
	m := c.m
	beta, okB := param(m, "sampling-rate")
	delta, okD := param(m, "max-distortion")
	r.Add(okB && beta > 0 && beta <= 1 && okD && delta >= 0 && delta <= 1, "parameters",
		"sampling-rate %s in (0,1] and max-distortion %s in [0,1]", format.ParamRate.Text(m.Parameters), format.ParamMaxDistortion.Text(m.Parameters))
	r.Claim("details.sampling_rate", c.det.SamplingRate, beta)
	r.Claim("details.max_distortion", c.det.MaxDistortion, delta)
	return nil
}

// minGeneralizationRule: the minimum generalization the parameter states
// gives the levels the details state.
func minGeneralizationRule(c *release, r *verify.Report) error {
	m := c.m
	r.Add(c.mgErr == nil && sameLevels(c.mg, c.det.MinGeneralization), "min-generalization",
		"the minimum generalization %q gives %s (details state %s)%s", format.ParamMinGeneralization.Of(m.Parameters),
		levelsText(m.QIs, c.mg), levelsText(m.QIs, c.det.MinGeneralization), errText(c.mgErr))
	return nil
}

// marginalsSource: the public marginals come from the table or a file,
// as the details say.
func marginalsSource(c *release, r *verify.Report) error {
	src := format.ParamMarginals.Of(c.m.Parameters)
	r.ClaimText("details.marginals", c.det.Marginals, src)
	r.Add(src == "table" || src == "file", "marginals", "public marginals from %q (table or file)", src)
	return nil
}

// minimumGeneralization: from the files alone the record's own value is
// unknown, so a published value passes when some value below it is the
// rule's levels down (its subtree is that high). With the original and
// the audit record, recordGeneralization measures from the record's own
// value.
func minimumGeneralization(c *release, r *verify.Report) error {
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	r.Add(g.belowMin == 0, "minimum generalization", belowMinText, g.belowMin)
	return nil
}

// sensitiveValues: every published sensitive value has a public
// probability (Pr(s) of Eq. 1).
func sensitiveValues(c *release, r *verify.Report) error {
	f, err := c.confidencesOf()
	if err != nil {
		return err
	}
	r.Add(f.unknownSA == 0, "sensitive values", "every published sensitive value has a public probability (%d do not)", f.unknownSA)
	return nil
}

// eq3: every record's observed confidence is at most its expected
// confidence (Sattar et al., Eq. 3).
func eq3(c *release, r *verify.Report) error {
	f, err := c.confidencesOf()
	if err != nil {
		return err
	}
	if f.violating == 0 {
		r.Add(true, "Eq. 3", "all %d published records: observed confidence <= expected confidence within %s (worst margin %.4g)", c.t.Rows, toleranceText, f.worstMargin)
	} else {
		r.Add(false, "Eq. 3", "%d published records have observed > expected confidence by more than %s; worst margin %.4g at %s", f.violating, toleranceText, f.worstMargin, f.worstAt)
	}
	return nil
}

// distortion: every record's distortion is at most delta', exactly
// (Definition 10).
func distortion(c *release, r *verify.Report) error {
	f, err := c.confidencesOf()
	if err != nil {
		return err
	}
	r.Add(f.over == 0, "distortion", "every record's distortion is at most delta' = %s, exactly (max %.4f; %d records over)",
		format.ParamMaxDistortion.Text(c.m.Parameters), f.maxDist, f.over)
	return nil
}

// counts: the counts of Algorithm 1 add up, the sample is floor(beta n')
// records exactly, and the rows dropped for missing values are the
// manifest's suppressed rows the method did not suppress.
func counts(c *release, r *verify.Report) error {
	m, d, n := c.m, c.det, c.t.Rows
	betaB, _ := model.ParseBound(format.ParamRate.Text(m.Parameters))
	dropped := m.RowsIn - d.RowsConsidered
	ok := d.RowsPublished == n && d.RowsConsidered >= 0 && dropped >= 0 &&
		d.RowsSampled == betaB.Floor(max(d.RowsConsidered, 0)) &&
		d.RowsUnsampled == d.RowsConsidered-d.RowsSampled &&
		d.RowsSuppressed+d.RowsPublished == d.RowsSampled && d.RowsSuppressed >= 0 &&
		m.Suppressed-d.RowsSuppressed == dropped
	r.Add(ok, "counts", "%d considered = %d published + %d suppressed + %d not sampled, with %d = floor(beta x %d) sampled; %d dropped for missing values",
		d.RowsConsidered, d.RowsPublished, d.RowsSuppressed, d.RowsUnsampled, d.RowsSampled, d.RowsConsidered, dropped)
	return nil
}

// figureClaims: the figures the details state, and the limits the worst
// cases are held against.
func figureClaims(c *release, r *verify.Report) error {
	f, err := c.confidencesOf()
	if err != nil {
		return err
	}
	r.Claim("details.worst_margin", c.det.WorstMargin, f.worstMargin)
	r.Claim("details.max_distortion_published", c.det.MaxDistortionSeen, f.maxDist)
	r.Claim("details.avg_distortion", c.det.AvgDistortion, f.avgDist)
	limits := map[string]string{figMargin: ">= 0", figDistortion: format.ParamMaxDistortion.Text(c.m.Parameters)}
	for _, w := range c.m.WorstCases {
		if want, ok := limits[w.Name]; ok {
			r.ClaimText("worst_cases."+w.Name+".limit", w.Limit, want)
		}
	}
	return nil
}

// claims holds the manifest's counts, worst cases and utility to the
// files (verify.Report.Compare).
func claims(c *release, r *verify.Report) error {
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	f, _ := c.confidencesOf()
	rc := verify.Recomputed{Groups: len(g.size), Published: c.t.Rows, Tables: map[string]*model.Table{file: c.t},
		Figures: map[string]float64{figMargin: f.worstMargin, figDistortion: f.maxDist, "average distortion": f.avgDist},
		Holds:   map[string]bool{figMargin: f.violating == 0, figDistortion: f.over == 0}}
	r.Compare(c.rel, rc, c.opt)
	return nil
}

func param(m *releasedir.Manifest, name string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(m.Parameters[name]), 64)
	return v, err == nil && !math.IsNaN(v)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// minGeneralization resolves the rule: auto (1 level for QIs whose values
// are numbers, 0 otherwise), none, or ATTR=L,...
func minGeneralization(s string, qis []string, trees []*tree) (map[string]int, error) {
	out := map[string]int{}
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "auto", "":
		for i, q := range qis {
			out[q] = 0
			if trees[i].numeric {
				out[q] = 1
			}
		}
		return out, nil
	case "none":
		for _, q := range qis {
			out[q] = 0
		}
		return out, nil
	}
	for _, q := range qis {
		out[q] = 0
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		l, err := strconv.Atoi(strings.TrimSpace(v))
		k = strings.TrimSpace(k)
		if _, known := out[k]; !ok || err != nil || l < 0 || !known {
			return nil, fmt.Errorf("%q is not QI=L", part)
		}
		out[k] = l
	}
	return out, nil
}

// levelsText renders levels per attribute in QI order ("age 1, sex 0"),
// then any attribute that is not a QI, by name.
func levelsText(qis []string, levels map[string]int) string {
	if levels == nil {
		return "none"
	}
	var parts []string
	seen := map[string]bool{}
	for _, q := range qis {
		if l, ok := levels[q]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", q, l))
			seen[q] = true
		}
	}
	var rest []string
	for k := range levels {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s %d", k, levels[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func sameLevels(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
