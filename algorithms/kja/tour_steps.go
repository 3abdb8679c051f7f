package kja

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"privlab/algorithms/figure"
	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
)

// second is what Refinement's second round did in one first-round box.
type second struct {
	members []int32   // the box's JT tuples
	inner   [][]int32 // the groups the second round formed
}

// secondRounds reruns Refinement on the run's JT with a trace.
func (r *run) secondRounds(ctx context.Context) (map[int]second, error) {
	out := map[int]second{}
	alg := r.cfg.kAlgorithm()
	first := alg
	if r.cfg.given != nil {
		first = given(r.cfg.given)
	}
	_, _, err := refinement(ctx, r.t, first, alg, r.cfg.k, nil, func(sg int, members []int32, inner [][]int32) {
		out[sg] = second{members: append([]int32(nil), members...), inner: inner}
	})
	return out, err
}

func tourRefinement(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := tourRun(ctx, lab, figure8)
	if err != nil {
		return method.Step{}, err
	}
	rounds, err := r.secondRounds(ctx)
	if err != nil {
		return method.Step{}, err
	}
	sec := method.Section{Title: "Refinement, box by box: the public tuples inside each first-round box, and what became of them",
		Header: []string{"first round", "public inside", "published boxes", "discarded", "trimmed"}}
	var discarded, trimmed []string
	for sg := 0; sg < r.sgs; sg++ {
		var mt, pd []int32
		kept := map[int32]bool{}
		var boxes []string
		for _, b := range r.boxes {
			if b.sg == sg {
				boxes = append(boxes, r.names(b.tuples))
				for _, i := range b.tuples {
					kept[i] = true
				}
				mt = append(mt, b.tuples[:b.mt]...)
			}
		}
		round := rounds[sg]
		inInner := map[int32]bool{}
		for _, g := range round.inner {
			for _, i := range g {
				inInner[i] = true
			}
		}
		var gone, cut []int32
		for _, i := range round.members {
			switch {
			case r.t.isMT(i):
			case !inInner[i]:
				gone = append(gone, i)
			case !kept[i]:
				cut = append(cut, i)
			}
			if !r.t.isMT(i) {
				pd = append(pd, i)
			}
		}
		discarded, trimmed = append(discarded, r.names(gone)), append(trimmed, r.names(cut))
		sec.Rows = append(sec.Rows, []string{r.names(mt), r.names(pd), strings.Join(boxes, " "), r.names(gone), r.names(cut)})
	}
	return method.Step{
		Title: "Figure 8: Refinement splits the boxes again with the public points",
		Cite:  "Figure 8; Section 4 (Refinement)",
		Text: []string{
			"Refinement keeps Mondrian's boxes of the microdata (the first round) and runs Mondrian again on the JT tuples " +
				"inside each box: the microdata and the public points N to Z that fall in it. Public tuples count towards k, " +
				"so boxes shrink while every box still hides a victim among k tuples (Theorem 2).",
			"A group of the second round without a microdata tuple is discarded (" + strings.Join(nonEmpty(discarded), ", ") +
				"), and a group with more public tuples than k needs drops those that only enlarge its box (" +
				strings.Join(nonEmpty(trimmed), ", ") + ").",
		},
		Sections: []method.Section{sec},
		Setup:    figure8,
	}, nil
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return []string{"none"}
	}
	return out
}

// previewFigures states the figures the step's preview shows, and how
// they differ from the worked example's: each side of a box is divided by
// its QI's extent (Section 2.1's normalised NCP), so the sum is not in
// the figure's units, and the mean divides it by the tuples and QIs
// (figure.NCP, figure.NCPSum; issue 35.7).
func (r *run) previewFigures() string {
	m := r.metrics()
	return fmt.Sprintf("The preview divides each side by its quasi-identifier's extent: %s %s, %s %s (the sum over %d MT tuples and %d QIs), DM %s.",
		figure.NCP.Name, model.FormatFixed(m.GCP, 4), figure.NCPSum.Name, model.FormatFixed(m.NCP, 4), r.t.mt, r.t.d, model.FormatFixed(m.DM, 4))
}

