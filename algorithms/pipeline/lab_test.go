package pipeline

import (
	"context"
	"strings"
	"testing"

	"privlab/algorithms/workload"
	"privlab/datasets"
	"privlab/model"
)

// TestLabRunsDeclaredBaselinesOnly: a study's lab runs its method and the
// baselines its Spec declares, and refuses any other method or variant,
// so a study cannot name a method the catalog does not check.
func TestLabRunsDeclaredBaselinesOnly(t *testing.T) {
	env := Env{Datasets: datasets.Catalog{}}
	proj := Project{Input: "dataset:patients", Method: "ambiguity",
		Roles: model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"}}
	src, err := env.LoadTable(env.WithDefaults(proj))
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(proj, src)
	if err != nil {
		t.Fatal(err)
	}
	lab := env.Lab(prep, workload.Options{Queries: 10, Seed: 1})
	ctx := context.Background()
	if _, err := lab.Run(ctx, "kja", "mondrian", model.Values{"k": "2"}, lab.Input); err != nil {
		t.Errorf("the declared baseline kja mondrian: %v", err)
	}
	if _, err := lab.Run(ctx, "ambiguity", "", nil, lab.Input); err != nil {
		t.Errorf("the method itself: %v", err)
	}
	for _, mv := range [][2]string{{"kja", "topdown"}, {"lossyjoin", ""}} {
		_, err := lab.Run(ctx, mv[0], mv[1], nil, lab.Input)
		if err == nil || !strings.Contains(err.Error(), "does not declare as a baseline") {
			t.Errorf("%s %s: %v, want refused as undeclared", mv[0], mv[1], err)
		}
	}
}
