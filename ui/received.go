package ui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/source"
	"privlab/ui/common"
	"privlab/ui/session"
)

// openReleaseMsg asks the App to read a release (a directory picked
// with ctrl+o): the original is found from the audit record beside it.
type openReleaseMsg struct{ dir string }

// releaseOpenedMsg is a release read and checked (seq: the App's release
// sequence number, so a release opened later wins). original and input
// are the original it was checked against and the project that loads it
// (nil and empty when it was checked from its files alone).
type releaseOpenedMsg struct {
	seq      int
	rel      *session.Received
	err      error
	original *model.Table
	input    pipeline.Project
}

// openReleaseCmd reads and checks a release in the background against
// the original the user gave (nil: from its files alone).
func openReleaseCmd(dir string, original *model.Table, seq int) tea.Cmd {
	return guarded(func() tea.Msg {
		against := "from its files alone"
		if original != nil {
			against = "against " + original.Name
		}
		return readRelease(dir, original, nil, against, seq)
	}, func(err error) tea.Msg { return releaseOpenedMsg{seq: seq, err: err} })
}

// receiveCmd reads a release picked in the workbench. Whatever table is
// loaded has nothing to do with it: the original is the input its audit
// record names, used only when it is there and is that input (a file
// with the SHA-256 the record holds, or the same embedded dataset with
// the same rows and seed); otherwise the release is checked from its
// files alone, and the pane says why.
func receiveCmd(env pipeline.Env, dir string, seq int) tea.Cmd {
	return guarded(func() tea.Msg {
		orig, pub, in, why := auditedOriginal(env, dir)
		against := "from its files alone (" + why + ")"
		if orig != nil {
			against = "against its input " + in.Input + ", found through the audit record"
			if pub != nil {
				against += ", with the public table " + in.Public
			}
		}
		msg := readRelease(dir, orig, pub, against, seq)
		if m, ok := msg.(releaseOpenedMsg); ok && orig != nil {
			m.original, m.input = orig, in
			return m
		}
		return msg
	}, func(err error) tea.Msg { return releaseOpenedMsg{seq: seq, err: err} })
}

// readRelease opens and checks a release.
func readRelease(dir string, original, public *model.Table, against string, seq int) tea.Msg {
	ans, man, err := pipeline.OpenRelease(dir)
	if err != nil {
		return releaseOpenedMsg{seq: seq, err: err}
	}
	r := &session.Received{Dir: dir, Manifest: man, Answerer: ans, Against: against}
	rep, err := pipeline.Check(dir, original, public)
	if err != nil {
		r.CheckErr = err
	} else {
		r.Check, r.CheckOK, r.Unproven = rep.Strings(), rep.OK(), rep.Unproven
	}
	if r.Risk, r.View, r.RiskErr = pipeline.ReleaseRisk(dir, 0); r.RiskErr == nil {
		r.Classes = make([]int, len(r.View.Regions))
		for i := range r.Classes {
			r.Classes[i] = i
		}
		regions := r.View.Regions
		key := func(i int) string { return r.View.CellKey(regions[i]) }
		sort.SliceStable(r.Classes, func(a, b int) bool {
			x, y := regions[r.Classes[a]], regions[r.Classes[b]]
			if x.Records != y.Records {
				return x.Records < y.Records
			}
			return key(r.Classes[a]) < key(r.Classes[b]) // row order says nothing
		})
	}
	return releaseOpenedMsg{seq: seq, rel: r, original: original}
}

// auditedOriginal loads the input (and public table) the audit record
// beside dir names, when it is there and is that input; else it says why
// not.
func auditedOriginal(env pipeline.Env, dir string) (orig, pub *model.Table, in pipeline.Project, why string) {
	audit, err := env.Cache.ReadAudit(dir)
	made, ok := env.Cache.AuditProject(dir)
	if err != nil || !ok || made.Input == "" {
		return nil, nil, in, "no audit record beside it names its input"
	}
	in = pipeline.Project{Input: made.Input, Rows: made.Rows, DataSeed: made.DataSeed, Columns: made.Columns,
		Delimiter: made.Delimiter, Kinds: made.Kinds, MaxCell: made.MaxCell, Missing: made.Missing,
		Header: made.Header, MissingValues: made.MissingValues,
		Roles: made.Roles, Public: made.Public, PublicRows: made.PublicRows, Method: made.Method}
	if _, isDataset := pipeline.DatasetName(made.Input); !isDataset {
		path, found := findInput(made.Input, dir)
		if !found {
			return nil, nil, in, "its input " + made.Input + " is not here"
		}
		if audit.InputSHA256 == "" {
			return nil, nil, in, "the audit record holds no SHA-256 to confirm " + made.Input + " is its input"
		}
		if sum, err := model.FileSHA256(source.Path(path)); err != nil || sum != audit.InputSHA256 {
			return nil, nil, in, made.Input + " has changed since the export (its SHA-256 differs)"
		}
		in.Input = path
	}
	t, err := env.LoadTable(in)
	if err != nil {
		return nil, nil, in, "its input " + made.Input + " does not load: " + firstLine(common.WithoutHint(err))
	}
	if made.Public != "" {
		if path, found := findInput(made.Public, dir); found {
			in.Public = path
		}
		policy := model.DropMissing
		if man, err := model.ReadManifest(dir); err == nil {
			if p, err := model.ParseMissingPolicy(man.MissingValues); err == nil {
				policy = p
			}
		}
		if p, err := env.LoadPublic(in, t, policy); err == nil {
			pub = p
		}
	}
	return t, pub, in, ""
}

