package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/hierarchy"
)

func mustLookup(t testing.TB, name string) Dataset {
	t.Helper()
	d, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustLoad(t testing.TB, d Dataset, rows int, seed uint64) *model.Table {
	t.Helper()
	tab, err := d.Load(rows, seed)
	if err != nil {
		t.Fatalf("%s: Load(%d, %d): %v", d.Name, rows, seed, err)
	}
	return tab
}

func writeBytes(t testing.TB, d Dataset, rows int, seed uint64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := d.Write(&b, rows, seed); err != nil {
		t.Fatalf("%s: Write: %v", d.Name, err)
	}
	return b.Bytes()
}

func TestAllAndLookup(t *testing.T) {
	all := All()
	want := []string{"employees", "patients", "jobs", "kja-fig3", "kja-fig8", "kja-fig1", "kja-fig1-pd", "clinic", "clinic-population", "census", "capitalloss", "capitalloss-normal",
		"capitalloss-zipf", "capitalloss-corr", "universe", "universe-public"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	seenGenerator := false
	for _, d := range all {
		if d.Fixed && seenGenerator {
			t.Errorf("%s: fixed table listed after a generator", d.Name)
		}
		seenGenerator = seenGenerator || !d.Fixed
		if d.Title == "" || d.Source == "" || d.DefaultRows <= 0 || len(d.Columns) == 0 {
			t.Errorf("%s: incomplete description %+v", d.Name, d)
		}
		if len(d.Hierarchies) != len(d.Columns) {
			t.Errorf("%s: %d hierarchy specs for %d columns", d.Name, len(d.Hierarchies), len(d.Columns))
		}
		for _, c := range d.Columns {
			if _, ok := d.Hierarchies[c]; !ok {
				t.Errorf("%s: column %q has no default hierarchy", d.Name, c)
			}
		}
		got, err := Lookup("dataset:" + d.Name)
		if err != nil || got.Name != d.Name {
			t.Errorf("Lookup(dataset:%s) = %v, %v", d.Name, got.Name, err)
		}
	}
	_, err := Lookup("nosuch")
	if err == nil {
		t.Fatal("Lookup(nosuch) succeeded")
	}
	for _, n := range want {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %s", err, n)
		}
	}
}

func TestFixedTables(t *testing.T) {
	cases := []struct {
		name  string
		rows  int
		check map[int][]string // 0-based row -> every value of the row
	}{
		{"employees", 11, map[int][]string{
			0:  {"Alice", "91110", "F", "30000"},
			3:  {"Debra", "91130", "F", "60000"},
			10: {"Nancy", "91340", "F", "60000"},
		}},
		{"patients", 8, map[int][]string{
			0: {"Alan", "45", "M", "11000", "diabetes"},
			4: {"Alice", "20", "F", "54000", "leukemia"},
			7: {"Helen", "60", "F", "21000", "dyspepsia"},
		}},
		{"jobs", 6, map[int][]string{
			1: {"manager", "1955", "4350", "flu"},
			3: {"factory worker", "1955", "5432", "fever"},
			5: {"technical supporter", "1940", "4350", "fever"},
		}},
	}
	for _, tc := range cases {
		d := mustLookup(t, tc.name)
		if !d.Fixed || d.DefaultRows != tc.rows {
			t.Errorf("%s: Fixed=%v DefaultRows=%d", tc.name, d.Fixed, d.DefaultRows)
		}
		tab := mustLoad(t, d, 0, 0)
		if tab.Rows != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.name, tab.Rows, tc.rows)
		}
		if tab.Name != "dataset:"+tc.name {
			t.Errorf("%s: table name %q", tc.name, tab.Name)
		}
		if !slices.Equal(tab.Names(), d.Columns) {
			t.Errorf("%s: columns %v, want %v", tc.name, tab.Names(), d.Columns)
		}
		for r, want := range tc.check {
			for c, v := range want {
				if got := tab.Columns[c].Value(r); got != v {
					t.Errorf("%s row %d column %s = %q, want %q", tc.name, r+1, tab.Columns[c].Name, got, v)
				}
			}
		}
		if err := d.Roles.Validate(tab, true); err != nil {
			t.Errorf("%s: default roles: %v", tc.name, err)
		}
		// rows and seed are ignored.
		if !bytes.Equal(writeBytes(t, d, 0, 0), writeBytes(t, d, 1000, 99)) {
			t.Errorf("%s: output depends on rows/seed", tc.name)
		}
	}
	emp := mustLoad(t, mustLookup(t, "employees"), 0, 0)
	if c := emp.Column("salary"); c.Kind != model.Numeric || c.Distinct() != 4 {
		t.Errorf("employees salary: kind %v, %d distinct", c.Kind, c.Distinct())
	}
}

