package releasedir

import (
	"errors"
	"fmt"
	"testing"

	"privlab/model"
)

// TestHintOfAndErrorWithHint: the hint and fixes of a wrapped error are
// found, and a front end's words replace them in the error's text only.
func TestHintOfAndErrorWithHint(t *testing.T) {
	pe := &model.ParamError{Param: "out", Value: "rel", Reason: ErrExists.Error(), Hint: "or export elsewhere",
		Fixes: []model.Fix{{Setting: model.SetForce, Why: "to replace it"}}}
	err := fmt.Errorf("export: %w", &existsError{pe})
	if !errors.Is(err, ErrExists) {
		t.Fatal("not ErrExists")
	}
	hint, fixes, param, ok := model.HintOf(err)
	if !ok || hint != "or export elsewhere" || len(fixes) != 1 || fixes[0].Setting != model.SetForce || param != "out" {
		t.Fatalf("HintOf: %q %+v %q %v", hint, fixes, param, ok)
	}
	if got, want := err.Error(), `export: parameter out = "rel": release directory already exists (hint: confirm to replace it; or export elsewhere)`; got != want {
		t.Errorf("Error():\n%s\nwant\n%s", got, want)
	}
	if got, want := model.ErrorWithHint(err, "ANSWER"), `export: parameter out = "rel": release directory already exists (hint: ANSWER)`; got != want {
		t.Errorf("ErrorWithHint:\n%s\nwant\n%s", got, want)
	}
	if got := model.ErrorWithHint(err, ""); got != `export: parameter out = "rel": release directory already exists` {
		t.Errorf("without the hint: %s", got)
	}
	if _, _, _, ok := model.HintOf(errors.New("plain")); ok {
		t.Error("a plain error has a hint")
	}
	n := model.Note{Text: "t.csv:3: zip is read as categorical", Fixes: []model.Fix{{Setting: model.SetKind, Attr: "zip", Value: "numeric"}}}
	if got := n.String(); got != "t.csv:3: zip is read as categorical; read zip as numeric" {
		t.Errorf("note: %q", got)
	}
}
