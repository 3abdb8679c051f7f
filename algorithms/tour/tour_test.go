package tour

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/datasets"
)

var env = pipeline.Env{Datasets: datasets.Catalog{}}

// printed builds a tour's steps and renders them as plain text: the
// tour's title and paper, each step's title, citation, paragraphs and
// tables (what privlab tour NAME --steps prints, but for the command
// that makes each step's release and the wrapping).
func printed(t *testing.T, name string) (string, []method.Step) {
	t.Helper()
	tr, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := tr.Steps(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n%s\n", tr.Title, tr.Paper)
	for i, st := range steps {
		fmt.Fprintf(&b, "\n== Step %d of %d: %s\n(%s)\n", i+1, len(steps), st.Title, st.Cite)
		for _, p := range st.Text {
			fmt.Fprintf(&b, "\n%s\n", p)
		}
		method.WriteSections(&b, st.Sections)
	}
	return b.String(), steps
}

// expect asserts that the printed steps hold every text, each with its
// numbers as the paper prints them; spacing is ignored.
func expect(t *testing.T, out string, want ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(out), " ")
	for _, w := range want {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("the steps do not say %q", w)
		}
	}
}

// TestDistributionTour: Koudas et al. 2009 on Figure 1's employees: the
// groups of Figure 2, the uniform target of Figure 3, Example 1, Figure
// 2's query [35K, 55K] with its per-group sums (Section 2), and the fake
// 60K that narrows group 2's bounds from [110K/3, 160K/3] to [40K, 50K].
func TestDistributionTour(t *testing.T) {
	t.Parallel()
	out, _ := printed(t, "distribution")
	expect(t, out,
		"3 groups of 4, 3, 4 records",
		"30K 1/4", "60K 1/4",
		"group 1 0, group 2 50K, group 3 80K",
		"is generalized to [30K, 60K] x2, 30K, 40K, 50K, 60K, sum of ranges 60K",
		"2 91220 F 30K [30K, 60K]",
		"The release answers [35K, 55K]",
		"1 2 70K 110K", "2 3 110K 160K", "3 1 30K 60K",
		"is answered [110K/3, 160K/3]",
		"removes the most generalization: 60K",
		"narrows to [40K, 50K]")
}

// TestKJATour: Sacharidis et al. on their own points: Mondrian's cuts of
// Figure 3 (QI1 at C, QI2 at A and F) to ABD, CHI, EFG, JKLM; Figure 8's
// discarded T, U, V, W and trimmed Z; Figure 2's NCP 62 and DM 25;
// Figure 5's NCP 24 (printed 32) and DM 13; Figure 7's 3.66 vs 2 and the
// SA distributions (5/3, 5/3, 1/3) vs (1, 1, 0).
func TestKJATour(t *testing.T) {
	t.Parallel()
	out, _ := printed(t, "kja")
	expect(t, out,
		"QI1 at C's value (6 and 7 tuples); QI2 at A's value (3 and 3 tuples); QI2 at F's value (3 and 4 tuples)",
		"4 groups, ABD, CHI, EFG, JKLM",
		"is discarded (TUVW)",
		"JKLM PQRSTUVWXYZ JPQ LMY KRX TUVW SZ",
		"4*8 + 3*10 = 62", "its box: 25",
		"NCP, in the figure's units: 2*4 + 2*4 + 2*4 + 1*0 = 24 (AT: 62). The paper prints 32",
		// The text states the figures the preview shows (issue 35.7).
		"The preview divides each side by its quasi-identifier's extent: NCP (mean, 0-1) 0.7381, NCP (sum) 10.33",
		"NCP (mean, 0-1) 0.2857, NCP (sum) 4 (the sum over 7 MT tuples and 2 QIs), DM 13.",
		"DM = 13 (AT: 25)",
		"AT estimates 3.67", "JAT with SI estimates 2",
		"all 2 11/3 2", "SA = v1 1 5/3 1", "SA = v2 1 5/3 1", "SA = v3 0 1/3 0")
}

// TestLossyJoinTour: Wong et al. on Table 1: Table 3's generalized
// classes, Table 4's ClassIDs, Tables 5 and 6, Table 7's 12 join rows.
func TestLossyJoinTour(t *testing.T) {
	t.Parallel()
	out, steps := printed(t, "lossyjoin")
	expect(t, out,
		"white-collar * 4350 HIV", "white-collar * 4350 flu", "* 1955 5432 flu", "* 1955 5432 fever",
		"blue-collar * 4350 flu", "blue-collar * 4350 fever",
		"gives 12 rows from 6 records (2^2 + 2^2 + 2^2)",
		"(clerk, 1975, 4350) in class 1 with {HIV, flu}")
	// Table 4: clerk 1975 with manager, clerk 1955 with the factory worker
	// of 1955, the factory worker of 1975 with the technical supporter.
	class := map[string]string{}
	for _, r := range steps[2].Sections[0].Rows {
		class[r[0]+" "+r[1]] = r[4]
	}
	if class["clerk 1975"] != class["manager 1955"] || class["clerk 1955"] != class["factory worker 1955"] ||
		class["factory worker 1975"] != class["technical supporter 1940"] || class["clerk 1975"] == class["clerk 1955"] {
		t.Errorf("Temp table classes %v are not Table 4's", class)
	}
	if n := len(steps[4].Sections[0].Rows); n != 12 {
		t.Errorf("Table 7 has %d rows, want 12", n)
	}
}

