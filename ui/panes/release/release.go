// Package release is the Release pane: a received release (privlab DIR,
// or a release folder opened with ctrl+o), its check against the
// original when one is found, the attacks its manifest states, and the
// classes an attacker who knows a person's quasi-identifiers cannot
// split; c lists the whole check report.
package release

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"privlab/algorithms/pipeline"
	"privlab/model/releasedir"
	"privlab/ui/common"
	"privlab/ui/session"
)

// Model is the Release pane: it shows a received release.
type Model struct {
	st     *common.State
	w, h   int // the pane's size (SetSize)
	offset int
	// the whole check report, opened with c and scrolled with up/down
	report    bool
	reportOff int
	// reportMax is the report's last offset as last drawn (its check
	// lines wrapped to the width).
	reportMax int
	of        *session.Received
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model { return &Model{st: st} }

func (p *Model) Title() string   { return "Release" }
func (p *Model) Capturing() bool { return false }

// Refresh starts a newly opened release at its top.
func (p *Model) Refresh() {
	if p.st.Received != p.of {
		p.of, p.offset, p.report, p.reportOff = p.st.Received, 0, false, 0
	}
}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.report {
		return []key.Binding{k.Up, k.Down, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.CheckReport}
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.CheckReport, k.Back}
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	r := p.st.Received
	if !ok || r == nil {
		return nil
	}
	keys := p.st.Keys
	if p.report {
		switch {
		case key.Matches(k, keys.Back), key.Matches(k, keys.CheckReport):
			p.report = false
		case key.Matches(k, keys.Up):
			if p.reportOff > 0 {
				p.reportOff--
			}
		case key.Matches(k, keys.Down):
			if p.reportOff < p.reportMax {
				p.reportOff++
			}
		}
		return nil
	}
	if key.Matches(k, keys.CheckReport) {
		p.report = true
		return nil
	}
	switch {
	case key.Matches(k, p.st.Keys.Up):
		if p.offset > 0 {
			p.offset--
		}
	case key.Matches(k, p.st.Keys.Down):
		if p.offset < len(r.Classes)-1 {
			p.offset++
		}
	}
	return nil
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w, h := p.w, p.h
	st, s := p.st, p.st.Styles
	r := st.Received
	if r == nil {
		if st.ReceivedErr != nil {
			return s.Error.Render(common.Wrap(st.Explain(st.ReceivedErr), w))
		}
		return s.Muted.Render("reading the release …")
	}
	m := r.Manifest
	if p.report {
		return p.reportView(w, h)
	}
	var b strings.Builder
	b.WriteString(s.Title.Render(common.Fit(common.Safe(fmt.Sprintf("Release %s · %s (%s)", r.Dir, m.Method, m.Paper)), w)) + "\n")
	var params []string
	for _, k := range sortedParamKeys(m.Parameters) {
		params = append(params, k+"="+m.Parameters[k])
	}
	b.WriteString(common.Fit(common.Safe(fmt.Sprintf("QIs %s · SA %s · %s in, %s published, %s suppressed · %s · %s",
		strings.Join(m.QIs, ","), common.OrNone(m.SA), common.Plural(m.RowsIn, "record"), common.Thousands(m.Published), common.Thousands(m.Suppressed),
		common.Plural(m.Groups, "group"), strings.Join(params, " "))), w) + "\n")
	switch {
	case r.CheckErr != nil:
		b.WriteString(s.Error.Render(common.Wrap("✗ the release cannot be checked: "+st.Explain(r.CheckErr), w)) + "\n")
	case r.CheckOK && len(r.Unproven) > 0:
		b.WriteString(s.Warn.Render(common.Wrap(fmt.Sprintf("! no check failed %s, but %s could not be confirmed: %s",
			r.Against, common.Plural(len(r.Unproven), "privacy guarantee"), strings.Join(r.Unproven, "; ")), w)) + "\n")
	case r.CheckOK:
		b.WriteString(s.OK.Render(common.Wrap("✓ the release passes every check "+r.Against, w)) + "\n")
	default:
		b.WriteString(s.Error.Render(common.Wrap("✗ the release FAILS its check "+r.Against+":", w)) + "\n")
	}
	b.WriteString(p.checkLines(w, max(3, h/4)))
	if m.Certifies != "" {
		b.WriteString(s.Muted.Render(wrapN("A passing check certifies that "+m.Certifies+".", w, 2)) + "\n")
	}
	switch {
	case r.RiskErr != nil:
		b.WriteString(s.Error.Render(common.Wrap("the release cannot be read as an attacker reads it: "+st.Explain(r.RiskErr), w)) + "\n")
		return b.String()
	case r.Risk != nil:
		b.WriteString(wrapN(r.Risk.Summary, w, 2) + "\n")
	}
	// The attacks the manifest states (check recomputes them).
	for _, row := range statedAttackRows(m.Attacks) {
		b.WriteString(common.AttackStyle(s, row)(common.Fit(common.Safe(row), w)) + "\n")
	}
	// The classes an attacker who knows a person's quasi-identifiers
	// cannot split, smallest first: what the release tells of each.
	v := r.View
	b.WriteString(s.Label.Render(common.Fit(fmt.Sprintf("%-8s %-34s %s", "records", "published quasi-identifiers", "sensitive values an attacker weighs"), w)) + "\n")
	rows := h - strings.Count(b.String(), "\n") - 1
	for i := p.offset; i < len(r.Classes) && i < p.offset+rows; i++ {
		reg := v.Regions[r.Classes[i]]
		cells := v.CellKey(reg)
		if cells == "" {
			cells = "(values published per attribute)"
		}
		if !math.IsNaN(reg.Presence) {
			cells += fmt.Sprintf(" · presence %.3g", reg.Presence)
		}
		sa := strings.Join(v.Sorted(reg.Belief), ", ")
		line := fmt.Sprintf("%-8s %s %s", common.Thousands(reg.Records), common.PadRight(common.Clip(common.Safe(cells), 34), 34), common.Safe(sa))
		if reg.Records == 1 {
			b.WriteString(s.Warn.Render(common.Fit(line, w)) + "\n")
			continue
		}
		b.WriteString(common.Fit(line, w) + "\n")
	}
	return b.String()
}

