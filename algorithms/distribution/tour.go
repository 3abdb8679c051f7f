package distribution

import (
	"context"
	"fmt"
	"math"
	"strings"

	"privlab/algorithms/method"
	"privlab/model"
	mquery "privlab/model/query"
)

// Tour is the teaching tour of Koudas, Srivastava, Yu, Zhang 2009 on its
// own employee table (Figure 1): the grouping of Figure 2, the uniform
// target of Figure 3, Algorithm 1's subdomains, Figure 2's query and a
// fake value of Section 5. Every number is computed by the method.
func (Method) Tour() method.Tour {
	return method.Tour{
		Title:  "Distribution-based anonymization on Figure 1's employees",
		Paper:  "Koudas, Srivastava, Yu, Zhang 2009, Sections 1-5",
		Setups: []method.Setup{figure2},
		Steps:  []method.TourStep{tourTable, tourTarget, tourSubdomains, tourQuery, tourFakes, tourAttack},
	}
}

// figure2 is the setting of Figure 2: the employees grouped by the first
// three digits of their zip code, the uniform target of Figure 3.
var figure2 = method.Setup{Input: "dataset:employees",
	Roles:  model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
	Params: model.Values{paramGrouping: "level:zipcode=2", paramTarget: "uniform", "seed": "1"}}

// kilo writes a salary as the paper does (30000 -> 30K).
func kilo(x float64) string {
	if x != 0 && math.Mod(x, 1000) == 0 {
		return model.FormatNumber(x/1000) + "K"
	}
	return model.FormatNumber(x)
}

// kiloOver writes x as the paper writes an average of m values: 40K, or
// 110K/3 when the sum is whole thousands and the average is not.
func kiloOver(x float64, m int) string {
	if math.Mod(x, 1000) == 0 || m <= 1 {
		return kilo(x)
	}
	if sum := math.Round(x * float64(m)); math.Abs(sum-x*float64(m)) < 1e-6 && math.Mod(sum, 1000) == 0 {
		return fmt.Sprintf("%s/%d", kilo(sum), m)
	}
	return model.FormatNumber(x)
}

// groupOfRow is the index of the group holding row (-1 for none).
func groupOfRow(res *method.Result, row int) int {
	for gi, g := range res.Groups {
		for _, r := range g.Rows {
			if int(r) == row {
				return gi
			}
		}
	}
	return -1
}

func tourTable(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, err := lab.Run(ctx, figure2)
	if err != nil {
		return method.Step{}, err
	}
	t := in.Table
	sec := method.Section{Title: "Figure 1 with the groups of Figure 2", Header: append(t.Names(), "group")}
	for r := 0; r < t.Rows; r++ {
		row := []string{}
		for _, c := range t.Columns {
			row = append(row, c.Value(r))
		}
		sec.Rows = append(sec.Rows, append(row, fmt.Sprint(res.Groups[groupOfRow(res, r)].ID)))
	}
	var sizes []string
	for _, g := range res.Groups {
		sizes = append(sizes, fmt.Sprint(len(g.Rows)))
	}
	return method.Step{
		Title: "The employee table and its groups",
		Cite:  "Figure 1; Sections 1 and 4.2",
		Text: []string{
			fmt.Sprintf("Figure 1 lists %d employees. Name identifies them and is removed; zipcode and gender are "+
				"quasi-identifiers, published unchanged; salary is the sensitive attribute.", t.Rows),
			fmt.Sprintf("Grouping is decoupled from privacy (Section 1): here the records are grouped by the first three digits "+
				"of their zip code (grouping level:zipcode=2, 91110 becomes 911**), which gives Figure 2's %d groups of %s records.",
				len(res.Groups), strings.Join(sizes, ", ")),
		},
		Sections: []method.Section{sec},
	}, nil
}

func tourTarget(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, err := lab.Run(ctx, figure2)
	if err != nil {
		return method.Step{}, err
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return method.Step{}, err
	}
	hf, _ := method.ReleaseFile(rel, "hierarchy.csv")
	h := in.Hierarchies[in.Roles.SA]
	m, err := Target{Kind: TargetUniform}.Masses(h, nil)
	if err != nil {
		return method.Step{}, err
	}
	a := Annotate(h, m, values(res, paramMaxDen))
	probs := method.Section{Title: "the target P'(v) the weights give", Header: []string{"salary", "P'(v)"}}
	for _, l := range h.Leaves {
		probs.Rows = append(probs.Rows, []string{kilo(h.Nodes[l].Low), a.ExactLeafProb(l).RatString()})
	}
	return method.Step{
		Title: "The target distribution as weights on the hierarchy",
		Cite:  "Figure 3; Section 3.1, Definition 3.2",
		Text: []string{
			"Each tuple's salary is generalized to a subdomain: a node of the salary hierarchy (Figure 3), a binary tree over " +
				"30K, 40K, 50K, 60K. The target distribution is written as integer weights on its edges; the children of every node " +
				"weigh " + a.WeightString(0) + ", the uniform distribution.",
			"The release publishes this privacy-annotated hierarchy (hierarchy.csv): from it and a group's subdomains an attacker " +
				"can only infer that every tuple's salary follows the target.",
		},
		Sections: []method.Section{method.FileTable(hf), probs},
	}, nil
}

