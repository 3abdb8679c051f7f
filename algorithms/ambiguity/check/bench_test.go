package check_test

import (
	"fmt"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// BenchmarkCheck times `privlab check DIR` and `privlab check DIR
// --original FILE` (pipeline.Check: the checker, the risk figures, the
// attacks, the warnings and the workload) on a census release of issue
// 20's roles (six quasi-identifiers, the default alpha and beta), made
// outside the timer, at 100,000 and 1,000,000 rows.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		dir, prep := export(b, pipeline.Project{Input: "dataset:census", Rows: n, Method: "ambiguity",
			Roles:  model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"},
			Params: model.Values{"seed": "1"}})
		for _, orig := range []*model.Table{nil, prep.Source} {
			b.Run(fmt.Sprintf("rows=%d/original=%v", n, orig != nil), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					rep, err := pipeline.Check(dir, orig, nil)
					if err != nil || rep.Err() != nil {
						b.Fatalf("%v\n%v", err, rep.Err())
					}
				}
			})
		}
	}
}
