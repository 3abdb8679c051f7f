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
	d := Details{AuxiliaryTables: []ATFile{{QI: "age", File: "at_age.csv"}}, SensitiveTable: FileST, Kinds: map[string]string{"age": Numeric},
		CeilInvBeta: 2, MinGroupSize: 4, MaxGroupSize: 5, MinDistinctSA: 2, MaxFrequency: 1,
		FigureSummary: []releasedir.FigureSummary{{Figure: "join", Min: 8, Mean: 8.5, Max: 9}}}
	raw, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"auxiliary_tables":[{"qi":"age","file":"at_age.csv"}],"sensitive_table":"st.csv","kinds":{"age":"numeric"},"ceil_inv_beta":2,` +
		`"min_group_size":4,"max_group_size":5,"min_distinct_sensitive":2,"max_frequency":1,"group_figures":[{"figure":"join","min":8,"mean":8.5,"max":9}]}`
	if string(raw) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", raw, want)
	}
	got, err := Read(&releasedir.Manifest{Details: raw})
	if err != nil || got.AuxiliaryTables[0].File != "at_age.csv" || got.FigureSummary[0].Mean != 8.5 {
		t.Fatalf("read back %+v (%v)", got, err)
	}
	for forged, msg := range map[string]string{
		strings.Replace(want, `"max_frequency":1`, `"max_frequency":1,"presence_guaranteed":true`, 1): `unknown key "presence_guaranteed"`,
		strings.Replace(want, `"ceil_inv_beta":2`, `"ceil_inv_beta":2.5`, 1):                          "ceil_inv_beta: a JSON number 2.5 where int is expected",
	} {
		if _, err := Read(&releasedir.Manifest{Details: []byte(forged)}); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("forged details: %v, want %q", err, msg)
		}
	}
	if strings.Join(STHeader("disease"), ",") != "GroupID,disease,Frequency" || strings.Join(ATHeader("age"), ",") != "age,GroupID" {
		t.Error("headers")
	}
}