// boxTable lists a run's boxes with their raw half-perimeters, and
// returns the raw NCP and DM (Sections 2.1 and 3.3: each MT tuple pays
// its box's perimeter and its box's number of MT tuples).
func (r *run) boxTable(title string) (method.Section, []string, float64, float64) {
	sec := method.Section{Title: title, Header: []string{"box", "JT tuples", "box (QI1 x QI2)", "half-perimeter", "MT", "SG"}}
	var terms []string
	ncp, dm := 0.0, 0.0
	for i, b := range r.boxes {
		txt, half := r.rawBox(b.b)
		sec.Rows = append(sec.Rows, []string{fmt.Sprintf("g%d", i+1), r.names(b.tuples), txt, model.FormatNumber(half),
			fmt.Sprint(b.mt), fmt.Sprintf("sg%d", b.sg+1)})
		terms = append(terms, fmt.Sprintf("%d*%s", b.mt, model.FormatNumber(half)))
		ncp += float64(b.mt) * half
		dm += float64(b.mt * b.mt)
	}
	return sec, terms, ncp, dm
}

func tourAT(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := tourRun(ctx, lab, figure2)
	if err != nil {
		return method.Step{}, err
	}
	sec, terms, ncp, dm := r.boxTable("Figure 2: AT, a 3-anonymous table of the seven points")
	return method.Step{
		Title: "Figure 2: the k-anonymous table AT of the seven points",
		Cite:  "Figures 1, 2 and 6; Section 2.1",
		Text: []string{
			"A second example: MT holds seven people A to G; the public database PD of Figure 1 holds six of them (not D) and " +
				"G1, G2, U, V, X, Y. Figure 2's AT groups MT into two boxes; the paper does not compute it with an algorithm " +
				"(its boxes overlap), so the dataset carries it as column AT and the run takes it as the given grouping.",
			fmt.Sprintf("The paper's NCP charges each MT tuple its box's half-perimeter in the figure's units: %s = %s; DM charges it the number of MT tuples in "+
				"its box: %s. Each group is its own sensitive group: SI lists its diseases (Figure 6).",
				strings.Join(terms, " + "), model.FormatNumber(ncp), model.FormatNumber(dm)),
			r.previewFigures(),
		},
		Sections: []method.Section{sec},
		Setup:    figure2,
	}, nil
}

func tourJAT(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := tourRun(ctx, lab, figure5)
	if err != nil {
		return method.Step{}, err
	}
	at, err := tourRun(ctx, lab, figure2)
	if err != nil {
		return method.Step{}, err
	}
	sec, terms, ncp, dm := r.boxTable("Figure 5: JAT, 3-join-anonymous with the public tuples")
	_, _, atNCP, atDM := at.boxTable("")
	rounds, err := r.secondRounds(ctx)
	if err != nil {
		return method.Step{}, err
	}
	var joins []string
	for sg, round := range rounds {
		var pd []int32
		for _, i := range round.members {
			if !r.t.isMT(i) {
				pd = append(pd, i)
			}
		}
		joins = append(joins, fmt.Sprintf("%s join %s's box", r.names(pd), at.names(at.boxes[sg].tuples)))
	}
	sort.Strings(joins)
	sizes := map[int]bool{}
	for _, b := range r.boxes {
		sizes[len(b.tuples)] = true
	}
	breach := "each box's own 1/|g|"
	if len(sizes) == 1 {
		breach = fmt.Sprintf("1/%d for everyone: every box holds %d JT tuples", len(r.boxes[0].tuples), len(r.boxes[0].tuples))
	}
	return method.Step{
		Title: "Figure 5: JAT shrinks the boxes with public tuples",
		Cite:  "Figures 5 and 6; Sections 3.2 and 3.3",
		Text: []string{
			"Refinement splits each box of AT with the public tuples inside it (" + strings.Join(joins, "; ") + "). " +
				"A victim's breach probability is " + breach + " (Theorem 2), and the sensitive groups stay AT's: an MT tuple " +
				"is linked to the same diseases as in AT (Section 3.2).",
			fmt.Sprintf("The paper's NCP, in the figure's units: %s = %s (AT: %s). The paper prints 32 for this sum: its terms add up to %s, so 32 is a slip "+
				"in the addition. DM = %s (AT: %s), as the paper says.",
				strings.Join(terms, " + "), model.FormatNumber(ncp), model.FormatNumber(atNCP), model.FormatNumber(ncp),
				model.FormatNumber(dm), model.FormatNumber(atDM)),
			r.previewFigures(),
		},
		Sections: []method.Section{sec},
		Setup:    figure5,
	}, nil
}

