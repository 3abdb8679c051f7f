package kja

import (
	"strings"
	"testing"

	"privlab/algorithms/verify/verifytest"
)

// The answerer reads the manifest's details through the format package,
// strictly, with every error handled: a key the format does not declare
// stops it, naming the key (it read them leniently before and dropped a
// failure to encode them again; issue 23, item 5).
func TestOpenReleaseReadsDetailsStrictly(t *testing.T) {
	t.Parallel()
	inst := randomInstance(t, 101)
	dir, _ := exportRelease(t, runVariant(t, inst, "mondrian", 3, 1), 1)
	if _, err := (Method{}).OpenRelease(dir); err != nil {
		t.Fatal(err)
	}
	verifytest.Restate(t, dir, func(m map[string]any) { m["details"].(map[string]any)["k_guaranteed"] = 100 })
	if _, err := (Method{}).OpenRelease(dir); err == nil || !strings.Contains(err.Error(), `details: unknown key "k_guaranteed"`) {
		t.Fatalf("got %v", err)
	}
}
