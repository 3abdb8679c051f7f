package datasets

import (
	"bufio"
	"fmt"

	"privlab/model"
)

// universePublic is the public database PD of the universe generator
// (Sacharidis, Mouratidis, Papadias, Section 5: PD is drawn from the same
// population as MT and contains MT's individuals): persons 0..rows-1 of the
// universe of the seed, with their id and the six QIs and no sensitive
// attribute, in an order shuffled with the seed. Asked for rows N it
// writes N people, so it contains the people of dataset:universe for any
// |MT| <= N with the same seed; the defaults (10,000 for universe, 100,000
// here) give |PD|/|MT| = 10. With rows N it is byte for byte the pd.csv of
// `privlab gen universe --rows M --ratio N/M` for the same seed.
func universePublic() Dataset {
	return Dataset{
		Name:        "universe-public",
		Title:       "public database PD of the universe: its first N people (10x universe's default), ids and QIs only",
		Source:      "Sacharidis, Mouratidis, Papadias, k-join-anonymity, Section 5 (PD contains MT's people)",
		DefaultRows: 100000,
		Columns:     append([]string{"id"}, universeQIs...),
		Roles:       model.Roles{IDs: []string{"id"}, QIs: universeQIs},
		Hierarchies: map[string]string{
			"id":              "flat",
			"age":             "intervals:5,10,20",
			"income":          "intervals:10000,50000,100000,500000",
			"family-size":     "intervals:2,4,8",
			"education-years": "intervals:2,4,8",
			"rent":            "intervals:100,500,1000",
			"sex":             "flat",
		},
		gen: writePD,
	}
}

// writePD writes persons 0..rows-1 in the order WriteUniverse gives pd.csv.
func writePD(w *bufio.Writer, rows int, seed uint64) error {
	if rows > maxUniverse {
		return fmt.Errorf("universe-public: at most %d rows", maxUniverse)
	}
	return writePeople(w, model.NewRand(splitmix(seed^0x7064)).Perm(rows), seed, false)
}
