package check_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/datasets"
	"privlab/model"
)

var env = pipeline.Env{Datasets: datasets.Catalog{}}

// universe writes a small MT and PD (PD holds MT's people) and returns
// their paths.
func universe(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := datasets.WriteUniverse(dir, 600, 4, 3); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "mt.csv"), filepath.Join(dir, "pd.csv")
}

// export runs kja through the pipeline and writes the release; sex is a
// categorical QI so that the release carries a value order.
func export(t *testing.T, mt, pd, variant string) (string, *pipeline.Prepared) {
	t.Helper()
	p := pipeline.Project{Input: mt, Public: pd, Method: "kja", Variant: variant,
		Roles:  model.Roles{IDs: []string{"id"}, QIs: []string{"age", "income", "sex"}, SA: "occupation"},
		Kinds:  map[string]string{"sex": "categorical"},
		Params: model.Values{"k": "8", "seed": "5"}}
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rel")
	if _, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	return out, prep
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

func writeCSV(t *testing.T, path string, recs [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(recs)
	f.Close()
}

func copyRelease(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "rel")
	os.Mkdir(dst, 0o755)
	es, _ := os.ReadDir(src)
	for _, e := range es {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
	}
	if b, err := os.ReadFile(model.AuditPath(src)); err == nil {
		os.WriteFile(model.AuditPath(dst), b, 0o600)
	}
	return dst
}

// editManifest applies f to manifest.json as generic JSON.
func editManifest(t *testing.T, dir string, f func(m map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	b, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(path, b, 0o644)
}

// rehash restates the release as anyone could (hashes and report.md
// anew): only the content checks can then catch an edit.
func rehash(t *testing.T, dir string) {
	t.Helper()
	verifytest.Restate(t, dir, nil)
}

func details(m map[string]any) map[string]any { return m["details"].(map[string]any) }

// otherRow is a row of recs (after the header) whose column c differs
// from row 1's.
func otherRow(recs [][]string, c int) int {
	for r := 2; r < len(recs); r++ {
		if recs[r][c] != recs[1][c] {
			return r
		}
	}
	return -1
}

// TestChecksPassAndEditsFail: a clean release passes with and without the
// original, public table and audit record; every edit of a published cell
// and of every class of manifest field fails, with the hashes left alone
// and re-computed.
func TestChecksPassAndEditsFail(t *testing.T) {
	mtPath, pdPath := universe(t)
	for _, variant := range []string{"mondrian-refine", "topdown-direct", "mondrian"} {
		dir, prep := export(t, mtPath, pdPath, variant)
		orig, pub := prep.Source, prep.Public
		full := func(d string) (*verify.Report, error) { return pipeline.Check(d, orig, pub) }
		for name, check := range map[string]func(string) (*verify.Report, error){
			"files alone": func(d string) (*verify.Report, error) { return pipeline.Check(d, nil, nil) },
			"original":    func(d string) (*verify.Report, error) { return pipeline.Check(d, orig, nil) },
			"original+pd": full,
			"without audit": func(d string) (*verify.Report, error) {
				c := copyRelease(t, d)
				os.Remove(model.AuditPath(c))
				return pipeline.Check(c, orig, pub)
			},
		} {
			if name == "without audit" && strings.HasPrefix(variant, "topdown") {
				continue // overlapping boxes need the audit record to pin tuples
			}
			rep, err := check(dir)
			if err != nil || !rep.OK() {
				t.Fatalf("%s, %s: a clean release fails: %v\n%s", variant, name, err, strings.Join(rep.Strings(), "\n"))
			}
		}
		type edit struct {
			name string
			// filesAlone: the files without the original reveal it.
			filesAlone bool
			apply      func(t *testing.T, dir string)
		}
		cell := func(file string, col func(h []string) int, mutate func(recs [][]string, c int)) func(*testing.T, string) {
			return func(t *testing.T, dir string) {
				recs := readCSV(t, filepath.Join(dir, file))
				mutate(recs, col(recs[0]))
				writeCSV(t, filepath.Join(dir, file), recs)
			}
		}
		colOf := func(name string) func([]string) int {
			return func(h []string) int {
				for i, n := range h {
					if n == name {
						return i
					}
				}
				t.Fatalf("no column %s", name)
				return 0
			}
		}
		copyFrom := func(recs [][]string, c int) {
			if r := otherRow(recs, c); r > 0 {
				recs[1][c] = recs[r][c]
			} else {
				recs[1][c] += "1"
			}
		}
		edits := []edit{
			{"jat GroupID", true, cell("jat.csv", colOf("GroupID"), copyFrom)},
			{"jat SG", true, cell("jat.csv", colOf("SG"), copyFrom)},
			{"jat age_min", true, cell("jat.csv", colOf("age_min"), copyFrom)},
			{"jat income_max", true, cell("jat.csv", colOf("income_max"), copyFrom)},
			{"jat sex_max", true, cell("jat.csv", colOf("sex_max"), func(recs [][]string, c int) {
				if recs[1][c] == "1" {
					recs[1][c] = "2"
				} else {
					recs[1][c] = "1"
				}
			})},
			{"jat a whole box moved", false, func(t *testing.T, dir string) {
				// Every row of row 1's box gets age_min + 0 -> one less: the box
				// stays consistent, but is no longer its members' MBB.
				recs := readCSV(t, filepath.Join(dir, "jat.csv"))
				g, c := recs[1][0], colOf("age_min")(recs[0])
				for _, r := range recs[1:] {
					if r[0] == g {
						r[c] = "-1"
					}
				}
				writeCSV(t, filepath.Join(dir, "jat.csv"), recs)
			}},
			{"jat row deleted", true, func(t *testing.T, dir string) {
				recs := readCSV(t, filepath.Join(dir, "jat.csv"))
				writeCSV(t, filepath.Join(dir, "jat.csv"), append(recs[:1], recs[2:]...))
			}},
			{"jat row duplicated", true, func(t *testing.T, dir string) {
				recs := readCSV(t, filepath.Join(dir, "jat.csv"))
				writeCSV(t, filepath.Join(dir, "jat.csv"), append(recs, recs[1]))
			}},
			{"si SG", false, cell("si.csv", colOf("SG"), copyFrom)},
			{"si value", false, cell("si.csv", colOf("occupation"), copyFrom)},
			{"si row deleted", true, func(t *testing.T, dir string) {
				recs := readCSV(t, filepath.Join(dir, "si.csv"))
				writeCSV(t, filepath.Join(dir, "si.csv"), append(recs[:1], recs[2:]...))
			}},
			{"manifest k", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["parameters"].(map[string]any)["k"] = "1000" })
			}},
			{"manifest k not a number", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["parameters"].(map[string]any)["k"] = "x" })
			}},
			{"manifest variant", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					if m["variant"] == "topdown-direct" {
						m["variant"] = "topdown-refine"
					} else {
						m["variant"] = "topdown-direct"
					}
				})
			}},
			{"manifest groups", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["groups"] = m["groups"].(float64) + 1 })
			}},
			{"manifest rows_published", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["rows_published"] = m["rows_published"].(float64) - 1 })
			}},
			{"manifest worst case value", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					w := m["worst_cases"].([]any)[0].(map[string]any)
					w["value"] = w["value"].(float64) + 1
				})
			}},
			{"manifest worst case ok", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["worst_cases"].([]any)[1].(map[string]any)["ok"] = false })
			}},
			{"manifest utility NCP", strings.HasPrefix(variant, "mondrian") && variant != "mondrian-refine" || variant == "topdown-direct", func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					u := m["utility"].([]any)[0].(map[string]any)
					u["value"] = u["value"].(float64) * 0.9
				})
			}},
			{"manifest DM", variant != "mondrian-refine", func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					u := m["utility"].([]any)[2].(map[string]any)
					u["value"] = u["value"].(float64) - 1
				})
			}},
			{"details boxes", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { details(m)["boxes"] = details(m)["boxes"].(float64) + 1 })
			}},
			{"details public_rows", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { details(m)["public_rows"] = details(m)["public_rows"].(float64) + 1 })
			}},
			{"details smallest group", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					details(m)["smallest_sensitive_group"] = details(m)["smallest_sensitive_group"].(float64) + 1
				})
			}},
			{"details methodology", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { details(m)["methodology"] = "direct-ish" })
			}},
			{"details domain low", false, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					d := details(m)["domain"].([]any)[0].(map[string]any)
					d["low"] = d["low"].(float64) - 1
				})
			}},
			// A categorical QI's order: a value left out (a reorder that keeps
			// every box a valid range changes no box's meaning and cannot be
			// told from the files: the order is the user's hierarchy).
			{"details domain values", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) {
					d := details(m)["domain"].([]any)[2].(map[string]any)
					d["values"] = d["values"].([]any)[1:]
					d["high"] = d["high"].(float64) - 1
				})
			}},
			{"details join", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { details(m)["join_columns"] = []any{"age"} })
			}},
			{"details sensitive kind", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { details(m)["sensitive_kind"] = "numeric" })
			}},
			{"manifest QI renamed", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["quasi_identifiers"].([]any)[0] = "years" })
			}},
			{"manifest SA renamed", true, func(t *testing.T, dir string) {
				editManifest(t, dir, func(m map[string]any) { m["sensitive"] = "job" })
			}},
		}
		for _, e := range edits {
			for _, rehashed := range []bool{false, true} {
				bad := copyRelease(t, dir)
				e.apply(t, bad)
				if rehashed {
					rehash(t, bad)
				}
				rep, err := full(bad)
				if err == nil && rep.OK() {
					t.Errorf("%s, %s (rehashed %v): the check passes:\n%s", variant, e.name, rehashed, strings.Join(rep.Strings(), "\n"))
				}
				if e.filesAlone {
					rep, err := pipeline.Check(bad, nil, nil)
					if err == nil && rep.OK() {
						t.Errorf("%s, %s (rehashed %v): the files alone pass:\n%s", variant, e.name, rehashed, strings.Join(rep.Strings(), "\n"))
					}
				}
			}
		}
	}
}

