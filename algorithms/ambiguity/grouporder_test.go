package ambiguity

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"privlab/model"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// TestFilesAnswerAsRun: a release read from files (its tables put group
// by group only where a query reads rows: no bitset, or numeric) answers
// COUNT, SUM and AVG exactly as the run does, on quasi-identifiers of 5
// to 300 values (numeric q0, q2, q4; q5 has no bitset) and sensitive
// tables of 7 and 300 values (the latter read row by row). A table left
// unsorted where rows are read answers otherwise, or panics.
func TestFilesAnswerAsRun(t *testing.T) {
	doms := []int{5, 12, 25, 50, 100, 300}
	for _, sdom := range []int{7, 300} {
		in := countsInput(t, doms, sdom, 3000)
		in.Values = model.Values{"alpha": "0.5", "beta": "0.2", "seed": "3"}
		res, err := (Method{}).Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		rel, _, err := res.Release(7)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "rel")
		if _, err := releasedir.Write(dir, rel, releasedir.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		files, err := openScheme(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, agg := range []string{"SUM(q0)", "AVG(q2)", "AVG(q4)", "COUNT(*)"} {
			for _, where := range []string{"q1 IN ('v1', 'v3', 'v5')", "q5 IN ('v7', 'v8', 'v9', 'v10', 'v11') AND q0 >= 1",
				"s IN ('s1', 's2', 's3') AND q3 IN ('v1', 'v2', 'v4', 'v6')", "q4 >= 30 AND q2 < 20"} {
				texts = append(texts, agg+" WHERE "+where)
			}
		}
		nonzero := 0
		for _, text := range texts {
			q, err := query.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			a, err1 := res.Answerer.Answer(q)
			b, err2 := files.Answer(q)
			if err1 != nil || err2 != nil || math.Float64bits(a.Estimate) != math.Float64bits(b.Estimate) || a.Empty != b.Empty {
				t.Fatalf("%d sensitive values: %s: the run answers %+v (%v), the files %+v (%v)", sdom, text, a, err1, b, err2)
			}
			if a.Estimate != 0 {
				nonzero++
			}
		}
		if nonzero < len(texts)-2 {
			t.Fatalf("%d sensitive values: only %d of %d estimates not 0", sdom, nonzero, len(texts))
		}
	}
}
