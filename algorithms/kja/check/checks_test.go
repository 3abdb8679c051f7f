package check

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// Each named check alone, on two hand-written releases: testdata/plain
// (Mondrian, plain k-anonymity, k = 2: eight microdata tuples of
// testdata/mt.csv in four boxes of two, each its own sensitive group) and
// testdata/direct (Direct, k = 2: two microdata tuples of
// testdata/direct-mt.csv, each in a box with a public tuple of
// testdata/direct-pd.csv that no identifier joins, one sensitive group).
// Each check passes on the genuine release and fails on the smallest
// tamper of what it checks.

func details(f func(d map[string]any)) vt.Tamper {
	return vt.Tamper{Manifest: func(m map[string]any) { f(m["details"].(map[string]any)) }}
}

// openTampered opens testdata/NAME after the tamper, as the checks read
// it (verify.Open: no hash is checked, so no tamper restates one).
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

// table reads testdata/NAME, after replacing old by new in it.
func table(t *testing.T, name string, replace ...string) *model.Table {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer(replace...).Replace(string(b))
	tab, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func plain(t *testing.T, tp vt.Tamper) *release {
	return openTampered(t, "plain", tp, verify.Options{})
}

// plainWith opens testdata/plain with the original (and the audit
// record's row maps, when given: jat.csv's, si.csv's).
func plainWith(t *testing.T, tp vt.Tamper, orig *model.Table, maps ...[]int) *release {
	opt := verify.Options{Original: orig}
	if len(maps) > 0 {
		opt.Audit = &releasedir.Audit{RowMap: map[string][]int{"jat.csv": maps[0]}}
		if len(maps) > 1 {
			opt.Audit.RowMap["si.csv"] = maps[1]
		}
	}
	return openTampered(t, "plain", tp, opt)
}

// The audit record of testdata/plain: the input row of every row of
// jat.csv and si.csv.
var (
	jatRows = []int{2, 0, 7, 4, 1, 3, 5, 6}
	siRows8 = []int{3, 0, 4, 7, 1, 2, 6, 5}
)

func direct(t *testing.T, tp vt.Tamper, withPublic bool) *release {
	opt := verify.Options{Original: table(t, "direct-mt.csv")}
	if withPublic {
		opt.Public = table(t, "direct-pd.csv")
	}
	return openTampered(t, "direct", tp, opt)
}

func TestCheckColumns(t *testing.T) {
	t.Parallel()
	vt.Want(t, plain(t, vt.Tamper{}), columns, "ok   columns: jat.csv holds GroupID, SG and a range per quasi-identifier; si.csv holds SG and disease only")
	c := plain(t, vt.File("jat.csv", vt.Replace(t, "age_min", "agemin")))
	vt.Want(t, c, columns, "FAIL names: jat.csv has columns GroupID,SG,agemin,age_max,sex_min,sex_max; the manifest implies GroupID,SG,age_min,age_max,sex_min,sex_max")
	if err := columns(c, &verify.Report{}); !errors.Is(err, verify.ErrStop) {
		t.Errorf("a header that does not bind the names does not stop the checks: %v", err)
	}
}

func TestCheckVariant(t *testing.T) {
	t.Parallel()
	vt.Want(t, plain(t, vt.Tamper{}), variant, `ok   variant: variant "mondrian" is one of k-join-anonymity's`)
	vt.Want(t, plain(t, vt.Tamper{Manifest: func(m map[string]any) { m["variant"] = "mondrian-fast" }}), variant,
		`FAIL variant: variant "mondrian-fast" is one of k-join-anonymity's`)
	vt.Want(t, plain(t, details(func(d map[string]any) { d["k_algorithm"] = "topdown" })), variant,
		`ok   variant: variant "mondrian" is one of k-join-anonymity's`,
		`FAIL claim details.k_algorithm: the manifest states "topdown", the files give "mondrian"`)
}

func TestCheckParameters(t *testing.T) {
	t.Parallel()
	vt.Want(t, plain(t, vt.Tamper{}), parameterK, `ok   parameter k: k = "2" is an integer >= 2`)
	vt.Want(t, plain(t, vt.Tamper{}), parameterSplit)
	params := func(k, v string) vt.Tamper {
		return vt.Tamper{Manifest: func(m map[string]any) { m["parameters"].(map[string]any)[k] = v }}
	}
	vt.Want(t, plain(t, params("k", "1")), parameterK, `FAIL parameter k: k = "1" is an integer >= 2`)
	vt.Want(t, plain(t, params("split", "median")), parameterSplit, `FAIL parameter split: split = "median" is neither widest nor round-robin`)
}

func TestCheckNCPDomain(t *testing.T) {
	t.Parallel()
	vt.Want(t, direct(t, vt.Tamper{}, false), ncpDomain,
		`ok   NCP domain: details.ncp_domain = "JT": numeric extents span JT (microdata and public tuples), or MT for plain k-anonymity without a public table`)
	vt.Want(t, direct(t, details(func(d map[string]any) { d["ncp_domain"] = "MT" }), false), ncpDomain,
		`FAIL NCP domain: details.ncp_domain = "MT": numeric extents span JT (microdata and public tuples), or MT for plain k-anonymity without a public table`)
}

func TestCheckBoxes(t *testing.T) {
	t.Parallel()
	c := plain(t, vt.Tamper{})
	vt.Want(t, c, boxesConsistent, "ok   boxes: every row of a box gives the same ranges and sensitive group (0 boxes differ)")
	vt.Want(t, c, boxesInDomain, "ok   domain: every box is a range inside the stated domain of each quasi-identifier (0 are not)")
	vt.Want(t, plain(t, vt.File("jat.csv", vt.Replace(t, "1,1,20,25,F,F\n2,2", "1,1,20,24,F,F\n2,2"))), boxesConsistent,
		"FAIL boxes: every row of a box gives the same ranges and sensitive group (1 boxes differ)")
	vt.Want(t, plain(t, vt.File("jat.csv", strings.NewReplacer("4,4,50,55,M,M", "4,4,50,56,M,M").Replace)), boxesInDomain,
		"FAIL domain: every box is a range inside the stated domain of each quasi-identifier (1 are not)")
}

func TestCheckKJoinAnonymity(t *testing.T) {
	t.Parallel()
	vt.Want(t, plain(t, vt.Tamper{}), kJoinAnonymity,
		"ok   k-join-anonymity: every one of 4 boxes holds at least k = 2 JT tuples, recounted from jat.csv (smallest 2; breach probability <= 1/2, Theorem 2)")
	vt.Want(t, plain(t, vt.File("jat.csv", vt.Replace(t, "4,4,50,55,M,M\n3,3", "2,2,30,35,M,M\n3,3"))), kJoinAnonymity,
		"FAIL k-join-anonymity: every one of 4 boxes holds at least k = 2 JT tuples, recounted from jat.csv (smallest 1; breach probability <= 1/1, Theorem 2)")
	vt.Want(t, direct(t, vt.Tamper{}, false), kJoinAnonymity,
		"ok   k-join-anonymity: every one of 2 boxes has at least k = 2 rows in jat.csv (smallest 2); they are k distinct people, "+
			"and the breach probability at most 1/2 (Theorem 2), once the public rows are recounted against JT (the original and the public table)")
}

func TestCheckSensitiveGroups(t *testing.T) {
	t.Parallel()
	c := plain(t, vt.Tamper{})
	vt.Want(t, c, groupsKnown, "ok   sensitive groups: every si.csv row names a sensitive group of jat.csv (0 do not)")
	vt.Want(t, c, groupCounts, "ok   group counts: every sensitive group has at least one sensitive value per box and no more than its JT tuples (0 short, 0 over)")
	vt.Want(t, c, groupShape, "ok   group shape: under k-anonymity every sensitive group is one box whose every tuple is a microdata tuple (0 are not)")
	vt.Want(t, c, groupSize, "ok   sensitive group size: every sensitive group holds at least k = 2 microdata tuples in si.csv, so its sensitive values are as hidden as in a k-anonymous table (Section 3.2: SI comes from a k-anonymous grouping of MT) (smallest 2; 0 hold fewer)")
	vt.Want(t, plain(t, vt.File("si.csv", vt.Replace(t, "3,flu", "5,flu"))), groupsKnown,
		"FAIL sensitive groups: every si.csv row names a sensitive group of jat.csv (1 do not)")
	one := plain(t, vt.File("si.csv", vt.Replace(t, "3,flu\n", "")))
	vt.Want(t, one, groupShape, "FAIL group shape: under k-anonymity every sensitive group is one box whose every tuple is a microdata tuple (1 are not)")
	vt.Want(t, one, groupSize, "FAIL sensitive group size: every sensitive group holds at least k = 2 microdata tuples in si.csv, so its sensitive values are as hidden as in a k-anonymous table (Section 3.2: SI comes from a k-anonymous grouping of MT) (smallest 1; 1 hold fewer)")
	vt.Want(t, plain(t, vt.File("si.csv", vt.Replace(t, "3,flu", "3,flu\n3,hiv"))), groupCounts,
		"FAIL group counts: every sensitive group has at least one sensitive value per box and no more than its JT tuples (0 short, 1 over)")
	vt.Want(t, direct(t, vt.Tamper{}, false), groupShape) // Direct merges boxes
}

func TestCheckDetailClaims(t *testing.T) {
	t.Parallel()
	all := []string{"ok   join columns: the columns that joined the tables are dropped columns (identifiers); plain k-anonymity names them only when a public table set its NCP domain",
		"ok   claims: the 7 figures the manifest states agree with the files"}
	vt.Want(t, plain(t, vt.Tamper{}), detailClaims, all...)
	vt.Want(t, plain(t, details(func(d map[string]any) { d["boxes"] = 5 })), detailClaims,
		"FAIL claim details.boxes: the manifest states 5, the files give 4", all[0])
	vt.Want(t, direct(t, details(func(d map[string]any) { d["join_columns"] = []string{"sex"} }), false), detailClaims,
		"FAIL join columns: the columns that joined the tables are dropped columns (identifiers); plain k-anonymity names them only when a public table set its NCP domain",
		"ok   claims: the 6 figures the manifest states agree with the files")
}

func TestCheckInputsFit(t *testing.T) {
	t.Parallel()
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv")), inputsFit)
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv", "5,40,F", "5,40,X")), inputsFit,
		`FAIL domain: original row 6 has sex = "X", outside the domain the manifest states`)
	vt.Want(t, direct(t, details(func(d map[string]any) { d["join_columns"] = []string{"name"} }), true), inputsFit,
		"FAIL join: the release says MT and PD were joined on name, which is not a column of both tables")
}

