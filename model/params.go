package model

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ParamKind is how a parameter's text is read.
type ParamKind int

const (
	ParamInt    ParamKind = iota // a whole number within [Min, Max]
	ParamFloat                   // a real number within the range
	ParamSeed                    // "random" or a whole number >= 0
	ParamText                    // free text checked by Check
	ParamChoice                  // one of Choices
)

// ParamSpec declares one parameter: its name (also its command-line flag),
// how it is read, its allowed range and why, its default and one line of
// help. The command line, the workbench's forms and validation are all
// driven by these declarations.
type ParamSpec struct {
	Name    string
	Kind    ParamKind
	Min     float64
	Max     float64
	MinOpen bool // the range excludes Min
	MaxOpen bool // the range excludes Max
	// MaxRows makes the upper bound the number of rows of the table.
	MaxRows bool
	Choices []string
	Default string
	Help    string
	// Why explains the range in error messages (with the paper it comes from).
	Why string
	// Step is the +/- increment in the workbench.
	Step float64
	// Check validates ParamText values (and adds checks to other kinds).
	Check func(value string) error
	// StepText moves a ParamText value one step up (dir > 0) or down, for
	// text values with an order (e.g. "5" or "5%").
	StepText func(cur string, dir int) string
	// Presets are the values +/- cycles through for a ParamText without
	// StepText (they may name the roles' columns).
	Presets func(r Roles) []string
	// Sweep is the value list a parameter sweep proposes ("" steps around
	// the current value).
	Sweep string
	// Explain is a paragraph the workbench shows beside the parameter
	// while it is selected (what the value trades off), and Describe says
	// in one line what a value means (e.g. what each preset does); nil
	// when the presets speak for themselves.
	Explain  string
	Describe func(value string) string
	// Header shows the value in the workbench's header line.
	Header bool
	// Common marks one of the parameters SPEC 2.5 lists for every method
	// that reads it (k, alpha, beta, sampling rate, distortion): the
	// usage text names these among the common flags.
	Common bool
	// File is true when the value may name an input file: the release is
	// never written over it.
	File bool
	// Allowed describes the accepted values of a ParamText (for help and
	// range messages).
	Allowed string
}

// SeedParam is the random seed every method reads: it shuffles the
// release's rows and breaks ties (SPEC 7.3), and belongs to no method's
// paper. The methods declare their own parameters (algorithms/NAME); the
// group size k has one declaration for all of them (method.GroupSize).
var SeedParam = ParamSpec{Name: "seed", Kind: ParamSeed, Default: "random",
	Help: "random seed for shuffling and tie-breaking; random uses crypto/rand",
	Why:  "a fixed seed reproduces a byte-identical release (SPEC 7.3)"}

// RangeText renders the allowed range as in SPEC 2.5, e.g. "in (0,1]".
func (s ParamSpec) RangeText(rows int) string {
	switch s.Kind {
	case ParamSeed:
		return "random or an integer >= 0"
	case ParamChoice:
		return "one of " + strings.Join(s.Choices, ", ")
	case ParamText:
		return s.Allowed
	}
	lo, hi := "[", "]"
	if s.MinOpen {
		lo = "("
	}
	if s.MaxOpen {
		hi = ")"
	}
	max := FormatNumber(s.Max)
	if s.MaxRows {
		if rows > 0 {
			max = strconv.Itoa(rows) + " (rows)"
		} else {
			max = "rows"
		}
	}
	if s.MaxRows || s.Max != 0 {
		if s.Kind == ParamInt {
			return fmt.Sprintf(">= %s and <= %s", FormatNumber(s.Min), max)
		}
		return "in " + lo + FormatNumber(s.Min) + "," + max + hi
	}
	return ">= " + FormatNumber(s.Min)
}

// Validate checks a value against the declaration; rows is the table size
// (0 when unknown). The error names the parameter, the range and the reason.
func (s ParamSpec) Validate(v string, rows int) error {
	v = strings.TrimSpace(v)
	switch s.Kind {
	case ParamInt, ParamFloat:
		if err := s.validateNumber(v, rows); err != nil {
			return err
		}
	case ParamSeed:
		if _, _, err := ParseSeed(v); err != nil {
			return s.invalid(v, err.Error())
		}
	case ParamChoice:
		found := false
		for _, c := range s.Choices {
			if c == v {
				found = true
			}
		}
		if !found {
			return s.invalid(v, "must be "+s.RangeText(rows))
		}
	}
	if s.Check != nil {
		if err := s.Check(v); err != nil {
			if _, ok := err.(*ParamError); ok {
				return err
			}
			return s.invalid(v, err.Error())
		}
	}
	return nil
}

