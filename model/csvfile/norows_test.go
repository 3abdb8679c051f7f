package csvfile

import (
	"strings"
	"testing"
)

// A header without rows is an input error for a user's table, and a
// table without rows when NoRows asks for it (a release that publishes
// no record).
func TestLoadNoRows(t *testing.T) {
	t.Parallel()
	if _, err := Load(strings.NewReader("age,sex\n"), LoadOptions{}); err == nil || !strings.Contains(err.Error(), "header only") {
		t.Fatalf("without NoRows: %v, want the header-only error", err)
	}
	tab, err := Load(strings.NewReader("age,sex\n"), LoadOptions{NoRows: true, Delimiter: ','})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows != 0 || strings.Join(tab.Names(), ",") != "age,sex" || len(tab.Columns[0].Codes) != 0 {
		t.Fatalf("table %d rows, columns %v", tab.Rows, tab.Names())
	}
}
