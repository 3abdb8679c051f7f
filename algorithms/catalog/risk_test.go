package catalog_test

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

// The cross-method figures against a deliberately simple brute force that
// reads the published files with encoding/csv and compares every record
// with every other (issue: compare and explain, item 5): k-anonymity (the
// smallest class), QI-uniqueness, distinct l-diversity, the largest belief
// in one sensitive value and t-closeness, on releases of four methods.
func TestRiskAgainstBruteForce(t *testing.T) {
	dir := t.TempDir()
	if err := datasets.WriteUniverse(filepath.Join(dir, "u"), 300, 5, 3); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		p    pipeline.Project
		read func(t *testing.T, rel string) []bfRecord
	}{
		{"distribution employees (Figure 2)", pipeline.Project{Input: "dataset:employees", Roles: model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
			Hierarchies: map[string]string{"zipcode": "masking"}, Method: "distribution", Params: model.Values{"grouping": "level:zipcode=2", "target": "uniform"}}, readDistribution},
		{"distribution census mondrian", pipeline.Project{Input: "dataset:census", Rows: 1500, Roles: model.Roles{QIs: []string{"age", "sex", "race"}, SA: "capital-loss"},
			Method: "distribution", Params: model.Values{"grouping": "mondrian:20", "target": "table"}}, readDistribution},
		{"distribution census per-group target", pipeline.Project{Input: "dataset:census", Rows: 1500, Roles: model.Roles{QIs: []string{"age", "sex", "race"}, SA: "hours-per-week"},
			Method: "distribution", Params: model.Values{"grouping": "mondrian:40", "target": "group"}}, readDistribution},
		{"lossyjoin numeric SA", pipeline.Project{Input: "dataset:census", Rows: 1500, Roles: model.Roles{QIs: []string{"age", "education", "sex"}, SA: "hours-per-week"},
			Method: "lossyjoin", Params: model.Values{"k": "4", "alpha": "0.5"}}, readLossy},
		{"lossyjoin jobs", pipeline.Project{Input: "dataset:jobs", Roles: model.Roles{QIs: []string{"job", "birth", "postcode"}, SA: "illness"},
			Method: "lossyjoin", Params: model.Values{"k": "2", "alpha": "0.5"}}, readLossy},
		{"lossyjoin census", pipeline.Project{Input: "dataset:census", Rows: 1500, Roles: model.Roles{QIs: []string{"age", "education", "sex"}, SA: "occupation"},
			Method: "lossyjoin", Params: model.Values{"k": "3", "alpha": "0.5"}}, readLossy},
		{"lossyjoin alpha census", pipeline.Project{Input: "dataset:census", Rows: 1500, Roles: model.Roles{QIs: []string{"age", "education", "sex"}, SA: "occupation"},
			Method: "lossyjoin", Variant: "alpha", Params: model.Values{"k": "3", "alpha": "0.5"}}, readRecordLevel("generalized.csv")},
		{"sampling census", pipeline.Project{Input: "dataset:census", Rows: 2000, Roles: model.Roles{QIs: []string{"age", "sex", "education", "race"}, SA: "occupation"},
			Method: "sampling", Params: model.Values{"sampling-rate": "0.9", "max-distortion": "0.6"}}, readRecordLevel("published.csv")},
		{"kja mondrian-refine universe", pipeline.Project{Input: filepath.Join(dir, "u", "mt.csv"), Public: filepath.Join(dir, "u", "pd.csv"),
			Roles:  model.Roles{IDs: []string{"id"}, QIs: []string{"age", "income", "sex"}, SA: "occupation"},
			Method: "kja", Variant: "mondrian-refine", Params: model.Values{"k": "10"}}, readKJA},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.p.Params["seed"] = "11"
			out := filepath.Join(t.TempDir(), "rel")
			res := exportProject(t, c.p, out)
			got := figuresOf(t, out)
			want := bruteForce(c.read(t, out))
			for key, w := range want {
				g, ok := got.Get(key)
				if !ok {
					t.Errorf("%s: no figure", key)
					continue
				}
				if math.Abs(g.Value-w) > 1e-9 {
					t.Errorf("%s = %v, the brute force gives %v", key, g.Value, w)
				}
			}
			// The preview measures the same (the release built in memory).
			live, _, err := pipeline.Risk(res, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range live.Figures {
				if g, _ := got.Get(f.Key); math.Abs(g.Value-f.Value) > 1e-9 && f.Key != risk.KeySuppressed && f.Key != risk.KeyDM {
					t.Errorf("%s: preview %v, files %v", f.Key, f.Value, g.Value)
				}
			}
		})
	}
}

