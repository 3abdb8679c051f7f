package datasets

import (
	"bufio"
	"math"
	"strconv"
	"sync"

	"privlab/model"
)

// The capital-loss family reproduces the synthetic sets of Koudas,
// Srivastava, Yu, Zhang 2009, Section 6: one QI, age, uniform in [17,79],
// and the SA capital-loss, an integer in [1024,3072].
const (
	clAgeLo, clAgeHi   = 17, 79
	clLossLo, clLossHi = 1024, 3072
)

// capitalLoss returns one member of the family:
//
//	capitalloss         SA uniform, independent of age (Section 6.3, Figures 7 and 10)
//	capitalloss-normal  SA normal, mean 2048 and sigma 2048/6, independent of age (Section 6.1)
//	capitalloss-zipf    SA zipf with s = 0.1 over the ranks of 1024..3072, 1024 the
//	                    most frequent (Section 6.3, Figure 8)
//	capitalloss-corr    SA normal, sigma 2048/10, mean rising linearly with age from
//	                    1024+0.1*2048 at 17 to 1024+0.9*2048 at 79 (Section 6.1)
//
// Normal draws outside [1024,3072] are redrawn (a truncated normal), so the
// ends of the range are not over-represented.
func capitalLoss(name string) Dataset {
	d := Dataset{
		Name:        name,
		Source:      "Koudas, Srivastava, Yu, Zhang 2009, Section 6",
		DefaultRows: 10000,
		Columns:     []string{"age", "capital-loss"},
		Roles:       model.Roles{QIs: []string{"age"}, SA: "capital-loss"},
		Hierarchies: map[string]string{"age": "intervals:5,10,20", "capital-loss": "binary"},
	}
	var draw func(r *model.Rand, age int) int
	switch name {
	case "capitalloss":
		d.Title = "age uniform 17-79, capital-loss uniform 1024-3072 (no correlation)"
		draw = func(r *model.Rand, _ int) int { return clLossLo + r.Intn(clLossHi-clLossLo+1) }
	case "capitalloss-normal":
		d.Title = "age uniform 17-79, capital-loss normal around 2048 (no correlation)"
		draw = func(r *model.Rand, _ int) int { return truncNormal(r, 2048, 2048.0/6) }
	case "capitalloss-zipf":
		d.Title = "age uniform 17-79, capital-loss zipf s=0.1 over 1024-3072 (no correlation)"
		draw = func(r *model.Rand, _ int) int { return clLossLo + zipfOnce().draw(r) }
	case "capitalloss-corr":
		d.Title = "age uniform 17-79, capital-loss normal with mean rising with age"
		draw = func(r *model.Rand, age int) int {
			frac := float64(age-clAgeLo) / float64(clAgeHi-clAgeLo)
			mean := clLossLo + float64(2048*(0.1+float64(0.8*frac)))
			return truncNormal(r, mean, 2048.0/10)
		}
	default:
		panic("datasets: unknown capital-loss variant " + name)
	}
	d.gen = func(w *bufio.Writer, rows int, seed uint64) error {
		r := model.NewRand(seed)
		var buf []byte
		for i := 0; i < rows; i++ {
			age := clAgeLo + r.Intn(clAgeHi-clAgeLo+1)
			loss := draw(r, age)
			buf = strconv.AppendInt(buf[:0], int64(age), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(loss), 10)
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	}
	return d
}

// truncNormal draws round(normal(mean, sigma)) until it falls in
// [clLossLo, clLossHi]. The explicit float64 conversion stops the compiler
// fusing the multiply-add, which would round differently on some CPUs.
func truncNormal(r *model.Rand, mean, sigma float64) int {
	for {
		v := math.Round(mean + float64(sigma*r.NormFloat64()))
		if v >= clLossLo && v <= clLossHi {
			return int(v)
		}
	}
}

// zipfOnce is the zipf sampler of Section 6.3: rank k (1-based, k-th value
// of 1024..3072) has probability proportional to (1/k)^0.1. Weights are
// scaled to integers so draws do not depend on float rounding.
var zipfOnce = sync.OnceValue(func() sampler {
	n := clLossHi - clLossLo + 1
	w := make([]int, n)
	for k := 1; k <= n; k++ {
		w[k-1] = int(math.Round(1e9 * math.Pow(float64(k), -0.1)))
	}
	return newSampler(w, nil)
})
