package check

import (
	"fmt"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// variants are k-join-anonymity's variants: the k-anonymity algorithm
// and how it is used (Sacharidis et al., Section 4).
var variants = map[string][2]string{
	"mondrian": {"mondrian", format.PlainKA}, "topdown": {"topdown", format.PlainKA},
	"mondrian-direct": {"mondrian", format.DirectKA}, "topdown-direct": {"topdown", format.DirectKA},
	"mondrian-refine": {"mondrian", format.RefineKA}, "topdown-refine": {"topdown", format.RefineKA},
}

// variant: the variant is one of k-join-anonymity's, and the details
// name its algorithm, methodology and grouping of the sensitive values.
func variant(c *release, r *verify.Report) error {
	vr, known := variants[c.m.Variant]
	r.Add(known, "variant", "variant %q is one of k-join-anonymity's", c.m.Variant)
	if known {
		r.ClaimText("details.k_algorithm", c.det.Algorithm, vr[0])
		r.ClaimText("details.methodology", c.det.Methodology, vr[1])
		r.ClaimText("details.sensitive_grouping", c.det.Grouping, format.Groupings[vr[1]])
	}
	return nil
}

// parameterK: k is an integer of at least 2.
func parameterK(c *release, r *verify.Report) error {
	r.Add(c.kerr == nil && c.k >= 2, "parameter k", "k = %q is an integer >= 2", format.ParamK.Text(c.m.Parameters))
	return nil
}

// parameterSplit: the split rule, when stated, is one the method has.
func parameterSplit(c *release, r *verify.Report) error {
	if s, ok := format.ParamSplit.Lookup(c.m.Parameters); ok && s != "widest" && s != "round-robin" {
		r.Add(false, "parameter split", "split = %q is neither widest nor round-robin", s)
	}
	return nil
}

// ncpDomain: the domain NCP is normalised by is JT's whenever a public
// table was given (every variant), MT's for the plain variants without
// one (Section 2.1).
func ncpDomain(c *release, r *verify.Report) error {
	d := c.det.NCPDomain
	r.Add(d == format.DomainJT || (d == format.DomainMT && c.method == format.PlainKA), "NCP domain",
		"details.ncp_domain = %q: numeric extents span JT (microdata and public tuples), or MT for plain k-anonymity without a public table", d)
	return nil
}

// axis reads one QI of the release.
type axis struct {
	format.DomainEntry
	numeric bool
	pos     map[string]int
	extent  float64
}

// value is a text's position on the axis (false when it is not in the
// domain's vocabulary).
func (a *axis) value(text string) (float64, bool) {
	if a.numeric {
		return model.ParseNumber(text)
	}
	p, ok := a.pos[text]
	return float64(p), ok
}

// axesOf reads details.domain once: one entry per QI, in order, numeric
// with low <= high or categorical with distinct values; and the
// sensitive attribute's kind.
func (c *release) axesOf() ([]*axis, error) {
	return c.axes.Get(func() ([]*axis, error) {
		axes, err := readDomain(c.man, c.m, c.det)
		if err == nil && c.det.SAKind != format.Numeric && c.det.SAKind != format.Categorical {
			err = &model.InputError{File: c.man, Msg: "details.sensitive_kind must be numeric or categorical"}
		}
		return axes, err
	})
}

// readDomain reads details.domain.
func readDomain(man string, m *releasedir.Manifest, det format.Details) ([]*axis, error) {
	if len(det.Domain) != len(m.QIs) {
		return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain describes %d quasi-identifiers, the manifest names %d", len(det.Domain), len(m.QIs))}
	}
	out := make([]*axis, len(m.QIs))
	for i, d := range det.Domain {
		if d.QI != m.QIs[i] {
			return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain[%d] describes %q, not %q", i, d.QI, m.QIs[i])}
		}
		a, err := readAxis(d)
		if err != nil {
			return nil, &model.InputError{File: man, Msg: err.Error()}
		}
		out[i] = a
	}
	return out, nil
}

// readAxis reads one entry of details.domain.
func readAxis(d format.DomainEntry) (*axis, error) {
	a := &axis{DomainEntry: d, numeric: d.Kind == format.Numeric}
	switch {
	case a.numeric:
		if !(d.Low <= d.High) || len(d.Values) > 0 {
			return nil, fmt.Errorf("details.domain of %s: low must not exceed high, and a numeric QI lists no values", d.QI)
		}
		a.extent = d.High - d.Low
	case d.Kind == format.Categorical:
		if len(d.Values) == 0 {
			return nil, fmt.Errorf("details.domain of %s lists no values", d.QI)
		}
		a.pos = map[string]int{}
		for j, v := range d.Values {
			if _, dup := a.pos[v]; dup {
				return nil, fmt.Errorf("details.domain of %s lists %q twice", d.QI, v)
			}
			a.pos[v] = j
		}
		if d.Low != 0 || d.High != float64(len(d.Values)-1) {
			return nil, fmt.Errorf("details.domain of %s: low and high must be the first and last position (0 and %d)", d.QI, len(d.Values)-1)
		}
		a.extent = float64(len(d.Values) - 1)
	default:
		return nil, fmt.Errorf("details.domain of %s: kind must be numeric or categorical", d.QI)
	}
	return a, nil
}
