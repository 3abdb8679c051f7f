package model

import (
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
