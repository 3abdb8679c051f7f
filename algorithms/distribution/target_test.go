package distribution

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"privlab/model"
	"privlab/model/hierarchy"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Koudas et al. 2009, Figure 3: a binary hierarchy over the salaries 30K,
// 40K, 50K, 60K with the uniform target has weight 1 on every edge.
func TestAnnotateFigure3Uniform(t *testing.T) {
	h := tree(t)(hierarchy.Balanced("salary", []string{"30000", "40000", "50000", "60000"}, 2))
	wantTree(t, h, `
30000-60000
  30000-40000
    30000
    40000
  50000-60000
    50000
    60000
`)
	m, err := Target{Kind: TargetUniform}.Masses(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	quarter := []float64{0.25, 0.25, 0.25, 0.25}
	if !reflect.DeepEqual(m, quarter) {
		t.Fatalf("uniform masses %v", m)
	}
	for _, maxDen := range []int{0, 1, 8} {
		a := Annotate(h, m, maxDen)
		for n, w := range a.Weight {
			if w != 1 {
				t.Errorf("maxDen %d: weight of %s is %d, want 1", maxDen, h.Nodes[n].Label, w)
			}
		}
		if !reflect.DeepEqual(a.Effective, quarter) || !reflect.DeepEqual(a.Requested, quarter) {
			t.Errorf("maxDen %d: effective %v requested %v", maxDen, a.Effective, a.Requested)
		}
		if a.EMD() != 0 || a.MaxAbs() != 0 {
			t.Errorf("maxDen %d: EMD %v max %v", maxDen, a.EMD(), a.MaxAbs())
		}
		if a.WeightString(0) != "1:1" || a.ChildShare(1) != 0.5 || a.ChildShare(0) != 1 {
			t.Errorf("weights %s share %v", a.WeightString(0), a.ChildShare(1))
		}
		for _, l := range h.Leaves {
			if p := a.ExactLeafProb(l); p.Cmp(big.NewRat(1, 4)) != 0 {
				t.Errorf("P'(%s) = %v, want 1/4", h.Nodes[l].Label, p)
			}
		}
	}
}

func TestApproxRatio(t *testing.T) {
	tests := []struct {
		name   string
		q      []float64
		maxDen int
		want   []int64
	}{
		// Every weight is at most maxDen.
		{"0.7/0.3 maxDen 8", []float64{0.7, 0.3}, 8, []int64{7, 3}},
		{"0.7/0.3 maxDen 5", []float64{0.7, 0.3}, 5, []int64{5, 2}},
		{"1/3, 2/3", []float64{1.0 / 3, 2.0 / 3}, 8, []int64{1, 2}},
		{"0.51/0.49 maxDen 8", []float64{0.51, 0.49}, 8, []int64{1, 1}},
		{"0.51/0.49 maxDen 100", []float64{0.51, 0.49}, 100, []int64{51, 49}},
		{"counts 6:4 exact", []float64{6, 4}, 0, []int64{3, 2}},
		{"counts 7:5 exact", []float64{7, 5}, 0, []int64{7, 5}},
		{"counts 13:5 maxDen 8", []float64{13, 5}, 8, []int64{8, 3}},
		{"reals exact", []float64{0.25, 0.75}, 0, []int64{1, 3}},
		{"normalised counts exact", []float64{2.0 / 3, 1.0 / 3}, 0, []int64{2, 1}},
		{"normalised counts exact, ternary", []float64{0.1, 0.2, 0.7}, 0, []int64{1, 2, 7}},
		{"normalised counts exact, 4 of 1519", []float64{4.0 / 1519, 1515.0 / 1519}, 0, []int64{4, 1515}},
		{"normalised counts exact, flat", []float64{3.0 / 1519, 16.0 / 1519, 1500.0 / 1519}, 0, []int64{3, 16, 1500}},
		// the first convergent of 1/pi within 1e-12: 265381/833719
		{"irrational exact", []float64{1 / math.Pi, 1 - 1/math.Pi}, 0, []int64{265381, 568338}},
		{"zero mass child", []float64{0, 5}, 8, []int64{0, 1}},
		// A positive mass never rounds to weight 0 (its values would become
		// impossible under P' and their subdomains would reveal them).
		{"tiny mass keeps weight 1", []float64{0.97, 0.03}, 8, []int64{8, 1}},
		{"tiny mass keeps weight 1, ternary", []float64{0.97, 0.02, 0.01}, 8, []int64{8, 1, 1}},
		{"small mass kept", []float64{0.9, 0.1}, 8, []int64{8, 1}},
		{"ternary exact within bound", []float64{0.5, 0.3, 0.2}, 8, []int64{5, 3, 2}},
		{"ternary counts exact", []float64{10, 20, 30}, 0, []int64{1, 2, 3}},
		{"ternary maxDen 1", []float64{0.5, 0.3, 0.2}, 1, []int64{1, 1, 1}},
		{"ternary maxDen 2", []float64{0.5, 0.3, 0.2}, 2, []int64{2, 1, 1}},
		{"maxDen 1 binary", []float64{0.6, 0.4}, 1, []int64{1, 1}},
		{"maxDen 1 binary, skewed", []float64{0.8, 0.2}, 1, []int64{1, 1}},
		// With both terms <= 2^20 the two nearest fractions to pi-3 are the
		// convergent 51669/364913 (error 1.61e-12) and the semiconvergent
		// 140914/995207 (1.14e-12); they tie within 1e-12, so the smaller wins.
		{"large bound", []float64{math.Pi - 3, 4 - math.Pi}, 1 << 20, []int64{51669, 313244}},
		{"large bound, coarser", []float64{math.Pi - 3, 4 - math.Pi}, 1000, []int64{16, 97}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := approxRatio(tt.q, tt.maxDen)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("approxRatio(%v, %d) = %v, want %v", tt.q, tt.maxDen, got, tt.want)
			}
			if tt.maxDen > 0 && tt.maxDen < 1<<12 {
				if ref := bruteRatio(tt.q, tt.maxDen); !reflect.DeepEqual(got, ref) {
					t.Errorf("brute force gives %v", ref)
				}
			}
		})
	}
}

