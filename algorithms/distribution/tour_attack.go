package distribution

import (
	"context"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
)

// tourAttack runs on Figure 2's release the attack Koudas et al. defend
// against: an attacker who knows an employee is in the table and their
// zip code and gender infers their salary from the group's generalized
// values. Definition 3.2 makes every tuple's value appear to follow the
// target P' (uniform: 1/4 per salary), so no belief exceeds 1/4; the
// quasi-identifiers themselves are published unchanged (Section 3), so
// linkage is not bounded.
func tourAttack(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	fs, err := lab.Attack(ctx, figure2, method.Attacker{Original: true})
	if err != nil {
		return method.Step{}, err
	}
	inf, err := method.AttackNamed(fs, attack.Inference)
	if err != nil {
		return method.Step{}, err
	}
	link, err := method.AttackNamed(fs, attack.Linkage)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "The attack it defends against: inferring a salary",
		Cite:  "Section 3.1, Definition 3.2; Section 3 (the quasi-identifiers published)",
		Text: []string{
			"The attacker knows an employee is in the table and their zip code and gender, and reads what the release " +
				"says of their salary: every subdomain of their group that may be theirs, weighted as the release weights it " +
				"(attribute inference, homogeneity and skew).",
			"Definition 3.2's guarantee: every tuple's salary appears to follow the target P', here uniform over four " +
				"salaries, so the bound is " + inf.BoundBy + ". Attribute inference " + method.AttackWords(inf) + ".",
			"The zip codes and genders are published as they are: " + link.Detail + ". The paper does not hide who is " +
				"who, only what they earn: linkage " + method.AttackWords(link) + " (" + link.BoundBy + ").",
		},
		Sections: []method.Section{method.AttackSection("attacks on Figure 2's release (the attacker holds the employees' table)", fs)},
	}, nil
}
