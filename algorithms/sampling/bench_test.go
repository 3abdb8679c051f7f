package sampling

import (
	"context"
	"fmt"
	"testing"

	"privlab/model"
)

// BenchmarkRun times Algorithm 1 (sampling, minimum generalization, local
// recoding, suppression and the result's figures) on the census generator
// with beta = 0.9 and delta' = 0.6 (Sattar et al., Section 6): the paper's
// sizes 25k..150k (Figure 10), Adult's 45k, and a doubling series up to
// a million rows (SPEC 8's budgets at both) that shows the growth is not
// quadratic. Data generation is outside the timer.
//
//	go test ./algorithms/sampling -run ^$ -bench Run -benchtime 3x
func BenchmarkRun(b *testing.B) {
	for _, rows := range []int{25_000, 45_000, 50_000, 75_000, 100_000, 125_000, 150_000, 250_000, 500_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			in := censusInput(b, rows, "occupation", model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "3"})
			b.ResetTimer()
			var published, groups int
			for i := 0; i < b.N; i++ {
				res, err := Method{}.Run(context.Background(), in)
				if err != nil {
					b.Fatal(err)
				}
				published, groups = res.Published, len(res.Groups)
			}
			b.ReportMetric(float64(published), "published")
			b.ReportMetric(float64(groups), "groups")
		})
	}
}

// BenchmarkRunWithinLimit is the within-limit variant at the budget
// sizes.
func BenchmarkRunWithinLimit(b *testing.B) {
	for _, rows := range []int{45_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			in := censusInput(b, rows, "occupation", model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "3"})
			in.Variant = VariantWithinLimit
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := (Method{}).Run(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
