package ui

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/releasedir"
)

// TestGoldenExportPlanAttacks: the Export plan lists what an attacker
// can still do with the release it would write (SPEC 3.7), and the
// summary bar shows the attacks' verdict beside the method's own.
func TestGoldenExportPlanAttacks(t *testing.T) {
	a := ready(t, "dataset:employees", 100, 40)
	press(t, a, "7")
	view := a.View()
	for _, want := range []string{"what an attacker can still do", "re-identification by linkage: not bounded", "attribute inference: not bounded", "beyond the prior",
		"membership: not run", "│ ⚠ 9 re-identified │"} {
		if !strings.Contains(view, want) {
			t.Errorf("the export plan does not show %q:\n%s", want, view)
		}
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// TestAttackVerdict: the bar's attack verdict lists what each attack
// succeeds on in full, and the worst alone in compact (a broken bound
// before a larger unbounded success), and says whether one broke its
// bound (shown in the error colour, apart from the method's own tick); a
// bound broken on no one for certain is never "none succeeds".
func TestAttackVerdict(t *testing.T) {
	holds := risk.Finding{Attack: "attribute inference", Measured: 0.5, Bound: 0.5}
	broken := risk.Finding{Attack: "membership", Measured: 1, Bound: 0.5, Records: 12, Short: "12 people certainly present", Brief: "12 certainly present"}
	loose := risk.Finding{Attack: "re-identification by linkage", Measured: 1, Bound: math.NaN(), Records: 30, Short: "30 records re-identified", Brief: "30 re-identified"}
	over := risk.Finding{Attack: "attribute inference", Measured: 0.6, Bound: 0.5}
	notRun := risk.Finding{Attack: "membership", Measured: math.NaN(), Bound: math.NaN(), NotRun: "needs --population FILE"}
	for _, c := range []struct {
		findings      []risk.Finding
		full, compact string
		broken        bool
	}{
		{[]risk.Finding{holds}, "✓ no attack succeeds", "✓ attacks hold", false},
		{[]risk.Finding{holds, notRun}, "✓ no attack succeeds (1 not run)", "✓ attacks hold (1 not run)", false},
		{[]risk.Finding{loose, holds}, "⚠ 30 records re-identified", "⚠ 30 re-identified", false},
		{[]risk.Finding{loose, holds, broken}, "✗ 30 records re-identified · 12 people certainly present", "✗ 12 certainly present", true},
		{[]risk.Finding{over}, "✗ attribute inference over its bound", "✗ attribute inference over its bound", true},
	} {
		v := verdictOf(c.findings)
		if v.full != c.full || v.compact != c.compact || v.broken != c.broken {
			t.Errorf("verdictOf = %q, %q, %v; want %q, %q, %v", v.full, v.compact, v.broken, c.full, c.compact, c.broken)
		}
	}
}

// TestGoldenExportPopulation (issue 19, item 3): on the Export pane P
// sets the population the plan's attacks and the export read; before
// one is set, the plan names the attacks that did not run for lack of
// it; the project keeps it, the manifest states membership against it,
// and check recomputes it with the same file.
func TestGoldenExportPopulation(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("name,zipcode,gender\n")
	for _, r := range [][3]string{{"Alice", "91110", "F"}, {"Bob", "91110", "M"}, {"Carol", "91110", "M"}, {"Debra", "91130", "F"},
		{"Elaine", "91210", "F"}, {"Grace", "91220", "F"}, {"Helen", "91240", "F"}, {"Jason", "91310", "M"}, {"Kyle", "91320", "M"},
		{"Leo", "91330", "M"}, {"Nancy", "91340", "F"}, {"Oscar", "91110", "M"}, {"Paula", "91130", "F"}, {"Quinn", "91330", "M"}} {
		b.WriteString(strings.Join(r[:], ",") + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "town.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after string
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 100, 40)
		press(t, a, "7")
		before = a.View()
		if !strings.Contains(before, "population none: not run for lack of a population: membership (p: pick, P: type)") {
			t.Fatalf("the plan does not say membership lacks a population:\n%s", before)
		}
		press(t, a, "P", "ctrl+u", "town.csv", "enter")
		settle(t, a, a.schedule())
		after = a.View()
		if a.st.Project.Population != "town.csv" || a.st.AttacksErr != nil {
			t.Fatalf("population %q, attacks error %v", a.st.Project.Population, a.st.AttacksErr)
		}
		for _, want := range []string{"population town.csv", "membership: not bounded · measured 1", "people certainly present"} {
			if !strings.Contains(after, want) {
				t.Errorf("with the population the plan lacks %q:\n%s", want, after)
			}
		}
		if strings.Contains(after, "for lack of a population") {
			t.Errorf("the plan still says a population is lacking:\n%s", after)
		}
		press(t, a, "enter")
		settle(t, a, nil)
		m, err := releasedir.ReadManifest("release-employees-distribution")
		if err != nil {
			t.Fatalf("no release: %v (%s)", err, a.View())
		}
		var membership *releasedir.AttackFigure
		for i := range m.Attacks {
			if m.Attacks[i].Attack == "membership" {
				membership = &m.Attacks[i]
			}
		}
		// The QIs are published as they are: certainly present is every
		// employee whom no other townsperson shares a zip code and gender
		// with (Bob and Carol share with Oscar, Debra with Paula, Leo with
		// Quinn): 7 of the 11.
		if membership == nil || membership.NotRun != "" || !slices.Contains(membership.Needs, "population") || membership.Records != 7 {
			t.Fatalf("the manifest states membership as %+v", membership)
		}
		k := &risk.Knowledge{}
		if k.Original, err = testEnv.LoadTable(pipeline.Project{Input: "dataset:employees"}); err != nil {
			t.Fatal(err)
		}
		if k.Population, _, err = testEnv.LoadPopulation("town.csv", nil, 0); err != nil {
			t.Fatal(err)
		}
		rep, err := (pipeline.Env{}).CheckWith("release-employees-distribution", k)
		if err != nil || !rep.OK() || !strings.Contains(strings.Join(rep.Strings(), "\n"), "attacks the manifest states agree with the files") {
			t.Fatalf("check with the population: %v\n%s", err, strings.Join(rep.Strings(), "\n"))
		}
	})
	t.Run("before", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(before)) })
	t.Run("after", func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(after)) })
}

