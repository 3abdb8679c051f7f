package export

import (
	"fmt"
	"strings"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/ui/common"
)

// attackRows are one line per attack: its verdict, the measured figure
// beside the bound, and what it succeeds on.
func attackRows(findings []risk.Finding) []string {
	var out []string
	for _, f := range findings {
		if f.NotRun != "" {
			out = append(out, fmt.Sprintf("%s: not run (%s)", f.Attack, f.NotRun))
			continue
		}
		line := fmt.Sprintf("%s: %s · measured %s", f.Attack, f.Verdict(), common.Human(f.Measured))
		if f.Holds() >= 0 {
			line += " · bound " + common.Human(f.Bound)
		}
		if f.Short != "" {
			line += " · " + f.Short
		}
		if f.Calibrated() {
			iv := f.Interval()
			line += fmt.Sprintf(" · beyond the prior %s (%s-%s)", common.Human(f.Risk()), common.Human(iv[0]), common.Human(iv[1]))
		}
		out = append(out, line)
	}
	return out
}

// togetherLine says what the release adds to the earlier releases of
// its input ("together with 2 earlier releases: 266 people's occupation
// inferred · 78 people singled out"), whether an attack together breaks
// the bound every release claims, and which earlier releases were left
// out; "" when there are none.
func togetherLine(t *pipeline.Together) (string, bool) {
	if t == nil || t.Earlier == 0 && len(t.Skipped) == 0 {
		return "", false
	}
	var parts []string
	broken := false
	for _, f := range t.Findings {
		if f.Holds() == 0 {
			broken = true
			parts = append(parts, fmt.Sprintf("%s broken (measured %s, bound %s)", f.Attack, common.Human(f.Measured), common.Human(f.Bound)))
		}
		if f.Short != "" {
			parts = append(parts, f.Short)
		}
	}
	line := fmt.Sprintf("together with %s: ", common.Plural(t.Earlier, "earlier release"))
	switch {
	case t.Earlier == 0:
		line = "no earlier release of this input attacked with it"
	case len(parts) == 0:
		line += "no attack succeeds on anyone"
	default:
		line += strings.Join(parts, " · ")
	}
	if len(t.Skipped) > 0 {
		line += "; left out: " + strings.Join(t.Skipped, "; ")
	}
	return line, broken
}

// togetherView is the Export pane's line on the earlier releases.
func (p *Model) togetherView(w int) string {
	st, s := p.st, p.st.Styles
	if err := st.TogetherErr; err != nil && !st.TogetherOld {
		return s.Error.Render(common.Indented("✗ the releases together could not be attacked: "+st.Explain(err), w)) + "\n"
	}
	line, broken := togetherLine(st.Together)
	switch {
	case st.TogetherOld:
		return s.Muted.Render(common.Indented(fmt.Sprintf("together with %s: …", common.Plural(len(st.Project.Earlier()), "earlier release")), w)) + "\n"
	case line == "":
		return ""
	case broken:
		return s.Error.Render(common.Indented("✗ "+line, w)) + "\n"
	}
	return s.Attack.Render(common.Indented(line, w)) + "\n"
}
