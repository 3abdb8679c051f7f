package workload

import (
	"bytes"
	"fmt"
	"testing"

	"privlab/datasets"
	"privlab/model"
	"privlab/model/csvfile"
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

// BenchmarkGenerateWide draws an export's count-in workload (100 queries)
// on a table with a 20,000-distinct sensitive attribute: each query lists
// about 9,500 of its values (issue 20's wide table).
func BenchmarkGenerateWide(b *testing.B) {
	var text []byte
	text = append(text, "age,sex,zip,diag\n"...)
	for i := 0; i < 20_000; i++ {
		text = fmt.Appendf(text, "%d,%s,z%d,s%05d\n", 17+i%60, []string{"F", "M"}[i%2], i%50, i)
	}
	t, err := csvfile.Load(bytes.NewReader(text), csvfile.LoadOptions{Name: "wide.csv"})
	if err != nil {
		b.Fatal(err)
	}
	roles := model.Roles{QIs: []string{"age", "sex", "zip"}, SA: "diag"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Generate(t, roles, Options{Shape: CountIn, Queries: 100, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
