package check_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestBoundsExact: delta' and the sample's size are checked exactly
// (issue 18.5). The census release restated with a delta' ten decimals
// below its largest published distortion (4/9 here) fails the
// distortion line, and a release of every record (rate 1) restated with
// rate 0.9999999999999 fails the counts line (floor(0.9999999999999 x
// 3000) is 2999), both of which a tolerance of 1e-9 let pass.
func TestBoundsExact(t *testing.T) {
	dir, orig := release(t, nil)
	if rep := check(t, dir, orig); !rep.OK() {
		t.Fatalf("the release fails:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	bad := copyRelease(t, dir)
	var below string
	editManifest(t, bad, true, func(m map[string]any) {
		seen := details(m)["max_distortion_published"].(float64)
		below = strconv.FormatFloat(math.Floor(seen*1e10)/1e10, 'f', 10, 64)
		m["parameters"].(map[string]any)["max-distortion"] = below
	})
	if rep := check(t, bad, orig); !hasLine(rep, "distortion", false) {
		t.Errorf("delta' restated to %s, below the largest distortion: the distortion line passes\n%s", below, strings.Join(rep.Strings(), "\n"))
	}

	dir, orig = release(t, map[string]string{"sampling-rate": "1"})
	bad = copyRelease(t, dir)
	editManifest(t, bad, true, func(m map[string]any) {
		m["parameters"].(map[string]any)["sampling-rate"] = "0.9999999999999"
	})
	if rep := check(t, bad, orig); !hasLine(rep, "counts", false) {
		t.Errorf("every record sampled, rate restated to 0.9999999999999: the counts line passes\n%s", strings.Join(rep.Strings(), "\n"))
	}
}