// figuresOf reads a release with its method's viewer.
func figuresOf(t *testing.T, dir string) *risk.Report {
	t.Helper()
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	view, ok := catalog.Viewer(m.Method)
	if !ok {
		t.Fatalf("no viewer for %s", m.Method)
	}
	var rep *risk.Report
	_, err = verify.NewShared(dir).Check(verify.Options{}, func(string) (verify.Declared, bool) {
		return verify.Declared{Check: func(rel *verify.Release, _ verify.Options, _ *verify.Report) error {
			var err error
			rep, _, err = rel.Risk(view, 0)
			return err
		}}, true
	})
	if err != nil || rep == nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return rep
}

// bfRecord is a published record for the brute force: its QI cells and
// the distribution of its sensitive value as its class publishes it.
type bfRecord struct {
	cells  string
	belief map[string]float64
}

// bruteForce compares every record with every other.
func bruteForce(recs []bfRecord) map[string]float64 {
	n := len(recs)
	var values []string
	seen := map[string]bool{}
	for _, r := range recs {
		for v := range r.belief {
			if !seen[v] {
				seen[v] = true
				values = append(values, v)
			}
		}
	}
	numeric := true
	for _, v := range values {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
	}
	sort.Slice(values, func(i, j int) bool {
		if numeric {
			a, _ := strconv.ParseFloat(values[i], 64)
			b, _ := strconv.ParseFloat(values[j], 64)
			return a < b
		}
		return values[i] < values[j]
	})
	// Each record's class: the records with its cells; its belief the mean
	// of theirs.
	beliefs := make([][]float64, n)
	sizes := make([]int, n)
	overall := make([]float64, len(values))
	for i := range recs {
		b := make([]float64, len(values))
		for j := range recs {
			if recs[j].cells == recs[i].cells {
				sizes[i]++
				for k, v := range values {
					b[k] += recs[j].belief[v]
				}
			}
		}
		for k := range b {
			b[k] /= float64(sizes[i])
			overall[k] += b[k] / float64(n)
		}
		beliefs[i] = b
	}
	out := map[string]float64{risk.KeySmallest: math.Inf(1), risk.KeyUnique: 0, risk.KeyDistinctL: math.Inf(1), risk.KeyTopBelief: 0, risk.KeyTCloseness: 0}
	for i := range recs {
		out[risk.KeySmallest] = math.Min(out[risk.KeySmallest], float64(sizes[i]))
		if sizes[i] == 1 {
			out[risk.KeyUnique]++
		}
		distinct, top := 0.0, 0.0
		for _, p := range beliefs[i] {
			if p > 1e-12 {
				distinct++
			}
			top = math.Max(top, p)
		}
		out[risk.KeyDistinctL] = math.Min(out[risk.KeyDistinctL], distinct)
		out[risk.KeyTopBelief] = math.Max(out[risk.KeyTopBelief], top)
		out[risk.KeyTCloseness] = math.Max(out[risk.KeyTCloseness], moveMass(beliefs[i], overall, numeric))
	}
	out[risk.KeyProsMax] = 1 / out[risk.KeySmallest]
	return out
}

