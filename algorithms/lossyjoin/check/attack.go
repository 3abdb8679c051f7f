package check

import (
	"fmt"
	"math"
	"strconv"

	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
)

// Expose is what a lossyjoin release shows an attacker beyond its view
// (risk.Exposure). Variants lossy and anatomy publish the quasi-
// identifiers exactly (nss.csv), so a person is placed by their exact
// values and the class's k bounds the sensitive rows they hide among, not
// the nss.csv row, which is theirs; variant alpha publishes one
// k-anonymous generalized table, so a person is placed in every class
// whose labels (domains.csv) cover their values and is hidden among at
// least k. Every variant bounds the belief in a sensitive value by alpha
// (Wong et al., Definition 1).
func Expose(rel *verify.Release, v *risk.View) (*risk.Exposure, error) {
	m := rel.Manifest
	alpha, err := strconv.ParseFloat(format.ParamAlpha.Text(m.Parameters), 64)
	if err != nil {
		alpha = math.NaN()
	}
	e := &risk.Exposure{
		Unit:               "QI tuple",
		KBy:                "the quasi-identifiers are published exactly in nss.csv: the class's k hides a person's sensitive row, not their nss.csv row (Wong et al., Section 5)",
		Posterior:          func(int, int) float64 { return alpha },
		PosteriorBy:        fmt.Sprintf("alpha = %s ((alpha,k)-anonymity, Wong et al., Definition 1)", format.ParamAlpha.Text(m.Parameters)),
		PosteriorPerBelief: true, // one bound for every region
		Presence:           math.NaN(),
		PresenceBy:         "(alpha,k)-anonymity does not hide who is in the data",
	}
	if !rel.Has(fileGen) {
		for _, cells := range v.Cells {
			e.Cover = append(e.Cover, risk.ExactCover(cells))
		}
		return e, nil
	}
	dom, err := rel.Table(fileDom)
	if err != nil {
		return nil, err
	}
	labels := map[string]map[string][]string{}
	for row := 0; row < dom.Rows; row++ {
		attr, label := dom.Columns[0].Value(row), dom.Columns[1].Value(row)
		if labels[attr] == nil {
			labels[attr] = map[string][]string{}
		}
		labels[attr][label] = append(labels[attr][label], dom.Columns[2].Value(row))
	}
	for i, cells := range v.Cells {
		values := map[uint32][]string{}
		for c, s := range cells {
			if vals, ok := labels[m.QIs[i]][s]; ok {
				values[uint32(c)] = vals
			}
		}
		e.Cover = append(e.Cover, risk.SetCover(cells, values))
	}
	if k, err := strconv.Atoi(format.ParamK.Text(m.Parameters)); err == nil {
		e.Unit, e.K = "class", k
		e.KBy = fmt.Sprintf("k = %d: every class of the generalized table holds at least k records (Wong et al., Definition 1)", k)
	}
	return e, nil
}
