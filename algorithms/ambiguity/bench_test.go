package ambiguity

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/hierarchy"
)

// censusTables caches generated census tables by size (generation is not
// what the benchmarks measure).
var censusTables sync.Map

func censusInput(tb testing.TB, rows int) *method.Input {
	tb.Helper()
	var t *model.Table
	if v, ok := censusTables.Load(rows); ok {
		t = v.(*model.Table)
	} else {
		d, err := datasets.Lookup("census")
		if err != nil {
			tb.Fatal(err)
		}
		if t, err = d.Load(rows, 1); err != nil {
			tb.Fatal(err)
		}
		censusTables.Store(rows, t)
	}
	sa := t.Column("occupation")
	h, err := hierarchy.Build("flat", sa)
	if err != nil {
		tb.Fatal(err)
	}
	return &method.Input{Table: t,
		Roles:       model.Roles{QIs: []string{"age", "sex", "education", "marital-status"}, SA: "occupation"},
		Hierarchies: map[string]*hierarchy.Hierarchy{"occupation": h}}
}

// BenchmarkRun measures Algorithm 2 (the whole Run: groups, figures,
// preview summaries) on census at the task's settings, doubling n from
// 45,000 to 1,440,000 (the paper runs 500,000 tuples): time per row should
// stay flat if pick is not a rescan (SPEC 8's budgets at 45k and 1M).
func BenchmarkRun(b *testing.B) {
	for _, ab := range [][2]string{{"0.5", "0.25"}, {"0.2", "0.1"}} {
		for _, n := range []int{45_000, 90_000, 180_000, 360_000, 720_000, 1_000_000, 1_440_000} {
			b.Run(fmt.Sprintf("alpha=%s/beta=%s/n=%d", ab[0], ab[1], n), func(b *testing.B) {
				in := censusInput(b, n)
				in.Values = model.Values{"alpha": ab[0], "beta": ab[1]}
				b.ResetTimer()
				var res *method.Result
				for i := 0; i < b.N; i++ {
					var err error
					if res, err = (Method{}).Run(context.Background(), in); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
				b.ReportMetric(float64(len(res.Groups)), "groups")
				b.ReportMetric(float64(res.Suppressed), "suppressed")
			})
		}
	}
}

// BenchmarkConstruct is Algorithm 2 alone (no result assembly), with the
// number of picks the bucket index could not settle.
func BenchmarkConstruct(b *testing.B) {
	for _, ab := range [][2]float64{{0.5, 0.25}, {0.2, 0.1}} {
		for _, n := range []int{45_000, 1_000_000} {
			b.Run(fmt.Sprintf("alpha=%g/beta=%g/n=%d", ab[0], ab[1], n), func(b *testing.B) {
				in := censusInput(b, n)
				in.Values = model.Values{}
				r := &run{in: in, values: model.Values{}, g: ceilInv(model.Values{"beta": fmt.Sprint(ab[1])}.Bound("beta"))}
				if err := r.resolve(); err != nil {
					b.Fatal(err)
				}
				c := r.codes()
				b.ResetTimer()
				var bl *builder
				for i := 0; i < b.N; i++ {
					var err error
					if _, bl, err = construct(context.Background(), c, model.Values{"alpha": fmt.Sprint(ab[0])}.Bound("alpha"), r.g, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(bl.stats.Cut), "cut-picks")
				b.ReportMetric(float64(bl.stats.Picks), "picks")
			})
		}
	}
}

// BenchmarkAcrossGroups is the figures across groups alone (acrossGroups)
// on the scheme of a census run, at 45,000 and 1,000,000 rows.
func BenchmarkAcrossGroups(b *testing.B) {
	for _, ab := range [][2]string{{"0.5", "0.25"}, {"0.2", "0.1"}} {
		for _, n := range []int{45_000, 1_000_000} {
			b.Run(fmt.Sprintf("alpha=%s/beta=%s/n=%d", ab[0], ab[1], n), func(b *testing.B) {
				in := censusInput(b, n)
				in.Values = model.Values{"alpha": ab[0], "beta": ab[1]}
				res, err := (Method{}).Run(context.Background(), in)
				if err != nil {
					b.Fatal(err)
				}
				r := &run{in: in}
				if err := r.resolve(); err != nil {
					b.Fatal(err)
				}
				var groups [][]int32
				for _, g := range res.Groups {
					groups = append(groups, g.Rows)
				}
				s := newScheme(in.Roles.QIs, in.Roles.SA, groups, r.qiCols, r.sa)
				b.ResetTimer()
				var x across
				for i := 0; i < b.N; i++ {
					x, _ = s.acrossGroups(context.Background(), r.qiCols, r.sa)
				}
				b.ReportMetric(float64(x.Multi), "multi")
			})
		}
	}
}

// BenchmarkAnswer is the export's workload on a census run (issue 20's
// six quasi-identifiers, the default alpha and beta): 100 count-in
// queries answered by the run's scheme (Algorithm 1).
func BenchmarkAnswer(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			in := censusInput(b, n)
			in.Roles.QIs = []string{"age", "sex", "education", "marital-status", "race", "native-country"}
			in.Values = model.Values{"seed": "1"}
			res, err := (Method{}).Run(context.Background(), in)
			if err != nil {
				b.Fatal(err)
			}
			qs, err := workload.Generate(in.Table, in.Roles, workload.Options{Shape: workload.CountIn, Queries: 100, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, q := range qs {
					if _, err := res.Answerer.Answer(q); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
