package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// Each named check alone, on the hand-written release of Koudas et al.
// 2009, Figure 2 with Figure 3's uniform weights (testdata/figure2):
// it passes on the genuine release and fails on the smallest vt.Tamper of
// what it checks.

// release opens testdata/NAME after the vt.Tamper, as the checks read it
// (verify.Open: no hash is checked, so no vt.Tamper needs to restate one).
func openTampered(t *testing.T, name string, tp vt.Tamper, opt verify.Options) *release {
	t.Helper()
	dir := tp.Copy(t, filepath.Join("testdata", name))
	rel, err := verify.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := open(rel, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func genuine(t *testing.T) *release { return openTampered(t, "figure2", vt.Tamper{}, verify.Options{}) }

func withOriginal(t *testing.T, name string, tp vt.Tamper, employees string) *release {
	t.Helper()
	orig, err := csvfile.Load(strings.NewReader(employees), csvfile.LoadOptions{Name: "employees.csv"})
	if err != nil {
		t.Fatal(err)
	}
	return openTampered(t, name, tp, verify.Options{Original: orig})
}

func employeesText(t *testing.T) string {
	b, err := os.ReadFile("testdata/employees.csv")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCheckQIColumns(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), qiColumns, "ok   columns: qi.csv holds GroupID and the 2 quasi-identifiers only (no identifier, no sensitive value)")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"qi.csv": vt.Replace(t, "GroupID,zipcode,gender", "GroupID,gender,zipcode")}}, verify.Options{})
	vt.Want(t, c, qiColumns, "FAIL columns: qi.csv holds GroupID and the 2 quasi-identifiers only (no identifier, no sensitive value)")
}

func TestCheckSAColumns(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), saColumns, "ok   sa columns: sa.csv holds GroupID, Low, High only")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa.csv": vt.Replace(t, "GroupID,Low,High", "GroupID,Low,Top")}}, verify.Options{})
	vt.Want(t, c, saColumns, "FAIL sa columns: sa.csv holds GroupID, Low, High only")
}

func TestCheckSADomain(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), saDomain, "ok   sa domain: sa_domain.csv lists the 4 values of salary, hierarchy.csv's leaves in order")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa_domain.csv": vt.Replace(t, "30000\n40000", "40000\n30000")}}, verify.Options{})
	vt.Want(t, c, saDomain, "FAIL sa domain: sa_domain.csv lists the 4 values of salary, hierarchy.csv's leaves in order")
	c = openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa_domain.csv": vt.Replace(t, "salary", "wage")}}, verify.Options{})
	vt.Want(t, c, saDomain, "FAIL names: sa_domain.csv has columns wage; the manifest implies salary")
}

func TestCheckHierarchy(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), hierarchyLine, "ok   hierarchy: 7 nodes over 4 values; children tile their parent")
	// A tree whose children do not tile their parent is not read.
	dir := t.TempDir()
	for _, f := range []string{"manifest.json", "qi.csv", "sa.csv", "sa_domain.csv", "hierarchy.csv"} {
		b, _ := os.ReadFile(filepath.Join("testdata/figure2", f))
		if f == "hierarchy.csv" {
			b = []byte(strings.Replace(string(b), "1,0,30000,40000,1", "1,0,30000,45000,1", 1))
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	rel, err := verify.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(rel, verify.Options{}); err == nil || !strings.Contains(err.Error(), "hierarchy.csv: the children of some node do not tile its Low..High range") {
		t.Errorf("got %v", err)
	}
}

func TestCheckSubdomains(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), subdomainsKnown, "ok   subdomains: every sa.csv row names a group of qi.csv and a node of hierarchy.csv (0 unknown groups, 0 unknown subdomains)")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa.csv": vt.Replace(t, "1,60000,60000", "9,60000,60000")}}, verify.Options{})
	vt.Want(t, c, subdomainsKnown, "FAIL subdomains: every sa.csv row names a group of qi.csv and a node of hierarchy.csv (1 unknown groups, 0 unknown subdomains)")
	c = openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa.csv": vt.Replace(t, "1,60000,60000", "1,50000,65000")}}, verify.Options{})
	vt.Want(t, c, subdomainsKnown, "FAIL subdomains: every sa.csv row names a group of qi.csv and a node of hierarchy.csv (0 unknown groups, 1 unknown subdomains)")
}

