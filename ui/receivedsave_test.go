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

// TestReceivedReleaseDataIsTheRelease: the Data pane of a received
// release shows the roles, kinds and missing values the release was made
// with; the keys that would change them refuse, saying why (space made
// a column a QI the release does not have, and the pane then counted the
// dropped rows with roles the release was not made with).
func TestReceivedReleaseDataIsTheRelease(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
		a = receivedApp(t, dir)
		roles := strings.Join(a.st.Project.Roles.QIs, ",") + "|" + a.st.Project.Roles.SA
		press(t, a, "3")
		for _, k := range []string{" ", "a", "i", "n", "t", "m"} {
			press(t, a, "down", k)
			if got := strings.Join(a.st.Project.Roles.QIs, ",") + "|" + a.st.Project.Roles.SA; got != roles || len(a.st.Project.Kinds) > 0 || a.st.Project.Missing != "" {
				t.Fatalf("%q changed the received release's settings: roles %s (were %s), kinds %v, missing %q", k, got, roles, a.st.Project.Kinds, a.st.Project.Missing)
			}
			if !a.st.StatusErr || !strings.Contains(a.st.Status, "the release's own") {
				t.Errorf("%q: status %q", k, a.st.Status)
			}
		}
	})
}