func TestCheckSensitiveValues(t *testing.T) {
	t.Parallel()
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv")), sensitiveValues, "ok   sensitive values: si.csv holds exactly the 8 sensitive values of the microdata (0 values differ in count)")
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv", "1,20,F,flu", "1,20,F,hiv")), sensitiveValues,
		"FAIL sensitive values: si.csv holds exactly the 8 sensitive values of the microdata (2 values differ in count)")
}

func TestCheckNormaliser(t *testing.T) {
	t.Parallel()
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv")), normaliser, "ok   NCP normaliser: every numeric quasi-identifier's domain is the microdata's extent, recomputed (0 are not)")
	wide := details(func(d map[string]any) { d["domain"].([]any)[0].(map[string]any)["high"] = 60 })
	vt.Want(t, plainWith(t, wide, table(t, "mt.csv")), normaliser,
		"FAIL claim details.domain.age.high: the manifest states 60, the files give 55",
		"FAIL NCP normaliser: every numeric quasi-identifier's domain is the microdata's extent, recomputed (1 are not)")
	vt.Want(t, direct(t, vt.Tamper{}, true), normaliser, "ok   NCP normaliser: every numeric quasi-identifier's domain is JT's extent (microdata and public tuples), recomputed (0 are not)")
	vt.Want(t, direct(t, vt.Tamper{}, false), normaliser,
		"ok   NCP normaliser unconfirmed: the stated domain is JT's (microdata and public tuples), which only the public table can confirm; it covers the microdata (0 QIs do not)")
}

