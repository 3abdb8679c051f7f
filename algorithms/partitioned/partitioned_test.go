package partitioned

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

var env = pipeline.Env{Datasets: datasets.Catalog{}}

func prepare(t testing.TB, p pipeline.Project) *pipeline.Prepared {
	t.Helper()
	src, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := env.LoadPopulationOf(prep); err != nil {
		t.Fatal(err)
	}
	return prep
}

// censusProject is a census run of a method with the QIs.
func censusProject(method string, rows int, params model.Values) pipeline.Project {
	params["seed"] = "1"
	return pipeline.Project{Input: "dataset:census", Rows: rows, Method: method,
		Roles:  model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"},
		Params: params}
}

// Every method runs partitioned, and its release passes check partition
// by partition, with the original and without, its top manifest
// combining the parts' counts (issue 36, done when).
func TestEveryMethodPartitioned(t *testing.T) {
	for _, c := range []struct {
		method string
		params model.Values
	}{
		{"kja", model.Values{"k": "5"}},
		{"distribution", model.Values{}},
		{"lossyjoin", model.Values{}},
		{"sampling", model.Values{}},
		{"ambiguity", model.Values{}},
	} {
		t.Run(c.method, func(t *testing.T) {
			p := censusProject(c.method, 3000, c.params)
			if c.method == "kja" {
				p.Variant = "mondrian"
			}
			prep := prepare(t, p)
			dir := filepath.Join(t.TempDir(), "rel")
			res, err := Stream(context.Background(), env, p, dir, Options{Partitions: 3})
			if err != nil {
				t.Fatal(err)
			}
			if res.Plan.Partitions < 2 || len(res.Parts) != res.Plan.Partitions {
				t.Fatalf("%d partitions planned, %d written", res.Plan.Partitions, len(res.Parts))
			}
			rows := 0
			for _, pm := range res.Parts {
				rows += pm.RowsIn
			}
			if rows != 3000 || res.Manifest.RowsIn != 3000 {
				t.Fatalf("partitions hold %d rows, the manifest states %d, want 3000", rows, res.Manifest.RowsIn)
			}
			for _, k := range []*risk.Knowledge{{}, {Original: prep.Source}} {
				rep, err := Check(env, dir, k)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.OK() {
					t.Fatalf("check (original %v) failed: %v\n%v", k.Original != nil, rep.Err(), rep.Strings())
				}
			}
		})
	}
}

// The partitions hold the input's rows once each: the audit records map
// every published row of a kja release to a distinct input row of its
// partition, and the plan places that row in that partition.
func TestPartitionsHoldTheirOwnRows(t *testing.T) {
	p := censusProject("kja", 2000, model.Values{"k": "4"})
	p.Variant = "mondrian"
	prep := prepare(t, p)
	dir := filepath.Join(t.TempDir(), "rel")
	res, err := Stream(context.Background(), env, p, dir, Options{PartitionRows: 600})
	if err != nil {
		t.Fatal(err)
	}
	at, err := res.Plan.AssignTable(prep.Source)
	if err != nil {
		t.Fatal(err)
	}
	count := make([]int, res.Plan.Partitions)
	for _, part := range at {
		count[part]++
	}
	for i, pm := range res.Parts {
		if pm.RowsIn != count[i] {
			t.Errorf("partition %d holds %d rows, the plan places %d there", i, pm.RowsIn, count[i])
		}
		if count[i] > 600*2 {
			t.Errorf("partition %d holds %d rows, over twice the 600 asked", i, count[i])
		}
		a, err := releasedir.ReadAudit(filepath.Join(AuditDir(dir), PartDir(i)+".audit.json"))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, r := range a.RowMap["si.csv"] {
			if r < 0 || r >= count[i] || seen[r] {
				t.Fatalf("partition %d: si.csv row maps to %d (of %d), or twice", i, r, count[i])
			}
			seen[r] = true
		}
	}
}

