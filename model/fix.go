package model

import (
	"errors"
	"strings"
)

// Setting is what a user sets that a Fix can name: a method's parameter
// (SetParam, with Fix.Param naming it) or one of the settings below. The
// set is closed: the command line and the workbench each say, in their
// own words, how every one of them is set (flags there, panes and keys
// here), so an error names what to change without knowing where it will
// be read. The values are the settings' names in a project file and on
// the command line, which ParamError.Param uses too.
type Setting string

const (
	SetParam            Setting = "param"              // a method's parameter, or the seed: Fix.Param
	SetInput            Setting = "in"                 // the table to anonymize
	SetOriginal         Setting = "original"           // the original table of a release
	SetPublic           Setting = "public"             // the public table (a method that reads one)
	SetPopulation       Setting = "population"         // the population the attacks read
	SetPopulationCols   Setting = "population-columns" // the names of the population file's columns
	SetQI               Setting = "qi"                 // the quasi-identifiers
	SetSA               Setting = "sa"                 // the sensitive attribute
	SetID               Setting = "id"                 // the identifier columns
	SetHierarchy        Setting = "hierarchy"          // Fix.Attr's hierarchy
	SetKind             Setting = "kind"               // how Fix.Attr is read: numeric or categorical
	SetColumns          Setting = "columns"            // the names of a file's columns
	SetDelimiter        Setting = "delimiter"          // a file's field separator
	SetHeader           Setting = "header"             // whether a file's first row names its columns
	SetMissingValues    Setting = "missing-values"     // the cell values read as missing
	SetMaxCell          Setting = "max-cell"           // the longest cell the loader reads
	SetMissing          Setting = "missing"            // the missing-value policy: drop or category
	SetMethod           Setting = "method"             // the method
	SetVariant          Setting = "variant"            // the method's variant
	SetSweep            Setting = "sweep"              // the values a sweep runs
	SetOut              Setting = "out"                // where the release is written
	SetForce            Setting = "force"              // consent to replace an earlier release
	SetAllowGrowth      Setting = "allow-growth"       // consent to a release far larger than its input
	SetAcceptViolations Setting = "accept-violations"  // consent to write a release that fails its check
)

// Settings lists every setting a Fix can name.
var Settings = []Setting{SetParam, SetInput, SetOriginal, SetPublic, SetPopulation, SetPopulationCols, SetQI, SetSA, SetID, SetHierarchy, SetKind,
	SetColumns, SetDelimiter, SetHeader, SetMissingValues, SetMaxCell, SetMissing, SetMethod, SetVariant, SetSweep, SetOut, SetForce,
	SetAllowGrowth, SetAcceptViolations}

// Change says what a Fix does to its setting.
type Change int

const (
	Give  Change = iota // set it (to Value when known); for a role or table: give the missing one
	Raise               // raise it (to at least Value when known)
	Lower               // lower it (to at most Value when known)
	Leave               // leave it out (Value: the one entry of a list to leave out)
)

// Fix is what would resolve an error, said so that every front end can
// render it in its own words: the setting to change, how, and the value
// that works when it is known. Why completes the sentence in words that
// hold everywhere ("to join the tables on it").
type Fix struct {
	Setting Setting
	Param   string // the parameter, for SetParam
	Attr    string // the column, for SetHierarchy and SetKind
	Value   string // a value that works ("" when not known)
	Change  Change
	Why     string
}

// String says the fix in words that name no front end's flags or keys
// (an error's Error() uses it; the command line and the workbench render
// fixes their own way).
func (f Fix) String() string {
	s := f.words()
	if f.Why != "" {
		s += " " + f.Why
	}
	return s
}

// paramWords says a parameter's fix.
func (f Fix) paramWords() string {
	v := f.Value
	switch {
	case f.Change == Raise && v != "":
		return "raise " + f.Param + " to at least " + v
	case f.Change == Lower && v != "":
		return "lower " + f.Param + " to at most " + v
	case f.Change == Raise, f.Change == Lower:
		return map[Change]string{Raise: "raise ", Lower: "lower "}[f.Change] + f.Param
	case v != "":
		return "set " + f.Param + " to " + v
	}
	return "set " + f.Param
}

