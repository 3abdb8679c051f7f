package ambiguity

import (
	"context"
	"fmt"
	"strings"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/method"
	"privlab/model"
)

// The QI-groups: formed by Algorithm 2 (Wang, Section 7), or given by a
// column (grouping=column:NAME, the records sharing NAME's value form one
// group). Wang's Figure 2 publishes Figure 1(a) grouped by gender, a
// grouping Algorithm 2 does not form from that table; with a given
// grouping the scheme, its probabilities (Theorems 5.1 and 5.2) and its
// query estimates are those of the published example, and every group is
// judged against alpha and beta like Algorithm 2's.
const (
	paramGrouping = string(format.ParamGrouping)
	// GroupingAlgorithm forms the groups with Algorithm 2.
	GroupingAlgorithm = method.GroupingAlgorithm
)

var groupingParam = model.ParamSpec{Name: paramGrouping, Kind: model.ParamText, Default: GroupingAlgorithm,
	Help:    "how the QI-groups are formed: Algorithm 2 (Section 7), or column:NAME (the records sharing NAME's value form a group)",
	Why:     "Wang's Figure 2 groups Figure 1(a) by gender, which Algorithm 2 does not; a given grouping reproduces a published scheme",
	Allowed: "algorithm or column:NAME (a column of the table)",
	Check:   func(s string) error { _, err := method.ParseColumnGrouping(s); return err },
	Presets: func(r model.Roles) []string {
		out := []string{GroupingAlgorithm}
		for _, q := range r.QIs {
			out = append(out, "column:"+q)
		}
		return out
	},
	Explain: "algorithm: Algorithm 2 builds groups that meet alpha and beta where it can and suppresses the rest. " +
		"column:NAME: the records sharing NAME's value form one group (Figure 2 is column:gender on the patients); " +
		"every record is published and each group is judged against alpha and beta."}

// form builds the QI-groups: the given ones, or Algorithm 2's after the
// feasibility checks.
func (r *run) form(ctx context.Context, c *codes, alpha, beta model.Bound) ([][]int32, stats, error) {
	name, err := method.ParseColumnGrouping(format.ParamGrouping.Of(r.values))
	if err != nil {
		return nil, stats{}, err
	}
	if name == "" {
		if err := feasible(c, alpha, beta, r); err != nil {
			return nil, stats{}, err
		}
		groups, b, err := construct(ctx, c, alpha, r.g, r.in.Progress)
		if err != nil {
			return nil, stats{}, err
		}
		return groups, b.stats, nil
	}
	r.given = name
	col := r.in.Table.Column(name)
	if col == nil {
		return nil, stats{}, &model.ParamError{Param: paramGrouping, Value: format.ParamGrouping.Of(r.values), Reason: "no such column",
			Hint: "columns are: " + strings.Join(r.in.Table.Names(), ", ")}
	}
	var st stats
	groups := method.GroupsByColumn(col, func(row int) bool {
		if col.Codes[row] == model.Missing || c.skip[row] {
			st.Suppressed++ // no group to publish it in
			return true
		}
		return false
	})
	return groups, st, nil
}

// noteGiven says, for given groups, where they came from (in place of
// Algorithm 2's note) and marks the groups that hold a sensitive value
// more than once: Algorithm 2 never forms one (Section 7, each group
// takes one record per bucket) and the checker refuses it, so such a
// release is not private as privlab exports it.
func (r *run) noteGiven(res *method.Result) {
	if r.given == "" {
		return
	}
	notes := []string{fmt.Sprintf("the QI-groups are given by column %s (%d groups), not built by Algorithm 2; each is judged against alpha and beta", r.given, len(r.groups))}
	for _, n := range res.Notes {
		if !strings.HasPrefix(n, "Algorithm 2:") {
			notes = append(notes, n)
		}
	}
	res.Notes = notes
	for gi, rows := range r.groups {
		seen := map[uint32]bool{}
		var twice []string
		for _, row := range rows {
			code := r.sa.Codes[row]
			if seen[code] {
				twice = append(twice, r.sa.Dict[code])
			}
			seen[code] = true
		}
		if len(twice) > 0 {
			res.Groups[gi].Violation = true
			res.Warnings = append(res.Warnings, fmt.Sprintf("group %d holds %s more than once: Algorithm 2 gives a group each sensitive value once "+
				"(Wang, Section 7, one record per bucket), and check refuses a release that does not", res.Groups[gi].ID, strings.Join(twice, ", ")))
		}
	}
}
