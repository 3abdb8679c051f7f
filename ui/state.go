package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
)

// State is what every pane reads and edits: the project being tuned, the
// loaded table and the latest result. Panes change the project through
// its methods, which mark what must be recomputed; the App then loads or
// recomputes in the background.
type State struct {
	Env     pipeline.Env
	Project pipeline.Project

	Table   *model.Table
	LoadErr error
	Loading bool

	Prep     *pipeline.Prepared
	Result   *method.Result
	RunErr   error
	Running  bool
	Elapsed  time.Duration
	Workload *workload.Result
	// WorkloadOld is true while Workload belongs to the previous result
	// (the new one's is being answered): it stays on screen, marked.
	WorkloadOld bool
	// Risk are the figures every release gets (algorithms/risk), measured
	// on the shown result's release after it is on screen; RiskOld marks
	// them while the new result's are on their way.
	Risk *risk.Report
	// RiskSingle counts the records in classes with one sensitive value
	// (with Risk).
	RiskSingle int
	RiskOld    bool
	// Attacks are the attacks measured on the shown result's release
	// (algorithms/attack), after the risk figures; AttacksOld marks them
	// while the new result's are on their way.
	Attacks    *attack.Report
	AttacksOld bool
	// AttacksErr is why the attacks could not be measured (a population
	// that does not load).
	AttacksErr error
	// Together is the shown result's release attacked together with the
	// earlier releases exported from the project's input (nil: none);
	// TogetherOld marks it while the new result's is on its way, and
	// TogetherErr says why it could not be measured.
	Together    *pipeline.Together
	TogetherOld bool
	TogetherErr error
	// Progress of the running computation, written by the worker: a
	// progressMark of the run that wrote it.
	Progress *atomic.Value

	// Changes counts the edits of the settings; ResultOf is the count the
	// shown Result was computed for. They differ when the last run was
	// cancelled or failed: the preview is stale and export refuses.
	Changes  int
	ResultOf int
	// Cancelled is set when the user stopped the last run.
	Cancelled bool

	// Dirty is true when the project changed since the last export or save.
	Dirty bool
	// ProjectPath is the project.json the settings were opened from or
	// saved to (ctrl+s writes back to it).
	ProjectPath string
	// LastDir is the folder the file pickers open in (the last one used).
	LastDir string

	// ReceivedDir is a release opened to be read (privlab DIR): the
	// workbench then shows it and answers queries from it, with Table as
	// the original when one is loaded.
	ReceivedDir string
	Received    *received
	// Tour is the teaching tour on screen (nil: none; pane_tour.go).
	Tour         *tourState
	ReceivedErr  error
	askedRelease bool
	// askedHeader is set once the import wizard was opened on a table
	// whose first row was read as data (it is not opened again).
	askedHeader bool
	// Status is a transient message for the summary bar (errors that
	// persist are LoadErr and RunErr).
	Status    string
	StatusErr bool
	statusOf  int // Changes when the status was set

	Styles *Styles
	Keys   KeyMap
	// Now is the clock for run times (tests fix it so screens are stable).
	Now func() time.Time
	// ShowPath shows an absolute path on screen (nil: as it is; tests
	// show it relative to their folder so screens are stable).
	ShowPath func(string) string

	needLoad bool
	needRun  bool
	// lastWarnings are the warnings of the last settled result (see
	// shownWarnings).
	lastWarnings []string
}

// Changed marks the project as edited: the preview recomputes. Every
// edit that changes what a run gives goes through here (or through
// Reload, SetInput, OpenProject, which count as edits too), so the
// shown result is stale until a run on the new settings lands.
func (s *State) Changed() {
	s.needRun = true
	s.Dirty = true
	s.Changes++
	s.Cancelled = false
}

// Reload marks the table to be read again (a column's kind changed): the
// shown result belongs to the old table and is stale until a run on the
// reloaded one lands.
func (s *State) Reload() {
	s.Changed()
	s.needLoad = true
}

// pending reports whether a load or a run for the current settings is
// under way or scheduled.
func (s *State) pending() bool {
	return s.Running || s.needRun || s.Loading || s.needLoad
}

// Current reports whether the shown result is that of the current
// settings: computed for them, not superseded, without an error.
func (s *State) Current() bool {
	return s.Result != nil && s.ResultOf == s.Changes && s.RunErr == nil && s.LoadErr == nil && !s.pending()
}

// Stale reports whether a result is shown that belongs to earlier
// settings and none is coming (the run was cancelled or failed).
func (s *State) Stale() bool {
	return s.Result != nil && s.ResultOf != s.Changes && !s.pending()
}

