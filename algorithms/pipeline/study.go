package pipeline

import (
	"context"
	"fmt"
	"io"
	"strings"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
)

// Lab gives a method's study what it may use (see method.Lab): the
// method and the baselines it declares, by name, the workload with the
// eval options, and inputs loaded like this project's.
func (e Env) Lab(p *Prepared, opt workload.Options) *method.Lab {
	studied := p.Method.Spec()
	return &method.Lab{
		Input:   p.Input(),
		Queries: opt.Queries,
		Seed:    opt.Seed,
		Run: func(ctx context.Context, name, variant string, values model.Values, in *method.Input) (res *method.Result, err error) {
			if err := Undeclared(studied, name, variant); err != nil {
				return nil, err
			}
			m, err := catalog.Lookup(name)
			if err != nil {
				return nil, err
			}
			spec := m.Spec()
			v, err := spec.Validate(values, in.Table.Rows)
			if err != nil {
				return nil, err
			}
			run := *in
			run.Variant, run.Values, run.Progress = variant, v, nil
			if !spec.NeedsSA {
				run.Roles.SA = ""
			}
			defer func() {
				if r := recover(); r != nil {
					res, err = nil, fmt.Errorf("internal error in method %s: %v (please report it)", name, r)
				}
			}()
			return m.Run(ctx, &run)
		},
		Error: func(res *method.Result, in *method.Input, shape string) (float64, int, error) {
			o := opt
			o.Shape = shape
			if o.Shape == "" {
				o.Shape = res.Workload
			}
			if res.Answerer == nil || o.Shape == "" {
				return 0, 0, fmt.Errorf("%s answers no queries", res.Spec.Name)
			}
			qs, err := workload.Generate(in.Table, in.Roles, o)
			if err != nil {
				return 0, 0, err
			}
			w, err := workload.Evaluate(in.Table, res.Answerer, qs)
			return w.MeanErr, w.Queries, err
		},
		Open: func(input, public string, rows int, seed uint64) (*method.Input, error) {
			q := p.Project.Clone()
			q.Input, q.Public, q.Rows, q.DataSeed = input, public, rows, seed
			t, err := e.LoadTable(q)
			if err != nil {
				return nil, err
			}
			prep, err := e.Prepare(q, t)
			if err != nil {
				return nil, err
			}
			return prep.Input(), nil
		},
		OpenAs: func(input string, roles model.Roles, hierarchies map[string]string, rows int, seed uint64) (*method.Input, error) {
			q := p.Project.Clone()
			q.Input, q.Public, q.Rows, q.DataSeed = input, "", rows, seed
			q.Roles, q.Hierarchies, q.Kinds, q.Columns = roles, hierarchies, nil, nil
			t, err := e.LoadTable(q)
			if err != nil {
				return nil, err
			}
			prep, err := e.Prepare(q, t)
			if err != nil {
				return nil, err
			}
			return prep.Input(), nil
		},
	}
}

// Undeclared refuses a run of another method than spec's own or a
// baseline it declares (method.Spec.Baselines).
func Undeclared(spec method.Spec, name, variant string) error {
	if spec.Runs(name, variant) {
		return nil
	}
	return fmt.Errorf("%s runs %s, which it does not declare as a baseline (method.Spec.Baselines)", spec.Name, strings.TrimSpace(name+" "+variant))
}

// RunStudy runs the method's study, if it declares one (nil otherwise).
func (e Env) RunStudy(ctx context.Context, p *Prepared, opt workload.Options) ([]method.Section, error) {
	study := p.Method.Spec().Study
	if study == nil {
		return nil, nil
	}
	return study(ctx, e.Lab(p, opt))
}

// PrintSections writes a study's tables and notes as text.
func PrintSections(w io.Writer, secs []method.Section) {
	for _, s := range secs {
		fmt.Fprintln(w)
		if s.Title != "" {
			fmt.Fprintln(w, s.Title)
		}
		for _, n := range s.Notes {
			fmt.Fprintln(w, "  "+n)
		}
		if len(s.Header) == 0 {
			continue
		}
		widths := make([]int, len(s.Header))
		for i, h := range s.Header {
			widths[i] = len(h)
		}
		for _, r := range s.Rows {
			for i := range widths {
				if i < len(r) && len(r[i]) > widths[i] {
					widths[i] = len(r[i])
				}
			}
		}
		line := func(cells []string) {
			parts := make([]string, len(widths))
			for i := range widths {
				c := ""
				if i < len(cells) {
					c = cells[i]
				}
				if i == 0 {
					parts[i] = fmt.Sprintf("%-*s", widths[i], c)
				} else {
					parts[i] = fmt.Sprintf("%*s", widths[i], c)
				}
			}
			fmt.Fprintln(w, strings.TrimRight("  "+strings.Join(parts, "  "), " "))
		}
		line(s.Header)
		for _, r := range s.Rows {
			line(r)
		}
	}
}
