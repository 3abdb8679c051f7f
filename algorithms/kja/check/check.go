// Package check is the independent checker of k-join-anonymity releases
// (Sacharidis, Mouratidis, Papadias): it reads jat.csv and si.csv and
// re-checks, from the files alone, that every G-box has at least k rows,
// that each box reads the same on all its rows and lies in the stated
// domain, and that every sensitive group holds at least k microdata
// tuples (Section 3.2); with the original table (and the public table) it
// proves the release faithful: every microdata tuple is published once,
// inside its box, every box holds a microdata tuple and is the MBB of its
// members, and si.csv holds exactly the microdata's sensitive values,
// group by group. That a box's rows are k distinct people (Definition 6,
// Theorem 2) needs JT: with both tables the public rows are matched to
// distinct public tuples of JT inside their boxes (recount); without them
// a release with public rows has k unconfirmed (verify.Report.Unproven).
// It imports model, algorithms/verify, algorithms/risk and the release's
// format package only, never the method.
//
// The checker is the list of lines it can print (checks): one small
// function per line name, each reading the facts of the release (its
// boxes, its sensitive groups, the original's tuples placed in the boxes)
// that are computed once.
package check

import (
	"path/filepath"
	"strconv"
	"strings"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// kUnrecounted is the k-join-anonymity line of a KJA variant's release.
const kUnrecounted = "every one of %d boxes has at least k = %s rows in jat.csv (smallest %d); they are k distinct people, " +
	"and the breach probability at most 1/%d (Theorem 2), once the public rows are recounted against JT (the original and the public table)"

// checks are the lines a kja check prints, in order.
var checks = []verify.Check[release]{
	{Name: "columns", Gate: true, Run: columns},
	{Name: "variant", Run: variant},
	{Name: "parameter k", Run: parameterK},
	{Name: "parameter split", Run: parameterSplit},
	{Name: "NCP domain", Run: ncpDomain},
	{Name: "boxes", Run: boxesConsistent},
	{Name: "domain", Run: boxesInDomain},
	{Name: "k-join-anonymity", Run: kJoinAnonymity},
	{Name: "sensitive groups", Run: groupsKnown},
	{Name: "group counts", Run: groupCounts},
	{Name: "group shape", Run: groupShape},
	{Name: "sensitive group size", Run: groupSize},
	{Name: "row pairing", Run: rowPairing},
	{Name: "details", Run: detailClaims},
	{Name: "join", Needs: verify.NeedOriginal, Run: inputsFit},
	{Name: "sensitive values", Needs: verify.NeedOriginal, Run: sensitiveValues},
	{Name: "NCP normaliser", Needs: verify.NeedOriginal, Run: normaliser},
	{Name: "audit", Needs: verify.NeedOriginal, Run: auditFits},
	{Name: "coverage", Needs: verify.NeedOriginal, Run: containedCoverage},
	{Name: "pinning", Needs: verify.NeedOriginal, Run: containedPinning},
	{Name: "tuples", Needs: verify.NeedOriginal, Run: tuples},
	{Name: "coverage", Needs: verify.NeedOriginal, Run: pinnedCoverage},
	{Name: "inside", Needs: verify.NeedOriginal, Run: inside},
	{Name: "MBB", Needs: verify.NeedOriginal, Run: mbb},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: jatShuffled},
	{Name: "people", Needs: verify.NeedOriginal | verify.NeedPublic, Run: people},
	{Name: "microdata per box", Needs: verify.NeedOriginal, Run: microdataPerBox},
	{Name: "sensitive groups", Needs: verify.NeedOriginal, Run: groupValues},
	{Name: "si rows", Needs: verify.NeedOriginal | verify.NeedAudit, Run: siRows},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: siOrder},
	{Name: "k-join-anonymity", Run: unproven},
	{Name: "claims", Run: claims},
}

// release is a kja release as its checks read it: the files, the
// details, and the facts several checks share, each computed once.
type release struct {
	rel     *verify.Release
	m       *releasedir.Manifest
	opt     verify.Options
	man     string // manifest.json's path
	det     format.Details
	jat, si *model.Table
	// method is the variant's methodology ("" for an unknown variant), k
	// the parameter as read.
	method string
	k      int
	kerr   error

	axes    verify.Fact[[]*axis]
	boxes   verify.Fact[*boxes]
	groups  verify.Fact[*sgroups]
	inputs  verify.Fact[*inputs]
	placing verify.Fact[*placement]
}

// Check verifies a kja release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	c, err := open(rel, opt)
	if err != nil {
		return err
	}
	if opt.Original != nil {
		// The original's tuples are placed while the files' facts are
		// read (they are apart until the placement joins them); a
		// failure is the fact's, met again by the checks that read it.
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer func() { _ = recover() }()
			_, _ = c.inputsOf()
		}()
		defer func() { <-done }()
	}
	return verify.RunChecks(c, opt, checks, r)
}

// open reads jat.csv and si.csv (at once) and the details.
func open(rel *verify.Release, opt verify.Options) (*release, error) {
	c := &release{rel: rel, m: rel.Manifest, opt: opt, man: filepath.Join(rel.Dir, "manifest.json")}
	tables, err := rel.Tables(format.FileJAT, format.FileSI)
	if err != nil {
		return nil, err
	}
	c.jat, c.si = tables[0], tables[1]
	if c.det, err = format.Read(c.m); err != nil {
		return nil, &model.InputError{File: c.man, Msg: err.Error()}
	}
	c.method = variants[c.m.Variant][1]
	c.k, c.kerr = strconv.Atoi(strings.TrimSpace(format.ParamK.Text(c.m.Parameters)))
	return c, nil
}

// columns binds the manifest's names to the files' headers: jat.csv
// holds GroupID, SG and a range per quasi-identifier, si.csv SG and the
// sensitive attribute. Nothing more is read when they do not.
func columns(c *release, r *verify.Report) error {
	if !r.BindNames(format.FileJAT, c.jat, format.JATHeader(c.m.QIs)) || !r.BindNames(format.FileSI, c.si, format.SIHeader(c.m.SA)) || c.m.SA == "" {
		return verify.ErrStop
	}
	r.Add(true, "columns", "jat.csv holds GroupID, SG and a range per quasi-identifier; si.csv holds SG and %s only", c.m.SA)
	return nil
}
