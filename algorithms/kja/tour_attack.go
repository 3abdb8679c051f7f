package kja

import (
	"context"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
)

// tourAttack runs on Figure 2's AT and Figure 5's JAT the attack
// Sacharidis et al. defend against: the journalist, who holds the public
// database PD (and so the identities and coordinates of MT's people in
// it), links a published box to the people it covers. Theorem 2: every
// box holds at least k JT tuples, so a victim is breached with
// probability at most 1/|g| <= 1/k (Section 3.1).
func tourAttack(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	holds := method.Attacker{Original: true, Public: true}
	at, err := lab.Attack(ctx, figure2, holds)
	if err != nil {
		return method.Step{}, err
	}
	jat, err := lab.Attack(ctx, figure5, holds)
	if err != nil {
		return method.Step{}, err
	}
	linkAT, err := method.AttackNamed(at, attack.Linkage)
	if err != nil {
		return method.Step{}, err
	}
	linkJAT, err := method.AttackNamed(jat, attack.Linkage)
	if err != nil {
		return method.Step{}, err
	}
	inf, err := method.AttackNamed(jat, attack.Inference)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "The attack it defends against: linking a box to a person",
		Cite:  "Section 3.1 (breach probability 1/|g|); Theorem 2; Section 3.2",
		Text: []string{
			"The journalist holds the public database PD: the names and coordinates of its people, who may or may not " +
				"be in MT. A published box could be any of the people it covers, so linking it to one of them is right " +
				"with probability 1/|people covered| (re-identification by linkage, the breach probability 1/|g| of Section 3.1).",
			"The bound is " + linkJAT.BoundBy + ". On AT, linkage " + method.AttackWords(linkAT) +
				"; on JAT, whose smaller boxes hold public tuples, linkage " + method.AttackWords(linkJAT) + ".",
			"k hides who a tuple is, not what they have: attribute inference on JAT " + method.AttackWords(inf) +
				" (" + inf.BoundBy + ").",
		},
		Sections: []method.Section{
			method.AttackSection("attacks on Figure 2's AT (the attacker holds MT and PD)", at),
			method.AttackSection("attacks on Figure 5's JAT (the attacker holds MT and PD)", jat),
		},
		Setup: figure5,
	}, nil
}
