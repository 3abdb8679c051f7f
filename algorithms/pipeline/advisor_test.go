package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/releasedir"
)

// TestAdvisorMapRoundTrip: the advisor's section goes into project.json
// and comes back equal (null figures too); a project file without it
// opens with no map and is written without one; a reopened project,
// its paths now relative to the file, has the digest it was saved with.
func TestAdvisorMapRoundTrip(t *testing.T) {
	root := t.TempDir()
	writeAt(t, filepath.Join(root, "data", "in.csv"), "age,zip,income\n30,1,2\n")
	two, risk, low := 2, 0.25, 0.125
	p := Project{Input: filepath.Join(root, "data", "in.csv"), Method: "kja", Variant: "mondrian",
		Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "income"}, Params: model.Values{"k": "5", "seed": "1"}}
	p.Advisor = &AdvisorMap{Digest: p.AdvisorDigest(), Risk: "worst", Adopted: &two, Points: []AdvisorPoint{
		{Method: "kja", Params: model.Values{"variant": "mondrian", "k": "5"}, Holds: true, Risk: &risk,
			RiskInterval: [2]*float64{&low, &risk}, Attack: "linkage", Loss: &low, Front: true},
		{Method: "sampling", Params: model.Values{"rate": "1"}, Error: "no query answered"},
		{Method: "distribution", Params: model.Values{"t": "0.2"}, Holds: true, Risk: &low, RiskInterval: [2]*float64{&low, &low}, Loss: &risk, Front: true},
	}}
	path := filepath.Join(root, "proj", "project.json")
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{`"advisor": {`, `"adopted": 2`, `"risk": null`, `"input": "../data/in.csv"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("project.json lacks %s:\n%s", want, b)
		}
	}
	q, err := LoadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.Advisor, p.Advisor) {
		t.Errorf("the map changed on the way:\n%+v\n%+v", q.Advisor, p.Advisor)
	}
	if q.Advisor.Stale(q) {
		t.Error("a reopened project's map is stale")
	}
	if at, ok := q.Advisor.AdoptedPoint(); !ok || at.Method != "distribution" {
		t.Errorf("adopted point %v %v", at, ok)
	}
	// A project written before the section opens without a map.
	q.Advisor = nil
	if err := q.Save(path); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "advisor") {
		t.Errorf("no map written as a section:\n%s", b)
	}
	if r, err := LoadProject(path); err != nil || r.Advisor != nil {
		t.Errorf("old project: %v, map %v", err, r.Advisor)
	}
}

// TestAdvisorDigest: the map goes stale when what its points read
// changes (QIs, sensitive attribute, hierarchies, population, seed), not
// when the method or its parameters change, nor on a switch of method
// (the seed kept) that moves the public table into the other methods'
// settings.
func TestAdvisorDigest(t *testing.T) {
	base := Project{Input: "dataset:census", Method: "kja", Public: "dataset:census-public",
		Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "income"}, Params: model.Values{"k": "5", "seed": "1"}}
	m := &AdvisorMap{Digest: base.AdvisorDigest()}
	if m.Stale(base) {
		t.Fatal("stale for its own project")
	}
	same := map[string]func(p *Project){
		// The app carries the seed into the adopted method's settings:
		// the point's figures were made with it.
		"method":    func(p *Project) { *p = p.Switch("distribution"); p.Params["seed"] = "1" },
		"parameter": func(p *Project) { p.Params["k"] = "50" },
		"variant":   func(p *Project) { p.Variant = "mondrian" },
		"exported":  func(p *Project) { p.AddExported("/tmp/rel") },
		"advisor":   func(p *Project) { p.Advisor = m },
	}
	stale := map[string]func(p *Project){
		"qis":         func(p *Project) { p.Roles.QIs = []string{"age"} },
		"sa":          func(p *Project) { p.Roles.SA = "zip" },
		"hierarchy":   func(p *Project) { p.Hierarchies = map[string]string{"age": "intervals:5"} },
		"population":  func(p *Project) { p.Population = "dataset:census-population" },
		"seed":        func(p *Project) { p.Params["seed"] = "2" },
		"public":      func(p *Project) { p.Public = "" },
		"missing":     func(p *Project) { p.Missing = "category" },
		"input rows":  func(p *Project) { p.Rows = 100 },
		"identifiers": func(p *Project) { p.Roles.IDs = []string{"name"} },
	}
	for name, change := range same {
		p := base.Clone()
		change(&p)
		if m.Stale(p) {
			t.Errorf("%s: the map went stale", name)
		}
	}
	for name, change := range stale {
		p := base.Clone()
		change(&p)
		if !m.Stale(p) {
			t.Errorf("%s: the map is not stale", name)
		}
	}
	var none *AdvisorMap
	if !none.Stale(base) || (&AdvisorMap{}).Stale(base) == false {
		t.Error("no map, or a map without a digest, is current")
	}
}

// TestAdvisorDigestUnsetSeed: the points of a project with no seed run
// with AdvisorSeed; the workbench saves an unset seed as "random", so a
// reopened project's map is the same map (it came back stale), and an
// adopted point that fixes AdvisorSeed keeps it current.
func TestAdvisorDigestUnsetSeed(t *testing.T) {
	unset := Project{Input: "dataset:census", Method: "kja", Roles: model.Roles{QIs: []string{"age"}, SA: "income"}, Params: model.Values{"k": "5"}}
	m := &AdvisorMap{Digest: unset.AdvisorDigest()}
	for _, seed := range []string{"random", AdvisorSeed} {
		p := unset.Clone()
		p.Params["seed"] = seed
		if m.Stale(p) {
			t.Errorf("seed %q: the map of the unseeded project went stale", seed)
		}
	}
	p := unset.Clone()
	p.Params["seed"] = "2"
	if !m.Stale(p) || p.MapSeed() != "2" || unset.MapSeed() != AdvisorSeed {
		t.Errorf("a fixed seed is the map's: %q, %q", p.MapSeed(), unset.MapSeed())
	}
}

// TestAdvisorExportNoteAndDraw: the manifest's section names the picture
// beside the release and owns its parameters; a picture that cannot be
// written is an error naming the release; without a map a leftover
// picture beside the release goes.
func TestAdvisorExportNoteAndDraw(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rel")
	a := &AdvisorExport{Note: releasedir.AdvisorNote{Risk: "worst", Points: 3, Front: 1,
		Adopted: &releasedir.AdvisorAdopted{Method: "kja", Params: map[string]string{"k": "5"}}},
		Write: func(path string) error { return os.WriteFile(path, []byte("<svg/>"), 0o644) }}
	n := a.note(dir)
	n.Adopted.Params["k"] = "6"
	if n.Map != "rel.advisor-map.svg" || a.Note.Adopted.Params["k"] != "5" {
		t.Errorf("note %+v shares its parameters or names %q", n, n.Map)
	}
	if (*AdvisorExport)(nil).note(dir) != nil {
		t.Error("no map gives a note")
	}
	if err := a.draw(dir); err != nil || !isFile(releasedir.AdvisorMapPath(dir)) {
		t.Fatalf("draw: %v", err)
	}
	if err := (*AdvisorExport)(nil).draw(dir); err != nil || isFile(releasedir.AdvisorMapPath(dir)) {
		t.Errorf("a leftover picture stays: %v", err)
	}
	os.MkdirAll(releasedir.AdvisorMapPath(dir), 0o755)
	if err := a.draw(dir); err == nil || !strings.Contains(err.Error(), "the release is written to "+dir+", but its risk-utility map beside it is not") {
		t.Errorf("a picture that cannot be written: %v", err)
	}
	if err := (*AdvisorExport)(nil).draw(dir); err != nil {
		t.Errorf("a directory in the picture's place is not removed, nor an error: %v", err)
	}
}