// Without the audit record a plain box's rows are its microdata tuples,
// found by the box that contains each, a matching placing those in
// several (issue 31.7); a tuple in no box, one no placement can take,
// and a box with a row no tuple gives fail; a placement that breaks a
// check another might pass is unconfirmed.
func TestCheckContained(t *testing.T) {
	t.Parallel()
	c := plainWith(t, vt.Tamper{}, table(t, "mt.csv"))
	vt.Want(t, c, containedCoverage, "ok   coverage: every one of the 8 microdata tuples lies inside a box (0 do not)")
	vt.Want(t, c, containedPinning)
	vt.Want(t, c, tuples, "ok   tuples: every box's rows are its microdata tuples (0 boxes are not)")
	vt.Want(t, c, mbb, "ok   MBB: every face of every box is touched by a tuple inside it (0 boxes are not tight)")
	vt.Want(t, c, auditFits)
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv", "2,25,F", "2,27,F")), containedCoverage,
		"FAIL coverage: every one of the 8 microdata tuples lies inside a box (1 do not)")
	overlap := vt.File("jat.csv", strings.NewReplacer("1,1,20,25,F,F", "1,1,20,30,F,M").Replace)
	pinning := func(c *release) []string {
		r := &verify.Report{}
		containedPinning(c, r)
		return append(r.Strings(), r.Unproven...)
	}
	// Tuple 3 (30,M,flu) lies in boxes 1 and 2: only box 2 wants flu, and
	// box 1's faces 30 and M are then touched by no member: another
	// placement might be faithful, none is here (unconfirmed).
	want := []string{"pinning: 1 microdata tuples lie in more than one box, so the files do not say which box holds them, and the placement a matching found " +
		"leaves 1 boxes with a face none of their members touches; check with the audit record written beside the release"}
	if got := pinning(plainWith(t, overlap, table(t, "mt.csv"))); !slices.Equal(got, want) {
		t.Errorf("overlap: %q", got)
	}
	// No box of tuple 3 lists cancer: no placement gives the groups their values.
	want = []string{"FAIL pinning: no placement of the 1 microdata tuples that lie in more than one box gives every sensitive group the values si.csv lists (Section 3.2)"}
	if got := pinning(plainWith(t, overlap, table(t, "mt.csv", "30,M,flu", "30,M,cancer"))); !slices.Equal(got, want) {
		t.Errorf("overlap, a value no group lists: %q", got)
	}
	// Tuples 1 and 3 both at (30,M,flu), in boxes 1 (25-30, F-M) and 2:
	// one each gives every group its values and both boxes tight.
	twice := vt.File("jat.csv", strings.NewReplacer("1,1,20,25,F,F", "1,1,25,30,F,M").Replace)
	c = plainWith(t, twice, table(t, "mt.csv", "1,20,F,flu", "1,30,M,flu"))
	want = []string{"ok   pinning: the 2 microdata tuples that lie in more than one box are placed by a matching that gives every sensitive group its values " +
		"and passes every check below (the files do not say which box holds them: figures that depend on it are unconfirmed)"}
	if got := pinning(c); !slices.Equal(got, want) {
		t.Errorf("two tuples at one point: %q", got)
	}
	vt.Want(t, c, tuples, "ok   tuples: every box's rows are its microdata tuples (0 boxes are not)")
	vt.Want(t, c, mbb, "ok   MBB: every face of every box is touched by a tuple inside it (0 boxes are not tight)")
	vt.Want(t, plainWith(t, vt.Tamper{}, table(t, "mt.csv", "8,55,M,cold\n", "")), tuples,
		"FAIL tuples: every box's rows are its microdata tuples (1 boxes are not)")
	loose := vt.Tamper{Files: map[string]func(string) string{"jat.csv": strings.NewReplacer("1,1,20,25,F,F", "1,1,19,25,F,F").Replace},
		Manifest: func(m map[string]any) {
			m["details"].(map[string]any)["domain"].([]any)[0].(map[string]any)["low"] = 19
		}}
	vt.Want(t, plainWith(t, loose, table(t, "mt.csv")), mbb, "FAIL MBB: every face of every box is touched by a tuple inside it (1 boxes are not tight)")
}

