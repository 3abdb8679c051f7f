package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestFixWords: every setting a fix can name has words of its own that
// name no flag and no key (the text Error() shows when no front end
// renders the fix).
func TestFixWords(t *testing.T) {
	for _, s := range Settings {
		for _, c := range []Change{Give, Raise, Lower, Leave} {
			f := Fix{Setting: s, Change: c, Param: "k", Attr: "age", Value: "v"}
			w := f.String()
			if w == "" || strings.HasPrefix(w, "change ") || strings.Contains(w, "--") {
				t.Errorf("%s (change %d): %q", s, c, w)
			}
		}
	}
	if got := (Fix{Setting: SetParam, Param: "k", Change: Raise, Value: "5", Why: "to hide more"}).String(); got != "raise k to at least 5 to hide more" {
		t.Errorf("raise k: %q", got)
	}
}

// TestHintOfAndErrorWithHint: the hint and fixes of a wrapped error are
// found, and a front end's words replace them in the error's text only.
func TestHintOfAndErrorWithHint(t *testing.T) {
	pe := &ParamError{Param: "out", Value: "rel", Reason: ErrExists.Error(), Hint: "or export elsewhere",
		Fixes: []Fix{{Setting: SetForce, Why: "to replace it"}}}
	err := fmt.Errorf("export: %w", &existsError{pe})
	if !errors.Is(err, ErrExists) {
		t.Fatal("not ErrExists")
	}
	hint, fixes, param, ok := HintOf(err)
	if !ok || hint != "or export elsewhere" || len(fixes) != 1 || fixes[0].Setting != SetForce || param != "out" {
		t.Fatalf("HintOf: %q %+v %q %v", hint, fixes, param, ok)
	}
	if got, want := err.Error(), `export: parameter out = "rel": release directory already exists (hint: confirm to replace it; or export elsewhere)`; got != want {
		t.Errorf("Error():\n%s\nwant\n%s", got, want)
	}
	if got, want := ErrorWithHint(err, "ANSWER"), `export: parameter out = "rel": release directory already exists (hint: ANSWER)`; got != want {
		t.Errorf("ErrorWithHint:\n%s\nwant\n%s", got, want)
	}
	if got := ErrorWithHint(err, ""); got != `export: parameter out = "rel": release directory already exists` {
		t.Errorf("without the hint: %s", got)
	}
	if _, _, _, ok := HintOf(errors.New("plain")); ok {
		t.Error("a plain error has a hint")
	}
	n := Note{Text: "t.csv:3: zip is read as categorical", Fixes: []Fix{{Setting: SetKind, Attr: "zip", Value: "numeric"}}}
	if got := n.String(); got != "t.csv:3: zip is read as categorical; read zip as numeric" {
		t.Errorf("note: %q", got)
	}
}
