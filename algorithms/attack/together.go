package attack

import (
	"fmt"
	"math"
	"strings"

	"privlab/algorithms/risk"
	"privlab/model"
)

// Opened is one release read for attacks: its view and exposure, and the
// name the findings give it (its directory).
type Opened struct {
	Name     string
	View     *risk.View
	Exposure *risk.Exposure
}

// TogetherSuffix ends the name of an attack run on several releases at once.
const TogetherSuffix = ", releases together"

// Together attacks several releases of one original at once (SPEC 3.7),
// the composition attack of Ganta, Kasiviswanathan and Smith (KDD 2008,
// Section 3): each person is placed among every release's regions, and
// what the releases tell of them is intersected. alone are the releases'
// own reports (in the order of rels): they give the bounds, a combined
// bound being the tightest of the releases' when every one claims one.
//
// The model: the releases were drawn independently given the original,
// so the attacker's belief about a person's sensitive value is the
// product of the releases' posteriors (each the mix of the person's
// candidate regions' beliefs, weighted by records, as for one release)
// divided by the prior (the original's marginal) to the power n-1: a
// value is possible only where every release allows it. A release that
// places a person in no region with records tells nothing of them (its
// posterior is the prior). Re-identification counts, for each choice of
// one candidate region per release, the people consistent with all of
// them; membership takes each person's largest presence over the releases.
func Together(rels []Opened, alone []*Report, k *risk.Knowledge) ([]risk.Finding, error) {
	if len(rels) < 2 || len(alone) != len(rels) {
		return nil, fmt.Errorf("attack together: %d releases, %d reports", len(rels), len(alone))
	}
	if k == nil {
		k = &risk.Knowledge{}
	}
	v0, e0 := rels[0].View, rels[0].Exposure
	pop, popName, err := population(k, v0, e0)
	if err != nil {
		return nil, err
	}
	var popAt, origAt []*placed
	if pop != nil {
		what := "population"
		if k.Population == nil {
			what = "original" // (and the public table's people beyond it)
		}
		if popAt, err = placeAll(pop, what, rels); err != nil {
			return nil, err
		}
		for _, p := range popAt {
			if k.Population == nil && pop != k.Original {
				p.rowsOf = "the original, then the public table's people it lacks"
			}
		}
	}
	if k.Original != nil {
		if k.Original == pop {
			origAt = popAt
		} else if origAt, err = placeAll(k.Original, "original", rels); err != nil {
			return nil, err
		}
	}
	out := []risk.Finding{linkageTogether(rels, alone, popAt, popName, k)}
	if v0.SA != "" {
		out = append(out, inferenceTogether(rels, alone, origAt, k))
	}
	return append(out, membershipTogether(rels, alone, popAt, popName, k)), nil
}

// placeAll places t among every release's regions. The releases share
// their QIs, so t's tuples are numbered alike in each.
func placeAll(t *model.Table, what string, rels []Opened) ([]*placed, error) {
	out := make([]*placed, len(rels))
	for i, r := range rels {
		p, err := place(t, what, r.View, r.Exposure)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// tightestBound is the smallest bound the releases' findings of attack
// claim, and what claims it; NaN (and why) when one claims none: a bound
// of two releases together is one every release promises.
func tightestBound(rels []Opened, alone []*Report, attack string) (float64, string) {
	bound, by := math.NaN(), ""
	for i, rep := range alone {
		f, ok := findingOf(rep, attack)
		if !ok || f.NotRun != "" || math.IsNaN(f.Bound) || f.Vacuous != "" || f.Bound >= 1-1e-12 {
			return math.NaN(), rels[i].Name + " claims no bound for it"
		}
		if math.IsNaN(bound) || f.Bound < bound {
			bound, by = f.Bound, fmt.Sprintf("the tightest of the releases' bounds: %s's %s", rels[i].Name, f.BoundBy)
		}
	}
	return bound, by
}

// findingOf is the report's finding of attack.
func findingOf(rep *Report, attack string) (risk.Finding, bool) {
	for _, f := range rep.Findings {
		if f.Attack == attack {
			return f, true
		}
	}
	return risk.Finding{}, false
}

// aloneRecords lists the releases' own counts of attack ("13, 9").
func aloneRecords(alone []*Report, attack string) string {
	parts := make([]string, len(alone))
	for i, rep := range alone {
		parts[i] = "-"
		if f, ok := findingOf(rep, attack); ok && f.NotRun == "" {
			parts[i] = fmt.Sprint(f.Records)
		}
	}
	return strings.Join(parts, ", ")
}

// together names a finding of attack run on several releases.
func together(attack string) string { return attack + TogetherSuffix }
