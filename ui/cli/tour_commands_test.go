package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"privlab/algorithms/tour"
)

// shellWords splits a printed command as a shell would (single quotes
// only: quoteFlag's).
func shellWords(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// TestEveryTourCommandRuns: every command a tour prints (privlab tour
// NAME --steps) runs as printed and exits 0; the ambiguity tour's
// violating steps once exited 1 (issue 35.10).
func TestEveryTourCommandRuns(t *testing.T) {
	t.Chdir(t.TempDir())
	ran, accepted := 0, 0
	for _, name := range tour.Names() {
		var out, errb bytes.Buffer
		if code := Execute([]string{"tour", name, "--steps"}, &out, &errb); code != exitOK {
			t.Fatalf("tour %s --steps: exit %d: %s", name, code, errb.String())
		}
		steps := 0
		for _, line := range strings.Split(out.String(), "\n") {
			cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "run: privlab ")
			if !ok {
				continue
			}
			steps++
			ran++
			if strings.Contains(cmd, "--accept-violations") {
				accepted++
			}
			args := shellWords(strings.ReplaceAll(cmd, " DIR", fmt.Sprintf(" out-%s-%d", name, steps)))
			var o, e bytes.Buffer
			if code := Execute(args, &o, &e); code != exitOK {
				t.Errorf("tour %s, step %d: privlab %s: exit %d: %s", name, steps, cmd, code, e.String())
			}
		}
		if steps != 6 {
			t.Errorf("tour %s prints %d run: lines, want 6", name, steps)
		}
	}
	if ran != 30 || accepted != 6 {
		t.Errorf("ran %d commands, %d with --accept-violations; want 30, 6", ran, accepted)
	}
}