// bruteRatio is the reference for approxRatio with maxDen > 0. For two
// children it tries every pair of weights a, b <= maxDen by increasing sum
// and keeps the first that is nearer by more than 1e-12 (stopping at one
// within 1e-12). For more children it tries every sum d, rounds with
// largest remainders and skips roundings with a weight above maxDen.
// Either way a child with positive mass then gets weight at least 1.
func bruteRatio(q []float64, maxDen int) []int64 {
	total := 0.0
	for _, x := range q {
		total += x
	}
	p := make([]float64, len(q))
	for i, x := range q {
		p[i] = x / total
	}
	var best []int64
	bestErr := math.Inf(1)
	if len(q) == 2 {
	pairs:
		for d := 1; d <= 2*maxDen; d++ {
			for a := max(0, d-maxDen); a <= min(d, maxDen); a++ {
				e := math.Abs(float64(a)/float64(d) - p[0])
				if e < bestErr-1e-12 {
					best, bestErr = []int64{int64(a), int64(d - a)}, e
					if e < 1e-12 {
						break pairs
					}
				}
			}
		}
		return reduce(keepSupport(best, p, maxDen))
	}
	for d := 1; d <= maxDen*len(q); d++ {
		w := roundToSum(p, int64(d))
		e := 0.0
		for i := range w {
			if w[i] > int64(maxDen) {
				e = math.Inf(1)
				break
			}
		}
		if e == 0 {
			w = keepSupport(w, p, maxDen)
			sum := int64(0)
			for _, x := range w {
				sum += x
			}
			for i := range w {
				e = math.Max(e, math.Abs(float64(w[i])/float64(sum)-p[i]))
			}
		}
		if e < bestErr-1e-12 {
			best, bestErr = w, e
			if e < 1e-12 {
				break
			}
		}
	}
	return reduce(keepSupport(best, p, maxDen))
}

