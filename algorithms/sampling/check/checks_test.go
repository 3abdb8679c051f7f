package check

import (
	"errors"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// Each named check alone, on a hand-written release (testdata/tiny): the
// eight records of testdata/original.csv, all sampled (rate 1), ages
// published as 20-29 and 30-39 and sex as *, in two equivalence groups of
// four (each two flu, two cold). Public knowledge: ages 20, 25, 30, 35
// (1/4 each), sexes F and M (1/2), flu and cold (1/2). A group's
// Pr(t, flu) is 1/2 · 1 · 1/2, so its expected confidence is
// 1 - (3/4)^8 = 0.8999 against an observed 2/4 (Eq. 3); the distortion
// is (1/2 + 1)/2 = 0.75 (Definition 10). Each check passes on it and
// fails on the smallest tamper of what it checks.

const tiny = "testdata/tiny"

// the audit record's row map of published.csv.
var pinned = []int{5, 0, 2, 7, 1, 4, 3, 6}

func openTiny(t *testing.T, tp vt.Tamper, opt verify.Options) *release {
	t.Helper()
	rel, err := verify.Open(tp.Copy(t, tiny))
	if err != nil {
		t.Fatal(err)
	}
	c, err := open(rel, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := &verify.Report{}
	if err := names(c, r); err == nil {
		if err := publicKnowledge(c, r); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// input is testdata/original.csv, with replacements.
func input(t *testing.T, replace ...string) *model.Table {
	t.Helper()
	dir := vt.File("original.csv", strings.NewReplacer(replace...).Replace).Copy(t, "testdata")
	tab, err := csvfile.LoadFile(dir+"/original.csv", csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func params(kv ...string) vt.Tamper {
	return vt.Tamper{Manifest: func(m map[string]any) {
		for i := 0; i < len(kv); i += 2 {
			m["parameters"].(map[string]any)[kv[i]] = kv[i+1]
		}
	}}
}

func details(edit func(d map[string]any)) vt.Tamper {
	return vt.Tamper{Manifest: func(m map[string]any) { edit(m["details"].(map[string]any)) }}
}

func TestCheckNames(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), names)
	c := openTiny(t, vt.File("published.csv", vt.Replace(t, "age,sex", "sex,age")), verify.Options{})
	vt.Want(t, c, names, "FAIL names: published.csv has columns sex,age,disease; the manifest implies age,sex,disease")
	if err := names(c, &verify.Report{}); !errors.Is(err, verify.ErrStop) {
		t.Errorf("names that do not bind do not stop the checks: %v", err)
	}
}

// Public knowledge that does not read makes the release unreadable.
func TestCheckPublicKnowledge(t *testing.T) {
	t.Parallel()
	for tamper, want := range map[string]vt.Tamper{
		"public_knowledge describes 1 attributes for 2 quasi-identifiers": details(func(d map[string]any) {
			d["public_knowledge"] = d["public_knowledge"].([]any)[:1]
		}),
		`the taxonomy of age has two nodes labelled "20"`: details(func(d map[string]any) {
			d["public_knowledge"].([]any)[0].(map[string]any)["nodes"].([]any)[3].(map[string]any)["value"] = "20"
		}),
		"sensitive_marginals sum to 1.5 > 1": details(func(d map[string]any) { d["sensitive_marginals"].([]any)[0].(map[string]any)["p"] = 1 }),
	} {
		rel, _ := verify.Open(want.Copy(t, tiny))
		c, err := open(rel, verify.Options{})
		if err == nil {
			err = publicKnowledge(c, &verify.Report{})
		}
		if err == nil || !strings.Contains(err.Error(), tamper) {
			t.Errorf("got %v, want %q", err, tamper)
		}
	}
}

func TestCheckParameters(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), parameters, "ok   parameters: sampling-rate 1 in (0,1] and max-distortion 0.8 in [0,1]")
	vt.Want(t, openTiny(t, params("sampling-rate", "1.5"), verify.Options{}), parameters,
		"FAIL parameters: sampling-rate 1.5 in (0,1] and max-distortion 0.8 in [0,1]",
		"FAIL claim details.sampling_rate: the manifest states 1, the files give 1.5")
}

func TestCheckMinGeneralizationRule(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), minGeneralizationRule,
		`ok   min-generalization: the minimum generalization "auto" gives age 1, sex 0 (details state age 1, sex 0)`)
	vt.Want(t, openTiny(t, details(func(d map[string]any) { d["min_generalization"] = map[string]int{"age": 0, "sex": 0} }), verify.Options{}), minGeneralizationRule,
		`FAIL min-generalization: the minimum generalization "auto" gives age 1, sex 0 (details state age 0, sex 0)`)
	vt.Want(t, openTiny(t, params("min-generalization", "zip=1"), verify.Options{}), minGeneralizationRule,
		`FAIL min-generalization: the minimum generalization "zip=1" gives none (details state age 1, sex 0): "zip=1" is not QI=L`)
}

