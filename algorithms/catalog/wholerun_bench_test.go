package catalog_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/datasets"
	"privlab/datasets/datasetstest"
	"privlab/model"
	"privlab/model/releasedir"
)

// Whole runs in process, as `privlab run` does them (SPEC 8, issue 20):
// load the CSV file, prepare, run the method, export (release written, the
// in-process check, the stated checks, the risk figures, the workload).
// Each iteration reports its stages as metrics (load-ms, alg-ms,
// export-ms) so that a profile (-cpuprofile) and the split agree:
//
//	go test ./algorithms/catalog -run '^$' -bench WholeRun -benchtime 1x -cpuprofile cpu.out
//
// PRIVLAB_BENCH_ROWS sets the census size (default 1,000,000; 0 leaves
// census out); PRIVLAB_BENCH_10M=1 adds the 10,000,000-row runs of kja
// (Mondrian) and distribution. Adult runs when the folder of real
// datasets holds it (datasets.SharedFile). .ci/bench.sh prints the same figures for the privlab binary.

// censusQIs are issue 20's census roles.
var censusQIs = model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"}

// adultRoles are issue 20's Adult roles (8 QIs).
var adultRoles = model.Roles{QIs: []string{"sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation"}, SA: "salary-class"}

// benchParams are a method's parameters in the runs (kja:
// Mondrian, k = 10; the others their defaults) with a fixed seed.
func benchParams(method string) (string, model.Values) {
	if method == "kja" {
		return "mondrian", model.Values{"k": "10", "seed": "1"}
	}
	return "", model.Values{"seed": "1"}
}

// writeCensus writes a census CSV of the given rows into dir (cached per
// process).
func writeCensus(b *testing.B, dir string, rows int) string {
	path := filepath.Join(dir, fmt.Sprintf("census-%d.csv", rows))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	d, err := datasets.Lookup("census")
	if err != nil {
		b.Fatal(err)
	}
	if err := releasedir.WriteAtomic(path, func(w io.Writer) error { return d.Write(w, rows, 1) }); err != nil {
		b.Fatal(err)
	}
	return path
}

// writeWide writes rows with one categorical column of distinct values
// (a "code" QI when qi is set, else the SA "diag"), the table the
// quadratic workload was measured on (issue 20).
func writeWide(b *testing.B, dir string, rows int, qi bool) string {
	path := filepath.Join(dir, fmt.Sprintf("wide-%d-%v.csv", rows, qi))
	rng := rand.New(rand.NewPCG(7, uint64(rows)))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if qi {
		fmt.Fprintln(f, "code,age,sex,disease")
		for i := 0; i < rows; i++ {
			fmt.Fprintf(f, "c%06d,%d,%s,d%d\n", i, 17+rng.IntN(60), []string{"F", "M"}[rng.IntN(2)], rng.IntN(12))
		}
		return path
	}
	fmt.Fprintln(f, "age,sex,zip,diag")
	for i := 0; i < rows; i++ {
		fmt.Fprintf(f, "%d,%s,z%d,s%06d\n", 17+rng.IntN(60), []string{"F", "M"}[rng.IntN(2)], rng.IntN(50), i)
	}
	return path
}

// wholeRun is one `privlab run`: it returns the stage times.
func wholeRun(b *testing.B, p pipeline.Project, out string) (load, alg, export time.Duration) {
	t0 := time.Now()
	t, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		b.Fatal(err)
	}
	prep, err := env.Prepare(p, t)
	if err != nil {
		b.Fatal(err)
	}
	// As privlab run: the input hashed while the method runs, the
	// export's workload measured while the deferred figures are
	// computed, the result let go once the release is built.
	t1 := time.Now()
	digest := pipeline.StartInputDigest(prep)
	var ahead *pipeline.Workload
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{Then: func(r *method.Result) { ahead = pipeline.StartWorkload(prep, r, 0) }})
	if err != nil {
		b.Fatal(err)
	}
	t2 := time.Now()
	if _, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{Force: true, AcceptViolations: true, Workload: ahead, InputDigest: digest, LetGo: true}); err != nil {
		b.Fatal(err)
	}
	return t1.Sub(t0), t2.Sub(t1), time.Since(t2)
}

func benchWhole(b *testing.B, name string, p pipeline.Project) {
	b.Run(name, func(b *testing.B) {
		out := filepath.Join(b.TempDir(), "rel")
		var load, alg, export time.Duration
		for i := 0; i < b.N; i++ {
			l, a, e := wholeRun(b, p, out)
			load, alg, export = load+l, alg+a, export+e
		}
		n := float64(b.N)
		b.ReportMetric(float64(load.Milliseconds())/n, "load-ms")
		b.ReportMetric(float64(alg.Milliseconds())/n, "alg-ms")
		b.ReportMetric(float64(export.Milliseconds())/n, "export-ms")
	})
}

