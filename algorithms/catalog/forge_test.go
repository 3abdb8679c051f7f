package catalog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
)

// Every method's release, forged as anyone holding it could (the manifest
// edited, every hash re-computed, report.md rendered anew): check must
// fail, naming the claim, for each edit of the manifest's words and
// figures that no method-specific line covers (issue: a check that proves
// every claim).
func TestForgedClaimsFailForEveryMethod(t *testing.T) {
	releases := exampleReleases(t)
	edits := []struct {
		name string
		want string // a failing line's name
		edit func(m map[string]any)
	}{
		{"certifies", "declaration", func(m map[string]any) { m["certifies"] = "every individual is perfectly hidden" }},
		{"title", "declaration", func(m map[string]any) { m["title"] = "a safer method" }},
		{"paper", "declaration", func(m map[string]any) { m["paper"] = "Somebody 2030" }},
		{"variant", "declaration", func(m map[string]any) { m["variant"] = "fast" }},
		{"a parameter the method does not read", "declaration", func(m map[string]any) { m["parameters"].(map[string]any)["epsilon"] = "0.1" }},
		{"a verification line", "claim checks", func(m map[string]any) {
			checks := m["checks"].([]any)
			for i, c := range checks {
				s := c.(string)
				if !strings.HasPrefix(s, "ok   files") && !strings.HasPrefix(s, "ok   contents") && !strings.HasPrefix(s, "ok   declaration") &&
					!strings.HasPrefix(s, "ok   claims") && !strings.HasPrefix(s, "ok   faithful") {
					checks[i] = s + " (and every group holds at least 1000 rows)"
					return
				}
			}
		}},
		{"verified", "claim verified", func(m map[string]any) { m["verified"] = false }},
		{"a risk figure", "claim risk.smallest class", func(m map[string]any) {
			for _, f := range m["risk"].([]any) {
				if fig := f.(map[string]any); fig["name"] == "smallest class" {
					fig["value"] = fig["value"].(float64) + 100
				}
			}
		}},
		{"a risk figure's meaning", "claim risk.smallest class", func(m map[string]any) {
			for _, f := range m["risk"].([]any) {
				if fig := f.(map[string]any); fig["name"] == "smallest class" {
					fig["help"] = "how safe everyone is"
				}
			}
		}},
		{"the plain-words summary", "claim risk_summary", func(m map[string]any) { m["risk_summary"] = "Everyone is safe." }},
		{"groups", "claim groups", func(m map[string]any) { m["groups"] = m["groups"].(float64) + 1 }},
		{"rows_published", "claim rows_published", func(m map[string]any) { m["rows_published"] = m["rows_published"].(float64) + 1 }},
	}
	for i, rel := range releases {
		method := catalog.Names()[i]
		t.Run(method, func(t *testing.T) {
			for _, e := range edits {
				t.Run(e.name, func(t *testing.T) {
					dir := copyDir(t, rel)
					verifytest.Restate(t, dir, e.edit)
					rep, err := catalogtest.Check(dir, verify.Options{})
					if err != nil {
						t.Fatalf("check: %v", err)
					}
					if rep.OK() {
						t.Fatalf("a forged %s passes:\n%s", e.name, strings.Join(rep.Strings(), "\n"))
					}
					found := false
					for _, l := range rep.Lines {
						if !l.OK && l.Name == e.want {
							found = true
						}
					}
					if !found {
						t.Fatalf("no failing %q line:\n%s", e.want, strings.Join(rep.Strings(), "\n"))
					}
				})
			}
			// manifest.json as a link to a copy outside the release: refused,
			// nothing outside the release is read.
			t.Run("manifest link", func(t *testing.T) {
				dir := copyDir(t, rel)
				outside := filepath.Join(t.TempDir(), "manifest.json")
				b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
				os.WriteFile(outside, b, 0o644)
				os.Remove(filepath.Join(dir, "manifest.json"))
				if err := os.Symlink(outside, filepath.Join(dir, "manifest.json")); err != nil {
					t.Skip(err)
				}
				if _, err := catalogtest.Check(dir, verify.Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
					t.Fatalf("a linked manifest: %v", err)
				}
			})
		})
	}
}
