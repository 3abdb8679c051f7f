// Package export is the Export pane: it writes the release as
// `privlab run` writes it (with the project's current risk-utility map
// beside it), asks before replacing a directory or writing a release
// that violates its requirement, and shows the independent
// verification's lines.
package export

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/advise"
	"privlab/algorithms/attack"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model/releasedir"
	"privlab/model/source"
	"privlab/ui/common"
	"privlab/ui/components"
)

// Model writes the release: it shows what will be written, asks
// before replacing an existing directory or writing a release that
// violates its requirement, runs the independent verification and shows
// its lines. The release and audit record are written as `privlab run`
// writes them.
type Model struct {
	st      *common.State
	w, h    int // the pane's size (SetSize)
	edit    components.LineEditor
	editing string // what the editor edits: "" the directory, "population"
	chosen  string // the directory typed by the user ("" = default)
	confirm string // pending question, "" when none
	force   bool
	accept  bool
	growth  bool
	refused string // why the last enter did not export
	seq     int
	busy    bool
	lines   []string
	err     error
	done    string
	mapPath string         // the risk-utility map written beside the release ("" when none was)
	of      *method.Result // the result the plan on screen is of
	scroll  components.Scroller
}

// DoneMsg is an export finished in the background (written and
// verified, or refused with its error).
type DoneMsg struct {
	seq int
	ex  *pipeline.Exported
	err error
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	return &Model{st: st, edit: components.NewLineEditor(50)}
}

func (p *Model) Title() string   { return "Export" }
func (p *Model) Capturing() bool { return p.edit.Active || p.confirm != "" }

// Refresh shows the plan of a new result without the previous export's
// outcome (it was of another release).
func (p *Model) Refresh() {
	if p.st.Result != p.of {
		p.of = p.st.Result
		p.clearOutcome()
		p.refused = ""
	}
}

// clearOutcome forgets the previous export's outcome: its verification
// lines, its error and what it wrote.
func (p *Model) clearOutcome() {
	if !p.busy {
		p.lines, p.err, p.done, p.mapPath = nil, nil, "", ""
	}
}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	switch {
	case p.confirm != "":
		return []key.Binding{k.Yes, k.No}
	case p.edit.Active:
		return []key.Binding{k.Enter, k.Back}
	}
	out := []key.Binding{k.Export, common.Described(k.EditText, common.KeyName(k.EditText), "edit directory"), common.Described(k.Population, common.KeyName(k.Population)+"/"+common.KeyName(k.PopulationPath), "population")}
	if p.namable() {
		out = append(out, k.NamePopulation)
	}
	return out
}

// namable says whether the population is a file whose columns the
// import wizard can name.
func (p *Model) namable() bool {
	path := p.st.Project.Population
	_, ok := common.DatasetName(path)
	return path != "" && !ok
}

func (p *Model) FullHelp() []key.Binding {
	k := p.st.Keys
	if p.confirm != "" || p.edit.Active {
		return p.ShortHelp()
	}
	out := []key.Binding{k.Export, common.Described(k.EditText, common.KeyName(k.EditText), "edit directory"), k.Population, k.PopulationPath}
	if p.namable() {
		out = append(out, k.NamePopulation)
	}
	return append(out, components.ScrollKeys(k)...)
}