// Group 1 publishes {60}, {30}, {40}, {50}: each value's posterior is
// 1/4, the uniform target's. With {50} for {60}, 50's is 1/2 and 60's 0.
func TestCheckPosteriorPrivacy(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), posteriorPrivacy, "ok   P'-privacy: in all 3 groups every value's posterior equals the effective target (Definition 3.2; max deviation 0)")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa.csv": vt.Replace(t, "1,60000,60000", "1,50000,50000")}}, verify.Options{})
	vt.Want(t, c, posteriorPrivacy, "FAIL P'-privacy: group 1: posterior deviates from the target by 0.25 (Definition 3.2)")
}

// Weights 0 on {50..60} and {30} make 40 certain in every group.
func TestCheckDisclosure(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), disclosure, "ok   disclosure: no group's target gives one value probability 1 (0 groups do)")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{
		"hierarchy.csv": func(s string) string {
			return vt.Replace(t, "2,1,30000,30000,1", "2,1,30000,30000,0")(vt.Replace(t, "4,0,50000,60000,1", "4,0,50000,60000,0")(s))
		}}}, verify.Options{})
	vt.Want(t, c, disclosure, "FAIL disclosure: no group's target gives one value probability 1 (3 groups do)")
}

func TestCheckTuplesCovered(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), tuplesCovered, "ok   tuples covered: every group has at least one subdomain per published tuple (0 groups short)")
	c := openTampered(t, "figure2", vt.Tamper{Files: map[string]func(string) string{"sa.csv": vt.Replace(t, "1,60000,60000\n", "")}}, verify.Options{})
	vt.Want(t, c, tuplesCovered, "FAIL tuples covered: every group has at least one subdomain per published tuple (1 groups short)")
}

func TestCheckFakeBudget(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), fakeBudget, "ok   fake budget: 0 fake values in all, every group within the budget 0 (0 groups over)")
	extra := vt.Tamper{Files: map[string]func(string) string{"sa.csv": vt.Replace(t, "1,60000,60000\n", "1,60000,60000\n1,30000,60000\n")}}
	vt.Want(t, openTampered(t, "figure2", extra, verify.Options{}), fakeBudget,
		"FAIL fake budget: 1 fake values in all, every group within the budget 0 (1 groups over)")
	// A budget of 25% allows one fake in a group of 4 (Section 6.2).
	extra.Manifest = func(m map[string]any) { m["parameters"].(map[string]any)["fakes"] = "25%" }
	vt.Want(t, openTampered(t, "figure2", extra, verify.Options{}), fakeBudget,
		"ok   fake budget: 1 fake values in all, every group within the budget 25% (0 groups over)")
}

func TestCheckSameTuples(t *testing.T) {
	t.Parallel()
	emp := employeesText(t)
	vt.Want(t, withOriginal(t, "figure2", vt.Tamper{}, emp), sameTuples, "ok   tuples: the quasi-identifier tuples of qi.csv are exactly the original's (0 QI combinations differ in count)")
	// Leo moved to another zipcode: his tuple and the one he left differ.
	c := withOriginal(t, "figure2", vt.Tamper{}, strings.Replace(emp, "Leo,91330,M", "Leo,91331,M", 1))
	vt.Want(t, c, sameTuples, "FAIL tuples: the quasi-identifier tuples of qi.csv are exactly the original's (2 QI combinations differ in count)")
}

