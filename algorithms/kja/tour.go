package kja

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/partition"
	"privlab/model"
)

// Tour is the teaching tour of Sacharidis, Mouratidis, Papadias on their
// own points (datasets kja-fig3, kja-fig8, kja-fig1, kja-fig1-pd: the
// paper gives no coordinates; the datasets' are derived so that every
// statement of the text holds): Mondrian's splits of Figure 3,
// Refinement's second round with the public points of Figure 8, then
// Figures 2, 5 and 7: AT and JAT of the seven points, their NCP and DM,
// and the range count that SI makes exact.
func (Method) Tour() method.Tour {
	return method.Tour{
		Title:  "k-join-anonymity on the paper's own points",
		Paper:  "Sacharidis, Mouratidis, Papadias, Sections 2-4",
		Setups: []method.Setup{figure3, figure8, figure2, figure5},
		Steps:  []method.TourStep{tourMondrian, tourRefinement, tourAT, tourJAT, tourRangeCount, tourAttack},
	}
}

var (
	pointRoles = model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}, SA: "SA"}
	// figure3: Mondrian, k = 3, with the paper's round-robin rule.
	figure3 = method.Setup{Input: "dataset:kja-fig3", Variant: MondrianPlain, Roles: pointRoles,
		Params: model.Values{paramK: "3", paramSplit: SplitRoundRobin, "seed": "1"}}
	// figure8: Refinement with the public points N-Z.
	figure8 = method.Setup{Input: "dataset:kja-fig3", Public: "dataset:kja-fig8", Variant: MondrianRefine, Roles: pointRoles,
		Params: model.Values{paramK: "3", paramSplit: SplitRoundRobin, "seed": "1"}}
	// figure2: the seven points with Figure 2's AT (given, column AT).
	figure2 = method.Setup{Input: "dataset:kja-fig1", Public: "dataset:kja-fig1-pd", Variant: MondrianPlain, Roles: pointRoles,
		Params: model.Values{paramK: "3", paramGrouping: "column:AT", "seed": "1"}}
	// figure5: Refinement of Figure 2's AT with Figure 1's PD.
	figure5 = method.Setup{Input: "dataset:kja-fig1", Public: "dataset:kja-fig1-pd", Variant: MondrianRefine, Roles: pointRoles,
		Params: model.Values{paramK: "3", paramGrouping: "column:AT", "seed": "1"}}
)

// tourRun prepares and runs a setup, keeping the run's state.
func tourRun(ctx context.Context, lab *method.TourLab, s method.Setup) (*run, error) {
	in, err := lab.Prepare(s)
	if err != nil {
		return nil, err
	}
	r, err := newRun(ctx, in)
	if err != nil {
		return nil, err
	}
	if _, err := r.result(Method{}.Spec()); err != nil {
		return nil, err
	}
	return r, nil
}

// name is a JT tuple's name (the identifier of its MT or PD row).
func (r *run) name(i int32) string {
	if r.t.isMT(i) {
		if c := r.in.Table.Column("name"); c != nil {
			return c.Value(int(i))
		}
		return fmt.Sprint(i)
	}
	if c := r.in.Public.Column("name"); c != nil {
		return c.Value(int(r.t.pd[int(i)-r.t.mt]))
	}
	return fmt.Sprint(i)
}

// names lists tuples' names in order.
func (r *run) names(tuples []int32) string {
	var out []string
	for _, i := range tuples {
		out = append(out, r.name(i))
	}
	sort.Strings(out)
	for _, n := range out {
		if len([]rune(n)) > 1 {
			return strings.Join(out, " ")
		}
	}
	return strings.Join(out, "")
}

// rawBox writes a box in axis units, and its raw half-perimeter (the
// figures' unnormalised NCP per tuple, Section 2.1).
func (r *run) rawBox(b box) (string, float64) {
	var parts []string
	half := 0.0
	for a := 0; a < r.t.d; a++ {
		parts = append(parts, fmt.Sprintf("[%s, %s]", model.FormatNumber(b.lo[a]), model.FormatNumber(b.hi[a])))
		half += b.hi[a] - b.lo[a]
	}
	return strings.Join(parts, " x "), half
}

// cut is one Mondrian split: a partition cut on an axis at the value of
// one of its tuples.
type cut struct {
	part, lower, upper []int32
	axis               int
	at                 float64
	by                 int32
}

// mondrianCuts replays Mondrian on MT and records its cuts, in the
// order it makes them.
func (r *run) mondrianCuts(ctx context.Context, rule partition.Rule) ([]cut, error) {
	m := r.t.mtOnly()
	var out []cut
	_, err := partition.MondrianWith(ctx, allTuples(m.n), m.dims(), r.cfg.k, partition.Options{Rule: rule,
		OnSplit: func(dim int, left, right []int32) {
			c := cut{part: append(append([]int32(nil), left...), right...), lower: append([]int32(nil), left...),
				upper: append([]int32(nil), right...), axis: dim, at: r.t.mbb(left).hi[dim]}
			for _, i := range left {
				if r.t.coord(i, dim) == c.at {
					c.by = i
				}
			}
			out = append(out, c)
		}})
	return out, err
}

func tourMondrian(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := tourRun(ctx, lab, figure3)
	if err != nil {
		return method.Step{}, err
	}
	cuts, err := r.mondrianCuts(ctx, partition.RoundRobin)
	if err != nil {
		return method.Step{}, err
	}
	cs := method.Section{Title: "Mondrian's cuts (k = 3: a part of 2k = 6 tuples or more is cut at its median)",
		Header: []string{"partition", "cut", "at the value of", "lower", "upper"}}
	var text []string
	for _, c := range cuts {
		ax := r.t.axes[c.axis].name
		cs.Rows = append(cs.Rows, []string{r.names(c.part), fmt.Sprintf("%s <= %s", ax, model.FormatNumber(c.at)), r.name(c.by),
			fmt.Sprintf("%s (%d)", r.names(c.lower), len(c.lower)), fmt.Sprintf("%s (%d)", r.names(c.upper), len(c.upper))})
		text = append(text, fmt.Sprintf("%s at %s's value (%d and %d tuples)", ax, r.name(c.by), len(c.lower), len(c.upper)))
	}
	gs := method.Section{Title: "the anonymized groups: minimum bounding boxes", Header: []string{"group", "tuples", "box (QI1 x QI2)"}}
	var groups []string
	for _, b := range r.boxes {
		txt, _ := r.rawBox(b.b)
		gs.Rows = append(gs.Rows, []string{fmt.Sprint(len(gs.Rows) + 1), r.names(b.tuples), txt})
		groups = append(groups, r.names(b.tuples))
	}
	return method.Step{
		Title: "Figure 3: Mondrian splits the 13 points",
		Cite:  "Figure 3; Section 2.2",
		Text: []string{
			"Mondrian (LeFevre et al.) halves the space at the median of one quasi-identifier, the dimensions taken in turn " +
				"(round-robin, the paper's rule), until a part holds fewer than 2k tuples. The cuts: " + strings.Join(text, "; ") + ".",
			fmt.Sprintf("It ends with %d groups, %s: each published as its minimum bounding box, so each tuple hides among "+
				"at least k = 3 (breach probability 1/|g|, Theorem 1).", len(groups), strings.Join(groups, ", ")),
		},
		Sections: []method.Section{cs, gs},
	}, nil
}
