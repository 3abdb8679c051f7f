package format

import (
	"strings"
	"testing"

	"privlab/model/releasedir"
)

// The details read back exactly as written, and strictly: a key the
// format does not declare is an error; what a variant does not state is
// left out.
func TestDetailsReadBackStrictly(t *testing.T) {
	t.Parallel()
	d := Details{Remark: "one record", Classes: 3, JoinRows: 12, GroupFigures: []releasedir.FigureSummary{{Figure: "records", Min: 2, Mean: 2, Max: 2}}}
	raw, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"remark":"one record","classes":3,"join_rows":12,"group_figures":[{"figure":"records","min":2,"mean":2,"max":2}]}`
	if string(raw) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", raw, want)
	}
	got, err := Read(&releasedir.Manifest{Details: raw})
	if err != nil || got.JoinRows != 12 || got.GroupFigures[0].Figure != "records" || got.L != 0 {
		t.Fatalf("read back %+v (%v)", got, err)
	}
	forged := strings.Replace(want, `"classes":3`, `"classes":3,"alpha_guaranteed":true`, 1)
	if _, err := Read(&releasedir.Manifest{Details: []byte(forged)}); err == nil || !strings.Contains(err.Error(), `unknown key "alpha_guaranteed"`) {
		t.Errorf("forged details: %v", err)
	}
	if strings.Join(NSSHeader([]string{"job"}), ",") != "job,ClassID" || strings.Join(SSHeader("illness"), ",") != "ClassID,illness" ||
		strings.Join(GeneralizedHeader([]string{"job"}, "illness"), ",") != "job,illness" {
		t.Error("headers")
	}
}
