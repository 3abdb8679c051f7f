package sampling

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/hierarchy"
	mquery "privlab/model/query"
	"privlab/model/releasedir"
)

// Section 6.1.1: a record published as age 20-24 matches "age BETWEEN 20
// AND 21" with the share 2/5 of the interval's values, and counts are
// scaled by 1/beta.
func TestCountEstimate(t *testing.T) {
	var vals []float64
	for v := 20; v <= 29; v++ {
		vals = append(vals, float64(v))
	}
	h, err := hierarchy.Intervals("age", vals, []float64{5})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := newTaxonomy(exportAttribute(h, "age", func(int) float64 { return 0.1 }))
	if err != nil {
		t.Fatal(err)
	}
	young := node(t, tx, "20-24")
	cells := map[string]*acell{
		cellKey([]int32{young}, "100"): {nodes: []int32{young}, sa: "100", count: 3},
		cellKey([]int32{0}, "400"):     {nodes: []int32{0}, sa: "400", count: 1},
	}
	ix := newIndex([]string{"age"}, "loss", 0.5, []*taxonomy{tx}, []Value{{Value: "100", P: 0.5}, {Value: "400", P: 0.5}}, cells)
	for _, c := range []struct {
		query string
		want  float64
	}{
		{"COUNT(*) WHERE age BETWEEN 20 AND 21", (3*2.0/5 + 1*2.0/10) / 0.5},
		{"COUNT(*) WHERE age BETWEEN 20 AND 21 AND loss = 100", 3 * 2.0 / 5 / 0.5},
		{"COUNT(*)", 4 / 0.5},
		{"SUM(loss) WHERE age >= 25", 1 * 0.5 * 400 / 0.5},
		{"AVG(loss) WHERE age <= 24", (3*100 + 0.5*400) / 3.5},
		{"MAX(loss) WHERE age < 22", 400},
	} {
		q, err := mquery.Parse(c.query)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ix.Answer(q)
		if err != nil {
			t.Fatal(err)
		}
		if !b.HasEst || math.Abs(b.Estimate-c.want) > 1e-12 {
			t.Errorf("%s: %+v, want %v", c.query, b, c.want)
		}
	}
	q, _ := mquery.Parse("COUNT(*) WHERE zip = 1")
	var qe *mquery.Error
	if _, err := ix.Answer(q); !errors.As(err, &qe) {
		t.Errorf("a column the release does not publish: %v", err)
	}
}

// censusInput prepares the census example.
func censusInput(t testing.TB, rows int, sa string, values model.Values) *method.Input {
	t.Helper()
	d, err := datasets.Lookup("census")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := d.Load(rows, 0)
	if err != nil {
		t.Fatal(err)
	}
	roles := model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: sa}
	hs := map[string]*hierarchy.Hierarchy{}
	for _, a := range roles.Used() {
		if hs[a], err = d.Hierarchy(tb.Column(a)); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Method{}.Spec().Validate(values, tb.Rows)
	if err != nil {
		t.Fatal(err)
	}
	return &method.Input{Table: tb, Roles: roles, Hierarchies: hs, Values: v}
}

// The run and the exported files answer every query identically.
func TestAnswersFromRunAndFiles(t *testing.T) {
	in := censusInput(t, 4000, "capital-loss", model.Values{paramRate: "0.8", paramMaxDist: "0.6", "seed": "11"})
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	rel, rowMap, err := res.Release(1)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := releasedir.Write(dir, rel, releasedir.WriteOptions{Audit: &releasedir.Audit{RowMap: rowMap}}); err != nil {
		t.Fatal(err)
	}
	files, err := Method{}.OpenRelease(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"COUNT(*)",
		"COUNT(*) WHERE age BETWEEN 23 AND 41 AND sex = 'Female'",
		"COUNT(*) WHERE education IN ('Bachelors', 'Masters') AND capital-loss > 0",
		"SUM(capital-loss) WHERE marital-status != 'Divorced'",
		"AVG(capital-loss) WHERE age >= 50",
		"MIN(capital-loss) WHERE race = 'Black'",
		"MAX(capital-loss) WHERE native-country = 'Mexico'",
	} {
		q, err := mquery.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		a, err1 := res.Answerer.Answer(q)
		b, err2 := files.Answer(q)
		if err1 != nil || err2 != nil || a != b {
			t.Errorf("%s: run %+v (%v), files %+v (%v)", text, a, err1, b, err2)
		}
	}
}

// Bad parameters are errors naming the parameter.
func TestParameterErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	cases := []struct {
		values model.Values
		param  string // ParamError on this parameter, or "" for an InputError
	}{
		{model.Values{paramMinGen: "age=x"}, paramMinGen},
		{model.Values{paramMinGen: "zip=1"}, paramMinGen},
		{model.Values{paramRate: "0"}, paramRate},
		{model.Values{paramMaxDist: "1.5"}, paramMaxDist},
		{model.Values{paramMinGen: "age=4,sex=1,education=3,marital-status=2,race=1,native-country=2", paramMaxDist: "0.5"}, paramMaxDist},
		{model.Values{paramMarginal: filepath.Join(dir, "missing.csv")}, paramMarginal},
		{model.Values{paramMarginal: write("bad-header.csv", "a,b,c\n")}, ""},
		{model.Values{paramMarginal: write("bad-p.csv", "attribute,value,probability\nsex,Male,1.5\n")}, ""},
		{model.Values{paramMarginal: write("sum.csv", "attribute,value,probability\nsex,Male,0.7\nsex,Female,0.7\n")}, ""},
		{model.Values{paramMarginal: write("zero.csv", "attribute,value,probability\nsex,Male,1\n")}, ""},
	}
	for _, c := range cases {
		values := model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "1"}
		for k, v := range c.values {
			values[k] = v
		}
		d, _ := datasets.Lookup("census")
		tb, _ := d.Load(500, 0)
		in := &method.Input{Table: tb, Roles: model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"},
			Hierarchies: map[string]*hierarchy.Hierarchy{}, Values: values}
		for _, a := range in.Roles.Used() {
			in.Hierarchies[a], _ = d.Hierarchy(tb.Column(a))
		}
		_, err := Method{}.Run(context.Background(), in)
		var pe *model.ParamError
		var ie *model.InputError
		switch {
		case c.param != "" && !(errors.As(err, &pe) && pe.Param == c.param):
			t.Errorf("%v: %v, want a ParamError on %s", c.values, err, c.param)
		case c.param == "" && !errors.As(err, &ie):
			t.Errorf("%v: %v, want an InputError naming the file", c.values, err)
		case c.param == "" && !strings.Contains(err.Error(), dir):
			t.Errorf("%v: %v does not name the file", c.values, err)
		}
	}
}
