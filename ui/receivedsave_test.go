package ui

import (
	"os"
	"strings"
	"testing"
)

// TestReceivedReleaseSavesNoProject: ctrl+s and S on a received release
// refuse, saying why and what to do, and write nothing: the session
// holds the release's input and roles but the method and values of the
// session before it, so the saved project claimed that privlab run
// --config remade the release while it made another (a distribution
// release with defaults from a lossyjoin one).
func TestReceivedReleaseSavesNoProject(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
		a = receivedApp(t, dir)
		for _, k := range []string{"ctrl+s", "S"} {
			press(t, a, k)
			if a.dialog != nil {
				t.Fatalf("%s on a received release opened %T", k, a.dialog)
			}
			if !a.st.StatusErr || !strings.Contains(a.st.Status, "a received release is read here") || !strings.Contains(a.st.Status, "ctrl+o") {
				t.Errorf("%s: status %q", k, a.st.Status)
			}
		}
		if _, err := os.Stat("project.json"); err == nil {
			t.Fatal("a project was written")
		}
	})
}
