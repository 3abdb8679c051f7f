// Package session owns what the workbench is working on: the project
// being tuned (input, roles, method, settings), the loaded table, the
// latest result and every figure measured on it, a received release
// being read, and the transient status message. Panes read its fields
// and change it only through its methods, which mark what must be
// recomputed (NeedLoad, NeedRun); the root model then loads or recomputes
// in the background and lands the results here.
package session

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
)

// Session is the project being tuned, the loaded table and the latest
// result.
type Session struct {
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
	// Progress of the running computation, written by the worker (the
	// root model's mark of the run that wrote it).
	Progress *atomic.Value

	// Changes counts the edits of the settings; ResultOf is the count the
	// shown Result was computed for. They differ when the last run was
	// cancelled or failed: the preview is stale and export refuses.
	Changes  int
	ResultOf int
	// Cancelled is set when the user stopped the last run.
	Cancelled bool

	// Dirty is true when the project changed since the last export or
	// save: quitting or opening another table asks first.
	Dirty bool
	// Unsaved is true when the project changed since it was last saved
	// or opened (an export records its release in the project, so it
	// leaves the project unsaved): the header's "unsaved" mark.
	Unsaved bool
	// ProjectPath is the project.json the settings were opened from or
	// saved to (ctrl+s writes back to it).
	ProjectPath string
	// LastDir is the folder the file pickers open in (the last one used).
	LastDir string

	// ReceivedDir is a release opened to be read (privlab DIR): the
	// workbench then shows it and answers queries from it, with Table as
	// the original when one is loaded.
	ReceivedDir string
	Received    *Received
	ReceivedErr error
	// Tour is the teaching tour on screen (nil: none; tour.go).
	Tour *Tour
	// AskedRelease is set once the received release was asked to be read.
	AskedRelease bool
	// AskedHeader is set once the import wizard was opened on a table
	// whose first row was read as data (it is not opened again).
	AskedHeader bool
	// Status is a transient message for the summary bar (errors that
	// persist are LoadErr and RunErr).
	Status    string
	StatusErr bool
	statusOf  int // Changes when the status was set

	// NeedLoad and NeedRun ask the root model to read the table again and
	// to recompute the preview.
	NeedLoad bool
	NeedRun  bool
	// lastWarnings are the warnings of the last settled result (see
	// ShownWarnings).
	lastWarnings []string
}

// Changed marks the project as edited: the preview recomputes. Every
// edit that changes what a run gives goes through here (or through
// Reload, SetInput, OpenProject, which count as edits too), so the
// shown result is stale until a run on the new settings lands.
func (s *Session) Changed() {
	s.NeedRun = true
	s.Dirty, s.Unsaved = true, true
	s.Changes++
	s.Cancelled = false
}

// Reload marks the table to be read again (a column's kind changed): the
// shown result belongs to the old table and is stale until a run on the
// reloaded one lands.
func (s *Session) Reload() {
	s.Changed()
	s.NeedLoad = true
}

// Pending reports whether a load or a run for the current settings is
// under way or scheduled.
func (s *Session) Pending() bool {
	return s.Running || s.NeedRun || s.Loading || s.NeedLoad
}

// Current reports whether the shown result is that of the current
// settings: computed for them, not superseded, without an error.
func (s *Session) Current() bool {
	return s.Result != nil && s.ResultOf == s.Changes && s.RunErr == nil && s.LoadErr == nil && !s.Pending()
}

// Stale reports whether a result is shown that belongs to earlier
// settings and none is coming (the run was cancelled or failed).
func (s *Session) Stale() bool {
	return s.Result != nil && s.ResultOf != s.Changes && !s.Pending()
}

