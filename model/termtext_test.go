package model

import "testing"

// Every control, format and separator character and every byte that is
// not UTF-8 is written as a visible escape; other text (a backslash, a
// quote, letters of any script, the workbench's own symbols) as it is.
func TestTermText(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b]0;PWNED\x07":     `a\x1b]0;PWNED\x07`,
		"x\x1b[2Jy":             `x\x1b[2Jy`,
		"ge\tnder\r\n":          `ge\tnder\r\n`,
		"c\u009bold\x7f\x00":    `c\x9bold\x7f\x00`,
		"dis\u202eease\u2066":   `dis\u202eease\u2066`,
		"zw\u200bj\ufeff\u2028": `zw\u200bj\ufeff\u2028`,
		"bad\xff\xc3":           `bad\xff\xc3`,
		`zi\p "q" 日本 ≥ ✓ ü �`:   `zi\p "q" 日本 ≥ ✓ ü �`,
	} {
		if got := TermText(in); got != want {
			t.Errorf("TermText(%q) = %q, want %q", in, got, want)
		}
		if got := TermText(TermText(in)); got != want {
			t.Errorf("TermText twice (%q) = %q", in, got)
		}
	}
	if got := TermLines("a\x1b[31m\nb\tc\n"); got != "a\\x1b[31m\nb\\tc\n" {
		t.Errorf("TermLines = %q", got)
	}
}
