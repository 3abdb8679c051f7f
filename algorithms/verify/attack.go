package verify

import "privlab/algorithms/risk"

// Exposer reads what one method's release shows the attacks of
// algorithms/attack beyond its view (risk.Exposure): how a person's raw
// quasi-identifiers place them among the view's regions, and the bounds
// the method promises. It lives in the method's check package beside its
// Viewer and is given the view the Viewer built from the same release.
type Exposer func(rel *Release, v *risk.View) (*risk.Exposure, error)

// Attacker runs the attacks only one method's paper defines (sampling's
// Eq. 3 under other public marginals) on its release, with what the
// attacker holds; algorithms/attack runs it beside the generic attacks.
type Attacker func(rel *Release, v *risk.View, k *risk.Knowledge) ([]risk.Finding, error)
