package ui

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"privlab/algorithms/risk"
)

// TestGoldenExportPlanAttacks: the Export plan lists what an attacker
// can still do with the release it would write (SPEC 3.7), and the
// summary bar shows the attacks' verdict beside the method's own.
func TestGoldenExportPlanAttacks(t *testing.T) {
	a := ready(t, "dataset:employees", 100, 40)
	press(t, a, "7")
	view := a.View()
	for _, want := range []string{"what an attacker can still do", "re-identification by linkage: not bounded", "attribute inference: holds",
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