func TestGeneratorsDeterministic(t *testing.T) {
	for _, d := range All() {
		if d.Fixed {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			a := writeBytes(t, d, 700, 42)
			b := writeBytes(t, d, 700, 42)
			if !bytes.Equal(a, b) {
				t.Fatal("same (rows, seed) gave different output")
			}
			if bytes.Equal(a, writeBytes(t, d, 700, 43)) {
				t.Fatal("another seed gave the same output")
			}
			if !bytes.HasPrefix(a, []byte(strings.Join(d.Columns, ",")+"\n")) {
				t.Fatalf("header is not %v", d.Columns)
			}
			if n := bytes.Count(a, []byte("\n")); n != 701 {
				t.Fatalf("%d lines, want 701", n)
			}
			tab := mustLoad(t, d, 700, 42)
			if tab.Rows != 700 || tab.Name != "dataset:"+d.Name || !slices.Equal(tab.Names(), d.Columns) {
				t.Fatalf("loaded %d rows named %q with columns %v", tab.Rows, tab.Name, tab.Names())
			}
			if def := mustLoad(t, d, 0, 1); def.Rows != d.DefaultRows {
				t.Fatalf("rows=0 gave %d rows, want DefaultRows %d", def.Rows, d.DefaultRows)
			}
			// A public table (universe-public) has no sensitive attribute.
			if err := d.Roles.Validate(tab, d.Roles.SA != ""); err != nil {
				t.Fatalf("default roles: %v", err)
			}
			for _, c := range tab.Columns {
				if c.MissingCount > 0 {
					t.Errorf("column %s has %d missing values", c.Name, c.MissingCount)
				}
			}
		})
	}
}

func TestHierarchiesCoverEveryColumn(t *testing.T) {
	for _, d := range All() {
		tab := mustLoad(t, d, 3000, 5)
		for _, c := range tab.Columns {
			h, err := d.Hierarchy(c)
			if err != nil {
				t.Errorf("%s.%s: %v", d.Name, c.Name, err)
				continue
			}
			if _, err := h.MapColumn(c); err != nil {
				t.Errorf("%s.%s (%s): %v", d.Name, c.Name, d.Hierarchies[c.Name], err)
			}
			if h.Height() < 1 {
				t.Errorf("%s.%s: hierarchy of height %d", d.Name, c.Name, h.Height())
			}
		}
	}
}

func TestHierarchyErrors(t *testing.T) {
	d := mustLookup(t, "employees")
	tab := mustLoad(t, d, 0, 0)
	d.Hierarchies = map[string]string{"name": "/etc/passwd", "zipcode": "embedded:nosuch.csv"}
	if _, err := d.Hierarchy(tab.Column("name")); err == nil {
		t.Error("a file path spec was accepted")
	}
	if _, err := d.Hierarchy(tab.Column("zipcode")); err == nil {
		t.Error("a missing embedded file was accepted")
	}
	if _, err := d.Hierarchy(tab.Column("gender")); err == nil {
		t.Error("a column without spec was accepted")
	}
}

