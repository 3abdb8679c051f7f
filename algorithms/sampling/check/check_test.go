package check_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

var env = pipeline.Env{Datasets: datasets.Catalog{}}

// release exports the census example (3,000 rows) and returns the
// release directory and the original table.
func release(t testing.TB, params model.Values) (string, *model.Table) {
	t.Helper()
	p := pipeline.Project{Input: "dataset:census", Rows: 3000, Method: "sampling",
		Roles:  model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"},
		Params: model.Values{"sampling-rate": "0.9", "max-distortion": "0.6", "seed": "3"}}
	for k, v := range params {
		p.Params[k] = v
	}
	return releaseOf(t, p)
}

// releaseOf runs and exports a project and returns the release directory
// and the original table.
func releaseOf(t testing.TB, p pipeline.Project) (string, *model.Table) {
	t.Helper()
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
	out := filepath.Join(t.TempDir(), "rel")
	if _, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	return out, prep.Source
}

func check(t *testing.T, dir string, orig *model.Table) *verify.Report {
	t.Helper()
	rep, err := pipeline.Check(dir, orig, nil)
	if err != nil {
		t.Fatalf("check %s: %v", dir, err)
	}
	return rep
}

// failing names the failing lines.
func failing(r *verify.Report) []string {
	var out []string
	for _, l := range r.Lines {
		if !l.OK {
			out = append(out, l.Name)
		}
	}
	return out
}

// copyRelease copies a release and its audit record.
func copyRelease(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "rel")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	es, _ := os.ReadDir(src)
	for _, e := range es {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
	}
	b, _ := os.ReadFile(releasedir.AuditPath(src))
	os.WriteFile(releasedir.AuditPath(dst), b, 0o600)
	return dst
}

