package format

import (
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/releasedir"
)

// The details read back exactly as written, and strictly: a key the
// format does not declare is an error; a node's probability is left out
// where there is none (inner nodes).
func TestDetailsReadBackStrictly(t *testing.T) {
	t.Parallel()
	d := Details{SamplingRate: 0.9, MaxDistortion: 0.6, RowsConsidered: 10, RowsSampled: 9, RowsUnsampled: 1, RowsPublished: 9,
		Marginals: "table", MinGeneralization: map[string]int{"age": 1},
		Attributes: []Attribute{{Name: "age", Nodes: []Node{{Value: "*", Parent: -1}, {Value: "20", Parent: 0, P: 1}}}},
		Sensitive:  []Value{{Value: "flu", P: 1}}}
	raw, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"sampling_rate":0.9,"max_distortion":0.6,"rows_considered":10,"rows_sampled":9,"rows_unsampled":1,"rows_suppressed_by_method":0,` +
		`"rows_published":9,"marginals":"table","min_generalization":{"age":1},"worst_margin":0,"max_distortion_published":0,"avg_distortion":0,` +
		`"public_knowledge":[{"attribute":"age","nodes":[{"value":"*","parent":-1},{"value":"20","parent":0,"p":1}]}],"sensitive_marginals":[{"value":"flu","p":1}]}`
	if string(raw) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", raw, want)
	}
	got, err := Read(&releasedir.Manifest{Details: raw})
	if err != nil || got.Attributes[0].Nodes[1].P != 1 || got.MinGeneralization["age"] != 1 {
		t.Fatalf("read back %+v (%v)", got, err)
	}
	forged := strings.Replace(want, `"marginals":"table"`, `"marginals":"table","population":"public"`, 1)
	if _, err := Read(&releasedir.Manifest{Details: []byte(forged)}); err == nil || !strings.Contains(err.Error(), `unknown key "population"`) {
		t.Errorf("forged details: %v", err)
	}
	if got := strings.Join(Header([]string{"age", "sex"}, "disease"), ","); got != "age,sex,disease" {
		t.Errorf("header %s", got)
	}
}

// MarginalsFile names the file --marginals gives, and none for the
// table's own marginals or an unset parameter.
func TestMarginalsFile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		values model.Values
		want   string
	}{
		{model.Values{}, ""},
		{model.Values{ParamMarginals.Name(): MarginalsTable}, ""},
		{model.Values{ParamMarginals.Name(): "pop.csv"}, "pop.csv"},
		{model.Values{ParamMarginals.Name(): "dir/table"}, "dir/table"},
	} {
		if got := MarginalsFile(c.values); got != c.want {
			t.Errorf("MarginalsFile(%v) = %q, want %q", c.values, got, c.want)
		}
	}
}
