package session

import (
	"reflect"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/tour"
)

// Tour is the teaching tour on screen (issue 24): its steps (computed in
// the background, or the error that stopped them) and the current one.
type Tour struct {
	Tour  tour.Tour
	Steps []method.Step
	Err   error
	Cur   int
}

// ProjectOf is a setup as the workbench runs it (the dataset's defaults
// and the method's values for it filled in).
func (s *Session) ProjectOf(t tour.Tour, setup method.Setup) pipeline.Project {
	return s.Env.WithDefaults(t.Project(setup))
}

// SameRun reports whether two projects run the same: table, public
// table, method, variant, roles, hierarchies and values.
func SameRun(a, b pipeline.Project) bool {
	type run struct {
		In, Pub, M, V string
		R             any
		H, P          map[string]string
	}
	key := func(p pipeline.Project) run {
		return run{p.Input, p.Public, p.Method, p.Variant, p.Roles, p.Hierarchies, p.Params}
	}
	return reflect.DeepEqual(key(a), key(b))
}

// ShowStep moves the tour to step i and loads its setup into the
// workbench when the current settings differ from it.
func (s *Session) ShowStep(i int) {
	tr := s.Tour
	if tr == nil || i < 0 || i >= len(tr.Steps) {
		return
	}
	tr.Cur = i
	p := s.ProjectOf(tr.Tour, tr.Steps[i].Setup)
	if !SameRun(p, s.Project) {
		s.OpenProject(p)
	}
}