// progressMark is the progress of one run: its sequence number, the
// fraction done and when it started (for the time left).
type progressMark struct {
	seq   int
	f     float64
	start time.Time
	est   float64 // the method's estimate of the run's seconds
	// running is false while the run is prepared (hierarchies built,
	// parameters validated, the public table read), which reports no
	// fraction.
	running bool
}

// SetParam sets a parameter's value: the preview recomputes.
func (s *State) SetParam(name, v string) {
	if s.Project.Params == nil {
		s.Project.Params = model.Values{}
	}
	s.Project.Params[name] = v
	s.Changed()
}

// SetMethod switches to another method: the current method's settings
// (variant, values, public table) are kept for when it comes back, and
// the new one's come back as they were left, else at its declared
// defaults (and the values the dataset declares for it); roles and
// hierarchies stay (pipeline.Project.Switch). The previous method's
// result is dropped: its groups, figures and files mean nothing under
// the new method's headings.
func (s *State) SetMethod(name string) {
	s.Project = s.Env.WithDefaults(s.Project.Switch(name))
	s.dropResult()
	s.Changed()
}

// parkPublic keeps a public table given with a method that reads none
// (privlab --public FILE) for the methods that read one: the project
// runs as it is, and the table is there when one of them is chosen.
func (s *State) parkPublic() {
	p := &s.Project
	if p.Public == "" || s.Spec().Public != method.NoPublic {
		return
	}
	for _, m := range methods() {
		name := m.Spec().Name
		if _, kept := p.Methods[name]; !kept && m.Spec().Public != method.NoPublic {
			if p.Methods == nil {
				p.Methods = map[string]pipeline.Settings{}
			}
			p.Methods[name] = pipeline.Settings{Public: p.Public, PublicRows: p.PublicRows}
		}
	}
	p.Public, p.PublicRows = "", 0
}

// dropResult forgets the shown result and everything derived from it.
func (s *State) dropResult() {
	s.Result, s.Prep, s.RunErr = nil, nil, nil
	s.Workload, s.WorkloadOld = nil, false
	s.Risk, s.RiskOld = nil, false
	s.Attacks, s.AttacksOld = nil, false
	s.Together, s.TogetherOld, s.TogetherErr = nil, false, nil
	s.lastWarnings = nil
}

// SetInput switches to another table (a file or dataset:NAME); the
// roles are reset to the dataset's defaults (none for a file).
func (s *State) SetInput(input string) {
	s.Project = pipeline.Project{Input: input, Method: s.Project.Method, Params: model.Values{}}
	s.Project = s.Env.WithDefaults(s.Project)
	s.newTable()
	s.Dirty = true
}

// OpenProject replaces the whole configuration with a saved project.json.
func (s *State) OpenProject(p pipeline.Project) {
	if p.Method == "" {
		p.Method = s.Project.Method
	}
	s.Project = s.Env.WithDefaults(p)
	s.newTable()
	s.Dirty = false
}

// newTable forgets what belonged to the previous table (its result, a
// received release being read) and loads the project's input: the
// workbench is back to tuning, and nothing is shown or exported until a
// run on the new settings lands.
func (s *State) newTable() {
	s.Table, s.LoadErr, s.askedHeader = nil, nil, false
	s.dropResult()
	s.leaveRelease()
	s.Changed()
	s.needLoad = true
}

// leaveRelease ends the reading of a received release.
func (s *State) leaveRelease() {
	s.ReceivedDir, s.Received, s.ReceivedErr, s.askedRelease = "", nil, nil, false
}

// Notify sets the status message. It is transient: it goes when a load
// or a result of later settings lands (expireStatus).
func (s *State) Notify(format string, args ...any) {
	s.Status, s.StatusErr, s.statusOf = fmt.Sprintf(format, args...), false, s.Changes
}

// expireStatus drops the status message when work for settings edited
// after it was shown lands (changes: the settings' count the load or run
// was started for): "exported ..." or "loading ..." then speaks of
// something no longer on screen, and an error status is the refusal of
// an action (a hierarchy file that does not fit, a save that failed)
// that the user has moved on from. The errors of the settings themselves
// (LoadErr, RunErr) are no messages: they go when their cause is fixed.
func (s *State) expireStatus(changes int) {
	if s.Status != "" && changes > s.statusOf {
		s.Status, s.StatusErr = "", false
	}
}

// Fail sets an error status message: an action was refused. It stays
// through recomputations of the same settings and goes with the next
// change (see expireStatus).
func (s *State) Fail(err error) {
	s.Status, s.StatusErr, s.statusOf = s.explain(err), true, s.Changes
}

// Spec is the current method's declaration (zero when unknown).
func (s *State) Spec() method.Spec {
	for _, m := range methods() {
		if m.Spec().Name == s.Project.Method {
			return m.Spec()
		}
	}
	return method.Spec{}
}

