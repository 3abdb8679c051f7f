// Package tour lists the teaching tours of the registered methods, each
// method's paper on its own worked example (method.Touring), and runs
// them headless: `privlab tour` lists them, `privlab tour NAME --steps`
// prints the steps, and the workbench's tour view shows them beside the
// live preview. A tour's steps run the real method on the paper's own
// table through a lab (method.TourLab) that prepares every run the way
// the command line does.
package tour

import (
	"context"
	"fmt"
	"strings"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// Tour is a registered method's tour.
type Tour struct {
	// Name is the method's name: privlab tour NAME.
	Name string
	method.Tour
}

// All returns the tours of the registered methods, in menu order.
func All() []Tour {
	var out []Tour
	for _, m := range catalog.All() {
		if t, ok := m.(method.Touring); ok {
			out = append(out, Tour{Name: m.Spec().Name, Tour: t.Tour()})
		}
	}
	return out
}

// Names lists the tours' names.
func Names() []string {
	var out []string
	for _, t := range All() {
		out = append(out, t.Name)
	}
	return out
}

// Lookup finds a tour by name; the error lists the tours.
func Lookup(name string) (Tour, error) {
	for _, t := range All() {
		if t.Name == name {
			return t, nil
		}
	}
	return Tour{}, &model.ParamError{Param: "tour", Value: name, Reason: "no such tour",
		Hint: "tours: " + strings.Join(Names(), ", ") + " (privlab tour lists them)"}
}

// ForDataset finds the worked example an embedded dataset is the table
// of: the tour and the setup (method and settings) of that example.
func ForDataset(name string) (Tour, method.Setup, bool) {
	for _, t := range All() {
		for _, s := range t.Setups {
			if s.Input == "dataset:"+name {
				return t, s, true
			}
		}
	}
	return Tour{}, method.Setup{}, false
}

// Method is the method a setup runs (the tour's unless it names another).
func (t Tour) Method(s method.Setup) string {
	if s.Method != "" {
		return s.Method
	}
	return t.Name
}

// Project is a setup as a project: what the command line and the
// workbench run.
func (t Tour) Project(s method.Setup) pipeline.Project {
	p := pipeline.Project{Input: s.Input, Public: s.Public, Population: s.Population, Method: t.Method(s), Variant: s.Variant,
		Roles:  model.Roles{IDs: append([]string(nil), s.Roles.IDs...), QIs: append([]string(nil), s.Roles.QIs...), SA: s.Roles.SA},
		Params: s.Params.Clone()}
	if p.Params == nil {
		p.Params = model.Values{}
	}
	if len(s.Hierarchies) > 0 {
		p.Hierarchies = map[string]string{}
		for a, h := range s.Hierarchies {
			p.Hierarchies[a] = h
		}
	}
	return p
}

// Start is the project the tour opens on: its first setup.
func (t Tour) Start() pipeline.Project {
	if len(t.Setups) == 0 {
		return pipeline.Project{Method: t.Name}
	}
	return t.Project(t.Setups[0])
}

// Lab gives a tour's steps runs prepared as the command line prepares
// them.
func (t Tour) Lab(env pipeline.Env) *method.TourLab {
	prepare := func(s method.Setup) (*pipeline.Prepared, error) {
		p := t.Project(s)
		tab, err := env.LoadTable(env.WithDefaults(p))
		if err != nil {
			return nil, err
		}
		return env.Prepare(p, tab)
	}
	return &method.TourLab{
		Prepare: func(s method.Setup) (*method.Input, error) {
			prep, err := prepare(s)
			if err != nil {
				return nil, err
			}
			return prep.Input(), nil
		},
		Run: func(ctx context.Context, s method.Setup) (*method.Input, *method.Result, error) {
			if s.Method != "" {
				m, err := catalog.Lookup(t.Name)
				if err != nil {
					return nil, nil, err
				}
				if err := pipeline.Undeclared(m.Spec(), s.Method, s.Variant); err != nil {
					return nil, nil, err
				}
			}
			prep, err := prepare(s)
			if err != nil {
				return nil, nil, err
			}
			res, err := pipeline.Run(ctx, prep, pipeline.RunOptions{})
			return prep.Input(), res, err
		},
		Attack: func(ctx context.Context, s method.Setup, a method.Attacker) ([]risk.Finding, error) {
			prep, err := prepare(s)
			if err != nil {
				return nil, err
			}
			res, err := pipeline.Run(ctx, prep, pipeline.RunOptions{})
			if err != nil {
				return nil, err
			}
			k, err := knowledge(env, prep, a)
			if err != nil {
				return nil, err
			}
			return attackResult(res, k)
		},
	}
}

// knowledge is what a step's attacker holds, from the setup's tables and
// the population the step names.
func knowledge(env pipeline.Env, prep *pipeline.Prepared, a method.Attacker) (*risk.Knowledge, error) {
	k := &risk.Knowledge{}
	if a.Original {
		k.Original = prep.Source
	}
	if a.Public {
		k.Public = prep.Public
	}
	switch {
	case a.PopulationTable != nil:
		k.Population, k.PopulationName = a.PopulationTable, a.PopulationName
	case a.Population != "":
		t, name, err := env.LoadPopulation(a.Population, nil, 0)
		if err != nil {
			return nil, err
		}
		k.Population, k.PopulationName = t, name
		if a.PopulationName != "" {
			k.PopulationName = a.PopulationName
		}
	}
	return k, nil
}

// attackResult attacks a run's release as it would be published, with
// the attacks the registry gives its method (as the workbench's preview
// does).
func attackResult(res *method.Result, k *risk.Knowledge) ([]risk.Finding, error) {
	m, ok := pipeline.AttackMethod(res.Spec.Name)
	if !ok || m.Expose == nil {
		return nil, fmt.Errorf("method %s registers no attacks", res.Spec.Name)
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return nil, err
	}
	rel.Manifest.RowsIn = res.RowsIn
	mem, err := verify.OpenMemory(rel)
	if err != nil {
		return nil, err
	}
	rep, err := attack.Run(mem, m, k)
	if err != nil {
		return nil, err
	}
	return rep.Findings, nil
}

// Steps builds every step of the tour; a step without a setup of its own
// shows the tour's first.
func (t Tour) Steps(ctx context.Context, env pipeline.Env) ([]method.Step, error) {
	lab := t.Lab(env)
	out := make([]method.Step, 0, len(t.Tour.Steps))
	for i, build := range t.Tour.Steps {
		st, err := build(ctx, lab)
		if err != nil {
			return nil, fmt.Errorf("tour %s, step %d: %w", t.Name, i+1, err)
		}
		if st.Setup.Input == "" && len(t.Setups) > 0 {
			st.Setup = t.Setups[0]
		}
		out = append(out, st)
	}
	return out, nil
}