// dir is the chosen directory (a default from the input's name), as an
// absolute path: a relative one is in the project file's folder, as the
// project's other paths are, else in the working directory (issue 35.5:
// a project opened from elsewhere wrote its release there).
func (p *Model) dir() string {
	dir := p.chosen
	if dir == "" {
		base := p.st.Project.Input
		if name, ok := common.DatasetName(base); ok {
			base = name
		} else {
			base = baseName(base)
			base = strings.TrimSuffix(base, filepath.Ext(base))
		}
		dir = "release-" + base + "-" + p.st.Project.Method
	}
	if !filepath.IsAbs(dir) && p.st.ProjectPath != "" {
		dir = filepath.Join(filepath.Dir(p.st.ProjectPath), dir)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	st := p.st
	switch msg := msg.(type) {
	case DoneMsg:
		if msg.seq != p.seq {
			return nil
		}
		p.busy = false
		p.err = msg.err
		p.lines = nil
		if msg.err != nil {
			var ve *releasedir.VerifyError
			if errors.As(msg.err, &ve) {
				p.lines = ve.Lines
			}
			st.Fail(msg.err)
			return nil
		}
		p.lines = msg.ex.Checks
		p.done = fmt.Sprintf("wrote %s and %s", st.ShownPath(msg.ex.Dir), st.ShownPath(releasedir.AuditPath(msg.ex.Dir)))
		if msg.ex.Manifest != nil && msg.ex.Manifest.Advisor != nil {
			p.mapPath = releasedir.AdvisorMapPath(msg.ex.Dir)
		}
		st.Exported(msg.ex.Dir) // the next release is attacked together with it
		st.Notify("exported %s", st.ShownPath(msg.ex.Dir))
		return nil
	case tea.KeyMsg:
		keys := st.Keys
		if p.confirm != "" {
			switch {
			case key.Matches(msg, keys.Yes):
				p.confirm = ""
				return p.export()
			case key.Matches(msg, keys.No):
				p.confirm, p.force, p.accept = "", false, false
				st.Notify("export cancelled")
			}
			return nil
		}
		if p.edit.Active {
			return p.edit.Update(msg, func(v string) error {
				if p.editing == "population" {
					st.SetPopulation(strings.TrimSpace(v))
					return nil
				}
				p.chosen = strings.TrimSpace(v)
				return nil
			})
		}
		switch {
		case key.Matches(msg, keys.EditText):
			p.editing = ""
			return p.edit.Open("release directory: ", p.dir())
		case key.Matches(msg, keys.Population):
			pick := common.PickFileMsg{Title: "Pick the population table", Types: source.Extensions(), OnPick: st.SetPopulation}
			return func() tea.Msg { return pick }
		case key.Matches(msg, keys.PopulationPath):
			p.editing = "population"
			return p.edit.Open("population (the people an attacker can name: a CSV, .xlsx, .parquet or FILE.db:TABLE file, or dataset:NAME; empty: none): ", st.Project.Population)
		case key.Matches(msg, keys.NamePopulation) && p.namable():
			return func() tea.Msg { return common.NamePopulationMsg{} }
		case key.Matches(msg, keys.Export):
			p.scroll.Offset = 0 // the outcome shows at the top
			return p.start()
		case p.scroll.Update(keys, msg):
		}
	}
	return nil
}

// start checks what needs confirming before exporting.
func (p *Model) start() tea.Cmd {
	st := p.st
	if st.Result == nil || st.Prep == nil || st.Running {
		st.Notify("wait for the preview to finish before exporting")
		return nil
	}
	if !st.Current() {
		// The preview on screen belongs to earlier settings: never export
		// something other than what the settings give.
		why := "the last run failed: fix the error (" + common.KeyName(st.Keys.FullError) + " shows it) and export again"
		if st.Cancelled {
			why = "the last run was cancelled: " + common.KeyName(st.Keys.Recompute) + " recomputes, then export"
		}
		p.refused = "not exported: the preview shows earlier settings; " + why
		p.clearOutcome()
		return nil
	}
	p.refused = ""
	p.clearOutcome()
	p.force, p.accept, p.growth = false, false, false
	var q []string
	if st, err := os.Stat(p.dir()); err == nil {
		why := "it is a file"
		if st.IsDir() {
			why = releasedir.Replaceable(p.dir()) // the rule the export holds it to
		}
		if why != "" {
			p.refused = fmt.Sprintf("not exported: %s exists and is not a privlab release (%s; press %s to choose another directory)", p.st.ShownPath(p.dir()), why, common.KeyName(p.st.Keys.EditText))
			return nil
		}
		p.force = true
		q = append(q, fmt.Sprintf("%s exists: replace it?", p.st.ShownPath(p.dir())))
	}
	if file, g := pipeline.Growth(st.Result); file != "" {
		p.growth = true
		q = append(q, fmt.Sprintf("%s will hold %.0f times the input's rows: write it anyway?", file, g))
	}
	if v := st.Result.Violations(); v > 0 || !st.Result.Satisfied() {
		p.accept = true
		q = append(q, common.Violate(v)+" the privacy requirement: export anyway (the manifest will say so)?")
	}
	if len(q) > 0 {
		p.confirm = strings.Join(q, "\n") + " (y/n)"
		return nil
	}
	return p.export()
}

func (p *Model) export() tea.Cmd {
	st := p.st
	p.seq++
	p.busy, p.err, p.lines, p.done, p.mapPath = true, nil, nil, "", ""
	seq, prep, res, dir, env := p.seq, st.Prep, st.Result, p.dir(), st.Env
	// The project's current risk-utility map goes beside the release, as
	// privlab run --config exports it (nil when there is none or it is
	// stale).
	opt := pipeline.ExportOptions{Force: p.force, AcceptViolations: p.accept, AllowGrowth: p.growth, Advisor: advise.ExportMap(st.Project)}
	return common.Guarded(func() tea.Msg {
		if err := env.LoadPopulationOf(prep); err != nil { // the project's population (run --population)
			return DoneMsg{seq: seq, err: err}
		}
		ex, err := pipeline.Export(prep, res, dir, opt)
		return DoneMsg{seq: seq, ex: ex, err: err}
	}, func(err error) tea.Msg { return DoneMsg{seq: seq, err: err} })
}

// planFiles lists the files of the current result's release.
func (p *Model) planFiles() []releasedir.FileEntry {
	if p.st.Result == nil {
		return nil
	}
	return p.st.Result.Files
}

// riskShown are the risk figures the export plan lists.
var riskShown = []string{risk.KeySmallest, risk.KeyUniqueShare, risk.KeyProsAvg, risk.KeyAtRisk, risk.KeyDistinctL,
	risk.KeyTopBelief, risk.KeyTCloseness, risk.KeyNCP, risk.KeyPresence}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size, scrolled.
func (p *Model) View() string {
	return p.scroll.View(p.st, p.plan(p.w), p.w, p.h)
}

// plan is the whole of the export pane's text, scrolled by view.
func (p *Model) plan(w int) string {
	st, s := p.st, p.st.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Export the release") + "\n\n")
	if p.edit.Active && p.editing == "" {
		b.WriteString(p.edit.View(s, w, ""))
	} else {
		b.WriteString(s.Label.Render("directory  ") + st.ShownPath(p.dir()) + s.Muted.Render("   ("+common.KeyName(p.st.Keys.EditText)+": edit)") + "\n")
	}
	b.WriteString(s.Label.Render("audit      ") + st.ShownPath(releasedir.AuditPath(p.dir())) + s.Muted.Render("   (private: input, seed, row mapping; beside, never inside)") + "\n")
	if p.edit.Active && p.editing == "population" {
		b.WriteString(p.edit.View(s, w, ""))
	} else {
		b.WriteString(p.populationLine(w))
	}
	b.WriteString("\n")
	if st.Result == nil {
		b.WriteString(s.Muted.Render("no release yet: wait for the preview") + "\n")
		return b.String()
	}
	if st.Stale() {
		b.WriteString(s.Warn.Render(common.Wrap("⚠ the preview shows earlier settings (the last run was cancelled or failed): export refuses until it is recomputed ("+common.KeyName(p.st.Keys.Recompute)+")", w)) + "\n")
	}
	switch {
	case p.refused != "":
		b.WriteString(s.Error.Render(common.Wrap("✗ "+p.refused, w)) + "\n")
	case p.confirm != "":
		b.WriteString(s.Warn.Render(p.confirm) + "\n")
	case p.busy:
		b.WriteString(s.Muted.Render("writing and verifying…") + "\n")
	case p.err != nil:
		b.WriteString(s.Error.Render(common.Wrap("✗ "+st.Explain(p.err), w)) + "\n")
	case p.done != "":
		b.WriteString(s.OK.Render("✓ "+common.Safe(p.done)) + "\n")
		if p.mapPath != "" {
			// Where the map went, as privlab run --config says it.
			b.WriteString(s.Muted.Render(common.Fit("  map "+common.Safe(st.ShownPath(p.mapPath))+" (the risk-utility map report.md links)", w)) + "\n")
		}
	default:
		b.WriteString(s.Muted.Render(common.KeyName(p.st.Keys.Export)+": write the release (atomically), then verify it from its files") + "\n")
	}
	for _, l := range p.lines {
		style := s.OK
		if strings.HasPrefix(l, "FAIL") {
			style = s.Error
		}
		b.WriteString(style.Render(common.Fit(common.Safe(l), w)) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(s.Label.Render("will write") + "\n")
	for _, f := range p.planFiles() {
		b.WriteString("  " + common.PadRight(f.Name, 20) + " " + common.Plural(f.Rows, "row") + "\n")
	}
	// What every manifest holds (SPEC 7.1), whatever the method; what a
	// method adds (e.g. an effective target) is in its details.
	b.WriteString("  manifest.json        parameters, worst cases, figures, SHA-256 of every file\n")
	b.WriteString("  report.md            a summary to file with the release\n")
	spec := st.Result.Spec // the plan is the shown result's, files and certification alike
	if ins := spec.Insensitive; ins != "" {
		b.WriteString(s.Muted.Render(common.Fit("  insensitive columns: "+ins, w)) + "\n")
	}
	if c := spec.Certifies; c != "" {
		b.WriteString(s.Label.Render(common.Indented("a passing check certifies that "+c, w)) + "\n")
	}
	ws, old := st.ShownWarnings()
	for _, warn := range ws {
		b.WriteString(common.WarnStyle(s, old).Render(common.Indented("! "+warn, w)) + "\n")
	}
	if rk := st.Risk; rk != nil && !st.RiskOld && len(p.lines) == 0 {
		// What the release risks, as the manifest and report.md will say.
		b.WriteString(s.Label.Render("what it risks") + s.Muted.Render("  (every release gets these; report.md explains each)") + "\n")
		var parts []string
		for _, key := range riskShown {
			if f, ok := rk.Get(key); ok {
				parts = append(parts, f.Name+" "+f.Format())
			}
		}
		b.WriteString(common.Indented(strings.Join(parts, " · "), w) + "\n")
		b.WriteString(s.Muted.Render(common.Indented(rk.Summary, w)) + "\n")
	}
	b.WriteString(p.attacksView(w))
	return b.String()
}

// attacksView is what an attacker can still do with the release, as the
// manifest and report.md will state it (with the project's population),
// or why the attacks could not be measured.
func (p *Model) attacksView(w int) string {
	st, s := p.st, p.st.Styles
	var b strings.Builder
	if at := st.Attacks; at != nil && !st.AttacksOld && len(p.lines) == 0 {
		// What an attacker can still do, as the manifest and report.md
		// will state it (run --population names the population).
		b.WriteString(s.Label.Render("what an attacker can still do") + s.Muted.Render("  (privlab attack; the manifest states these)") + "\n")
		for _, row := range attackRows(at.Findings) {
			b.WriteString(common.AttackStyle(s, row)(common.Fit("  "+row, w)) + "\n")
		}
	}
	if err := st.AttacksErr; err != nil && len(p.lines) == 0 {
		b.WriteString(s.Error.Render(common.Indented("✗ the attacks could not be measured: "+st.Explain(err), w)) + "\n")
	}
	if len(p.lines) == 0 {
		b.WriteString(p.togetherView(w))
	}
	return b.String()
}

// populationLine says which population the attacks read, and, without
// one, which attacks did not run for lack of it.
func (p *Model) populationLine(w int) string {
	st, s := p.st, p.st.Styles
	label := s.Label.Render("population ")
	if path := st.Project.Population; path != "" {
		return label + path + s.Muted.Render(common.Fit("   ("+common.PickType(p.st.Keys)+"; the attacks read it)", max(0, w-11-common.LenCells(path)))) + "\n"
	}
	if at := st.Attacks; at != nil && !st.AttacksOld {
		if lack := lackPopulation(at.Findings); len(lack) > 0 {
			return label + s.Warn.Render(common.Fit("none: not run for lack of a population: "+strings.Join(lack, ", ")+" ("+common.PickType(p.st.Keys)+")", max(0, w-11))) + "\n"
		}
	}
	return label + s.Muted.Render(common.Fit("none   ("+common.PickType(p.st.Keys)+": the people an attacker can name)", max(0, w-11))) + "\n"
}

// lackPopulation names the attacks that did not run for lack of a
// population.
func lackPopulation(fs []risk.Finding) []string {
	var out []string
	for _, f := range fs {
		if attack.ForLackOfPopulation(f) {
			out = append(out, f.Attack)
		}
	}
	return out
}
