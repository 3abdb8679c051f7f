package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/releasedir"
)

// published is an ambiguity release read back for the tests: per group
// its values per QI (from at_<qi>.csv) and its sensitive values with
// their frequencies (st.csv).
type published struct {
	qis   []string
	sa    string
	vals  map[string][]map[string]bool // group -> per QI: values
	freq  map[string]map[string]int    // group -> sensitive value -> frequency
	order []string                     // group ids in st.csv order
}

func readPublished(t *testing.T, dir string) *published {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &published{qis: m.QIs, sa: m.SA, vals: map[string][]map[string]bool{}, freq: map[string]map[string]int{}}
	for _, rec := range verifytest.ReadCSV(t, filepath.Join(dir, "st.csv"))[1:] {
		if p.freq[rec[0]] == nil {
			p.freq[rec[0]] = map[string]int{}
			p.order = append(p.order, rec[0])
			p.vals[rec[0]] = make([]map[string]bool, len(m.QIs))
			for i := range m.QIs {
				p.vals[rec[0]][i] = map[string]bool{}
			}
		}
		n := 0
		fmt.Sscan(rec[2], &n)
		p.freq[rec[0]][rec[1]] += n
	}
	for i, q := range m.QIs {
		for _, rec := range verifytest.ReadCSV(t, filepath.Join(dir, "at_"+q+".csv"))[1:] {
			p.vals[rec[1]][i][rec[0]] = true
		}
	}
	return p
}

// covers reports whether group g covers original row r (each of its QI
// values is in the group's tables; Lemma 5.1).
func (p *published) covers(g string, orig *model.Table, r int) bool {
	for i, q := range p.qis {
		if !p.vals[g][i][orig.Column(q).Value(r)] {
			return false
		}
	}
	return true
}

// faithfulByBruteForce tries every assignment of the original rows to
// the groups (or to none): one exists where every group holds, for each
// sensitive value, exactly its frequency of rows it covers.
func (p *published) faithfulByBruteForce(orig *model.Table) bool {
	need := map[string]map[string]int{}
	for g, f := range p.freq {
		need[g] = map[string]int{}
		for s, n := range f {
			need[g][s] = n
		}
	}
	sa := orig.Column(p.sa)
	var try func(r int) bool
	try = func(r int) bool {
		if r == orig.Rows {
			for _, f := range need {
				for _, n := range f {
					if n != 0 {
						return false
					}
				}
			}
			return true
		}
		if try(r + 1) {
			return true
		}
		s := sa.Value(r)
		for _, g := range p.order {
			if need[g][s] > 0 && p.covers(g, orig, r) {
				need[g][s]--
				ok := try(r + 1)
				need[g][s]++
				if ok {
					return true
				}
			}
		}
		return false
	}
	return try(0)
}

// faithfulLine checks dir against orig without the audit record and
// returns whether the faithful line passes.
func faithfulLine(t *testing.T, dir string, orig *model.Table) (bool, *verify.Report) {
	t.Helper()
	rep, err := catalogtest.Check(dir, verify.Options{Original: orig})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range rep.Lines {
		if l.Name == "faithful" {
			return l.OK, rep
		}
	}
	t.Fatalf("no faithful line:\n%s", strings.Join(rep.Strings(), "\n"))
	return false, rep
}