// The union of a kja release's partitions is k-anonymous by brute force:
// every record of the input lies in the boxes of at least k published
// tuples, counting the boxes of every partition (numeric QIs: a box is
// its _min.._max per QI), and no box holds fewer than k tuples. Random
// tables of a few hundred rows, several seeds and k.
func TestUnionIsKAnonymousByBruteForce(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, k := range []int{2, 3, 5} {
			p := pipeline.Project{Input: "dataset:universe", Rows: 300 + int(seed)*50, DataSeed: seed, Method: "kja", Variant: "mondrian",
				Roles:  model.Roles{IDs: []string{"id"}, QIs: []string{"age", "income", "family-size", "education-years"}, SA: "occupation"},
				Params: model.Values{"k": strconv.Itoa(k), "seed": strconv.FormatUint(seed, 10)}}
			prep := prepare(t, p)
			dir := filepath.Join(t.TempDir(), "rel")
			res, err := Stream(context.Background(), env, p, dir, Options{Partitions: 4})
			if err != nil {
				t.Fatal(err)
			}
			var boxes [][]float64 // per tuple: min, max per QI
			size := map[string]int{}
			for i := range res.Parts {
				for _, row := range readCSV(t, filepath.Join(dir, PartDir(i), "jat.csv"))[1:] {
					size[PartDir(i)+"/"+row[0]]++
					var b []float64
					for _, cell := range row[2:] {
						x, err := strconv.ParseFloat(cell, 64)
						if err != nil {
							t.Fatalf("jat.csv cell %q", cell)
						}
						b = append(b, x)
					}
					boxes = append(boxes, b)
				}
			}
			for id, n := range size {
				if n < k {
					t.Fatalf("seed %d k %d: box %s holds %d tuples", seed, k, id, n)
				}
			}
			header := readCSV(t, filepath.Join(dir, PartDir(0), "jat.csv"))[0]
			cols := make([]*model.Column, 0, 4)
			for j := 2; j < len(header); j += 2 {
				cols = append(cols, prep.Source.Column(header[j][:len(header[j])-len("_min")]))
			}
			for r := 0; r < prep.Source.Rows; r++ {
				in := 0
				for _, b := range boxes {
					inside := true
					for q, c := range cols {
						x, _ := model.ParseNumber(c.Value(r))
						if x < b[2*q] || x > b[2*q+1] {
							inside = false
							break
						}
					}
					if inside {
						in++
					}
				}
				if in < k {
					t.Fatalf("seed %d k %d: input row %d lies in %d published boxes, fewer than k", seed, k, r, in)
				}
			}
		}
	}
}