// Variant is the variant a run of the current settings uses: the one
// chosen, else the method's variant for runs without a public table when
// none is set (noPublic is then true), else the method's default ("" for
// a method without variants).
func (s *State) Variant() (v string, noPublic bool) {
	spec := s.Spec()
	switch {
	case s.Project.Variant != "":
		return s.Project.Variant, false
	case s.Project.Public == "" && spec.NoPublicVariant != "":
		return spec.NoPublicVariant, true
	case len(spec.Variants) > 0:
		return spec.Variants[0], false
	}
	return "", false
}

// runProject is the project a run of the current settings reads: the
// variant without a public table when that one applies (see Variant),
// and no public table for a method that reads none.
func (s *State) runProject() pipeline.Project {
	p := s.Project.Clone()
	if v, noPublic := s.Variant(); noPublic {
		p.Variant = v
	}
	if s.Spec().Public == method.NoPublic {
		p.Public, p.PublicRows = "", 0
	}
	p.Methods = nil // the other methods' settings are not this run's
	return p
}

// Value returns a parameter's current text (its default when unset).
func (s *State) Value(name string) string {
	if v, ok := s.Project.Params[name]; ok {
		return v
	}
	if p, ok := s.Spec().Param(name); ok {
		return p.Default
	}
	return ""
}

// messages of the background work ------------------------------------

type loadedMsg struct {
	seq     int
	changes int // State.Changes when the load was started
	table   *model.Table
	err     error
}

type debounceMsg struct{ seq int }

type resultMsg struct {
	seq     int
	changes int // State.Changes when the run was started
	prep    *pipeline.Prepared
	res     *method.Result
	err     error
	elapsed time.Duration
}

// guarded runs background work and turns a panic into an error message,
// so a bug never ends the session with a stack trace.
func guarded(work func() tea.Msg, onPanic func(error) tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = onPanic(model.Recovered(r, ""))
			}
		}()
		return work()
	}
}

// loadCmd loads the project's table off the UI goroutine; the context is
// cancelled when a newer load supersedes it.
func loadCmd(ctx context.Context, env pipeline.Env, p pipeline.Project, seq, changes int) tea.Cmd {
	return guarded(func() tea.Msg {
		t, err := env.LoadTableContext(ctx, p)
		return loadedMsg{seq: seq, changes: changes, table: t, err: err}
	}, func(err error) tea.Msg { return loadedMsg{seq: seq, changes: changes, err: err} })
}

// previewQueries is the size of the live workload (the summary bar's
// utility figure).
const previewQueries = 50

// runCmd prepares and runs the method on a snapshot of the project; the
// context is cancelled when a newer change supersedes it.
func runCmd(ctx context.Context, env pipeline.Env, p pipeline.Project, t *model.Table, seq, changes int, progress *atomic.Value, now func() time.Time) tea.Cmd {
	return guarded(func() tea.Msg {
		start := now()
		prep, err := env.Prepare(p, t)
		if err != nil {
			return resultMsg{seq: seq, changes: changes, err: err}
		}
		est, _ := pipeline.Estimate(prep)
		progress.Store(progressMark{seq, 0, start, est, true})
		// Deferred figures come after the groups are on screen (deferredCmd).
		res, err := pipeline.Run(ctx, prep, pipeline.RunOptions{Preview: true, Progress: func(f float64) { progress.Store(progressMark{seq, f, start, est, true}) }})
		if err != nil {
			return resultMsg{seq: seq, changes: changes, prep: prep, err: err}
		}
		if res.Spec.Name == "" {
			res.Spec = prep.Method.Spec() // the result is drawn under its own method's headings
		}
		return resultMsg{seq: seq, changes: changes, prep: prep, res: res, elapsed: now().Sub(start)}
	}, func(err error) tea.Msg { return resultMsg{seq: seq, changes: changes, err: err} })
}

// workloadMsg carries the live workload's error for run seq.
type workloadMsg struct {
	seq int
	w   *workload.Result
}

// deferredMsg carries the figures a method computes after its result
// (method.Result.Deferred) for run seq.
type deferredMsg struct {
	seq  int
	figs []releasedir.Figure
}

// deferredCmd computes the result's deferred figures in the background.
func deferredCmd(ctx context.Context, res *method.Result, seq int) tea.Cmd {
	if res.Deferred == nil {
		return nil
	}
	return guarded(func() tea.Msg {
		figs, err := res.Deferred(ctx)
		if err != nil {
			return deferredMsg{seq: seq}
		}
		return deferredMsg{seq: seq, figs: figs}
	}, func(error) tea.Msg { return deferredMsg{seq: seq} })
}

