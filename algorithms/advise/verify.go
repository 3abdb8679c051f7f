package advise

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
)

// Verify makes the point again as a full run of project p on table t
// (privlab advise --verify): prepared from scratch, run, exported to a
// temporary directory (removed after), checked and attacked from its
// files as a recipient would, and the common workload answered by the
// release read back from its files. It returns the point with the
// figures so measured, for Differences to hold against the advisor's.
func Verify(ctx context.Context, env pipeline.Env, p pipeline.Project, t *model.Table, pt Point, opt Options) (Point, error) {
	out := Point{Setting: pt.Setting, Risk: math.NaN(), Interval: [2]float64{math.NaN(), math.NaN()}, Loss: math.NaN()}
	p = p.Clone()
	if p.Params == nil {
		p.Params = model.Values{}
	}
	p.Params[model.SeedParam.Name] = p.MapSeed()
	prep, err := prepareMethod(env, p, t, pt.Method)
	if err != nil {
		return out, err
	}
	if prep, err = pointPrepared(prep, pt.Setting); err != nil {
		return out, err
	}
	if err := env.LoadPopulationOf(prep); err != nil {
		return out, err
	}
	res, err := pipeline.Run(ctx, prep, pipeline.RunOptions{})
	if err != nil {
		return out, err
	}
	tmp, err := os.MkdirTemp("", "privlab-advise-")
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "release")
	if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{Context: ctx, AcceptViolations: true, AllowGrowth: true, Queries: pipeline.NoQueries}); err != nil {
		return out, err
	}
	return measureRelease(env, prep, dir, out, opt)
}

// measureRelease measures an exported release from its files: holds
// (the check passes and no attack breaks its bound), the risk measure
// and the common workload's loss.
func measureRelease(env pipeline.Env, prep *pipeline.Prepared, dir string, out Point, opt Options) (Point, error) {
	k := &risk.Knowledge{Original: prep.Source, Public: prep.Public, Population: prep.Population}
	if prep.Population != nil {
		k.PopulationName = pipeline.PopulationWords(prep.Population.Rows)
	}
	rep, err := env.CheckWith(dir, k)
	if err != nil {
		return out, err
	}
	atk, err := pipeline.Attack(dir, k)
	if err != nil {
		return out, err
	}
	measure := opt.Risk
	if measure == "" {
		measure = RiskWorst
	}
	out.Holds = rep.Err() == nil && atk.Broken() == 0
	out.Risk, out.Interval, out.Attack = RiskOf(atk, measure)
	answers, err := prep.Method.OpenRelease(dir)
	if err != nil {
		return out, err
	}
	n := opt.Queries
	if n <= 0 {
		n = DefaultQueries
	}
	qs, err := workload.Generate(prep.Table, prep.Project.Roles, workload.Options{Shape: workload.CountIn, Queries: n, Seed: 1})
	if err != nil {
		return out, err
	}
	w, err := workload.Evaluate(prep.Table, answers, qs)
	if err != nil {
		return out, err
	}
	if w.Queries > 0 {
		out.Loss = w.MedErr
	}
	return out, nil
}

// Differences names each figure of got that differs from want (holds,
// the attack, risk, its interval, loss), with both values; none when
// they agree (to 1e-9, relative).
func Differences(want, got Point) []string {
	var out []string
	if want.Holds != got.Holds {
		out = append(out, fmt.Sprintf("holds %v, the full run %v", want.Holds, got.Holds))
	}
	if want.Attack != got.Attack {
		out = append(out, fmt.Sprintf("risk is of %q, the full run's of %q", want.Attack, got.Attack))
	}
	for _, f := range []struct {
		name string
		a, b float64
	}{{"risk", want.Risk, got.Risk}, {"risk interval low", want.Interval[0], got.Interval[0]},
		{"risk interval high", want.Interval[1], got.Interval[1]}, {"loss", want.Loss, got.Loss}} {
		if !agree(f.a, f.b) {
			out = append(out, fmt.Sprintf("%s %s, the full run %s", f.name, model.FormatNumber(f.a), model.FormatNumber(f.b)))
		}
	}
	return out
}

// agree reports whether two figures agree to 1e-9, relative (NaN agrees
// with NaN only).
func agree(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
