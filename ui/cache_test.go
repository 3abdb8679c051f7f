package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"privlab/algorithms/pipeline"
	"privlab/model/releasedir"
)

// Each workbench session keeps what it reads again in its own
// pipeline.Cache, never one shared by the process.
func TestSessionsOwnTheirCache(t *testing.T) {
	a, b := NewApp(testEnv, pipeline.Project{}), NewApp(testEnv, pipeline.Project{})
	if a.st.Env.Cache == nil || a.st.Env.Cache == b.st.Env.Cache || testEnv.Cache != nil {
		t.Fatalf("sessions' caches %p and %p (the env given: %p): want one each", a.st.Env.Cache, b.st.Env.Cache, testEnv.Cache)
	}
}

// The preview's attacks and the export read the same population once
// its file changed (issue 33.4: the population was kept by its path, so
// the preview measured the file as first read while the export read it
// anew). Two townspeople who share Elaine's and Grace's zip code and
// gender join the town: 5 employees rather than 7 are certainly present,
// on screen and in the manifest.
func TestPreviewReadsAChangedPopulation(t *testing.T) {
	dir := t.TempDir()
	town := "name,zipcode,gender\nAlice,91110,F\nBob,91110,M\nCarol,91110,M\nDebra,91130,F\nElaine,91210,F\nGrace,91220,F\n" +
		"Helen,91240,F\nJason,91310,M\nKyle,91320,M\nLeo,91330,M\nNancy,91340,F\nOscar,91110,M\nPaula,91130,F\nQuinn,91330,M\n"
	at := time.Now().Add(-time.Hour)
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "town.csv"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(dir, "town.csv"), at, at); err != nil {
			t.Fatal(err)
		}
	}
	write(town)
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 100, 40)
		a.st.Project.Population = "town.csv"
		a.st.NeedRun = true
		settle(t, a, a.schedule())
		press(t, a, "7")
		if v := a.View(); !strings.Contains(v, "· 7 people certainly present") {
			t.Fatalf("the first population's plan:\n%s", v)
		}
		write(town + "Yan,91210,F\nZoe,91220,F\n")
		a.st.NeedRun = true
		settle(t, a, a.schedule())
		if v := a.View(); !strings.Contains(v, "· 5 people certainly present") {
			t.Fatalf("the grown population's plan:\n%s", v)
		}
		press(t, a, "enter")
		settle(t, a, nil)
		m, err := releasedir.ReadManifest("release-employees-distribution")
		if err != nil {
			t.Fatalf("no release: %v (%s)", err, a.View())
		}
		records := -1
		for _, f := range m.Attacks {
			if f.Attack == "membership" {
				records = f.Records
			}
		}
		if records != 5 {
			t.Fatalf("the export states membership on %d records, want 5", records)
		}
	})
}
