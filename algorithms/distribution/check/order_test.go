package check_test

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

// TestSAInputOrder: sa.csv rewritten in the input's order, each person's
// subdomain at their input row (a faithful generalization: Definition
// 3.1 still holds), gives whoever knows that order each person's
// subdomain rather than the target (Section 2's permutation undone).
// The audit record pins qi.csv only; each sa.csv row's key, its group's
// mean input row over the members its subdomain covers, follows the
// file's order far beyond a shuffle, and the check fails with the audit
// record and without it. The genuine release passes.
func TestSAInputOrder(t *testing.T) {
	dir := t.TempDir()
	env := pipeline.Env{Datasets: datasets.Catalog{}}
	out, prep := exportWith(t, env, dir, env.WithDefaults(pipeline.Project{Input: "dataset:census", Rows: 2000, Method: "distribution",
		Roles:  model.Roles{QIs: []string{"age", "sex", "race"}, SA: "capital-loss"},
		Params: model.Values{"seed": "4"}}))
	orig := prep.Source
	if rep := check(t, out, orig); !rep.OK() {
		t.Fatalf("the genuine release:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	a, err := releasedir.ReadAudit(releasedir.AuditPath(out))
	if err != nil {
		t.Fatal(err)
	}
	qi := verifytest.ReadCSV(t, filepath.Join(out, "qi.csv"))[1:]
	sa := verifytest.ReadCSV(t, filepath.Join(out, "sa.csv"))
	pool := map[string][][]string{} // each group's subdomains, narrowest first
	for _, row := range sa[1:] {
		pool[row[0]] = append(pool[row[0]], row)
	}
	width := func(r []string) float64 {
		lo, _ := strconv.ParseFloat(r[1], 64)
		hi, _ := strconv.ParseFloat(r[2], 64)
		return hi - lo
	}
	for _, rows := range pool {
		sort.SliceStable(rows, func(i, j int) bool { return width(rows[i]) < width(rows[j]) })
	}
	rowOf := a.RowMap["qi.csv"]
	order := make([]int, len(qi))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return rowOf[order[i]] < rowOf[order[j]] })
	value := orig.Column("capital-loss")
	ordered := [][]string{sa[0]}
	for _, i := range order {
		v, g := value.Num(rowOf[i]), qi[i][0]
		pick := len(pool[g]) - 1
		for k, r := range pool[g] {
			lo, _ := strconv.ParseFloat(r[1], 64)
			if hi, _ := strconv.ParseFloat(r[2], 64); lo <= v && v <= hi {
				pick = k
				break
			}
		}
		ordered = append(ordered, pool[g][pick])
		pool[g] = append(pool[g][:pick], pool[g][pick+1:]...)
	}
	for _, rows := range pool {
		ordered = append(ordered, rows...) // fake values, if any
	}
	verifytest.WriteCSV(t, filepath.Join(out, "sa.csv"), ordered)
	verifytest.Restate(t, out, nil)
	for _, audit := range []*releasedir.Audit{a, nil} {
		rep, err := catalogtest.Check(out, verify.Options{Original: orig, Audit: audit})
		if err != nil {
			t.Fatal(err)
		}
		if text := strings.Join(rep.Strings(), "\n"); !strings.Contains(text, "FAIL shuffled: sa.csv rows are close to the input's order") {
			t.Fatalf("audit %v: sa.csv in the input's order passes:\n%s", audit != nil, text)
		}
	}
}