// SetParam sets a parameter's value: the preview recomputes.
func (s *Session) SetParam(name, v string) {
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
func (s *Session) SetMethod(name string) {
	s.Project = s.Env.WithDefaults(s.Project.Switch(name))
	s.DropResult()
	s.Changed()
}

// ParkPublic keeps a public table given with a method that reads none
// (privlab --public FILE) for the methods that read one: the project
// runs as it is, and the table is there when one of them is chosen.
func (s *Session) ParkPublic() {
	p := &s.Project
	if p.Public == "" || s.Spec().Public != method.NoPublic {
		return
	}
	for _, m := range catalog.All() {
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

// DropResult forgets the shown result and everything derived from it.
func (s *Session) DropResult() {
	s.Result, s.Prep, s.RunErr = nil, nil, nil
	s.Workload, s.WorkloadOld = nil, false
	s.Risk, s.RiskOld = nil, false
	s.Attacks, s.AttacksOld = nil, false
	s.Together, s.TogetherOld, s.TogetherErr = nil, false, nil
	s.lastWarnings = nil
}

// SetInput switches to another table (a file or dataset:NAME); the
// roles are reset to the dataset's defaults (none for a file).
func (s *Session) SetInput(input string) {
	s.Project = pipeline.Project{Input: input, Method: s.Project.Method, Params: model.Values{}}
	s.Project = s.Env.WithDefaults(s.Project)
	s.newTable()
	s.Dirty, s.Unsaved = true, true
}

// OpenProject replaces the whole configuration with a saved project.json.
func (s *Session) OpenProject(p pipeline.Project) {
	if p.Method == "" {
		p.Method = s.Project.Method
	}
	s.Project = s.Env.WithDefaults(p)
	s.newTable()
	s.Dirty, s.Unsaved = false, false
}

// newTable forgets what belonged to the previous table (its result, a
// received release being read) and loads the project's input: the
// workbench is back to tuning, and nothing is shown or exported until a
// run on the new settings lands.
func (s *Session) newTable() {
	s.Table, s.LoadErr, s.AskedHeader = nil, nil, false
	s.DropResult()
	s.LeaveRelease()
	s.Changed()
	s.NeedLoad = true
}

// LeaveRelease ends the reading of a received release.
func (s *Session) LeaveRelease() {
	s.ReceivedDir, s.Received, s.ReceivedErr, s.AskedRelease = "", nil, nil, false
}

// Notify sets the status message. It is transient: it goes when a load
// or a result of later settings lands (ExpireStatus).
func (s *Session) Notify(format string, args ...any) {
	s.Status, s.StatusErr, s.statusOf = fmt.Sprintf(format, args...), false, s.Changes
}

// ExpireStatus drops the status message when work for settings edited
// after it was shown lands (changes: the settings' count the load or run
// was started for): "exported ..." or "loading ..." then speaks of
// something no longer on screen, and an error status is the refusal of
// an action (a hierarchy file that does not fit, a save that failed)
// that the user has moved on from. The errors of the settings themselves
// (LoadErr, RunErr) are no messages: they go when their cause is fixed.
func (s *Session) ExpireStatus(changes int) {
	if s.Status != "" && changes > s.statusOf {
		s.Status, s.StatusErr = "", false
	}
}

// Refuse sets an error status message (the words that explain why an
// action was refused). It stays through recomputations of the same
// settings and goes with the next change (see ExpireStatus).
func (s *Session) Refuse(words string) {
	s.Status, s.StatusErr, s.statusOf = words, true, s.Changes
}

// ClearStatus drops the status message.
func (s *Session) ClearStatus() {
	s.Status, s.StatusErr = "", false
}

// Spec is the current method's declaration (zero when unknown).
func (s *Session) Spec() method.Spec {
	for _, m := range catalog.All() {
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
func (s *Session) Variant() (v string, noPublic bool) {
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

// RunProject is the project a run of the current settings reads: the
// variant without a public table when that one applies (see Variant),
// and no public table for a method that reads none.
func (s *Session) RunProject() pipeline.Project {
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
func (s *Session) Value(name string) string {
	if v, ok := s.Project.Params[name]; ok {
		return v
	}
	if p, ok := s.Spec().Param(name); ok {
		return p.Default
	}
	return ""
}

// FixRoles drops roles that name columns the loaded table lacks, saying so.
func (s *Session) FixRoles() {
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

// Settled reports whether the shown result and every figure measured on
// it (the workload, the risk figures) are those of the current settings.
func (s *Session) Settled() bool {
	return s.Result != nil && !s.Pending() && !s.RiskOld && !s.WorkloadOld
}

// NoteWarnings keeps the warnings of a settled result: they stay on
// screen, dimmed, while the next result and its figures are on their way
// (the lines do not vanish and come back).
func (s *Session) NoteWarnings() {
	if s.Settled() {
		s.lastWarnings = s.Usefulness()
	}
}

// ShownWarnings are the warnings to show: the current ones once the
// result has settled, else the last settled result's (old is then true).
func (s *Session) ShownWarnings() (lines []string, old bool) {
	if s.Settled() {
		return s.Usefulness(), false
	}
	return s.lastWarnings, len(s.lastWarnings) > 0
}

// Usefulness are the warnings that a private release may still be of
// little use: the method's own (most values at the root, a target far
// from the one asked for), the method-neutral ones the workbench reads
// from any result (records suppressed, records in groups generalized to
// the root, each above 10%), and the live workload's error above 100%.
func (s *Session) Usefulness() []string {
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
