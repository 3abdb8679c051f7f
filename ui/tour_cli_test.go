package ui

import (
	"strings"
	"testing"
)

// TestCLITour: privlab tour lists the five tours, privlab tour NAME
// --steps prints a tour's steps with the paper's numbers, and mistakes
// are usage errors (exit 2) naming the tours.
func TestCLITour(t *testing.T) {
	dir := t.TempDir()
	out, _, code := cli(t, dir, "tour")
	if code != 0 {
		t.Fatalf("privlab tour: exit %d", code)
	}
	for _, name := range []string{"distribution", "kja", "lossyjoin", "sampling", "ambiguity"} {
		if !strings.Contains(out, "\n"+name+" ") {
			t.Errorf("privlab tour does not list %s:\n%s", name, out)
		}
	}
	out, _, code = cli(t, dir, "tour", "ambiguity", "--steps")
	if code != 0 || !strings.Contains(out, "Pr(Alan in T) = 1/3") || !strings.Contains(out, "== Step 6 of 6") {
		t.Fatalf("privlab tour ambiguity --steps: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"tour", "nosuch"}, {"tour", "--steps"}, {"tour", "kja", "--fast"}} {
		_, errOut, code := cli(t, dir, args...)
		if code != 2 || !strings.Contains(errOut, "privlab: ") || !strings.Contains(errOut, "tour") {
			t.Errorf("privlab %v: exit %d, %q", args, code, errOut)
		}
	}
}
