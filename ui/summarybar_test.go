package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// TestSummaryBarFigures: summary figures a method marks with Bar appear
// in the summary bar even when they hold (the sampling method's worst
// margin and suppressed share).
func TestSummaryBarFigures(t *testing.T) {
	m, err := catalog.Lookup("sampling")
	if err != nil {
		t.Skip("sampling is not registered")
	}
	ex := m.Spec().Example
	a := newApp(testEnv, pipeline.Project{Input: ex.Input, Roles: ex.Roles, Method: "sampling", Params: ex.Params.Clone()})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	settle(t, a, a.schedule())
	if a.st.Result == nil {
		t.Fatalf("no result: %v %v", a.st.LoadErr, a.st.RunErr)
	}
	v := a.View()
	for _, want := range []string{"✓ private", "margin 0.000394", "suppr % 6.45", "avg δ 0.124"} {
		if !strings.Contains(v, want) {
			t.Errorf("the summary bar lacks %q:\n%s", want, v)
		}
	}
}

// TestGoldenSummaryBarVerdicts: the bar shows the method's definition
// (✓ private, or the groups that violate it) and, apart, what the
// attacks measured, each in its own colour and never clipped: every
// success in full where the line has room, else the worst alone ("⚠ 3909
// re-identified", "✗ 8 certainly present", "✓ attacks hold"), the lesser
// figures and the gist of the tick giving way first.
func TestGoldenSummaryBarVerdicts(t *testing.T) {
	t.Parallel()
	pts := model.Roles{IDs: []string{"name"}, QIs: []string{"QI1", "QI2"}, SA: "SA"}
	cases := []struct {
		name                string
		p                   pipeline.Project
		definition          string
		full, compact       string
		fullAt80, fullAt120 bool
	}{
		{"census", pipeline.Project{Input: "dataset:census", Method: "distribution"},
			"✓ private", "⚠ 3909 records re-identified", "⚠ 3909 re-identified", false, false},
		{"distribution", pipeline.Project{Input: "dataset:employees", Method: "distribution", Roles: model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
			Params: model.Values{"grouping": "level:zipcode=2", "target": "uniform", "seed": "1"}},
			"✓ private", "⚠ 9 records re-identified · 9 people singled out", "⚠ 9 re-identified", false, false},
		{"ambiguity", pipeline.Project{Input: "dataset:patients", Method: "ambiguity", Population: "dataset:patients",
			Roles:  model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"},
			Params: model.Values{"alpha": "0.5", "beta": "0.5", "grouping": "column:gender", "seed": "1"}},
			"✗ 1 group violates", "✗ 8 people singled out · 8 people certainly present", "✗ 8 certainly present", false, false},
		{"kja", pipeline.Project{Input: "dataset:kja-fig1", Public: "dataset:kja-fig1-pd", Method: "kja", Variant: "mondrian-refine", Roles: pts,
			Params: model.Values{"k": "3", "grouping": "column:AT", "seed": "1"}},
			"✓ private", "✓ no attack succeeds", "✓ attacks hold", true, true},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{80, 24}, {120, 30}} {
			a := newApp(testEnv, c.p)
			a.st.Now = fixedClock
			a.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			settle(t, a, a.schedule())
			if a.st.Result == nil || a.st.Attacks == nil {
				t.Fatalf("%s: no result or attacks: %v %v", c.name, a.st.LoadErr, a.st.RunErr)
			}
			v := a.View()
			bar := " │ " + strings.TrimSpace(summaryLine(a)) + " │ "
			attack := c.compact
			if size[0] == 80 && c.fullAt80 || size[0] == 120 && c.fullAt120 {
				attack = c.full
			}
			if !strings.HasPrefix(bar, " │ "+c.definition+" │ "+attack+" │ ") && !strings.HasPrefix(bar, " │ "+c.definition+": ") {
				t.Errorf("%s at %dx%d: the bar does not open on %q, then %q:\n%s", c.name, size[0], size[1], c.definition, attack, bar)
			}
			if !strings.Contains(bar, " │ "+attack+" │ ") {
				t.Errorf("%s at %dx%d: the bar lacks %q:\n%s", c.name, size[0], size[1], attack, bar)
			}
			t.Run(fmt.Sprintf("%s %dx%d", c.name, size[0], size[1]), func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(v)) })
		}
	}
}
