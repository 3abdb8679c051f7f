package releasedir

import (
	"strings"
	"testing"
)

// TestReportAdvisorSection: report.md links the map beside the release
// and states the adopted point and why it is on the front, or that none
// was adopted; a manifest without a map gets no section.
func TestReportAdvisorSection(t *testing.T) {
	m := &Manifest{Method: "kja", Parameters: map[string]string{"k": "10"}, Files: []FileEntry{}}
	if strings.Contains(RenderReport(m), "Advisor") {
		t.Error("a release without a map has an advisor section")
	}
	m.Advisor = &AdvisorNote{Map: "out dir.advisor-map.svg", Risk: "worst", Points: 40, Front: 6,
		Adopted: &AdvisorAdopted{Method: "kja", Params: map[string]string{"k": "10", "variant": "mondrian"}, Risk: 0.012, RiskInterval: [2]float64{0.004, 0.02}, Loss: 0.083}}
	r := RenderReport(m)
	for _, want := range []string{
		"\n## Advisor\n\nThe settings were chosen on a risk-utility map of 40 points",
		"the worst calibrated attack figure", "6 of them on the Pareto front",
		"[out dir.advisor-map.svg](<../out dir.advisor-map.svg>), kept beside this release directory",
		"\nAdopted point: kja variant=mondrian k=10, risk 0.012 [0.004, 0.02], loss 0.083. It is on the Pareto front: no other point whose definition holds has both a lower risk at its interval's top and a lower loss.\n\n## Files",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("the report lacks %q:\n%s", want, r)
		}
	}
	m.Advisor.Adopted = nil
	if r := RenderReport(m); !strings.Contains(r, "\nThe release's settings are not a point of the map's front: none was adopted.\n\n## Files") {
		t.Errorf("no adopted point:\n%s", r)
	}
	if got := AdvisorMapPath("out/rel/"); got != "out/rel.advisor-map.svg" {
		t.Errorf("map path %s", got)
	}
}
