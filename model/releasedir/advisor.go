package releasedir

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// AdvisorNote is what a release states of the risk-utility map its
// settings were chosen on (the Advisor, SPEC 3.8; issue 34.3): the
// picture's file, the measure, how many points and how many on the
// front, and the adopted point when the release's settings are one. The
// picture is kept beside the release directory, as the audit record is,
// not in it: the release's files are fixed by SPEC 7.1 (its method's
// CSV files, manifest.json and report.md). It names methods, parameters
// and figures only, never a value of the data.
type AdvisorNote struct {
	// Map is the picture's file name, beside the release directory.
	Map string `json:"map"`
	// Risk is the risk measure of the map (worst, linkage, ...).
	Risk   string `json:"risk"`
	Points int    `json:"points"`
	Front  int    `json:"front"`
	// Adopted is the front point whose settings the release has (nil:
	// the release's settings are none of the front's points).
	Adopted *AdvisorAdopted `json:"adopted,omitempty"`
}

// AdvisorAdopted is the adopted point: its method, its parameters as the
// command line spells them, its calibrated risk with the 95% interval
// and its utility loss.
type AdvisorAdopted struct {
	Method       string            `json:"method"`
	Params       map[string]string `json:"params"`
	Risk         float64           `json:"risk"`
	RiskInterval [2]float64        `json:"risk_interval"`
	Loss         float64           `json:"loss"`
}

// ParamText is the adopted point's parameters as name=value, sorted
// (the variant first).
func (a *AdvisorAdopted) ParamText() string {
	var parts []string
	for k, v := range a.Params {
		if k != "variant" {
			parts = append(parts, k+"="+v)
		}
	}
	sort.Strings(parts)
	if v, ok := a.Params["variant"]; ok {
		parts = append([]string{"variant=" + v}, parts...)
	}
	return strings.Join(parts, " ")
}

// renderAdvisor writes report.md's section on the map: a link to the
// picture, the adopted point and why it is on the front.
func renderAdvisor(w *strings.Builder, a *AdvisorNote) {
	if a == nil {
		return
	}
	w.WriteString("\n## Advisor\n\n")
	fmt.Fprintf(w, "The settings were chosen on a risk-utility map of %d points (every method over a grid of its parameters; risk: the %s calibrated attack figure beyond the baseline; utility loss: the median relative error of one common workload), %d of them on the Pareto front. The map is [%s](<../%s>), kept beside this release directory with the audit record, not published with it.\n",
		a.Points, mdText(a.Risk), a.Front, mdText(a.Map), strings.NewReplacer("<", "%3C", ">", "%3E").Replace(a.Map))
	p := a.Adopted
	if p == nil {
		w.WriteString("\nThe release's settings are not a point of the map's front: none was adopted.\n")
		return
	}
	params := p.ParamText()
	if params == "" {
		params = "its defaults"
	}
	fmt.Fprintf(w, "\nAdopted point: %s %s, risk %s [%s, %s], loss %s. It is on the Pareto front: no other point whose definition holds has both a lower risk at its interval's top and a lower loss.\n",
		mdText(p.Method), mdText(params), reportNumber(p.Risk), reportNumber(p.RiskInterval[0]), reportNumber(p.RiskInterval[1]), reportNumber(p.Loss))
}

// AdvisorMapPath is where the risk-utility map of release dir goes:
// beside it, as the audit record (AuditPath) does.
func AdvisorMapPath(dir string) string {
	return filepath.Clean(dir) + ".advisor-map.svg"
}