// A changed partition is caught: its manifest's digest no longer is the
// one the top states.
func TestChangedPartitionIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := Stream(context.Background(), env, censusProject("lossyjoin", 1500, model.Values{}), dir, Options{Partitions: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, PartDir(1), "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := releasedir.ReadManifest(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	m.Published++
	changed, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(dir); err == nil {
		t.Fatal("a changed partition manifest passed")
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(dir); err != nil {
		t.Fatalf("the partition restored: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extra.csv"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(dir); err == nil {
		t.Fatal("a file beside the partitions passed")
	}
}

// Attacks combine by trials: rates and baselines weighted, the largest
// figure kept, records summed, the verdict from the combined figure.
func TestAttacksCombineByTrials(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	yes, no := true, false
	a := releasedir.AttackFigure{Attack: "linkage", Measured: f(0.2), Bound: f(0.25), Holds: &yes, Records: 3, Trials: 10, Rate: f(0.3), Baseline: f(0.1), Control: f(0.1)}
	b := releasedir.AttackFigure{Attack: "linkage", Measured: f(0.3), Bound: f(0.25), Holds: &no, Records: 1, Trials: 30, Rate: f(0.1), Baseline: f(0.1), Control: f(0.2)}
	got := Attacks([][]releasedir.AttackFigure{{a}, {b}})
	if len(got) != 1 {
		t.Fatalf("%d attacks", len(got))
	}
	g := got[0]
	if *g.Measured != 0.3 || g.Records != 4 || g.Trials != 40 || *g.Holds {
		t.Fatalf("combined %+v", g)
	}
	if r := *g.Rate; r < 0.15-1e-12 || r > 0.15+1e-12 { // (3 + 3) / 40
		t.Fatalf("rate %v, want 0.15", r)
	}
	if c := *g.Control; c < 0.175-1e-12 || c > 0.175+1e-12 { // (1 + 6) / 40
		t.Fatalf("control %v, want 0.175", c)
	}
	if r := *g.Risk; r < (0.15-0.1)/0.9-1e-9 || r > (0.15-0.1)/0.9+1e-9 {
		t.Fatalf("risk %v, want (0.15-0.1)/(1-0.1)", r)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A bound that is each partition's own (sampling's expected confidence)
// pairs with its figure: partitions that each hold make a union that
// holds, though one's figure exceeds another's bound.
func TestAttacksKeepTheirOwnBounds(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	yes := true
	a := releasedir.AttackFigure{Attack: "inference", Measured: f(0.45), Bound: f(0.45), Holds: &yes}
	b := releasedir.AttackFigure{Attack: "inference", Measured: f(0.3), Bound: f(0.31), Holds: &yes}
	g := Attacks([][]releasedir.AttackFigure{{b}, {a}})[0]
	if g.Holds == nil || !*g.Holds || *g.Measured != 0.45 || *g.Bound != 0.45 {
		t.Fatalf("combined %+v: want holds, 0.45 against its own bound 0.45", g)
	}
	c := releasedir.AttackFigure{Attack: "inference", Measured: f(0.5), Bound: nil, Holds: nil}
	if g := Attacks([][]releasedir.AttackFigure{{a}, {c}})[0]; g.Holds != nil {
		t.Fatalf("a partition without a bound: combined holds %v, want not bounded", *g.Holds)
	}
}

// Group, class and box identifiers are unique across partitions (SPEC
// 3.9): partition i numbers its groups after i times a power of ten above
// the input's rows (for ambiguity, the base its manifest states).
func TestIdentifiersUniqueAcrossPartitions(t *testing.T) {
	for _, c := range []struct {
		method string
		params model.Values
		files  map[string]string // file -> its identifier column
	}{
		{"kja", model.Values{"k": "5"}, map[string]string{"jat.csv": "GroupID", "si.csv": "SG"}},
		{"lossyjoin", model.Values{}, map[string]string{"nss.csv": "ClassID", "ss.csv": "ClassID"}},
		{"distribution", model.Values{}, map[string]string{"qi.csv": "GroupID", "sa.csv": "GroupID"}},
		{"ambiguity", model.Values{}, map[string]string{"st.csv": "GroupID", "at_age.csv": "GroupID", "at_sex.csv": "GroupID",
			"at_education.csv": "GroupID", "at_marital-status.csv": "GroupID", "at_race.csv": "GroupID", "at_native-country.csv": "GroupID"}},
	} {
		p := censusProject(c.method, 3000, c.params)
		if c.method == "kja" {
			p.Variant = "mondrian"
		}
		dir := filepath.Join(t.TempDir(), "rel")
		res, err := Stream(context.Background(), env, p, dir, Options{Partitions: 3})
		if err != nil {
			t.Fatal(err)
		}
		for file, col := range c.files {
			owner := map[string]int{}
			for i := range res.Parts {
				rows := readCSV(t, filepath.Join(dir, PartDir(i), file))
				at := slices.Index(rows[0], col)
				if at < 0 {
					t.Fatalf("%s: %s has no column %s", c.method, file, col)
				}
				for _, row := range rows[1:] {
					id, err := strconv.Atoi(row[at])
					if err != nil || id/10000 != i {
						t.Fatalf("%s: %s %s %q in partition %d, want %d....", c.method, file, col, row[at], i, i)
					}
					if o, ok := owner[row[at]]; ok && o != i {
						t.Fatalf("%s: %s %s %s in partitions %d and %d", c.method, file, col, row[at], o, i)
					}
					owner[row[at]] = i
				}
			}
		}
	}
}

// An edited top manifest fails check, whichever claim was edited: its
// parameters, counts, part entries, missing-value policy, and the plan's
// columns and estimates (no partition's digest covers them; issue 36).
func TestEditedTopManifestFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	p := censusProject("lossyjoin", 1500, model.Values{})
	if _, err := Stream(context.Background(), env, p, dir, Options{Partitions: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "manifest.json")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(m *releasedir.Manifest, plan map[string]any){
		"parameter k":     func(m *releasedir.Manifest, _ map[string]any) { m.Parameters["k"] = "50" },
		"rows in":         func(m *releasedir.Manifest, _ map[string]any) { m.RowsIn++ },
		"rows suppressed": func(m *releasedir.Manifest, _ map[string]any) { m.Suppressed++ },
		"part rows in":    func(m *releasedir.Manifest, _ map[string]any) { m.Partitioned.Parts[0].RowsIn++ },
		"part groups":     func(m *releasedir.Manifest, _ map[string]any) { m.Partitioned.Parts[1].Groups-- },
		"missing values":  func(m *releasedir.Manifest, _ map[string]any) { m.MissingValues = "category" },
		"plan table rows": func(_ *releasedir.Manifest, plan map[string]any) { plan["table_rows"] = 1499.0 },
		"plan estimate": func(_ *releasedir.Manifest, plan map[string]any) {
			plan["root"].(map[string]any)["estimated_rows"] = 1400.0
		},
		"plan column name": func(_ *releasedir.Manifest, plan map[string]any) {
			plan["columns"].([]any)[0].(map[string]any)["name"] = "salary-class"
		},
		"plan cut": func(_ *releasedir.Manifest, plan map[string]any) {
			cut := plan["root"].(map[string]any)["cut"].(map[string]any)
			if _, categorical := cut["left_values"]; !categorical {
				cut["at_most"] = 1e9 // every record left
			} else {
				cut["left_values"] = []any{"no such value"} // every record right
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := releasedir.ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			var plan map[string]any
			if err := json.Unmarshal(m.Partitioned.Plan, &plan); err != nil {
				t.Fatal(err)
			}
			edit(m, plan)
			if m.Partitioned.Plan, err = json.Marshal(plan); err != nil {
				t.Fatal(err)
			}
			b, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := Check(env, dir, &risk.Knowledge{})
			if err == nil && rep.OK() {
				t.Fatalf("check passed a top manifest with its %s edited", name)
			}
		})
	}
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err := Check(env, dir, &risk.Knowledge{}); err != nil || !rep.OK() {
		t.Fatalf("the manifest restored: %v %+v", err, rep)
	}
}
