package workload

import (
	"fmt"
	"testing"

	"privlab/datasets"
	"privlab/model"
)

// BenchmarkTruths is the true answers of an export's workload (100
// queries) on census rows, for each shape: the part of every export,
// check --original and eval that reads the original table.
func BenchmarkTruths(b *testing.B) {
	d, err := datasets.Lookup("census")
	if err != nil {
		b.Fatal(err)
	}
	roles := model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"}
	for _, rows := range []int{45_000, 1_000_000} {
		t, err := d.Load(rows, 1)
		if err != nil {
			b.Fatal(err)
		}
		for _, shape := range []string{AvgRange, CountRange, CountIn} {
			r := roles
			if shape == AvgRange {
				r.SA = "hours-per-week"
			}
			qs, err := Generate(t, r, Options{Shape: shape, Queries: 100, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("rows=%d/%s", rows, shape), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := Truths(t, qs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