// fileWords says the fix of how a file is read.
func (f Fix) fileWords() string {
	leave := f.Change == Leave
	switch f.Setting {
	case SetColumns:
		if leave {
			return "give no column names"
		}
		return "name the columns"
	case SetDelimiter:
		if leave {
			return "give no delimiter"
		}
		return "choose the delimiter"
	case SetHeader:
		if f.Value == "yes" {
			return "read the first row as the header"
		}
		return "say whether the first row names the columns"
	case SetMissingValues:
		return "choose the values read as missing"
	case SetMaxCell:
		return "raise the longest cell the loader reads"
	}
	return "change " + string(f.Setting)
}

func (f Fix) words() string {
	v := f.Value
	switch f.Setting {
	case SetParam:
		return f.paramWords()
	case SetColumns, SetDelimiter, SetHeader, SetMissingValues, SetMaxCell:
		return f.fileWords()
	case SetQI:
		return "choose the quasi-identifiers"
	case SetSA:
		if v != "" {
			return "make " + v + " the sensitive attribute"
		}
		return "choose the sensitive attribute"
	case SetID:
		switch {
		case f.Change == Leave && v != "":
			return "do not mark " + v + " as an identifier"
		case f.Change == Leave:
			return "mark no identifier"
		case v != "":
			return "mark " + v + " as the identifier"
		}
		return "mark the identifier"
	case SetPublic:
		if f.Change == Leave {
			return "leave out the public table"
		}
		return "give a public table"
	case SetInput:
		return "open another table"
	case SetOriginal:
		return "give the release's original table"
	case SetPopulation:
		return "give a population table"
	case SetPopulationCols:
		return "name the population file's columns"
	case SetHierarchy:
		attr := or(f.Attr, "the attribute")
		if v != "" {
			return "give " + attr + " the " + v + " hierarchy"
		}
		return "choose another hierarchy for " + attr
	case SetKind:
		return "read " + or(f.Attr, "the column") + " as " + or(v, "numeric or categorical")
	case SetMissing:
		if v == "drop" {
			return "drop the rows with missing values"
		}
		return "keep missing values as a category"
	case SetMethod:
		return "choose another method"
	case SetVariant:
		if v != "" {
			return "choose the variant " + v
		}
		return "choose another variant"
	case SetSweep:
		return "sweep " + or(v, "other values")
	case SetOut:
		return "choose another output directory"
	case SetForce, SetAllowGrowth, SetAcceptViolations:
		return "confirm"
	}
	return "change " + string(f.Setting)
}

// HintText joins fixes (alternatives: any one resolves the error), each
// rendered by render, and a hint: the text an error shows after
// "(hint: ".
func HintText(hint string, fixes []Fix, render func(Fix) string) string {
	var said []string
	for _, f := range fixes {
		if s := render(f); s != "" {
			said = append(said, s)
		}
	}
	out := strings.Join(said, ", or ")
	switch {
	case out == "":
		return hint
	case hint != "":
		return out + "; " + hint
	}
	return out
}

// hinted is an error that carries a hint and fixes.
type hinted interface {
	error
	hint() (string, []Fix)
	withHint(text string) string // the error's text with this hint
}

// HintOf returns the hint and the fixes of the first error in err's
// chain that carries them, and the setting that error names (its
// parameter; "" for an input file's error). ok is false when no error
// in the chain has a hint or fixes slot (ParamError, InputError).
func HintOf(err error) (hint string, fixes []Fix, param string, ok bool) {
	var h hinted
	if !errors.As(err, &h) {
		return "", nil, "", false
	}
	hint, fixes = h.hint()
	var pe *ParamError
	if errors.As(err, &pe) {
		param = pe.Param
	}
	return hint, fixes, param, true
}

// ErrorWithHint is err's text with the hint and fixes of the first error
// in its chain that carries them said as text instead ("" drops them):
// how a front end shows an error with its own rendering of the fixes.
func ErrorWithHint(err error, text string) string {
	var h hinted
	full := err.Error()
	if !errors.As(err, &h) {
		return full
	}
	return strings.Replace(full, h.Error(), h.withHint(text), 1)
}

// Note is a remark on how a table was read that is no error (a column
// read as categorical, a first row read as data): its text in words every
// front end shows, and the fixes that would read it otherwise.
type Note struct {
	Text  string
	Fixes []Fix
}

// Say is the note with its fixes said by render.
func (n Note) Say(render func(Fix) string) string {
	if fix := HintText("", n.Fixes, render); fix != "" {
		return n.Text + "; " + fix
	}
	return n.Text
}

// String is the note with its fixes in words that name no front end's
// flags or keys.
func (n Note) String() string { return n.Say(Fix.String) }

// or is s, or otherwise when s is empty.
func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
