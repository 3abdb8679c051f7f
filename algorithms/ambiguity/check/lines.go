package check

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// groupFigures are every group's presence |G| / prod_i |G_ATi| (Theorem
// 5.1), association c / |G| (Theorem 5.2), join size and distinct
// sensitive values, the worst groups, and whether the bounds hold,
// exactly on the counts.
type groupFigures struct {
	pres, assoc, join, distinct []float64
	worstP, worstA              int
	holdsP, holdsA              bool
	badDiv, g, published        int
}

// figuresOf computes them once.
func (c *ctx) figuresOf() *groupFigures {
	f, _ := c.figures.Get(func() (*groupFigures, error) { return figuresOf(c.rl, c.alpha, c.beta), nil })
	return f
}

func figuresOf(rl *release, alpha, beta model.Bound) *groupFigures {
	f := &groupFigures{pres: make([]float64, rl.groups), assoc: make([]float64, rl.groups), join: make([]float64, rl.groups),
		distinct: make([]float64, rl.groups), worstP: -1, worstA: -1, holdsP: true, holdsA: true, g: ceilInv(beta)}
	for gi := 0; gi < rl.groups; gi++ {
		// Exactly, on the counts: |G| <= alpha x prod_i |G_ATi| and c <=
		// beta x |G|, alpha and beta the decimals the manifest states.
		if j, ok := joinSize(rl, gi); ok {
			f.join[gi] = float64(j) // rounded to nearest even, as big.Float's Float64
			f.holdsP = f.holdsP && alpha.Allows(rl.size[gi], int(j))
		} else {
			j := big.NewInt(1)
			for _, at := range rl.at {
				j.Mul(j, big.NewInt(int64(at.count(gi))))
			}
			f.join[gi], _ = new(big.Float).SetInt(j).Float64()
			f.holdsP = f.holdsP && alpha.AllowsBig(big.NewInt(int64(rl.size[gi])), j)
		}
		f.pres[gi] = float64(rl.size[gi]) / f.join[gi]
		f.assoc[gi] = float64(rl.maxF[gi]) / float64(rl.size[gi])
		f.holdsA = f.holdsA && beta.Allows(rl.maxF[gi], rl.size[gi])
		f.distinct[gi] = float64(rl.st.count(gi))
		if f.worstP < 0 || f.pres[gi] > f.pres[f.worstP] {
			f.worstP = gi
		}
		if f.worstA < 0 || f.assoc[gi] > f.assoc[f.worstA] {
			f.worstA = gi
		}
		if rl.maxF[gi] != 1 || rl.st.count(gi) < f.g {
			f.badDiv++
		}
		f.published += rl.size[gi]
	}
	return f
}

// joinSize is prod_i |G_ATi| of group gi when it fits an int (false:
// it does not, the caller multiplies big integers).
func joinSize(rl *release, gi int) (uint64, bool) {
	j := uint64(1)
	for _, at := range rl.at {
		hi, lo := bits.Mul64(j, uint64(at.count(gi)))
		if hi != 0 {
			return 0, false
		}
		j = lo
	}
	return j, j <= math.MaxInt
}

// alphaPresence: a record a group covers is in the data with probability
// |G| / prod_i |G_ATi| <= alpha (Theorem 5.1).
func alphaPresence(c *ctx, r *verify.Report) error {
	f := c.figuresOf()
	r.Add(f.holdsP, "alpha-presence", "every record a group covers has Pr(t in T) = |G| / prod_i |G_ATi| <= alpha = %s (Theorem 5.1; max %.4g in group %d)",
		format.ParamAlpha.Text(c.m.Parameters), f.pres[f.worstP], c.rl.ids[f.worstP])
	return nil
}

// betaAssociation: a sensitive value is a member's with probability
// c / |G| <= beta (Theorem 5.2).
func betaAssociation(c *ctx, r *verify.Report) error {
	f := c.figuresOf()
	r.Add(f.holdsA, "beta-association", "every sensitive value has Pr((t,s) in T | t in T) = c / |G| <= beta = %s (Theorem 5.2; max %.4g in group %d)",
		format.ParamBeta.Text(c.m.Parameters), f.assoc[f.worstA], c.rl.ids[f.worstA])
	return nil
}

