package tour

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// attackRow finds an attack's row in a step's attack table
// (method.AttackSection): measured, bound, verdict, reached.
func attackRow(t *testing.T, sec method.Section, attack string) []string {
	t.Helper()
	for _, r := range sec.Rows {
		if r[0] == attack {
			return r[1:]
		}
	}
	t.Fatalf("%s: no %s row in %v", sec.Title, attack, sec.Rows)
	return nil
}

// wantRow asserts an attack's row.
func wantRow(t *testing.T, sec method.Section, attack string, want ...string) {
	t.Helper()
	if got := attackRow(t, sec, attack); strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("%s: %s is %q, want %q", sec.Title, attack, got, want)
	}
}

// lastStep is a tour's last step, which must be its attack.
func lastStep(t *testing.T, name string) (string, method.Step, []method.Step) {
	t.Helper()
	out, steps := printed(t, name)
	st := steps[len(steps)-1]
	if !strings.HasPrefix(st.Title, "The attack it defends against") || len(st.Sections) == 0 {
		t.Fatalf("%s: the last step is %q", name, st.Title)
	}
	return out, st, steps
}

func load(t *testing.T, name string) *model.Table {
	t.Helper()
	tab, err := env.LoadTable(pipeline.Project{Input: "dataset:" + name})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// unique counts the rows whose values of cols no other row shares (brute
// force: a release that publishes them exactly re-identifies these).
func unique(tab *model.Table, cols ...string) int {
	n := map[string]int{}
	key := func(r int) string {
		var k []string
		for _, c := range cols {
			k = append(k, tab.Column(c).Value(r))
		}
		return strings.Join(k, "\x00")
	}
	for r := 0; r < tab.Rows; r++ {
		n[key(r)]++
	}
	u := 0
	for r := 0; r < tab.Rows; r++ {
		if n[key(r)] == 1 {
			u++
		}
	}
	return u
}

// TestDistributionTourAttack: on Figure 2's release, attribute inference
// reaches the uniform target's 1/4 (Definition 3.2), a bound that is the
// release's own P' and so bounds nothing (not bounded); linkage
// re-identifies every employee whose zip code and gender are unique in
// Figure 1 (counted by brute force: 9 of 11), unbounded.
func TestDistributionTourAttack(t *testing.T) {
	t.Parallel()
	out, st, _ := lastStep(t, "distribution")
	sec := st.Sections[0]
	wantRow(t, sec, "attribute inference", "1/4", "1/4", "not bounded", "0")
	wantRow(t, sec, "re-identification by linkage", "1", "none", "not bounded", fmt.Sprint(unique(load(t, "employees"), "zipcode", "gender")))
	wantRow(t, sec, "membership", "—", "none", "not run", "—")
	expect(t, out, "Attribute inference measured 1/4 against the bound 1/4, which bounds nothing", "9 records of 11 match exactly one person")
}

// box is a published box [x0, x1] x [y0, y1].
type box [4]float64

// parseBox reads "[-2, 4] x [2, 4]".
func parseBox(t *testing.T, s string) box {
	t.Helper()
	var b box
	if _, err := fmt.Sscanf(strings.ReplaceAll(s, ",", ""), "[%g %g] x [%g %g]", &b[0], &b[1], &b[2], &b[3]); err != nil {
		t.Fatalf("box %q: %v", s, err)
	}
	return b
}

// breach is the journalist's largest breach probability by brute force:
// 1 / the fewest people of MT and PD (one person per name) inside a box.
func breach(t *testing.T, sec method.Section, people map[string][2]float64) float64 {
	fewest := math.MaxInt
	for _, r := range sec.Rows {
		b := parseBox(t, r[2])
		n := 0
		for _, p := range people {
			if p[0] >= b[0] && p[0] <= b[1] && p[1] >= b[2] && p[1] <= b[3] {
				n++
			}
		}
		fewest = min(fewest, n)
	}
	return 1 / float64(fewest)
}

// TestKJATourAttack: the journalist with PD links Figure 2's AT and
// Figure 5's JAT; the breach probability equals, by brute force over the
// boxes of steps 3 and 4 and the people of MT and PD, 1/7 on AT and 1/3
// on JAT (Theorem 2: at most 1/k = 1/3); attribute inference is not
// bounded.
func TestKJATourAttack(t *testing.T) {
	t.Parallel()
	_, st, steps := lastStep(t, "kja")
	people := map[string][2]float64{}
	for _, name := range []string{"kja-fig1", "kja-fig1-pd"} {
		tab := load(t, name)
		for r := 0; r < tab.Rows; r++ {
			x, _ := strconv.ParseFloat(tab.Column("QI1").Value(r), 64)
			y, _ := strconv.ParseFloat(tab.Column("QI2").Value(r), 64)
			people[tab.Column("name").Value(r)] = [2]float64{x, y}
		}
	}
	at, jat := breach(t, steps[2].Sections[0], people), breach(t, steps[3].Sections[0], people)
	if method.Ratio(at) != "1/7" || method.Ratio(jat) != "1/3" {
		t.Fatalf("brute force: AT %s, JAT %s", method.Ratio(at), method.Ratio(jat))
	}
	wantRow(t, st.Sections[0], "re-identification by linkage", method.Ratio(at), "1/3", "holds", "0")
	wantRow(t, st.Sections[1], "re-identification by linkage", method.Ratio(jat), "1/3", "holds", "0")
	wantRow(t, st.Sections[1], "attribute inference", "1/2", "none", "not bounded", "0")
}

// TestLossyJoinTourAttack: on Tables 5 and 6, attribute inference
// reaches alpha = 1/2, the largest share of one illness in a class of
// Table 4 (brute force over step 3's classes), and holds; every record's
// quasi-identifiers are unique in Table 1, so linkage finds all 6.
func TestLossyJoinTourAttack(t *testing.T) {
	t.Parallel()
	_, st, steps := lastStep(t, "lossyjoin")
	count, size := map[[2]string]int{}, map[string]int{}
	for _, r := range steps[2].Sections[0].Rows {
		count[[2]string{r[4], r[3]}]++
		size[r[4]]++
	}
	top := 0.0
	for k, n := range count {
		top = math.Max(top, float64(n)/float64(size[k[0]]))
	}
	wantRow(t, st.Sections[0], "attribute inference", method.Ratio(top), "1/2", "holds", "0")
	wantRow(t, st.Sections[0], "re-identification by linkage", "1", "none", "not bounded", fmt.Sprint(unique(load(t, "jobs"), "job", "birth", "postcode")))
	if top != 0.5 {
		t.Errorf("Table 4's largest share of an illness is %v, want alpha = 0.5", top)
	}
}

// TestSamplingTourAttack: attribute inference is measured at the
// published record of step 5 whose observed confidence comes closest to
// its expected one (Eq. 3), and holds; Eq. 3 redone under the
// population's own marginals (Section 3's) finds no record over its cap.
func TestSamplingTourAttack(t *testing.T) {
	t.Parallel()
	_, st, steps := lastStep(t, "sampling")
	margin, obs, exp := math.Inf(1), 0.0, 0.0
	for _, r := range steps[4].Sections[0].Rows {
		if r[6] == "suppressed" {
			continue
		}
		o, _ := strconv.ParseFloat(r[7], 64)
		e, _ := strconv.ParseFloat(r[8], 64)
		if e-o < margin {
			margin, obs, exp = e-o, o, e
		}
	}
	row := attackRow(t, st.Sections[0], "attribute inference")
	measured, bound := ratioValue(t, row[0]), ratioValue(t, row[1])
	if math.Abs(measured-obs) > 5e-4 || math.Abs(bound-exp) > 5e-4 || row[2] != "holds" {
		t.Errorf("inference %q; step 5's tightest record: observed %.3f, expected %.3f", row, obs, exp)
	}
	eq3 := attackRow(t, st.Sections[0], "Eq. 3 under other marginals")
	if v := ratioValue(t, eq3[0]); v > 0 || eq3[1] != "0" || eq3[2] != "holds" || eq3[3] != "0" {
		t.Errorf("Eq. 3 under the population's marginals: %q", eq3)
	}
}

// ratioValue reads a figure as method.Ratio writes it.
func ratioValue(t *testing.T, s string) float64 {
	t.Helper()
	if p, q, ok := strings.Cut(s, "/"); ok {
		a, _ := strconv.ParseFloat(p, 64)
		b, _ := strconv.ParseFloat(q, 64)
		return a / b
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("figure %q", s)
	}
	return x
}

// TestAmbiguityTourAttack: membership against Theorem 5.1's attacker
// (every combination of a group's values a person) reaches the largest
// |G| / (distinct ages x distinct zip codes) of a gender, counted from
// Figure 1(a) by brute force: 4/9, below alpha. Against the patients
// themselves, each gender's 4 records cover exactly its 4 patients:
// presence 1 for all 8, the bound broken.
func TestAmbiguityTourAttack(t *testing.T) {
	t.Parallel()
	out, st, _ := lastStep(t, "ambiguity")
	tab := load(t, "patients")
	ages, zips, size := map[string]map[string]bool{}, map[string]map[string]bool{}, map[string]int{}
	for r := 0; r < tab.Rows; r++ {
		g := tab.Column("gender").Value(r)
		if ages[g] == nil {
			ages[g], zips[g] = map[string]bool{}, map[string]bool{}
		}
		ages[g][tab.Column("age").Value(r)] = true
		zips[g][tab.Column("zipcode").Value(r)] = true
		size[g]++
	}
	top, combos, covered := 0.0, 0, 0
	for g := range size {
		n := len(ages[g]) * len(zips[g])
		combos += n
		top = math.Max(top, float64(size[g])/float64(n))
		for r := 0; r < tab.Rows; r++ { // the patients inside the group's values
			if tab.Column("gender").Value(r) == g && ages[g][tab.Column("age").Value(r)] && zips[g][tab.Column("zipcode").Value(r)] {
				covered++
			}
		}
	}
	if combos != 21 || method.Ratio(top) != "4/9" || covered != tab.Rows {
		t.Fatalf("brute force: %d combinations, presence %v, %d patients covered", combos, top, covered)
	}
	wantRow(t, st.Sections[0], "membership", method.Ratio(top), "1/2", "holds", "0")
	wantRow(t, st.Sections[1], "membership", "1", "1/2", "broken", fmt.Sprint(tab.Rows))
	wantRow(t, st.Sections[1], "attribute inference", "1/2", "1/2", "holds", "0")
	expect(t, out, "any of the 21 combinations", "presence 1/3 in group 1, 4/9 in group 2",
		"membership measured 1 against the bound 1/2: broken (8 people of 8 covered certainly in the data")
}