// invalid is the error for value v of this parameter, for reason.
func (s ParamSpec) invalid(v, reason string) error {
	return &ParamError{Param: s.Name, Value: v, Reason: reason, Hint: s.Why}
}

// validateNumber checks a number parameter's value: a finite number, a
// whole one for ParamInt, inside the range (exactly: see outside).
func (s ParamSpec) validateNumber(v string, rows int) error {
	x, ok := ParseNumber(v)
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
		return s.invalid(v, "not a number; must be "+s.RangeText(rows))
	}
	if r, ok := ParseExact(v); s.Kind == ParamInt && (x != math.Trunc(x) || ok && !r.IsInt()) {
		return s.invalid(v, "must be a whole number "+s.RangeText(rows))
	}
	if s.Kind == ParamInt && math.Abs(x) > 1<<53 {
		return s.invalid(v, "too large; must be "+s.RangeText(rows))
	}
	if x < s.Min || (s.MinOpen && x == s.Min) || s.outside(v, s.Min, -1, s.MinOpen) {
		return s.invalid(v, "must be "+s.RangeText(rows))
	}
	max := s.Max
	if s.MaxRows {
		max = math.Inf(1)
		if rows > 0 {
			max = float64(rows)
		}
	}
	if (s.MaxRows || s.Max != 0) && (x > max || (s.MaxOpen && x == max) || s.outside(v, max, 1, s.MaxOpen)) {
		return s.invalid(v, "must be "+s.RangeText(rows))
	}
	return nil
}

// outside reports whether the exact value of v lies beyond the end of
// the range at limit (side -1: below a minimum, +1: above a maximum;
// open: the end itself is excluded), where the float64 nearest v may
// not: "1.00000000000000001" reads as the float 1 but exceeds 1.
func (s ParamSpec) outside(v string, limit float64, side int, open bool) bool {
	x, ok := ParseExact(v)
	if !ok || math.IsInf(limit, 0) {
		return false
	}
	c := x.Cmp(new(big.Rat).SetFloat64(limit))
	return c == side || (open && c == 0)
}

// maxExponent bounds the exponent ParseExact expands: beyond it a value
// is outside every float64 anyway, and 10^exp would cost memory.
const maxExponent = 400

// ParseExact reads a number as the exact rational its decimal text
// writes: "0.4999999999" is 4999999999/10^10, not the float64 nearest
// it. It takes what ParseNumber takes (plain decimal or exponent
// notation) with an exponent of at most 400 either way.
func ParseExact(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if _, ok := ParseNumber(s); !ok {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// ParseSeed reads "random" (or "") as no fixed seed, or an integer.
func ParseSeed(s string) (seed uint64, fixed bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "random") {
		return 0, false, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return 0, false, fmt.Errorf("too large: must be random or an integer from 0 to %d", uint64(math.MaxUint64))
	}
	if err != nil {
		return 0, false, fmt.Errorf("must be random or an integer >= 0")
	}
	return v, true, nil
}

// Values holds parameter values as text, by parameter name; typed getters
// read them (they were validated when set).
type Values map[string]string

// Int returns the integer value of name (0 when unset).
func (v Values) Int(name string) int {
	x, _ := ParseNumber(v[name])
	return int(x)
}

// Float returns the value of name (0 when unset).
func (v Values) Float(name string) float64 {
	x, _ := ParseNumber(v[name])
	return x
}

// Bound returns the value of name as an exact bound (see Bound); a value
// ParseExact refuses (none when validated) falls back to its float64.
func (v Values) Bound(name string) Bound {
	if b, ok := ParseBound(v[name]); ok {
		return b
	}
	r := new(big.Rat)
	if x, ok := ParseNumber(strings.TrimSpace(v[name])); ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
		r.SetFloat64(x)
	}
	return NewBound(r)
}

// Clone copies the values.
func (v Values) Clone() Values {
	out := make(Values, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}
