package check

import (
	"errors"
	"strings"
	"testing"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// Each named check alone, on a hand-written release (testdata/tiny): the
// eight records of testdata/original.csv in two groups of four, each
// holding the ages 20, 30, 40, 50, both genders and four diseases once.
// A group's presence is |G| / (|G_age| x |G_gender|) = 4 / (4 x 2) = 1/2
// (Theorem 5.1), its association 1/4 (Theorem 5.2), with alpha = beta =
// 1/2; every record is covered by both groups (combined presence
// 1 - (1/2)(1/2) = 3/4). Each check passes on it and fails on the
// smallest tamper of what it checks.

const tiny = "testdata/tiny"

// audited is the audit record's group map: group 1 holds rows 0-3,
// group 2 rows 4-7.
var audited = []int{0, 1, 2, 3, 4, 5, 6, 7}

// openTiny opens the tampered release and runs its gates (none may stop
// but the one a test exercises).
func openTiny(t *testing.T, tp vt.Tamper, opt verify.Options) *ctx {
	t.Helper()
	rel, err := verify.Open(tp.Copy(t, tiny))
	if err != nil {
		t.Fatal(err)
	}
	c := &ctx{rel: rel, m: rel.Manifest, opt: opt, man: rel.Dir + "/manifest.json"}
	if c.det, err = format.Read(c.m); err != nil {
		t.Fatal(err)
	}
	for _, gate := range []func(*ctx, *verify.Report) error{parameters, auxiliaryTables, readTables} {
		if err := gate(c, &verify.Report{}); err != nil {
			break
		}
	}
	return c
}

func input(t *testing.T, replace ...string) *model.Table {
	t.Helper()
	dir := vt.File("original.csv", strings.NewReplacer(replace...).Replace).Copy(t, "testdata")
	tab, err := csvfile.LoadFile(dir+"/original.csv", csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func withAudit(t *testing.T, orig *model.Table, rows []int) verify.Options {
	return verify.Options{Original: orig, Audit: &releasedir.Audit{RowMap: map[string][]int{auditGroups: rows}}}
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

func TestCheckParameters(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), parameters, "ok   parameters: alpha = 0.5 and beta = 0.5 are probabilities in (0,1]")
	c := openTiny(t, params("alpha", "0"), verify.Options{})
	vt.Want(t, c, parameters, "FAIL parameters: alpha = 0 and beta = 0.5 are probabilities in (0,1]")
	if err := parameters(c, &verify.Report{}); !errors.Is(err, verify.ErrStop) {
		t.Errorf("bad parameters do not stop the checks: %v", err)
	}
}

func TestCheckAuxiliaryTables(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), auxiliaryTables)
	swapped := details(func(d map[string]any) { d["auxiliary_tables"].([]any)[0].(map[string]any)["qi"] = "gender" })
	vt.Want(t, openTiny(t, swapped, verify.Options{}), auxiliaryTables, `FAIL claim details.auxiliary_tables[0].qi: the manifest states "gender", the files give "age"`)
	for want, tp := range map[string]vt.Tamper{
		"details name 1 auxiliary tables for 2 quasi-identifiers": details(func(d map[string]any) { d["auxiliary_tables"] = d["auxiliary_tables"].([]any)[:1] }),
		"details name at_age.csv twice":                           details(func(d map[string]any) { d["auxiliary_tables"].([]any)[1].(map[string]any)["file"] = "at_age.csv" }),
	} {
		if err := auxiliaryTables(openTiny(t, tp, verify.Options{}), &verify.Report{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

func TestCheckKindsAndFiles(t *testing.T) {
	t.Parallel()
	c := openTiny(t, vt.Tamper{}, verify.Options{})
	vt.Want(t, c, kinds)
	vt.Want(t, c, releaseFiles, "ok   release files: the release lists the 2 auxiliary tables, the sensitive table and the report only")
	vt.Want(t, openTiny(t, details(func(d map[string]any) { d["kinds"].(map[string]any)["age"] = "interval" }), verify.Options{}), kinds,
		`FAIL claim details.kinds: the kind of age is "interval"; want numeric or categorical`)
	extra := vt.Tamper{Manifest: func(m map[string]any) {
		m["files"] = append(m["files"].([]any), map[string]any{"name": "notes.csv", "rows": 0, "sha256": ""})
	}}
	vt.Want(t, openTiny(t, extra, verify.Options{}), releaseFiles,
		"FAIL release files: the release lists the 2 auxiliary tables, the sensitive table and the report only ; also: notes.csv")
}

// The tables' form: each tamper stops the checks that read the groups.
func TestCheckReadTables(t *testing.T) {
	t.Parallel()
	ok := []string{"ok   duplicate-free: st.csv lists each sensitive value once per group (0 repeated)",
		"ok   duplicate-free: at_age.csv lists each value once per group (Definition 3.3; 0 repeated)",
		"ok   groups: every GroupID of at_age.csv is a group of st.csv (0 are not)",
		"ok   duplicate-free: at_gender.csv lists each value once per group (Definition 3.3; 0 repeated)",
		"ok   groups: every GroupID of at_gender.csv is a group of st.csv (0 are not)",
		"ok   groups: every group has values in every auxiliary table (0 gaps)"}
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), readTables, ok...)
	for _, c := range []struct {
		edit vt.Tamper
		want []string
	}{
		{vt.File("st.csv", vt.Replace(t, "GroupID,disease", "GroupID,illness")), []string{"FAIL names: st.csv has columns GroupID,illness,Frequency; the manifest implies GroupID,disease,Frequency"}},
		{vt.File("st.csv", strings.NewReplacer("2,", "3,").Replace), []string{"FAIL groups: the GroupIDs of st.csv are not 1..2"}},
		{vt.File("st.csv", vt.Replace(t, "1,hiv", "1,flu")), []string{strings.Replace(ok[0], "ok  ", "FAIL", 1)[:len(ok[0])-12] + "(1 repeated)", ok[1], ok[2], ok[3], ok[4], ok[5]}},
		{vt.File("at_gender.csv", vt.Replace(t, "M,2\n", "M,3\n")), []string{ok[0], ok[1], ok[2], ok[3], "FAIL groups: every GroupID of at_gender.csv is a group of st.csv (1 are not)", ok[5]}},
		{vt.File("at_gender.csv", strings.NewReplacer("M,2\n", "", "F,2\n", "").Replace), []string{ok[0], ok[1], ok[2], ok[3], ok[4], "FAIL groups: every group has values in every auxiliary table (1 gaps)"}},
	} {
		vt.Want(t, openTiny(t, c.edit, verify.Options{}), readTables, c.want...)
	}
	rel, _ := verify.Open(vt.File("st.csv", vt.Replace(t, "1,flu,1", "1,flu,0")).Copy(t, tiny))
	c := &ctx{rel: rel, m: rel.Manifest, man: rel.Dir + "/manifest.json"}
	c.det, _ = format.Read(c.m)
	if err := readTables(c, &verify.Report{}); err == nil || !strings.Contains(err.Error(), `st.csv:3: Frequency "0" is not a whole number >= 1`) {
		t.Errorf("got %v", err)
	}
}

func TestCheckPrivacy(t *testing.T) {
	t.Parallel()
	c := openTiny(t, vt.Tamper{}, verify.Options{})
	vt.Want(t, c, alphaPresence, "ok   alpha-presence: every record a group covers has Pr(t in T) = |G| / prod_i |G_ATi| <= alpha = 0.5 (Theorem 5.1; max 0.5 in group 1)")
	vt.Want(t, c, betaAssociation, "ok   beta-association: every sensitive value has Pr((t,s) in T | t in T) = c / |G| <= beta = 0.5 (Theorem 5.2; max 0.25 in group 1)")
	vt.Want(t, c, diversity, "ok   diversity: every group holds each sensitive value once and at least ceil(1/beta) = 2 of them (Algorithm 2, Theorems 7.1-7.2; 0 groups do not)")
	// 1/2 is not below 0.4999999999: alpha exactly, as the decimal stated.
	vt.Want(t, openTiny(t, params("alpha", "0.4999999999"), verify.Options{}), alphaPresence,
		"FAIL alpha-presence: every record a group covers has Pr(t in T) = |G| / prod_i |G_ATi| <= alpha = 0.4999999999 (Theorem 5.1; max 0.5 in group 1)")
	c = openTiny(t, params("beta", "0.2"), verify.Options{})
	vt.Want(t, c, betaAssociation, "FAIL beta-association: every sensitive value has Pr((t,s) in T | t in T) = c / |G| <= beta = 0.2 (Theorem 5.2; max 0.25 in group 1)")
	vt.Want(t, c, diversity, "FAIL diversity: every group holds each sensitive value once and at least ceil(1/beta) = 5 of them (Algorithm 2, Theorems 7.1-7.2; 2 groups do not)")
}

func TestCheckClaims(t *testing.T) {
	t.Parallel()
	const later = "records covered by >1 group (input records, published or not), outside Wang's model: max combined presence 1-prod(1-p_G) over the groups covering a record"
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{}), claims,
		"ok   claims: the 8 figures the manifest states agree with the files; unconfirmed without the original: "+later+", rows_in, dropped_columns")
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{Original: input(t)}), claims, "ok   claims: the 11 figures the manifest states agree with the files")
	// H's age 50 as 60: no group holds it, so H is covered by none.
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{Original: input(t, "H,50", "H,60")}), claims,
		"FAIL claim records covered by >1 group (input records, published or not): the manifest states 8, the files give 7")
	vt.Want(t, openTiny(t, vt.Tamper{Manifest: func(m map[string]any) { m["utility"] = m["utility"].([]any)[1:] }}, verify.Options{}), claims,
		"FAIL claim average group size: the manifest does not state it",
		"ok   claims: the 7 figures the manifest states agree with the files; unconfirmed without the original: "+later+", rows_in, dropped_columns")
}

