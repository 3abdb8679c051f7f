package session

import (
	"errors"
	"slices"
	"testing"

	"privlab/algorithms/pipeline"
)

// A role edit moves a column out of its other role and marks the
// settings changed, so the preview recomputes.
func TestRoleEditsMoveColumnsAndMarkChanges(t *testing.T) {
	var s Session
	s.ToggleQI("age")
	s.ToggleID("zip")
	if !slices.Equal(s.Project.Roles.QIs, []string{"age"}) || !slices.Equal(s.Project.Roles.IDs, []string{"zip"}) {
		t.Fatalf("roles %+v", s.Project.Roles)
	}
	s.SetSA("age")
	if s.Project.Roles.SA != "age" || len(s.Project.Roles.QIs) != 0 {
		t.Errorf("SetSA left age a quasi-identifier: %+v", s.Project.Roles)
	}
	s.ToggleQI("zip")
	if len(s.Project.Roles.IDs) != 0 || !slices.Equal(s.Project.Roles.QIs, []string{"zip"}) {
		t.Errorf("ToggleQI kept zip an identifier: %+v", s.Project.Roles)
	}
	s.ClearRole("age")
	if s.Project.Roles.SA != "" {
		t.Errorf("ClearRole kept the sensitive attribute: %+v", s.Project.Roles)
	}
	if s.Changes != 5 || !s.NeedRun || !s.Dirty {
		t.Errorf("changes %d, need run %v, dirty %v after five edits", s.Changes, s.NeedRun, s.Dirty)
	}
}

// A kind change drops the column's hierarchy and reads the table again.
func TestSetKindReloads(t *testing.T) {
	var s Session
	s.SetHierarchy("age", "intervals:5")
	s.NeedLoad = false
	s.SetKind("age", "categorical")
	if s.Project.Kinds["age"] != "categorical" || s.Project.Hierarchies["age"] != "" || !s.NeedLoad {
		t.Errorf("kinds %v, hierarchies %v, need load %v", s.Project.Kinds, s.Project.Hierarchies, s.NeedLoad)
	}
}

// The status goes when work for later settings lands, not before; a
// refusal stays through recomputations of the same settings.
func TestStatusExpiresWithLaterSettings(t *testing.T) {
	var s Session
	s.Notify("exported %s", "out")
	s.ExpireStatus(s.Changes)
	if s.Status != "exported out" {
		t.Fatalf("status %q went with work for the same settings", s.Status)
	}
	s.Changed()
	s.ExpireStatus(s.Changes)
	if s.Status != "" {
		t.Errorf("status %q stayed after a later edit landed", s.Status)
	}
	s.Refuse(errors.New("no such file").Error())
	s.ExpireStatus(s.Changes)
	if !s.StatusErr || s.Status != "no such file" {
		t.Errorf("refusal %q (error %v) went with the same settings", s.Status, s.StatusErr)
	}
}

// Missing-value tokens equal to the default ones are not written to the
// project; others are, and the table is read again.
func TestSetMissingTokens(t *testing.T) {
	var s Session
	if err := s.SetMissingTokens("NA, ?"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.MissingTokens(), []string{"NA", "?"}) || !s.NeedLoad {
		t.Errorf("tokens %q, need load %v", s.MissingTokens(), s.NeedLoad)
	}
}

// Receiving a release drops the table and the result (they have nothing
// to do with it) and keeps only the method and its values; the release's
// input, when found, is the project's again.
func TestReceiveKeepsOnlyTheMethod(t *testing.T) {
	var s Session
	s.Project.Input, s.Project.Method = "dataset:census", "kja"
	s.SetParam("k", "7")
	s.SetSA("age")
	s.Notify("something")
	s.Receive("out")
	if s.Project.Input != "" || s.Project.Method != "kja" || s.Project.Params["k"] != "7" || s.Project.Roles.SA != "" {
		t.Errorf("project after Receive: %+v", s.Project)
	}
	if s.ReceivedDir != "out" || !s.AskedRelease || s.Dirty || s.Status != "" || s.NeedRun {
		t.Errorf("dir %q asked %v dirty %v status %q need run %v", s.ReceivedDir, s.AskedRelease, s.Dirty, s.Status, s.NeedRun)
	}
	s.UseReleaseInput(pipeline.Project{Input: "people.csv", Delimiter: "semicolon"}, nil)
	if s.Project.Input != "people.csv" || s.Project.Delimiter != "semicolon" {
		t.Errorf("the release's input was not taken: %+v", s.Project)
	}
}

// An export leaves nothing unexported but the project unsaved (it now
// lists the release): the header's mark stays until a save (issue 35
// polish: "● unsaved" disappeared after an export).
func TestExportLeavesTheProjectUnsaved(t *testing.T) {
	var s Session
	s.Project.Params = nil
	s.Changed()
	if !s.Dirty || !s.Unsaved {
		t.Fatalf("a change: dirty %v, unsaved %v", s.Dirty, s.Unsaved)
	}
	s.Exported("rel")
	if s.Dirty || !s.Unsaved {
		t.Fatalf("after an export: dirty %v (want false), unsaved %v (want true)", s.Dirty, s.Unsaved)
	}
	s.Saved("p.json")
	if s.Dirty || s.Unsaved {
		t.Fatalf("after a save: dirty %v, unsaved %v", s.Dirty, s.Unsaved)
	}
}