// editManifest changes the manifest (a JSON map) and, with rehash,
// restates the release as anyone could (every hash and report.md anew).
func editManifest(t *testing.T, dir string, rehash bool, edit func(m map[string]any)) {
	t.Helper()
	if rehash {
		verifytest.Restate(t, dir, edit)
		return
	}
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	b, _ = json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func details(m map[string]any) map[string]any { return m["details"].(map[string]any) }

// taxonomyOf returns the public_knowledge entry of an attribute.
func taxonomyOf(m map[string]any, attr string) []any {
	for _, a := range details(m)["public_knowledge"].([]any) {
		e := a.(map[string]any)
		if e["attribute"] == attr {
			return e["nodes"].([]any)
		}
	}
	return nil
}

// The exported release passes, with and without the original.
func TestReleasePasses(t *testing.T) {
	dir, orig := release(t, nil)
	for _, o := range []*model.Table{nil, orig} {
		if rep := check(t, dir, o); !rep.OK() {
			t.Fatalf("original %v: %s", o != nil, strings.Join(rep.Strings(), "\n"))
		}
	}
	// The lines read as text: levels in QI order (no Go map syntax), the
	// tolerance of Eq. 3 and the distortion bound stated.
	rep := check(t, dir, orig)
	for name, want := range map[string]string{
		"min-generalization":                    `"auto" gives age 1, education 0, marital-status 0, race 0, sex 0, native-country 0 (details state age 1, education 0, marital-status 0, race 0, sex 0, native-country 0)`,
		"Eq. 3":                                 "observed confidence <= expected confidence within 1e-9",
		"distortion":                            "at most delta' = 0.6, exactly",
		"minimum generalization of each record": "(age 1, education 0, marital-status 0, race 0, sex 0, native-country 0)",
	} {
		text := ""
		for _, l := range rep.Lines {
			if l.Name == name {
				text = l.Text
			}
		}
		if !strings.Contains(text, want) || strings.Contains(text, "map[") {
			t.Errorf("line %s: %q, want it to contain %q", name, text, want)
		}
	}
	// With a marginals file and explicit rules too.
	mf := filepath.Join(t.TempDir(), "marginals.csv")
	os.WriteFile(mf, []byte("attribute,value,probability\nsex,Male,0.6\nsex,Female,0.4\n"), 0o644)
	dir, orig = release(t, model.Values{"marginals": mf, "min-generalization": "age=2,education=1"})
	if rep := check(t, dir, orig); !rep.OK() {
		t.Fatalf("marginals file: %s", strings.Join(rep.Strings(), "\n"))
	}
}

// TestTampering: every edit of published.csv and every class of manifest
// field makes the check fail (with the original and the audit record;
// published-file edits also with the hashes re-computed).
func TestTampering(t *testing.T) {
	t.Parallel()
	dir, orig := release(t, nil)
	pub := verifytest.ReadCSV(t, filepath.Join(dir, "published.csv"))
	header := pub[0]
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	// Find rows to edit: one whose age is a 5-year interval (its parent
	// is a 10-year one), and another SA value.
	var man map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	json.Unmarshal(b, &man)
	ageNodes := taxonomyOf(man, "age")
	parentOf := map[string]string{}
	childOf := map[string]string{}
	siblingOf := map[string]string{}
	for _, n := range ageNodes {
		e := n.(map[string]any)
		p := int(e["parent"].(float64))
		if p >= 0 {
			pl := ageNodes[p].(map[string]any)["value"].(string)
			if prev, ok := childOf[pl]; ok {
				siblingOf[e["value"].(string)] = prev
			}
			parentOf[e["value"].(string)] = pl
			childOf[pl] = e["value"].(string)
		}
	}
	a, s := col("age"), col("occupation")
	row := 1
	for ; row < len(pub); row++ {
		if _, ok := siblingOf[pub[row][a]]; ok {
			break
		}
	}
	other := ""
	for r := 1; r < len(pub); r++ {
		if pub[r][s] != pub[row][s] {
			other = pub[r][s]
			break
		}
	}
	fileEdits := []struct {
		name string
		edit func(recs [][]string) [][]string
	}{
		{"sensitive value", func(r [][]string) [][]string { r[row][s] = other; return r }},
		{"age to its parent", func(r [][]string) [][]string { r[row][a] = parentOf[r[row][a]]; return r }},
		{"age to a sibling", func(r [][]string) [][]string { r[row][a] = siblingOf[r[row][a]]; return r }},
		{"age to the root", func(r [][]string) [][]string { r[row][a] = "*"; return r }},
		{"sex to the root", func(r [][]string) [][]string { r[row][col("sex")] = "*"; return r }},
		{"unknown value", func(r [][]string) [][]string { r[row][col("race")] = "Martian"; return r }},
		{"row deleted", func(r [][]string) [][]string { return append(r[:row], r[row+1:]...) }},
		{"row duplicated", func(r [][]string) [][]string { return append(r, append([]string(nil), r[row]...)) }},
		{"two sensitive values swapped", func(r [][]string) [][]string {
			for k := 1; k < len(r); k++ {
				if r[k][s] != r[row][s] {
					r[k][s], r[row][s] = r[row][s], r[k][s]
					break
				}
			}
			return r
		}},
		{"column renamed", func(r [][]string) [][]string { r[0][s] = "job"; return r }},
		{"rows reordered back", func(r [][]string) [][]string { return r }}, // control: must pass
	}
	for _, fe := range fileEdits {
		for _, rehash := range []bool{false, true} {
			name := fe.name
			if rehash {
				name += "/rehashed"
			}
			t.Run(name, func(t *testing.T) {
				bad := copyRelease(t, dir)
				recs := verifytest.ReadCSV(t, filepath.Join(dir, "published.csv"))
				verifytest.WriteCSV(t, filepath.Join(bad, "published.csv"), fe.edit(recs))
				editManifest(t, bad, rehash, nil)
				rep := check(t, bad, orig)
				control := fe.name == "rows reordered back"
				if control && rehash && !rep.OK() {
					t.Fatalf("an unchanged file fails:\n%s", strings.Join(rep.Strings(), "\n"))
				}
				if !control && rep.OK() {
					t.Fatalf("check passes:\n%s", strings.Join(rep.Strings(), "\n"))
				}
				t.Logf("failing: %v", failing(rep))
			})
		}
	}

	num := func(x any) float64 { return x.(float64) }
	manifestEdits := []struct {
		name string
		edit func(m map[string]any)
	}{
		{"parameter sampling-rate", func(m map[string]any) { m["parameters"].(map[string]any)["sampling-rate"] = "0.95" }},
		{"parameter max-distortion", func(m map[string]any) { m["parameters"].(map[string]any)["max-distortion"] = "0.3" }},
		{"parameter min-generalization", func(m map[string]any) { m["parameters"].(map[string]any)["min-generalization"] = "age=2" }},
		{"parameter marginals", func(m map[string]any) { m["parameters"].(map[string]any)["marginals"] = "file" }},
		{"details sampling_rate", func(m map[string]any) { details(m)["sampling_rate"] = 0.5 }},
		{"details max_distortion", func(m map[string]any) { details(m)["max_distortion"] = 0.9 }},
		{"details rows_considered", func(m map[string]any) { details(m)["rows_considered"] = num(details(m)["rows_considered"]) - 1 }},
		{"details rows_sampled", func(m map[string]any) { details(m)["rows_sampled"] = num(details(m)["rows_sampled"]) + 1 }},
		{"details rows_unsampled", func(m map[string]any) { details(m)["rows_unsampled"] = num(details(m)["rows_unsampled"]) + 1 }},
		{"details rows_suppressed", func(m map[string]any) {
			details(m)["rows_suppressed_by_method"] = num(details(m)["rows_suppressed_by_method"]) + 1
		}},
		{"details rows_published", func(m map[string]any) { details(m)["rows_published"] = num(details(m)["rows_published"]) - 1 }},
		{"details worst_margin", func(m map[string]any) { details(m)["worst_margin"] = num(details(m)["worst_margin"]) + 0.01 }},
		{"details avg_distortion", func(m map[string]any) { details(m)["avg_distortion"] = num(details(m)["avg_distortion"]) * 0.9 }},
		{"details max_distortion_published", func(m map[string]any) { details(m)["max_distortion_published"] = 0.1 }},
		{"details marginals", func(m map[string]any) { details(m)["marginals"] = "file" }},
		{"details min_generalization", func(m map[string]any) { details(m)["min_generalization"].(map[string]any)["age"] = 0.0 }},
		{"public probability of a value", func(m map[string]any) {
			for _, n := range taxonomyOf(m, "sex") {
				e := n.(map[string]any)
				if p, ok := e["p"]; ok {
					e["p"] = num(p) * 0.5
					return
				}
			}
		}},
		{"public probability of a sensitive value", func(m map[string]any) {
			v := details(m)["sensitive_marginals"].([]any)[0].(map[string]any)
			v["p"] = num(v["p"]) * 0.5
		}},
		{"taxonomy label", func(m map[string]any) {
			taxonomyOf(m, "education")[1].(map[string]any)["value"] = "schooling"
		}},
		{"taxonomy parent", func(m map[string]any) {
			nodes := taxonomyOf(m, "age")
			nodes[len(nodes)-1].(map[string]any)["parent"] = 1.0
		}},
		{"quasi-identifier renamed", func(m map[string]any) { m["quasi_identifiers"].([]any)[0] = "years" }},
		{"sensitive renamed", func(m map[string]any) { m["sensitive"] = "job" }},
		{"groups", func(m map[string]any) { m["groups"] = num(m["groups"]) + 1 }},
		{"rows_published", func(m map[string]any) { m["rows_published"] = num(m["rows_published"]) + 1 }},
		{"rows_in", func(m map[string]any) { m["rows_in"] = num(m["rows_in"]) + 1 }},
		{"rows_suppressed", func(m map[string]any) { m["rows_suppressed"] = num(m["rows_suppressed"]) + 1 }},
		{"worst case value", func(m map[string]any) {
			w := m["worst_cases"].([]any)[0].(map[string]any)
			w["value"] = num(w["value"]) + 0.1
		}},
		{"worst case limit", func(m map[string]any) { m["worst_cases"].([]any)[1].(map[string]any)["limit"] = "0.9" }},
		{"worst case ok flag", func(m map[string]any) { m["worst_cases"].([]any)[1].(map[string]any)["ok"] = false }},
		{"utility", func(m map[string]any) {
			u := m["utility"].([]any)[0].(map[string]any)
			u["value"] = num(u["value"]) + 0.1
		}},
		{"details removed", func(m map[string]any) { delete(m, "details") }},
	}
	for _, me := range manifestEdits {
		t.Run("manifest/"+me.name, func(t *testing.T) {
			bad := copyRelease(t, dir)
			editManifest(t, bad, true, me.edit)
			rep := check(t, bad, orig)
			if rep.OK() {
				t.Fatalf("check passes:\n%s", strings.Join(rep.Strings(), "\n"))
			}
			t.Logf("failing: %v", failing(rep))
		})
	}
}

// Without the original, the edits that change a figure or a count are
// still caught from the files alone.
func TestTamperingWithoutOriginal(t *testing.T) {
	dir, _ := release(t, nil)
	edits := map[string]func(m map[string]any){
		"worst margin": func(m map[string]any) { details(m)["worst_margin"] = 0.5 },
		"counts":       func(m map[string]any) { details(m)["rows_unsampled"] = 0.0 },
		"rate":         func(m map[string]any) { m["parameters"].(map[string]any)["sampling-rate"] = "0.5" },
	}
	for name, edit := range edits {
		bad := copyRelease(t, dir)
		editManifest(t, bad, true, edit)
		if rep := check(t, bad, nil); rep.OK() {
			t.Errorf("%s: check passes without the original", name)
		}
	}
	// An edit of a published value that changes a record's distortion.
	bad := copyRelease(t, dir)
	recs := verifytest.ReadCSV(t, filepath.Join(bad, "published.csv"))
	recs[1][1] = "*" // sex to the root
	verifytest.WriteCSV(t, filepath.Join(bad, "published.csv"), recs)
	editManifest(t, bad, true, nil)
	if rep := check(t, bad, nil); rep.OK() {
		t.Error("a generalized value edited: check passes without the original")
	}
}

// A release whose records break Eq. 3 is refused, naming the line.
func TestViolationIsReported(t *testing.T) {
	dir, orig := release(t, nil)
	bad := copyRelease(t, dir)
	editManifest(t, bad, true, func(m map[string]any) {
		m["parameters"].(map[string]any)["sampling-rate"] = "1"
		details(m)["sampling_rate"] = 1.0
		m["parameters"].(map[string]any)["max-distortion"] = "0.01"
		details(m)["max_distortion"] = 0.01
	})
	rep := check(t, bad, orig)
	var failed []string
	for _, l := range rep.Lines {
		if !l.OK {
			failed = append(failed, l.Name)
		}
	}
	joined := strings.Join(failed, ",")
	if !strings.Contains(joined, "distortion") || !strings.Contains(joined, "counts") {
		t.Fatalf("failing lines %v:\n%s", failed, strings.Join(rep.Strings(), "\n"))
	}
	if _, err := catalogtest.Check(bad, verify.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestMinimumGeneralizationOfTheRecord: on an unbalanced taxonomy a
// published value can have the rule's levels of taxonomy below it and yet
// be fewer levels above the record's own value. The binary tree over
// a..e is a-e -> {a-c -> {a-b -> {a, b}, c}, d-e -> {d, e}}: with the rule
// g=2, a record of c goes to the root a-e (Algorithm 1, step 3); publishing
// it as a-c covers c and a-c has two levels below it (a-b, a), but it is
// one level above c. The files alone cannot tell; with the original and
// the audit record the checker does.
func TestMinimumGeneralizationOfTheRecord(t *testing.T) {
	var b strings.Builder
	b.WriteString("g,s\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "%c,s%d\n", 'a'+i%5, (i/5)%3)
	}
	in := filepath.Join(t.TempDir(), "unbalanced.csv")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, orig := releaseOf(t, pipeline.Project{Input: in, Method: "sampling", Roles: model.Roles{QIs: []string{"g"}, SA: "s"},
		Hierarchies: map[string]string{"g": "binary"},
		Params:      model.Values{"sampling-rate": "0.9", "max-distortion": "1", "min-generalization": "g=2", "seed": "3"}})
	rep := check(t, dir, orig)
	if !rep.OK() || !hasLine(rep, "minimum generalization of each record", true) {
		t.Fatalf("the release fails or lacks the per-record line:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	audit, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	rows := audit.RowMap["published.csv"]
	pub := verifytest.ReadCSV(t, filepath.Join(dir, "published.csv"))
	tampered := -1
	for i := 1; i < len(pub); i++ {
		if orig.Column("g").Value(rows[i-1]) == "c" {
			if pub[i][0] != "a-e" {
				t.Fatalf("a record of c is published as %q, want the root a-e (two levels up from c)", pub[i][0])
			}
			if tampered < 0 {
				tampered = i
			}
		}
	}
	if tampered < 0 {
		t.Fatal("no record of c is published")
	}
	pub[tampered][0] = "a-c"
	bad := copyRelease(t, dir)
	verifytest.WriteCSV(t, filepath.Join(bad, "published.csv"), pub)
	editManifest(t, bad, true, nil)
	rep = check(t, bad, orig)
	// The subtree test from the files passes, coverage passes, the
	// record's own value fails.
	if !hasLine(rep, "minimum generalization", true) || !hasLine(rep, "faithful", true) ||
		!hasLine(rep, "minimum generalization of each record", false) {
		t.Fatalf("a-c for a record of c:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	// Without the original the files alone cannot tell (the line is
	// absent, not passed).
	if hasLine(check(t, bad, nil), "minimum generalization of each record", true) {
		t.Fatal("the per-record line passes without the original")
	}
}

// hasLine reports whether the report has a line of that name with that
// outcome.
func hasLine(r *verify.Report, name string, ok bool) bool {
	for _, l := range r.Lines {
		if l.Name == name && l.OK == ok {
			return true
		}
	}
	return false
}
