// Package panetest holds what the panes' own tests share: the
// workbench's state on an embedded dataset, loaded and prepared, and
// golden screens drawn with the ASCII colour profile.
package panetest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/ui/common"
	"privlab/ui/session"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// testdata is the testing package's testdata folder, taken before a test
// changes its working directory.
var testdata, _ = filepath.Abs("testdata")

func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
}

// Sizes are the terminal sizes every pane's golden screens are drawn at.
var Sizes = []struct {
	Name string
	W, H int
}{{"80x24", 80, 24}, {"120x34", 120, 34}}

// State is the workbench's state on input under a method with the
// input's declared roles, its table loaded and the run prepared (the
// hierarchies), as the workbench has it before the first result.
func State(t *testing.T, input, method string) *common.State {
	t.Helper()
	env := pipeline.Env{Datasets: datasets.Catalog{}}
	st := &common.State{Session: session.Session{Env: env}, Styles: common.DefaultStyles(), Keys: common.DefaultKeyMap()}
	st.Project = env.WithDefaults(pipeline.Project{Input: input, Method: method})
	tbl, err := env.LoadTable(st.Project)
	if err != nil {
		t.Fatal(err)
	}
	st.Table = tbl
	if st.Prep, err = env.Prepare(st.Project, tbl); err != nil {
		t.Fatal(err)
	}
	return st
}

// Golden compares a screen with testdata/NAME.golden (written with
// -update).
func Golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdata, name+".golden")
	if *update {
		if err := os.MkdirAll(testdata, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

// Runes is a key typed as text.
func Runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
