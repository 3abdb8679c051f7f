package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
)

// Picking a release's audit record (DIR.audit.json, listed by the
// picker among the .json files) opens the release it audits, never reads
// it as a project; one with no release beside it is refused with words
// that say what it is (issue 35 polish: the picker listed *.audit.json).
func TestPickingAnAuditRecordOpensItsRelease(t *testing.T) {
	dir := t.TempDir()
	rel := filepath.Join(dir, "rel")
	if err := os.Mkdir(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(rel, "manifest.json"), rel + ".audit.json", filepath.Join(dir, "lone.audit.json")} {
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := newApp(testEnv, pipeline.Project{Input: "dataset:employees", Method: "distribution"})
	d := newFileDialog(a.st)
	done, cmd := d.picked(rel + ".audit.json")
	if !done || cmd == nil {
		t.Fatalf("picking the audit record did nothing (done %v)", done)
	}
	if msg, ok := cmd().(openReleaseMsg); !ok || msg.dir != rel {
		t.Fatalf("picking %s.audit.json gave %#v, want the release %s opened", rel, cmd(), rel)
	}
	done, cmd = d.picked(filepath.Join(dir, "lone.audit.json"))
	if !done || cmd != nil || !strings.Contains(a.st.Status, "audit record") {
		t.Fatalf("a lone audit record: done %v, cmd %v, status %q", done, cmd != nil, a.st.Status)
	}
}
