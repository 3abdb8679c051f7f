package attack_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/attack"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
)

var env = pipeline.Env{}

// people is a small table: twelve people, two of them unique on
// (age, zip), and three flu patients who share (40, 200) — a class with
// one sensitive value.
const people = `age,zip,sex,disease
30,100,F,cold
30,100,F,asthma
31,100,M,cold
31,100,M,asthma
40,200,F,flu
40,200,F,flu
40,200,F,flu
41,200,M,cold
41,200,M,asthma
52,300,F,hiv
55,300,M,cancer
58,300,F,cold
`

func writeFile(t testing.TB, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// release runs a method on a table and exports the release.
func release(t testing.TB, input string, p pipeline.Project) string {
	t.Helper()
	p.Input = input
	if p.Params == nil {
		p.Params = model.Values{}
	}
	p.Params["seed"] = "3"
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{AcceptViolations: true}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func load(t testing.TB, path string) *model.Table {
	t.Helper()
	tb, err := env.LoadTable(pipeline.Project{Input: path})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func find(t *testing.T, rep *attack.Report, name string) risk.Finding {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Attack == name {
			return f
		}
	}
	t.Fatalf("no %s finding in %v", name, rep.Findings)
	return risk.Finding{}
}

func run(t *testing.T, dir string, k *risk.Knowledge) *attack.Report {
	t.Helper()
	rep, err := pipeline.Attack(dir, k)
	if err != nil {
		t.Fatal(err)
	}
	// No example names a sensitive value of the original.
	for _, f := range rep.Findings {
		for _, v := range []string{"cold", "asthma", "flu", "hiv", "cancer"} {
			if strings.Contains(f.Example, v) {
				t.Errorf("%s's example names the sensitive value %s: %s", f.Attack, v, f.Example)
			}
		}
	}
	return rep
}

// TestLinkage: distribution publishes the QIs unchanged, so the two people
// unique on (age, zip, sex) are re-identified (not bounded); a kja release
// of boxes of >= 3 holds 1/3 against the original's people.
func TestLinkage(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "people.csv", people)
	orig := load(t, in)
	dist := release(t, in, pipeline.Project{Method: "distribution", Roles: model.Roles{QIs: []string{"age", "zip", "sex"}, SA: "disease"}})
	f := find(t, run(t, dist, &risk.Knowledge{Original: orig}), attack.Linkage)
	// Unique on (age, zip, sex): 52/300/F, 55/300/M, 58/300/F.
	if f.Records != 3 || f.Measured != 1 || f.Holds() != -1 || !strings.Contains(f.Example, "zip 300") {
		t.Errorf("distribution linkage: %d records, measured %v, holds %d, example %q; want the 3 unique people, 1, not bounded", f.Records, f.Measured, f.Holds(), f.Example)
	}
	kja := release(t, in, pipeline.Project{Method: "kja", Variant: "mondrian", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"k": "3"}})
	f = find(t, run(t, kja, &risk.Knowledge{Original: orig}), attack.Linkage)
	if f.Records != 0 || f.Bound != 1.0/3 || f.Holds() != 1 || f.Measured > 1.0/3 {
		t.Errorf("kja linkage: %d records, measured %v, bound %v, holds %d; want none re-identified, <= 1/3, holds", f.Records, f.Measured, f.Bound, f.Holds())
	}
}

// TestInference: the flu patients' class discloses their value (kja
// plain k-anonymity does not prevent homogeneity: not bounded, three
// right); lossyjoin's classes hold no value above alpha (holds, none).
func TestInference(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "people.csv", people)
	orig := load(t, in)
	kja := release(t, in, pipeline.Project{Method: "kja", Variant: "mondrian", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"k": "3"}})
	f := find(t, run(t, kja, &risk.Knowledge{Original: orig}), attack.Inference)
	if f.Records != 3 || f.Measured != 1 || f.Holds() != -1 || !strings.Contains(f.Example, "age 40") {
		t.Errorf("kja inference: %d right, measured %v, holds %d, example %q; want the 3 flu patients, 1, not bounded", f.Records, f.Measured, f.Holds(), f.Example)
	}
	// From the release alone: the records of the box that gives one value.
	f = find(t, run(t, kja, &risk.Knowledge{}), attack.Inference)
	if f.Records < 3 || f.Measured != 1 {
		t.Errorf("kja inference without the original: %d records, measured %v; want >= 3, 1", f.Records, f.Measured)
	}
	lj := release(t, in, pipeline.Project{Method: "lossyjoin", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"k": "3", "alpha": "0.5"}})
	f = find(t, run(t, lj, &risk.Knowledge{Original: orig}), attack.Inference)
	if f.Records != 0 || f.Bound != 0.5 || f.Holds() != 1 || f.Measured > 0.5 {
		t.Errorf("lossyjoin inference: %d right, measured %v, bound %v, holds %d; want 0, <= 0.5, 0.5, holds", f.Records, f.Measured, f.Bound, f.Holds())
	}
}

