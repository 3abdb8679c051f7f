package ambiguity

import (
	"context"
	"fmt"
	"math/big"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
)

// Tour is the teaching tour of Wang's ambiguity scheme on her own Figure
// 1(a): the auxiliary tables of Figure 2 (the patients grouped by gender,
// as published), presence (Theorem 5.1), association (Theorem 5.2) and the
// query estimates of Section 1.1 and Example 6.1, against the generalized
// table of Figure 1(b).
func (Method) Tour() method.Tour {
	return method.Tour{
		Title:  "The ambiguity scheme on Figure 1's patients",
		Paper:  "Hui (Wendy) Wang, Ambiguity, Sections 1, 3, 5 and 6",
		Setups: []method.Setup{figure2Setup},
		Steps:  []method.TourStep{tourFigure1, tourFigure2, tourPresence, tourAssociation, tourQueries, tourAttack},
	}
}

// figure2Setup is Figure 2's scheme: Figure 1(a) grouped by gender, (alpha,
// beta) = (0.5, 0.5). Seed 1 numbers the men's group 1, as the figure.
var figure2Setup = method.Setup{Input: "dataset:patients",
	Roles:  model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"},
	Params: model.Values{"alpha": "0.5", "beta": "0.5", paramGrouping: "column:gender", "seed": "1"}}

// figure1bSetup is the generalized table of Figure 1(b), the comparison of
// Section 1.1: the same two groups as k-anonymous boxes (k-join-anonymity's
// plain Mondrian baseline with the groups given), queries estimated
// uniformly within each box.
var figure1bSetup = method.Setup{Method: mondrian.Method, Input: "dataset:patients", Variant: mondrian.Variant,
	Roles:  figure2Setup.Roles,
	Params: model.Values{method.GroupSizeParam: "4", "grouping": "column:gender", "seed": "1"}}

// person finds a patient's row and group (index in the result).
func person(in *method.Input, res *method.Result, name string) (row, gi int, err error) {
	c := in.Table.Column("name")
	for r := 0; r < in.Table.Rows; r++ {
		if c.Value(r) != name {
			continue
		}
		for i, g := range res.Groups {
			for _, x := range g.Rows {
				if int(x) == r {
					return r, i, nil
				}
			}
		}
	}
	return 0, 0, fmt.Errorf("no published patient %s", name)
}

func runFigure2(ctx context.Context, lab *method.TourLab) (*method.Input, *method.Result, *scheme, error) {
	in, res, err := lab.Run(ctx, figure2Setup)
	if err != nil {
		return nil, nil, nil, err
	}
	s, ok := res.Answerer.(*scheme)
	if !ok {
		return nil, nil, nil, fmt.Errorf("the run has no scheme")
	}
	return in, res, s, nil
}

func tourFigure1(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, _, err := runFigure2(ctx, lab)
	if err != nil {
		return method.Step{}, err
	}
	t := in.Table
	sec := method.Section{Title: "Figure 1(a) with the QI-groups of Figure 2", Header: append(t.Names(), "group")}
	for r := 0; r < t.Rows; r++ {
		var line []string
		for _, c := range t.Columns {
			line = append(line, c.Value(r))
		}
		_, gi, err := person(in, res, t.Column("name").Value(r))
		if err != nil {
			return method.Step{}, err
		}
		sec.Rows = append(sec.Rows, append(line, fmt.Sprint(res.Groups[gi].ID)))
	}
	return method.Step{
		Title: "Figure 1(a): the patients and their QI-groups",
		Cite:  "Figure 1(a); Section 1.1",
		Text: []string{
			"Age, gender and zipcode are quasi-identifiers; disease is sensitive. An attacker may know a person's " +
				"quasi-identifiers and want to learn whether the person is in the table at all (presence) and, if so, " +
				"the disease (association).",
			fmt.Sprintf("Figure 2 groups the %d patients by gender: %d QI-groups (grouping column:gender; Algorithm 2 would "+
				"form other groups of this table).", t.Rows, len(res.Groups)),
		},
		Sections: []method.Section{sec},
	}, nil
}

func tourFigure2(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	_, res, _, err := runFigure2(ctx, lab)
	if err != nil {
		return method.Step{}, err
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return method.Step{}, err
	}
	var secs []method.Section
	for _, f := range rel.Files {
		secs = append(secs, method.FileTable(f))
	}
	text := []string{
		"Instead of one table, every quasi-identifier is published in an auxiliary table AT of (value, GroupID), each " +
			"value once per group, and the diseases in a sensitive table ST of (GroupID, disease, Frequency) (Definition 3.3). " +
			"Joining them on GroupID yields every combination of a group's values: the true records hide among them.",
	}
	text = append(text, res.Warnings...)
	return method.Step{
		Title:    "Figure 2: the auxiliary tables and the sensitive table",
		Cite:     "Figure 2; Section 3, Definition 3.3",
		Text:     text,
		Sections: secs,
	}, nil
}