func TestEmployeesHierarchies(t *testing.T) {
	d := mustLookup(t, "employees")
	tab := mustLoad(t, d, 0, 0)
	zh, err := d.Hierarchy(tab.Column("zipcode"))
	if err != nil {
		t.Fatal(err)
	}
	leaf, ok := zh.Leaf("91110")
	if !ok {
		t.Fatal("91110 is not a leaf")
	}
	if got := zh.NodeLabel(zh.Ancestor(leaf, 1)); got != "9111*" {
		t.Errorf("91110 one level up = %q, want 9111*", got)
	}
	if got := zh.NodeLabel(zh.Ancestor(leaf, 2)); got != "911**" {
		t.Errorf("91110 two levels up = %q, want 911**", got)
	}
	sh, err := d.Hierarchy(tab.Column("salary"))
	if err != nil {
		t.Fatal(err)
	}
	if !sh.IsBinary() || len(sh.Leaves) != 4 || sh.Height() != 2 {
		t.Fatalf("salary hierarchy is not Figure 3:\n%s", sh)
	}
	var kids []string
	for _, c := range sh.Nodes[0].Children {
		lo, hi := sh.Bounds(c)
		kids = append(kids, lo+"-"+hi)
	}
	if !slices.Equal(kids, []string{"30000-40000", "50000-60000"}) {
		t.Errorf("salary root children %v, want [30000-40000 50000-60000]", kids)
	}
}

func TestPaperHierarchies(t *testing.T) {
	jd := mustLookup(t, "jobs")
	jt := mustLoad(t, jd, 0, 0)
	jh, err := jd.Hierarchy(jt.Column("job"))
	if err != nil {
		t.Fatal(err)
	}
	for v, parent := range map[string]string{"clerk": "white-collar", "manager": "white-collar",
		"factory worker": "blue-collar", "technical supporter": "blue-collar"} {
		n, ok := jh.Leaf(v)
		if !ok {
			t.Fatalf("job %q is not a leaf", v)
		}
		if got := jh.NodeLabel(jh.Ancestor(n, 1)); got != parent {
			t.Errorf("job %q parent %q, want %q", v, got, parent)
		}
		if got := jh.NodeLabel(jh.Ancestor(n, 2)); got != "*" {
			t.Errorf("job %q root %q", v, got)
		}
	}
	pd := mustLookup(t, "patients")
	pt := mustLoad(t, pd, 0, 0)
	ah, err := pd.Hierarchy(pt.Column("age"))
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := ah.Bounds(0); lo != "20" || hi != "60" {
		t.Errorf("patients age root covers [%s,%s], want [20,60] (Figure 1(b))", lo, hi)
	}
}

// shares counts the values of a column as fractions of the rows.
func shares(c *model.Column, rows int) map[string]float64 {
	out := map[string]float64{}
	for code, n := range c.Counts() {
		out[c.Dict[code]] = float64(n) / float64(rows)
	}
	return out
}

func compareShares(t *testing.T, what string, got map[string]float64, want map[string]int, tol float64) {
	t.Helper()
	total := 0
	for _, n := range want {
		total += n
	}
	for v, share := range got {
		if _, ok := want[v]; !ok {
			t.Errorf("%s: value %q (share %.3f) is not an Adult value", what, v, share)
		}
	}
	for v, n := range want {
		w := float64(n) / float64(total)
		if d := math.Abs(got[v] - w); d > tol {
			t.Errorf("%s = %q: share %.4f, Adult %.4f (off by %.1f points)", what, v, got[v], w, 100*d)
		}
	}
}