func TestCheckDetails(t *testing.T) {
	t.Parallel()
	c := openTiny(t, vt.Tamper{}, verify.Options{})
	vt.Want(t, c, detailClaims)
	vt.Want(t, c, groupFiguresClaims)
	vt.Want(t, openTiny(t, details(func(d map[string]any) { d["max_frequency"] = 2 }), verify.Options{}), detailClaims,
		"FAIL claim details.max_frequency: the manifest states 2, the files give 1")
	joinMax := details(func(d map[string]any) { d["group_figures"].([]any)[2].(map[string]any)["max"] = 9 })
	vt.Want(t, openTiny(t, joinMax, verify.Options{}), groupFiguresClaims, "FAIL claim details.group_figures.join.max: the manifest states 9, the files give 8")
	fewer := details(func(d map[string]any) { d["group_figures"] = d["group_figures"].([]any)[:3] })
	vt.Want(t, openTiny(t, fewer, verify.Options{}), groupFiguresClaims, "FAIL claim details.group_figures: the manifest summarises 3 figures, the method has 4")
}

func TestCheckRowsSuppressed(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{Original: input(t)}), rowsSuppressed)
	vt.Want(t, openTiny(t, vt.Tamper{}, verify.Options{Original: input(t, "H,50,F,flu\n", "H,50,F,flu\nI,20,F,flu\n")}), rowsSuppressed,
		"FAIL claim rows_suppressed: the manifest states 0, the files give 1")
}