// With the audit record every row of jat.csv is pinned to its tuple.
func TestCheckPinned(t *testing.T) {
	t.Parallel()
	orig := table(t, "mt.csv")
	c := plainWith(t, vt.Tamper{}, orig, jatRows, siRows8)
	vt.Want(t, c, auditFits, "ok   audit: the audit record pins every jat.csv row to a microdata or public tuple")
	vt.Want(t, c, tuples, "ok   tuples: every jat.csv row is a distinct tuple of the join table (0 are not)")
	vt.Want(t, c, pinnedCoverage, "ok   coverage: every one of the 8 microdata tuples is published in exactly one box (0 are not)")
	vt.Want(t, c, inside, "ok   inside: every tuple lies inside its box (0 do not)")
	vt.Want(t, c, mbb, "ok   MBB: every box is the minimum bounding box of its members (0 are not; Section 4)")
	vt.Want(t, c, jatShuffled, "ok   shuffled: jat.csv rows are not in the input's order")
	vt.Want(t, c, containedCoverage)
	vt.Want(t, plainWith(t, vt.Tamper{}, orig, jatRows[:7]), auditFits, "FAIL audit: the audit record's row map does not fit jat.csv")
	twice := []int{2, 0, 7, 4, 1, 3, 5, 5} // input row 6 left out, 5 twice
	c = plainWith(t, vt.Tamper{}, orig, twice)
	vt.Want(t, c, tuples, "FAIL tuples: every jat.csv row is a distinct tuple of the join table (1 are not)")
	vt.Want(t, c, pinnedCoverage, "FAIL coverage: every one of the 8 microdata tuples is published in exactly one box (1 are not)")
	swapped := []int{0, 2, 7, 4, 1, 3, 5, 6} // rows of boxes 1 and 2 exchanged
	c = plainWith(t, vt.Tamper{}, orig, swapped)
	vt.Want(t, c, inside, "FAIL inside: every tuple lies inside its box (2 do not)")
	vt.Want(t, c, mbb, "FAIL MBB: every box is the minimum bounding box of its members (2 are not; Section 4)")
	inOrder := vt.File("jat.csv", func(string) string {
		return "GroupID,SG,age_min,age_max,sex_min,sex_max\n1,1,20,25,F,F\n1,1,20,25,F,F\n2,2,30,35,M,M\n2,2,30,35,M,M\n" +
			"3,3,40,45,F,F\n3,3,40,45,F,F\n4,4,50,55,M,M\n4,4,50,55,M,M\n"
	})
	vt.Want(t, plainWith(t, inOrder, orig, []int{0, 1, 2, 3, 4, 5, 6, 7}), jatShuffled, "FAIL shuffled: jat.csv rows are in the input's order")
}

