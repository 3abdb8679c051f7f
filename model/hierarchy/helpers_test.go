package hierarchy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
)

// mustLoad reads a table from CSV text, failing the test on an error.
func mustLoad(t *testing.T, text string, opt csvfile.LoadOptions) *model.Table {
	t.Helper()
	if opt.Name == "" {
		opt.Name = "t.csv"
	}
	tb, err := csvfile.Load(strings.NewReader(text), opt)
	if err != nil {
		t.Fatalf("Load(%q): %v", text, err)
	}
	return tb
}

// sharedData is the path of a file of the shared data sets, skipping the
// test when it is not present.
func sharedData(t testing.TB, rel ...string) string {
	t.Helper()
	dir := os.Getenv("PRIVLAB_SHARED_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	p := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data file %s is not present: set PRIVLAB_SHARED_DATA=DIR (the folder holding adult/ and adult-uci/) or put it at ../shared/data beside the repository", p)
	}
	return p
}
