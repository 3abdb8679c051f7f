package kja

import (
	"context"
	"math"
	"strings"
	"testing"

	"privlab/datasets"
	"privlab/model"
)

func TestTrendClassification(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want direction
	}{
		{[]float64{1, 2, 3}, steadyUp},
		{[]float64{3, 2, 1}, steadyDown},
		{[]float64{1, 1, 2}, steadyUp}, // an equal step goes neither way
		{[]float64{5, 5, 5}, flat},
		{[]float64{1, 3, 2, 4}, mostlyUp},   // two steps up, one down
		{[]float64{4, 2, 3, 1}, mostlyDown}, // two down, one up
		{[]float64{1, 3, 4, 2, 0.5}, flat},  // lower at the end, but two steps each way
		{[]float64{1, 1 + 1e-12, 1}, flat},  // float noise is no step
		{[]float64{2}, flat},
	} {
		if got := trend(c.xs); got != c.want {
			t.Errorf("trend(%v) = %d, want %d", c.xs, got, c.want)
		}
	}
}

// fakeSeries is a series whose every variant has the figures f(v, key).
func fakeSeries(keys []string, f func(v string, i int) []float64) series {
	s := series{keys: keys}
	for i := range keys {
		row := map[string][]float64{}
		for _, v := range studyVariants {
			row[v] = f(v, i)
		}
		s.rows = append(s.rows, row)
	}
	return s
}

// TestTrendsSection holds made-up tables whose trends are known against
// the paper's statements: every verdict and figure is exact.
func TestTrendsSection(t *testing.T) {
	isPlain := func(v string) bool { return v == MondrianPlain || v == TopDownPlain }
	// NCP falls with the ratio for every KJA variant but mondrian-direct,
	// which rises; DM falls; plain stays; Refinement beats Direct for
	// both algorithms except at ratio 1 (skipped: JT = MT).
	byRatio := fakeSeries([]string{"1", "5", "10"}, func(v string, i int) []float64 {
		if isPlain(v) {
			return []float64{100, 50, 1}
		}
		ncp := 100 - 30*float64(i)
		if v == MondrianDirect {
			ncp = 100 + float64(i)
		}
		if strings.HasSuffix(v, "-refine") && i > 0 {
			ncp -= 5
		}
		return []float64{ncp, 50 - 10*float64(i), 1 - 0.25*float64(i)}
	})
	byK := fakeSeries([]string{"5", "10"}, func(v string, i int) []float64 {
		ncp := 10 + float64(i)
		if strings.HasSuffix(v, "-direct") {
			ncp += 3
		}
		return []float64{ncp, 20 + float64(i), 0.1 + float64(i)}
	})
	byD := fakeSeries([]string{"2", "3"}, func(v string, i int) []float64 {
		ncp := 10 + float64(i)
		if strings.HasSuffix(v, "-direct") {
			ncp += 3
		}
		return []float64{ncp, 1, 0}
	})
	// ARE against |R|: up then down for mondrian (disagrees), steady
	// down for the others.
	byR := fakeSeries([]string{"2%", "10%", "50%"}, func(v string, i int) []float64 {
		if v == MondrianPlain {
			return []float64{0, 0, []float64{1, 2, 0.5}[i]}
		}
		return []float64{0, 0, 1 - 0.3*float64(i)}
	})
	sec := trends(byRatio, byK, byD, byR)
	want := []string{
		"PARTLY DISAGREES: KJA's NCP falls as |PD|/|MT| grows (Figures 10a, 12a): not here for mondrian-direct 100.0 -> 101.0 -> 102.0",
		"agrees: plain k-anonymity's NCP stays constant as |PD|/|MT| grows (it does not read PD; Figure 10a)",
		"agrees: KJA's DM falls as |PD|/|MT| grows (Figures 11a, 13a), at every step for mondrian-direct, mondrian-refine, topdown-direct, topdown-refine",
		"agrees: Refinement's ARE falls as |PD|/|MT| grows (Figures 14a, 15a), at every step for mondrian-refine, topdown-refine",
		"agrees: NCP rises with k (Figures 10b, 12b), at every step for mondrian, mondrian-direct, mondrian-refine, topdown, topdown-direct, topdown-refine",
		"agrees: DM rises with k (Figures 11b, 13b), at every step for mondrian, mondrian-direct, mondrian-refine, topdown, topdown-direct, topdown-refine",
		"agrees: ARE rises with k (Figures 14b, 15b), at every step for mondrian, mondrian-refine, topdown, topdown-refine",
		"agrees: NCP rises with d (Figures 10c, 12c), at every step for mondrian, mondrian-direct, mondrian-refine, topdown, topdown-direct, topdown-refine",
		`PARTLY DISAGREES: ARE falls as |R| grows (Figure 14c: "the estimation accuracy increases with |R|"): not here for mondrian 1.000 -> 2.000 -> 0.500`,
		"DISAGREES: for Mondrian, Refinement has the lower NCP at 6 of 6 points, Direct at 0; Direct has the lower DM at 0; the paper finds Direct better for Mondrian, on IPUMS (Section 5; on uniform data the two are close)",
		"agrees: for TopDown, Refinement has the lower NCP at 6 of 6 points, Direct at 0; Direct has the lower DM at 0; the paper finds Refinement better for TopDown, on IPUMS (Section 5; on uniform data the two are close)",
	}
	if strings.Join(sec.Notes, "\n") != strings.Join(want, "\n") {
		t.Fatalf("trends:\n%s\nwant:\n%s", strings.Join(sec.Notes, "\n"), strings.Join(want, "\n"))
	}
}

