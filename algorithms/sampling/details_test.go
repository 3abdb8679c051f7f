package sampling

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/releasedir"
)

// The answerer reads the manifest's details through the format package,
// strictly: a key the format does not declare stops it, naming the key
// (it decoded them leniently before; issue 23, item 5).
func TestOpenReleaseReadsDetailsStrictly(t *testing.T) {
	t.Parallel()
	in := censusInput(t, 500, "capital-loss", model.Values{paramRate: "0.8", paramMaxDist: "0.6", "seed": "11"})
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	rel, _, err := res.Release(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := releasedir.Write(dir, rel, releasedir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := (Method{}).OpenRelease(dir); err != nil {
		t.Fatal(err)
	}
	verifytest.Restate(t, dir, func(m map[string]any) { m["details"].(map[string]any)["k_guaranteed"] = 100 })
	if _, err := (Method{}).OpenRelease(dir); err == nil || !strings.Contains(err.Error(), `details: unknown key "k_guaranteed"`) {
		t.Fatalf("got %v", err)
	}
}
