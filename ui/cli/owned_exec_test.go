package cli

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"privlab/model/releasedir"
)

// Issue 32, item 13: eight `run --force` to one directory that holds a
// release, started together, repeated: each exits 0 or 2 saying another
// export won, at least one wins, and the release that remains passes
// check beside its own audit record (the claim manifest line).
func TestConcurrentForceExports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := func(seed int) []string {
		return []string{"run", "--in", "dataset:census", "--rows", "2000", "--qi", "age,sex", "--sa", "capital-loss",
			"--out", "r", "--seed", fmt.Sprint(seed), "--force"}
	}
	if _, e, code := privlab(t, dir, args(100)...); code != 0 {
		t.Fatalf("first export: exit %d\n%s", code, e)
	}
	for trial := 0; trial < 4; trial++ {
		const n = 8
		codes := make([]int, n)
		errs := make([]string, n)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				_, errs[i], codes[i] = privlab(t, dir, args(trial*n+i+1)...)
			}(i)
		}
		wg.Wait()
		wins := 0
		for i, c := range codes {
			switch {
			case c == 0:
				wins++
			case c != 2 || !strings.HasPrefix(errs[i], `privlab: parameter out = "r": another export to it finished while this one ran and won: its release is in place, this one is not written`):
				t.Fatalf("trial %d: export %d: exit %d\n%s", trial, i, c, errs[i])
			}
		}
		if wins == 0 {
			t.Fatalf("trial %d: no export won: %v", trial, codes)
		}
		out, e, code := privlab(t, dir, "check", "r")
		if code != 0 || !strings.Contains(out, "ok   provenance") {
			t.Fatalf("trial %d: check: exit %d\n%s\n%s", trial, code, out, e)
		}
		a, err := releasedir.ReadAudit(releasedir.AuditPath(dir + "/r"))
		m, merr := releasedir.ReadManifest(dir + "/r")
		if err != nil || merr != nil {
			t.Fatalf("trial %d: %v %v", trial, err, merr)
		}
		if sum, _ := releasedir.ManifestDigest(m); sum != a.ManifestDigest {
			t.Fatalf("trial %d: the audit record holds digest %s, the manifest's is %s", trial, a.ManifestDigest, sum)
		}
		if got := strings.Join(dirNames(t, dir), " "); got != "r r.audit.json" {
			t.Fatalf("trial %d: beside the release: %s", trial, got)
		}
	}
}