func TestCensusTablesConsistent(t *testing.T) {
	check := func(name string, counts []int, values []string) {
		t.Helper()
		m := adultMarginals[name]
		if len(counts) != len(values) || len(m) != len(values) {
			t.Fatalf("%s: %d counts, %d values, %d marginals", name, len(counts), len(values), len(m))
		}
		for i, v := range values {
			if counts[i] != m[v] {
				t.Errorf("%s = %s: tables count %d, marginal %d", name, v, counts[i], m[v])
			}
		}
		if sum(counts) != adultRows {
			t.Errorf("%s: counts sum to %d, want %d", name, sum(counts), adultRows)
		}
	}
	flat := func(t3 [][][]int) [][]int {
		var out [][]int
		for _, a := range t3 {
			out = append(out, a...)
		}
		return out
	}
	check("sex", sexCounts, sexValues)
	check("race", raceCounts, raceValues)
	check("marital-status", colSums(flat(maritalCounts)), maritalValues)
	check("relationship", colSums(flat(relationshipCounts)), relationshipValues)
	check("education", colSums(flat(educationCounts)), educationValues)
	check("occupation", colSums(flat(occupationCounts)), occupationValues)
	check("workclass", colSums(workclassCounts), workclassValues)
	check("native-country", colSums(countryCounts), countryValues)
	check("salary-class", colSums(flat(salaryCounts)), salaryValues)
	if n := sum(colSums(ageCounts)); n != adultRows {
		t.Errorf("ages sum to %d", n)
	}
	if n := sum(hoursCounts); n != adultRows {
		t.Errorf("hours sum to %d", n)
	}
	if n := sum(capitalLossZero) + sum(colSums(capitalLossCounts)); n != adultRows {
		t.Errorf("capital-loss sums to %d", n)
	}
	if n := sum(colSums(capitalLossCounts)); n != 1427 || len(capitalLossValues) != 89 {
		t.Errorf("%d non-zero capital-loss rows over %d values, want 1427 over 89 (Koudas et al. 2009, Section 6)",
			n, len(capitalLossValues))
	}
}

// Every value the census generator can emit is a leaf of its embedded hierarchy.
func TestCensusEmbeddedHierarchiesCoverDomain(t *testing.T) {
	d := mustLookup(t, "census")
	domains := map[string][]string{
		"workclass": workclassValues, "education": educationValues, "marital-status": maritalValues,
		"occupation": occupationValues, "native-country": countryValues,
	}
	for col, spec := range d.Hierarchies {
		file, ok := strings.CutPrefix(spec, "embedded:")
		if !ok {
			continue
		}
		values, ok := domains[col]
		if !ok {
			t.Fatalf("no domain list for embedded hierarchy of %s", col)
		}
		text, err := EmbeddedHierarchy(file)
		if err != nil {
			t.Fatal(err)
		}
		h, err := hierarchy.Parse(col, file, bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if _, ok := h.Leaf(v); !ok {
				t.Errorf("%s: %q is not in %s", col, v, file)
			}
		}
		if h.Height() < 2 {
			t.Errorf("%s: hierarchy has height %d, want intermediate levels", col, h.Height())
		}
	}
}

const censusSample = 20000

func TestCensusMarginals(t *testing.T) {
	tab := mustLoad(t, mustLookup(t, "census"), censusSample, 2024)
	for col, want := range adultMarginals {
		compareShares(t, col, shares(tab.Column(col), tab.Rows), want, 0.02)
	}
	checkCensusNumeric(t, tab)
}

// checkCensusNumeric checks ranges, the share of zero capital-loss and a few
// correlations that the conditional tables carry.
func checkCensusNumeric(t *testing.T, tab *model.Table) {
	t.Helper()
	for col, lim := range map[string][2]float64{"age": {17, 90}, "hours-per-week": {1, 99}, "capital-loss": {0, 4356}} {
		c := tab.Column(col)
		lo, hi, ok := c.Range()
		if !ok || lo < lim[0] || hi > lim[1] {
			t.Errorf("%s: range [%v,%v] outside %v (numeric %v)", col, lo, hi, lim, ok)
		}
	}
	loss := tab.Column("capital-loss")
	zero := 0
	for r := 0; r < tab.Rows; r++ {
		if loss.Num(r) == 0 {
			zero++
		}
	}
	if f := float64(zero) / float64(tab.Rows); f < 0.94 || f > 0.965 {
		t.Errorf("capital-loss is 0 in %.3f of rows, Adult has 0.953", f)
	}
	// Correlations: rich by education, husbands are men, men work longer.
	edu, sal, sex, rel, hrs := tab.Column("education"), tab.Column("salary-class"), tab.Column("sex"),
		tab.Column("relationship"), tab.Column("hours-per-week")
	var hiEdu, hiEduRich, loEdu, loEduRich, husbandsF int
	var hMale, hFemale, nMale, nFemale float64
	for r := 0; r < tab.Rows; r++ {
		rich := sal.Value(r) == ">50K"
		switch edu.Value(r) {
		case "Bachelors", "Masters", "Prof-school", "Doctorate":
			hiEdu++
			if rich {
				hiEduRich++
			}
		case "HS-grad", "11th", "10th", "9th", "7th-8th":
			loEdu++
			if rich {
				loEduRich++
			}
		}
		if sex.Value(r) == "Female" {
			if rel.Value(r) == "Husband" {
				husbandsF++
			}
			hFemale += hrs.Num(r)
			nFemale++
		} else {
			hMale += hrs.Num(r)
			nMale++
		}
	}
	if pHi, pLo := float64(hiEduRich)/float64(hiEdu), float64(loEduRich)/float64(loEdu); pHi < 2*pLo {
		t.Errorf("P(>50K | degree) = %.2f not well above P(>50K | school) = %.2f", pHi, pLo)
	}
	if husbandsF > tab.Rows/1000 {
		t.Errorf("%d female husbands", husbandsF)
	}
	if mm, mf := hMale/nMale, hFemale/nFemale; mm < mf+3 {
		t.Errorf("mean hours men %.1f, women %.1f: want men clearly higher as in Adult", mm, mf)
	}
}