func TestCheckMarginalsSource(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), marginalsSource, `ok   marginals: public marginals from "table" (table or file)`)
	vt.Want(t, openTiny(t, params("marginals", "web"), verify.Options{}), marginalsSource,
		`FAIL claim details.marginals: the manifest states "table", the files give "web"`, `FAIL marginals: public marginals from "web" (table or file)`)
}

// A rule of two levels for age: 20-29 has one level below it.
func TestCheckMinimumGeneralization(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), minimumGeneralization,
		"ok   minimum generalization: every published value has at least the rule's levels of taxonomy below it (0 values do not); the record's own value is measured with the original and the audit record")
	vt.Want(t, openTiny(t, params("min-generalization", "age=2"), verify.Options{}), minimumGeneralization,
		"FAIL minimum generalization: every published value has at least the rule's levels of taxonomy below it (8 values do not); the record's own value is measured with the original and the audit record")
}

func TestCheckSensitiveValues(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), sensitiveValues, "ok   sensitive values: every published sensitive value has a public probability (0 do not)")
	vt.Want(t, openTiny(t, details(func(d map[string]any) { d["sensitive_marginals"] = d["sensitive_marginals"].([]any)[:1] }), verify.Options{}), sensitiveValues,
		"FAIL sensitive values: every published sensitive value has a public probability (4 do not)")
}

// With Pr(flu) = 0.05 a group's expected confidence of flu is
// 1 - (1 - 1/2 · 0.05)^8 = 0.1833, below the observed 2/4.
func TestCheckEq3(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), eq3,
		"ok   Eq. 3: all 8 published records: observed confidence <= expected confidence within 1e-9 (worst margin 0.3999)")
	rare := details(func(d map[string]any) {
		d["sensitive_marginals"] = []map[string]any{{"value": "flu", "p": 0.05}, {"value": "cold", "p": 0.95}}
	})
	vt.Want(t, openTiny(t, rare, verify.Options{}), eq3,
		"FAIL Eq. 3: 4 published records have observed > expected confidence by more than 1e-9; worst margin -0.3167 at disease = flu in the group (30-39, *)")
}

func TestCheckDistortion(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), distortion,
		"ok   distortion: every record's distortion is at most delta' = 0.8, exactly (max 0.7500; 0 records over)")
	vt.Want(t, openTiny(t, params("max-distortion", "0.7499999999"), verify.Options{}), distortion,
		"FAIL distortion: every record's distortion is at most delta' = 0.7499999999, exactly (max 0.7500; 8 records over)")
}

func TestCheckCounts(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), counts,
		"ok   counts: 8 considered = 8 published + 0 suppressed + 0 not sampled, with 8 = floor(beta x 8) sampled; 0 dropped for missing values")
	vt.Want(t, openTiny(t, details(func(d map[string]any) { d["rows_sampled"], d["rows_unsampled"] = 7, 1 }), verify.Options{}), counts,
		"FAIL counts: 8 considered = 8 published + 0 suppressed + 1 not sampled, with 7 = floor(beta x 8) sampled; 0 dropped for missing values")
}

func TestCheckFigureClaims(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), figureClaims)
	c := openTiny(t, vt.Tamper{Manifest: func(m map[string]any) {
		m["details"].(map[string]any)["avg_distortion"] = 0.5
		m["worst_cases"].([]any)[0].(map[string]any)["limit"] = "0"
	}}, verify.Options{})
	vt.Want(t, c, figureClaims, "FAIL claim details.avg_distortion: the manifest states 0.5, the files give 0.75",
		`FAIL claim worst_cases.worst margin (expected - observed confidence).limit: the manifest states "0", the files give ">= 0"`)
}

func TestCheckClaims(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), claims,
		"ok   claims: the 6 figures the manifest states agree with the files; unconfirmed without the original: rows_in, dropped_columns")
	vt.Want(t, openTiny(t, vt.Tamper{Manifest: func(m map[string]any) { m["groups"] = 3 }}, verify.Options{}), claims,
		"FAIL claim groups: the manifest states 3, the files give 2")
}

