package lossyjoin_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/lossyjoin"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/workload"
	"privlab/datasets"
	"privlab/model"
)

var env = pipeline.Env{Datasets: datasets.Catalog{}}

// prepareJobs prepares Table 1 (the embedded jobs dataset with Figure 1's
// job hierarchy) for a variant.
func prepareJobs(t *testing.T, variant string, params model.Values) *pipeline.Prepared {
	t.Helper()
	p := pipeline.Project{Input: "dataset:jobs", Method: lossyjoin.Name, Variant: variant,
		Roles:  model.Roles{QIs: []string{"job", "birth", "postcode"}, SA: "illness"},
		Params: params}
	src, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	return prep
}

func runJobs(t *testing.T, variant string) (*pipeline.Prepared, *method.Result) {
	t.Helper()
	prep := prepareJobs(t, variant, model.Values{"k": "2", "alpha": "0.5", "seed": "5"})
	res, err := pipeline.Run(context.Background(), prep, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prep, res
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// canonical renames ClassIDs by first appearance in sorted order of the
// rows' other cells and sorts the rows, so that two tables equal up to
// ClassID renaming and row order compare equal.
func canonical(rows [][]string, idCols []int, rename map[string]string) []string {
	var out []string
	for _, r := range rows {
		c := append([]string(nil), r...)
		for _, i := range idCols {
			c[i] = rename[c[i]]
		}
		out = append(out, strings.Join(c, "|"))
	}
	sort.Strings(out)
	return out
}

// TestTables4to7 reproduces Wong et al.'s worked example: Table 1 with
// (alpha,k) = (0.5, 2) gives Table 3's QID-ECs; the Temp table (Table 4)
// assigns their ClassIDs; NSS (Table 5) and SS (Table 6) are its
// projections; their join on ClassID is Table 7's 12 rows.
func TestTables4to7(t *testing.T) {
	prep, res := runJobs(t, lossyjoin.VariantLossy)
	// Table 3: the QID-ECs with their generalizations.
	var got []string
	for _, g := range res.Groups {
		got = append(got, strings.Join(g.QI, ","))
	}
	sort.Strings(got)
	want := []string{"*,1955,5432", "blue-collar,*,4350", "white-collar,*,4350"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("QID-ECs %v, want Table 3's %v", got, want)
	}
	// Table 4: ClassIDs 1,1,2,2,3,3 over Table 1's rows (up to renaming).
	classOf := map[int32]int{}
	for gi, g := range res.Groups {
		for _, r := range g.Rows {
			classOf[r] = gi
		}
	}
	if classOf[0] != classOf[1] || classOf[2] != classOf[3] || classOf[4] != classOf[5] ||
		classOf[0] == classOf[2] || classOf[2] == classOf[4] || classOf[0] == classOf[4] {
		t.Fatalf("Temp table classes %v, want Table 4's {1,2}{3,4}{5,6}", classOf)
	}
	for _, g := range res.Groups {
		if g.Figures[lossyjoin.FigSize] != 2 || g.Figures[lossyjoin.FigFraction] != 0.5 || g.Violation {
			t.Fatalf("class %d: figures %v", g.ID, g.Figures)
		}
	}

	dir := filepath.Join(t.TempDir(), "lj")
	if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	nss := readCSV(t, filepath.Join(dir, "nss.csv"))
	ss := readCSV(t, filepath.Join(dir, "ss.csv"))
	if strings.Join(nss[0], ",") != "job,birth,postcode,ClassID" || strings.Join(ss[0], ",") != "ClassID,illness" {
		t.Fatalf("headers %v %v, want Section 5's schemas", nss[0], ss[0])
	}
	// Rename the release's ClassIDs to the paper's: the class of
	// (clerk, 1975, 4350) is 1, of (clerk, 1955, 5432) 2, the other 3.
	rename := map[string]string{}
	for _, r := range nss[1:] {
		switch r[0] + "/" + r[1] {
		case "clerk/1975":
			rename[r[3]] = "1"
		case "clerk/1955":
			rename[r[3]] = "2"
		case "technical supporter/1940":
			rename[r[3]] = "3"
		}
	}
	table5 := [][]string{
		{"clerk", "1975", "4350", "1"}, {"manager", "1955", "4350", "1"}, {"clerk", "1955", "5432", "2"},
		{"factory worker", "1955", "5432", "2"}, {"factory worker", "1975", "4350", "3"}, {"technical supporter", "1940", "4350", "3"},
	}
	table6 := [][]string{{"1", "HIV"}, {"1", "flu"}, {"2", "flu"}, {"2", "fever"}, {"3", "flu"}, {"3", "fever"}}
	id := map[string]string{"1": "1", "2": "2", "3": "3"}
	if g, w := canonical(nss[1:], []int{3}, rename), canonical(table5, []int{3}, id); !reflect.DeepEqual(g, w) {
		t.Fatalf("nss.csv\n%v\nwant Table 5\n%v", g, w)
	}
	if g, w := canonical(ss[1:], []int{0}, rename), canonical(table6, []int{0}, id); !reflect.DeepEqual(g, w) {
		t.Fatalf("ss.csv\n%v\nwant Table 6\n%v", g, w)
	}
	// Table 7: the join of NSS and SS on ClassID.
	var join [][]string
	for _, a := range nss[1:] {
		for _, b := range ss[1:] {
			if a[3] == b[0] {
				join = append(join, []string{a[0], a[1], a[2], b[1], a[3]})
			}
		}
	}
	table7 := [][]string{
		{"clerk", "1975", "4350", "HIV", "1"}, {"manager", "1955", "4350", "HIV", "1"},
		{"clerk", "1975", "4350", "flu", "1"}, {"manager", "1955", "4350", "flu", "1"},
		{"clerk", "1955", "5432", "flu", "2"}, {"factory worker", "1955", "5432", "flu", "2"},
		{"clerk", "1955", "5432", "fever", "2"}, {"factory worker", "1955", "5432", "fever", "2"},
		{"factory worker", "1975", "4350", "flu", "3"}, {"technical supporter", "1940", "4350", "flu", "3"},
		{"factory worker", "1975", "4350", "fever", "3"}, {"technical supporter", "1940", "4350", "fever", "3"},
	}
	if g, w := canonical(join, []int{4}, rename), canonical(table7, []int{4}, id); !reflect.DeepEqual(g, w) {
		t.Fatalf("join\n%v\nwant Table 7\n%v", g, w)
	}
	if len(join) != 12 {
		t.Fatalf("the join has %d rows, Table 7 has 12", len(join))
	}
	// The manifest carries Section 5's remark and the join size.
	man, err := model.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(man.Notes, " "), "corresponds to one record of the original table") {
		t.Fatalf("manifest notes lack the remark: %v", man.Notes)
	}
	// Section 4: the first individual (clerk, 1975, 4350) is linked to the
	// bag {HIV, flu}, and so is (manager, 1955, 4350).
	bag := map[string][]string{}
	for _, r := range join {
		key := r[0] + "/" + r[1]
		bag[key] = append(bag[key], r[3])
	}
	for _, who := range []string{"clerk/1975", "manager/1955"} {
		b := bag[who]
		sort.Strings(b)
		if !reflect.DeepEqual(b, []string{"HIV", "flu"}) {
			t.Fatalf("%s is linked to %v, want the bag {HIV, flu}", who, b)
		}
	}
}

// TestDetailJoinCombinations: a class's detail shows its NSS and SS rows
// and the a^2 join rows it makes.
func TestDetailJoinCombinations(t *testing.T) {
	_, res := runJobs(t, lossyjoin.VariantLossy)
	d := res.Detail(0, 10)
	text := ""
	tables := 0
	for _, s := range d.Sections {
		text += strings.Join(s.Notes, "\n")
		if strings.HasPrefix(s.Title, "nss.csv") || strings.HasPrefix(s.Title, "ss.csv") {
			tables++
			if len(s.Rows) != 2 {
				t.Fatalf("%s lists %d rows, want the class's 2", s.Title, len(s.Rows))
			}
		}
	}
	if tables != 2 || !strings.Contains(text, "4 join rows for 2 records") || !strings.Contains(text, "12 rows from 6") {
		t.Fatalf("detail:\n%+v", d)
	}
}

// TestAlphaIsTable3: variant alpha publishes Table 3 itself.
func TestAlphaIsTable3(t *testing.T) {
	prep, res := runJobs(t, lossyjoin.VariantAlpha)
	dir := filepath.Join(t.TempDir(), "alpha")
	if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	gen := readCSV(t, filepath.Join(dir, "generalized.csv"))
	table3 := [][]string{
		{"white-collar", "*", "4350", "HIV"}, {"white-collar", "*", "4350", "flu"}, {"*", "1955", "5432", "flu"},
		{"*", "1955", "5432", "fever"}, {"blue-collar", "*", "4350", "flu"}, {"blue-collar", "*", "4350", "fever"},
	}
	if g, w := canonical(gen[1:], nil, nil), canonical(table3, nil, nil); !reflect.DeepEqual(g, w) {
		t.Fatalf("generalized.csv\n%v\nwant Table 3\n%v", g, w)
	}
	dom := readCSV(t, filepath.Join(dir, "domains.csv"))
	has := map[string]bool{}
	for _, r := range dom[1:] {
		has[strings.Join(r, "|")] = true
	}
	for _, want := range []string{"job|white-collar|clerk", "job|white-collar|manager", "job|blue-collar|factory worker",
		"job|*|technical supporter", "birth|1955|1955", "birth|*|1940"} {
		if !has[want] {
			t.Errorf("domains.csv lacks %s", want)
		}
	}
}

// TestQueryExample answers COUNT(*) WHERE job = 'clerk' AND illness = 'flu'
// (truth 1): on NSS/SS each of the two classes with a clerk contributes
// 1 x 1 / 2; on Table 3 the white-collar class counts 1/2 clerk x 1 flu and
// the (*, 1955, 5432) class 1/4 x 1.
func TestQueryExample(t *testing.T) {
	q := "COUNT(*) WHERE job = 'clerk' AND illness = 'flu'"
	for variant, want := range map[string]float64{lossyjoin.VariantLossy: 1, lossyjoin.VariantAlpha: 0.75} {
		prep, res := runJobs(t, variant)
		a, err := pipeline.Answer(q, prep.Table, res.Answerer)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Answer.HasEst || a.Answer.Estimate != want || a.Truth.Value != 1 {
			t.Errorf("%s: %+v, want estimate %v (truth 1)", variant, a.Answer, want)
		}
	}
}

// TestDeterministic: partitions are specialized on all cores (from 20,000
// rows on), yet two runs give the same classes in the same order.
func TestDeterministic(t *testing.T) {
	p := pipeline.Project{Input: "dataset:census", Rows: 45222, Method: lossyjoin.Name,
		Roles:  model.Roles{QIs: []string{"age", "workclass", "education", "marital-status", "race", "sex", "native-country", "salary-class"}, SA: "occupation"},
		Params: model.Values{"k": "2", "alpha": "0.33"}}
	src, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	var first []method.Group
	for i := 0; i < 3; i++ {
		res, err := pipeline.Run(context.Background(), prep, nil)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = res.Groups
			continue
		}
		if !reflect.DeepEqual(first, res.Groups) {
			t.Fatalf("run %d differs from the first: %d vs %d classes", i, len(res.Groups), len(first))
		}
	}
}

// TestStudy: the study compares the three variants on the input and on
// census with the paper's setup; on census, as in Section 7,
// Alpha(Lossy) answers with a lower error than Anatomy and Alpha.
func TestStudy(t *testing.T) {
	prep := prepareJobs(t, "", model.Values{"k": "2", "alpha": "0.5", "seed": "1"})
	secs, err := env.RunStudy(context.Background(), prep, workload.Options{Queries: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) < 2 || len(secs[1].Rows) != 3 {
		t.Fatalf("sections %+v", secs)
	}
	errOf := map[string]float64{}
	for _, r := range secs[1].Rows {
		x, err := strconv.ParseFloat(r[4], 64)
		if err != nil {
			t.Fatalf("census row %v: %v", r, secs[1].Notes)
		}
		errOf[r[1]] = x
	}
	if !(errOf["lossy"] < errOf["anatomy"] && errOf["anatomy"] < errOf["alpha"]) {
		t.Fatalf("census errors %v: want Alpha(Lossy) < Anatomy < Alpha", errOf)
	}
}
