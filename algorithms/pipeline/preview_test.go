package pipeline

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/algorithms/workload"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/query"
)

// The workbench's preview gives exactly the figures measured alone: the
// risk figures and attacks read from one shared build equal Risk's and
// PreviewAttacks' (each building its own), and the live workload with
// its queries and true answers kept across runs equals Eval's, for every
// method, after a change of parameter (kept) and of roles (counted
// again).
func TestPreviewEqualsMeasuredAlone(t *testing.T) {
	t.Parallel()
	env := Env{Datasets: datasets.Catalog{}, Cache: &Cache{}}
	src, err := env.LoadTable(Project{Input: "dataset:census", Rows: 600})
	if err != nil {
		t.Fatal(err)
	}
	roles := model.Roles{QIs: []string{"age", "education", "marital-status", "sex"}, SA: "occupation"}
	opt := workload.Options{Queries: 12, Range: 0.2, Seed: 3}
	for _, m := range catalog.All() {
		spec := m.Spec()
		for i, r := range []model.Roles{roles, roles, {QIs: []string{"age", "race"}, SA: "occupation"}} {
			p := Project{Input: "dataset:census", Rows: 600, Method: spec.Name, Roles: r, Params: model.Values{}}
			for _, par := range spec.Params {
				if par.Kind == model.ParamSeed {
					p.Params[par.Name] = "1"
					if i == 1 {
						p.Params[par.Name] = "9" // a parameter alone changes: the truths are kept
					}
				}
			}
			prep, err := env.Prepare(p, src)
			if err != nil {
				t.Fatalf("%s: %v", spec.Name, err)
			}
			res, err := Run(context.Background(), prep, RunOptions{})
			if err != nil {
				continue // (a default that needs a public table)
			}
			// The risk figures and the attacks at once, as the workbench
			// asks for them.
			pv := NewPreview(res)
			var rk *risk.Report
			var v *risk.View
			var rkErr error
			done := make(chan struct{})
			go func() {
				defer close(done)
				rk, v, rkErr = pv.Risk(context.Background(), 0)
			}()
			at, atErr := pv.Attacks(context.Background(), env, prep)
			<-done
			wantRk, wantV, wantErr := Risk(res, 0)
			if rkErr != nil || wantErr != nil || !reflect.DeepEqual(rk, wantRk) || Single(v) != Single(wantV) {
				t.Fatalf("%s: preview risk %+v (%v, single %d), alone %+v (%v, single %d)", spec.Name, rk, rkErr, Single(v), wantRk, wantErr, Single(wantV))
			}
			wantAt, wantAtErr := attacksAlone(t, res, prep)
			// (%+v: a bound that is NaN is the same bound)
			if fmt.Sprintf("%+v %v", at, atErr) != fmt.Sprintf("%+v %v", wantAt, wantAtErr) {
				t.Fatalf("%s: attacks on the shared build %+v (%v), alone %+v (%v)", spec.Name, at, atErr, wantAt, wantAtErr)
			}
			if res.Answerer == nil || res.Workload == "" {
				continue
			}
			w, err := env.PreviewEval(context.Background(), prep, res, opt)
			want, wantErr := Eval(prep, res, opt)
			if !reflect.DeepEqual(w, want) || !reflect.DeepEqual(err, wantErr) {
				t.Fatalf("%s roles %v: preview workload %+v (%v), Eval %+v (%v)", spec.Name, r, w, err, want, wantErr)
			}
		}
	}
}

// attacksAlone is what the workbench measured before the build was
// shared: the release built again, opened lazily, its view read anew.
func attacksAlone(t *testing.T, res *method.Result, p *Prepared) (*attack.Report, error) {
	rel, _, err := res.Release(1)
	if err != nil {
		t.Fatal(err)
	}
	rel.Manifest.RowsIn = res.RowsIn
	mem, err := verify.OpenMemory(rel)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := AttackMethod(res.Spec.Name)
	return attack.Run(mem, m, &risk.Knowledge{Original: p.Source, Public: p.Public})
}

// A cancelled preview builds nothing and says so.
func TestPreviewCancelled(t *testing.T) {
	t.Parallel()
	env := Env{Datasets: datasets.Catalog{}, Cache: &Cache{}}
	src, err := env.LoadTable(Project{Input: "dataset:census", Rows: 200})
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(Project{Input: "dataset:census", Rows: 200, Method: "distribution", Params: model.Values{}}, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), prep, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pv := NewPreview(res)
	if _, _, err := pv.Risk(ctx, 0); err != context.Canceled {
		t.Fatalf("risk of a cancelled preview: %v", err)
	}
	if _, err := pv.Attacks(ctx, env, prep); err != context.Canceled {
		t.Fatalf("attacks of a cancelled preview: %v", err)
	}
	if _, err := env.PreviewEval(ctx, prep, res, workload.Options{Queries: 5, Seed: 1}); err != context.Canceled {
		t.Fatalf("workload of a cancelled preview: %v", err)
	}
}

// cancelling answerer: counts its answers and cancels after the first.
type cancelling struct {
	method.Answerer
	cancel context.CancelFunc
	n      int
}

func (c *cancelling) Answer(q *query.Query) (method.Bounds, error) {
	c.n++
	c.cancel()
	return c.Answerer.Answer(q)
}

// A newer key stops the live workload at the next query: no query is
// answered on the superseded release after the cancel.
func TestPreviewWorkloadStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	env := Env{Datasets: datasets.Catalog{}, Cache: &Cache{}}
	src, err := env.LoadTable(Project{Input: "dataset:census", Rows: 300})
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(Project{Input: "dataset:census", Rows: 300, Method: "distribution", Params: model.Values{}}, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), prep, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &cancelling{Answerer: res.Answerer, cancel: cancel}
	r := *res
	r.Answerer = c
	if _, err := env.PreviewEval(ctx, prep, &r, workload.Options{Queries: 30, Seed: 1}); err != context.Canceled || c.n != 1 {
		t.Fatalf("after a cancel: %v, %d queries answered (want context.Canceled after 1)", err, c.n)
	}
}

// The workloads kept at once (the preview's and a sweep's, and more than
// are kept) each answer exactly as Eval does, in any order of use.
func TestPreviewEvalKeepsSeveralWorkloads(t *testing.T) {
	t.Parallel()
	env := Env{Datasets: datasets.Catalog{}, Cache: &Cache{}}
	src, err := env.LoadTable(Project{Input: "dataset:census", Rows: 400})
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(Project{Input: "dataset:census", Rows: 400, Method: "distribution", Params: model.Values{"seed": "1"}}, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), prep, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2, 1, 3, 4, 5, 6, 2, 1, 6} {
		opt := workload.Options{Queries: 8, Range: 0.2, Seed: seed}
		w, err := env.PreviewEval(context.Background(), prep, res, opt)
		want, wantErr := Eval(prep, res, opt)
		if !reflect.DeepEqual(w, want) || !reflect.DeepEqual(err, wantErr) {
			t.Fatalf("seed %d: kept %+v (%v), Eval %+v (%v)", seed, w, err, want, wantErr)
		}
	}
	var seeds []uint64
	for _, k := range env.Cache.truths {
		seeds = append(seeds, k.key.opt.Seed)
	}
	if !reflect.DeepEqual(seeds, []uint64{6, 1, 2, 5}) {
		t.Fatalf("the session's cache keeps the workloads of seeds %v, want the last used first: [6 1 2 5]", seeds)
	}
}
