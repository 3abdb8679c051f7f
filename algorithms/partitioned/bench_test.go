package partitioned

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// benchRows is the census size the benchmarks run on (issue 36's 1M;
// PRIVLAB_BENCH_ROWS sets another, e.g. 10000000).
func benchRows(b *testing.B) int {
	if s := os.Getenv("PRIVLAB_BENCH_ROWS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1000 {
			b.Fatalf("PRIVLAB_BENCH_ROWS=%q: a whole number of at least 1000", s)
		}
		return n
	}
	return 1_000_000
}

// BenchmarkPartitionedKja is issue 36's in-process budget run: census,
// kja mondrian k = 10, the QIs, 8 partitions (compare with
// BenchmarkSingleKja; the memory budget is measured on the binary, see
// docs/partitioned.md).
func BenchmarkPartitionedKja(b *testing.B) {
	p := censusProject("kja", benchRows(b), model.Values{"k": "10"})
	p.Variant = "mondrian"
	for i := 0; i < b.N; i++ {
		if _, err := Stream(context.Background(), env, p, filepath.Join(b.TempDir(), "r"), Options{Partitions: 8}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSingleKja is the same run on the whole table at once, as
// privlab run makes it.
func BenchmarkSingleKja(b *testing.B) {
	p := censusProject("kja", benchRows(b), model.Values{"k": "10"})
	p.Variant = "mondrian"
	for i := 0; i < b.N; i++ {
		prep := prepare(b, p)
		res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pipeline.Export(prep, res, filepath.Join(b.TempDir(), "r"), pipeline.ExportOptions{LetGo: true}); err != nil {
			b.Fatal(err)
		}
	}
}
