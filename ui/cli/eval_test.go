package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"privlab/model/releasedir"
)

// TestEvalReleaseGivesTheManifestsWorkload: eval --release, told no seed
// and no number of queries, draws the workload the manifest states its
// error on (its query seed and count), so it prints the manifest's mean;
// a seed of the user's draws another.
func TestEvalReleaseGivesTheManifestsWorkload(t *testing.T) {
	dir := t.TempDir()
	orig, rel := filepath.Join(dir, "census.csv"), filepath.Join(dir, "rel")
	for _, args := range [][]string{
		{"gen", "census", "--rows", "2000", "--seed", "3", "--out", orig},
		{"run", "--in", orig, "--qi", "age,sex,education", "--sa", "occupation", "--method", "kja", "--variant", "mondrian", "--k", "5", "--seed", "1", "--queries", "60", "--out", rel},
	} {
		var out, errOut bytes.Buffer
		if code := Execute(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut.String())
		}
	}
	m, err := releasedir.ReadManifest(rel)
	if err != nil {
		t.Fatal(err)
	}
	if m.WorkloadError == nil || m.WorkloadError.Measured == 0 {
		t.Fatalf("the manifest states no workload error: %+v", m.WorkloadError)
	}
	mean := regexp.MustCompile(`(?m)^rel\. error mean (\S+) `)
	eval := func(extra ...string) string {
		var out, errOut bytes.Buffer
		if code := Execute(append([]string{"eval", "--release", rel, "--original", orig}, extra...), &out, &errOut); code != 0 {
			t.Fatalf("eval %v: exit %d\n%s", extra, code, errOut.String())
		}
		got := mean.FindStringSubmatch(out.String())
		if got == nil {
			t.Fatalf("eval %v printed no mean:\n%s", extra, out.String())
		}
		return got[1]
	}
	want := fmt.Sprintf("%.4f", m.WorkloadError.Mean)
	if got := eval(); got != want {
		t.Errorf("eval --release: mean %s, the manifest's %s", got, want)
	}
	if got := eval("--seed", "5"); got == want {
		t.Errorf("eval --release --seed 5: mean %s, the manifest's too (the seed was not used)", got)
	}
}
