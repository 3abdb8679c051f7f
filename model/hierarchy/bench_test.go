package hierarchy

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkHierarchyBuild times the builders over 10,000 values.
func BenchmarkHierarchyBuild(b *testing.B) {
	const n = 10000
	nums := make([]float64, n)
	texts := make([]string, n)
	zips := make([]string, n)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range nums {
		nums[i] = float64(i * 7)
		texts[i] = strconv.Itoa(i * 7)
		zips[i] = fmt.Sprintf("%05d", r.IntN(100000))
	}
	zips = dedupStrings(zips)
	b.Run("Intervals", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Intervals("x", nums, []float64{5}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Balanced2", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Balanced("x", texts, 2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Balanced3", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Balanced("x", texts, 3); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Masking", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Masking("zip", zips); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func dedupStrings(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
