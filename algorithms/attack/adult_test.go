package attack_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/attack"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
)

// The findings on UCI Adult (../shared/data, skipped when absent):
// ARX's adult.csv (30,162 people without unknown values) released, and the
// raw UCI training split adult.data (32,561 people, no header row) as the
// population an attacker holds.
var (
	adultDir   = filepath.Join("..", "..", "..", "shared", "data")
	adultCSV   = filepath.Join(adultDir, "adult", "adult.csv")
	adultData  = filepath.Join(adultDir, "adult-uci", "adult.data")
	uciColumns = []string{"age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation", "relationship",
		"race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country", "salary-class"}
	adultQIs = []string{"sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation"}
)

func needAdult(t testing.TB) {
	t.Helper()
	for _, p := range []string{adultCSV, adultData} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("UCI Adult is not at %s (../shared/data beside the repository)", p)
		}
	}
}

// population loads adult.data with its columns named.
func population(t testing.TB) (*model.Table, string) {
	t.Helper()
	pop, name, err := env.LoadPopulation(adultData, uciColumns, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pop, name
}

// sample writes n rows of adult.csv drawn at random (seeded) and returns
// the file.
func sample(t testing.TB, n int, seed uint64) string {
	t.Helper()
	b, err := os.ReadFile(adultCSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), "\n")
	rows := lines[1:]
	rand.New(rand.NewPCG(seed, 0)).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return writeFile(t, fmt.Sprintf("adult-%d.csv", n), lines[0]+"\n"+strings.Join(rows[:n], "\n")+"\n")
}

// TestAdultAmbiguityPresence: ambiguity on 15,000 random rows of
// adult.csv promises presence <= alpha = 0.5 (Wang, Theorem 5.1); an
// attacker who holds adult.data's quasi-identifiers learns for certain
// that people are in the data: a value a group lists that no one else
// the group covers holds.
func TestAdultAmbiguityPresence(t *testing.T) {
	needAdult(t)
	t.Parallel()
	in := sample(t, 15000, 19)
	rel := release(t, in, pipeline.Project{Method: "ambiguity", Roles: model.Roles{QIs: adultQIs, SA: "salary-class"}})
	pop, name := population(t)
	f := find(t, run(t, rel, &risk.Knowledge{Population: pop, PopulationName: name}), attack.Membership)
	t.Logf("%s", attack.Line(f))
	if f.Holds() != 0 || f.Records < 10 || f.Bound != 0.5 {
		t.Errorf("ambiguity presence: %d people certainly present, holds %d, bound %v; want >= 10, broken, 0.5", f.Records, f.Holds(), f.Bound)
	}
	if f.Records != 1381 {
		t.Errorf("ambiguity presence: %d people certainly present, want 1381 (seeded sample)", f.Records)
	}
	// Made with the population (run --population), its report.md states
	// the count instead of promising presence <= alpha.
	rel = release(t, in, pipeline.Project{Method: "ambiguity", Roles: model.Roles{QIs: adultQIs, SA: "salary-class"},
		Population: adultData, PopulationColumns: uciColumns})
	b, err := os.ReadFile(filepath.Join(rel, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "The method's bound is BROKEN by membership") || !strings.Contains(string(b), "it succeeds on 1381 (1381 people of 22857 covered certainly in the data (9704 people of the population no group covers)") ||
		strings.Contains(string(b), "believed with probability at most") {
		t.Errorf("report.md of the ambiguity release does not state the broken presence bound with its count:\n%s", b)
	}
}

// TestAdultSamplingMarginals: sampling's certificate (Eq. 3) holds under
// the table's own marginals, the manifest's "public" ones; under
// adult.data's value frequencies records go over their cap. Its classes
// with one sensitive value give the attacker a belief of 1.
func TestAdultSamplingMarginals(t *testing.T) {
	needAdult(t)
	t.Parallel()
	rel := release(t, adultCSV, pipeline.Project{Method: "sampling", Roles: model.Roles{QIs: adultQIs, SA: "salary-class"}})
	pop, name := population(t)
	rep := run(t, rel, &risk.Knowledge{Population: pop, PopulationName: name})
	f := find(t, rep, "Eq. 3 under other marginals")
	t.Logf("%s", attack.Line(f))
	if f.Holds() != 0 || f.Records != 786 {
		t.Errorf("sampling under adult.data's marginals: %d records over their cap, holds %d; want 786, broken", f.Records, f.Holds())
	}
	inf := find(t, rep, attack.Inference)
	t.Logf("%s", attack.Line(inf))
	if !strings.Contains(inf.Detail, "largest belief 1;") || !strings.Contains(inf.Detail, "; 13099 records in equivalence groups with one sensitive value") || inf.Holds() != 1 {
		t.Errorf("sampling inference: %s (holds %d); want classes with one sensitive value under a holding Eq. 3", inf.Detail, inf.Holds())
	}
}

// TestAdultKJAWithoutIdentifier: kja joins 15,000 rows of adult.csv with a
// public table of 15,000 others that shares many of its people, without
// an identifier. Every box counts a microdata tuple and its public twin
// once; an attacker who holds adult.csv's people (each once) finds at
// least k distinct people in every box: 1/k holds.
func TestAdultKJAWithoutIdentifier(t *testing.T) {
	needAdult(t)
	t.Parallel()
	mt, pd := sample(t, 15000, 1), sample(t, 15000, 2)
	// Without an identifier, a public row equal to a microdata row on the
	// QIs may be that person: the release must count them once.
	mtT, pdT := load(t, mt), load(t, pd)
	mtCols, _ := mtT.MustColumns("qi", adultQIs)
	pdCols, _ := pdT.MustColumns("qi", adultQIs)
	inPD := map[string]bool{}
	for row := 0; row < pdT.Rows; row++ {
		inPD[verifyKey(pdCols, row)] = true
	}
	twins := 0
	for row := 0; row < mtT.Rows; row++ {
		if inPD[verifyKey(mtCols, row)] {
			twins++
		}
	}
	if twins < mtT.Rows/4 {
		t.Fatalf("only %d of %d microdata tuples have a public twin: the test does not exercise the double count", twins, mtT.Rows)
	}
	t.Logf("%d of %d microdata tuples (%.0f%%) have a QI tuple the public table also holds", twins, mtT.Rows, 100*float64(twins)/float64(mtT.Rows))
	rel := release(t, mt, pipeline.Project{Method: "kja", Variant: "mondrian-direct", Public: pd, Roles: model.Roles{QIs: adultQIs, SA: "salary-class"},
		Params: model.Values{"k": "5"}})
	pop := load(t, adultCSV)
	f := find(t, run(t, rel, &risk.Knowledge{Population: pop, PopulationName: "adult.csv's people"}), attack.Linkage)
	t.Logf("%s", attack.Line(f))
	if f.Holds() != 1 || f.Bound != 0.2 || f.Records != 0 {
		t.Errorf("kja without an identifier: measured %v, holds %d, %d re-identified; want <= 0.2, holds, 0", f.Measured, f.Holds(), f.Records)
	}
}

func verifyKey(cols []*model.Column, row int) string {
	var b strings.Builder
	for _, c := range cols {
		b.WriteString(c.Value(row))
		b.WriteByte(0)
	}
	return b.String()
}