// The Stern-Brocot search of binary nodes picks what trying every pair of
// weights picks.
func TestBestFractionMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(x float64, maxDen int) {
		t.Helper()
		got := approxRatio([]float64{x, 1 - x}, maxDen)
		if want := bruteRatio([]float64{x, 1 - x}, maxDen); !reflect.DeepEqual(got, want) {
			t.Fatalf("x=%v maxDen %d: got %v, brute force %v", x, maxDen, got, want)
		}
	}
	for i := 0; i < 3000; i++ {
		check(r.Float64(), 1+r.IntN(150))
	}
	for i := 0; i < 1000; i++ {
		check(math.Pow(r.Float64(), 8), 1+r.IntN(40)) // near 0
		check(1-math.Pow(r.Float64(), 8), 1+r.IntN(40))
	}
	// Exact fractions, their neighbours and midpoints between fractions.
	for d := 1; d <= 40; d++ {
		for a := 0; a <= d; a++ {
			x := float64(a) / float64(d)
			for _, maxDen := range []int{1, 2, 3, 5, 8, 13, 40, 64} {
				check(x, maxDen)
				if a < d {
					check((float64(a)+0.5)/float64(d), maxDen)
				}
			}
		}
	}
	// Exact mode: the first fraction within 1e-12, denominators up to 1e9.
	if a, d := bestFraction(0.123456789, math.MaxInt64, math.MaxInt64, exactGrid); a != 1356659 || d != 10988938 ||
		math.Abs(float64(a)/float64(d)-0.123456789) > 1e-12 {
		t.Errorf("bestFraction(0.123456789) = %d/%d, want 1356659/10988938", a, d)
	}
	if a, d := bestFraction(0.123456789, math.MaxInt64, math.MaxInt64, 1000); a != 10 || d != 81 {
		t.Errorf("bestFraction(0.123456789, d <= 1000) = %d/%d, want 10/81", a, d)
	}
}

