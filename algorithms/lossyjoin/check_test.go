package lossyjoin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/lossyjoin"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// exportCensus exports a release of 400 census rows with the paper's
// roles.
func exportCensus(t *testing.T, variant string) (*pipeline.Prepared, string) {
	prep, _, dir := exportCensusRun(t, variant)
	return prep, dir
}

func exportCensusRun(t *testing.T, variant string) (*pipeline.Prepared, *method.Result, string) {
	t.Helper()
	p := pipeline.Project{Input: "dataset:census", Rows: 400, Method: lossyjoin.Name, Variant: variant,
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
	return prep, res, dir
}

// TestAnswersFromFiles: every variant answers the same from the run and
// from its exported files (numeric ranges, IN lists, != and conditions
// on the sensitive attribute), and refuses what it cannot answer.
func TestAnswersFromFiles(t *testing.T) {
	queries := []string{
		"COUNT(*)",
		"COUNT(*) WHERE age BETWEEN 30 AND 44 AND sex = 'Female' AND occupation IN ('Sales', 'Craft-repair', 'Exec-managerial')",
		"COUNT(*) WHERE education IN ('Bachelors', 'HS-grad') AND native-country != 'United-States'",
		"COUNT(*) WHERE workclass = 'Private' AND age >= 50 AND occupation = 'Prof-specialty'",
		"COUNT(*) WHERE occupation = 'Adm-clerical'",
	}
	for _, v := range []string{lossyjoin.VariantLossy, lossyjoin.VariantAlpha, lossyjoin.VariantAnatomy} {
		prep, res, dir := exportCensusRun(t, v)
		a, _, err := pipeline.OpenRelease(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			live, err1 := pipeline.Answer(q, prep.Table, res.Answerer)
			files, err2 := pipeline.Answer(q, prep.Table, a)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s %s: %v %v", v, q, err1, err2)
			}
			if d := live.Answer.Estimate - files.Answer.Estimate; d > 1e-9 || d < -1e-9 || live.Answer.Empty != files.Answer.Empty {
				t.Fatalf("%s %s: run %+v, files %+v", v, q, live.Answer, files.Answer)
			}
			if q == "COUNT(*)" && live.Answer.Estimate != 400 {
				t.Fatalf("%s: COUNT(*) = %v, want 400", v, live.Answer.Estimate)
			}
		}
		if _, err := res.Answerer.Answer(mustQuery(t, "MAX(occupation)")); err == nil {
			t.Fatalf("%s: MAX is answered", v)
		}
		if _, err := res.Answerer.Answer(mustQuery(t, "COUNT(*) WHERE relationship = 'Husband'")); err == nil {
			t.Fatalf("%s: a condition on an unpublished column is answered", v)
		}
	}
}

