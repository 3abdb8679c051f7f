package query

import (
	"strings"
	"testing"

	"privlab/model"
)

// mustLoad reads a table from CSV text, failing the test on an error.
func mustLoad(t *testing.T, text string, opt model.LoadOptions) *model.Table {
	t.Helper()
	if opt.Name == "" {
		opt.Name = "t.csv"
	}
	tb, err := model.Load(strings.NewReader(text), opt)
	if err != nil {
		t.Fatalf("Load(%q): %v", text, err)
	}
	return tb
}