// values reads an integer parameter of a result.
func values(res *method.Result, name string) int { return res.Values.Int(name) }

func tourSubdomains(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, err := lab.Run(ctx, figure2)
	if err != nil {
		return method.Step{}, err
	}
	sec := method.Section{Title: "Figure 2: each salary and the subdomain it is published as (permuted within its group)",
		Header: []string{"group", "zipcode", "gender", "salary", "published"}}
	var sums []string
	for gi, g := range res.Groups {
		for _, row := range res.Detail(gi, len(g.Rows)).Sections {
			for _, r := range row.Rows {
				if len(r) == 4 {
					sec.Rows = append(sec.Rows, append([]string{fmt.Sprint(g.ID)}, kiloRow(r)...))
				}
			}
		}
		sums = append(sums, fmt.Sprintf("group %d %s", g.ID, kilo(g.Figures[FigSOR])))
	}
	ex, err := example1(in)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "Algorithm 1 picks each group's subdomains",
		Cite:  "Algorithm 1 (MinSumOfRange); Section 4.1; Figure 2; Example 1",
		Text: []string{
			"MinSumOfRange finds, for each group, the multiset of subdomains of least sum of ranges whose values can follow " +
				"the target: at every node it keeps the largest allocation in the ratio of the weights (the maximum m-bound " +
				"allocation of Section 4.1) and sends the rest up the tree.",
			"Sums of ranges: " + strings.Join(sums, ", ") + ". A group whose salaries already follow the target keeps them " +
				"(only permuted); the others widen some salaries to subdomains such as [30K, 40K].",
			"Example 1: " + ex,
		},
		Sections: []method.Section{sec},
	}, nil
}

// example1 generalizes Example 1's multiset {30K,30K,40K,40K,50K,60K}
// against the uniform target with Algorithm 1.
func example1(in *method.Input) (string, error) {
	h := in.Hierarchies[in.Roles.SA]
	m, err := Target{Kind: TargetUniform}.Masses(h, nil)
	if err != nil {
		return "", err
	}
	s := NewSolver(Annotate(h, m, defaultMaxDenominator))
	var leaves []int32
	for _, v := range []string{"30000", "30000", "40000", "40000", "50000", "60000"} {
		l, ok := h.Leaf(v)
		if !ok {
			return "", fmt.Errorf("salary %s is not in the hierarchy", v)
		}
		leaves = append(leaves, int32(l))
	}
	g := s.MinSumOfRange(leaves)
	var parts []string
	for _, c := range g.Copies {
		lo, hi := h.Bounds(int(c.Node))
		item := kiloText(lo)
		if lo != hi {
			item = "[" + kiloText(lo) + ", " + kiloText(hi) + "]"
		}
		if c.Count > 1 {
			item = fmt.Sprintf("%s x%d", item, c.Count)
		}
		parts = append(parts, item)
	}
	return fmt.Sprintf("{30K, 30K, 40K, 40K, 50K, 60K} is generalized to %s, sum of ranges %s.",
		strings.Join(parts, ", "), kilo(g.SumOfRanges)), nil
}

func kiloText(s string) string {
	if x, ok := model.ParseNumber(s); ok {
		return kilo(x)
	}
	return s
}

// zipRange is the query condition selecting one group of level:zipcode=2
// (its zip codes' first three digits).
func zipRange(in *method.Input, g method.Group) string {
	c := in.Table.Column("zipcode")
	lo := math.Inf(1)
	for _, r := range g.Rows {
		if x, ok := model.ParseNumber(c.Value(int(r))); ok {
			lo = math.Min(lo, x)
		}
	}
	base := math.Floor(lo/100) * 100
	return fmt.Sprintf("zipcode >= %s AND zipcode < %s", model.FormatNumber(base), model.FormatNumber(base+100))
}

// ask answers a query on a result and on the original table.
func ask(res *method.Result, t *model.Table, text string) (method.Bounds, float64, error) {
	q, err := mquery.Parse(text)
	if err != nil {
		return method.Bounds{}, 0, err
	}
	b, err := res.Answerer.Answer(q)
	if err != nil {
		return method.Bounds{}, 0, err
	}
	truth, err := q.Truth(t)
	return b, truth.Value, err
}