// TestCheckFromTheCommandLineTables: check reads the public table as the
// command line loads it (raw, missing values not yet dropped), and the
// row numbers of the audit record still fit.
func TestCheckWithRawPublicTable(t *testing.T) {
	mtPath, pdPath := universe(t)
	// A public row with a missing QI: the pipeline drops it, so public row
	// numbers after it shift by one.
	b, _ := os.ReadFile(pdPath)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	cells := strings.Split(lines[5], ",")
	cells[1] = ""
	lines[5] = strings.Join(cells, ",")
	os.WriteFile(pdPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	dir, prep := export(t, mtPath, pdPath, "mondrian-direct")
	raw, err := model.LoadFile(pdPath, model.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if raw.Rows == prep.Public.Rows {
		t.Fatal("the pipeline kept the row with a missing QI")
	}
	origRaw, _ := model.LoadFile(mtPath, model.LoadOptions{Kinds: map[string]model.Kind{"sex": model.Categorical}})
	raw.Column("sex").SetKind(model.Categorical)
	rep, err := pipeline.Check(dir, origRaw, raw)
	if err != nil || !rep.OK() {
		t.Fatalf("%v\n%s", err, strings.Join(rep.Strings(), "\n"))
	}
}

// TestRefinementGroupsHoldK forges a Refinement release that agrees with
// its input in every other respect: one box whose microdata tuples are
// fewer than k is moved, with exactly its tuples' si.csv rows, into a new
// sensitive group, and the manifest's counts are restated. The box still
// holds k JT tuples and every sensitive value stays with its tuple, so
// only the rule that a sensitive group is a first-round k-anonymous group
// of MT (Sacharidis et al., Section 3.2) catches it.
func TestRefinementGroupsHoldK(t *testing.T) {
	mtPath, pdPath := universe(t)
	dir, prep := export(t, mtPath, pdPath, "mondrian-refine")
	const k = 8
	audit, err := model.ReadAudit(model.AuditPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	jat := readCSV(t, filepath.Join(dir, "jat.csv"))
	si := readCSV(t, filepath.Join(dir, "si.csv"))
	// Microdata tuples (input rows) per box, and the largest SG id.
	mtOf := map[string][]int{}
	maxSG := 0
	for row, e := range audit.RowMap["jat.csv"] {
		if e >= 0 {
			mtOf[jat[row+1][0]] = append(mtOf[jat[row+1][0]], e)
		}
		var sg int
		fmt.Sscan(jat[row+1][1], &sg)
		maxSG = max(maxSG, sg)
	}
	victim := ""
	for id, rows := range mtOf {
		if len(rows) < k && (victim == "" || len(rows) < len(mtOf[victim]) || len(rows) == len(mtOf[victim]) && id < victim) {
			victim = id
		}
	}
	if victim == "" {
		t.Fatal("no box of the release holds fewer than k microdata tuples: the forgery needs one")
	}
	newSG := strconv.Itoa(maxSG + 1)
	for _, rec := range jat[1:] {
		if rec[0] == victim {
			rec[1] = newSG
		}
	}
	moved := map[int]bool{}
	for _, e := range mtOf[victim] {
		moved[e] = true
	}
	for row, e := range audit.RowMap["si.csv"] {
		if moved[e] {
			si[row+1][0] = newSG
		}
	}
	bad := copyRelease(t, dir)
	writeCSV(t, filepath.Join(bad, "jat.csv"), jat)
	writeCSV(t, filepath.Join(bad, "si.csv"), si)
	verifytest.Restate(t, bad, func(m map[string]any) {
		d := details(m)
		d["sensitive_groups"] = d["sensitive_groups"].(float64) + 1
		d["smallest_sensitive_group"] = float64(len(mtOf[victim]))
	})
	for name, check := range map[string]func() (*verify.Report, error){
		"files alone": func() (*verify.Report, error) { return pipeline.Check(bad, nil, nil) },
		"original+pd": func() (*verify.Report, error) { return pipeline.Check(bad, prep.Source, prep.Public) },
	} {
		rep, err := check()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var failed []string
		for _, l := range rep.Lines {
			if !l.OK {
				failed = append(failed, l.Name)
			}
		}
		// The manifest's own verification line for the group size, stated
		// at export, no longer reads as the files give it either.
		// With the original, the stated workload error (answered from the
		// edited si.csv) no longer holds either.
		// And the audit record beside the release holds the digest of the
		// manifest as exported.
		want := "sensitive group size,claim checks,claim manifest"
		if name == "original+pd" {
			want += ",workload"
		}
		if strings.Join(failed, ",") != want {
			t.Errorf("%s: a sensitive group of %d microdata tuples (k = %d): failed lines %v, want exactly the group size (and the stated line)\n%s",
				name, len(mtOf[victim]), k, failed, strings.Join(rep.Strings(), "\n"))
		}
	}
}

// lineOf is the report line of that name (nil: none).
func lineOf(rep *verify.Report, name string) *verify.Line {
	for i := range rep.Lines {
		if rep.Lines[i].Name == name {
			return &rep.Lines[i]
		}
	}
	return nil
}

// TestNCPNormaliserLines: every variant given a public table normalises
// NCP by JT's domain; the checker confirms it with --public, names it
// unconfirmed (a passing line) without, and catches a manifest that
// calls the domain MT's while it is JT's, or a KJA domain that is MT's.
func TestNCPNormaliserLines(t *testing.T) {
	mtPath, pdPath := universe(t)
	for _, variant := range []string{"mondrian-direct", "topdown-refine", "mondrian"} {
		dir, prep := export(t, mtPath, pdPath, variant)
		withPD, err := pipeline.Check(dir, prep.Source, prep.Public)
		if err != nil || !withPD.OK() || lineOf(withPD, "NCP normaliser") == nil || lineOf(withPD, "NCP normaliser unconfirmed") != nil {
			t.Fatalf("%s with --public: %v\n%s", variant, err, strings.Join(withPD.Strings(), "\n"))
		}
		alone, err := pipeline.Check(dir, prep.Source, nil)
		if l := lineOf(alone, "NCP normaliser unconfirmed"); err != nil || !alone.OK() || l == nil || lineOf(alone, "NCP normaliser") != nil {
			t.Fatalf("%s without --public: %v\n%s", variant, err, strings.Join(alone.Strings(), "\n"))
		}
		// The manifest calls JT's domain MT's: a KJA variant cannot have
		// one, and plain k-anonymity's MT extent is narrower.
		bad := copyRelease(t, dir)
		verifytest.Restate(t, bad, func(m map[string]any) { details(m)["ncp_domain"] = "MT" })
		rep, err := pipeline.Check(bad, prep.Source, nil)
		if err == nil && rep.OK() {
			t.Errorf("%s: ncp_domain MT passes:\n%s", variant, strings.Join(rep.Strings(), "\n"))
		}
	}
	// Without a public table, plain k-anonymity's domain is MT's and the
	// original alone confirms it.
	p := pipeline.Project{Input: mtPath, Method: "kja", Variant: "mondrian",
		Roles: model.Roles{IDs: []string{"id"}, QIs: []string{"age", "income"}, SA: "occupation"}, Params: model.Values{"k": "8", "seed": "5"}}
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rel")
	if _, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err := pipeline.Check(out, prep.Source, nil)
	if l := lineOf(rep, "NCP normaliser"); err != nil || !rep.OK() || l == nil || !strings.Contains(l.Text, "microdata's extent") {
		t.Fatalf("plain without PD: %v\n%s", err, strings.Join(rep.Strings(), "\n"))
	}
}
