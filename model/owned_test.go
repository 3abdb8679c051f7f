package model

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestForceRefusesAnEditedRelease: --force replaces a release only as
// privlab wrote it; a report.md the user edited (or any listed file) is
// named and nothing is replaced (issue 32, item 12).
func TestForceRefusesAnEditedRelease(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "rel")
	if _, err := WriteRelease(dir, testRelease(), WriteOptions{Audit: &Audit{}}); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.md")
	edited := readFile(t, report) + "\nmy notes\n"
	os.WriteFile(report, []byte(edited), 0o644)
	_, err := WriteRelease(dir, testRelease(), WriteOptions{Force: true, Audit: &Audit{}})
	var pe *ParamError
	want := "its file " + report + " was changed since privlab wrote it (its SHA-256 is not the one manifest.json records); refusing to replace the release, even when told to"
	if !errors.As(err, &pe) || pe.Param != "out" || pe.Reason != want {
		t.Fatalf("edited report.md: %v\nwant reason %q", err, want)
	}
	if readFile(t, report) != edited {
		t.Error("the edited report was replaced")
	}
	if got := entries(t, parent); !reflect.DeepEqual(got, []string{"rel", "rel.audit.json"}) {
		t.Errorf("parent holds %v", got)
	}
	if got := Replaceable(dir); got != "report.md was changed since privlab wrote it" {
		t.Errorf("Replaceable: %q", got)
	}
	// A data file changed the same way is named too.
	os.WriteFile(report, []byte(edited[:len(edited)-len("\nmy notes\n")]), 0o644)
	os.WriteFile(filepath.Join(dir, "qi.csv"), []byte("age\n1\n"), 0o644)
	if got := Replaceable(dir); got != "qi.csv was changed since privlab wrote it" {
		t.Errorf("Replaceable after qi.csv changed: %q", got)
	}
}
