package check

import (
	"math"
	"slices"

	"privlab/algorithms/figure"
	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// The worst cases a release states, held against k: each box holds k JT
// tuples, so the breach probability is at most 1/k (Theorem 2), and none
// lacks a microdata tuple (Section 4).
const (
	figSmallest = "smallest box (JT tuples)"
	figBreach   = "largest breach probability"
	figNoMT     = "boxes without a microdata tuple"
)

// detailClaims holds the counts the details state to the files, and the
// join columns to the dropped ones (identifiers); one line sums them up.
func detailClaims(c *release, r *verify.Report) error {
	b, err := c.boxesOf()
	if err != nil {
		return err
	}
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	det, n := c.det, 6
	r.Claim("details.boxes", float64(det.Boxes), float64(len(b.list)))
	r.Claim("details.sensitive_groups", float64(det.SensitiveGroups), float64(len(b.sgIDs)))
	r.Claim("details.jt_rows", float64(det.JTRows), float64(c.jat.Rows))
	r.Claim("details.public_rows", float64(det.PublicRows), float64(c.jat.Rows-c.si.Rows))
	r.Claim("details.smallest_box", float64(det.SmallestBox), float64(b.minSize))
	r.Claim("details.smallest_sensitive_group", float64(det.SmallestGroup), float64(g.min))
	if c.method == format.PlainKA {
		r.Claim("details.qi_paired", float64(det.QIPaired), 0) // plain k-anonymity counts no public tuple
		n++
	}
	badJoin := 0
	for _, col := range det.Join {
		if !slices.Contains(c.m.Dropped, col) {
			badJoin++
		}
	}
	r.Add(badJoin == 0 && (c.method != format.PlainKA || len(det.Join) == 0 || det.NCPDomain == format.DomainJT), "join columns",
		"the columns that joined the tables are dropped columns (identifiers); plain k-anonymity names them only when a public table set its NCP domain")
	r.Claims(0, n, nil)
	return nil
}

// unproven names k and the breach probability as unconfirmed when the
// inputs given cannot show that a box's rows are k distinct people: rows
// repeated or moved between boxes read the same in the files, so the
// guarantee is not confirmed (privlab check exits 3), whatever else
// passes. Under plain k-anonymity the original recounts every row (each
// is a microdata tuple placed once), or the audit record beside the
// release binds the files to its producer's, who counted them; a KJA
// release's public rows are recounted against JT only with both the
// original and the public table.
func unproven(c *release, r *verify.Report) error {
	k := format.ParamK.Text(c.m.Parameters)
	if c.method == format.PlainKA {
		if c.opt.Original != nil || auditBinds(c) {
			return nil
		}
		r.Unprove("k-join-anonymity", "the %d rows of jat.csv were not recounted against the original: that every box holds k = %s distinct people "+
			"(rows repeated read the same), and so a breach probability of at most 1/%s (Theorem 2), is unconfirmed without the original "+
			"(or the audit record beside the release)", c.jat.Rows, k, k)
		return nil
	}
	if c.jat.Rows <= c.si.Rows || c.opt.Original != nil && c.opt.Public != nil {
		return nil
	}
	r.Unprove("k-join-anonymity", "the %d public rows of jat.csv were not recounted against the join table: that every box holds k = %s distinct people, "+
		"and so a breach probability of at most 1/%s (Theorem 2), is unconfirmed without the original and the public table", c.jat.Rows-c.si.Rows, k, k)
	return nil
}

// auditBinds reports whether the audit record beside the release holds
// this manifest's digest (releasedir.ManifestDigest): the manifest, and the
// files it hashes, are then its producer's.
func auditBinds(c *release) bool {
	a := c.opt.Audit
	if a == nil || a.ManifestDigest == "" {
		return false
	}
	sum, err := releasedir.ManifestDigest(c.m)
	return err == nil && sum == a.ManifestDigest
}

// claims holds the manifest's counts, worst cases and utility to the
// files (verify.Report.Compare). A box's microdata count is its sensitive
// group's only under plain k-anonymity (a group is one box of microdata
// tuples); under Direct and Refinement a group spans boxes, and only the
// original says how its tuples spread over them.
func claims(c *release, r *verify.Report) error {
	b, err := c.boxesOf()
	if err != nil {
		return err
	}
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	axes, _ := c.axesOf()
	k := format.ParamK.Text(c.m.Parameters)
	rc := verify.Recomputed{Groups: len(b.list), Published: c.si.Rows,
		Tables:  map[string]*model.Table{format.FileJAT: c.jat, format.FileSI: c.si},
		Figures: map[string]float64{figSmallest: float64(b.minSize), figBreach: 1 / math.Max(1, float64(b.minSize))},
		Holds:   map[string]bool{figSmallest: b.kOK, figBreach: b.kOK},
		Later:   map[string]bool{},
		Limits:  map[string]string{figSmallest: k, figBreach: "1/" + k, figNoMT: "0"},
	}
	p := c.placed()
	if p != nil && p.done && !p.chosen {
		figures(rc, b.list, axes, p.mtCount) // the original placed every microdata tuple
	} else if c.method == format.PlainKA {
		mt := make([]int, len(b.list))
		for i, bx := range b.list {
			mt[i] = g.n[bx.sg]
		}
		figures(rc, b.list, axes, mt)
	} else {
		// Without the original, or with it when the files do not say
		// which box holds a tuple inside several (a matching chose one).
		rc.Undetermined = map[string]bool{}
		for _, name := range []string{figNoMT, figure.NCP.Name, figure.NCPSum.Name, figOldNCPSum, figOldNCP, "DM"} {
			rc.Later[name], rc.Undetermined[name] = true, p != nil && !p.byAudit && p.ambiguous > 0
		}
	}
	r.Compare(c.rel, rc, c.opt)
	return nil
}

// figures recomputes the worst case and utility figures that need the
// microdata count of every box (Sacharidis et al., Sections 2.1 and 3.3):
// NCP (sum) adds every MT tuple's normalised box perimeter, NCP (mean)
// divides it by the tuples and QIs, DM sums the MT tuples of each box.
func figures(rc verify.Recomputed, boxes []*box, axes []*axis, mt []int) {
	noMT, total := 0, 0
	ncp, dm := 0.0, 0.0
	for i, bx := range boxes {
		if mt[i] == 0 {
			noMT++
		}
		per := 0.0
		for a, ax := range axes {
			if ax.extent > 0 {
				per += (bx.hi[a] - bx.lo[a]) / ax.extent
			}
		}
		ncp += float64(mt[i]) * per
		dm += float64(mt[i]) * float64(mt[i])
		total += mt[i]
	}
	gcp := 0.0
	if total > 0 && len(axes) > 0 {
		gcp = ncp / float64(total*len(axes))
	}
	rc.Figures[figNoMT] = float64(noMT)
	rc.Holds[figNoMT] = noMT == 0
	rc.Figures[figure.NCPSum.Name], rc.Figures[figure.NCP.Name], rc.Figures["DM"] = ncp, gcp, dm
	rc.Figures[figOldNCPSum], rc.Figures[figOldNCP] = ncp, gcp
}

// The names releases written before issue 35.7 gave the paper's sum and
// the mean: their claims are still checked under them.
const (
	figOldNCPSum = "NCP"
	figOldNCP    = "NCP per record and QI"
)
