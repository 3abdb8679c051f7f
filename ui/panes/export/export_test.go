package export

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/export -update

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/advise"
	"privlab/algorithms/pipeline"
	"privlab/model/releasedir"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
)

// withResult is the state of method on census with the result of a
// run, paths shown relative to dir (written "DIR") or else to the
// working directory, so that screens do not depend on where the tests
// run.
func withResult(t *testing.T, method, dir string) *common.State {
	t.Helper()
	st := panetest.State(t, "dataset:census", method)
	res, err := pipeline.Run(context.Background(), st.Prep, pipeline.RunOptions{Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	st.Result, st.ResultOf = res, st.Changes
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	st.ShowPath = func(path string) string {
		if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("DIR", rel)
		}
		if rel, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
		return path
	}
	return st
}

// exportTo types dir as the release directory, presses the export key
// and lands the export's outcome.
func exportTo(t *testing.T, p *Model, dir string) {
	t.Helper()
	p.Update(panetest.Runes("e"))
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	p.Update(panetest.Runes(dir))
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatalf("no export was started:\n%s", p.View())
	}
	p.Update(cmd())
}

// TestGoldenSizes: the plan before the export, then the verified
// export's outcome, at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			dir := t.TempDir()
			p := New(withResult(t, "distribution", dir))
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "plan_"+size.Name, p.View())
			exportTo(t, p, filepath.Join(dir, "rel"))
			if !strings.Contains(p.View(), "✓ wrote DIR/rel and DIR/rel.audit.json") {
				t.Errorf("the export's outcome is not shown:\n%s", p.View())
			}
			panetest.Golden(t, "exported_"+size.Name, p.View())
		})
	}
}

// TestExportWritesTheAdvisorMap: with a saved map computed for the
// project's settings, an export from the workbench states the map in the
// manifest and draws DIR.advisor-map.svg beside the release, as privlab
// run --config does; once the settings changed (the map stale) it
// writes none.
func TestExportWritesTheAdvisorMap(t *testing.T) {
	dir := t.TempDir()
	st := withResult(t, "distribution", dir)
	settings, err := advise.Settings([]string{"distribution"}, nil, st.Table, st.Project.Roles, false)
	if err != nil {
		t.Fatal(err)
	}
	points, err := advise.Evaluate(context.Background(), st.Env, st.Project, st.Table, settings[:2], advise.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Project.Advisor = advise.SavedMap(st.Project, advise.RiskWorst, points, -1)
	p := New(st)
	p.SetSize(120, 34)
	rel := filepath.Join(dir, "rel")
	exportTo(t, p, rel)
	if !strings.Contains(p.View(), "✓ wrote DIR/rel and DIR/rel.audit.json\n  map DIR/rel.advisor-map.svg (the risk-utility map report.md links)") {
		t.Fatalf("the export failed or does not say where the map went:\n%s", p.View())
	}
	if _, err := os.Stat(releasedir.AdvisorMapPath(rel)); err != nil {
		t.Errorf("no map beside the release: %v", err)
	}
	m, err := releasedir.ReadManifest(rel)
	if err != nil || m.Advisor == nil || m.Advisor.Map != "rel.advisor-map.svg" || m.Advisor.Points != 2 {
		t.Fatalf("the manifest's advisor section %+v (%v)", m, err)
	}

	// The QIs change: the map says nothing of this release.
	st.Project.Roles.QIs = st.Project.Roles.QIs[:1]
	other := filepath.Join(dir, "other")
	exportTo(t, p, other)
	if v := p.View(); !strings.Contains(v, "✓ wrote DIR/other and DIR/other.audit.json") || strings.Contains(v, "risk-utility map") {
		t.Errorf("the export of a stale map failed or names a map:\n%s", v)
	}
	if _, err := os.Stat(releasedir.AdvisorMapPath(other)); err == nil {
		t.Error("a stale map was drawn beside the release")
	}
	if m, err := releasedir.ReadManifest(other); err != nil || m.Advisor != nil {
		t.Errorf("a stale map is stated in the manifest: %v", err)
	}
}