// Without the audit record the files pin the rows when every QI tuple
// lies in one group (no line); a tuple in two groups cannot be pinned.
// The audit record pins them, or fails when it does not fit.
func TestCheckPinning(t *testing.T) {
	t.Parallel()
	emp := employeesText(t)
	vt.Want(t, withOriginal(t, "figure2", vt.Tamper{}, emp), pinning)
	// Bob and Carol share 91110,M: one of them moved to group 2.
	moved := vt.Tamper{Files: map[string]func(string) string{"qi.csv": vt.Replace(t, "1,91110,M\n3,91340,F", "2,91110,M\n3,91340,F")}}
	vt.Want(t, withOriginal(t, "figure2", moved, emp), pinning,
		"FAIL pinning: undetermined: 1 QI combinations of qi.csv lie in more than one group, so the files do not say which original row is which; check with the audit record written beside the release")
	orig, _ := csvfile.Load(strings.NewReader(emp), csvfile.LoadOptions{})
	// qi.csv's rows are Grace, Bob, Nancy, Debra, Jason, Elaine, Alice,
	// Leo, Helen, Kyle, Carol (input rows 5, 1, 10, 3, 7, 4, 0, 9, 6, 8, 2).
	rows := []int{5, 1, 10, 3, 7, 4, 0, 9, 6, 8, 2}
	c := openTampered(t, "figure2", vt.Tamper{}, verify.Options{Original: orig, Audit: &releasedir.Audit{RowMap: map[string][]int{"qi.csv": rows}}})
	vt.Want(t, c, pinning, "ok   audit: the audit record pins every row of qi.csv to an input row with the same QI values")
	rows = []int{5, 1, 10, 3, 7, 4, 0, 9, 6, 2, 8} // Kyle and Carol swapped
	c = openTampered(t, "figure2", vt.Tamper{}, verify.Options{Original: orig, Audit: &releasedir.Audit{RowMap: map[string][]int{"qi.csv": rows}}})
	vt.Want(t, c, pinning, "FAIL audit: the audit record's row map does not fit this original and qi.csv")
}

// figure2-group gives group 3 its own target (40K: 1/4, 60K: 3/4): with
// Kyle's 60K as 50K, his value is impossible there and no subdomain of
// group 3 holds it.
func TestCheckSupportAndGeneralization(t *testing.T) {
	t.Parallel()
	emp := employeesText(t)
	c := withOriginal(t, "figure2-group", vt.Tamper{}, emp)
	vt.Want(t, c, support, "ok   support: every original value has positive probability under its group's target (0 do not)")
	vt.Want(t, c, generalization, "ok   generalization: every original value maps to a distinct subdomain of its group that contains it (Definition 3.1; 11 values)")
	c = withOriginal(t, "figure2-group", vt.Tamper{}, strings.Replace(emp, "Kyle,91320,M,60000", "Kyle,91320,M,50000", 1))
	vt.Want(t, c, support, "FAIL support: every original value has positive probability under its group's target (1 do not)")
	vt.Want(t, c, generalization, "FAIL generalization: only 10 of 11 original values can be mapped into their groups' subdomains (Definition 3.1)")
	// A value the hierarchy does not hold stops the comparison.
	c = withOriginal(t, "figure2", vt.Tamper{}, strings.Replace(emp, "Kyle,91320,M,60000", "Kyle,91320,M,70000", 1))
	vt.Want(t, c, support, `FAIL generalization: original value "70000" of salary is not in hierarchy.csv`)
	vt.Want(t, c, generalization)
}

func TestCheckShuffled(t *testing.T) {
	t.Parallel()
	emp := employeesText(t)
	vt.Want(t, withOriginal(t, "figure2", vt.Tamper{}, emp), shuffled, "ok   shuffled: qi.csv rows are not in the input's order")
	vt.Want(t, withOriginal(t, "figure2-inorder", vt.Tamper{}, emp), shuffled, "FAIL shuffled: qi.csv rows are in the input's order")
}

func TestCheckClaims(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), claims, "ok   claims: the 5 figures the manifest states agree with the files; unconfirmed without the original: rows_in, dropped_columns")
	c := openTampered(t, "figure2", vt.Tamper{Manifest: func(m map[string]any) { m["groups"] = 4 }}, verify.Options{})
	vt.Want(t, c, claims, "FAIL claim groups: the manifest states 4, the files give 3")
}

// detailsEdit edits the manifest's details.
func detailsEdit(edit func(d map[string]any)) vt.Tamper {
	return vt.Tamper{Manifest: func(m map[string]any) { edit(m["details"].(map[string]any)) }}
}

