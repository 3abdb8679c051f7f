package format

import (
	"strings"
	"testing"

	"privlab/model/releasedir"
)

// The details read back exactly as written, and strictly: a key the
// format does not declare is an error.
func TestDetailsReadBackStrictly(t *testing.T) {
	t.Parallel()
	d := Details{Algorithm: "mondrian", Methodology: PlainKA, Join: []string{"id"}, NCPDomain: DomainJT, SAKind: Categorical,
		Domain: []DomainEntry{{QI: "age", Kind: Numeric, Low: 17, High: 90}, {QI: "sex", Kind: Categorical, High: 1, Values: []string{"F", "M"}}},
		Boxes:  3, SensitiveGroups: 3, JTRows: 40, PublicRows: 10, SmallestBox: 10, SmallestGroup: 10, Grouping: Groupings[PlainKA]}
	raw, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"k_algorithm":"mondrian","methodology":"k-anonymity","join_columns":["id"],"domain":[{"qi":"age","kind":"numeric","low":17,"high":90},` +
		`{"qi":"sex","kind":"categorical","low":0,"high":1,"values":["F","M"]}],"ncp_domain":"JT","sensitive_kind":"categorical","boxes":3,` +
		`"sensitive_groups":3,"jt_rows":40,"public_rows":10,"smallest_box":10,"smallest_sensitive_group":10,"sensitive_grouping":"box","qi_paired":0}`
	if string(raw) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", raw, want)
	}
	got, err := Read(&releasedir.Manifest{Details: raw})
	if err != nil || got.Domain[1].Values[1] != "M" || got.JTRows != 40 || got.NCPDomain != DomainJT {
		t.Fatalf("read back %+v (%v)", got, err)
	}
	forged := strings.Replace(want, `"qi_paired":0`, `"qi_paired":0,"k_guaranteed":100`, 1)
	if _, err := Read(&releasedir.Manifest{Details: []byte(forged)}); err == nil || !strings.Contains(err.Error(), `unknown key "k_guaranteed"`) {
		t.Errorf("forged details: %v", err)
	}
	if _, err := Read(&releasedir.Manifest{}); err == nil {
		t.Error("a manifest without details reads")
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	if got := strings.Join(JATHeader([]string{"age", "sex"}), ","); got != "GroupID,SG,age_min,age_max,sex_min,sex_max" {
		t.Errorf("jat.csv header %s", got)
	}
	if got := strings.Join(SIHeader("occupation"), ","); got != "SG,occupation" {
		t.Errorf("si.csv header %s", got)
	}
}
