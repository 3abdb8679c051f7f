package attack_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/releasedir"
)

// lineNamed returns the report's line of that name.
func lineNamed(rep *verify.Report, name string) (verify.Line, bool) {
	for _, l := range rep.Lines {
		if l.Name == name {
			return l, true
		}
	}
	return verify.Line{}, false
}

// TestReportSaysWhatSurvived: an ambiguity release made with a population
// (run --population) states the membership attack in its manifest and in
// report.md's plain words as broken, with its count, and no longer says
// presence is believed with probability at most alpha; check recomputes
// the attacks with the population, names them unconfirmed without it, and
// fails a manifest whose attack figures were edited.
func TestReportSaysWhatSurvived(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "people.csv", people)
	lines := strings.Split(strings.TrimSpace(people), "\n")
	popFile := writeFile(t, "pop.csv", strings.Join(append(lines, "33,100,F,x", "44,200,M,x", "60,300,F,x"), "\n")+"\n")
	dir := release(t, in, pipeline.Project{Method: "ambiguity", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"alpha": "0.5", "beta": "0.5"}, Population: popFile})
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	var member *releasedir.AttackFigure
	for i, a := range m.Attacks {
		if a.Attack == "membership" {
			member = &m.Attacks[i]
		}
	}
	if member == nil || member.Holds == nil || *member.Holds || member.Records == 0 || member.Attacker != "holds the quasi-identifiers of a population of 15 people, the data's people and others" {
		t.Fatalf("the manifest's membership attack: %+v", member)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	report := string(b)
	for _, want := range []string{"The method's bound is BROKEN by membership", "it succeeds on " + strconv.Itoa(member.Records), "| membership |"} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md does not say %q:\n%s", want, report)
		}
	}
	for _, promise := range []string{"is believed with probability at most", "the presence probability bounds whether a person is in the data"} {
		if strings.Contains(report, promise) {
			t.Errorf("report.md still promises %q", promise)
		}
	}
	// check: with the population every attack is recomputed.
	pop := load(t, popFile)
	rep, err := (pipeline.Env{}).CheckWith(dir, &risk.Knowledge{Original: load(t, in), Population: pop})
	if l, ok := lineNamed(rep, "attacks"); err != nil || !ok || !l.OK || l.Text != "the 4 attacks the manifest states agree with the files" {
		t.Fatalf("check with the population: %v %v", l, err)
	}
	rep, _ = (pipeline.Env{}).CheckWith(dir, &risk.Knowledge{})
	if l, ok := lineNamed(rep, "attacks"); !ok || !l.OK || !strings.Contains(l.Text, "unconfirmed without the files they read: ") || !strings.Contains(l.Text, "membership (needs the population, the original)") {
		t.Fatalf("check without the population: %v", l)
	}
	// A manifest that hides the broken attack fails.
	os.Remove(releasedir.AuditPath(dir))
	verifytest.Restate(t, dir, func(m map[string]any) {
		for _, a := range m["attacks"].([]any) {
			if a := a.(map[string]any); a["attack"] == "membership" {
				a["records"], a["holds"] = 0, true
			}
		}
	})
	rep, _ = (pipeline.Env{}).CheckWith(dir, &risk.Knowledge{Original: load(t, in), Population: pop})
	if l, ok := lineNamed(rep, "claim attacks.membership"); !ok || l.OK {
		t.Fatalf("an edited attack passes check:\n%s", strings.Join(rep.Strings(), "\n"))
	}
}

// TestWarningsStated: a release with classes of one sensitive value says
// so in its manifest and report.md; a manifest that leaves the warning
// out fails check.
func TestWarningsStated(t *testing.T) {
	t.Parallel()
	in := writeFile(t, "people.csv", people)
	dir := release(t, in, pipeline.Project{Method: "kja", Variant: "mondrian", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Params: model.Values{"k": "3"}})
	m, _ := releasedir.ReadManifest(dir)
	want := "3 published records are in classes with one sensitive value: whoever finds a person's class knows their sensitive value"
	found := false
	for _, w := range m.Warnings {
		found = found || w == want
	}
	b, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !found || !strings.Contains(string(b), "## Warnings\n\n- "+want) {
		t.Fatalf("warnings %q; report.md:\n%s", m.Warnings, b)
	}
	rep, _ := pipeline.Check(dir, nil, nil)
	if l, ok := lineNamed(rep, "warnings"); !ok || !l.OK {
		t.Fatalf("check of the warnings: %v", l)
	}
	os.Remove(releasedir.AuditPath(dir))
	verifytest.Restate(t, dir, func(m map[string]any) { delete(m, "warnings") })
	rep, _ = pipeline.Check(dir, nil, nil)
	if l, ok := lineNamed(rep, "claim warnings"); !ok || l.OK || !strings.Contains(l.Text, want) {
		t.Fatalf("a manifest without the warning passes:\n%s", strings.Join(rep.Strings(), "\n"))
	}
}