func TestAnnotate(t *testing.T) {
	h := tree(t)(hierarchy.Balanced("v", seq(1, 4), 2))
	t.Run("table counts, exact", func(t *testing.T) {
		m, err := Target{Kind: TargetTable}.Masses(h, []float64{2, 2, 1, 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{2.0 / 6, 2.0 / 6, 1.0 / 6, 1.0 / 6}
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("masses %v", m)
		}
		a := Annotate(h, m, 0)
		if got := []string{a.WeightString(0), a.WeightString(1), a.WeightString(4)}; !reflect.DeepEqual(got, []string{"2:1", "1:1", "1:1"}) {
			t.Errorf("weights %v", got)
		}
		if a.ExactLeafProb(h.Leaves[0]).Cmp(big.NewRat(1, 3)) != 0 || a.ExactLeafProb(h.Leaves[3]).Cmp(big.NewRat(1, 6)) != 0 {
			t.Errorf("exact P' %v %v", a.ExactLeafProb(h.Leaves[0]), a.ExactLeafProb(h.Leaves[3]))
		}
		if a.MaxAbs() > 1e-15 || a.EMD() > 1e-15 {
			t.Errorf("EMD %v max %v", a.EMD(), a.MaxAbs())
		}
	})
	t.Run("bounded denominator", func(t *testing.T) {
		// 0.7 : 0.3 at the root with weights <= 5 -> 5:2; children 1:1.
		m := []float64{0.35, 0.35, 0.15, 0.15}
		if a := Annotate(h, m, 8); a.WeightString(0) != "7:3" || a.MaxAbs() > 1e-15 {
			t.Errorf("maxDen 8: root weights %s, max %v", a.WeightString(0), a.MaxAbs())
		}
		a := Annotate(h, m, 5)
		if a.WeightString(0) != "5:2" || a.MaxDenominator != 5 {
			t.Fatalf("root weights %s", a.WeightString(0))
		}
		want := []float64{5.0 / 14, 5.0 / 14, 1.0 / 7, 1.0 / 7}
		for i := range want {
			if math.Abs(a.Effective[i]-want[i]) > 1e-15 {
				t.Errorf("effective %v, want %v", a.Effective, want)
				break
			}
		}
		// max |P'-P| = 5/14 - 0.35 = 1/140.
		if math.Abs(a.MaxAbs()-1.0/140) > 1e-15 {
			t.Errorf("MaxAbs %v, want %v", a.MaxAbs(), 1.0/140)
		}
		// ordered EMD: cumulative differences 1/140, 2/140, 1/140 over 3 steps.
		if math.Abs(a.EMD()-1.0/105) > 1e-15 {
			t.Errorf("EMD %v, want %v", a.EMD(), 1.0/105)
		}
	})
	t.Run("zero-mass subtree weighted by leaf count", func(t *testing.T) {
		h5 := tree(t)(hierarchy.Balanced("v", seq(1, 5), 2)) // [1-3: [1-2: 1 2] 3] [4-5: 4 5]
		a := Annotate(h5, []float64{0, 0, 0, 0.5, 0.5}, 8)
		if got := []string{a.WeightString(0), a.WeightString(node(t, h5, "1-3")), a.WeightString(node(t, h5, "1-2"))}; !reflect.DeepEqual(got, []string{"0:1", "2:1", "1:1"}) {
			t.Errorf("weights %v", got)
		}
		if !reflect.DeepEqual(a.Effective, []float64{0, 0, 0, 0.5, 0.5}) {
			t.Errorf("effective %v", a.Effective)
		}
	})
	t.Run("flat hierarchy", func(t *testing.T) {
		f := tree(t)(hierarchy.Flat("c", []string{"a", "b", "c"}))
		a := Annotate(f, []float64{0.5, 0.3, 0.2}, 8)
		if a.WeightString(0) != "5:3:2" || !reflect.DeepEqual(a.Effective, []float64{0.5, 0.3, 0.2}) {
			t.Errorf("weights %s effective %v", a.WeightString(0), a.Effective)
		}
	})
}

func TestEMD(t *testing.T) {
	tests := []struct {
		p, q             []float64
		ordered, equally float64
	}{
		{[]float64{1, 0, 0}, []float64{0, 0, 1}, 1, 1},
		{[]float64{0.5, 0, 0.5}, []float64{0, 1, 0}, 0.5, 1},
		{[]float64{0.5, 0.5, 0}, []float64{0, 0.5, 0.5}, 0.5, 0.5},
		{[]float64{0.25, 0.25, 0.25, 0.25}, []float64{0.5, 0, 0, 0.5}, 0.25 / 3 * 2, 0.5},
		{[]float64{1, 0, 0, 0, 0}, []float64{0, 0, 0, 0, 1}, 1, 1},
		{[]float64{0.75, 0.25}, []float64{0.25, 0.75}, 0.5, 0.5},
		{[]float64{1}, []float64{1}, 0, 0},
	}
	for _, tt := range tests {
		if got := EMD(true, tt.p, tt.q); math.Abs(got-tt.ordered) > 1e-15 {
			t.Errorf("ordered EMD(%v, %v) = %v, want %v", tt.p, tt.q, got, tt.ordered)
		}
		if got := EMD(false, tt.p, tt.q); got != tt.equally {
			t.Errorf("equal-distance EMD(%v, %v) = %v, want %v", tt.p, tt.q, got, tt.equally)
		}
	}
	// Annotated.EMD picks the ordered distance for numeric domains and the
	// equal distance for categorical ones.
	num := &Annotated{H: &hierarchy.Hierarchy{Numeric: true}, Effective: []float64{0.5, 0, 0.5}, Requested: []float64{0, 1, 0}}
	cat := &Annotated{H: &hierarchy.Hierarchy{}, Effective: []float64{0.5, 0, 0.5}, Requested: []float64{0, 1, 0}}
	if num.EMD() != 0.5 || cat.EMD() != 1 || num.MaxAbs() != 1 {
		t.Errorf("numeric %v categorical %v max %v", num.EMD(), cat.EMD(), num.MaxAbs())
	}
}

func TestMasses(t *testing.T) {
	nums := tree(t)(hierarchy.Balanced("v", seq(1, 5), 2))
	t.Run("normal", func(t *testing.T) {
		m, err := Target{Kind: TargetNormal, Mu: 3, Sigma: 1}.Masses(nums, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, x := range m {
			sum += x
		}
		if math.Abs(sum-1) > 1e-15 {
			t.Errorf("sum %v", sum)
		}
		if math.Abs(m[0]-m[4]) > 1e-15 || math.Abs(m[1]-m[3]) > 1e-15 {
			t.Errorf("not symmetric around 3: %v", m)
		}
		// P(2.5 < X < 3.5) = erf(0.5/sqrt 2); P(3.5 < X < 4.5); P(X > 4.5).
		want := []float64{0.06680720126885807, 0.24173033745712885, 0.38292492254802624, 0.24173033745712885, 0.06680720126885807}
		for i := range want {
			if math.Abs(m[i]-want[i]) > 1e-12 {
				t.Errorf("normal masses %v\nwant %v", m, want)
				break
			}
		}
		// Leaves out of value order get the mass of their own neighbourhood.
		odd := tree(t)(hierarchy.Parse("v", "h.csv", strings.NewReader("1;a;*\n3;a;*\n5;a;*\n2;b;*\n4;b;*\n")))
		m2, _ := Target{Kind: TargetNormal, Mu: 3, Sigma: 1}.Masses(odd, nil)
		for i, l := range odd.Leaves {
			if v := odd.Nodes[l].Value; math.Abs(m2[i]-want[int(v)-1]) > 1e-12 {
				t.Errorf("value %v got mass %v, want %v", v, m2[i], want[int(v)-1])
			}
		}
		_, err = Target{Kind: TargetNormal, Mu: 3, Sigma: 1}.Masses(tree(t)(hierarchy.Flat("c", []string{"a", "b"})), nil)
		var pe *model.ParamError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "numeric") {
			t.Errorf("normal on categorical: %v", err)
		}
		if _, err := (Target{Kind: TargetNormal, Mu: 1e6, Sigma: 1}).Masses(nums, nil); err != nil {
			t.Errorf("far mean: the last value holds the tail, got %v", err)
		}
	})
	t.Run("zipf", func(t *testing.T) {
		h := tree(t)(hierarchy.Flat("c", []string{"a", "b", "c", "d"}))
		m, _ := Target{Kind: TargetZipf, S: 1}.Masses(h, nil)
		want := []float64{12.0 / 25, 6.0 / 25, 4.0 / 25, 3.0 / 25} // (1/k) / (25/12)
		for i := range want {
			if math.Abs(m[i]-want[i]) > 1e-15 {
				t.Errorf("zipf(1) %v, want %v", m, want)
				break
			}
		}
		m, _ = Target{Kind: TargetZipf, S: 2}.Masses(h, nil)
		for k := 1; k < 4; k++ {
			want := math.Pow(float64(k)/float64(k+1), 2) // P(k+1)/P(k) = (k/(k+1))^s
			if math.Abs(m[k]/m[k-1]-want) > 1e-15 {
				t.Errorf("zipf(2): P(%d)/P(%d) = %v, want %v", k+1, k, m[k]/m[k-1], want)
			}
		}
		m, _ = Target{Kind: TargetZipf, S: 0}.Masses(h, nil)
		if !reflect.DeepEqual(m, []float64{0.25, 0.25, 0.25, 0.25}) {
			t.Errorf("zipf(0) %v", m)
		}
	})
	t.Run("table and group counts", func(t *testing.T) {
		for _, k := range []TargetKind{TargetTable, TargetGroup} {
			m, err := Target{Kind: k}.Masses(nums, []float64{1, 0, 3, 0, 4})
			if err != nil || !reflect.DeepEqual(m, []float64{0.125, 0, 0.375, 0, 0.5}) {
				t.Errorf("%v: %v %v", k, m, err)
			}
		}
		for _, counts := range [][]float64{{1, 2}, {0, 0, 0, 0, 0}, {1, -1, 1, 1, 1}, {1, math.NaN(), 1, 1, 1}} {
			if _, err := (Target{Kind: TargetTable}).Masses(nums, counts); err == nil {
				t.Errorf("counts %v accepted", counts)
			}
		}
	})
	t.Run("custom", func(t *testing.T) {
		sal := tree(t)(hierarchy.Balanced("salary", []string{"30000", "40000", "50000", "60000"}, 2))
		tg, err := ParseTargetCSV("w.csv", strings.NewReader("\xEF\xBB\xBFvalue,weight\n30000,1\n\n4e4,3\n"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := tg.Masses(sal, nil)
		if err != nil || !reflect.DeepEqual(m, []float64{0.25, 0.75, 0, 0}) {
			t.Errorf("custom masses %v %v", m, err)
		}
		tg, _ = ParseTargetCSV("w.csv", strings.NewReader("30000,1\n70000,2\n80000,1\n"))
		_, err = tg.Masses(sal, nil)
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != "w.csv" || !strings.Contains(err.Error(), `value "70000" is not in the domain of salary`) {
			t.Errorf("unknown value: %v", err)
		}
		tg, _ = ParseTargetCSV("w.csv", strings.NewReader("30000,1\n3e4,2\n"))
		if _, err := tg.Masses(sal, nil); err == nil || !strings.Contains(err.Error(), `"30000" and "3e4" are the same value`) {
			t.Errorf("two spellings of one value: %v", err)
		}
	})
}

func TestParseTargetCSVErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
		msg       string
	}{
		{"value,weight\n30000,1\n40000,x\n", 3, 2, `weight "x" is not a number`},
		{"a,1\nb,-1\n", 2, 2, "weight must be >= 0"},
		{"a,1\nb,1,2\n", 2, 0, "expected 2 fields"},
		{"a,1\n\na,2\n", 3, 1, `value "a" listed twice`},
		{"a,0\nb,0\n", 0, 0, "no positive weight"},
		{"value,weight\n", 0, 0, "no positive weight"},
		{"a,1\n\"b,2\n", 2, 0, "malformed CSV"},
	}
	for _, tt := range tests {
		_, err := ParseTargetCSV("w.csv", strings.NewReader(tt.in))
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != "w.csv" || ie.Line != tt.line || ie.Column != tt.col || !strings.Contains(ie.Msg, tt.msg) {
			t.Errorf("%q: got %v, want line %d column %d %q", tt.in, err, tt.line, tt.col, tt.msg)
		}
	}
}

func TestParseTarget(t *testing.T) {
	good := map[string]Target{
		"":                {Kind: TargetUniform},
		"uniform":         {Kind: TargetUniform},
		"table":           {Kind: TargetTable},
		"GROUP":           {Kind: TargetGroup},
		"normal:2048,300": {Kind: TargetNormal, Mu: 2048, Sigma: 300},
		"zipf:0.5":        {Kind: TargetZipf, S: 0.5},
	}
	for spec, want := range good {
		got, err := ParseTarget(spec)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseTarget(%q) = %+v, %v", spec, got, err)
		}
		if spec != "" && spec != "GROUP" && got.String() != spec {
			t.Errorf("String() = %q, want %q", got.String(), spec)
		}
	}
	for _, spec := range []string{"normal:1", "normal:1,0", "normal:1,-2", "normal:x,1", "zipf:-1", "zipf:", "zipf:Inf", "nosuchfile.csv"} {
		_, err := ParseTarget(spec)
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "target" {
			t.Errorf("ParseTarget(%q): got %v, want a target parameter error", spec, err)
		}
	}
	p := filepath.Join(t.TempDir(), "w.csv")
	os.WriteFile(p, []byte("a,1\nb,3\n"), 0o644)
	tg, err := ParseTarget(p)
	if err != nil || tg.Kind != TargetCustom || tg.String() != p || !reflect.DeepEqual(tg.Weights, map[string]float64{"a": 1, "b": 3}) {
		t.Errorf("custom file: %+v %v", tg, err)
	}
}