// TestMembership: ambiguity against a population that holds the data's
// people and others breaks alpha when some value of a group is held by
// one covered person only; against a population where every person has a
// twin (same quasi-identifiers) no one is certain and alpha holds.
func TestMembership(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "people.csv", people)
	amb := release(t, in, pipeline.Project{Method: "ambiguity", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"alpha": "0.5", "beta": "0.5"}})
	lines := strings.Split(strings.TrimSpace(people), "\n")
	others := append(append([]string(nil), lines...), "33,100,F,x", "44,200,M,x", "60,300,F,x")
	pop := load(t, writeFile(t, "pop.csv", strings.Join(others, "\n")+"\n"))
	f := find(t, run(t, amb, &risk.Knowledge{Population: pop, PopulationName: "test"}), attack.Membership)
	if f.Records == 0 || f.Measured != 1 || f.Holds() != 0 {
		t.Errorf("ambiguity membership: %d certain, measured %v, holds %d; want some certain, 1, broken", f.Records, f.Measured, f.Holds())
	}
	twins := append(append([]string(nil), lines...), lines[1:]...)
	pop = load(t, writeFile(t, "twins.csv", strings.Join(twins, "\n")+"\n"))
	f = find(t, run(t, amb, &risk.Knowledge{Population: pop, PopulationName: "twins"}), attack.Membership)
	if f.Records != 0 || f.Measured > 0.5 || f.Holds() != 1 {
		t.Errorf("ambiguity membership with twins: %d certain, measured %v, holds %d; want 0, <= 0.5, holds", f.Records, f.Measured, f.Holds())
	}
	// Without a population of its own the attack does not run.
	f = find(t, run(t, amb, &risk.Knowledge{Original: load(t, in)}), attack.Membership)
	if f.NotRun == "" || !math.IsNaN(f.Measured) {
		t.Errorf("membership without a population ran: %+v", f)
	}
}

// kjaRelease writes a one-QI kja release by hand: its jat.csv rows and
// si.csv values, with the microdata's person at age 30 also in the
// public table.
func kjaRelease(t *testing.T, jat, si string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "rel")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	man := `{"tool": "privlab", "version": "0.3.0", "method": "kja", "variant": "mondrian-direct", "parameters": {"k": "2"},
  "quasi_identifiers": ["age"], "sensitive": "disease", "dropped_columns": [], "rows_in": 1, "rows_published": 1, "rows_suppressed": 0,
  "groups": 1, "worst_cases": [], "details": {"domain": [{"qi": "age", "kind": "numeric", "low": 30, "high": 50, "values": null}], "public_rows": 1},
  "files": [{"name": "jat.csv", "rows": 2, "sha256": ""}, {"name": "si.csv", "rows": 1, "sha256": ""}], "verified": true}`
	for name, text := range map[string]string{"manifest.json": man, "jat.csv": "GroupID,SG,age_min,age_max\n" + jat, "si.csv": "SG,disease\n" + si} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLinkageCountsPeople: a box that counts the microdata's person and
// their public-table twin as two (k-join-anonymity's double count without
// an identifier, Sacharidis et al., Section 3.1) covers one person of the
// population: 1/k is broken. The box the fix makes, with another person,
// covers two: it holds.
func TestLinkageCountsPeople(t *testing.T) {
	t.Parallel()
	pop := load(t, writeFile(t, "pop.csv", "age\n30\n40\n50\n"))
	k := &risk.Knowledge{Population: pop, PopulationName: "three people"}
	f := find(t, run(t, kjaRelease(t, "1,1,30,30\n1,1,30,30\n", "1,flu\n"), k), attack.Linkage)
	if f.Measured != 1 || f.Bound != 0.5 || f.Holds() != 0 || f.Records != 2 {
		t.Errorf("double-counted box: measured %v bound %v holds %d records %d; want 1, 0.5, broken, 2", f.Measured, f.Bound, f.Holds(), f.Records)
	}
	f = find(t, run(t, kjaRelease(t, "1,1,30,40\n1,1,30,40\n", "1,flu\n"), k), attack.Linkage)
	if f.Measured != 0.5 || f.Holds() != 1 || f.Records != 0 {
		t.Errorf("box of two people: measured %v holds %d records %d; want 0.5, holds, 0", f.Measured, f.Holds(), f.Records)
	}
	// The boxes hold a public-table person: the original alone is not
	// the population an attacker holds.
	orig := load(t, writeFile(t, "mt.csv", "age,disease\n30,flu\n"))
	f = find(t, run(t, kjaRelease(t, "1,1,30,40\n1,1,30,40\n", "1,flu\n"), &risk.Knowledge{Original: orig}), attack.Linkage)
	if f.NotRun == "" {
		t.Errorf("linkage ran with the microdata alone on a release of public rows: %+v", f)
	}
}