// The pinned rows are measured against their boxes in parts (placedIn):
// three parts of 8 rows, some holding no row of a box, give TestCheckPinned's
// lines. Not parallel: it sets the parts for the package's checks.
func TestCheckPinnedInParts(t *testing.T) {
	defer func(rows, parts int) { placedPartRows, placedParts = rows, parts }(placedPartRows, placedParts)
	placedPartRows, placedParts = 1, 3
	orig := table(t, "mt.csv")
	c := plainWith(t, vt.Tamper{}, orig, jatRows, siRows8)
	vt.Want(t, c, inside, "ok   inside: every tuple lies inside its box (0 do not)")
	vt.Want(t, c, mbb, "ok   MBB: every box is the minimum bounding box of its members (0 are not; Section 4)")
	c = plainWith(t, vt.Tamper{}, orig, []int{2, 0, 7, 4, 1, 3, 5, 5})
	vt.Want(t, c, tuples, "FAIL tuples: every jat.csv row is a distinct tuple of the join table (1 are not)")
	vt.Want(t, c, pinnedCoverage, "FAIL coverage: every one of the 8 microdata tuples is published in exactly one box (1 are not)")
	c = plainWith(t, vt.Tamper{}, orig, []int{0, 2, 7, 4, 1, 3, 5, 6})
	vt.Want(t, c, inside, "FAIL inside: every tuple lies inside its box (2 do not)")
	vt.Want(t, c, mbb, "FAIL MBB: every box is the minimum bounding box of its members (2 are not; Section 4)")
}

func TestCheckSIRows(t *testing.T) {
	t.Parallel()
	orig := table(t, "mt.csv")
	vt.Want(t, plainWith(t, vt.Tamper{}, orig, jatRows, siRows8), siRows,
		"ok   si rows: the audit record pins every si.csv row to a microdata tuple of its group with its value (0 do not)",
		"ok   shuffled: si.csv rows are not in the input's order")
	vt.Want(t, plainWith(t, vt.Tamper{}, orig, jatRows, []int{0, 3, 4, 7, 1, 2, 6, 5}), siRows,
		"FAIL si rows: the audit record pins every si.csv row to a microdata tuple of its group with its value (2 do not)",
		"ok   shuffled: si.csv rows are not in the input's order")
	vt.Want(t, plainWith(t, vt.Tamper{}, orig, jatRows), siRows) // no row map of si.csv
}

