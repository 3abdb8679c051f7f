package lossyjoin

import (
	"context"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
)

// tourAttack runs on Table 1's release (Tables 5 and 6) the attack Wong
// et al. defend against: an attacker who knows a person's job, birth and
// postcode, and that they are in the table, infers their illness from the
// class's lossy join. Definition 1's alpha bounds the share of any
// illness in a class; the quasi-identifiers are published exactly in the
// NSS table (Section 5), so linkage to a record is not bounded.
func tourAttack(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	fs, err := lab.Attack(ctx, table1, method.Attacker{Original: true})
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
		Title: "The attack it defends against: inferring an illness",
		Cite:  "Definition 1 ((alpha,k)-anonymity); Section 3; Section 5",
		Text: []string{
			"The attacker knows a person's job, birth year and postcode and that they are in Table 1. The NSS table " +
				"gives their class; the SS table (Table 6) gives the class's illnesses, and the lossy join makes each of " +
				"them equally the person's (attribute inference).",
			"The bound is " + inf.BoundBy + ": no illness makes up more than alpha of a class. Attribute inference " +
				method.AttackWords(inf) + ".",
			"What the lossy join hides is the illness, not the record: " + link.Detail + ". Linkage " +
				method.AttackWords(link) + " (" + link.BoundBy + ").",
		},
		Sections: []method.Section{method.AttackSection("attacks on Tables 5 and 6 (the attacker holds Table 1)", fs)},
	}, nil
}