// estimate answers a query from a run's release and on its table.
func (r *run) estimate(text string) (float64, float64, error) {
	q, err := query.Parse(text)
	if err != nil {
		return 0, 0, err
	}
	b, err := r.ix.Answer(q)
	if err != nil {
		return 0, 0, err
	}
	truth, err := q.Truth(r.in.Table)
	return b.Estimate, truth.Value, err
}

func tourRangeCount(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	at, err := tourRun(ctx, lab, figure2)
	if err != nil {
		return method.Step{}, err
	}
	jat, err := tourRun(ctx, lab, figure5)
	if err != nil {
		return method.Step{}, err
	}
	const region = "QI1 BETWEEN 0 AND 4 AND QI2 > 2 AND QI2 <= 4"
	sec := method.Section{Title: "COUNT(*) WHERE " + region, Header: []string{"query", "true", "AT", "JAT + SI"}}
	var counts [3]float64
	for _, sa := range []string{"", "v1", "v2", "v3"} {
		q, label := "COUNT(*) WHERE "+region, "all"
		if sa != "" {
			q, label = q+" AND SA = '"+sa+"'", "SA = "+sa
		}
		a, truth, err := at.estimate(q)
		if err != nil {
			return method.Step{}, err
		}
		j, _, err := jat.estimate(q)
		if err != nil {
			return method.Step{}, err
		}
		if sa == "" {
			counts = [3]float64{truth, a, j}
		}
		sec.Rows = append(sec.Rows, []string{label, model.FormatNumber(truth), method.Ratio(a), method.Ratio(j)})
	}
	region0, region1 := []float64{0, 2}, []float64{4, 4}
	var shares []string
	for i, b := range at.boxes {
		shares = append(shares, fmt.Sprintf("%s of g%d's %d", method.Ratio(coverage(b.b, region0, region1)), i+1, b.mt))
	}
	why := ""
	for _, b := range jat.boxes {
		if c := coverage(b.b, region0, region1); c == 1 {
			mt, all := jat.sgMT[b.sg], 0
			for _, o := range jat.boxes {
				if o.sg == b.sg {
					all += len(o.tuples)
				}
			}
			why = fmt.Sprintf("the range covers box %s of %d JT tuples, and SI says its sensitive group has %d MT tuples in %d JT tuples, so %d x %d/%d = %s",
				jat.names(b.tuples), len(b.tuples), mt, all, len(b.tuples), mt, all, method.Ratio(float64(len(b.tuples)*mt)/float64(all)))
		}
	}
	return method.Step{
		Title: "Figure 7: a range count, from AT and from JAT with SI",
		Cite:  "Figure 7; Section 3.3",
		Text: []string{
			"How many MT individuals lie in [0,4] x (2,4]? Assuming tuples spread uniformly in their boxes, AT's answer is " +
				"the share of each box the range covers times its MT tuples: " + strings.Join(shares, " and ") + ".",
			fmt.Sprintf("AT estimates %.2f (the paper: \"approximately 3.66\"); JAT with SI estimates %s: %s. The truth is %s (C and D). "+
				"The same reasoning gives the diseases in the range.",
				counts[1], method.Ratio(counts[2]), why, model.FormatNumber(counts[0])),
		},
		Sections: []method.Section{sec},
		Setup:    figure5,
	}, nil
}

// coverage is the share of a box's area inside the range [lo, hi] (the
// uniform assumption of Section 3.3); a flat box counts by its extent
// on the other axes.
func coverage(b box, lo, hi []float64) float64 {
	share := 1.0
	for a := range lo {
		w := b.hi[a] - b.lo[a]
		in := math.Min(b.hi[a], hi[a]) - math.Max(b.lo[a], lo[a])
		switch {
		case in < 0 || in == 0 && w > 0:
			return 0
		case w > 0:
			share *= in / w
		}
	}
	return share
}
