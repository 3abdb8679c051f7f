package ui

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/csvfile"
)

// TestHierarchyCountsTheRowsARunReads: with rows that have a missing value
// dropped, the hierarchy tree counts the rows of the table the run reads
// (the raw UCI file showed "0 rows" on every node: the hierarchy is built
// on the kept rows, and a value only the dropped rows hold made counting
// the loaded table fail).
func TestHierarchyCountsTheRowsARunReads(t *testing.T) {
	dir := t.TempDir()
	// age 31 is only in the row whose job is missing.
	text := "age,job,disease\n30,a,flu\n31,?,flu\n32,b,cold\n30,b,cold\n30,a,flu\n"
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var view string
	inDir(t, dir, func() {
		a := newTestApp("t.csv")
		a.st.Project.Roles = model.Roles{QIs: []string{"age", "job"}, SA: "disease"}
		a.st.Project.Hierarchies = map[string]string{"age": "flat"}
		a.Update(teaSize(100, 30))
		settle(t, a, a.schedule())
		if a.st.Prep == nil || a.st.Prep.Dropped != 1 {
			t.Fatalf("prepared %v, run error %v", a.st.Prep, a.st.RunErr)
		}
		press(t, a, "2")
		view = a.View()
	})
	if !strings.Contains(view, "2 values · range 2 · 4 rows") || !strings.Contains(view, "30  range 0 · 3 rows") {
		t.Fatalf("the tree does not count the 4 rows the run reads:\n%s", view)
	}
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// TestHeaderlessFileOpensTheWizard: a file opened from the command line
// whose first row looks like data loads every row (the first one too) and
// opens the import wizard, which says so and asks for the names; the
// names and the missing-value tokens typed there are saved in the
// project, and run --config reads the file the same way.
func TestHeaderlessFileOpensTheWizard(t *testing.T) {
	dir := copyImport(t)
	inDir(t, dir, func() {
		a := newTestApp("people.data")
		a.Update(teaSize(100, 30))
		settle(t, a, a.schedule())
		if a.st.Table == nil || a.st.Table.Rows != 24 || !a.st.Table.FirstRowData {
			t.Fatalf("loaded %v (%v)", a.st.Table, a.st.LoadErr)
		}
		d, ok := a.dialog.(*importDialog)
		if !ok || d.header || !d.detected {
			t.Fatalf("the wizard did not open on a first row of data: %T", a.dialog)
		}
		if v := a.View(); !strings.Contains(v, "header row: no, row 1 is data") || !strings.Contains(v, `missing values "",?,NA,NULL (v)`) {
			t.Fatalf("the wizard does not say what it read:\n%s", v)
		}
		press(t, a, "N")
		d.edit.Input.SetValue("age,sex,zip,disease")
		press(t, a, "enter", "v")
		d.edit.Input.SetValue("?,")
		press(t, a, "enter")
		if !strings.Contains(a.View(), `missing values ?,"" (v)`) {
			t.Fatalf("the tokens typed are not shown:\n%s", a.View())
		}
		press(t, a, "enter")
		settle(t, a, a.schedule())
		if a.dialog != nil || a.st.Table == nil || a.st.Table.Rows != 24 || a.st.Table.Column("zip") == nil {
			t.Fatalf("after the wizard: dialog %T, table %v (%v)", a.dialog, a.st.Table, a.st.LoadErr)
		}
		if err := a.st.save("p.json"); err != nil {
			t.Fatal(err)
		}
		p, err := pipeline.LoadProject("p.json")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(p.Columns, ",") != "age,sex,zip,disease" || csvfile.FormatMissingTokens(p.MissingValues) != `?,""` {
			t.Fatalf("saved columns %v, missing values %q", p.Columns, p.MissingValues)
		}
		tb, err := testEnv.LoadTable(p)
		if err != nil || tb.Rows != 24 || tb.FirstRowData {
			t.Fatalf("run --config reads %v (%v)", tb, err)
		}
	})
}

// TestMissingTokensInTheDataPane: the Data pane says which values count
// as missing and how many rows the policy drops; v changes the tokens and
// the table is read again with them.
func TestMissingTokensInTheDataPane(t *testing.T) {
	dir := t.TempDir()
	// NA is Namibia's code here, ? the missing value.
	text := "age,country,disease\n30,NA,flu\n31,?,flu\n32,DE,cold\n30,DE,cold\n"
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	inDir(t, dir, func() {
		a := newTestApp("t.csv")
		a.st.Project.Roles = model.Roles{QIs: []string{"age", "country"}, SA: "disease"}
		a.Update(teaSize(100, 30))
		settle(t, a, a.schedule())
		press(t, a, "1")
		if v := a.View(); !strings.Contains(v, `missing "",?,NA,NULL (v) · 2 of 4 rows dropped: one in a QI/SA (m)`) {
			t.Fatalf("the Data pane does not say what is missing:\n%s", v)
		}
		press(t, a, "v")
		press(t, a, "ctrl+u", "?", "enter")
		settle(t, a, a.schedule())
		if v := a.View(); !strings.Contains(v, `missing ? (v) · 1 of 4 rows dropped`) || a.st.Table.Column("country").Distinct() != 2 {
			t.Fatalf("after v ?:\n%s", v)
		}
		if a.st.Prep == nil || a.st.Prep.Dropped != 1 {
			t.Fatalf("the run drops %v rows", a.st.Prep)
		}
		if got := csvfile.FormatMissingTokens(a.st.Project.MissingValues); got != "?" {
			t.Fatalf("project tokens %q", got)
		}
	})
}

// TestSupersededLoadIsCancelled: a load that a newer one supersedes (a
// database view that takes minutes to compute, then the table reloaded)
// is cancelled, so it stops at once instead of keeping a core busy.
func TestSupersededLoadIsCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "slow.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE VIEW slow AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n LIMIT 4000000000) SELECT count(*) AS a FROM n`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	a := newTestApp(path + ":slow")
	first := a.schedule()
	done := make(chan tea.Msg, 1)
	go func() { done <- first() }()
	time.Sleep(100 * time.Millisecond)
	a.st.Reload()
	if a.schedule() == nil {
		t.Fatal("no second load")
	}
	select {
	case msg := <-done:
		if m, ok := msg.(loadedMsg); !ok || !errors.Is(m.err, context.Canceled) {
			t.Fatalf("the superseded load ended with %#v", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the superseded load still runs 5 s after a newer one started")
	}
	a.stopLoad()
}
