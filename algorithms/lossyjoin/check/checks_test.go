package check

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// Each named check alone, on two hand-written releases of Wong et al.'s
// Table 1 (testdata/jobs.csv, six records), k = 2 and alpha = 1/2:
// testdata/lossy, three classes of two in nss.csv and ss.csv (the lossy
// join has 2² x 3 = 12 rows, Table 7), and testdata/alpha, the same
// records generalized (blue-collar, *, 4350 ...) with domains.csv. Each
// check passes on the genuine release and fails on the smallest tamper of
// what it checks.

// The audit record's row maps of the two releases.
var (
	nssRows = []int{0, 3, 4, 2, 1, 5}
	ssRows  = []int{0, 5, 3, 1, 4, 2}
	genRows = []int{5, 2, 4, 1, 0, 3}
)

// openTiny opens testdata/NAME after the tamper and runs its gates (as
// far as they pass).
func openTiny(t *testing.T, name string, tp vt.Tamper, opt verify.Options) *ctx {
	t.Helper()
	rel, err := verify.Open(tp.Copy(t, "testdata/"+name))
	if err != nil {
		t.Fatal(err)
	}
	c := &ctx{rel: rel, m: rel.Manifest, opt: opt}
	gates := []func(*ctx, *verify.Report) error{parameters, variant, joinColumns}
	if c.m.Variant == "alpha" {
		gates = []func(*ctx, *verify.Report) error{parameters, variant, generalizedColumns, domainsLine}
	}
	for _, gate := range gates {
		if err := gate(c, &verify.Report{}); err != nil {
			break
		}
	}
	return c
}