// diversity: a group holds each sensitive value once and at least
// ceil(1/beta) of them (Algorithm 2, Theorems 7.1-7.2).
func diversity(c *ctx, r *verify.Report) error {
	f := c.figuresOf()
	r.Add(f.badDiv == 0, "diversity", "every group holds each sensitive value once and at least ceil(1/beta) = %d of them (Algorithm 2, Theorems 7.1-7.2; %d groups do not)", f.g, f.badDiv)
	return nil
}

// claims holds the manifest's counts, worst cases and utility to the
// files (verify.Report.Compare); the figures across groups with the
// original. The method always states the three figures: one left out is
// not verified.
func claims(c *ctx, r *verify.Report) error {
	f := c.figuresOf()
	tables := map[string]*model.Table{c.rl.st.file: c.rl.st.t}
	for _, at := range c.rl.at {
		tables[at.file] = at.t
	}
	rc := verify.Recomputed{Groups: c.rl.groups, Published: f.published, Tables: tables,
		Figures: map[string]float64{worstPresence: f.pres[f.worstP], worstAssociation: f.assoc[f.worstA], utilityName: float64(f.published) / float64(c.rl.groups)},
		Holds:   map[string]bool{worstPresence: f.holdsP, worstAssociation: f.holdsA},
		Later:   map[string]bool{coveredByMany: true, combinedPresence: true},
		// alpha-presence and beta-association (Theorems 5.1, 5.2).
		Limits: map[string]string{worstPresence: format.ParamAlpha.Text(c.m.Parameters), worstAssociation: format.ParamBeta.Text(c.m.Parameters)},
	}
	if c.opt.Original != nil {
		o, err := c.originalRows()
		if err != nil {
			return err
		}
		many, combined := acrossGroups(c.rl, o, f.pres)
		rc.Figures[coveredByMany], rc.Figures[combinedPresence] = float64(many), combined
	}
	stated := map[string]bool{}
	for _, list := range [][]releasedir.Figure{c.m.WorstCases, c.m.Utility} {
		for _, fig := range list {
			stated[fig.Name] = true
		}
	}
	for _, name := range []string{worstPresence, worstAssociation, utilityName} {
		if !stated[name] {
			r.Add(false, "claim "+name, "the manifest does not state it")
		}
	}
	r.Compare(c.rel, rc, c.opt)
	return nil
}

// detailClaims: the details' counts are the files'.
func detailClaims(c *ctx, r *verify.Report) error {
	rl, det := c.rl, c.det
	minS, maxS, minD, maxF := rl.size[0], rl.size[0], rl.st.count(0), rl.maxF[0]
	for gi := range rl.size {
		minS, maxS = min(minS, rl.size[gi]), max(maxS, rl.size[gi])
		minD, maxF = min(minD, rl.st.count(gi)), max(maxF, rl.maxF[gi])
	}
	r.Claim("details.ceil_inv_beta", float64(det.CeilInvBeta), float64(c.figuresOf().g))
	r.Claim("details.min_group_size", float64(det.MinGroupSize), float64(minS))
	r.Claim("details.max_group_size", float64(det.MaxGroupSize), float64(maxS))
	r.Claim("details.min_distinct_sensitive", float64(det.MinDistinctSA), float64(minD))
	r.Claim("details.max_frequency", float64(det.MaxFrequency), float64(maxF))
	return nil
}

// groupFiguresClaims: the per-group figures' summaries (min, mean, max) are
// the files'.
func groupFiguresClaims(c *ctx, r *verify.Report) error {
	f := c.figuresOf()
	det := c.det
	perGroup := [][]float64{f.pres, f.assoc, f.join, f.distinct}
	if len(det.FigureSummary) != len(figureLabels) {
		r.Add(false, "claim details.group_figures", "the manifest summarises %d figures, the method has %d", len(det.FigureSummary), len(figureLabels))
		return nil
	}
	for i, s := range det.FigureSummary {
		r.ClaimText(fmt.Sprintf("details.group_figures[%d].figure", i), s.Figure, figureLabels[i])
		lo, mean, hi := summary(perGroup[i])
		r.Claim("details.group_figures."+figureLabels[i]+".min", s.Min, lo)
		r.Claim("details.group_figures."+figureLabels[i]+".mean", s.Mean, mean)
		r.Claim("details.group_figures."+figureLabels[i]+".max", s.Max, hi)
	}
	return nil
}
