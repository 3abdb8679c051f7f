package pipeline

import (
	"math"
	"strings"
	"testing"

	"privlab/algorithms/attack"
	"privlab/algorithms/risk"
)

// TestCompareAttackLines: an attack's line marks a broken bound (✗) and
// a bound that holds (✓) in front of the count, so a clipped cell keeps
// the mark (it came after the count: "1431 ✗" clipped to "1431 …" hid
// it); the fewest successes are best, as on every line, broken or not;
// a release of no record is never best (it hides everyone trivially).
func TestCompareAttackLines(t *testing.T) {
	finding := func(records int, measured, bound float64) *attack.Report {
		return &attack.Report{Findings: []risk.Finding{{Attack: "membership", Records: records, Measured: measured, Bound: bound}}}
	}
	rows := []CompareRow{
		{Method: "a", Published: 8, Attacks: finding(1, 1, 0.5)},           // broken, on 1 person
		{Method: "b", Published: 8, Attacks: finding(3, 0.4, 0.5)},         // holds, 3
		{Method: "c", Published: 8, Attacks: finding(2, 1, math.NaN())},    // not bounded, 2
		{Method: "d", Published: 8, Attacks: finding(2, 0.25, 0.5)},        // holds, 2
		{Method: "e", Published: 8, Attacks: &attack.Report{}},             // did not run it
		{Method: "f", Published: 8, Attacks: finding(0, 0, 0.5), Err: "x"}, // failed: never best
		{Method: "g", Attacks: finding(0, 0, 0.5)},                         // published no record: never best
	}
	for _, l := range CompareLines(rows) {
		if l.Name != "attack: membership" {
			continue
		}
		if got := strings.Join(l.Text, " | "); got != "✗ 1 | ✓ 3 | 2 | ✓ 2 | — | — | ✓ 0" {
			t.Errorf("cells %q", got)
		}
		if want := []bool{true, false, false, false, false, false, false}; !equalBools(l.Best, want) {
			t.Errorf("best %v, want %v", l.Best, want)
		}
		return
	}
	t.Fatal("no membership line")
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
