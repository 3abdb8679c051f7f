package sampling

import (
	"context"
	"fmt"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
)

// tourAttack runs on the clinic population's release the attack Sattar
// et al. defend against: an attacker who knows a person's age and sex
// reads the published group's diseases, and is confident in one at most
// as the public marginals let anyone expect (Eq. 3: the observed
// confidence beta·#s/|E| of Eq. 2 at most the expected 1-(1-Pr(t))^n of
// Eq. 1). The same check is redone under the marginals the attacker
// computes from the population itself (here the release's: the table is
// the population of Section 3's marginals).
func tourAttack(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	withPeople := population
	withPeople.Population = population.Input
	fs, err := lab.Attack(ctx, withPeople, method.Attacker{Original: true, Population: withPeople.Population,
		PopulationName: "the clinic's 20 patients"})
	if err != nil {
		return method.Step{}, err
	}
	inf, err := method.AttackNamed(fs, attack.Inference)
	if err != nil {
		return method.Step{}, err
	}
	eq3, err := method.AttackNamed(fs, eq3Attack)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "The attack it defends against: confidence in a disease",
		Cite:  "Section 3, Definitions 5 and 6, Eq. 1; Section 4, Eq. 2; Eq. 3",
		Text: []string{
			"The attacker knows a patient's age and sex and that they were sampled, finds the published group that " +
				"covers them and reads its diseases: beta times the share of a disease in the group is the observed " +
				"confidence of Eq. 2 (attribute inference).",
			"The bound is " + inf.BoundBy + ": no record's observed confidence may exceed what the public marginals " +
				"let anyone expect. At the record that comes closest to its cap, attribute inference " + method.AttackWords(inf) + ".",
			fmt.Sprintf("Eq. 3 caps the confidence, not the belief: %s. Where the marginals already make a disease likely, "+
				"the release may show it for certain and Eq. 3 still holds: here %s.", inf.Detail, people(inf.Records)+
				" of the 20 are given their own disease with a belief of 0.9 or more"),
			"An attacker may compute Pr(t) from other marginals than the release's; here they count the population's own " +
				"values, which are Section 3's: Eq. 3 redone under them " + method.AttackWords(eq3) + " (" + eq3.Detail + ").",
		},
		Sections: []method.Section{method.AttackSection("attacks on the clinic's release (the attacker holds the 20 patients)", fs)},
		Setup:    withPeople,
	}, nil
}

// eq3Attack is the name the checker gives its attack of Eq. 3 under
// other marginals (sampling/check; the checker never imports the method,
// nor the method its checker).
const eq3Attack = "Eq. 3 under other marginals"

// people writes a count of people.
func people(n int) string {
	if n == 1 {
		return "1 patient"
	}
	return fmt.Sprintf("%d patients", n)
}
