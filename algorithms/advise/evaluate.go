package advise

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"privlab/algorithms/attack"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/query"
)

// Options tune Evaluate.
type Options struct {
	// Risk is the risk measure (RiskNames; "": RiskWorst).
	Risk string
	// Queries is the size of the common workload (0: 100), drawn with
	// seed 1, as an export draws its own.
	Queries int
	// Workers bounds the points run at once (0: one per core).
	Workers int
	// Each (when not nil) receives each point as it finishes, with the
	// number finished and the total, one call at a time (never two at
	// once), in the order the points finish.
	Each func(done, total, at int, p Point)
}

// DefaultQueries is the size of the common workload.
const DefaultQueries = 100

// Evaluate runs every setting as a whole run of project p on table t
// (loaded once): the method, its checks, the attacks an export measures
// (with the input, the public table and the project's population) and
// the common workload, drawn once and answered by each release. Each
// method is prepared once (roles, missing values, hierarchies, public
// table) and the methods that read the same columns share one prepared
// table and its hierarchies; the points run on a bounded pool of
// workers and come back in the settings' order, with the same figures
// for the same seed whatever the order they finish in. A point that
// cannot run has its error; a cancelled ctx stops the points not begun
// and returns ctx's error with the points finished so far.
func Evaluate(ctx context.Context, env pipeline.Env, p pipeline.Project, t *model.Table, settings []Setting, opt Options) ([]Point, error) {
	if opt.Risk == "" {
		opt.Risk = RiskWorst
	}
	if !slices.Contains(RiskNames, opt.Risk) {
		return nil, fmt.Errorf("unknown risk measure %q", opt.Risk)
	}
	if env.Cache == nil {
		env.Cache = &pipeline.Cache{} // the population is loaded once for every point
	}
	p = p.Clone()
	if p.Params == nil {
		p.Params = model.Values{}
	}
	// An unset or random seed runs as DefaultSeed: every point is to be
	// made again with the same figures.
	p.Params[model.SeedParam.Name] = p.MapSeed()
	s, err := prepare(env, p, t, settings, opt)
	if err != nil {
		return nil, err
	}
	points := make([]Point, len(settings))
	for i, set := range settings {
		points[i] = Point{Setting: set, Risk: math.NaN(), Interval: [2]float64{math.NaN(), math.NaN()}, Loss: math.NaN()}
	}
	err = s.runAll(ctx, points, opt)
	MarkFront(points)
	return points, err
}

// shared is what every point reads: each method's prepared run and the
// common workload with its true answers, per prepared table.
type shared struct {
	env      pipeline.Env
	risk     string
	base     map[string]*pipeline.Prepared
	baseErr  map[string]error
	queries  map[*model.Table][]*query.Query
	truths   map[*model.Table][]query.Answer
	truthErr map[*model.Table]error
}

// prepare prepares each method once and draws the workload once per
// prepared table.
func prepare(env pipeline.Env, p pipeline.Project, t *model.Table, settings []Setting, opt Options) (*shared, error) {
	s := &shared{env: env, risk: opt.Risk, base: map[string]*pipeline.Prepared{}, baseErr: map[string]error{},
		queries: map[*model.Table][]*query.Query{}, truths: map[*model.Table][]query.Answer{}, truthErr: map[*model.Table]error{}}
	var first *pipeline.Prepared
	for _, set := range settings {
		if _, done := s.base[set.Method]; done || s.baseErr[set.Method] != nil {
			continue
		}
		prep, err := prepareMethod(env, p, t, set.Method)
		if err != nil {
			s.baseErr[set.Method] = err
			continue
		}
		if first == nil {
			// The population is checked against the input once (it must
			// hold every original record's QIs), before any point runs.
			if err := env.LoadPopulationOf(prep); err != nil {
				return nil, err
			}
			first = prep
		} else {
			shareTable(prep, first)
		}
		prep.Population = first.Population
		s.base[set.Method] = prep
		if _, drawn := s.queries[prep.Table]; !drawn {
			wo := workload.Options{Shape: workload.CountIn, Queries: opt.Queries, Seed: 1}
			if wo.Queries <= 0 {
				wo.Queries = DefaultQueries
			}
			qs, err := workload.Generate(prep.Table, prep.Project.Roles, wo)
			var truths []query.Answer
			if err == nil {
				truths, err = workload.Truths(prep.Table, qs)
			}
			s.queries[prep.Table], s.truths[prep.Table], s.truthErr[prep.Table] = qs, truths, err
		}
	}
	return s, nil
}

// prepareMethod prepares project p for one method at its defaults (and
// the project's seed).
func prepareMethod(env pipeline.Env, p pipeline.Project, t *model.Table, name string) (*pipeline.Prepared, error) {
	q := p.Clone()
	q.Method, q.Variant = name, ""
	q.Params = model.Values{model.SeedParam.Name: p.Params[model.SeedParam.Name]}
	prep, err := env.Prepare(q, t)
	if err != nil {
		var pe *model.ParamError
		if errors.As(err, &pe) && pe.Param == "public" && q.Public != "" {
			// A method that reads no public table runs without it.
			q.Public = ""
			return env.Prepare(q, t)
		}
		return nil, err
	}
	return prep, nil
}