// wrapN wraps text to w cells and keeps at most n lines, the last cut
// with an ellipsis.
func wrapN(text string, w, n int) string {
	lines := strings.Split(common.Wrap(text, w), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	lines = lines[:n]
	// One ellipsis (it ended "……" when the line filled the width).
	lines[n-1] = common.Clip(lines[n-1]+"…", w)
	return strings.Join(lines, "\n")
}

// checkLines lists up to n lines of the check report, failures first,
// and how to see all of them.
func (p *Model) checkLines(w, n int) string {
	s, r := p.st.Styles, p.st.Received
	lines := make([]string, 0, len(r.Check))
	for _, l := range r.Check {
		if strings.HasPrefix(l, "FAIL") {
			lines = append(lines, l)
		}
	}
	for _, l := range r.Check {
		if !strings.HasPrefix(l, "FAIL") {
			lines = append(lines, l)
		}
	}
	var b strings.Builder
	if len(lines) > n {
		lines = lines[:n-1]
	}
	for _, l := range lines {
		b.WriteString(checkStyle(s, l).Render(common.Fit("  "+common.Safe(l), w)) + "\n")
	}
	if len(lines) < len(r.Check) {
		b.WriteString(s.Muted.Render(common.Fit(fmt.Sprintf("  … %d more check lines: %s lists all %d", len(r.Check)-len(lines), common.KeyName(p.st.Keys.CheckReport), len(r.Check)), w)) + "\n")
	}
	return b.String()
}

// reportView is the whole check report, scrolled with up/down.
func (p *Model) reportView(w, h int) string {
	s, r := p.st.Styles, p.st.Received
	var b strings.Builder
	b.WriteString(s.Title.Render(common.Fit(common.Safe(fmt.Sprintf("Check report (%d lines) of %s %s", len(r.Check), r.Dir, r.Against)), w)) + "\n")
	// Each check line is read whole: wrapped under its "ok   " / "FAIL "
	// (it was cut at the width, with no way to read the rest).
	var shown []string
	for _, c := range r.Check {
		for j, l := range strings.Split(common.Wrap(c, max(10, w-5)), "\n") {
			if j > 0 {
				l = "     " + l
			}
			shown = append(shown, checkStyle(s, c).Render(common.Fit(l, w)))
		}
	}
	rows := max(1, h-2)
	p.reportMax = max(0, len(shown)-rows)
	p.reportOff = min(p.reportOff, p.reportMax)
	for i := p.reportOff; i < len(shown) && i < p.reportOff+rows; i++ {
		b.WriteString(shown[i] + "\n")
	}
	more := fmt.Sprintf("lines %d-%d of %d · %s scroll · %s back", p.reportOff+1, min(len(shown), p.reportOff+rows), len(shown), common.UpDown(p.st.Keys), common.KeyName(p.st.Keys.Back))
	b.WriteString(s.Muted.Render(common.Fit(more, w)))
	return b.String()
}

func checkStyle(s *common.Styles, line string) lipgloss.Style {
	if strings.HasPrefix(line, "FAIL") {
		return s.Error
	}
	return s.OK
}

func sortedParamKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// statedAttackRows are the attacks a received release's manifest states.
func statedAttackRows(attacks []releasedir.AttackFigure) []string {
	var out []string
	for _, a := range attacks {
		out = append(out, pipeline.AttackSummary(a))
	}
	return out
}