// moveMass is the Earth Mover's Distance by moving mass: surplus units
// travel to the nearest deficits in order (ordered distance |i-j|/(m-1))
// or at cost 1 each (equal distance).
func moveMass(p, q []float64, ordered bool) float64 {
	m := len(p)
	if m < 2 {
		return 0
	}
	if !ordered {
		var moved float64
		for i := range p {
			moved += math.Max(0, p[i]-q[i])
		}
		return moved
	}
	surplus := make([]float64, m)
	for i := range p {
		surplus[i] = p[i] - q[i]
	}
	var cost float64
	for i := 0; i < m; i++ {
		for j := 0; j < m && surplus[i] > 1e-15; j++ {
			if surplus[j] < -1e-15 {
				move := math.Min(surplus[i], -surplus[j])
				surplus[i] -= move
				surplus[j] += move
				cost += move * math.Abs(float64(i-j)) / float64(m-1)
			}
		}
	}
	return cost
}

// readRecordLevel: one row per record, QIs then the sensitive value.
func readRecordLevel(name string) func(t *testing.T, dir string) []bfRecord {
	return func(t *testing.T, dir string) []bfRecord {
		var out []bfRecord
		for _, r := range readCSV(t, filepath.Join(dir, name))[1:] {
			out = append(out, bfRecord{cells: strings.Join(r[:len(r)-1], "\x00"), belief: map[string]float64{r[len(r)-1]: 1}})
		}
		return out
	}
}

// readLossy: nss.csv rows with their class's values in ss.csv.
func readLossy(t *testing.T, dir string) []bfRecord {
	bags := map[string]map[string]float64{}
	sizes := map[string]float64{}
	for _, r := range readCSV(t, filepath.Join(dir, "ss.csv"))[1:] {
		if bags[r[0]] == nil {
			bags[r[0]] = map[string]float64{}
		}
		bags[r[0]][r[1]]++
		sizes[r[0]]++
	}
	var out []bfRecord
	for _, r := range readCSV(t, filepath.Join(dir, "nss.csv"))[1:] {
		c := r[len(r)-1]
		b := map[string]float64{}
		for v, n := range bags[c] {
			b[v] = n / sizes[c]
		}
		out = append(out, bfRecord{cells: strings.Join(r[:len(r)-1], "\x00"), belief: b})
	}
	return out
}

// readKJA: jat.csv boxes with their sensitive group's values in si.csv.
func readKJA(t *testing.T, dir string) []bfRecord {
	bags := map[string]map[string]float64{}
	sizes := map[string]float64{}
	for _, r := range readCSV(t, filepath.Join(dir, "si.csv"))[1:] {
		if bags[r[0]] == nil {
			bags[r[0]] = map[string]float64{}
		}
		bags[r[0]][r[1]]++
		sizes[r[0]]++
	}
	var out []bfRecord
	for _, r := range readCSV(t, filepath.Join(dir, "jat.csv"))[1:] {
		b := map[string]float64{}
		for v, n := range bags[r[1]] {
			b[v] = n / sizes[r[1]]
		}
		out = append(out, bfRecord{cells: strings.Join(r[2:], "\x00"), belief: b})
	}
	return out
}

// readDistribution: qi.csv rows; a group's belief is the target the
// weights of hierarchy.csv give (a child's share of its parent is its
// weight over its siblings'), or group_weights.csv's for per-group
// targets.
func readDistribution(t *testing.T, dir string) []bfRecord {
	h := readCSV(t, filepath.Join(dir, "hierarchy.csv"))[1:]
	weights := map[string]map[string]float64{"": {}}
	for _, r := range h {
		w, _ := strconv.ParseFloat(r[4], 64)
		weights[""][r[0]] = w
	}
	if _, err := os.Stat(filepath.Join(dir, "group_weights.csv")); err == nil {
		for _, r := range readCSV(t, filepath.Join(dir, "group_weights.csv"))[1:] {
			if weights[r[0]] == nil {
				weights[r[0]] = map[string]float64{}
			}
			w, _ := strconv.ParseFloat(r[2], 64)
			weights[r[0]][r[1]] = w
		}
	}
	target := func(group string) map[string]float64 {
		w := weights[group]
		if w == nil {
			w = weights[""]
		}
		out := map[string]float64{}
		var walk func(node string, mass float64)
		walk = func(node string, mass float64) {
			var kids []string
			var sum float64
			for _, r := range h {
				if r[1] == node {
					kids = append(kids, r[0])
					sum += w[r[0]]
				}
			}
			if len(kids) == 0 {
				for _, r := range h {
					if r[0] == node {
						out[r[2]] += mass
					}
				}
				return
			}
			for _, k := range kids {
				if w[k] > 0 {
					walk(k, mass*w[k]/sum)
				}
			}
		}
		for _, r := range h {
			if r[1] == "" {
				walk(r[0], 1)
			}
		}
		return out
	}
	cache := map[string]map[string]float64{}
	var out []bfRecord
	for _, r := range readCSV(t, filepath.Join(dir, "qi.csv"))[1:] {
		if cache[r[0]] == nil {
			cache[r[0]] = target(r[0])
		}
		out = append(out, bfRecord{cells: strings.Join(r[1:], "\x00"), belief: cache[r[0]]})
	}
	return out
}

