package kja

import (
	"context"
	"path/filepath"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
)

// adultDir is the ARX version of UCI Adult beside the project (not part
// of it): 30,162 rows, 8 QIs, categorical ones ordered by the ARX
// hierarchies.
var adultDir = filepath.Join("..", "..", "..", "shared", "data", "adult")

var adultQIs = []string{"sex", "age", "race", "marital-status", "education", "native-country", "workclass", "occupation"}

// adultInput loads Adult as the pipeline would (nil when absent).
func adultInput(tb testing.TB) *method.Input {
	tb.Helper()
	t, err := model.LoadFile(filepath.Join(adultDir, "adult.csv"), model.LoadOptions{})
	if err != nil {
		tb.Skipf("skipping: %s is not here (the shared data folder is absent): %v", adultDir, err)
	}
	hs := map[string]*model.Hierarchy{}
	for _, q := range append(append([]string(nil), adultQIs...), "salary-class") {
		c := t.Column(q)
		var h *model.Hierarchy
		if c.Kind == model.Numeric {
			h, err = model.BuildHierarchy("intervals:5,10,20", c)
		} else {
			h, err = model.LoadHierarchyFile(q, filepath.Join(adultDir, "adult_hierarchy_"+q+".csv"))
		}
		if err != nil {
			tb.Fatal(err)
		}
		hs[q] = h
	}
	return &method.Input{Table: t, Roles: model.Roles{QIs: adultQIs, SA: "salary-class"}, Hierarchies: hs}
}

// BenchmarkAdultMondrian is plain Mondrian on Adult, k = 10: the whole
// Run (JT, Mondrian, groups and the query index).
func BenchmarkAdultMondrian(b *testing.B) {
	in := adultInput(b)
	in.Variant, in.Values = MondrianPlain, model.Values{"k": "10", "seed": "1"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (Method{}).Run(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
