package session

import (
	"privlab/algorithms/attack"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
)

// What the root model lands in the session when background work
// finishes, and the session's moves between tuning and reading a
// received release.

// LandWorkload takes the live workload's error of the shown result.
func (s *Session) LandWorkload(w *workload.Result) {
	s.Workload, s.WorkloadOld = w, false
	s.NoteWarnings()
}

// AddFigures adds the figures a method computes after its result. The
// result is a new value: background work (an export) may be reading the
// old one's figures.
func (s *Session) AddFigures(figs []releasedir.Figure) {
	r := *s.Result
	r.Summary = append(append([]releasedir.Figure(nil), r.Summary...), figs...)
	s.Result = &r
}

// LandRisk takes the risk figures of the shown result's release.
func (s *Session) LandRisk(rep *risk.Report, single int) {
	s.Risk, s.RiskOld, s.RiskSingle = rep, false, single
}

// LandAttacks takes the attacks measured on the shown result's release
// (err: why they could not be).
func (s *Session) LandAttacks(rep *attack.Report, err error) {
	s.Attacks, s.AttacksOld, s.AttacksErr = rep, false, err
}

// LandTogether takes the shown result's release attacked together with
// the earlier releases (err: why it could not be).
func (s *Session) LandTogether(fig *pipeline.Together, err error) {
	s.Together, s.TogetherOld, s.TogetherErr = fig, false, err
}

// Receive leaves tuning for a received release in dir: the table and
// result have nothing to do with it and go (unsaved changes were
// confirmed before), only the method and its values stay, and the
// release's own input is looked for.
func (s *Session) Receive(dir string) {
	s.Running, s.Loading, s.NeedRun, s.NeedLoad = false, false, false, false
	s.Table, s.LoadErr = nil, nil
	s.DropResult()
	s.Project = pipeline.Project{Method: s.Project.Method, Params: s.Project.Params}
	s.ReceivedDir, s.Received, s.ReceivedErr, s.AskedRelease = dir, nil, nil, true
	s.Dirty, s.Unsaved = false, false
	s.ClearStatus()
}

// ReleaseRead takes a received release read and checked (err: why it
// could not be).
func (s *Session) ReleaseRead(rel *Received, err error) {
	s.Received, s.ReceivedErr = rel, err
}

// UseReleaseInput takes the received release's input, found through its
// audit record: the project that loads it and the table (input.Input ""
// when none was found).
func (s *Session) UseReleaseInput(input pipeline.Project, original *model.Table) {
	if input.Input != "" {
		s.Project.Input, s.Project.Rows, s.Project.DataSeed = input.Input, input.Rows, input.DataSeed
		s.Project.Columns, s.Project.Delimiter, s.Project.Kinds = input.Columns, input.Delimiter, input.Kinds
		// The roles and the missing-value policy the release was made
		// with: the Data pane shows them, and counts the rows the
		// export dropped as it did (issue 35 polish: no roles, and "0
		// of 32,561 rows dropped" beside a header naming them).
		s.Project.Roles, s.Project.Missing, s.Project.MissingValues = input.Roles, input.Missing, input.MissingValues
		s.Table = original
	}
}