func TestCheckGroupValues(t *testing.T) {
	t.Parallel()
	c := plainWith(t, vt.Tamper{}, table(t, "mt.csv"))
	vt.Want(t, c, microdataPerBox, "ok   microdata per box: every box holds at least one microdata tuple (0 hold none; Section 4)")
	vt.Want(t, c, groupValues, "ok   sensitive groups: the sensitive values of every group in si.csv are those of its microdata tuples (0 groups differ; Section 3.2)")
	// Alice's flu and Dan's HIV exchanged: the same values, in other groups.
	swapped := table(t, "mt.csv", "1,20,F,flu", "1,20,F,hiv", "4,35,M,hiv", "4,35,M,flu")
	vt.Want(t, plainWith(t, vt.Tamper{}, swapped), groupValues,
		"FAIL sensitive groups: the sensitive values of every group in si.csv are those of its microdata tuples (2 groups differ; Section 3.2)")
	empty := table(t, "mt.csv", "7,50,M,hiv\n", "", "8,55,M,cold\n", "")
	vt.Want(t, plainWith(t, vt.Tamper{}, empty), microdataPerBox, "FAIL microdata per box: every box holds at least one microdata tuple (1 hold none; Section 4)")
}

// Direct's public rows are recounted against JT: each box's public row is
// the public tuple no identifier joins inside it. A row moved to the
// other box leaves that box a public row no public tuple inside it gives.
func TestCheckPeople(t *testing.T) {
	t.Parallel()
	const ok = "ok   people: the 2 public rows of jat.csv match distinct public tuples of the join table, each inside its box (MT and PD joined on id; " +
		"0 public rows equal to a microdata tuple on every QI and joined by no identifier count as that person): every box's rows are distinct people, " +
		"so k = 2 holds and the breach probability is at most 1/2 (Theorem 2) (0 rows unmatched, 0 boxes with fewer rows than microdata tuples)"
	vt.Want(t, direct(t, vt.Tamper{}, true), people, ok)
	moved := vt.File("jat.csv", func(s string) string { return strings.TrimSuffix(s, "2,1,30,31,M,M\n") + "1,1,20,22,F,F\n" })
	vt.Want(t, direct(t, moved, true), people, strings.NewReplacer("(0 rows unmatched", "(1 rows unmatched").Replace(strings.Replace(ok, "ok  ", "FAIL", 1)))
	vt.Want(t, direct(t, vt.Tamper{}, false), people) // needs the public table
}

// k is unconfirmed from the files alone: Direct's public rows need both
// tables, plain k-anonymity's rows the original (or the audit record
// that binds the manifest).
func TestCheckUnproven(t *testing.T) {
	t.Parallel()
	r := &verify.Report{}
	unproven(openTampered(t, "direct", vt.Tamper{}, verify.Options{}), r)
	if len(r.Unproven) != 1 || !strings.HasPrefix(r.Unproven[0], "k-join-anonymity: the 2 public rows of jat.csv were not recounted against the join table") {
		t.Errorf("files alone: %q", r.Unproven)
	}
	r = &verify.Report{}
	unproven(plain(t, vt.Tamper{}), r)
	if len(r.Unproven) != 1 || !strings.HasPrefix(r.Unproven[0], "k-join-anonymity: the 8 rows of jat.csv were not recounted against the original: that every box holds k = 2 distinct people") {
		t.Errorf("plain, files alone: %q", r.Unproven)
	}
	r = &verify.Report{}
	unproven(direct(t, vt.Tamper{}, true), r)
	unproven(plainWith(t, vt.Tamper{}, table(t, "mt.csv")), r)
	if len(r.Unproven) != 0 || len(r.Lines) != 0 {
		t.Errorf("with both tables, or plain with the original: %q %q", r.Unproven, r.Strings())
	}
	c := plain(t, vt.Tamper{})
	digest, err := releasedir.ManifestDigest(c.m)
	if err != nil {
		t.Fatal(err)
	}
	c.opt.Audit = &releasedir.Audit{ManifestDigest: digest}
	unproven(c, r)
	c.opt.Audit.ManifestDigest = strings.Repeat("0", 64)
	unproven(c, r)
	if len(r.Unproven) != 1 || !strings.HasPrefix(r.Unproven[0], "k-join-anonymity: the 8 rows") {
		t.Errorf("plain with the audit record of this manifest, then of another: %q", r.Unproven)
	}
}

func TestCheckClaims(t *testing.T) {
	t.Parallel()
	vt.Want(t, plain(t, vt.Tamper{}), claims, "ok   claims: the 10 figures the manifest states agree with the files; unconfirmed without the original: rows_in, dropped_columns")
	vt.Want(t, plain(t, vt.Tamper{Manifest: func(m map[string]any) { m["groups"] = 5 }}), claims, "FAIL claim groups: the manifest states 5, the files give 4")
	// Direct's NCP needs the original: which box holds a group's tuples.
	vt.Want(t, direct(t, vt.Tamper{}, false), claims, "ok   claims: the 5 figures the manifest states agree with the files")
}
