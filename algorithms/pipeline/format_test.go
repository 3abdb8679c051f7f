package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

// Figures print in fixed notation on the command line (issue 35 polish:
// 2.841e-05 and 9.30723e-14 were printed).
func TestFiguresPrintWithoutExponents(t *testing.T) {
	m, b := 2.841e-05, 9.30723e-14
	got := AttackSummary(releasedir.AttackFigure{Attack: "membership", Figure: "advantage", Measured: &m, Bound: &b})
	if !strings.Contains(got, "advantage 0.00002841 against the bound 0 ") || strings.Contains(got, "e-") {
		t.Errorf("attack summary: %s", got)
	}
	if got := FormatFigure(2.841e-05); got != "0.00002841" {
		t.Errorf("FormatFigure: %s", got)
	}
}

// kja's boxes with a negative lower bound read -2..0, not -2-0 (issue 35
// polish: Figure 5's tour step showed "-2-0 2-4").
func TestNegativeBoxBoundsRead(t *testing.T) {
	env := Env{Datasets: datasets.Catalog{}}
	p := Project{Input: "dataset:kja-fig1", Public: "dataset:kja-fig1-pd", Method: "kja", Variant: "mondrian-refine",
		Roles: model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}, SA: "SA"}, Params: model.Values{"k": "3", "grouping": "column:AT", "seed": "1"}}
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), prep, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, g := range res.Groups {
		labels = append(labels, strings.Join(g.QI, " "))
	}
	if !slices.Contains(labels, "-2..0 2-4") {
		t.Fatalf("box labels %q", labels)
	}
}

// Distribution's groups of zip codes read as the paper writes them, by
// the masking hierarchy's label (Koudas et al. 2009, Figure 2: 911**),
// not as the range 91110-91130 (issue 35 polish).
func TestMaskedGroupsReadAsMasks(t *testing.T) {
	env := Env{Datasets: datasets.Catalog{}}
	p := Project{Input: "dataset:employees", Method: "distribution", Roles: model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
		Hierarchies: map[string]string{"zipcode": "masking"}, Params: model.Values{"grouping": "level:zipcode=2", "target": "uniform", "seed": "1"}}
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), prep, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, g := range res.Groups {
		labels = append(labels, g.QI[0])
	}
	if !slices.Equal(labels, []string{"911**", "912**", "913**"}) {
		t.Fatalf("zip code groups %q", labels)
	}
}
