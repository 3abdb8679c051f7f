package catalog_test

import (
	"context"
	"fmt"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/model"
)

// BenchmarkRisk measures the figures every release gets (the release
// built in memory and read back by the method's viewer) on census rows
// with each method's comparable settings at k = 10: the workbench
// computes them after each result, so they must stay a fraction of a
// second at Adult size.
func BenchmarkRisk(b *testing.B) {
	for _, rows := range []int{45000, 1000000} {
		p := pipeline.Project{Input: "dataset:census", Rows: rows, Roles: model.Roles{QIs: []string{"age", "sex", "education", "marital-status"}, SA: "occupation"}}
		t, err := env.LoadTable(p)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range catalog.All() {
			spec := m.Spec()
			q := p.Clone()
			q.Method, q.Params = spec.Name, model.Values{"seed": "1"}
			if spec.Compare != nil {
				v, values := spec.Compare(10, t, q.Roles, false)
				q.Variant = v
				for k, x := range values {
					q.Params[k] = x
				}
			}
			prep, err := env.Prepare(q, t)
			if err != nil {
				b.Fatal(err)
			}
			res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("method=%s/rows=%d", spec.Name, rows), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, _, err := pipeline.Risk(res, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCompare is eval --compare on 45,000 census rows: every method
// run, measured and answering the common workload.
func BenchmarkCompare(b *testing.B) {
	p := pipeline.Project{Input: "dataset:census", Rows: 45000, Roles: model.Roles{QIs: []string{"age", "sex", "education", "marital-status"}, SA: "occupation"}}
	t, err := env.LoadTable(p)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		rows, err := pipeline.Compare(context.Background(), env, p, t, pipeline.CompareOptions{K: 10, Workload: workload.Options{Queries: 100, Seed: 1}})
		if err != nil || len(rows) != len(catalog.All()) {
			b.Fatal(err)
		}
	}
}