// TestStudyAveragesDraws: a point of the study is the mean of its draws
// (seeds Seed, Seed+1, ...), and the study says how many it averaged and
// that the run's k is not the study's.
func TestStudyAveragesDraws(t *testing.T) {
	tab, err := datasets.Catalog{}.LoadTable("universe", 3000, 1)
	if err != nil {
		t.Fatal(err)
	}
	in := testInput(tab, nil, joinQIs, "occupation", []string{"id"})
	in.Values = model.Values{"k": "7"}
	u, err := newUniverse(in)
	if err != nil {
		t.Fatal(err)
	}
	g := Grid{MT: 100, Ratios: []float64{1, 5}, Ks: []int{5, 10}, Ds: []int{2, 3}, Rs: []float64{0.1, 0.5},
		Ratio: 5, K: 10, D: 3, R: 0.1, Queries: 20, Draws: 2, Seed: 3, Split: SplitWidest}
	both, err := u.measure(context.Background(), g, 5, 10, 3, g.Rs)
	if err != nil {
		t.Fatal(err)
	}
	one := g
	one.Draws = 1
	first, err := u.measure(context.Background(), one, 5, 10, 3, g.Rs)
	if err != nil {
		t.Fatal(err)
	}
	one.Seed = 4
	second, err := u.measure(context.Background(), one, 5, 10, 3, g.Rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range studyVariants {
		for j := range both[v] {
			if want := (first[v][j] + second[v][j]) / 2; math.Abs(both[v][j]-want) > 1e-9*math.Max(1, want) {
				t.Fatalf("%s figure %d: %v, want the mean of %v and %v", v, j, both[v][j], first[v][j], second[v][j])
			}
		}
		if first[v][0] == second[v][0] && v != MondrianPlain {
			t.Fatalf("%s: the two draws give the same NCP %v: the seeds do not draw anew", v, first[v][0])
		}
	}
	secs, err := Study(context.Background(), in, &g, nil)
	if err != nil {
		t.Fatal(err)
	}
	intro := strings.Join(secs[0].Notes, "\n")
	for _, want := range []string{
		"every figure is the mean of 2 random draws of MT and PD (seeds 3..4), as the paper averages five",
		"the study uses the paper's grid (k = 5, 10, default 10), not the run's k = 7, which applies to the workload line above",
	} {
		if !strings.Contains(intro, want) {
			t.Fatalf("intro lacks %q:\n%s", want, intro)
		}
	}
	// Plain TopDown reads no PD: its NCP is the same at every ratio, and
	// at |PD|/|MT| = 1 (JT = MT) Direct is plain TopDown.
	for _, sec := range secs {
		if strings.HasPrefix(sec.Title, "NCP (sum) vs |PD|/|MT|") {
			td, tdDirect := 4, 5
			if sec.Header[td] != TopDownPlain || sec.Rows[0][td] != sec.Rows[1][td] || sec.Rows[0][td] != sec.Rows[0][tdDirect] {
				t.Fatalf("plain TopDown moves with PD: %v", sec.Rows)
			}
		}
	}
	if last := secs[len(secs)-1]; !strings.HasPrefix(last.Title, "Trends against the paper") || len(last.Notes) != 11 {
		t.Fatalf("last section %q with %d notes, want the trends", last.Title, len(last.Notes))
	}
}
