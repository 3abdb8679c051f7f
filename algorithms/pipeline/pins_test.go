package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/datasets"
	"privlab/model"
)

// A saved project pins each quasi-identifier's hierarchy (issue 35.9):
// reopened as it was, it warns of nothing; a hierarchy file edited since,
// or one put beside the data that was not there, is named with its
// column in the warnings Prepare returns.
func TestSavedProjectPinsItsHierarchies(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	writeAt(t, in, "age,zip,disease\n30,100,flu\n31,101,cold\n40,100,flu\n41,101,cold\n")
	zipH := filepath.Join(dir, "zip.csv")
	writeAt(t, zipH, "100;10*;*\n101;10*;*\n")
	path := filepath.Join(dir, "proj", "project.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	p := Project{Input: in, Method: "distribution", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"},
		Hierarchies: map[string]string{"zip": zipH}}
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{`"hierarchy_pins"`, `"file": "../zip.csv"`, `"sha256": "`, `"builder": "auto"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the saved project lacks %s:\n%s", want, b)
		}
	}
	warnings := func() []string {
		t.Helper()
		q, err := LoadProject(path)
		if err != nil {
			t.Fatal(err)
		}
		src, err := Env{}.LoadTable(q)
		if err != nil {
			t.Fatal(err)
		}
		prep, err := Env{}.Prepare(q, src)
		if err != nil {
			t.Fatal(err)
		}
		if age := prep.Pins["age"]; (age.Builder != "" && age.Built != "intervals:2") || prep.Pins["zip"].File != zipH {
			t.Errorf("the run's pins: %+v", prep.Pins)
		}
		return prep.PinWarnings
	}
	if w := warnings(); len(w) != 0 {
		t.Fatalf("an unchanged project warns: %q", w)
	}
	writeAt(t, zipH, "100;1**;*\n101;1**;*\n")
	if w := warnings(); len(w) != 1 || !strings.Contains(w[0], "column zip") || !strings.Contains(w[0], zipH) || !strings.Contains(w[0], "changed") {
		t.Errorf("an edited hierarchy file: %q", w)
	}
	writeAt(t, filepath.Join(dir, "in_hierarchy_age.csv"), "30;30-39;*\n31;30-39;*\n40;40-49;*\n41;40-49;*\n")
	w := warnings()
	if len(w) != 2 || !strings.Contains(w[0], "column age") || !strings.Contains(w[0], "in_hierarchy_age.csv") || !strings.Contains(w[0], "beside the data") {
		t.Errorf("a hierarchy file now beside the data: %q", w)
	}
	// Saving again pins what the project now gets.
	q, _ := LoadProject(path)
	if err := q.Save(path); err != nil {
		t.Fatal(err)
	}
	if w := warnings(); len(w) != 0 {
		t.Errorf("saved again, the project still warns: %q", w)
	}
}

// A project saved before pins were recorded warns of nothing.
func TestUnpinnedProjectWarnsOfNothing(t *testing.T) {
	if w := (Env{}).PinWarnings(Project{Input: "x.csv", Roles: model.Roles{QIs: []string{"a"}}}, nil); w != nil {
		t.Fatalf("warnings: %q", w)
	}
}

// The order the quasi-identifiers are given in does not change the
// groups (issue 35 polish: 399 groups became 397 with the order): a run
// reads them in the table's column order.
func TestQIOrderDoesNotChangeTheGroups(t *testing.T) {
	env := Env{Datasets: datasets.Catalog{}}
	var groups []int
	var labels [][]string
	for _, qis := range [][]string{{"age", "education", "sex"}, {"sex", "age", "education"}, {"education", "sex", "age"}} {
		p := Project{Input: "dataset:census", Method: "kja", Variant: "mondrian", Roles: model.Roles{QIs: qis, SA: "occupation"},
			Params: model.Values{"k": "20", "seed": "1"}}
		src, err := env.LoadTable(p)
		if err != nil {
			t.Fatal(err)
		}
		prep, err := env.Prepare(p, src)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(prep.Project.Roles.QIs, ","); got != "age,education,sex" {
			t.Fatalf("%v read as %s, not in the table's order", qis, got)
		}
		res, err := Run(context.Background(), prep, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, len(res.Groups))
		labels = append(labels, res.Groups[0].QI)
	}
	for i := range groups {
		if groups[i] != groups[0] || strings.Join(labels[i], "|") != strings.Join(labels[0], "|") {
			t.Fatalf("the orders give %v groups, first groups %q", groups, labels)
		}
	}
}