// shareTable lets prep read first's table and hierarchies when both
// read the same columns of the same input with the same missing-value
// policy: the tables are then equal, and one table answers the workload
// once for both.
func shareTable(prep, first *pipeline.Prepared) {
	if prep.Source != first.Source || prep.Project.Missing != first.Project.Missing ||
		!slices.Equal(prep.Project.Roles.Used(), first.Project.Roles.Used()) || !sameSpecs(prep, first) {
		return
	}
	prep.Table, prep.Dropped, prep.InputRow, prep.Hierarchies = first.Table, first.Dropped, first.InputRow, first.Hierarchies
}

// sameSpecs reports whether both built their hierarchies from the same
// specs.
func sameSpecs(a, b *pipeline.Prepared) bool {
	for _, attr := range a.Project.Roles.Used() {
		if a.Project.Hierarchies[attr] != b.Project.Hierarchies[attr] {
			return false
		}
	}
	return true
}

// runAll runs the points on a pool of workers.
func (s *shared) runAll(ctx context.Context, points []Point, opt Options) error {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(points)))
	jobs := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				s.run(ctx, &points[i])
				if ctx.Err() != nil {
					continue // a cancelled point is not reported as finished
				}
				mu.Lock()
				done++
				if opt.Each != nil {
					opt.Each(done, len(points), i, points[i])
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range points {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return ctx.Err()
}

// run evaluates one point: a whole run of its setting, its attacks and
// the common workload. A panic in a method is the point's error.
func (s *shared) run(ctx context.Context, pt *Point) {
	defer func() {
		if r := recover(); r != nil {
			pt.Err = model.Recovered(r, "in method "+pt.Method).Error()
		}
	}()
	if err := s.measure(ctx, pt); err != nil {
		pt.Err, pt.Holds = err.Error(), false
	}
}

// measure fills in the point's figures.
func (s *shared) measure(ctx context.Context, pt *Point) error {
	base, ok := s.base[pt.Method]
	if !ok {
		return s.baseErr[pt.Method]
	}
	prep, err := pointPrepared(base, pt.Setting)
	if err != nil {
		return err
	}
	// The method's deferred figures (method.Result.Deferred) hold no
	// limit, so they change neither Satisfied nor the release the
	// attacks read: they are left out, as the workbench's preview does.
	res, err := pipeline.Run(ctx, prep, pipeline.RunOptions{Preview: true})
	if err != nil {
		return err
	}
	rep, err := pipeline.NewPreview(res).Attacks(ctx, s.env, prep)
	if err != nil {
		return err
	}
	pt.Holds = res.Satisfied() && rep.Broken() == 0
	pt.Risk, pt.Interval, pt.Attack = RiskOf(rep, s.risk)
	if err := s.truthErr[prep.Table]; err != nil {
		return err
	}
	if res.Answerer == nil {
		return fmt.Errorf("method %s answers no query", pt.Method)
	}
	w, err := workload.EvaluateTruths(s.truths[prep.Table], res.Answerer, s.queries[prep.Table])
	if err != nil {
		return err
	}
	if w.Queries > 0 {
		pt.Loss = w.MedErr
	}
	return nil
}

// pointPrepared is the method's prepared run with the setting's variant
// and values (validated as Prepare validates them), sharing its table,
// hierarchies and public table.
func pointPrepared(base *pipeline.Prepared, set Setting) (*pipeline.Prepared, error) {
	spec := base.Method.Spec()
	prep := *base
	prep.Project = base.Project.Clone()
	prep.Project.Variant = set.Variant
	if set.Variant != "" && !slices.Contains(spec.Variants, set.Variant) {
		return nil, &model.ParamError{Param: "variant", Value: set.Variant, Reason: "unknown variant of " + spec.Name}
	}
	for k, v := range set.Values {
		prep.Project.Params[k] = v
	}
	var err error
	if prep.Values, err = spec.Validate(prep.Project.Params, prep.Table.Rows); err != nil {
		return nil, err
	}
	return &prep, nil
}

// RiskOf is the risk measure's figure on an attack report: the
// calibrated risk beyond the baseline of the measure's attack, or for
// RiskWorst the largest of every attack that measured a rate (the first
// of equal ones), with its 95% interval and the attack's name; NaN when
// none measured a rate.
func RiskOf(rep *attack.Report, measure string) (float64, [2]float64, string) {
	r, iv, name := math.NaN(), [2]float64{math.NaN(), math.NaN()}, ""
	if rep == nil {
		return r, iv, name
	}
	for _, f := range rep.Findings {
		if !f.Calibrated() || math.IsNaN(f.Risk()) {
			continue
		}
		if measure != RiskWorst && f.Attack != riskAttacks[measure] {
			continue
		}
		if math.IsNaN(r) || f.Risk() > r {
			r, iv, name = f.Risk(), f.Interval(), f.Attack
		}
	}
	return r, iv, name
}
