package check_test

import (
	"strings"
	"testing"
)

// TestBoundsExact: the patients release (alpha = beta = 0.5) has groups
// at presence 1/2 and association 1/2. Restated with 0.4999999999 either
// bound fails its line, which a tolerance of 1e-9 let pass (issue 18.5);
// as stated it passes.
func TestBoundsExact(t *testing.T) {
	dir, prep := export(t, patientsProject())
	if rep := check(t, dir, prep.Source, true); !rep.OK() {
		t.Fatalf("the release fails:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	for param, line := range map[string]string{"alpha": "alpha-presence", "beta": "beta-association"} {
		for _, below := range []string{"0.4999999999", "0.49999999999999999999"} {
			bad := copyDir(t, dir)
			rehash(t, bad, func(m map[string]any) {
				m["parameters"].(map[string]any)[param] = below
				for _, w := range m["worst_cases"].([]any) {
					if w.(map[string]any)["limit"] == "0.5" && strings.Contains(w.(map[string]any)["name"].(string), map[string]string{"alpha": "presence", "beta": "association"}[param]) {
						w.(map[string]any)["limit"] = below
					}
				}
			})
			if rep := check(t, bad, prep.Source, true); !has(failing(rep), line) {
				t.Errorf("%s restated to %s: %s passes\n%s", param, below, line, strings.Join(rep.Strings(), "\n"))
			}
		}
	}
}
