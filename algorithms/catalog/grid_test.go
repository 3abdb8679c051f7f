package catalog_test

import (
	"fmt"
	"slices"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
)

// TestGrids holds every method's advisor grid (method.Spec.Grid) to what
// privlab advise needs: about eight settings, each a valid setting of the
// method (a variant it has, values it reads and accepts) and no two alike.
func TestGrids(t *testing.T) {
	p := env.WithDefaults(pipeline.Project{Input: "dataset:census", Rows: 2000})
	tab, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range catalog.All() {
		spec := m.Spec()
		for _, public := range []bool{false, true} {
			if spec.Public == method.NoPublic && public {
				continue
			}
			grid := spec.GridOf(tab, p.Roles, public)
			if len(grid) < 6 || len(grid) > 12 {
				t.Errorf("%s (public %v): %d grid points, want about 8", spec.Name, public, len(grid))
			}
			seen := map[string]bool{}
			for _, g := range grid {
				key := fmt.Sprint(g.Variant, g.Values)
				if seen[key] {
					t.Errorf("%s: grid point %s twice", spec.Name, key)
				}
				seen[key] = true
				if g.Variant != "" && !slices.Contains(spec.Variants, g.Variant) {
					t.Errorf("%s: grid variant %q is not one of %v", spec.Name, g.Variant, spec.Variants)
				}
				if _, err := spec.Validate(g.Values, tab.Rows); err != nil {
					t.Errorf("%s: grid point %s: %v", spec.Name, key, err)
				}
			}
		}
	}
}