func TestCheckDetailParameters(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), detailParameters)
	c := openTampered(t, "figure2", detailsEdit(func(d map[string]any) { d["target"] = "zipf:1" }), verify.Options{})
	vt.Want(t, c, detailParameters, `FAIL claim parameters.target: the manifest states "uniform", the files give "zipf:1"`)
	c = openTampered(t, "figure2", detailsEdit(func(d map[string]any) { d["k_guaranteed"] = 100 }), verify.Options{})
	if got := vt.Lines(t, c, detailParameters); len(got) != 1 || !strings.HasPrefix(got[0], `FAIL claim details: the manifest's details do not read: details: unknown key "k_guaranteed"`) {
		t.Errorf("got %q", got)
	}
	vt.Want(t, c, detailCounts) // nothing more is read from details that do not read
}

func TestCheckDetailCounts(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), detailCounts)
	c := openTampered(t, "figure2", detailsEdit(func(d map[string]any) { d["sa_rows"] = 12; d["domain"] = []string{"30000", "40000", "50000"} }), verify.Options{})
	vt.Want(t, c, detailCounts,
		`FAIL claim details.domain: the manifest states "30000|40000|50000", the files give "30000|40000|50000|60000"`,
		"FAIL claim details.sa_rows: the manifest states 12, the files give 11")
}

func TestCheckPerGroupTarget(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), perGroupTarget)
	vt.Want(t, openTampered(t, "figure2-group", vt.Tamper{}, verify.Options{}), perGroupTarget)
	c := openTampered(t, "figure2", detailsEdit(func(d map[string]any) { d["per_group_target"] = true }), verify.Options{})
	vt.Want(t, c, perGroupTarget, "FAIL claim details.per_group_target: the manifest states true, the release has no group_weights.csv")
}

// Node 1's children weigh 2 and 2 (the same shares, so the same target):
// within a bound of 8, beyond a bound of 1 in each of the 3 groups.
func TestCheckMaxDenominator(t *testing.T) {
	t.Parallel()
	heavier := map[string]func(string) string{"hierarchy.csv": func(s string) string {
		return vt.Replace(t, "2,1,30000,30000,1", "2,1,30000,30000,2")(vt.Replace(t, "3,1,40000,40000,1", "3,1,40000,40000,2")(s))
	}}
	vt.Want(t, openTampered(t, "figure2", vt.Tamper{Files: heavier}, verify.Options{}), maxDenominator)
	c := openTampered(t, "figure2", vt.Tamper{Files: heavier, Manifest: func(m map[string]any) { m["details"].(map[string]any)["max_denominator"] = 1 }}, verify.Options{})
	vt.Want(t, c, maxDenominator, "FAIL claim max-denominator: 6 weights exceed the stated bound 1")
}

func TestCheckEffectiveTarget(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), effectiveTarget)
	c := openTampered(t, "figure2", detailsEdit(func(d map[string]any) { d["effective_target"] = []float64{0.4, 0.1, 0.25, 0.25} }), verify.Options{})
	vt.Want(t, c, effectiveTarget, "FAIL claim details.effective_target: value 30000: the manifest states 0.4, hierarchy.csv gives 0.25")
}

func TestCheckRequestedTarget(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), requestedTarget)
	c := openTampered(t, "figure2", detailsEdit(func(d map[string]any) { d["effective_vs_requested_emd"] = 0.1 }), verify.Options{})
	vt.Want(t, c, requestedTarget, "FAIL claim details.effective_vs_requested_emd: the manifest states 0.1, the files give 0")
	// zipf:1 over 4 values is 12/25, 6/25, 4/25, 3/25: the uniform
	// weights are 0.23 from it at most (EMD (0.23 + 0.22 + 0.13) / 3), not
	// the exact weights (0) stated.
	c = openTampered(t, "figure2", detailsEdit(func(d map[string]any) {
		d["target"], d["max_denominator"], d["effective_vs_requested_emd"], d["effective_vs_requested_max_abs"] = "zipf:1", 0, 0.58/3, 0.23
	}), verify.Options{})
	vt.Want(t, c, requestedTarget, "FAIL claim max-denominator: the manifest states exact weights (0), but the effective target is 0.2300000000000001 from the requested one")
}