// TestMarginalsShift: sampling's certificate holds under the marginals
// its manifest states (the table's own); under marginals that make the
// published values rarer, records go over their cap (Sattar et al.,
// Eq. 3).
func TestMarginalsShift(t *testing.T) {
	t.Parallel()
	lines := strings.SplitAfter(people, "\n")
	many := lines[0] + strings.Repeat(strings.Join(lines[1:], ""), 30)
	in := writeFile(t, "many.csv", many)
	orig := load(t, in)
	rel := release(t, in, pipeline.Project{Method: "sampling", Roles: model.Roles{QIs: []string{"age", "sex"}, SA: "disease"},
		Params: model.Values{"sampling-rate": "1", "max-distortion": "1"}})
	own := find(t, run(t, rel, &risk.Knowledge{Population: orig, PopulationName: "the table"}), "Eq. 3 under other marginals")
	if own.Records != 0 || own.Holds() != 1 {
		t.Errorf("under the table's own marginals: %d over, measured %v, holds %d; want 0, holds", own.Records, own.Measured, own.Holds())
	}
	rare := map[string]map[string]float64{"sex": {"F": 0.01, "M": 0.01}, "disease": {"cold": 0.01, "asthma": 0.01, "flu": 0.01, "hiv": 0.01, "cancer": 0.01}}
	f := find(t, run(t, rel, &risk.Knowledge{Marginals: rare, MarginalsName: "rare.csv"}), "Eq. 3 under other marginals")
	if f.Records == 0 || f.Holds() != 0 || f.Measured <= 0 {
		t.Errorf("under rare marginals: %d over, measured %v, holds %d; want some over, broken", f.Records, f.Measured, f.Holds())
	}
	none := find(t, run(t, rel, &risk.Knowledge{}), "Eq. 3 under other marginals")
	if none.NotRun == "" {
		t.Errorf("ran without marginals or population: %+v", none)
	}
}

// TestSinglingOut: distribution publishes the QIs unchanged, so a region
// covers one person where (age, zip, sex) is unique: 52/300/F, 55/300/M,
// 58/300/F. The attacker tries every predicate the release offers: 12
// values on one QI (7 ages, 3 zips, 2 sexes) and 27 conjunctions of a
// region's values (7 on age and zip, 7 on age and sex, 6 on zip and sex,
// 7 on all three). Those isolating one person: age 52, 55, 58 on each of
// age, (age, zip), (age, sex) and (age, zip, sex), 12, and zip 300 with
// sex M, 1: 13 of 39, the 3 people. A kja release of boxes of >= 3
// singles no one out: a predicate built from a box's sides matches
// every person the box covers.
func TestSinglingOut(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "people.csv", people)
	orig := load(t, in)
	dist := release(t, in, pipeline.Project{Method: "distribution", Roles: model.Roles{QIs: []string{"age", "zip", "sex"}, SA: "disease"}})
	f := find(t, run(t, dist, &risk.Knowledge{Original: orig}), attack.SinglingOut)
	if f.Trials != 39 || f.Successes != 13 || f.Measured != 1.0/3 || f.Records != 3 || f.Holds() != -1 || !math.IsNaN(f.Control) ||
		!strings.Contains(f.Example, "isolates one person of the data") {
		t.Errorf("distribution singling out: %v of %d, measured %v, %d people, holds %d, control %v, example %q; want 13 of 39, 1/3, 3, not bounded, NaN",
			f.Successes, f.Trials, f.Measured, f.Records, f.Holds(), f.Control, f.Example)
	}
	kja := release(t, in, pipeline.Project{Method: "kja", Variant: "mondrian", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"k": "3"}})
	f = find(t, run(t, kja, &risk.Knowledge{Original: orig}), attack.SinglingOut)
	if f.Trials == 0 || f.Successes != 0 || f.Records != 0 || f.Measured != 0 || f.Example != "" ||
		!strings.Contains(f.BoundBy, "no box covers fewer than 3 people, so a predicate equal to a box's full description, or to part of it, cannot single out") {
		t.Errorf("kja singling out: %v of %d, %d people, measured %v, example %q, bound by %q; want none singled out, said why", f.Successes, f.Trials, f.Records, f.Measured, f.Example, f.BoundBy)
	}
	// Without a population or the original there is no one to single out.
	f = find(t, run(t, kja, &risk.Knowledge{}), attack.SinglingOut)
	if f.NotRun == "" || !math.IsNaN(f.Measured) {
		t.Errorf("singling out without a table ran: %+v", f)
	}
}
