package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
)

// qiColumns: qi.csv publishes the group and the quasi-identifiers, and
// nothing else (Koudas et al. 2009, Section 2, footnote 1).
func qiColumns(c *release, r *verify.Report) error {
	r.Add(verify.CheckHeader(c.qi, format.QIHeader(c.m.QIs)), "columns", "qi.csv holds GroupID and the %d quasi-identifiers only (no identifier, no sensitive value)", len(c.m.QIs))
	return nil
}

// saColumns: sa.csv publishes each group's subdomains only.
func saColumns(c *release, r *verify.Report) error {
	r.Add(verify.CheckHeader(c.sa, format.SAHeader), "sa columns", "sa.csv holds GroupID, Low, High only")
	return nil
}

// saDomain: sa_domain.csv names the sensitive attribute in its header
// (the manifest's name is bound to it) and lists hierarchy.csv's leaves
// in order.
func saDomain(c *release, r *verify.Report) error {
	dom, err := c.rel.Table(format.FileDomain)
	if err != nil {
		return err
	}
	if !r.BindNames(format.FileDomain, dom, []string{c.m.SA}) {
		return nil
	}
	h := c.h
	bad := dom.Rows != len(h.leaves)
	for i := 0; !bad && i < dom.Rows; i++ {
		bad = dom.Columns[0].Value(i) != h.low[h.leaves[i]]
	}
	r.Add(!bad, "sa domain", "%s lists the %d values of %s, hierarchy.csv's leaves in order", format.FileDomain, dom.Rows, c.m.SA)
	return nil
}

// hierarchyLine: hierarchy.csv read as a tree whose children tile their
// parent (readHierarchy fails the release otherwise).
func hierarchyLine(c *release, r *verify.Report) error {
	r.Add(true, "hierarchy", "%d nodes over %d values; children tile their parent", len(c.h.parent), len(c.h.leaves))
	return nil
}

// subdomainsKnown: every subdomain belongs to a published group and is a
// node of the hierarchy.
func subdomainsKnown(c *release, r *verify.Report) error {
	g := c.groupsOf()
	r.Add(g.unknownGroup == 0 && g.unknownNode == 0, "subdomains", "every sa.csv row names a group of qi.csv and a node of hierarchy.csv (%d unknown groups, %d unknown subdomains)",
		g.unknownGroup, g.unknownNode)
	return nil
}

// posteriorPrivacy is Definition 3.2: in every group, every value's
// posterior (the mean of P'(t | D_i) over the group's subdomains) equals
// the group's target.
func posteriorPrivacy(c *release, r *verify.Report) error {
	p, err := c.posteriorsOf()
	if err != nil {
		return err
	}
	if p.worst <= 1e-9 {
		r.Add(true, "P'-privacy", "in all %d groups every value's posterior equals the effective target (Definition 3.2; max deviation %.2g)", len(p.post), p.worst)
	} else {
		r.Add(false, "P'-privacy", "group %s: posterior deviates from the target by %.4g (Definition 3.2)", p.worstGroup, p.worst)
	}
	return nil
}

// disclosure: a target that gives one value probability 1 discloses
// every value of its group, however private the generalization.
func disclosure(c *release, r *verify.Report) error {
	p, err := c.posteriorsOf()
	if err != nil {
		return err
	}
	r.Add(p.certain == 0, "disclosure", "no group's target gives one value probability 1 (%d groups do)", p.certain)
	return nil
}

// rowPairing: row order does not pair qi.csv with sa.csv, read from the
// files alone: Koudas et al. 2009, Section 2, permute a group's
// generalized values "to break the association between a tuple and a
// particular sensitive attribute value"; an sa.csv written in qi.csv's
// row order gives each tuple its own subdomain, whose posterior is not
// the target (Definition 3.2). Independent shuffles do not write one.
func rowPairing(c *release, r *verify.Report) error {
	verify.RowPairing(format.FileQI, c.qi, 0, format.FileSA, c.sa, 0, r)
	return nil
}

// tuplesCovered: each group has at least one subdomain per tuple (the
// extra ones are fake values).
func tuplesCovered(c *release, r *verify.Report) error {
	g := c.groupsOf()
	short := 0
	for gi := range g.sizes {
		if g.nsub[gi] < g.sizes[gi] {
			short++
		}
	}
	r.Add(short == 0, "tuples covered", "every group has at least one subdomain per published tuple (%d groups short)", short)
	return nil
}

// fakeBudget: every group's fake values fit the budget (Koudas et al.
// 2009, Sections 5 and 6.2).
func fakeBudget(c *release, r *verify.Report) error {
	g := c.groupsOf()
	stated := orDefault(format.ParamFakes.Of(c.m.Parameters), "0")
	budget, berr := parseFakes(stated)
	over, fakes := 0, 0
	for gi := range g.sizes {
		f := g.nsub[gi] - g.sizes[gi]
		if f < 0 {
			continue
		}
		fakes += f
		if berr == nil && f > budget(g.sizes[gi]) {
			over++
		}
	}
	r.Add(over == 0 && berr == nil, "fake budget", "%d fake values in all, every group within the budget %s (%d groups over)", fakes, stated, over)
	return nil
}

// parseFakes reads the fake budget "N" or "P%" (Koudas et al. 2009,
// Sections 5 and 6.2) and returns the budget of a group of n tuples.
func parseFakes(s string) (func(n int) int, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !(x >= 0) || x > 1000 {
			return nil, fmt.Errorf("bad percentage %q", s)
		}
		return func(n int) int { return int(math.Floor(x*float64(n)/100 + 1e-9)) }, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad count %q", s)
	}
	return func(int) int { return n }, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
