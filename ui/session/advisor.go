package session

import (
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// KeepAdvisorMap keeps the advisor's finished map in the project (the
// project file saves it; an export draws it beside the release while it
// is current). The project changed: it is marked unsaved, but nothing
// recomputes (the map reads the settings, it does not change them).
func (s *Session) KeepAdvisorMap(m *pipeline.AdvisorMap) {
	s.Project.Advisor = m
	s.Dirty, s.Unsaved = true, true
}

// AdoptPoint sets the project's method, variant and parameter values to
// those of the advisor's point at index (the risk-utility map, issue
// 34): the preview recomputes. The seed is the one the map's points ran
// with (pipeline.Project.MapSeed: the project's when fixed, else the
// advisor's), so the release made from the adopted point has the
// point's figures, and the map stays current.
func (s *Session) AdoptPoint(methodName, variant string, values model.Values, index int) {
	seed := s.Project.MapSeed()
	if methodName != s.Project.Method {
		s.SetMethod(methodName)
	}
	if s.Project.Params == nil {
		s.Project.Params = model.Values{}
	}
	s.Project.Variant = variant
	for name, v := range values {
		if name != model.SeedParam.Name {
			s.Project.Params[name] = v
		}
	}
	s.Project.Params[model.SeedParam.Name] = seed
	if m := s.Project.Advisor; m != nil {
		m = m.Clone()
		m.Adopted = &index
		s.Project.Advisor = m
	}
	s.Changed()
}
