package verify

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/releasedir"
)

// toyView reads data.csv as an attacker does: a region per value, with
// no sensitive attribute to learn.
func toyView(rel *Release) (*risk.View, error) {
	tab, err := rel.Table("data.csv")
	if err != nil {
		return nil, err
	}
	b := risk.NewBuilder([]string{"v"}, "", nil, false)
	for row := 0; row < tab.Rows; row++ {
		b.Add([]string{tab.Columns[0].Value(row)}, -1, 0)
	}
	return b.View(tab.Rows, 0, false), nil
}

// The risk figures a manifest states are recomputed from the files while
// the checker runs: a figure of another value fails.
func TestRiskBound(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b", "a")
	rel, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, v, err := rel.Risk(toyView, 0.2)
	if err != nil || len(v.Regions) != 2 || len(rep.ManifestFigures()) == 0 {
		t.Fatalf("%v: %d regions", err, len(v.Regions))
	}
	m := rel.Manifest
	m.Risk, m.RiskSummary = rep.ManifestFigures(), rep.Summary
	b, _ := jsonIndent(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	declared := toyDeclared
	declared.View = toyView
	lookup := func(string) (Declared, bool) { return declared, true }
	r, err := RunDeclared(dir, Options{}, lookup)
	if err != nil || !strings.Contains(strings.Join(r.Strings(), "\n"), "ok   risk: the ") {
		t.Fatalf("%v\n%s", err, strings.Join(r.Strings(), "\n"))
	}
	m.Risk[0].Value += 0.5
	b, _ = jsonIndent(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	r, _ = RunDeclared(dir, Options{}, lookup)
	if !strings.Contains(strings.Join(r.Strings(), "\n"), "FAIL claim risk."+m.Risk[0].Name+": the manifest states") {
		t.Errorf("%s", strings.Join(r.Strings(), "\n"))
	}
	// A view that cannot read the release fails the risk line; SkipRisk
	// leaves the figures unchecked.
	declared.View = func(*Release) (*risk.View, error) { return nil, &model.InputError{File: "x", Msg: "unreadable"} }
	if r, _ := RunDeclared(dir, Options{}, lookup); !strings.Contains(strings.Join(r.Strings(), "\n"), "FAIL risk: the release cannot be read as an attacker reads it: x: unreadable") {
		t.Errorf("%s", strings.Join(r.Strings(), "\n"))
	}
	if r, _ := RunDeclared(dir, Options{SkipRisk: true}, lookup); strings.Contains(strings.Join(r.Strings(), "\n"), "risk") {
		t.Errorf("%s", strings.Join(r.Strings(), "\n"))
	}
}

// The view runs beside the checker: its panic reaches the caller only
// when its figures are used, not when the checker failed first (the view
// did not run then, before they ran at once).
func TestRiskViewPanic(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b")
	m, _ := releasedir.ReadManifest(dir)
	m.RiskSummary = "stated"
	b, _ := jsonIndent(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	declared := toyDeclared
	declared.View = func(*Release) (*risk.View, error) { panic("view") }
	declared.Check = func(*Release, Options, *Report) error { return os.ErrPermission }
	lookup := func(string) (Declared, bool) { return declared, true }
	if _, err := RunDeclared(dir, Options{}, lookup); err != os.ErrPermission {
		t.Errorf("got %v", err)
	}
	declared.Check = toyCheck
	defer func() {
		if p, ok := recover().(*checkPanic); !ok || p.name != "risk" {
			t.Errorf("recovered %v", p)
		}
	}()
	RunDeclared(dir, Options{}, lookup)
	t.Error("no panic")
}

// The attacker's view is read once per opened release: RunThen hands the
// release as the checker read it to then, whose figures (the warnings,
// the attacks) read the view the risk line read, not the files again.
func TestRunThenSharesView(t *testing.T) {
	t.Parallel()
	dir := writeToy(t, "a", "b", "a")
	var views atomic.Int32
	counted := func(rel *Release) (*risk.View, error) {
		views.Add(1)
		return toyView(rel)
	}
	rel, _ := Open(dir)
	rep, _, _ := rel.Risk(counted, 0.2)
	m := rel.Manifest
	m.Risk, m.RiskSummary = rep.ManifestFigures(), rep.Summary
	b, _ := jsonIndent(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	declared := toyDeclared
	declared.View = counted
	lookup := func(string) (Declared, bool) { return declared, true }
	views.Store(0)
	var after *risk.View
	r, err := RunThen(dir, Options{}, lookup, func(rel *Release) {
		_, after, _ = rel.Risk(counted, 0.5)
		rel.View(counted)
	})
	if err != nil || !strings.Contains(strings.Join(r.Strings(), "\n"), "ok   risk: the ") || after == nil || len(after.Regions) != 2 || views.Load() != 1 {
		t.Fatalf("%v, view read %d times\n%s", err, views.Load(), strings.Join(r.Strings(), "\n"))
	}
	// A checker that stops short does not call then.
	declared.Check = func(*Release, Options, *Report) error { return os.ErrPermission }
	called := false
	if _, err := RunThen(dir, Options{}, lookup, func(*Release) { called = true }); err != os.ErrPermission || called {
		t.Errorf("err %v, then called %v", err, called)
	}
}
