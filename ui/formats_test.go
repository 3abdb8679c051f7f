package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"privlab/datasets"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/source/sourcetest"
)

// formatFiles writes rows of the census dataset (seed 7) as census.csv,
// census.xlsx (sheet people), census.parquet and census.db (tables people
// and extra) in dir, and returns the CSV's table.
func formatFiles(t *testing.T, dir string, rows int) *model.Table {
	t.Helper()
	d, err := datasets.Lookup("census")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := d.Write(&b, rows, 7); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "census.csv")
	if err := os.WriteFile(csv, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tb, err := csvfile.LoadFile(csv, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	extra, err := csvfile.Load(strings.NewReader("id,note\n1,a\n2,b\n"), csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteExcel(filepath.Join(dir, "census.xlsx"), "people", tb); err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.WriteParquet(filepath.Join(dir, "census.parquet"), tb, 0); err != nil {
		t.Fatal(err)
	}
	for _, tab := range []struct {
		name string
		t    *model.Table
	}{{"people", tb}, {"extra", extra}} {
		if err := sourcetest.WriteSQLite(filepath.Join(dir, "census.db"), tab.name, tab.t); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// TestGoldenImportFormats: the import wizard on a workbook (its sheets),
// a Parquet file and a database (its tables) shows the columns and kinds
// the loader reads, and enter loads the same table as the CSV.
func TestGoldenImportFormats(t *testing.T) {
	dir := t.TempDir()
	want := formatFiles(t, dir, 300)
	views := map[string]string{}
	inDir(t, dir, func() {
		for _, spec := range []string{"census.xlsx", "census.parquet", "census.db"} {
			a := ready(t, "dataset:employees", 80, 24)
			_, cmd := a.Update(openDialogMsg{newImportDialog(a.st, spec)})
			settle(t, a, cmd)
			d := a.dialog.(*importDialog)
			if d.err != nil {
				t.Fatalf("%s: %v", spec, d.err)
			}
			if spec == "census.db" {
				press(t, a, "s", "s") // extra, then people again
			}
			views[spec] = a.View()
			press(t, a, "enter")
			settle(t, a, a.schedule())
			got := a.st.Table
			if got == nil || got.Rows != want.Rows || strings.Join(got.Names(), ",") != strings.Join(want.Names(), ",") {
				t.Fatalf("%s: loaded %v (%v)", spec, got, a.st.LoadErr)
			}
			for i, c := range got.Columns {
				if c.Kind != want.Columns[i].Kind || c.Distinct() != want.Columns[i].Distinct() {
					t.Fatalf("%s: column %s %s %d, want %s %d", spec, c.Name, c.Kind, c.Distinct(), want.Columns[i].Kind, want.Columns[i].Distinct())
				}
			}
			if wantIn := map[string]string{"census.xlsx": "census.xlsx:people", "census.parquet": "census.parquet", "census.db": "census.db:people"}[spec]; a.st.Project.Input != wantIn {
				t.Fatalf("%s: the project reads %q", spec, a.st.Project.Input)
			}
		}
	})
	for _, spec := range []string{"census.xlsx", "census.parquet", "census.db"} {
		t.Run(strings.TrimPrefix(filepath.Ext(spec), "."), func(t *testing.T) { teatest.RequireEqualOutput(t, []byte(views[spec])) })
	}
}