// Figure 2 of Wang's paper written as a release by hand (the auxiliary
// tables and the sensitive table of Figure 2 (a)-(d)): the presence of the
// women's group is 4 / (3 x 1 x 3) = 4/9 (Pr(Alice in T), Section 1.1), its
// association with leukemia 2/4 = 1/2, the men's group's presence 4/12 =
// 1/3 (Pr(Alan in T)); the women's group holds three distinct values.
func TestRiskOfWangFigure2(t *testing.T) {
	table := func(name string, header []string, rows [][]string) releasedir.ReleaseFile {
		return releasedir.ReleaseFile{Name: name, Header: header, Rows: len(rows), Fill: func(i int, rec []string) { copy(rec, rows[i]) }}
	}
	rel := &releasedir.Release{
		Files: []releasedir.ReleaseFile{
			table("at_age.csv", []string{"age", "GroupID"}, [][]string{{"45", "1"}, {"20", "1"}, {"50", "1"}, {"60", "1"}, {"20", "2"}, {"50", "2"}, {"60", "2"}}),
			table("at_gender.csv", []string{"gender", "GroupID"}, [][]string{{"M", "1"}, {"F", "2"}}),
			table("at_zipcode.csv", []string{"zipcode", "GroupID"}, [][]string{{"11000", "1"}, {"12000", "1"}, {"23000", "1"}, {"54000", "2"}, {"23000", "2"}, {"21000", "2"}}),
			table("st.csv", []string{"GroupID", "disease", "Frequency"}, [][]string{
				{"1", "diabetes", "1"}, {"1", "flu", "1"}, {"1", "diarrhea", "1"}, {"1", "stroke", "1"},
				{"2", "leukemia", "2"}, {"2", "diabetes", "1"}, {"2", "dyspepsia", "1"}}),
		},
		Manifest: releasedir.Manifest{Method: "ambiguity", QIs: []string{"age", "gender", "zipcode"}, SA: "disease", RowsIn: 8, Published: 8,
			Details: verifytest.Details(t, map[string]any{
				"auxiliary_tables": []any{map[string]any{"qi": "age", "file": "at_age.csv"}, map[string]any{"qi": "gender", "file": "at_gender.csv"}, map[string]any{"qi": "zipcode", "file": "at_zipcode.csv"}},
				"sensitive_table":  "st.csv"})},
	}
	mem, err := verify.OpenMemory(rel)
	if err != nil {
		t.Fatal(err)
	}
	view, _ := catalog.Viewer("ambiguity")
	rep, v, err := mem.Risk(view, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{risk.KeyPresence: 4.0 / 9, risk.KeyTopBelief: 0.5, risk.KeyDistinctL: 3, risk.KeySmallest: 4, risk.KeyProsMax: 0.25, risk.KeyUnique: 0}
	for key, w := range want {
		if f, ok := rep.Get(key); !ok || math.Abs(f.Value-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", key, f.Value, w)
		}
	}
	if p := v.Regions[0].Presence; math.Abs(p-1.0/3) > 1e-12 {
		t.Errorf("the men's group: presence %v, want 1/3", p)
	}
	if _, ok := rep.Get(risk.KeyUniquePair); ok {
		t.Error("per-attribute tables publish no record-level pair of QIs")
	}
}
