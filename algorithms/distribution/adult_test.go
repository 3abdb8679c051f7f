package distribution

import (
	"context"
	"testing"

	"privlab/algorithms/method"
	"privlab/datasets/datasetstest"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
)

var adultColumns = []string{"age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
	"occupation", "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
	"native-country", "salary-class"}

// TestAdultCapitalLossDenominator measures SPEC 2.4's example on the real
// data: UCI Adult's non-zero capital-loss (1,519 rows, 91 values), a
// binary hierarchy over the sorted values, groups of 5-year age bands,
// target = the table's own distribution. Exact integer weights send
// nearly everything to high nodes; a denominator bound of 8 cuts the
// average generalized range several times at a small distance from the
// requested target.
func TestAdultCapitalLossDenominator(t *testing.T) {
	adultPath, err := datasetstest.SharedFile("adult-uci", "adult.data") // the raw UCI training split: header-less, "?" missing
	if err != nil {
		t.Skip("the raw UCI Adult file: ", err)
	}
	all, err := csvfile.LoadFile(adultPath, csvfile.LoadOptions{Header: adultColumns})
	if err != nil {
		t.Fatal(err)
	}
	loss := all.Column("capital-loss")
	var rows []int
	for r := 0; r < all.Rows; r++ {
		if !loss.IsMissing(r) && loss.Num(r) != 0 {
			rows = append(rows, r)
		}
	}
	tab := all.SelectRows(rows)
	if tab.Rows != 1519 || len(distinctNums(tab.Column("capital-loss"))) != 91 {
		t.Fatalf("%d rows, %d values; want 1,519 rows and 91 values", tab.Rows, len(distinctNums(tab.Column("capital-loss"))))
	}
	ageH, err := hierarchy.Build("intervals:5", tab.Column("age"))
	if err != nil {
		t.Fatal(err)
	}
	saH, err := hierarchy.Build("binary", tab.Column("capital-loss"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(maxDen string) (avgRange, emd, maxAbs float64) {
		res, err := Method{}.Run(context.Background(), &method.Input{Table: tab,
			Roles:       model.Roles{QIs: []string{"age"}, SA: "capital-loss"},
			Hierarchies: map[string]*hierarchy.Hierarchy{"age": ageH, "capital-loss": saH},
			Values:      model.Values{"grouping": "level:age=1", "target": "table", "max-denominator": maxDen}})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Summary {
			switch f.Name {
			case "effective vs requested target EMD":
				emd = f.Value
			case "effective vs requested target max |diff|":
				maxAbs = f.Value
			}
		}
		return res.Utility.Value / float64(tab.Rows), emd, maxAbs
	}
	exactRange, exactEMD, _ := run("0")
	boundRange, boundEMD, boundMax := run("8")
	t.Logf("exact weights: average range %.0f (EMD %.4f); denominator 8: average range %.0f, %.1fx lower, EMD(P',P) %.4f, max |P'-P| %.4f",
		exactRange, exactEMD, boundRange, exactRange/boundRange, boundEMD, boundMax)
	if exactEMD > 1e-12 {
		t.Fatalf("exact weights must give the requested target (EMD %v)", exactEMD)
	}
	if !(exactRange > 2.5*boundRange) {
		t.Fatalf("the denominator bound should cut the average range by far: exact %v, bounded %v", exactRange, boundRange)
	}
	if !(boundEMD < 0.02 && boundMax < 0.1) {
		t.Fatalf("the bounded target drifted too far: EMD %v, max %v", boundEMD, boundMax)
	}
}

// distinctNums counts the values the rows hold (dictionaries are shared
// with the unfiltered table).
func distinctNums(c *model.Column) map[float64]bool {
	out := map[float64]bool{}
	for r := range c.Codes {
		out[c.Num(r)] = true
	}
	return out
}
