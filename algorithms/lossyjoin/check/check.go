// Package check is the independent checker of lossyjoin releases (Wong,
// Liu, Yin, Huang, Fu, Pei, (alpha,k)-anonymity by lossy join). From
// nss.csv and ss.csv (variants lossy and anatomy) or generalized.csv and
// domains.csv (variant alpha) it recomputes every class's size and largest
// sensitive share and holds them to k and alpha (generalized
// (alpha,k)-anonymity, Definition 1), recomputes every figure the manifest
// states, and with the original table proves the release faithful: the
// published QI and SA multisets are the original's, every class's
// sensitive values are those of its records, and row order links neither
// file to the input nor NSS to SS. The audit record pins every row to its
// record; without it the classes are held to the original by maximum
// flows (assignable) and the row order by a test against independent
// shuffles (positionLink). It imports model, algorithms/verify,
// algorithms/risk and the release's format package only, never the
// method.
//
// The checker is the list of lines it can print, one list per kind of
// release (joinChecks, generalizedChecks): one small function per line
// name, each reading the facts of the release (its classes, the
// original's records placed in them) that are computed once.
package check

import (
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"

	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// The files and columns of a release.
const (
	fileNSS = format.FileNSS
	fileSS  = format.FileSS
	fileGen = format.FileGeneralized
	fileDom = format.FileDomains
	classID = format.ClassID
)

// Names of the figures the manifest states.
const (
	figSmallest = "smallest class"
	figFraction = "largest SA fraction in a class"
	figJoin     = "lossy join rows per record"
	// figOldNCP is the name releases written before issue 35.7 gave
	// figure.NCP: their claim is still checked under it.
	figOldNCP = "NCP"
)

// joinChecks are the lines a check of nss.csv and ss.csv (variants lossy
// and anatomy) prints, in order.
var joinChecks = []verify.Check[ctx]{
	{Name: "parameters", Run: parameters},
	{Name: "variant", Gate: true, Run: variant},
	{Name: "columns", Gate: true, Run: joinColumns},
	{Name: "one record per row", Run: oneRecordPerRow},
	{Name: "classes", Run: classesLine},
	{Name: "k-anonymity", Run: kAnonymity},
	{Name: "alpha", Run: alphaLine},
	{Name: "l-diversity", Run: lDiversity},
	{Name: "remark", Run: remark},
	{Name: "class claims", Run: classClaims},
	{Name: "join rows", Run: joinRows},
	{Name: "row pairing", Run: rowPairing},
	{Name: "tuples", Needs: verify.NeedOriginal, Run: joinTuples},
	{Name: "sensitive values", Needs: verify.NeedOriginal, Run: joinSensitiveValues},
	{Name: "audit", Needs: verify.NeedOriginal | verify.NeedAudit, Run: nssAudit},
	{Name: "classes faithful", Needs: verify.NeedOriginal, Run: classesFaithful},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: nssShuffled},
	{Name: "audit", Needs: verify.NeedOriginal | verify.NeedAudit, Run: ssAudit},
	{Name: "shuffled", Needs: verify.NeedOriginal | verify.NeedAudit, Run: ssShuffled},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: ssOrder},
	{Name: "position link", Needs: verify.NeedOriginal, Run: positionLinkLine},
	{Name: "claims", Run: joinClaims},
}

// generalizedChecks are the lines a check of generalized.csv and
// domains.csv (variant alpha) prints, in order.
var generalizedChecks = []verify.Check[ctx]{
	{Name: "parameters", Run: parameters},
	{Name: "variant", Gate: true, Run: variant},
	{Name: "columns", Gate: true, Run: generalizedColumns},
	{Name: "domains", Gate: true, Run: domainsLine},
	{Name: "labels", Run: labels},
	{Name: "classes", Run: classesLine},
	{Name: "k-anonymity", Run: kAnonymity},
	{Name: "alpha", Run: alphaLine},
	{Name: "class claims", Run: classClaims},
	{Name: "domain entries", Run: domainEntries},
	{Name: "sensitive values", Needs: verify.NeedOriginal, Run: generalizedSensitiveValues},
	{Name: "records", Needs: verify.NeedOriginal, Run: records},
	{Name: "generalization", Needs: verify.NeedOriginal, Run: generalization},
	{Name: "claims", Run: generalizedClaims},
}

// ctx is a lossyjoin release as its checks read it: the parameters, the
// details and the files (read by the gates, before the checks that use
// them start), and the facts several checks share, computed once.
type ctx struct {
	rel   *verify.Release
	m     *releasedir.Manifest
	opt   verify.Options
	k     int
	alpha model.Bound
	det   format.Details
	// The files of the variant: nss.csv and ss.csv, or generalized.csv
	// and domains.csv with its domains.
	nss, ss, gen, dom *model.Table
	doms              map[string]*domain

	classes  verify.Fact[*joined]
	genCl    verify.Fact[*generalized]
	joinOrig verify.Fact[*joinOriginal]
	genOrig  verify.Fact[*genOriginal]
}

// Check verifies a lossyjoin release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	c := &ctx{rel: rel, m: rel.Manifest, opt: opt}
	checks := joinChecks
	if c.m.Variant == "alpha" {
		checks = generalizedChecks
	}
	return verify.RunChecks(c, opt, checks, r)
}

// parameters reads k and alpha, the parameters that bound the data: a
// value out of range fails (and the checks go on with the weakest bound,
// k = 2 and alpha = 1, so the other lines still say what holds); the
// worst cases are held against them.
func parameters(c *ctx, r *verify.Report) error {
	m := c.m
	k, err := strconv.Atoi(strings.TrimSpace(format.ParamK.Text(m.Parameters)))
	kok := err == nil && k >= 2
	alpha, aok := model.ParseBound(format.ParamAlpha.Text(m.Parameters))
	aok = aok && alpha.Rat().Sign() > 0 && alpha.Rat().Cmp(big.NewRat(1, 1)) <= 0
	r.Add(kok && aok, "parameters", "k = %q (an integer >= 2) and alpha = %q (in (0,1])", format.ParamK.Text(m.Parameters), format.ParamAlpha.Text(m.Parameters))
	if !kok {
		k = 2
	}
	if !aok {
		alpha, _ = model.ParseBound("1")
	}
	for _, f := range m.WorstCases {
		switch f.Name {
		case figSmallest:
			r.Add(f.Limit == format.ParamK.Text(m.Parameters), "claim "+f.Name+" limit", "held against %q, k is %q", f.Limit, format.ParamK.Text(m.Parameters))
		case figFraction:
			r.Add(f.Limit == format.ParamAlpha.Text(m.Parameters), "claim "+f.Name+" limit", "held against %q, alpha is %q", f.Limit, format.ParamAlpha.Text(m.Parameters))
		}
	}
	c.k, c.alpha = k, alpha
	return nil
}

// variant reads the details strictly (a field the method does not write
// is a failure, not ignored) and the variant, one of lossyjoin's.
func variant(c *ctx, r *verify.Report) error {
	man := filepath.Join(c.rel.Dir, "manifest.json")
	var err error
	if c.det, err = format.Read(c.m); err != nil {
		return &model.InputError{File: man, Msg: err.Error()}
	}
	switch c.m.Variant {
	case "lossy", "anatomy", "alpha":
		return nil
	}
	return &model.InputError{File: man, Msg: fmt.Sprintf("unknown variant %q of lossyjoin", c.m.Variant), Hint: "variants: lossy, alpha, anatomy"}
}