func seq(lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

// tree fails the test on a builder error: tree(t)(hierarchy.Flat(...)).
func tree(t *testing.T) func(*hierarchy.Hierarchy, error) *hierarchy.Hierarchy {
	return func(h *hierarchy.Hierarchy, err error) *hierarchy.Hierarchy {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

func wantTree(t *testing.T, h *hierarchy.Hierarchy, want string) {
	t.Helper()
	want = strings.TrimLeft(want, "\n")
	if got := h.String(); got != want {
		t.Errorf("tree\n%s\nwant\n%s", got, want)
	}
}

// node finds the deepest node with this label.
func node(t *testing.T, h *hierarchy.Hierarchy, label string) int {
	t.Helper()
	found := -1
	for i, nd := range h.Nodes {
		if nd.Label == label && (found < 0 || nd.Depth > h.Nodes[found].Depth) {
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("no node %q", label)
	}
	return found
}

// approxRatio returns integer weights in the ratio of q (see Annotate for
// maxDen), in a slice of its own.
func approxRatio(q []float64, maxDen int) []int64 {
	var r ratioScratch
	return append([]int64(nil), r.approx(q, maxDen)...)
}

// roundToSum rounds p*d to integers summing to d, in a slice of its own.
func roundToSum(p []float64, d int64) []int64 {
	var r ratioScratch
	return append([]int64(nil), r.roundToSum(p, d)...)
}