// With the audit record its group map says who is in which group.
func TestCheckAudited(t *testing.T) {
	t.Parallel()
	c := openTiny(t, vt.Tamper{}, withAudit(t, input(t), audited))
	vt.Want(t, c, auditMembers, "ok   audit: the audit record assigns 8 distinct input records to the 2 groups, as many per group as st.csv says")
	vt.Want(t, c, faithful)
	vt.Want(t, c, shuffled, "ok   shuffled: at_age.csv rows are not in the input's order", "ok   shuffled: st.csv rows are not in the input's order")
	vt.Want(t, c, coverage, "ok   coverage: every one of the 8 published records is covered by the group that holds it: each of its values is in that group's tables (Lemma 5.1; 0 values missing)")
	vt.Want(t, c, values, "ok   values: every published value is a value of a member of its group (0 are not)")
	vt.Want(t, c, frequencies, "ok   frequencies: st.csv lists exactly the members' sensitive values with their frequencies, group by group (0 differ)")
	c = openTiny(t, vt.Tamper{}, withAudit(t, input(t), audited[:7]))
	vt.Want(t, c, auditMembers, "FAIL audit: the audit record's group map lists 7 records; the release publishes 8")
	vt.Want(t, c, coverage)
	// A's age 20 as 25: the group holding A lacks 25, and its 20 is no
	// member's.
	c = openTiny(t, vt.Tamper{}, withAudit(t, input(t, "A,20", "A,25"), audited))
	vt.Want(t, c, coverage, "FAIL coverage: every one of the 8 published records is covered by the group that holds it: each of its values is in that group's tables (Lemma 5.1; 1 values missing)")
	vt.Want(t, c, values, "FAIL values: every published value is a value of a member of its group (1 are not)")
	// A's flu as cold: group 1's frequencies of flu and cold are off.
	vt.Want(t, openTiny(t, vt.Tamper{}, withAudit(t, input(t, "A,20,F,flu", "A,20,F,cold"), audited)), frequencies,
		"FAIL frequencies: st.csv lists exactly the members' sensitive values with their frequencies, group by group (2 differ)")
	inOrder := vt.File("at_age.csv", func(string) string { return "age,GroupID\n20,1\n30,1\n40,1\n50,1\n20,2\n30,2\n40,2\n50,2\n" })
	vt.Want(t, openTiny(t, inOrder, withAudit(t, input(t), audited)), shuffled,
		"FAIL shuffled: at_age.csv rows are in the input's order", "ok   shuffled: st.csv rows are not in the input's order")
}