func BenchmarkWholeRun(b *testing.B) {
	dir := b.TempDir()
	if adultCSV, err := datasetstest.SharedFile("adult", "adult.csv"); err == nil {
		v, params := benchParams("kja")
		benchWhole(b, "adult/kja", pipeline.Project{Input: adultCSV, Roles: adultRoles, Method: "kja", Variant: v, Params: params})
	} else {
		b.Log("Adult skipped: ", err)
	}
	sizes := []int{1_000_000}
	if s := os.Getenv("PRIVLAB_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("PRIVLAB_BENCH_ROWS=%q: %v", s, err)
		}
		sizes = []int{n}
		if n == 0 {
			sizes = nil
		}
	}
	for _, rows := range sizes {
		path := writeCensus(b, dir, rows)
		for _, m := range catalog.Names() {
			v, params := benchParams(m)
			benchWhole(b, fmt.Sprintf("census-%d/%s", rows, m), pipeline.Project{Input: path, Roles: censusQIs, Method: m, Variant: v, Params: params})
		}
	}
	if os.Getenv("PRIVLAB_BENCH_10M") != "" {
		path := writeCensus(b, dir, 10_000_000)
		for _, m := range []string{"kja", "distribution"} {
			v, params := benchParams(m)
			benchWhole(b, fmt.Sprintf("census-10000000/%s", m), pipeline.Project{Input: path, Roles: censusQIs, Method: m, Variant: v, Params: params})
		}
	}
}

// BenchmarkWideWorkload is a whole run on a table with a 10,000-distinct
// categorical QI, and one with a 20,000-distinct SA (issue 20: slow before
// the workload became linear in distinct values).
func BenchmarkWideWorkload(b *testing.B) {
	dir := b.TempDir()
	qi := writeWide(b, dir, 10_000, true)
	sa := writeWide(b, dir, 20_000, false)
	for _, m := range catalog.Names() {
		v, params := benchParams(m)
		benchWhole(b, "qi-10000/"+m, pipeline.Project{Input: qi, Roles: model.Roles{QIs: []string{"code", "age", "sex"}, SA: "disease"}, Method: m, Variant: v, Params: params})
		benchWhole(b, "sa-20000/"+m, pipeline.Project{Input: sa, Roles: model.Roles{QIs: []string{"age", "sex", "zip"}, SA: "diag"}, Method: m, Variant: v, Params: params})
	}
}

// BenchmarkWideCheck is `privlab check DIR` and `check DIR --original
// FILE` in process on each method's release of the two wide tables of
// BenchmarkWideWorkload (PRIVLAB_BENCH_METHODS lists the methods,
// default all).
func BenchmarkWideCheck(b *testing.B) {
	dir := b.TempDir()
	for _, w := range []struct {
		name  string
		path  string
		roles model.Roles
	}{
		{"qi-10000", writeWide(b, dir, 10_000, true), model.Roles{QIs: []string{"code", "age", "sex"}, SA: "disease"}},
		{"sa-20000", writeWide(b, dir, 20_000, false), model.Roles{QIs: []string{"age", "sex", "zip"}, SA: "diag"}},
	} {
		for _, m := range catalog.Names() {
			if only := os.Getenv("PRIVLAB_BENCH_METHODS"); only != "" && !slices.Contains(strings.Fields(only), m) {
				continue
			}
			v, params := benchParams(m)
			out := filepath.Join(dir, w.name+"-"+m)
			wholeRun(b, pipeline.Project{Input: w.path, Roles: w.roles, Method: m, Variant: v, Params: params}, out)
			benchChecks(b, fmt.Sprintf("%s/%s", w.name, m), w.path, out)
		}
	}
}

// benchChecks times the check of the release in out, without and with
// the original (loaded before the timer).
func benchChecks(b *testing.B, name, input, out string) {
	orig, err := env.LoadTable(env.WithDefaults(pipeline.Project{Input: input}))
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range []struct {
		name string
		orig *model.Table
	}{{"check", nil}, {"original", orig}} {
		b.Run(name+"/"+k.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := (pipeline.Env{}).CheckWith(out, &risk.Knowledge{Original: k.orig}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheck is `privlab check DIR` and `check DIR --original FILE`
// in process on each method's census release (PRIVLAB_BENCH_ROWS rows,
// default 1,000,000; PRIVLAB_BENCH_METHODS lists the methods, default
// all): the export is made once before the timer, the original is
// loaded before it too.
func BenchmarkCheck(b *testing.B) {
	rows := 1_000_000
	if s := os.Getenv("PRIVLAB_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Skipf("PRIVLAB_BENCH_ROWS=%q: no census", s)
		}
		rows = n
	}
	dir := b.TempDir()
	path := writeCensus(b, dir, rows)
	for _, m := range catalog.Names() {
		if only := os.Getenv("PRIVLAB_BENCH_METHODS"); only != "" && !slices.Contains(strings.Fields(only), m) {
			continue
		}
		v, params := benchParams(m)
		p := pipeline.Project{Input: path, Roles: censusQIs, Method: m, Variant: v, Params: params}
		out := filepath.Join(dir, m)
		wholeRun(b, p, out)
		benchChecks(b, fmt.Sprintf("census-%d/%s", rows, m), path, out)
	}
}