func TestCensusAgainstAdultFile(t *testing.T) {
	adultPath, err := SharedFile("adult-uci", "adult.data")
	if err != nil {
		t.Skip("the raw UCI Adult file: ", err)
	}
	f, err := os.Open(adultPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Columns of adult.data (see its README) -> census column.
	cols := map[int]string{1: "workclass", 3: "education", 5: "marital-status", 6: "occupation",
		7: "relationship", 8: "race", 9: "sex", 13: "native-country", 14: "salary-class"}
	counts := map[string]map[string]int{}
	for _, c := range cols {
		counts[c] = map[string]int{}
	}
	rows, zeroLoss := 0, 0
	var ageSum float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.Contains(line, "?") {
			continue
		}
		fields := strings.Split(line, ", ")
		if len(fields) != 15 {
			t.Fatalf("adult.data line with %d fields: %q", len(fields), line)
		}
		rows++
		for i, c := range cols {
			counts[c][fields[i]]++
		}
		if fields[11] == "0" {
			zeroLoss++
		}
		age, _ := strconv.Atoi(fields[0])
		ageSum += float64(age)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != adultRows {
		t.Fatalf("adult.data has %d rows without '?', tables were counted on %d", rows, adultRows)
	}
	// The hard-coded marginals are exactly the file's.
	for c, want := range counts {
		for v, n := range want {
			if adultMarginals[c][v] != n {
				t.Errorf("%s = %s: hard-coded %d, adult.data %d", c, v, adultMarginals[c][v], n)
			}
		}
	}
	tab := mustLoad(t, mustLookup(t, "census"), censusSample, 77)
	for c, want := range counts {
		compareShares(t, c+" vs adult.data", shares(tab.Column(c), tab.Rows), want, 0.02)
	}
	var genAge float64
	genZero := 0
	age, loss := tab.Column("age"), tab.Column("capital-loss")
	for r := 0; r < tab.Rows; r++ {
		genAge += age.Num(r)
		if loss.Num(r) == 0 {
			genZero++
		}
	}
	if d := genAge/float64(tab.Rows) - ageSum/float64(rows); math.Abs(d) > 0.5 {
		t.Errorf("mean age differs from adult.data by %.2f years", d)
	}
	if d := float64(genZero)/float64(tab.Rows) - float64(zeroLoss)/float64(rows); math.Abs(d) > 0.01 {
		t.Errorf("zero capital-loss share differs from adult.data by %.3f", d)
	}
}

func TestCapitalLossFamily(t *testing.T) {
	const n = 20000
	stats := func(name string) (tab *model.Table, mean, sd, lowerHalf float64, meanYoung, meanOld float64) {
		tab = mustLoad(t, mustLookup(t, name), n, 3)
		age, loss := tab.Column("age"), tab.Column("capital-loss")
		if lo, hi, _ := age.Range(); lo < 17 || hi > 79 || age.Distinct() != 63 {
			t.Errorf("%s: age range [%v,%v], %d distinct, want 17..79", name, lo, hi, age.Distinct())
		}
		if lo, hi, _ := loss.Range(); lo < 1024 || hi > 3072 {
			t.Errorf("%s: capital-loss range [%v,%v], want within [1024,3072]", name, lo, hi)
		}
		var s, s2, young, old, ny, no float64
		for r := 0; r < tab.Rows; r++ {
			v := loss.Num(r)
			s += v
			s2 += v * v
			if v < 2048 {
				lowerHalf++
			}
			if a := age.Num(r); a < 30 {
				young += v
				ny++
			} else if a >= 67 {
				old += v
				no++
			}
		}
		mean = s / n
		return tab, mean, math.Sqrt(s2/n - mean*mean), lowerHalf / n, young / ny, old / no
	}
	_, mean, sd, _, my, mo := stats("capitalloss")
	if math.Abs(mean-2048) > 20 || math.Abs(sd-591) > 15 || math.Abs(my-mo) > 40 {
		t.Errorf("uniform: mean %.0f sd %.0f (want 2048, 591), young %.0f old %.0f", mean, sd, my, mo)
	}
	_, mean, sd, _, my, mo = stats("capitalloss-normal")
	if math.Abs(mean-2048) > 15 || math.Abs(sd-2048.0/6) > 15 || math.Abs(my-mo) > 30 {
		t.Errorf("normal: mean %.0f sd %.0f (want 2048, 341), young %.0f old %.0f", mean, sd, my, mo)
	}
	_, _, _, lower, _, _ := stats("capitalloss-zipf")
	// Zipf s=0.1 over 2049 ranks puts about 0.5^0.9 = 0.536 of the mass on the lower half.
	if lower < 0.525 || lower > 0.55 {
		t.Errorf("zipf: %.3f of values below 2048, want about 0.536", lower)
	}
	_, _, _, _, my, mo = stats("capitalloss-corr")
	if mo-my < 800 {
		t.Errorf("corr: mean capital-loss %.0f under 30 and %.0f from 67: want a strong positive correlation", my, mo)
	}
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

func sortedByID(recs [][]string) bool {
	return slices.IsSortedFunc(recs[1:], func(a, b []string) int {
		x, _ := strconv.Atoi(a[0])
		y, _ := strconv.Atoi(b[0])
		return x - y
	})
}

func TestWriteUniverse(t *testing.T) {
	const rows, ratio, seed = 2000, 2.5, 7
	dir := t.TempDir()
	if err := WriteUniverse(dir, rows, ratio, seed); err != nil {
		t.Fatal(err)
	}
	mt := readCSV(t, filepath.Join(dir, "mt.csv"))
	pd := readCSV(t, filepath.Join(dir, "pd.csv"))
	if !slices.Equal(mt[0], universeColumns) {
		t.Errorf("mt.csv header %v", mt[0])
	}
	if want := append([]string{"id"}, universeQIs...); !slices.Equal(pd[0], want) {
		t.Errorf("pd.csv header %v, want %v", pd[0], want)
	}
	if len(mt)-1 != rows || len(pd)-1 != int(math.Round(rows*ratio)) {
		t.Fatalf("mt %d rows, pd %d rows; want %d and %d", len(mt)-1, len(pd)-1, rows, int(math.Round(rows*ratio)))
	}
	pdByID := map[string][]string{}
	for _, r := range pd[1:] {
		if _, dup := pdByID[r[0]]; dup {
			t.Fatalf("pd.csv id %s twice", r[0])
		}
		pdByID[r[0]] = r
	}
	for _, r := range mt[1:] {
		p, ok := pdByID[r[0]]
		if !ok {
			t.Fatalf("MT id %s is not in PD", r[0])
		}
		if !slices.Equal(p, r[:7]) {
			t.Fatalf("MT %v and PD %v differ on the QIs", r, p)
		}
	}
	if sortedByID(mt) || sortedByID(pd) {
		t.Error("a file is sorted by id, not shuffled")
	}
	// Nor in generation order (person i has id personID(seed, i)).
	inOrder := func(recs [][]string) bool {
		for i, r := range recs[1:11] {
			if r[0] != strconv.FormatUint(personID(seed, i), 10) {
				return false
			}
		}
		return true
	}
	if inOrder(mt) || inOrder(pd) {
		t.Error("a file is in generation order, not shuffled")
	}
	// mt.csv is the universe dataset's Write output.
	mtBytes, _ := os.ReadFile(filepath.Join(dir, "mt.csv"))
	if !bytes.Equal(mtBytes, writeBytes(t, mustLookup(t, "universe"), rows, seed)) {
		t.Error("mt.csv differs from Write(rows, seed)")
	}
	// Deterministic by seed.
	dir2, dir3 := t.TempDir(), t.TempDir()
	if err := WriteUniverse(dir2, rows, ratio, seed); err != nil {
		t.Fatal(err)
	}
	if err := WriteUniverse(dir3, rows, ratio, seed+1); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"mt.csv", "pd.csv"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		c, _ := os.ReadFile(filepath.Join(dir3, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs for the same seed", f)
		}
		if bytes.Equal(a, c) {
			t.Errorf("%s is the same for another seed", f)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d entries, want mt.csv and pd.csv only", len(entries))
	}
	// ratio 1: PD is MT without the SA.
	one := t.TempDir()
	if err := WriteUniverse(one, 300, 1, 3); err != nil {
		t.Fatal(err)
	}
	if m, p := readCSV(t, filepath.Join(one, "mt.csv")), readCSV(t, filepath.Join(one, "pd.csv")); len(m) != 301 || len(p) != 301 {
		t.Errorf("ratio 1: %d and %d lines", len(m), len(p))
	}
	for _, bad := range []struct {
		rows  int
		ratio float64
	}{{0, 2}, {-5, 2}, {100, 0.99}, {100, 0}, {100, math.NaN()}, {1 << 20, 2000}} {
		if err := WriteUniverse(t.TempDir(), bad.rows, bad.ratio, 1); err == nil {
			t.Errorf("WriteUniverse(rows %d, ratio %v) succeeded", bad.rows, bad.ratio)
		}
	}
}

func TestUniverseRanges(t *testing.T) {
	d := mustLookup(t, "universe")
	tab := mustLoad(t, d, 20000, 11)
	for col, lim := range map[string][2]float64{"age": {0, 93}, "income": {0, 1000000}, "family-size": {1, 21},
		"education-years": {0, 17}, "rent": {0, 2500}, "sex": {1, 2}} {
		c := tab.Column(col)
		lo, hi, ok := c.Range()
		if !ok || lo < lim[0] || hi > lim[1] {
			t.Errorf("%s: range [%v,%v], want within %v", col, lo, hi, lim)
		}
		if c.Distinct() < 2 {
			t.Errorf("%s: constant", col)
		}
	}
	if n := tab.Column("occupation").Distinct(); n != len(occupationClasses) {
		t.Errorf("occupation: %d distinct values, want %d", n, len(occupationClasses))
	}
	if n := tab.Column("id").Distinct(); n != tab.Rows {
		t.Errorf("%d distinct ids in %d rows", n, tab.Rows)
	}
	// Skew: median income well below mean, most rents 0.
	inc, rent := tab.Column("income"), tab.Column("rent")
	var incomes []float64
	zeroRent := 0
	for r := 0; r < tab.Rows; r++ {
		if v := inc.Num(r); v > 0 {
			incomes = append(incomes, v)
		}
		if rent.Num(r) == 0 {
			zeroRent++
		}
	}
	slices.Sort(incomes)
	var s float64
	for _, v := range incomes {
		s += v
	}
	if med, mean := incomes[len(incomes)/2], s/float64(len(incomes)); mean < 1.2*med {
		t.Errorf("income not right-skewed: median %.0f, mean %.0f", med, mean)
	}
	if f := float64(zeroRent) / float64(tab.Rows); f < 0.5 || f > 0.8 {
		t.Errorf("rent is 0 in %.2f of rows", f)
	}
}

func TestLoadErrors(t *testing.T) {
	boom := errors.New("boom")
	d := Dataset{Name: "broken", Columns: []string{"a", "b"}, DefaultRows: 10,
		gen: func(w *bufio.Writer, rows int, seed uint64) error {
			w.WriteString("1,2\n")
			return boom
		}}
	if _, err := d.Load(0, 1); !errors.Is(err, boom) {
		t.Errorf("generator error not returned: %v", err)
	}
	// The loader stops early on a ragged row while the writer still has
	// plenty to write: Load must return the loader's error, not hang.
	d.gen = func(w *bufio.Writer, rows int, seed uint64) error {
		w.WriteString("1,2,3\n")
		for i := 0; i < 1<<20; i++ {
			if _, err := w.WriteString("1,2\n"); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := d.Load(0, 1)
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.Line != 2 || ie.File != "dataset:broken" {
		t.Errorf("ragged row: got %v", err)
	}
}

// BenchmarkCensusLoad1M generates and loads 1,000,000 census rows.
func BenchmarkCensusLoad1M(b *testing.B) {
	d := mustLookup(b, "census")
	b.ReportAllocs()
	for b.Loop() {
		tab, err := d.Load(1_000_000, 1)
		if err != nil || tab.Rows != 1_000_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkCensusWrite1M generates 1,000,000 census rows as CSV text only.
func BenchmarkCensusWrite1M(b *testing.B) {
	d := mustLookup(b, "census")
	for b.Loop() {
		if err := d.Write(io.Discard, 1_000_000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUniverse1M writes a universe of 1,000,000 MT and 2,000,000 PD rows.
func BenchmarkUniverse1M(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		if err := WriteUniverse(dir, 1_000_000, 2, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPaperExampleTables: the worked-example tables added for the tours
// (issue 24): their sizes, rows the papers print, and the marginals
// clinic-population is built to have (Sattar et al., Section 3:
// Pr(age 20-30) = 0.15, Pr(female) = 0.5, Pr(diabetes) = 0.05).
func TestPaperExampleTables(t *testing.T) {
	cases := []struct {
		name string
		rows int
		row  int
		want []string
	}{
		{"kja-fig3", 13, 2, []string{"C", "6", "6", "v3"}},
		{"kja-fig8", 13, 12, []string{"Z", "11", "7.2"}},
		{"kja-fig1", 7, 6, []string{"G", "4", "6", "v3", "g2"}},
		{"kja-fig1-pd", 12, 6, []string{"G1", "4", "6"}},
		{"clinic", 4, 0, []string{"Alice", "22", "F", "5095", "Cancer"}},
		{"clinic-population", 20, 0, []string{"Ann", "24", "F", "diabetes"}},
	}
	for _, c := range cases {
		d := mustLookup(t, c.name)
		tab := mustLoad(t, d, 0, 0)
		if !d.Fixed || tab.Rows != c.rows || d.DefaultRows != c.rows {
			t.Errorf("%s: fixed %v, %d rows (default %d), want %d", c.name, d.Fixed, tab.Rows, d.DefaultRows, c.rows)
			continue
		}
		for i, v := range c.want {
			if got := tab.Columns[i].Value(c.row); got != v {
				t.Errorf("%s row %d column %s = %q, want %q", c.name, c.row+1, tab.Columns[i].Name, got, v)
			}
		}
		if err := d.Roles.Validate(tab, d.Roles.SA != ""); err != nil {
			t.Errorf("%s: default roles: %v", c.name, err)
		}
	}
	pop := mustLoad(t, mustLookup(t, "clinic-population"), 0, 0)
	young, female, diabetes := 0, 0, 0
	for r := 0; r < pop.Rows; r++ {
		if a := pop.Column("age").Nums[pop.Column("age").Codes[r]]; a >= 20 && a < 30 {
			young++
		}
		if pop.Column("sex").Value(r) == "F" {
			female++
		}
		if pop.Column("disease").Value(r) == "diabetes" {
			diabetes++
		}
	}
	if young*20 != 3*pop.Rows || female*2 != pop.Rows || diabetes*20 != pop.Rows {
		t.Fatalf("clinic-population marginals: %d, %d, %d of %d; want 0.15, 0.5, 0.05", young, female, diabetes, pop.Rows)
	}
}
