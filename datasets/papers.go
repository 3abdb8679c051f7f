package datasets

import "privlab/model"

// The worked examples of Sacharidis, Mouratidis, Papadias, "k-Anonymity in
// the Presence of External Databases": the paper draws its points without
// coordinates, so the coordinates here are derived so that every
// statement the text makes about them holds (the tests of
// algorithms/kja assert each one on these tables):
//
//   - kja-fig3 (A-M) and kja-fig8 (N-Z), Figures 3 and 8: Mondrian with
//     k = 3 first splits QI1 at C's value (6 and 7 tuples), then QI2 at
//     A's and F's values: groups ABD, CHI, EFG, JKLM. Refinement with the
//     public points: the box of JKLM is split again; the group of public
//     points T, U, V, W has no microdata tuple and is discarded, and the
//     group of L, M, Y, Z drops Z, which only enlarges its box.
//   - kja-fig1 (A-G) and kja-fig1-pd, Figures 1, 2, 5, 6 and 7: PD holds
//     MT's people except D, and G1, G2 (G's QI values), U, V, X, Y. The
//     k-anonymous table AT of Figure 2 is not the output of an algorithm
//     in the paper (no single Mondrian cut gives its boxes and Figure
//     7's coverages), so its two groups are the column AT, which kja's
//     grouping=column:AT takes as the first-round grouping. The boxes
//     have half-perimeters 8 and 10 (NCP 62, DM 25), the range [0,4] x
//     (2,4] covers 2/3 of g1 and 1/3 of g2 and holds C and D;
//     Refinement with PD gives Figure 5's JAT {A,B,U} {C,D,V} {E,F,Y}
//     {G,G1,G2}: NCP 2*4+2*4+2*4+1*0 = 24, DM 13.
//
// The paper omits sensitive values from Figure 3 ("we omit SA from our
// illustrations"); kja-fig3's SA column holds placeholders v1, v2, v3
// in turn. Figure 1's are the paper's (A v1; C, D v1, v2; Figure 7's
// distributions give E, F, G one each of v1, v2, v3).

func kjaFig3() Dataset {
	return Dataset{
		Name:        "kja-fig3",
		Title:       "microdata MT: the 13 points A-M that Mondrian splits (k = 3)",
		Source:      "Sacharidis, Mouratidis, Papadias, Figure 3 and Section 2.2 (coordinates derived from the text; SA placeholders)",
		Fixed:       true,
		DefaultRows: 13,
		Columns:     []string{"name", "QI1", "QI2", "SA"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}, SA: "SA"},
		Hierarchies: map[string]string{"name": "flat", "QI1": "intervals:4", "QI2": "intervals:4", "SA": "flat"},
		table:       "kja-fig3.csv",
	}
}

func kjaFig8() Dataset {
	return Dataset{
		Name:        "kja-fig8",
		Title:       "public database PD: the 13 points N-Z that Refinement uses with kja-fig3",
		Source:      "Sacharidis, Mouratidis, Papadias, Figure 8 and Section 4 (coordinates derived from the text)",
		Fixed:       true,
		DefaultRows: 13,
		Columns:     []string{"name", "QI1", "QI2"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}},
		Hierarchies: map[string]string{"name": "flat", "QI1": "intervals:4", "QI2": "intervals:4"},
		table:       "kja-fig8.csv",
	}
}

func kjaFig1() Dataset {
	return Dataset{
		Name:        "kja-fig1",
		Title:       "microdata MT: the 7 points A-G, with Figure 2's anonymized groups in column AT",
		Source:      "Sacharidis, Mouratidis, Papadias, Figures 1, 2, 6 and 7 (coordinates derived from the text)",
		Fixed:       true,
		DefaultRows: 7,
		Columns:     []string{"name", "QI1", "QI2", "SA", "AT"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}, SA: "SA"},
		Hierarchies: map[string]string{"name": "flat", "QI1": "intervals:2", "QI2": "intervals:2", "SA": "flat", "AT": "flat"},
		table:       "kja-fig1.csv",
	}
}

func kjaFig1PD() Dataset {
	return Dataset{
		Name:        "kja-fig1-pd",
		Title:       "public database PD of kja-fig1: MT's people but D, and G1, G2, U, V, X, Y",
		Source:      "Sacharidis, Mouratidis, Papadias, Figures 1 and 5 (coordinates derived from the text)",
		Fixed:       true,
		DefaultRows: 12,
		Columns:     []string{"name", "QI1", "QI2"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}},
		Hierarchies: map[string]string{"name": "flat", "QI1": "intervals:2", "QI2": "intervals:2"},
		table:       "kja-fig1-pd.csv",
	}
}

// clinic is the data before anonymization of Sattar, Li, Ding, Liu,
// Vincent, Table 2. Ages are published in intervals of at least five
// years (Section 4: "the generalized value of age 22 should be 20-25");
// the zip code hierarchy masks digits.
func clinic() Dataset {
	return Dataset{
		Name:        "clinic",
		Title:       "patient records: the worked example of sampling and generalization",
		Source:      "Sattar, Li, Ding, Liu, Vincent, Table 2",
		Fixed:       true,
		DefaultRows: 4,
		Columns:     []string{"name", "age", "sex", "zipcode", "disease"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"age", "sex", "zipcode"}, SA: "disease"},
		Hierarchies: map[string]string{"name": "flat", "age": "intervals:5,10,20", "sex": "flat", "zipcode": "masking", "disease": "flat"},
		table:       "clinic.csv",
	}
}

// clinicPopulation is a patient table built for the tour of Sattar et
// al. so that its own marginals are those of their Section 3 example:
// Pr(age in 20-30) = 3/20 = 0.15, Pr(female) = 10/20 = 0.5 and
// Pr(diabetes) = 1/20 = 0.05, so the record t = {20-30, female,
// diabetes} (Ann) has Pr(t) = 0.00375 under the table's marginals, as the
// paper's experiments take them (Section 6). The paper prints no such
// table; Table 2's four records are dataset clinic.
func clinicPopulation() Dataset {
	return Dataset{
		Name:        "clinic-population",
		Title:       "20 patients whose own marginals are Section 3's (Pr(t) = 0.00375 for Ann)",
		Source:      "built for Sattar, Li, Ding, Liu, Vincent, Section 3 (Definition 5's example marginals)",
		Fixed:       true,
		DefaultRows: 20,
		Columns:     []string{"name", "age", "sex", "disease"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"age", "sex"}, SA: "disease"},
		Hierarchies: map[string]string{"name": "flat", "age": "intervals:10,20,40", "sex": "flat", "disease": "flat"},
		table:       "clinic-population.csv",
	}
}