func tourQuery(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, err := lab.Run(ctx, figure2)
	if err != nil {
		return method.Step{}, err
	}
	const query = "AVG(salary) WHERE gender = 'F'"
	sec := method.Section{Title: "per group: the selected tuples and the bounds of their salaries' sum",
		Header: []string{"group", "selected", "lowest sum", "highest sum"}}
	for _, g := range res.Groups {
		b, _, err := ask(res, in.Table, "SUM(salary) WHERE gender = 'F' AND "+zipRange(in, g))
		if err != nil {
			return method.Step{}, err
		}
		n, _, err := ask(res, in.Table, "COUNT(*) WHERE gender = 'F' AND "+zipRange(in, g))
		if err != nil {
			return method.Step{}, err
		}
		sec.Rows = append(sec.Rows, []string{fmt.Sprint(g.ID), model.FormatNumber(n.Low), kilo(b.Low), kilo(b.High)})
	}
	b, truth, err := ask(res, in.Table, query)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "Figure 2's query: the average salary of the women",
		Cite:  "Figure 2; Sections 2 and 3.3",
		Text: []string{
			"The quasi-identifiers are published unchanged, so the query " + query + " selects a known number of tuples in " +
				"each group; their salaries are unknown, but each is one of the group's subdomains. The smallest and largest " +
				"sums over the selected tuples bound the answer.",
			fmt.Sprintf("The release answers [%s, %s]; the true average is %s.", kilo(b.Low), kilo(b.High), kilo(truth)),
		},
		Sections: []method.Section{sec},
	}, nil
}

func tourFakes(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	withFake := figure2
	withFake.Params = figure2.Params.Clone()
	withFake.Params[paramFakes] = "1"
	in, plain, err := lab.Run(ctx, figure2)
	if err != nil {
		return method.Step{}, err
	}
	_, fake, err := lab.Run(ctx, withFake)
	if err != nil {
		return method.Step{}, err
	}
	// Group 2 of Figure 2: the zip codes 912**, Elaine's group.
	row := -1
	for r := 0; r < in.Table.Rows; r++ {
		if in.Table.Column("name").Value(r) == "Elaine" {
			row = r
		}
	}
	gi := groupOfRow(fake, row)
	if gi < 0 {
		return method.Step{}, fmt.Errorf("no group holds Elaine")
	}
	g := fake.Groups[gi]
	query := "AVG(salary) WHERE " + zipRange(in, g)
	before, _, err := ask(plain, in.Table, query)
	if err != nil {
		return method.Step{}, err
	}
	after, truth, err := ask(fake, in.Table, query)
	if err != nil {
		return method.Step{}, err
	}
	sec := method.Section{Title: fmt.Sprintf("group %d with at most one fake value", g.ID), Header: []string{"zipcode", "gender", "salary", "published"}}
	for _, s := range fake.Detail(gi, len(g.Rows)+1).Sections {
		for _, r := range s.Rows {
			if len(r) == 4 {
				sec.Rows = append(sec.Rows, kiloRow(r))
			}
		}
	}
	var fakes []string
	for _, r := range sec.Rows {
		if r[0] == "(fake)" {
			fakes = append(fakes, r[3])
		}
	}
	n := len(g.Rows)
	return method.Step{
		Title: "A fake value narrows the bounds",
		Cite:  "Section 2 (fake values); Section 5, Algorithm 2",
		Text: []string{
			fmt.Sprintf("Without fakes, group %d's salaries are generalized (sum of ranges %s), and %s is answered [%s, %s].",
				g.ID, kilo(plain.Groups[groupOfRow(plain, row)].Figures[FigSOR]), query, kiloOver(before.Low, n), kiloOver(before.High, n)),
			fmt.Sprintf("Allowing one fake value per group (fakes 1), Algorithm 2 finds the fake that removes the most "+
				"generalization: %s. The group's sum of ranges falls to %s and the answer narrows to [%s, %s] "+
				"(true: %s): the fake is indistinguishable from the real values, and m selected tuples can be any m of the group's subdomains.",
				strings.Join(fakes, ", "), kilo(g.Figures[FigSOR]),
				kiloOver(after.Low, n), kiloOver(after.High, n), kiloOver(truth, n)),
		},
		Sections: []method.Section{sec},
		Setup:    withFake,
	}, nil
}

// kiloRow writes a member row's salaries (the last two cells: a value
// and a subdomain "[lo, hi]") as the paper does.
func kiloRow(r []string) []string {
	out := append([]string(nil), r...)
	for i := len(out) - 2; i < len(out); i++ {
		v := strings.TrimSuffix(strings.TrimPrefix(out[i], "["), "]")
		if lo, hi, ok := strings.Cut(v, ", "); ok {
			out[i] = "[" + kiloText(lo) + ", " + kiloText(hi) + "]"
		} else {
			out[i] = kiloText(v)
		}
	}
	return out
}