// findInput resolves an input path the audit record gives: as it is
// (relative to the working directory, as it was at export), else relative
// to the folder that holds the release. dataset:NAME stays as it is.
func findInput(spec, dir string) (string, bool) {
	if _, isDataset := pipeline.DatasetName(spec); isDataset {
		return spec, true
	}
	path, part := source.Split(spec) // FILE.db:TABLE is found as FILE
	with := func(p string) string {
		if part == "" {
			return p
		}
		return p + ":" + part
	}
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return spec, true
	}
	if !filepath.IsAbs(path) {
		alt := filepath.Join(filepath.Dir(filepath.Clean(dir)), path)
		if st, err := os.Stat(alt); err == nil && !st.IsDir() {
			return with(alt), true
		}
	}
	return spec, false
}

// releasePane shows a received release.
type releasePane struct {
	st     *State
	offset int
	// the whole check report, opened with c and scrolled with up/down
	report    bool
	reportOff int
	of        *session.Received
}

func newReleasePane(st *State) *releasePane { return &releasePane{st: st} }

func (p *releasePane) title() string   { return "Release" }
func (p *releasePane) capturing() bool { return false }

// refresh starts a newly opened release at its top.
func (p *releasePane) refresh() {
	if p.st.Received != p.of {
		p.of, p.offset, p.report, p.reportOff = p.st.Received, 0, false, 0
	}
}

func (p *releasePane) shortHelp() []key.Binding {
	k := p.st.Keys
	if p.report {
		return []key.Binding{k.Up, k.Down, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.CheckReport}
}

func (p *releasePane) fullHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down, k.CheckReport, k.Back}
}

func (p *releasePane) update(msg tea.Msg) tea.Cmd {
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
			if p.reportOff < len(r.Check)-1 {
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

func (p *releasePane) view(w, h int) string {
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
		strings.Join(m.QIs, ","), common.OrNone(m.SA), plural(m.RowsIn, "record"), common.Thousands(m.Published), common.Thousands(m.Suppressed),
		plural(m.Groups, "group"), strings.Join(params, " "))), w) + "\n")
	switch {
	case r.CheckErr != nil:
		b.WriteString(s.Error.Render(common.Wrap("✗ the release cannot be checked: "+st.Explain(r.CheckErr), w)) + "\n")
	case r.CheckOK && len(r.Unproven) > 0:
		b.WriteString(s.Warn.Render(common.Wrap(fmt.Sprintf("! no check failed %s, but %s could not be confirmed: %s",
			r.Against, plural(len(r.Unproven), "privacy guarantee"), strings.Join(r.Unproven, "; ")), w)) + "\n")
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
		b.WriteString(attackStyle(s, row)(common.Fit(common.Safe(row), w)) + "\n")
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
	lines[n-1] = common.Clip(lines[n-1], w-1) + "…"
	return strings.Join(lines, "\n")
}

// checkLines lists up to n lines of the check report, failures first,
// and how to see all of them.
func (p *releasePane) checkLines(w, n int) string {
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
func (p *releasePane) reportView(w, h int) string {
	s, r := p.st.Styles, p.st.Received
	var b strings.Builder
	b.WriteString(s.Title.Render(common.Fit(common.Safe(fmt.Sprintf("Check report (%d lines) of %s %s", len(r.Check), r.Dir, r.Against)), w)) + "\n")
	rows := max(1, h-2)
	p.reportOff = min(p.reportOff, max(0, len(r.Check)-rows))
	for i := p.reportOff; i < len(r.Check) && i < p.reportOff+rows; i++ {
		b.WriteString(checkStyle(s, r.Check[i]).Render(common.Fit(common.Safe(r.Check[i]), w)) + "\n")
	}
	more := fmt.Sprintf("lines %d-%d of %d · %s scroll · %s back", p.reportOff+1, min(len(r.Check), p.reportOff+rows), len(r.Check), common.UpDown(p.st.Keys), common.KeyName(p.st.Keys.Back))
	b.WriteString(s.Muted.Render(common.Fit(more, w)))
	return b.String()
}

func checkStyle(s *Styles, line string) lipgloss.Style {
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

// isRelease reports whether dir is a release directory.
func isRelease(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "manifest.json"))
	return err == nil && !st.IsDir()
}
