package distribution

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
)

// benchGroup draws n values over a domain of d integers with a skewed
// distribution, as leaves of a balanced binary hierarchy with the uniform
// target (the setting of Koudas et al. 2009, Section 6.5).
func benchGroup(b *testing.B, n, d int) (*Solver, []int32) {
	b.Helper()
	s := uniformSolver(b, 1, d, 1)
	rng := model.NewRand(1)
	leaves := make([]int32, n)
	for i := range leaves {
		v := 1 + rng.Intn(d)
		if rng.Intn(3) == 0 {
			v = 1 + rng.Intn(d/4+1) // skew towards the low values
		}
		l, _ := s.h.Leaf(fmt.Sprint(v))
		leaves[i] = int32(l)
	}
	return s, leaves
}

// BenchmarkMinSumOfRange doubles the group size: time per op should double
// too (Theorem 1: linear in |g|).
func BenchmarkMinSumOfRange(b *testing.B) {
	for _, n := range []int{45_000, 90_000, 180_000, 360_000, 720_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s, leaves := benchGroup(b, n, 128)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.MinSumOfRange(leaves)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/value")
		})
	}
}

// BenchmarkMinSORFake is Problem 5.1 on one 45,000-value group (SA-only)
// with t fake values and a domain of d values (SPEC 8's budget at
// t = 100, |D| = 128).
func BenchmarkMinSORFake(b *testing.B) {
	for _, c := range []struct{ t, d int }{{10, 64}, {10, 128}, {100, 64}, {100, 128}} {
		b.Run(fmt.Sprintf("t=%d/D=%d", c.t, c.d), func(b *testing.B) {
			s, leaves := benchGroup(b, 45_000, c.d)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.SolveContext(context.Background(), leaves, c.t); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchTable builds an n-row table: age uniform 17..79 (QI) and a
// capital-loss-like SA over [1024, 3072] correlated with age.
func benchTable(b *testing.B, n, distinctSA int) *model.Table {
	b.Helper()
	rng := model.NewRand(7)
	var buf []byte
	buf = append(buf, "age,loss\n"...)
	for i := 0; i < n; i++ {
		age := 17 + rng.Intn(63)
		v := 1024 + (rng.Intn(distinctSA)+age)%distinctSA*(2048/distinctSA)
		buf = fmt.Appendf(buf, "%d,%d\n", age, v)
	}
	t, err := csvfile.Load(bytesReader(buf), csvfile.LoadOptions{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return t
}

func runMethod(b *testing.B, t *model.Table, values model.Values) *method.Result {
	b.Helper()
	hs := map[string]*hierarchy.Hierarchy{}
	for _, c := range []string{"age", "loss"} {
		spec := "intervals:5,10,20"
		if c == "loss" {
			spec = "binary"
		}
		h, err := hierarchy.Build(spec, t.Column(c))
		if err != nil {
			b.Fatal(err)
		}
		hs[c] = h
	}
	res, err := Method{}.Run(context.Background(), &method.Input{Table: t, Roles: model.Roles{QIs: []string{"age"}, SA: "loss"},
		Hierarchies: hs, Values: values})
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkRun times whole runs with the method's defaults (SPEC 8's
// budgets on 45,000 and 1,000,000 rows).
func BenchmarkRun(b *testing.B) {
	for _, n := range []int{45_000, 1_000_000} {
		t := benchTable(b, n, 128)
		for _, g := range []string{"sa-only", "qi-sa", "mondrian:50"} {
			b.Run(fmt.Sprintf("rows=%d/%s", n, g), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					runMethod(b, t, model.Values{"grouping": g})
				}
			})
		}
	}
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// BenchmarkAnnotate times the privacy-annotated hierarchy of a table-like
// target (uneven counts) over binary trees, with bounded and exact weights.
func BenchmarkAnnotate(b *testing.B) {
	for _, leaves := range []int{128, 4096} {
		h, err := hierarchy.Balanced("sa", seqStrings(leaves), 2)
		if err != nil {
			b.Fatal(err)
		}
		counts := make([]float64, leaves)
		r := rand.New(rand.NewPCG(5, 6))
		for i := range counts {
			counts[i] = float64(1 + r.IntN(1000))
		}
		m, err := Target{Kind: TargetTable}.Masses(h, counts)
		if err != nil {
			b.Fatal(err)
		}
		for _, maxDen := range []int{8, 0} {
			b.Run(fmt.Sprintf("leaves=%d/maxDen=%d", leaves, maxDen), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					Annotate(h, m, maxDen)
				}
			})
		}
	}
	// A flat hierarchy is one node with many children.
	h, _ := hierarchy.Flat("sa", seqStrings(1000))
	m, _ := Target{Kind: TargetZipf, S: 1}.Masses(h, nil)
	b.Run("flat=1000/maxDen=8", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Annotate(h, m, 8)
		}
	})
}

func seqStrings(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i + 1)
	}
	return out
}
