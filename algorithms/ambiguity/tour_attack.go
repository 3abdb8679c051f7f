package ambiguity

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// tourAttack runs on Figure 2 the attack Wang defends against:
// membership, an attacker who holds a population and asks who of it is
// in the table. Theorem 5.1's attacker knows no more than the release:
// every combination of a group's auxiliary-table values may be a person,
// so presence is |G| / prod_i |G_ATi| (1/3 and 4/9). An attacker who
// holds the patients themselves (no one else has these values) finds each
// group's records among as many people: presence 1, above alpha.
func tourAttack(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, sch, err := runFigure2(ctx, lab)
	if err != nil {
		return method.Step{}, err
	}
	combos, err := combinations(res, figure2Setup.Roles.QIs)
	if err != nil {
		return method.Step{}, err
	}
	wide, err := lab.Attack(ctx, figure2Setup, method.Attacker{Original: true, PopulationTable: combos,
		PopulationName: fmt.Sprintf("the %d combinations of Figure 2's auxiliary tables", combos.Rows)})
	if err != nil {
		return method.Step{}, err
	}
	withPatients := figure2Setup
	withPatients.Population = figure2Setup.Input
	narrow, err := lab.Attack(ctx, withPatients, method.Attacker{Original: true, Population: withPatients.Population,
		PopulationName: fmt.Sprintf("the %d patients", in.Table.Rows)})
	if err != nil {
		return method.Step{}, err
	}
	mw, err := method.AttackNamed(wide, attack.Membership)
	if err != nil {
		return method.Step{}, err
	}
	mn, err := method.AttackNamed(narrow, attack.Membership)
	if err != nil {
		return method.Step{}, err
	}
	inf, err := method.AttackNamed(narrow, attack.Inference)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "The attack it defends against: is this person in the table?",
		Cite:  "Section 4 (alpha-presence); Theorem 5.1; Theorem 5.2",
		Text: []string{
			"Membership: the attacker holds a population, the quasi-identifiers of people who may or may not be in " +
				"the table, and asks who of them is. The bound is " + mw.BoundBy + ".",
			fmt.Sprintf("Theorem 5.1's attacker knows no more than the release: any of the %d combinations of a group's "+
				"auxiliary-table values may be a person, and a group's |G| records are any |G| of its combinations: "+
				"presence %s. Membership %s (%s).", combos.Rows, presences(res, sch), method.AttackWords(mw), mw.Detail),
			fmt.Sprintf("An attacker who holds the %d patients themselves, and knows no one else with these values, finds each "+
				"group's records among as many people: membership %s (%s). Theorem 5.1 holds only against an attacker "+
				"who cannot tell which combinations are real people.", in.Table.Rows, method.AttackWords(mn), mn.Detail),
			"Association is bounded whoever the attacker holds: attribute inference " + method.AttackWords(inf) +
				" (" + inf.BoundBy + ").",
		},
		Sections: []method.Section{
			method.AttackSection(fmt.Sprintf("attacks on Figure 2, the population the %d combinations", combos.Rows), wide),
			method.AttackSection(fmt.Sprintf("attacks on Figure 2, the population the %d patients", in.Table.Rows), narrow),
		},
		Setup: withPatients,
	}, nil
}

// combinations is Theorem 5.1's population: every combination of a
// group's published auxiliary-table values, group by group, as a table of
// the quasi-identifiers (read from the release's at_QI.csv files, as the
// attacker reads them).
func combinations(res *method.Result, qis []string) (*model.Table, error) {
	rel, _, err := res.Release(1)
	if err != nil {
		return nil, err
	}
	values := make([]map[string][]string, len(qis)) // per QI: GroupID -> values
	var groups []string
	for i, q := range qis {
		f, ok := method.ReleaseFile(rel, "at_"+q+".csv")
		if !ok {
			return nil, fmt.Errorf("the release has no at_%s.csv", q)
		}
		values[i] = map[string][]string{}
		rec := make([]string, len(f.Header))
		for r := 0; r < f.Rows; r++ {
			f.Fill(r, rec)
			if i == 0 && len(values[i][rec[1]]) == 0 {
				groups = append(groups, rec[1])
			}
			values[i][rec[1]] = append(values[i][rec[1]], rec[0])
		}
	}
	b := releasedir.AppendCSVRecord(nil, qis)
	for _, g := range groups {
		row := make([]string, len(qis))
		var emit func(i int)
		emit = func(i int) {
			if i == len(qis) {
				b = releasedir.AppendCSVRecord(b, row)
				return
			}
			for _, v := range values[i][g] {
				row[i] = v
				emit(i + 1)
			}
		}
		emit(0)
	}
	return csvfile.Load(bytes.NewReader(b), csvfile.LoadOptions{Name: "combinations"})
}

// presences writes each group's presence of Theorem 5.1 ("1/3 in group
// 1, 4/9 in group 2").
func presences(res *method.Result, s *scheme) string {
	var out []string
	for gi := range s.size {
		out = append(out, fmt.Sprintf("%s in group %d", method.Ratio(s.presence(gi)), res.Groups[gi].ID))
	}
	return strings.Join(out, ", ")
}