func mustQuery(t *testing.T, s string) *query.Query {
	q, err := query.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func check(t *testing.T, dir string, prep *pipeline.Prepared, original bool) (*verify.Report, error) {
	t.Helper()
	opt := verify.Options{}
	if original {
		opt.Original = prep.Source
		if a, err := releasedir.ReadAudit(releasedir.AuditPath(dir)); err == nil {
			opt.Audit = a
		}
	}
	return catalogtest.Check(dir, opt)
}

func copyRelease(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	es, _ := os.ReadDir(src)
	for _, e := range es {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
	}
	if b, err := os.ReadFile(releasedir.AuditPath(src)); err == nil {
		os.WriteFile(releasedir.AuditPath(dst), b, 0o600)
	}
	return dst
}

func writeCSV(t *testing.T, path string, recs [][]string) {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		for i, c := range r {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"\n") {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editManifest applies f to the manifest as JSON, then re-computes every
// file's hash so the edit is judged on its content.
func editManifest(t *testing.T, dir string, f func(m map[string]any)) {
	t.Helper()
	verifytest.Restate(t, dir, f)
}

// firstDiffering finds rows i, j (data rows, 1-based in recs) whose
// column c differs and whose column d differs too (d < 0: any).
func firstDiffering(recs [][]string, c, d int) (int, int) {
	for i := 1; i < len(recs); i++ {
		for j := i + 1; j < len(recs); j++ {
			if recs[i][c] != recs[j][c] && (d < 0 || recs[i][d] != recs[j][d]) {
				return i, j
			}
		}
	}
	return -1, -1
}

type edit struct {
	name string
	file string // "" edits the manifest only
	do   func(recs [][]string) [][]string
	man  func(m map[string]any)
	// original: the edit is only detectable with the original table.
	original bool
}

func details(m map[string]any) map[string]any { return m["details"].(map[string]any) }

func incr(m map[string]any, key string) { m[key] = m[key].(float64) + 1 }

var joinEdits = []edit{
	{name: "nss QI cell", file: "nss.csv", original: true, do: func(r [][]string) [][]string {
		i, j := firstDiffering(r, 0, -1)
		r[i][0] = r[j][0]
		return r
	}},
	{name: "nss ClassID", file: "nss.csv", do: func(r [][]string) [][]string {
		c := len(r[0]) - 1
		i, j := firstDiffering(r, c, -1)
		r[i][c] = r[j][c]
		return r
	}},
	{name: "nss ClassIDs swapped between records of different values", file: "nss.csv", original: true, do: nil},
	{name: "nss row deleted", file: "nss.csv", do: func(r [][]string) [][]string { return append(r[:1], r[2:]...) }},
	{name: "nss row duplicated", file: "nss.csv", do: func(r [][]string) [][]string { return append(r, r[1]) }},
	{name: "nss header renamed", file: "nss.csv", do: func(r [][]string) [][]string { r[0][0] = "Age"; return r }},
	{name: "ss sensitive cell", file: "ss.csv", original: true, do: func(r [][]string) [][]string {
		i, j := firstDiffering(r, 1, -1)
		r[i][1] = r[j][1]
		return r
	}},
	{name: "ss values swapped across classes", file: "ss.csv", original: true, do: func(r [][]string) [][]string {
		i, j := firstDiffering(r, 1, 0)
		r[i][1], r[j][1] = r[j][1], r[i][1]
		return r
	}},
	{name: "ss ClassID", file: "ss.csv", do: func(r [][]string) [][]string {
		i, j := firstDiffering(r, 0, -1)
		r[i][0] = r[j][0]
		return r
	}},
	{name: "ss header renamed", file: "ss.csv", do: func(r [][]string) [][]string { r[0][1] = "job"; return r }},
	{name: "parameter k", man: func(m map[string]any) { m["parameters"].(map[string]any)["k"] = "3" }},
	{name: "parameter k huge", man: func(m map[string]any) {
		m["parameters"].(map[string]any)["k"] = "400"
		for _, w := range m["worst_cases"].([]any) {
			if w.(map[string]any)["name"] == "smallest class" {
				w.(map[string]any)["limit"] = "400"
			}
		}
	}},
	{name: "parameter alpha", man: func(m map[string]any) { m["parameters"].(map[string]any)["alpha"] = "0.2" }},
	{name: "parameter alpha out of range", man: func(m map[string]any) { m["parameters"].(map[string]any)["alpha"] = "1.5" }},
	{name: "groups", man: func(m map[string]any) { incr(m, "groups") }},
	{name: "rows_published", man: func(m map[string]any) { incr(m, "rows_published") }},
	{name: "rows_in", original: true, man: func(m map[string]any) { incr(m, "rows_in") }},
	{name: "worst case value", man: func(m map[string]any) {
		w := m["worst_cases"].([]any)[0].(map[string]any)
		w["value"] = w["value"].(float64) + 1
	}},
	{name: "worst case ok flag", man: func(m map[string]any) {
		w := m["worst_cases"].([]any)[1].(map[string]any)
		w["ok"] = !w["ok"].(bool)
	}},
	{name: "utility value", man: func(m map[string]any) {
		u := m["utility"].([]any)[0].(map[string]any)
		u["value"] = u["value"].(float64) * 1.1
	}},
	{name: "file rows", man: func(m map[string]any) {
		f := m["files"].([]any)[0].(map[string]any)
		f["rows"] = f["rows"].(float64) + 1
	}},
	{name: "details.classes", man: func(m map[string]any) { incr(details(m), "classes") }},
	{name: "details.join_rows", man: func(m map[string]any) { incr(details(m), "join_rows") }},
	{name: "details.group_figures mean", man: func(m map[string]any) {
		g := details(m)["group_figures"].([]any)[1].(map[string]any)
		g["mean"] = g["mean"].(float64) + 0.01
	}},
	{name: "details.group_figures name", man: func(m map[string]any) {
		details(m)["group_figures"].([]any)[0].(map[string]any)["figure"] = "breach"
	}},
	{name: "details remark removed", man: func(m map[string]any) { delete(details(m), "remark") }},
	{name: "details unknown field", man: func(m map[string]any) { details(m)["safe"] = true }},
	{name: "quasi-identifier renamed", man: func(m map[string]any) { m["quasi_identifiers"].([]any)[0] = "Age" }},
	{name: "sensitive renamed", man: func(m map[string]any) { m["sensitive"] = "job" }},
	{name: "variant", man: func(m map[string]any) { m["variant"] = "alpha" }},
	{name: "variant unknown", man: func(m map[string]any) { m["variant"] = "mondrian" }},
}

var genEdits = []edit{
	{name: "generalized label cell", file: "generalized.csv", do: func(r [][]string) [][]string {
		i, j := firstDiffering(r, 0, -1)
		r[i][0] = r[j][0]
		return r
	}},
	{name: "generalized sensitive cell", file: "generalized.csv", original: true, do: func(r [][]string) [][]string {
		c := len(r[0]) - 1
		i, j := firstDiffering(r, c, -1)
		r[i][c] = r[j][c]
		return r
	}},
	{name: "generalized label not in domains", file: "generalized.csv", do: func(r [][]string) [][]string { r[1][1] = "Nowhere"; return r }},
	{name: "generalized row deleted", file: "generalized.csv", do: func(r [][]string) [][]string { return append(r[:1], r[2:]...) }},
	{name: "domains value", file: "domains.csv", do: func(r [][]string) [][]string {
		// A value of a label replaced by one of another label of the same attribute.
		for i := 1; i < len(r); i++ {
			for j := 1; j < len(r); j++ {
				if r[i][0] == r[j][0] && r[i][1] != r[j][1] && r[i][2] != r[j][2] {
					r[i][2] = r[j][2]
					return r
				}
			}
		}
		return r
	}},
	{name: "domains row deleted", file: "domains.csv", do: func(r [][]string) [][]string { return append(r[:1], r[2:]...) }},
	{name: "domains label renamed", file: "domains.csv", do: func(r [][]string) [][]string {
		l := r[1][1]
		for i := 1; i < len(r); i++ {
			if r[i][1] == l && r[i][0] == r[1][0] {
				r[i][1] = l + "x"
			}
		}
		return r
	}},
	{name: "details.domain_entries", man: func(m map[string]any) { incr(details(m), "domain_entries") }},
	{name: "NCP", man: func(m map[string]any) {
		u := m["utility"].([]any)[0].(map[string]any)
		u["value"] = u["value"].(float64) + 0.01
	}},
	{name: "worst case value", man: func(m map[string]any) {
		w := m["worst_cases"].([]any)[1].(map[string]any)
		w["value"] = w["value"].(float64) / 2
	}},
	{name: "variant", man: func(m map[string]any) { m["variant"] = "lossy" }},
}

// TestTamper edits every file and every class of manifest field: check
// must fail with the original (and without it unless the edit needs the
// original to be seen), with re-computed hashes.
func TestTamper(t *testing.T) {
	for _, c := range []struct {
		variant string
		edits   []edit
	}{{lossyjoin.VariantLossy, joinEdits}, {lossyjoin.VariantAnatomy, joinEdits[:6]}, {lossyjoin.VariantAlpha, genEdits}} {
		prep, dir := exportCensus(t, c.variant)
		if rep, err := check(t, dir, prep, true); err != nil || !rep.OK() {
			t.Fatalf("%s: the untouched release fails: %v\n%s", c.variant, err, strings.Join(rep.Strings(), "\n"))
		}
		if rep, err := check(t, dir, prep, false); err != nil || !rep.OK() {
			t.Fatalf("%s: the untouched release fails without the original: %v\n%s", c.variant, err, strings.Join(rep.Strings(), "\n"))
		}
		for _, e := range c.edits {
			t.Run(c.variant+"/"+e.name, func(t *testing.T) {
				bad := copyRelease(t, dir)
				if e.file != "" {
					path := filepath.Join(bad, e.file)
					recs := readCSV(t, path)
					if e.do == nil {
						recs = swapClassIDs(t, recs, readCSV(t, filepath.Join(bad, "ss.csv")), releasedir.ReadAudit, bad)
					} else {
						recs = e.do(recs)
					}
					writeCSV(t, path, recs)
				}
				editManifest(t, bad, e.man)
				for _, orig := range []bool{true, false} {
					if !orig && e.original {
						continue
					}
					rep, err := check(t, bad, prep, orig)
					if err == nil && rep.OK() {
						t.Fatalf("check (original %v) passes a release with %s:\n%s", orig, e.name, strings.Join(rep.Strings(), "\n"))
					}
				}
				if e.original {
					rep, err := catalogtest.Check(bad, verify.Options{Original: prep.Source})
					if err == nil && rep.OK() {
						t.Errorf("check (original, no audit) passes a release with %s:\n%s", e.name, strings.Join(rep.Strings(), "\n"))
					}
				}
			})
		}
	}
}

// swapClassIDs swaps the ClassIDs of two nss.csv records of different
// classes whose sensitive values differ (by the audit record).
func swapClassIDs(t *testing.T, nss, ss [][]string, read func(string) (*releasedir.Audit, error), dir string) [][]string {
	a, err := read(releasedir.AuditPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	saOf := map[int]string{}
	for i, in := range a.RowMap["ss.csv"] {
		saOf[in] = ss[i+1][1]
	}
	rows := a.RowMap["nss.csv"]
	c := len(nss[0]) - 1
	for i := 1; i < len(nss); i++ {
		for j := i + 1; j < len(nss); j++ {
			if nss[i][c] != nss[j][c] && saOf[rows[i-1]] != saOf[rows[j-1]] {
				nss[i][c], nss[j][c] = nss[j][c], nss[i][c]
				return nss
			}
		}
	}
	t.Fatal("no records to swap")
	return nil
}

// TestPositionLink: ss.csv rewritten in nss.csv's record order (each
// position pairs a record's QIs with its own sensitive value) fails the
// check even though both files are shuffled relative to the input.
func TestPositionLink(t *testing.T) {
	prep, dir := exportCensus(t, lossyjoin.VariantLossy)
	bad := copyRelease(t, dir)
	a, err := releasedir.ReadAudit(releasedir.AuditPath(bad))
	if err != nil {
		t.Fatal(err)
	}
	ss := readCSV(t, filepath.Join(bad, "ss.csv"))
	at := map[int][]string{}
	for i, in := range a.RowMap["ss.csv"] {
		at[in] = ss[i+1]
	}
	out := [][]string{ss[0]}
	for _, in := range a.RowMap["nss.csv"] {
		out = append(out, at[in])
	}
	writeCSV(t, filepath.Join(bad, "ss.csv"), out)
	a.RowMap["ss.csv"] = append([]int(nil), a.RowMap["nss.csv"]...)
	b, _ := json.Marshal(a)
	os.WriteFile(releasedir.AuditPath(bad), b, 0o600)
	editManifest(t, bad, nil)
	rep, err := check(t, bad, prep, true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() || !strings.Contains(strings.Join(rep.Strings(), "\n"), "FAIL position link") {
		t.Fatalf("a position-linked release passes:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	// Without the original the files alone show it: their classes agree
	// row by row far beyond independent shuffles (row pairing).
	if rep, err := check(t, bad, prep, false); err != nil || rep.OK() || !strings.Contains(strings.Join(rep.Strings(), "\n"), "FAIL row pairing") {
		t.Fatalf("without the original: %v\n%s", err, strings.Join(rep.Strings(), "\n"))
	}
	// With the original but without the audit record's row map of ss.csv,
	// or without the audit record at all, the positions are tested
	// against independent shuffles: every pinned position matching is a
	// link.
	noSS := *a
	noSS.RowMap = map[string][]int{"nss.csv": a.RowMap["nss.csv"]}
	for _, c := range []struct {
		name  string
		audit *releasedir.Audit
	}{{"audit without ss.csv", &noSS}, {"no audit", nil}} {
		rep, err := catalogtest.Check(bad, verify.Options{Original: prep.Source, Audit: c.audit})
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(rep.Strings(), "\n")
		if rep.OK() || !strings.Contains(text, "FAIL position link") {
			t.Fatalf("%s: a position-linked release passes:\n%s", c.name, text)
		}
		// Every pinned position matches: "at N of the N positions".
		for _, l := range rep.Lines {
			var got, of int
			if l.Name == "position link" {
				if _, err := fmt.Sscanf(l.Text[strings.Index(l.Text, " at ")+4:], "%d of the %d", &got, &of); err != nil || got != of || got < 10 {
					t.Fatalf("%s: %s", c.name, l)
				}
			}
		}
		// The genuine release passes the same test (its nss.csv is the
		// forged one's).
		rep, err = catalogtest.Check(dir, verify.Options{Original: prep.Source, Audit: c.audit})
		if err != nil || !rep.OK() || !strings.Contains(strings.Join(rep.Strings(), "\n"), "ok   position link") {
			t.Fatalf("%s: the genuine release: %v\n%s", c.name, err, strings.Join(rep.Strings(), "\n"))
		}
	}
}

// TestCheckWithoutAudit: with the original but no audit record every
// variant's genuine release passes: nss.csv and ss.csv are held to the
// original by the assignment flows (local recoding puts identical QI
// tuples in several classes, so the files cannot pin every record) and
// the generalized table by a maximum matching.
func TestCheckWithoutAudit(t *testing.T) {
	for _, v := range []string{lossyjoin.VariantLossy, lossyjoin.VariantAnatomy, lossyjoin.VariantAlpha} {
		prep, dir := exportCensus(t, v)
		os.Remove(releasedir.AuditPath(dir))
		rep, err := catalogtest.Check(dir, verify.Options{Original: prep.Source})
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(rep.Strings(), "\n")
		if !rep.OK() {
			t.Fatalf("%s without audit:\n%s", v, text)
		}
		if v != lossyjoin.VariantAlpha && (!strings.Contains(text, "ok   classes faithful: consistent") || !strings.Contains(text, "ok   position link")) {
			t.Fatalf("%s without audit: no assignment or position line:\n%s", v, text)
		}
	}
}

// TestRandomReleases: on random tables every release preserves the QI
// multiset (nss.csv) and the SA multiset (ss.csv), every class of ss.csv
// holds its nss.csv records' values, (alpha,k) holds from the files, and
// the independent checker accepts it; the exported files answer queries
// exactly as the run.
func TestRandomReleases(t *testing.T) {
	rng := model.NewRand(3)
	for trial := 0; trial < 12; trial++ {
		var b strings.Builder
		b.WriteString("age,city,sex,disease\n")
		n := 20 + rng.Intn(150)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%d,c%d,%s,d%d\n", 20+rng.Intn(40), rng.Intn(9), []string{"F", "M"}[rng.Intn(2)], rng.Intn(4+rng.Intn(3)))
		}
		path := filepath.Join(t.TempDir(), "t.csv")
		os.WriteFile(path, []byte(b.String()), 0o644)
		k := 2 + rng.Intn(3)
		for _, variant := range []string{lossyjoin.VariantLossy, lossyjoin.VariantAnatomy} {
			p := pipeline.Project{Input: path, Method: lossyjoin.Name, Variant: variant,
				Roles:       model.Roles{QIs: []string{"age", "city", "sex"}, SA: "disease"},
				Hierarchies: map[string]string{"age": "intervals:5,10,20", "city": "binary"},
				Params:      model.Values{"k": strconv.Itoa(k), "alpha": "0.5", "seed": strconv.Itoa(trial)}}
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
				continue // infeasible draw
			}
			dir := filepath.Join(t.TempDir(), "rel")
			if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{}); err != nil {
				t.Fatalf("trial %d %s: %v", trial, variant, err)
			}
			nss := readCSV(t, filepath.Join(dir, "nss.csv"))
			ss := readCSV(t, filepath.Join(dir, "ss.csv"))
			orig := readCSV(t, path)
			var qi, sa, pub, pubSA []string
			for _, r := range orig[1:] {
				qi = append(qi, strings.Join(r[:3], "|"))
				sa = append(sa, r[3])
			}
			size, cnt := map[string]int{}, map[string]map[string]int{}
			for _, r := range nss[1:] {
				pub = append(pub, strings.Join(r[:3], "|"))
				size[r[3]]++
			}
			for _, r := range ss[1:] {
				pubSA = append(pubSA, r[1])
				if cnt[r[0]] == nil {
					cnt[r[0]] = map[string]int{}
				}
				cnt[r[0]][r[1]]++
			}
			for _, l := range [][]string{qi, sa, pub, pubSA} {
				sort.Strings(l)
			}
			if !reflect.DeepEqual(qi, pub) || !reflect.DeepEqual(sa, pubSA) {
				t.Fatalf("trial %d %s: multisets differ", trial, variant)
			}
			for id, s := range size {
				if s < k {
					t.Fatalf("trial %d %s: class %s has %d < k rows", trial, variant, id, s)
				}
				for v, c := range cnt[id] {
					if 2*c > s {
						t.Fatalf("trial %d %s: class %s: %s is %d of %d", trial, variant, id, v, c, s)
					}
				}
			}
			rep, err := check(t, dir, prep, true)
			if err != nil || !rep.OK() {
				t.Fatalf("trial %d %s: %v\n%s", trial, variant, err, strings.Join(rep.Strings(), "\n"))
			}
			a, _, err := pipeline.OpenRelease(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"COUNT(*) WHERE city IN ('c1', 'c4') AND disease = 'd1'", "COUNT(*) WHERE age BETWEEN 30 AND 45 AND sex = 'M'"} {
				live, err1 := pipeline.Answer(q, prep.Table, res.Answerer)
				files, err2 := pipeline.Answer(q, prep.Table, a)
				if err1 != nil || err2 != nil || live.Answer.Estimate-files.Answer.Estimate > 1e-9 || files.Answer.Estimate-live.Answer.Estimate > 1e-9 {
					t.Fatalf("trial %d %s %s: run %+v, files %+v (%v %v)", trial, variant, q, live.Answer, files.Answer, err1, err2)
				}
			}
		}
	}
}

// TestShuffleRedrawnWhenOrderLinks: a table of one class of ten records,
// nine of one sensitive value, has a one-in-ten chance that independent
// shuffles put every record's own value at its nss.csv position, which
// the check without the audit record's ss.csv row map rightly calls a
// link; the generator draws ss.csv again then, so every seed's release
// passes.
func TestShuffleRedrawnWhenOrderLinks(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("age,zip,disease\n")
	for i := 0; i < 10; i++ {
		d := "flu"
		if i == 3 {
			d = "hiv"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", 30+i, 1000+i, d)
	}
	path := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(path, []byte(b.String()), 0o644)
	for seed := 1; seed <= 40; seed++ {
		p := pipeline.Project{Input: path, Method: lossyjoin.Name,
			Roles:  model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
			Params: model.Values{"k": "10", "alpha": "0.9", "seed": strconv.Itoa(seed)}}
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
		if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		a, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
		if err != nil {
			t.Fatal(err)
		}
		a.RowMap = map[string][]int{"nss.csv": a.RowMap["nss.csv"]}
		for _, audit := range []*releasedir.Audit{a, nil} {
			rep, err := catalogtest.Check(dir, verify.Options{Original: prep.Source, Audit: audit})
			if err != nil || !rep.OK() {
				t.Fatalf("seed %d (audit %v): %v\n%s", seed, audit != nil, err, strings.Join(rep.Strings(), "\n"))
			}
		}
	}
}

// TestNearInputOrder: nss.csv rewritten in the input's order but for
// three pairs of rows swapped links each row to its input record as a
// sorted file does (SPEC 7.3), and fails the shuffle test, with the audit
// record (its row map rewritten to match) and without it.
func TestNearInputOrder(t *testing.T) {
	prep, dir := exportCensus(t, lossyjoin.VariantLossy)
	bad := copyRelease(t, dir)
	a, err := releasedir.ReadAudit(releasedir.AuditPath(bad))
	if err != nil {
		t.Fatal(err)
	}
	nss := readCSV(t, filepath.Join(bad, "nss.csv"))
	rowOf := a.RowMap["nss.csv"]
	order := make([]int, len(rowOf))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return rowOf[order[i]] < rowOf[order[j]] })
	for _, s := range [][2]int{{5, 300}, {17, 18}, {120, 250}} {
		order[s[0]], order[s[1]] = order[s[1]], order[s[0]]
	}
	out, rows := [][]string{nss[0]}, make([]int, 0, len(order))
	for _, i := range order {
		out = append(out, nss[i+1])
		rows = append(rows, rowOf[i])
	}
	writeCSV(t, filepath.Join(bad, "nss.csv"), out)
	a.RowMap["nss.csv"] = rows
	b, _ := json.Marshal(a)
	os.WriteFile(releasedir.AuditPath(bad), b, 0o600)
	editManifest(t, bad, nil)
	for _, audit := range []*releasedir.Audit{a, nil} {
		rep, err := catalogtest.Check(bad, verify.Options{Original: prep.Source, Audit: audit})
		if err != nil {
			t.Fatal(err)
		}
		if text := strings.Join(rep.Strings(), "\n"); !strings.Contains(text, "FAIL shuffled: nss.csv rows are close to the input's order") {
			t.Fatalf("audit %v: nss.csv in the input's order but for three swaps passes:\n%s", audit != nil, text)
		}
	}
}

// TestSSInputOrderWithoutAudit: ss.csv rewritten in the input's order
// gives whoever knows that order each record's sensitive value (SPEC
// 7.3); without the audit record its rows are not pinned, but each row's
// key, its class and value's mean input row, follows the file's order
// far beyond a shuffle, and the check fails.
func TestSSInputOrderWithoutAudit(t *testing.T) {
	prep, dir := exportCensus(t, lossyjoin.VariantLossy)
	bad := copyRelease(t, dir)
	a, err := releasedir.ReadAudit(releasedir.AuditPath(bad))
	if err != nil {
		t.Fatal(err)
	}
	ss := readCSV(t, filepath.Join(bad, "ss.csv"))
	rowOf := a.RowMap["ss.csv"]
	order := make([]int, len(rowOf))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return rowOf[order[i]] < rowOf[order[j]] })
	out := [][]string{ss[0]}
	for _, i := range order {
		out = append(out, ss[i+1])
	}
	writeCSV(t, filepath.Join(bad, "ss.csv"), out)
	os.Remove(releasedir.AuditPath(bad))
	editManifest(t, bad, nil)
	rep, err := catalogtest.Check(bad, verify.Options{Original: prep.Source})
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(rep.Strings(), "\n"); !strings.Contains(text, "FAIL shuffled: ss.csv rows are close to the input's order") {
		t.Fatalf("ss.csv in the input's order passes without the audit record:\n%s", text)
	}
}