func TestCheckAgainstOriginal(t *testing.T) {
	t.Parallel()
	c := openTiny(t, vt.Tamper{}, verify.Options{Original: input(t)})
	vt.Want(t, c, rowsConsidered)
	vt.Want(t, c, tableMarginals, "ok   marginals: the public marginals are the original table's own value frequencies (0 differ)")
	// An original of nine rows: one more considered, its age 40 in no
	// taxonomy, and every frequency off (four ages, two sexes, two
	// diseases).
	c = openTiny(t, vt.Tamper{}, verify.Options{Original: input(t, "35,M,flu\n", "35,M,flu\n40,M,flu\n")})
	vt.Want(t, c, rowsConsidered, "FAIL claim details.rows_considered: the manifest states 8, the files give 9")
	vt.Want(t, c, tableMarginals, "FAIL marginals: the public marginals are the original table's own value frequencies (9 differ)")
}

// Without the audit record a maximum flow finds an assignment; with it
// the row map pins each row.
func TestCheckFaithful(t *testing.T) {
	t.Parallel()
	const how = "maximum flow over 4 published and 8 original value combinations, without the audit record, which alone says which row is which"
	c := openTiny(t, vt.Tamper{}, verify.Options{Original: input(t)})
	vt.Want(t, c, faithful, "ok   faithful: the 8 published rows can be given distinct original rows whose values their generalized values cover, with their sensitive value ("+how+")")
	vt.Want(t, c, recordGeneralization, "ok   minimum generalization of each record: in that assignment every published value is at least the rule's levels (age 1, sex 0) above the record's own value, or the root")
	// Alice's flu as cold: three of the four flu rows can be matched.
	c = openTiny(t, vt.Tamper{}, verify.Options{Original: input(t, "20,F,flu", "20,F,cold")})
	vt.Want(t, c, faithful, "FAIL faithful: no assignment gives the published rows distinct original rows whose values their generalized values cover, with their sensitive value: at most 7 of 8 ("+
		how+")")
	vt.Want(t, c, recordGeneralization)
	c = openTiny(t, params("min-generalization", "age=2"), verify.Options{Original: input(t)})
	vt.Want(t, c, recordGeneralization, "FAIL minimum generalization of each record: no faithful assignment keeps every published value the rule's levels (age 2, sex 0) above the record's own value: at most 0 of 8 rows")
}

func TestCheckPinned(t *testing.T) {
	t.Parallel()
	audit := func(rows []int) verify.Options {
		return verify.Options{Original: input(t), Audit: &releasedir.Audit{RowMap: map[string][]int{file: rows}}}
	}
	c := openTiny(t, vt.Tamper{}, audit(pinned))
	vt.Want(t, c, faithful, "ok   faithful: every published row is a distinct original row: its generalized values cover the original values and its sensitive value is the original's")
	vt.Want(t, c, recordGeneralization, "ok   minimum generalization of each record: every published value is at least the rule's levels (age 1, sex 0) above the record's own value, or the root")
	vt.Want(t, c, shuffled, "ok   shuffled: published.csv rows are not in the input's order")
	c = openTiny(t, vt.Tamper{}, audit([]int{5, 0, 2, 7, 1, 4, 3, 3}))
	vt.Want(t, c, faithful, "FAIL faithful: the audit record does not pin published.csv to distinct original rows whose values its generalized values cover, with the same sensitive value")
	vt.Want(t, c, recordGeneralization)
	vt.Want(t, c, shuffled)
	c = openTiny(t, params("min-generalization", "age=2"), audit(pinned))
	vt.Want(t, c, recordGeneralization, "FAIL minimum generalization of each record: 8 published values are fewer levels above the record's own value than the rule (age 2, sex 0) asks; "+
		"first published.csv: age = 30-39 is 1 level(s) above 30, the rule asks 2 (line 2)")
	inOrder := vt.File("published.csv", func(string) string {
		return "age,sex,disease\n20-29,*,flu\n20-29,*,cold\n20-29,*,cold\n20-29,*,flu\n30-39,*,flu\n30-39,*,cold\n30-39,*,cold\n30-39,*,flu\n"
	})
	vt.Want(t, openTiny(t, inOrder, audit([]int{0, 1, 2, 3, 4, 5, 6, 7})), shuffled, "FAIL shuffled: published.csv rows are in the input's order")
}
