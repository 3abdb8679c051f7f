package risk

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"privlab/datasets"
)

// benchRecords are published records: QI cells as codes into
// dictionaries and a sensitive value of m.
type benchRecords struct {
	dicts [][]string
	codes [][]uint32 // per record
	sa    []int
	m     int
}

// censusRecords are n rows of the census dataset: issue 20's QIs, and
// occupation (14 values).
func censusRecords(b *testing.B, n int) *benchRecords {
	d, err := datasets.Lookup("census")
	if err != nil {
		b.Fatal(err)
	}
	t, err := d.Load(n, 1)
	if err != nil {
		b.Fatal(err)
	}
	r := &benchRecords{}
	for _, q := range benchQIs {
		r.dicts = append(r.dicts, t.Column(q).Dict)
	}
	sa := t.Column("occupation")
	r.m = len(sa.Dict)
	for row := 0; row < n; row++ {
		c := make([]uint32, len(benchQIs))
		for i, q := range benchQIs {
			c[i] = t.Column(q).Codes[row]
		}
		r.codes = append(r.codes, c)
		r.sa = append(r.sa, int(sa.Codes[row]))
	}
	return r
}

// newBenchRecords are n records with 6 QI cells from domains of 72, 2,
// 16, 7, 5 and 41 values (as census's) drawn skewed at random, and a
// sensitive value of m.
func newBenchRecords(n, m int) *benchRecords {
	rng := rand.New(rand.NewPCG(1, 1))
	doms := []int{72, 2, 16, 7, 5, 41}
	r := &benchRecords{dicts: make([][]string, len(doms)), m: m}
	for i, d := range doms {
		for v := 0; v < d; v++ {
			r.dicts[i] = append(r.dicts[i], fmt.Sprintf("q%d-%d", i, v))
		}
	}
	for k := 0; k < n; k++ {
		c := make([]uint32, len(doms))
		for i, d := range doms {
			c[i] = uint32(min(rng.IntN(d), rng.IntN(d))) // skewed, as census values are
		}
		r.codes = append(r.codes, c)
		r.sa = append(r.sa, rng.IntN(m))
	}
	return r
}

func (r *benchRecords) values() []string {
	v := make([]string, r.m)
	for i := range v {
		v[i] = fmt.Sprintf("s%05d", i)
	}
	return v
}

var benchQIs = []string{"age", "sex", "education", "marital-status", "race", "native-country"}

// BenchmarkBuilder builds the view of a release publishing QIs exactly
// and each record's sensitive value (lossyjoin's and sampling's viewers)
// from text cells (Add), from codes (AddCodes), and with the code before
// this branch (old), then computes the figures; m is the SA's values
// (20,000: issue 20's wide SA, where the old view held a dense belief of
// m values per value).
func BenchmarkBuilder(b *testing.B) {
	for _, c := range []struct{ n, m int }{{1_000_000, 14}, {1_000_000, 0}, {20_000, 20_000}} {
		var r *benchRecords
		if c.m == 0 {
			r = censusRecords(b, c.n)
			c.m = r.m
		} else {
			r = newBenchRecords(c.n, c.m)
		}
		cells := make([]string, len(benchQIs))
		name := fmt.Sprintf("rows=%d/sa=%d", c.n, c.m)
		if r.dicts[0][0] != "q0-0" {
			name = fmt.Sprintf("census=%d", c.n)
		}
		b.Run(name+"/text", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bld := NewBuilder(benchQIs, "sa", r.values(), false)
				for k, codes := range r.codes {
					for q, code := range codes {
						cells[q] = r.dicts[q][code]
					}
					bld.Add(cells, bld.Value(r.sa[k]), 0)
				}
				Compute(bld.View(c.n, 0, false), Options{})
			}
		})
		b.Run(name+"/codes", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bld := NewBuilder(benchQIs, "sa", r.values(), false)
				for q, d := range r.dicts {
					bld.Cells(q, d)
				}
				for k, codes := range r.codes {
					bld.AddCodes(codes, bld.Value(r.sa[k]), 0)
				}
				Compute(bld.View(c.n, 0, false), Options{})
			}
		})
		if c.m > 1000 && testing.Short() {
			continue
		}
		b.Run(name+"/old", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bld := newOldBuilder(benchQIs, "sa", r.values(), false)
				for k, codes := range r.codes {
					for q, code := range codes {
						cells[q] = r.dicts[q][code]
					}
					bld.Add(cells, bld.Value(r.sa[k]), 0)
				}
				oldCompute(bld.view(c.n, 0, false), Options{})
			}
		})
	}
}
