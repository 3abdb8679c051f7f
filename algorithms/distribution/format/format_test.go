package format

import (
	"strings"
	"testing"

	"privlab/model/releasedir"
)

// The details read back exactly as written, and strictly: a key the
// format does not declare is an error; an effective target is left out
// when there is none (per-group targets).
func TestDetailsReadBackStrictly(t *testing.T) {
	t.Parallel()
	d := Details{Grouping: "sa-only", Target: "uniform", MaxDenominator: 8, Domain: []string{"1", "2"}, Effective: []float64{0.5, 0.5},
		Subdomains: 4, FakeValues: 1, SumOfRanges: 2.5, FigureSummary: []releasedir.FigureSummary{{Figure: "fakes", Min: 0, Mean: 0.5, Max: 1}}}
	raw, err := d.Encode()
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"grouping":"sa-only","target":"uniform","max_denominator":8,"per_group_target":false,"domain":["1","2"],"effective_target":[0.5,0.5],` +
		`"effective_vs_requested_emd":0,"effective_vs_requested_max_abs":0,"sa_rows":4,"fake_values":1,"sum_of_ranges":2.5,` +
		`"group_figures":[{"figure":"fakes","min":0,"mean":0.5,"max":1}]}`
	if string(raw) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", raw, want)
	}
	got, err := Read(&releasedir.Manifest{Details: raw})
	if err != nil || got.FigureSummary[0].Mean != 0.5 || got.Domain[1] != "2" || got.MaxDenominator != 8 {
		t.Fatalf("read back %+v (%v)", got, err)
	}
	d.Effective, d.PerGroupTarget = nil, true
	if raw, _ := d.Encode(); strings.Contains(string(raw), "effective_target") {
		t.Errorf("per-group target states an effective target: %s", raw)
	}
	forged := strings.Replace(want, `"sa_rows":4`, `"sa_rows":4,"SA_rows":5`, 1)
	if _, err := Read(&releasedir.Manifest{Details: []byte(forged)}); err == nil || !strings.Contains(err.Error(), `key "SA_rows" is given again`) {
		t.Errorf("forged details: %v", err)
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	if got := strings.Join(QIHeader([]string{"age", "sex"}), ","); got != "GroupID,age,sex" {
		t.Errorf("qi.csv header %s", got)
	}
}
