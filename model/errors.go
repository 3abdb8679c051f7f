package model

import (
	"fmt"
	"strings"
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
	Hint   string
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
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
	if e.Hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// ParamError is an invalid parameter: it names the parameter, the value, the
// allowed range or form, and why.
type ParamError struct {
	Param  string
	Value  string
	Reason string
	Hint   string
}

func (e *ParamError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "parameter %s", e.Param)
	if e.Value != "" {
		fmt.Fprintf(&b, " = %q", e.Value)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Hint != "" {
		b.WriteString(" (hint: ")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}
