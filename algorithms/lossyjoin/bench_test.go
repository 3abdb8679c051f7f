package lossyjoin_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"privlab/algorithms/lossyjoin"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/datasets/datasetstest"
	"privlab/model"
)

// Benchmarks for the budgets of the task (SPEC 8): census (Adult-like) at
// Adult size and at 1,000,000 rows with Table 8's eight QIs and occupation
// as the sensitive attribute, k = 2..50 and alpha = 0.33..0.8; Anatomy at
// l = 5 on UCI Adult; and a doubling series for the growth. Each
// iteration is one whole Method.Run (the specialization and the result
// the workbench shows); loading and generating the data are not timed.
//
//	go test ./algorithms/lossyjoin -run '^$' -bench . -benchtime 5x

var paperQIs = []string{"age", "workclass", "education", "marital-status", "race", "sex", "native-country", "salary-class"}

var (
	benchMu     sync.Mutex
	benchInputs = map[string]*method.Input{}
)

// censusInput prepares n census rows with the paper's roles (cached).
func censusInput(b *testing.B, n int) *method.Input {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	key := fmt.Sprint("census", n)
	if in, ok := benchInputs[key]; ok {
		return in
	}
	p := pipeline.Project{Input: "dataset:census", Rows: n, Method: lossyjoin.Name,
		Roles: model.Roles{QIs: paperQIs, SA: "occupation"}}
	src, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		b.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		b.Fatal(err)
	}
	in := prep.Input()
	benchInputs[key] = in
	return in
}

// adultInput prepares UCI Adult from the folder of real datasets with
// ARX's hierarchies (skipped, saying how to enable it, when absent).
func adultInput(b *testing.B) *method.Input {
	b.Helper()
	path, err := datasetstest.SharedFile("adult", "adult.csv")
	if err != nil {
		b.Skip("UCI Adult: ", err)
	}
	dir := filepath.Dir(path)
	benchMu.Lock()
	defer benchMu.Unlock()
	if in, ok := benchInputs["adult"]; ok {
		return in
	}
	hs := map[string]string{}
	for _, a := range append(append([]string(nil), paperQIs...), "occupation") {
		hs[a] = filepath.Join(dir, "adult_hierarchy_"+a+".csv")
	}
	p := pipeline.Project{Input: filepath.Join(dir, "adult.csv"), Method: lossyjoin.Name, Hierarchies: hs,
		Roles: model.Roles{QIs: paperQIs, SA: "occupation"}}
	src, err := env.LoadTable(p)
	if err != nil {
		b.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		b.Fatal(err)
	}
	benchInputs["adult"] = prep.Input()
	return prep.Input()
}

func runBench(b *testing.B, in *method.Input, variant string, k int, alpha string) {
	b.Helper()
	run := *in
	run.Variant = variant
	run.Values = model.Values{"k": fmt.Sprint(k), "alpha": alpha, "seed": "1"}
	b.ReportAllocs()
	b.ResetTimer()
	var res *method.Result
	for i := 0; i < b.N; i++ {
		var err error
		if res, err = (lossyjoin.Method{}).Run(context.Background(), &run); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(res.Groups)), "classes")
}

// BenchmarkLossy45k: Adult size (45,222 rows), k = 2..50, alpha = 0.33..0.8
// (SPEC 8's budget at this size).
func BenchmarkLossy45k(b *testing.B) {
	for _, k := range []int{2, 10, 50} {
		for _, a := range []string{"0.33", "0.5", "0.8"} {
			b.Run(fmt.Sprintf("k=%d/alpha=%s", k, a), func(b *testing.B) {
				runBench(b, censusInput(b, 45222), lossyjoin.VariantLossy, k, a)
			})
		}
	}
}

// BenchmarkLossy1M: 1,000,000 rows (SPEC 8's budget at this size).
func BenchmarkLossy1M(b *testing.B) {
	for _, c := range []struct {
		k int
		a string
	}{{2, "0.33"}, {10, "0.5"}, {50, "0.8"}} {
		b.Run(fmt.Sprintf("k=%d/alpha=%s", c.k, c.a), func(b *testing.B) {
			runBench(b, censusInput(b, 1_000_000), lossyjoin.VariantLossy, c.k, c.a)
		})
	}
}

// BenchmarkDoubling: the growth with n (k = 2, alpha = 0.33).
func BenchmarkDoubling(b *testing.B) {
	for n := 62_500; n <= 1_000_000; n *= 2 {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			runBench(b, censusInput(b, n), lossyjoin.VariantLossy, 2, "0.33")
		})
	}
}

// BenchmarkAnatomyAdult: Anatomy at l = 5 (alpha = 0.2) on UCI Adult
// (its budget and a Python Anatomy's time: docs/performance.md).
func BenchmarkAnatomyAdult(b *testing.B) {
	runBench(b, adultInput(b), lossyjoin.VariantAnatomy, 2, "0.2")
}

// BenchmarkLossyAdult: the method itself on UCI Adult (k = 2, alpha = 0.33).
func BenchmarkLossyAdult(b *testing.B) {
	runBench(b, adultInput(b), lossyjoin.VariantLossy, 2, "0.33")
}

// BenchmarkVariants45k: the three variants at the paper's defaults.
func BenchmarkVariants45k(b *testing.B) {
	for _, v := range []string{lossyjoin.VariantLossy, lossyjoin.VariantAlpha, lossyjoin.VariantAnatomy} {
		b.Run(v, func(b *testing.B) { runBench(b, censusInput(b, 45222), v, 2, "0.33") })
	}
}