// TestSamplingTour: Sattar et al.: Pr(t) = 0.00375, expected confidence
// 0.313 (n = 100) and 0.977 (n = 1000), the group {A,A,A,B,B,C}, the
// distortion 0.625, and Algorithm 1 record by record: every published
// record ends with observed <= expected confidence (Eq. 3).
func TestSamplingTour(t *testing.T) {
	t.Parallel()
	out, steps := printed(t, "sampling")
	expect(t, out,
		"Pr(20-29) = 0.15, Pr(F) = 0.5, Pr(diabetes) = 0.05: Pr(t) = 0.00375",
		"0.313 for n = 100 and 0.977 for n = 1000",
		"100 0.313", "1000 0.977",
		"50.00%, 33.33%, 16.67%",
		"A 3 1/2 0.5000 0.4500",
		"((1 - 3/4) + (1 - 0/1)) / 2 = 0.625",
		"Alice 22 F 5095 Cancer 20-24 F, 5095")
	rows := steps[4].Sections[0].Rows
	published := 0
	for _, r := range rows {
		if r[6] == "suppressed" {
			continue
		}
		obs, err1 := strconv.ParseFloat(r[7], 64)
		exp, err2 := strconv.ParseFloat(r[8], 64)
		if err1 != nil || err2 != nil || obs > exp {
			t.Errorf("record %s published with observed %s > expected %s", r[0], r[7], r[8])
		}
		published++
	}
	if len(rows) != 18 || published != 15 {
		t.Errorf("%d records sampled, %d published; want 18 and 15", len(rows), published)
	}
}

// TestAmbiguityTour: Wang on Figure 1(a): Figure 2's tables, Pr(Alan in
// T) = 1/3, Pr(Alice in T) = 4/9, associations 1/4 and 1/2, Q1 = 3/4
// against 3/8 on Figure 1(b), Q2 = 7/18.
func TestAmbiguityTour(t *testing.T) {
	t.Parallel()
	out, _ := printed(t, "ambiguity")
	expect(t, out,
		"2 leukemia 2",
		"Pr(Alan in T) = 1/3 and Pr(Alice in T) = 4/9",
		"C(11,3)/C(12,4) = 1/3 and C(8,3)/C(9,4) = 4/9",
		"Alan 1 4 4 1 3 1/3", "Alice 2 4 3 1 3 4/9",
		"Pr((Alan, diabetes) | Alan in T) = 1/4 and Pr((Alice, leukemia) | Alice in T) = 1/2",
		"is estimated 3/4 from the scheme and 3/8 from Figure 1(b)'s generalized table",
		"Q2 = 7/18")
}

// TestEveryTour: every registered method has a tour; every step cites
// the paper, has a title and text, and names a setup that runs; the
// tours open on their first setup, and each example table leads to its
// own tour.
func TestEveryTour(t *testing.T) {
	if got := strings.Join(Names(), " "); got != "distribution kja lossyjoin sampling ambiguity" {
		t.Fatalf("tours %s", got)
	}
	for _, tr := range All() {
		if tr.Title == "" || tr.Paper == "" || len(tr.Setups) == 0 || len(tr.Tour.Steps) < 4 {
			t.Errorf("%s: incomplete tour", tr.Name)
		}
		if p := tr.Start(); p.Method != tr.Name || p.Input != tr.Setups[0].Input {
			t.Errorf("%s: starts on %+v", tr.Name, p)
		}
		for _, s := range tr.Setups {
			got, _, ok := ForDataset(strings.TrimPrefix(s.Input, "dataset:"))
			if !ok || got.Name != tr.Name {
				t.Errorf("%s: ForDataset(%s) = %s, %v", tr.Name, s.Input, got.Name, ok)
			}
		}
	}
	if _, err := Lookup("nosuch"); err == nil || !strings.Contains(err.Error(), "tours: distribution, kja") {
		t.Errorf("Lookup(nosuch): %v", err)
	}
	if _, _, ok := ForDataset("census"); ok {
		t.Error("census is no paper's worked example")
	}
}

func TestStepsAreComplete(t *testing.T) {
	t.Parallel()
	for _, tr := range All() {
		steps, err := tr.Steps(context.Background(), env)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range steps {
			if st.Title == "" || st.Cite == "" || len(st.Text) == 0 || st.Setup.Input == "" {
				t.Errorf("%s step %d: title %q, cite %q, %d paragraphs, setup %q", tr.Name, i+1, st.Title, st.Cite, len(st.Text), st.Setup.Input)
			}
		}
	}
}
