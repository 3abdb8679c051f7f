package model

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Invisible reports whether r is a character that text shown to a
// person must never hold as it is: a control character (C0, DEL, C1:
// ESC starts a terminal's escape sequences, BEL ends an OSC title, CR
// and tab move the cursor), a format character (the bidi overrides and
// isolates, zero-width characters) or a line or paragraph separator.
// A header or a cell may hold any of them; report.md (mdText) and the
// terminal (TermText) write them as visible escapes.
func Invisible(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}

// TermText is s as a terminal may print it: every Invisible character
// written as a visible escape (\t, \n, \r, \x1b for the other C0 and
// C1 controls and DEL, \u202e for the others) and every byte that is
// not UTF-8 as \xff, so that a name or a value read from a file can
// neither move the cursor, retitle or clear the screen nor reorder the
// text around it. Text without such characters is returned as it is,
// and TermText of its own result changes nothing.
func TermText(s string) string { return escapeTerm(s, false) }

// TermLines is TermText for text of several lines: every line escaped,
// the newlines kept.
func TermLines(s string) string { return escapeTerm(s, true) }

func escapeTerm(s string, keepNewline bool) string {
	for i, r := range s {
		if (Invisible(r) || r == utf8.RuneError) && !(keepNewline && r == '\n') {
			var b strings.Builder
			b.Grow(len(s) + 8)
			b.WriteString(s[:i])
			writeTerm(&b, s[i:], keepNewline)
			return b.String()
		}
	}
	return s
}

// writeTerm writes s escaped as TermText does; keepNewline leaves '\n'
// as it is (a stream of lines, TermWriter).
func writeTerm(b *strings.Builder, s string, keepNewline bool) {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(b, `\x%02x`, s[0])
		case r == '\n' && keepNewline:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x100 && Invisible(r):
			fmt.Fprintf(b, `\x%02x`, r)
		case Invisible(r):
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
}
