package advisor

import (
	"context"

	"privlab/algorithms/advise"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// EvaluateRun is the Run the workbench gives the pane: advise.Evaluate
// of a snapshot of project p (cloned here, on the caller's goroutine)
// on table t, every method of methods (nil: all) over its default grid
// (advise.Settings), with opt (its Each is the pane's). t is read on
// the computation's goroutine: the app must replace its table, never
// change it in place, while a computation may run.
func EvaluateRun(env pipeline.Env, p pipeline.Project, t *model.Table, methods []string, opt advise.Options) Run {
	p = p.Clone()
	methods = append([]string(nil), methods...)
	return func(ctx context.Context, each func(done, total, at int, pt advise.Point)) error {
		settings, err := advise.Settings(methods, nil, t, p.Roles, p.Public != "")
		if err != nil {
			return err
		}
		opt.Each = each
		_, err = advise.Evaluate(ctx, env, p, t, settings, opt)
		return err
	}
}