// TestSwapCaughtWithoutAudit (issue 18.6): a genuine census release
// passes check --original without its audit record (maximum flows find
// an assignment), and swapping the sensitive values of two groups in
// st.csv, where the first group then lists a value none of the original
// records it covers has (counted here from the files), fails it.
func TestSwapCaughtWithoutAudit(t *testing.T) {
	dir, prep := export(t, censusProject(2000))
	bare := copyDir(t, dir)
	os.Remove(releasedir.AuditPath(bare))
	if ok, rep := faithfulLine(t, bare, prep.Source); !ok || !rep.OK() {
		t.Fatalf("a genuine release without its audit record:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	p := readPublished(t, bare)
	orig, sa := prep.Source, prep.Source.Column(p.sa)
	recs := verifytest.ReadCSV(t, filepath.Join(bare, "st.csv"))
	a, b := -1, -1
	for i := 1; i < len(recs) && a < 0; i++ {
		for j := 1; j < len(recs) && a < 0; j++ {
			ga, gb, sb := recs[i][0], recs[j][0], recs[j][1]
			if ga == gb || p.freq[ga][sb] > 0 || p.freq[gb][recs[i][1]] > 0 {
				continue
			}
			covered := 0
			for r := 0; r < orig.Rows; r++ {
				if sa.Value(r) == sb && p.covers(ga, orig, r) {
					covered++
				}
			}
			if covered == 0 {
				a, b = i, j
			}
		}
	}
	if a < 0 {
		t.Fatal("no two groups whose swap leaves a sensitive value uncovered")
	}
	recs[a][1], recs[b][1] = recs[b][1], recs[a][1]
	verifytest.WriteCSV(t, filepath.Join(bare, "st.csv"), recs)
	rehash(t, bare, nil)
	if ok, rep := faithfulLine(t, bare, prep.Source); ok {
		t.Fatalf("groups %s and %s with their sensitive values %s and %s swapped pass:\n%s",
			recs[a][0], recs[b][0], recs[b][1], recs[a][1], strings.Join(rep.Strings(), "\n"))
	}
}

// TestFlowAgainstBruteForce: on the patients release tampered at random
// (sensitive values of st.csv replaced or moved between groups, values of
// the auxiliary tables replaced), the flow's verdict without the audit
// record is the brute force's: a faithful assignment exists or not.
func TestFlowAgainstBruteForce(t *testing.T) {
	dir, prep := export(t, patientsProject())
	rng := model.NewRand(5)
	files := []string{"st.csv", "at_age.csv", "at_gender.csv", "at_zipcode.csv"}
	verdicts := map[bool]int{}
	for trial := 0; trial < 60; trial++ {
		bad := copyDir(t, dir)
		os.Remove(releasedir.AuditPath(bad))
		for e := 0; e < 1+rng.Intn(2); e++ {
			f := files[rng.Intn(len(files))]
			recs := verifytest.ReadCSV(t, filepath.Join(bad, f))
			col := 0
			if f == "st.csv" {
				col = 1
			}
			i, j := 1+rng.Intn(len(recs)-1), 1+rng.Intn(len(recs)-1)
			recs[i][col] = recs[j][col]
			verifytest.WriteCSV(t, filepath.Join(bad, f), recs)
		}
		rehash(t, bad, nil)
		rep, err := catalogtest.Check(bad, verify.Options{Original: prep.Source})
		if err != nil {
			continue // an edit the reader refuses (a duplicate row)
		}
		got := true
		for _, l := range rep.Lines {
			if l.Name == "faithful" {
				got = l.OK
			}
		}
		if !lineRan(rep, "faithful") {
			continue // stopped before the flows (a structural failure)
		}
		want := readPublished(t, bad).faithfulByBruteForce(prep.Source)
		if got != want {
			t.Fatalf("trial %d: the flow says %v, the brute force %v:\n%s", trial, got, want, strings.Join(rep.Strings(), "\n"))
		}
		verdicts[want]++
	}
	if verdicts[true] < 5 || verdicts[false] < 5 {
		t.Fatalf("too few of each verdict: %v", verdicts)
	}
}

func lineRan(rep *verify.Report, name string) bool {
	for _, l := range rep.Lines {
		if l.Name == name {
			return true
		}
	}
	return false
}

// BenchmarkCheckOriginal times check --original on census releases of
// 100,000 and 1,000,000 rows, with the audit record and without it (the
// flows of membersByFlow). The release is made outside the timer.
func BenchmarkCheckOriginal(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		dir, prep := export(b, censusProject(n))
		a, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
		if err != nil {
			b.Fatal(err)
		}
		for _, audit := range []*releasedir.Audit{a, nil} {
			b.Run(fmt.Sprintf("rows=%d/audit=%v", n, audit != nil), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					rep, err := catalogtest.Check(dir, verify.Options{Original: prep.Source, Audit: audit})
					if err != nil || !rep.OK() {
						b.Fatalf("%v\n%s", err, strings.Join(rep.Strings(), "\n"))
					}
				}
			})
		}
	}
}
