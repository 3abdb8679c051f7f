// Package check is the independent checker of distribution releases
// (Koudas et al. 2009): it reads qi.csv, sa.csv and hierarchy.csv and
// re-checks Definition 3.2 per group, the fake budget and, with the
// original, Definition 3.1. It imports model, algorithms/verify,
// algorithms/risk and the release's format package only, never the
// method, so a bug in the method cannot hide itself here.
//
// The checker is the list of lines it can print (checks): one small
// function per line name, each reading the facts of the release (its
// groups, posteriors, the original's tuples) that are computed once.
package check

import (
	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// checks are the lines a distribution check prints, in order.
var checks = []verify.Check[release]{
	{Name: "columns", Run: qiColumns},
	{Name: "sa columns", Run: saColumns},
	{Name: "sa domain", Run: saDomain},
	{Name: "hierarchy", Run: hierarchyLine},
	{Name: "subdomains", Run: subdomainsKnown},
	{Name: "P'-privacy", Run: posteriorPrivacy},
	{Name: "disclosure", Run: disclosure},
	{Name: "tuples covered", Run: tuplesCovered},
	{Name: "fake budget", Run: fakeBudget},
	{Name: "row pairing", Run: rowPairing},
	{Name: "tuples", Needs: verify.NeedOriginal, Run: sameTuples},
	{Name: "pinning", Needs: verify.NeedOriginal, Run: pinning},
	{Name: "support", Needs: verify.NeedOriginal, Run: support},
	{Name: "generalization", Needs: verify.NeedOriginal, Run: generalization},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: shuffled},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: saOrder},
	{Name: "claims", Run: claims},
	{Name: "parameters", Run: detailParameters},
	{Name: "details", Run: detailCounts},
	{Name: "per-group target", Run: perGroupTarget},
	{Name: "max-denominator", Run: maxDenominator},
	{Name: "effective target", Run: effectiveTarget},
	{Name: "requested target", Run: requestedTarget},
	{Name: "group figures", Run: groupFigures},
	{Name: "grouping", Run: grouping},
}

// release is a distribution release as its checks read it: the files,
// and the facts several checks share, each computed once on first use.
type release struct {
	rel    *verify.Release
	m      *releasedir.Manifest
	opt    verify.Options
	qi, sa *model.Table
	h      *annotated

	groups   verify.Fact[*groups]
	weights  verify.Fact[*weights]
	post     verify.Fact[*posteriors]
	original verify.Fact[*original]
	details  verify.Fact[format.Details]
}

// Check verifies a distribution release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	c, err := open(rel, opt)
	if err != nil {
		return err
	}
	return verify.RunChecks(c, opt, checks, r)
}

// open reads qi.csv, sa.csv (at once) and hierarchy.csv.
func open(rel *verify.Release, opt verify.Options) (*release, error) {
	c := &release{rel: rel, m: rel.Manifest, opt: opt}
	tables, err := rel.Tables(format.FileQI, format.FileSA)
	if err != nil {
		return nil, err
	}
	c.qi, c.sa = tables[0], tables[1]
	if c.h, err = readHierarchy(rel); err != nil {
		return nil, err
	}
	return c, nil
}

// groupsOf are the release's groups (readGroups).
func (c *release) groupsOf() *groups {
	g, _ := c.groups.Get(func() (*groups, error) {
		// Read from the files alone: once for an export's two checks.
		v, err := c.rel.FileFact("distribution/groups", func() (any, error) { return readGroups(c.qi, c.sa, c.h), nil })
		g, _ := v.(*groups)
		return g, err
	})
	return g
}

// weightsOf are the groups' weights (readGroupWeights).
func (c *release) weightsOf() (*weights, error) {
	return c.weights.Get(func() (*weights, error) { return readGroupWeights(c.rel, c.groupsOf(), c.h) })
}

// posteriorsOf are Definition 3.2's figures per group (posteriorsOf).
func (c *release) posteriorsOf() (*posteriors, error) {
	return c.post.Get(func() (*posteriors, error) {
		w, err := c.weightsOf()
		if err != nil {
			return nil, err
		}
		return posteriorsOf(c.groupsOf(), w), nil
	})
}

// detailsOf are the manifest's details, read strictly.
func (c *release) detailsOf() (format.Details, error) {
	return c.details.Get(func() (format.Details, error) { return format.Read(c.m) })
}
