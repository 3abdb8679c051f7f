package check

import (
	"math"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
)

// Expose is what a distribution release shows an attacker beyond its
// view (risk.Exposure): the quasi-identifiers are published unchanged, so
// a person is placed by their exact values; the method claims no
// anonymity and no presence bound, and bounds the belief in a sensitive
// value by the effective target P' itself (Koudas et al., Definition 3.2:
// every tuple's value appears to follow P').
func Expose(rel *verify.Release, v *risk.View) (*risk.Exposure, error) {
	e := &risk.Exposure{
		Unit:        "QI tuple",
		KBy:         "distribution-based anonymization publishes the quasi-identifiers unchanged and claims no anonymity (Koudas et al., Section 3)",
		PosteriorBy: "the effective target P' (Koudas et al., Definition 3.2: a tuple's value appears to follow it)",
		// The bound is the region's own belief (P' of its group).
		PosteriorPerBelief: true,
		PosteriorVacuous:   "P' is what the release itself publishes of each tuple's value, so no release exceeds it: Definition 3.2 is checked by privlab check, and the attacker is measured against the prior instead",
		Presence:           math.NaN(),
		PresenceBy:         "distribution-based anonymization does not hide who is in the data",
	}
	for _, cells := range v.Cells {
		e.Cover = append(e.Cover, risk.ExactCover(cells))
	}
	e.Posterior = func(region, value int) float64 {
		b := v.Regions[region].Belief
		if b < 0 {
			return math.NaN()
		}
		return v.Beliefs[b].At(value)
	}
	return e, nil
}