func tourPresence(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, s, err := runFigure2(ctx, lab)
	if err != nil {
		return method.Step{}, err
	}
	sec := method.Section{Title: "Theorem 5.1: Pr(t in T) = |G| / prod_i |G_ATi|",
		Header: []string{"person", "group", "|G|", "|G_age|", "|G_gender|", "|G_zipcode|", "Pr(t in T)"}}
	var text []string
	alanGroup := ""
	for _, name := range []string{"Alan", "Alice"} {
		_, gi, err := person(in, res, name)
		if err != nil {
			return method.Step{}, err
		}
		if alanGroup == "" {
			alanGroup = fmt.Sprint(res.Groups[gi].ID)
		}
		line := []string{name, fmt.Sprint(res.Groups[gi].ID), fmt.Sprint(s.size[gi])}
		for i := range s.at {
			line = append(line, fmt.Sprint(s.at[i].count[gi]))
		}
		p := s.presence(gi)
		sec.Rows = append(sec.Rows, append(line, method.Ratio(p)))
		text = append(text, fmt.Sprintf("Pr(%s in T) = %s", name, method.Ratio(p)))
	}
	// The paper's own derivation (Section 1.1): Alan is one of the 4
	// records among the 12 combinations of his group, Alice one of 4
	// among 9.
	alan := new(big.Rat).SetFrac(new(big.Int).Binomial(11, 3), new(big.Int).Binomial(12, 4))
	alice := new(big.Rat).SetFrac(new(big.Int).Binomial(8, 3), new(big.Int).Binomial(9, 4))
	return method.Step{
		Title: "Presence: is Alan in the table?",
		Cite:  "Section 1.1; Section 5, Theorem 5.1",
		Text: []string{
			"An attacker who knows Alan's age, gender and zipcode finds them in group " + alanGroup + "'s auxiliary tables, but the join of " +
				"the group's tables gives prod_i |G_ATi| combinations, of which only |G| are records.",
			text[0] + " and " + text[1] + ": at most alpha = " + format.ParamAlpha.Text(res.Values) + " (alpha-presence). " +
				"The paper counts the same from the combinations: C(11,3)/C(12,4) = " + alan.RatString() +
				" and C(8,3)/C(9,4) = " + alice.RatString() + ".",
		},
		Sections: []method.Section{sec},
	}, nil
}

func tourAssociation(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, s, err := runFigure2(ctx, lab)
	if err != nil {
		return method.Step{}, err
	}
	sec := method.Section{Title: "Theorem 5.2: Pr((t,s) in T | t in T) = c / |G|",
		Header: []string{"person", "disease", "c (ST frequency)", "|G|", "probability"}}
	var text []string
	for _, ps := range [][2]string{{"Alan", "diabetes"}, {"Alice", "leukemia"}} {
		_, gi, err := person(in, res, ps[0])
		if err != nil {
			return method.Step{}, err
		}
		a := s.associationOf(gi, ps[1])
		c := a * float64(s.size[gi])
		sec.Rows = append(sec.Rows, []string{ps[0], ps[1], model.FormatNumber(c), fmt.Sprint(s.size[gi]), method.Ratio(a)})
		text = append(text, fmt.Sprintf("Pr((%s, %s) | %s in T) = %s", ps[0], ps[1], ps[0], method.Ratio(a)))
	}
	return method.Step{
		Title: "Association: does Alan have diabetes?",
		Cite:  "Section 1.1; Section 5, Theorem 5.2",
		Text: []string{
			"Given that a person is in the table, the sensitive table says how often each disease occurs in the group: " +
				"every member is equally likely to carry each occurrence.",
			text[0] + " and " + text[1] + ": at most beta = " + format.ParamBeta.Text(res.Values) + " (beta-association).",
		},
		Sections: []method.Section{sec},
	}, nil
}

// estimate answers a query on a result and the truth on the table.
func estimate(res *method.Result, t *model.Table, text string) (float64, float64, error) {
	q, err := query.Parse(text)
	if err != nil {
		return 0, 0, err
	}
	b, err := res.Answerer.Answer(q)
	if err != nil {
		return 0, 0, err
	}
	truth, err := q.Truth(t)
	return b.Estimate, truth.Value, err
}

func tourQueries(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, _, err := runFigure2(ctx, lab)
	if err != nil {
		return method.Step{}, err
	}
	_, gen, err := lab.Run(ctx, figure1bSetup)
	if err != nil {
		return method.Step{}, err
	}
	const q1 = "COUNT(*) WHERE disease = 'stroke' AND age >= 45"
	const q2 = "COUNT(*) WHERE age >= 50 AND zipcode = 23000 AND disease = 'diabetes'"
	sec := method.Section{Title: "count queries: the truth, the ambiguity scheme, the generalized table of Figure 1(b)",
		Header: []string{"query", "true", "ambiguity", "Figure 1(b)"}}
	var est, gens [2]float64
	for i, q := range []string{q1, q2} {
		a, truth, err := estimate(res, in.Table, q)
		if err != nil {
			return method.Step{}, err
		}
		g, _, err := estimate(gen, in.Table, q)
		if err != nil {
			return method.Step{}, err
		}
		est[i], gens[i] = a, g
		sec.Rows = append(sec.Rows, []string{fmt.Sprintf("Q%d", i+1), model.FormatNumber(truth), method.Ratio(a), method.Ratio(g)})
	}
	sec.Notes = []string{"Q1: " + q1, "Q2: " + q2}
	return method.Step{
		Title: "Queries: the scheme keeps each attribute's distribution",
		Cite:  "Section 1.1; Section 6, Algorithm 1, Example 6.1",
		Text: []string{
			"Algorithm 1 estimates a count per group: the ST frequency of the matching sensitive values times, for each " +
				"condition on a quasi-identifier, the fraction of the group's AT values that satisfy it (Example 6.1 " +
				"multiplies the fractions across attributes).",
			fmt.Sprintf("Q1, the stroke patients aged 45 or more, is estimated %s from the scheme and %s from Figure 1(b)'s "+
				"generalized table, whose age range [20, 60] spreads the stroke over 40 years (the truth is 1). Q2 = %s (Example 6.1).",
				method.Ratio(est[0]), method.Ratio(gens[0]), method.Ratio(est[1])),
		},
		Sections: []method.Section{sec},
	}, nil
}