func jobs(t *testing.T, replace ...string) *model.Table {
	t.Helper()
	dir := vt.File("jobs.csv", strings.NewReplacer(replace...).Replace).Copy(t, "testdata")
	tab, err := csvfile.LoadFile(dir+"/jobs.csv", csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func audit(maps ...any) *releasedir.Audit {
	a := &releasedir.Audit{RowMap: map[string][]int{}}
	for i := 0; i < len(maps); i += 2 {
		a.RowMap[maps[i].(string)] = maps[i+1].([]int)
	}
	return a
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
	vt.Want(t, openTiny(t, "lossy", vt.Tamper{}, verify.Options{}), parameters, `ok   parameters: k = "2" (an integer >= 2) and alpha = "0.5" (in (0,1])`,
		`ok   claim smallest class limit: held against "2", k is "2"`, `ok   claim largest SA fraction in a class limit: held against "0.5", alpha is "0.5"`)
	c := openTiny(t, "lossy", params("alpha", "1.5"), verify.Options{})
	vt.Want(t, c, parameters, `FAIL parameters: k = "2" (an integer >= 2) and alpha = "1.5" (in (0,1])`,
		`ok   claim smallest class limit: held against "2", k is "2"`, `FAIL claim largest SA fraction in a class limit: held against "0.5", alpha is "1.5"`)
	if c.alpha.Float() != 1 {
		t.Errorf("an alpha out of range is read as %v, not the weakest bound 1", c.alpha.Float())
	}
}

func TestCheckVariant(t *testing.T) {
	t.Parallel()
	for tp, want := range map[*vt.Tamper]string{
		{Manifest: func(m map[string]any) { m["variant"] = "fast" }}:                  `unknown variant "fast" of lossyjoin`,
		{Manifest: func(m map[string]any) { m["details"].(map[string]any)["k"] = 5 }}: `details: unknown key "k"`,
	} {
		rel, _ := verify.Open(tp.Copy(t, "testdata/lossy"))
		if err := variant(&ctx{rel: rel, m: rel.Manifest}, &verify.Report{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

func TestCheckColumns(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, "lossy", vt.Tamper{}, verify.Options{}), joinColumns, "ok   columns: nss.csv holds the 3 quasi-identifiers and ClassID, ss.csv ClassID and illness (Section 5)")
	c := openTiny(t, "lossy", vt.File("ss.csv", vt.Replace(t, "ClassID,illness", "ClassID,disease")), verify.Options{})
	vt.Want(t, c, joinColumns, "FAIL names: ss.csv has columns ClassID,disease; the manifest implies ClassID,illness")
	if err := joinColumns(c, &verify.Report{}); !errors.Is(err, verify.ErrStop) {
		t.Errorf("names that do not bind do not stop the checks: %v", err)
	}
	vt.Want(t, openTiny(t, "alpha", vt.File("generalized.csv", vt.Replace(t, "job,birth", "birth,job")), verify.Options{}), generalizedColumns,
		"FAIL names: generalized.csv has columns birth,job,postcode,illness; the manifest implies job,birth,postcode,illness")
}

func TestCheckClasses(t *testing.T) {
	t.Parallel()
	c := openTiny(t, "lossy", vt.Tamper{}, verify.Options{})
	vt.Want(t, c, oneRecordPerRow, "ok   one record per row: every ClassID has as many rows in nss.csv as in ss.csv, each row one record (0 classes differ; 6 and 6 rows)")
	vt.Want(t, c, classesLine, "ok   classes: 3 classes")
	vt.Want(t, c, kAnonymity, "ok   k-anonymity: every class holds at least k = 2 records (0 classes fewer)")
	vt.Want(t, c, alphaLine, "ok   alpha: no sensitive value exceeds alpha = 0.5 of its class (Definition 1)")
	// Class 1's flu moved to class 3: class 1 has one record, class 3
	// three, two of them flu.
	moved := vt.File("ss.csv", vt.Replace(t, "1,flu", "3,flu"))
	c = openTiny(t, "lossy", moved, verify.Options{})
	vt.Want(t, c, oneRecordPerRow, "FAIL one record per row: every ClassID has as many rows in nss.csv as in ss.csv, each row one record (2 classes differ; 6 and 6 rows)")
	vt.Want(t, c, kAnonymity, "FAIL k-anonymity: every class holds at least k = 2 records (1 classes fewer)")
	vt.Want(t, c, alphaLine, "FAIL alpha: 2 classes have a sensitive value above alpha = 0.5 (e.g. class 3)")
}

func TestCheckLDiversityAndRemark(t *testing.T) {
	t.Parallel()
	c := openTiny(t, "lossy", vt.Tamper{}, verify.Options{})
	vt.Want(t, c, lDiversity) // variant lossy
	vt.Want(t, c, remark, "ok   remark: the manifest carries Section 5's remark that each row of either table is one original record")
	anatomy := vt.Tamper{Manifest: func(m map[string]any) {
		m["variant"] = "anatomy"
		m["details"].(map[string]any)["l"] = 2
	}}
	vt.Want(t, openTiny(t, "lossy", anatomy, verify.Options{}), lDiversity,
		"ok   l-diversity: every class holds at least l = 2 distinct sensitive values (Anatomy; 0 classes fewer)")
	anatomy.Files = map[string]func(string) string{"ss.csv": vt.Replace(t, "1,HIV", "1,flu")}
	vt.Want(t, openTiny(t, "lossy", anatomy, verify.Options{}), lDiversity,
		"FAIL l-diversity: every class holds at least l = 2 distinct sensitive values (Anatomy; 1 classes fewer)")
	vt.Want(t, openTiny(t, "lossy", details(func(d map[string]any) { d["remark"] = "" }), verify.Options{}), remark,
		"FAIL remark: the manifest carries Section 5's remark that each row of either table is one original record")
}

func TestCheckClaims(t *testing.T) {
	t.Parallel()
	c := openTiny(t, "lossy", vt.Tamper{}, verify.Options{})
	vt.Want(t, c, classClaims)
	vt.Want(t, c, joinRows)
	vt.Want(t, c, joinClaims, "ok   claims: the 7 figures the manifest states agree with the files; unconfirmed without the original: rows_in, dropped_columns")
	c = openTiny(t, "lossy", details(func(d map[string]any) { d["join_rows"], d["classes"] = 36, 2 }), verify.Options{})
	vt.Want(t, c, joinRows, "FAIL claim details.join_rows: the manifest states 36, the files give 12")
	vt.Want(t, c, classClaims, "FAIL claim details.classes: the manifest states 2, the files give 3")
	c = openTiny(t, "alpha", vt.Tamper{}, verify.Options{})
	vt.Want(t, c, generalizedClaims, "ok   claims: the 7 figures the manifest states agree with the files; unconfirmed without the original: rows_in, dropped_columns")
	vt.Want(t, c, domainEntries)
	vt.Want(t, openTiny(t, "alpha", details(func(d map[string]any) { d["domain_entries"] = 15 }), verify.Options{}), domainEntries,
		"FAIL claim details.domain_entries: the manifest states 15, the files give 16")
}

// Without the audit record the records are distributed over the classes
// by maximum flows and an assignment, and nss.csv's rows whose tuple lies
// in one class are held against ss.csv position by position.
func TestCheckJoinWithoutAudit(t *testing.T) {
	t.Parallel()
	c := openTiny(t, "lossy", vt.Tamper{}, verify.Options{Original: jobs(t)})
	vt.Want(t, c, joinTuples, "ok   tuples: the quasi-identifier tuples of nss.csv are exactly the original's (0 QI combinations differ in count)")
	vt.Want(t, c, joinSensitiveValues, "ok   sensitive values: the sensitive values of ss.csv are exactly the original's (0 values differ in count)")
	if l := vt.Lines(t, c, classesFaithful); len(l) != 1 || !strings.HasPrefix(l[0], "ok   classes faithful: consistent with the original:") {
		t.Errorf("%q", l)
	}
	vt.Want(t, c, positionLinkLine, "ok   position link: row i of ss.csv has the class and a sensitive value of the record behind row i of nss.csv at 1 of the 6 positions whose record the QI values pin (their tuple lies in one class); independent shuffles give 1.0, standard deviation 0.9, and more than 17.0, or all of ten or more, is a link")
	// The clerk's HIV and the manager's flu exchanged within class 1:
	// the lossy join cannot tell them apart (that is its point), and the
	// release stays faithful. Exchanged between classes 1 and 2, they are
	// not its records' values.
	swapped := jobs(t, "clerk,1975,4350,HIV", "clerk,1975,4350,flu", "manager,1955,4350,flu", "manager,1955,4350,HIV")
	if l := vt.Lines(t, openTiny(t, "lossy", vt.Tamper{}, verify.Options{Original: swapped}), classesFaithful); len(l) != 1 || !strings.HasPrefix(l[0], "ok   classes faithful") {
		t.Errorf("%q", l)
	}
	moved := jobs(t, "manager,1955,4350,flu", "manager,1955,4350,fever", "technical supporter,1940,4350,fever", "technical supporter,1940,4350,flu")
	c = openTiny(t, "lossy", vt.Tamper{}, verify.Options{Original: moved})
	vt.Want(t, c, joinSensitiveValues, "ok   sensitive values: the sensitive values of ss.csv are exactly the original's (0 values differ in count)")
	if l := vt.Lines(t, c, classesFaithful); len(l) != 1 || !strings.HasPrefix(l[0], "FAIL classes faithful: no assignment of the original records") {
		t.Errorf("%q", l)
	}
	other := jobs(t, "clerk,1975,4350", "clerk,1976,4350")
	vt.Want(t, openTiny(t, "lossy", vt.Tamper{}, verify.Options{Original: other}), joinTuples,
		"FAIL tuples: the quasi-identifier tuples of nss.csv are exactly the original's (2 QI combinations differ in count)")
}

// With the audit record every row of both files is pinned.
func TestCheckJoinAudited(t *testing.T) {
	t.Parallel()
	with := func(a *releasedir.Audit) verify.Options { return verify.Options{Original: jobs(t), Audit: a} }
	c := openTiny(t, "lossy", vt.Tamper{}, with(audit(format.FileNSS, nssRows, format.FileSS, ssRows)))
	vt.Want(t, c, nssAudit, "ok   audit: the audit record pins every row of nss.csv to an input row with the same QI values")
	vt.Want(t, c, classesFaithful, "ok   classes faithful: every class's ss.csv values are the original values of its nss.csv records (0 classes differ)")
	vt.Want(t, c, ssAudit, "ok   audit: the audit record pins every row of ss.csv to the record of nss.csv with the same class and an equal sensitive value")
	vt.Want(t, c, positionLinkLine, "ok   position link: row i of nss.csv and row i of ss.csv are the same record at 1 of 6 positions (independent shuffles give about one)")
	vt.Want(t, openTiny(t, "lossy", vt.Tamper{}, with(audit(format.FileNSS, []int{0, 3, 4, 2, 1, 1}))), nssAudit,
		"FAIL audit: the audit record's row map does not fit this original and nss.csv")
	c = openTiny(t, "lossy", vt.Tamper{}, with(audit(format.FileNSS, nssRows, format.FileSS, []int{5, 0, 3, 1, 4, 2})))
	vt.Want(t, c, ssAudit, "FAIL audit: the audit record's row map of ss.csv does not fit this original and nss.csv (each ss.csv row must be the sensitive value and class of one record of nss.csv)")
	vt.Want(t, c, positionLinkLine)
	// ss.csv in nss.csv's record order: linked at every position.
	sameOrder := vt.File("ss.csv", func(string) string { return "ClassID,illness\n1,HIV\n3,fever\n2,flu\n3,flu\n1,flu\n2,fever\n" })
	vt.Want(t, openTiny(t, "lossy", sameOrder, with(audit(format.FileNSS, nssRows, format.FileSS, nssRows))), positionLinkLine,
		"FAIL position link: row i of nss.csv and row i of ss.csv are the same record at 6 of 6 positions (independent shuffles give about one)")
	// Without ss.csv's row map its order is tested.
	if l := vt.Lines(t, openTiny(t, "lossy", vt.Tamper{}, with(audit(format.FileNSS, nssRows))), positionLinkLine); len(l) != 1 || !strings.Contains(l[0], "whose record the audit record pins") {
		t.Errorf("%q", l)
	}
}

func TestCheckDomainsAndLabels(t *testing.T) {
	t.Parallel()
	c := openTiny(t, "alpha", vt.Tamper{}, verify.Options{})
	vt.Want(t, c, domainsLine, "ok   domains: domains.csv gives every quasi-identifier a domain whose labels nest like a hierarchy's subdomains")
	vt.Want(t, c, labels, "ok   labels: every generalized value of generalized.csv is a label of domains.csv (0 are not)")
	overlap := vt.File("domains.csv", vt.Replace(t, "job,white-collar,manager", "job,white-collar,factory worker"))
	c = openTiny(t, "alpha", overlap, verify.Options{})
	vt.Want(t, c, domainsLine, `FAIL domains: job: labels "blue-collar" and "white-collar" overlap without one containing the other`)
	if err := domainsLine(c, &verify.Report{}); !errors.Is(err, verify.ErrStop) {
		t.Errorf("domains that do not nest do not stop the checks: %v", err)
	}
	vt.Want(t, openTiny(t, "alpha", vt.File("generalized.csv", vt.Replace(t, "*,1955,5432,flu", "office,1955,5432,flu")), verify.Options{}), labels,
		"FAIL labels: every generalized value of generalized.csv is a label of domains.csv (1 are not)")
}

func TestCheckGeneralization(t *testing.T) {
	t.Parallel()
	c := openTiny(t, "alpha", vt.Tamper{}, verify.Options{Original: jobs(t)})
	vt.Want(t, c, generalizedSensitiveValues, "ok   sensitive values: the sensitive values of generalized.csv are exactly the original's (0 values differ in count)")
	vt.Want(t, c, records, "ok   records: generalized.csv has one row per published original record (6 rows, 6 records)")
	vt.Want(t, c, generalization, "ok   generalization: 6 of 6 rows of generalized.csv match distinct original records whose values their labels cover, with their sensitive value (maximum flow over 6 published and 6 original combinations, without the audit record, which alone says which row is which)")
	// The technical supporter born in 1950: no label of 5432's rows covers him.
	c = openTiny(t, "alpha", vt.Tamper{}, verify.Options{Original: jobs(t, "technical supporter,1940,4350", "technical supporter,1940,5432")})
	vt.Want(t, c, generalization, "FAIL generalization: 5 of 6 rows of generalized.csv match distinct original records whose values their labels cover, with their sensitive value (maximum flow over 6 published and 6 original combinations, without the audit record, which alone says which row is which)")
	audited := verify.Options{Original: jobs(t), Audit: audit(format.FileGeneralized, genRows)}
	vt.Want(t, openTiny(t, "alpha", vt.Tamper{}, audited), generalization,
		"ok   generalization: the audit record pins every row of generalized.csv to a distinct original record whose values its labels cover and whose sensitive value it keeps")
	audited.Audit = audit(format.FileGeneralized, []int{2, 5, 4, 1, 0, 3})
	vt.Want(t, openTiny(t, "alpha", vt.Tamper{}, audited), generalization,
		"FAIL generalization: the audit record pins every row of generalized.csv to a distinct original record whose values its labels cover and whose sensitive value it keeps")
	c = openTiny(t, "alpha", vt.Tamper{}, verify.Options{Original: jobs(t, "clerk,1975,4350,HIV\n", "clerk,1975,4350,HIV\nclerk,1975,4350,flu\n")})
	vt.Want(t, c, records, "FAIL records: generalized.csv has one row per published original record (6 rows, 7 records)")
	vt.Want(t, c, generalizedSensitiveValues, "FAIL sensitive values: the sensitive values of generalized.csv are exactly the original's (1 values differ in count)")
}

// The attacker's view codes each QI value once (cellCodes), as Add codes
// the texts row by row: the view equals the one built with Add, region
// for region, on the tiny release and on one of repeated and missing
// values.
func TestViewCellCodesAreAdd(t *testing.T) {
	t.Parallel()
	repeated := vt.File("nss.csv", func(string) string {
		return "job,birth,postcode,ClassID\nclerk,1975,4350,1\n,1955,5432,3\nfactory worker,1975,4350,2\nclerk,,5432,3\nclerk,1975,4350,2\n,1955,,1\n"
	})
	for _, tp := range []vt.Tamper{{}, repeated} {
		rel, err := verify.Open(tp.Copy(t, "testdata/lossy"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := View(rel)
		if err != nil {
			t.Fatal(err)
		}
		nss, _ := rel.Table(fileNSS)
		ss, _ := rel.Table(fileSS)
		nq := len(rel.Manifest.QIs)
		b, beliefs := classBeliefs(rel.Manifest, ss, nss.Columns[nq])
		cells := make([]string, nq)
		for row := 0; row < nss.Rows; row++ {
			for i := range cells {
				cells[i] = nss.Columns[i].Value(row)
			}
			b.Add(cells, beliefs[verify.Code(nss.Columns[nq], row)], 0)
		}
		want := b.View(rel.Manifest.RowsIn, rel.Manifest.Suppressed, false, got.Notes...)
		// Printed, as a region's Presence is NaN without a population.
		if len(got.Regions) < 3 || fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *want) {
			t.Fatalf("coded once:\n%+v\nadded by text:\n%+v", *got, *want)
		}
	}
}

// pairedJoin are an nss.csv and an ss.csv of 120 records in 3 classes,
// the ss.csv row i of the record at nss.csv row i when paired, else
// rotated by one row (classes agree at no position).
func pairedJoin(paired bool) vt.Tamper {
	var nss, ss strings.Builder
	nss.WriteString("job,birth,postcode,ClassID\n")
	ss.WriteString("ClassID,illness\n")
	for i := range 120 {
		fmt.Fprintf(&nss, "clerk,1975,4350,%d\n", 1+i%3)
		c := 1 + i%3
		if !paired {
			c = 1 + (i+1)%3
		}
		fmt.Fprintf(&ss, "%d,flu\n", c)
	}
	return vt.Tamper{Files: map[string]func(string) string{
		"nss.csv": func(string) string { return nss.String() },
		"ss.csv":  func(string) string { return ss.String() },
	}}
}

// An ss.csv written in nss.csv's row order joins the tables back (Wong et
// al., Section 5: the privacy is the join's loss): from the files alone,
// classes that agree row by row far beyond independent shuffles fail.
func TestRowPairing(t *testing.T) {
	t.Parallel()
	vt.Want(t, openTiny(t, "lossy", vt.Tamper{}, verify.Options{}), rowPairing)
	vt.Want(t, openTiny(t, "lossy", pairedJoin(false), verify.Options{}), rowPairing) // only a failing line is added
	vt.Want(t, openTiny(t, "lossy", pairedJoin(true), verify.Options{}), rowPairing,
		"FAIL row pairing: row i of ss.csv has the ClassID of row i of nss.csv at 120 of 120 positions; independent shuffles give 40.0, standard deviation 5.2, and more than 80.9 pairs the tables by position")
}