func TestCheckGroupFigures(t *testing.T) {
	t.Parallel()
	fig := func(name string, lo, mean, hi float64) map[string]any {
		return map[string]any{"figure": name, "min": lo, "mean": mean, "max": hi}
	}
	right := detailsEdit(func(d map[string]any) {
		d["group_figures"] = []any{fig("fakes", 0, 0, 0), fig("max P'(v)", 0.25, 0.25, 0.25)}
	})
	vt.Want(t, openTampered(t, "figure2", right, verify.Options{}), groupFigures)
	wrong := detailsEdit(func(d map[string]any) { d["group_figures"] = []any{fig("fakes", 0, 0, 3), fig("k", 1, 1, 1)} })
	vt.Want(t, openTampered(t, "figure2", wrong, verify.Options{}), groupFigures,
		"FAIL claim details.group_figures.fakes.max: the manifest states 3, the files give 0",
		`FAIL claim details.group_figures: the manifest states a per-group figure "k" the files cannot confirm`)
}

// Figure 2's groups are the zipcodes' first three digits (level 2 of
// the zipcode hierarchy): no zipcode lies in two groups. They are not
// one group (sa-only), nor one zipcode per group (column), nor groups
// of identical tuples (qi-sa).
func TestCheckGrouping(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), grouping)
	as := func(g string) vt.Tamper {
		return vt.Tamper{Manifest: func(m map[string]any) {
			m["details"].(map[string]any)["grouping"] = g
			m["parameters"].(map[string]any)["grouping"] = g
		}}
	}
	for g, line := range map[string]string{
		"sa-only":        "the groups are not a sa-only grouping: 3 groups",
		"column:zipcode": "the groups are not a column:zipcode grouping: a group holds 3 values of zipcode",
		"qi-sa":          "the groups are not a qi-sa grouping: a group holds several QI tuples",
		"mondrian:4":     "the groups are not a mondrian:4 grouping: a group of 3",
		"level:gender=1": "the groups are not a level:gender=1 grouping: gender = F lies in two groups",
	} {
		vt.Want(t, openTampered(t, "figure2", as(g), verify.Options{}), grouping, "FAIL claim parameters.grouping: "+line)
	}
	vt.Want(t, openTampered(t, "figure2", as("mondrian:3"), verify.Options{}), grouping)
}

// pairedFiles are a qi.csv and an sa.csv of 200 tuples in 4 groups, the
// sa.csv row i of the tuple at qi.csv row i when paired, else rotated
// by 7 rows (groups agree at no position).
func pairedFiles(paired bool) vt.Tamper {
	var qi, sa strings.Builder
	qi.WriteString("GroupID,zipcode,gender\n")
	sa.WriteString("GroupID,Low,High\n")
	const n = 200
	for i := range n {
		fmt.Fprintf(&qi, "%d,91110,M\n", 1+i%4)
		g := 1 + i%4
		if !paired {
			g = 1 + (i+7)%4
		}
		fmt.Fprintf(&sa, "%d,30000,60000\n", g)
	}
	return vt.Tamper{Files: map[string]func(string) string{
		"qi.csv": func(string) string { return qi.String() },
		"sa.csv": func(string) string { return sa.String() },
	}}
}

// An sa.csv written in qi.csv's row order gives each tuple its own
// subdomain (Koudas et al. 2009, Section 2: the permutation breaks that
// association): from the files alone, groups that agree row by row far
// beyond independent shuffles fail.
func TestCheckRowPairing(t *testing.T) {
	t.Parallel()
	vt.Want(t, genuine(t), rowPairing) // only a failing line is added
	vt.Want(t, openTampered(t, "figure2", pairedFiles(false), verify.Options{}), rowPairing)
	vt.Want(t, openTampered(t, "figure2", pairedFiles(true), verify.Options{}), rowPairing,
		"FAIL row pairing: row i of sa.csv has the GroupID of row i of qi.csv at 200 of 200 positions; independent shuffles give 50.0, standard deviation 6.1, and more than 96.9 pairs the tables by position")
}
