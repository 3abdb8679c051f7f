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
		"membership: not run", "│ attacks: 9 re"} {
		if !strings.Contains(view, want) {
			t.Errorf("the export plan does not show %q:\n%s", want, view)
		}
	}
	teatest.RequireEqualOutput(t, []byte(view))
}

// TestAttackVerdict: the bar's attack verdict lists what each attack
// succeeds on, and says whether one broke its bound (shown in the error
// colour, apart from the method's own tick).
func TestAttackVerdict(t *testing.T) {
	holds := risk.Finding{Attack: "attribute inference", Measured: 0.5, Bound: 0.5}
	broken := risk.Finding{Attack: "membership", Measured: 1, Bound: 0.5, Records: 12, Short: "12 people certainly present"}
	loose := risk.Finding{Attack: "re-identification by linkage", Measured: 1, Bound: math.NaN(), Records: 3, Short: "3 records re-identified"}
	for _, c := range []struct {
		findings []risk.Finding
		text     string
		broken   bool
	}{
		{[]risk.Finding{holds}, "attacks: none succeeds", false},
		{[]risk.Finding{loose, holds}, "attacks: 3 records re-identified", false},
		{[]risk.Finding{loose, holds, broken}, "attacks: 3 records re-identified · 12 people certainly present", true},
	} {
		if text, b := attackVerdict(c.findings); text != c.text || b != c.broken {
			t.Errorf("attackVerdict = %q, %v; want %q, %v", text, b, c.text, c.broken)
		}
	}
}
