package model

import (
	"strings"
	"testing"
)

// A file name longer than any path that opens (a hostile project's
// "input" of 9 MB was printed whole, twice) is shown cut, with its length;
// a name of a usual length is shown whole.
func TestInputErrorCutsAHugeFileName(t *testing.T) {
	huge := strings.Repeat("a", 1<<20)
	got := (&InputError{File: huge, Msg: "file name too long", Hint: "check the path"}).Error()
	want := strings.Repeat("a", 256) + "… (a name of 1048576 bytes): file name too long (hint: check the path)"
	if got != want {
		t.Errorf("got %.300q…, want %q", got, want)
	}
	usual := strings.Repeat("b", maxShownFile)
	if got := (&InputError{File: usual, Line: 2, Msg: "m"}).Error(); got != usual+":2: m" {
		t.Errorf("a name of %d bytes is cut: %.300q", len(usual), got)
	}
	// A cut never splits a UTF-8 sequence.
	wide := "a" + strings.Repeat("é", 3000)
	if got := (&InputError{File: wide, Msg: "m"}).Error(); !strings.HasPrefix(got, "a"+strings.Repeat("é", 127)+"…") {
		t.Errorf("got %.300q", got)
	}
}