type riskMsg struct {
	seq int
	rep *risk.Report
	// single counts the records in classes with one sensitive value.
	single int
}

// riskCmd measures the result's release as an attacker would read it once
// published (built in memory, read by the method's viewer: the build the
// attacks read, pipeline.Preview), after the groups are on screen.
func riskCmd(ctx context.Context, pv *pipeline.Preview, threshold float64, seq int) tea.Cmd {
	return guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return riskMsg{seq: seq}
		}
		rep, v, err := pv.Risk(ctx, threshold)
		if err != nil {
			return riskMsg{seq: seq}
		}
		return riskMsg{seq: seq, rep: rep, single: pipeline.Single(v)}
	}, func(error) tea.Msg { return riskMsg{seq: seq} })
}

// workloadCmd answers the live workload after the groups are on screen, so
// the utility figure never delays the preview.
func workloadCmd(ctx context.Context, env pipeline.Env, prep *pipeline.Prepared, res *method.Result, seq int) tea.Cmd {
	if res.Answerer == nil || res.Workload == "" {
		return nil
	}
	return guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return workloadMsg{seq: seq}
		}
		// The queries and their true answers are kept while the table
		// and roles stay (the session.s Cache, Env.PreviewEval).
		w, err := env.PreviewEval(ctx, prep, res, workload.Options{Queries: previewQueries, Range: 0.1, Seed: 1})
		if err != nil {
			return workloadMsg{seq: seq}
		}
		return workloadMsg{seq: seq, w: &w}
	}, func(error) tea.Msg { return workloadMsg{seq: seq} })
}

// fixRoles drops roles that name columns the loaded table lacks, saying so.
func (s *State) fixRoles() {
	if s.Table == nil {
		return
	}
	var gone []string
	keep := func(list []string) []string {
		var out []string
		for _, c := range list {
			if s.Table.Column(c) != nil {
				out = append(out, c)
			} else {
				gone = append(gone, c)
			}
		}
		return out
	}
	r := &s.Project.Roles
	r.QIs, r.IDs = keep(r.QIs), keep(r.IDs)
	if r.SA != "" && s.Table.Column(r.SA) == nil {
		gone = append(gone, r.SA)
		r.SA = ""
	}
	if len(gone) > 0 {
		s.Notify("ignored roles of missing columns: %s", strings.Join(gone, ", "))
	}
}

// settled reports whether the shown result and every figure measured on
// it (the workload, the risk figures) are those of the current settings.
func (s *State) settled() bool {
	return s.Result != nil && !s.pending() && !s.RiskOld && !s.WorkloadOld
}

// noteWarnings keeps the warnings of a settled result: they stay on
// screen, dimmed, while the next result and its figures are on their way
// (the lines do not vanish and come back).
func (s *State) noteWarnings() {
	if s.settled() {
		s.lastWarnings = s.usefulness()
	}
}

// shownWarnings are the warnings to show: the current ones once the
// result has settled, else the last settled result's (old is then true).
func (s *State) shownWarnings() (lines []string, old bool) {
	if s.settled() {
		return s.usefulness(), false
	}
	return s.lastWarnings, len(s.lastWarnings) > 0
}

// warnStyle is the style of warning lines: dimmed while they are old.
func warnStyle(s *Styles, old bool) lipgloss.Style {
	if old {
		return s.Muted
	}
	return s.Warn
}

// usefulness are the warnings that a private release may still be of
// little use: the method's own (most values at the root, a target far
// from the one asked for), the method-neutral ones the workbench reads
// from any result (records suppressed, records in groups generalized to
// the root, each above 10%), and the live workload's error above 100%.
func (s *State) usefulness() []string {
	r := s.Result
	if r == nil {
		return nil
	}
	// The release's warnings, as its manifest and report.md state them
	// (pipeline.ResultWarnings, FileWarnings).
	out := pipeline.ResultWarnings(r)
	var rk *risk.Report
	single := 0
	if !s.RiskOld {
		rk, single = s.Risk, s.RiskSingle
	}
	out = append(out, pipeline.FileWarnings(rk, single, r.RowsIn, r.Suppressed, r.SuppressionWarned)...)
	if w := s.Workload; w != nil && w.Queries > 0 && w.MeanErr > 1 {
		if w.Bounded > 0 {
			out = append(out, fmt.Sprintf("query answers are bounds %.0f times as wide as the true answer on average (%s workload)", w.MeanErr, s.Result.Workload))
		} else {
			out = append(out, fmt.Sprintf("query answers are off by %.0f%% on average (%s workload)", 100*w.MeanErr, s.Result.Workload))
		}
	}
	return out
}