// TestGoldenCompareBrokenBound: Compare's attack lines mark the best of
// each like every other line (*), and a broken bound with ✗ first, in
// the error colour even when it is the best: on Wang's patients with the
// patients as the population, ambiguity's membership bound breaks
// (people certainly present against alpha = 0.5).
func TestGoldenCompareBrokenBound(t *testing.T) {
	a := newApp(testEnv, pipeline.Project{Input: "dataset:patients", Method: "ambiguity", Population: "dataset:patients",
		Roles: model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"}, Params: model.Values{"seed": "1"}})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, a, a.schedule())
	press(t, a, "9", strings.Repeat("-", 8)) // k 10 -> 2: every method runs on the 8 patients
	press(t, a, "enter")
	settle(t, a, nil)
	// compare's TestBrokenBoundIsBestAndMarked holds the cell to the
	// attack's finding.
	if v := ansi.Strip(a.View()); !strings.Contains(v, "k = 2 where") || !regexp.MustCompile(`attack: membership +.*✗ \d+\*`).MatchString(v) {
		t.Errorf("no membership line with a broken bound as the best:\n%s", v)
	}
	teatest.RequireEqualOutput(t, []byte(a.View()))
}

// TestAttacksNotMeasured: a population that does not load is said on the
// bar and on the Export pane, not silently left out (the attacks' error
// was dropped and the bar showed no attack verdict at all).
func TestAttacksNotMeasured(t *testing.T) {
	a := newApp(testEnv, pipeline.Project{Input: "dataset:employees", Method: "distribution", Population: filepath.Join(t.TempDir(), "nosuch.csv")})
	a.st.Now = fixedClock
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	settle(t, a, a.schedule())
	if a.st.AttacksErr == nil {
		t.Fatal("a missing population gave no error")
	}
	if bar := summaryLine(a); !strings.Contains(bar, "✗ attacks not measured") {
		t.Errorf("the bar does not say the attacks were not measured:\n%s", bar)
	}
	press(t, a, "7")
	if v := a.View(); !strings.Contains(v, "✗ the attacks could not be measured:") || !strings.Contains(v, "nosuch.csv") {
		t.Errorf("the Export pane does not say why:\n%s", v)
	}
}
