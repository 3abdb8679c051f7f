package pipeline

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"weak"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/query"
)

// Preview is what the workbench measures on a run's result once its
// groups are on screen: the risk figures and the attacks on the release
// as it would be published, read from one build of it. The release is
// built in memory (rows shuffled with a fixed seed: order changes no
// figure), written to its files' bytes and read back by the method's
// viewer once, whichever figure asks first; the view is shared (the
// attacks read the same view the risk figures do, as an export's do),
// so the two run at once on both cores without doing the work twice.
// Risk and PreviewAttacks are each of them alone.
type Preview struct {
	res   *method.Result
	once  sync.Once
	built *verify.Release
	err   error
}

// NewPreview is the preview of a run's result.
func NewPreview(res *method.Result) *Preview { return &Preview{res: res} }

// Built is the release built in memory and opened as its files would be
// read (verify.OpenBuilt), once; ctx stops a build not begun.
func (pv *Preview) Built(ctx context.Context) (*verify.Release, error) {
	pv.once.Do(func() {
		if pv.err = ctx.Err(); pv.err != nil {
			return
		}
		pv.built, pv.err = buildPreview(pv.res)
	})
	return pv.built, pv.err
}

func buildPreview(res *method.Result) (*verify.Release, error) {
	if res == nil || res.Release == nil {
		return nil, fmt.Errorf("no release to measure")
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return nil, err
	}
	rel.Manifest.RowsIn = res.RowsIn
	return verify.OpenBuilt(rel)
}

// Risk is pipeline.Risk on the shared build: the figures every release
// gets at the threshold (0: the default).
func (pv *Preview) Risk(ctx context.Context, threshold float64) (*risk.Report, *risk.View, error) {
	view, err := viewerOf(pv.res)
	if err != nil {
		return nil, nil, err
	}
	mem, err := pv.Built(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err // a newer key: its own release is measured
	}
	return mem.Risk(view, threshold)
}

// Attacks is Env.PreviewAttacks on the shared build: the attacks with
// what an export would give them (the input, the public table and the
// project's population).
func (pv *Preview) Attacks(ctx context.Context, e Env, p *Prepared) (*attack.Report, error) {
	res := pv.res
	if res == nil || res.Release == nil {
		return nil, fmt.Errorf("no release to attack")
	}
	m, ok := AttackMethod(res.Spec.Name)
	if !ok || m.Expose == nil {
		return nil, fmt.Errorf("method %s registers no exposer", res.Spec.Name)
	}
	k, err := e.previewKnowledge(p)
	if err != nil {
		return nil, err
	}
	mem, err := pv.Built(ctx)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return attack.Run(mem, m, k)
}

// viewerOf is the viewer of the result's method.
func viewerOf(res *method.Result) (verify.Viewer, error) {
	if res == nil {
		return nil, fmt.Errorf("no release to measure")
	}
	view, ok := catalog.Viewer(res.Spec.Name)
	if !ok || view == nil {
		return nil, fmt.Errorf("method %s registers no viewer", res.Spec.Name)
	}
	return view, nil
}

// previewKnowledge is what the preview's attacks know: the input, the
// public table and the project's population (kept in e.Cache while its
// file is unchanged).
func (e Env) previewKnowledge(p *Prepared) (*risk.Knowledge, error) {
	k := &risk.Knowledge{Original: p.Source, Public: p.Public}
	if path := p.Project.Population; path != "" {
		var err error
		load := func() (*model.Table, error) {
			t, _, err := e.LoadPopulation(path, p.Project.PopulationColumns, p.Project.MaxCell)
			return t, err
		}
		if k.Population, err = e.Cache.population(path, p.Project.PopulationColumns, p.Project.MaxCell, load); err != nil {
			return nil, err
		}
		k.PopulationName = PopulationWords(k.Population.Rows)
	}
	return k, nil
}

// keptTruths are one workload's queries and their true answers: they
// depend on the table and its roles and the workload's options, never on
// the method's parameters, so a key that changes a parameter answers the
// same queries on the new release without counting the table again. A
// Cache keeps a few (the preview's and a sweep's at once).
type keptTruths struct {
	key    truthsKey
	qs     []*query.Query
	truths []query.Answer
}

// keepTruths is how many workloads a Cache keeps.
const keepTruths = 4

// truthsOf returns the kept queries and answers of key (ok false when
// none are kept).
func (c *Cache) truthsOf(key truthsKey) (keptTruths, bool) {
	if c == nil {
		return keptTruths{}, false
	}
	c.truthsMu.Lock()
	defer c.truthsMu.Unlock()
	for i, k := range c.truths {
		if k.key == key {
			copy(c.truths[1:i+1], c.truths[:i])
			c.truths[0] = k
			return k, true
		}
	}
	return keptTruths{}, false
}

// keep keeps k first, dropping the least recently used beyond keepTruths.
func (c *Cache) keep(k keptTruths) {
	if c == nil {
		return
	}
	c.truthsMu.Lock()
	defer c.truthsMu.Unlock()
	c.truths = append([]keptTruths{k}, c.truths...)
	if len(c.truths) > keepTruths {
		c.truths = c.truths[:keepTruths]
	}
}

// truthsKey is what the queries and their true answers are of: the
// table as loaded, the roles and missing-value policy that make the
// table the method reads from it, and the workload's options.
type truthsKey struct {
	// source is weak: a kept workload never keeps a table the workbench
	// let go of (a collected table's key matches nothing again).
	source      weak.Pointer[model.Table]
	qis, ids    string
	sa, missing string
	opt         workload.Options
}

func keyOf(p *Prepared, opt workload.Options) truthsKey {
	r := p.Project.Roles
	return truthsKey{source: weak.Make(p.Source), qis: fmt.Sprintf("%q", r.QIs), ids: fmt.Sprintf("%q", r.IDs), sa: r.SA, missing: p.Project.Missing, opt: opt}
}

// PreviewEval is Eval for the workbench's live workload: the same
// queries and answers, with the queries and their true answers kept
// from the last call on the same table, roles and options (in e.Cache).
// A cancelled ctx (a newer key) stops it at the next query.
func (e Env) PreviewEval(ctx context.Context, p *Prepared, res *method.Result, opt workload.Options) (workload.Result, error) {
	if opt.Shape == "" {
		opt.Shape = res.Workload
	}
	key := keyOf(p, opt)
	k, hit := e.Cache.truthsOf(key)
	if !hit {
		qs, err := workload.Generate(p.Table, p.Project.Roles, opt)
		if err != nil {
			return workload.Result{}, err
		}
		truths, err := workload.Truths(p.Table, qs)
		if err != nil {
			return workload.Result{}, err
		}
		k = keptTruths{key, qs, slices.Clip(truths)}
		e.Cache.keep(k)
	}
	if err := ctx.Err(); err != nil {
		return workload.Result{}, err
	}
	return workload.EvaluateTruths(k.truths, stopping{ctx, res.Answerer}, k.qs)
}

// stopping is an answerer that stops answering once ctx is done.
type stopping struct {
	ctx context.Context
	method.Answerer
}

func (s stopping) Answer(q *query.Query) (method.Bounds, error) {
	if err := s.ctx.Err(); err != nil {
		return method.Bounds{}, err
	}
	return s.Answerer.Answer(q)
}
