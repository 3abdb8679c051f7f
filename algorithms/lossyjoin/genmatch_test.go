package lossyjoin_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/lossyjoin"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// TestGeneralizedWithoutAudit: variant alpha's generalized.csv is held
// to the original without the audit record by a maximum flow over
// combinations. On 20,000 census rows (5,000-odd published and 15,000
// original combinations) the old pairwise matching gave up
// ("undetermined", exit 1) on a genuine release; it passes now, and a
// swap of two rows' sensitive values where Hall's condition then fails
// (counted here from domains.csv) fails the generalization line.
func TestGeneralizedWithoutAudit(t *testing.T) {
	p := pipeline.Project{Input: "dataset:census", Rows: 20000, Method: lossyjoin.Name, Variant: lossyjoin.VariantAlpha,
		Roles: model.Roles{QIs: []string{"age", "workclass", "education", "marital-status", "race", "sex", "native-country", "salary-class"},
			SA: "occupation"},
		Params: model.Values{"k": "2", "alpha": "0.33", "seed": "9"}}
	src, err := env.LoadTable(env.WithDefaults(p))
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
	if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Remove(releasedir.AuditPath(dir))
	check := func() *verify.Report {
		rep, err := catalogtest.Check(dir, verify.Options{Original: prep.Source})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := check(); !rep.OK() {
		t.Fatalf("a genuine release without its audit record:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	gen := readRecs(t, filepath.Join(dir, "generalized.csv"))
	sets := map[string]map[string]bool{} // attribute \x00 label -> values
	for _, rec := range readRecs(t, filepath.Join(dir, "domains.csv"))[1:] {
		k := rec[0] + "\x00" + rec[1]
		if sets[k] == nil {
			sets[k] = map[string]bool{}
		}
		sets[k][rec[2]] = true
	}
	d := len(p.Roles.QIs)
	covered := func(labels []string, s string) int {
		n := 0
		for r := 0; r < prep.Source.Rows; r++ {
			ok := prep.Source.Column(p.Roles.SA).Value(r) == s
			for q := 0; ok && q < d; q++ {
				ok = sets[p.Roles.QIs[q]+"\x00"+labels[q]][prep.Source.Column(p.Roles.QIs[q]).Value(r)]
			}
			if ok {
				n++
			}
		}
		return n
	}
	count := map[string]int{}
	for _, rec := range gen[1:] {
		count[strings.Join(rec, "\x00")]++
	}
	for i := 1; i < 100; i++ {
		for j := i + 1; j < 100; j++ {
			li, si, sj := strings.Join(gen[i][:d], "\x00"), gen[i][d], gen[j][d]
			if si == sj || li == strings.Join(gen[j][:d], "\x00") || count[li+"\x00"+sj]+1 <= covered(gen[i][:d], sj) {
				continue
			}
			gen[i][d], gen[j][d] = sj, si
			writeCSV(t, filepath.Join(dir, "generalized.csv"), gen)
			editManifest(t, dir, nil)
			if rep := check(); !lineFails(rep, "generalization") {
				t.Fatalf("rows %d and %d with their sensitive values swapped pass:\n%s", i, j, strings.Join(rep.Strings(), "\n"))
			}
			return
		}
	}
	t.Fatal("no swap of two rows' sensitive values breaks Hall's condition")
}

func readRecs(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := csvfile.Load(strings.NewReader(string(b)), csvfile.LoadOptions{Name: path, MissingTokens: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	recs := [][]string{tb.Names()}
	for r := 0; r < tb.Rows; r++ {
		rec := make([]string, len(tb.Columns))
		for c, col := range tb.Columns {
			rec[c] = col.Value(r)
		}
		recs = append(recs, rec)
	}
	return recs
}
