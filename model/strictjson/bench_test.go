package strictjson

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDecodeStrictManyKeys reads a manifest-sized document of
// 20,000 objects (sampling's marginals of a 20,000-distinct attribute):
// linear in its size since a key's line is counted only for an error.
func BenchmarkDecodeStrictManyKeys(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{\"marginals\": [\n")
	for i := 0; i < 20_000; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, "  {\"value\": \"s%05d\", \"p\": 0.00005}", i)
	}
	sb.WriteString("\n]}\n")
	data := []byte(sb.String())
	var v struct {
		Marginals []struct {
			Value string  `json:"value"`
			P     float64 `json:"p"`
		} `json:"marginals"`
	}
	b.SetBytes(int64(len(data)))
	for i := 0; i < b.N; i++ {
		if err := Decode(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}
