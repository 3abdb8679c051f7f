package advise

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/releasedir"
)

// TestAdoptThenExport: a front point of a real map adopted (its method,
// variant and values set, the seed kept) and exported: the release
// passes check, its manifest and report.md state the map and the adopted
// point (why it is on the front), the picture is beside the release, not
// in it, and holds no value of the data. Exported again once the QIs
// changed (the map stale), the release states no map and the old
// picture goes.
func TestAdoptThenExport(t *testing.T) {
	p, tab := small(t)
	settings := smallGrid(t, p, tab)
	points, err := Evaluate(context.Background(), env, p, tab, settings, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, pt := range points {
		if pt.Front && pt.Method == "kja" || pt.Front && at < 0 {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("no point on the front")
	}
	pt := points[at]
	p.Advisor = SavedMap(p, RiskWorst, points, at)
	q := p.Switch(pt.Method)
	q.Variant = pt.Variant
	q.Params[model.SeedParam.Name] = p.Params[model.SeedParam.Name]
	for k, v := range pt.Values {
		q.Params[k] = v
	}
	dir := filepath.Join(t.TempDir(), "release")
	exportWith(t, q, tab, dir)
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := m.Advisor
	if a == nil || a.Adopted == nil || a.Adopted.Method != pt.Method || a.Adopted.ParamText() != pt.ParamText() || a.Points != len(points) ||
		a.Map != "release.advisor-map.svg" || a.Adopted.Loss != pt.Loss || a.Adopted.Risk != pt.Risk {
		t.Fatalf("the manifest's advisor section %+v, adopted %+v; want %v", a, a.Adopted, pt)
	}
	report, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{"## Advisor", "[release.advisor-map.svg](<../release.advisor-map.svg>)",
		"Adopted point: " + pt.Method + " " + pt.ParamText() + ", risk ", "no other point whose definition holds has both a lower risk at its interval's top and a lower loss"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "advisor-map.svg")); err == nil {
		t.Error("the map is inside the release")
	}
	svg, err := os.ReadFile(releasedir.AdvisorMapPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, svg)
	for _, c := range tab.Columns {
		if c.Kind != model.Categorical {
			continue
		}
		for _, v := range c.Dict {
			if len(v) >= 5 && strings.Contains(string(svg), v) {
				t.Errorf("the map holds the data's value %q (column %s)", v, c.Name)
			}
		}
	}
	// The QIs change: the map is stale and says nothing of this release.
	q.Roles.QIs = q.Roles.QIs[:len(q.Roles.QIs)-1]
	if ExportMap(q) != nil {
		t.Fatal("a stale map is exported")
	}
	exportWith(t, q, tab, dir)
	if m, err := releasedir.ReadManifest(dir); err != nil || m.Advisor != nil {
		t.Errorf("a stale map stated: %v %+v", err, m.Advisor)
	}
	if _, err := os.Stat(releasedir.AdvisorMapPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the earlier release's map is still beside the release: %v", err)
	}
}

// exportWith runs project q on tab and exports it to dir (replacing
// what is there) with its map, and checks the release as received.
func exportWith(t *testing.T, q pipeline.Project, tab *model.Table, dir string) {
	t.Helper()
	prep, err := env.Prepare(q, tab)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Export(prep, res, dir, pipeline.ExportOptions{Force: true, Advisor: ExportMap(q)}); err != nil {
		t.Fatal(err)
	}
	rep, err := pipeline.Check(dir, tab, prep.Public)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Errorf("check fails:\n%s", strings.Join(rep.Strings(), "\n"))
	}
}

// wellFormed parses an SVG picture as XML.
func wellFormed(t *testing.T, svg []byte) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(svg)))
	for {
		if _, err := d.Token(); err == io.EOF {
			return
		} else if err != nil {
			t.Fatalf("the map is not XML: %v", err)
		}
	}
}
