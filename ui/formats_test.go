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
	tb, err := model.LoadFile(csv, model.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	extra, err := model.Load(strings.NewReader("id,note\n1,a\n2,b\n"), model.LoadOptions{})
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

// TestCLIFormatsMatchTheCSV: the census table as .xlsx, .parquet and a
// SQLite table gives, with the same seed, the very release its CSV gives
// (byte for byte), inspect shows the same profile, and check --original
// FILE proves the release faithful to that file (the audit record holds
// its SHA-256 and format).
func TestCLIFormatsMatchTheCSV(t *testing.T) {
	dir := t.TempDir()
	formatFiles(t, dir, 1500)
	profile := func(spec string) string {
		out, errs, code := cli(t, dir, "inspect", spec)
		if code != 0 {
			t.Fatalf("inspect %s (%d): %s", spec, code, errs)
		}
		return out[strings.Index(out, " rows, "):] // after the table's name
	}
	want := profile("census.csv")
	for i, spec := range []string{"census.csv", "census.xlsx", "census.xlsx:people", "census.parquet", "census.db:people"} {
		if got := profile(spec); got != want {
			t.Errorf("inspect %s:\n%s\nwant (as the CSV):\n%s", spec, got, want)
		}
		out := "r" + string(rune('0'+i))
		if o, errs, code := cli(t, dir, "run", "--in", spec, "--qi", "age,sex,race", "--sa", "salary-class", "--method", "lossyjoin",
			"--k", "5", "--alpha", "0.9", "--seed", "3", "--out", out); code != 0 {
			t.Fatalf("run --in %s (%d):\n%s%s", spec, code, o, errs)
		}
		for _, f := range []string{"nss.csv", "ss.csv", "manifest.json", "report.md"} {
			a, _ := os.ReadFile(filepath.Join(dir, "r0", f))
			b, err := os.ReadFile(filepath.Join(dir, out, f))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: %s differs from the CSV's release (%v)", spec, f, err)
			}
		}
		o, errs, code := cli(t, dir, "check", out, "--original", spec)
		if code != 0 || !strings.Contains(o, "passes every check") {
			t.Fatalf("check %s --original %s (%d):\n%s%s", out, spec, code, o, errs)
		}
		audit, err := model.ReadAudit(model.AuditPath(filepath.Join(dir, out)))
		format := map[string]string{"census.csv": "csv", "census.xlsx": "xlsx", "census.xlsx:people": "xlsx", "census.parquet": "parquet", "census.db:people": "sqlite"}[spec]
		if err != nil || audit.InputFormat != format || len(audit.InputSHA256) != 64 {
			t.Errorf("%s: audit format %q sha %q (%v)", spec, audit.InputFormat, audit.InputSHA256, err)
		}
	}
	// Another file than the input is refused by its SHA-256.
	if _, errs, code := cli(t, dir, "check", "r3", "--original", "census.csv"); code != 2 || !strings.Contains(errs, "not the input of this release") {
		t.Errorf("check the Parquet release against the CSV (%d): %s", code, errs)
	}
	// Errors name the sheet or table, exit 2.
	for spec, msg := range map[string]string{
		"census.xlsx:nope":    `census.xlsx: no sheet "nope" (hint: sheets: people)`,
		"census.db:nope":      `census.db: no table "nope" (hint: tables: people, extra)`,
		"census.db":           "which table?",
		"census.parquet:nope": "a Parquet file has no sheets or tables",
	} {
		if _, errs, code := cli(t, dir, "inspect", spec); code != 2 || !strings.Contains(errs, msg) {
			t.Errorf("inspect %s (%d): %s", spec, code, errs)
		}
	}
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
