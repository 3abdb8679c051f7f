package distribution

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// The answerer reads the domain from the details through the format
// package, strictly, with every error handled: a key the format does not
// declare stops it, naming the key (it read the details as a map and
// dropped a failed type assertion before; issue 23, item 5).
func TestOpenReleaseReadsDetailsStrictly(t *testing.T) {
	t.Parallel()
	tab, err := csvfile.Load(bytes.NewReader([]byte("age,loss\n20,1\n30,2\n40,3\n50,4\n20,2\n30,3\n40,4\n50,1\n")), csvfile.LoadOptions{Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := hierarchy.Build("binary", tab.Column("loss"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Method{}.Run(context.Background(), &method.Input{Table: tab, Roles: model.Roles{QIs: []string{"age"}, SA: "loss"},
		Hierarchies: map[string]*hierarchy.Hierarchy{"loss": h}, Values: model.Values{}})
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
