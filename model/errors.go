package model

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// InputError is a problem with an input file: it names the file, the line
// and, where it applies, the column, says what was expected and gives a hint.
// Its text starts with FILE:LINE: so editors can jump to it.
type InputError struct {
	File   string
	Line   int // 1-based; 0 when the problem is the whole file
	Column int // 1-based field number; 0 when not about one field
	Field  string
	Msg    string
	// Hint says what to do in words that hold on every front end (no
	// command-line flag, no key); Fixes name the settings that would
	// resolve it, which each front end renders in its own words.
	Hint  string
	Fixes []Fix
}

func (e *InputError) Error() string { return e.withHint(HintText(e.Hint, e.Fixes, Fix.String)) }

func (e *InputError) hint() (string, []Fix) { return e.Hint, e.Fixes }

func (e *InputError) withHint(hint string) string {
	var b strings.Builder
	b.WriteString(shownFile(e.File))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Column > 0 {
		if e.Field != "" {
			fmt.Fprintf(&b, "column %d (%s): ", e.Column, e.Field)
		} else {
			fmt.Fprintf(&b, "column %d: ", e.Column)
		}
	}
	b.WriteString(e.Msg)
	writeHint(&b, hint)
	return b.String()
}

// maxShownFile is the longest file name an error shows whole: no path
// longer than PATH_MAX (4096 bytes on Linux) opens, so a longer one (a
// project file's "input" of megabytes) is cut rather than printed into
// the terminal.
const maxShownFile = 4096

// shownFile is name, or its first 256 bytes and its length when it is
// longer than maxShownFile.
func shownFile(name string) string {
	if len(name) <= maxShownFile {
		return name
	}
	cut := name[:256]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return fmt.Sprintf("%s… (a name of %d bytes)", cut, len(name))
}

// ParamError is an invalid parameter or setting: it names it, the value,
// the allowed range or form, and why.
type ParamError struct {
	Param  string
	Value  string
	Reason string
	// Hint and Fixes are as InputError's.
	Hint  string
	Fixes []Fix
}

func (e *ParamError) Error() string { return e.withHint(HintText(e.Hint, e.Fixes, Fix.String)) }

func (e *ParamError) hint() (string, []Fix) { return e.Hint, e.Fixes }

func (e *ParamError) withHint(hint string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "parameter %s", e.Param)
	if e.Value != "" {
		fmt.Fprintf(&b, " = %q", e.Value)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	writeHint(&b, hint)
	return b.String()
}

func writeHint(b *strings.Builder, hint string) {
	if hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(hint)
		b.WriteString(")")
	}
}
