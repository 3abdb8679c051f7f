package source

import (
	"os"
	"path/filepath"
	"testing"

	"privlab/datasets"
	"privlab/model/csvfile"
	"privlab/model/source/sourcetest"
)

// BenchmarkLoadCensus1M loads the census table of 1,000,000 rows (12
// columns) from its CSV and from the same table as Parquet (every column
// dictionary-encoded and Snappy-compressed, as pyarrow writes it, in row
// groups of 128k rows). Issue 22: the Parquet file loads no slower than
// the CSV.
//
//	go test ./model/source -run '^$' -bench LoadCensus1M -benchtime 5x
func BenchmarkLoadCensus1M(b *testing.B) {
	dir := b.TempDir()
	d, err := datasets.Lookup("census")
	if err != nil {
		b.Fatal(err)
	}
	csv := filepath.Join(dir, "c.csv")
	f, err := os.Create(csv)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Write(f, 1000000, 1); err != nil {
		b.Fatal(err)
	}
	f.Close()
	t, err := csvfile.LoadFile(csv, csvfile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	pq := filepath.Join(dir, "c.parquet")
	if err := sourcetest.WriteParquet(pq, t, 128<<10); err != nil {
		b.Fatal(err)
	}
	for _, spec := range []string{csv, pq} {
		b.Run(filepath.Ext(spec)[1:], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				got, err := Load(spec, csvfile.LoadOptions{})
				if err != nil || got.Rows != 1000000 {
					b.Fatal(got, err)
				}
			}
		})
	}
}