// Without it a maximum flow decides whether some assignment fits.
func TestCheckFaithful(t *testing.T) {
	t.Parallel()
	c := openTiny(t, vt.Tamper{}, verify.Options{Original: input(t)})
	vt.Want(t, c, auditMembers)
	vt.Want(t, c, faithful, "ok   faithful: distinct original records can be assigned to the groups so that each group holds exactly its st.csv frequencies of records it covers (Lemma 5.1; maximum flow over value combinations, without the audit record, which alone says which group holds whom)")
	vt.Want(t, c, shuffled)
	vt.Want(t, c, values, "ok   values: every published value is the value of a member of its group in some faithful assignment of the original's records "+
		"(0 are not; which member holds which value only the audit record settles)")
	// H's flu as gout: two groups list flu, one record has it.
	c = openTiny(t, vt.Tamper{}, verify.Options{Original: input(t, "H,50,F,flu", "H,50,F,gout")})
	vt.Want(t, c, faithful, "FAIL faithful: no assignment of distinct original records to the groups gives each group its st.csv frequencies of records it covers (Lemma 5.1): at most 7 of the 8 published records (maximum flow, without the audit record)")
	vt.Want(t, c, coverage)
}

// A value added to an auxiliary table (issue 32.9): with group 1's
// four records female (and only F in its gender table) and group 2's
// male, group 2's F is held by none of its members. A female record fits
// group 2 (an original record the group could hold), but no faithful
// assignment gives it one: each female is the only female of her disease,
// so group 1 could hold no one in her place.
func TestCheckAddedValue(t *testing.T) {
	t.Parallel()
	orig := input(t, "B,30,M", "B,30,F", "D,50,M", "D,50,F", "F,30,F", "F,30,M", "H,50,F", "H,50,M")
	femaleOnly := vt.File("at_gender.csv", strings.NewReplacer("M,1\n", "").Replace)
	vt.Want(t, openTiny(t, femaleOnly, verify.Options{Original: orig}), values,
		"FAIL values: every published value is the value of a member of its group in some faithful assignment of the original's records "+
			`(1 are not, first at_gender.csv's "F" in group 2)`)
	// With M in group 1's table too, a female of group 1 can move to
	// group 2, a male taking her place: possible, for each value alone.
	c := openTiny(t, vt.Tamper{}, verify.Options{Original: orig})
	vt.Want(t, c, values,
		"ok   values: every published value is the value of a member of its group in some faithful assignment of the original's records "+
			"(0 are not; which member holds which value only the audit record settles)")
	// But the assignment found holds not every listed value at once, so
	// the tables are unconfirmed (exit 3), never confirmed: a value added
	// to a group no member of which holds it passes each test alone.
	r := &verify.Report{}
	if err := values(c, r); err != nil || len(r.Unproven) != 1 || !strings.HasPrefix(r.Unproven[0], "values: 2 values the auxiliary tables list are held by no member") {
		t.Errorf("unproven %q (%v), want the values the assignment found does not hold", r.Unproven, err)
	}
	// With the audit record the members are known: nothing unconfirmed.
	r = &verify.Report{}
	if err := values(openTiny(t, vt.Tamper{}, withAudit(t, input(t), audited)), r); err != nil || len(r.Unproven) != 0 {
		t.Errorf("with the audit record: unproven %q (%v)", r.Unproven, err)
	}
}

// An audit record's row the release cannot publish: a quasi-identifier
// missing (or a row listed twice) does not fit, a sensitive value missing
// is named as such.
func TestCheckAuditUnpublished(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, vt.Tamper{}, withAudit(t, input(t, "A,20,F,flu", "A,,F,flu"), audited)), auditMembers,
		"FAIL audit: the audit record's group map does not fit this original: row 0 is not a published record, or listed twice")
	vt.Want(t, openTiny(t, vt.Tamper{}, withAudit(t, input(t), []int{0, 1, 2, 3, 4, 5, 6, 6})), auditMembers,
		"FAIL audit: the audit record's group map does not fit this original: row 6 is not a published record, or listed twice")
	vt.Want(t, openTiny(t, vt.Tamper{}, withAudit(t, input(t, "A,20,F,flu", "A,20,F,"), audited)), auditMembers,
		"FAIL audit: the audit record's group map lists row 0, which has no sensitive value")
}
