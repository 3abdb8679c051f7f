package query

import (
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
