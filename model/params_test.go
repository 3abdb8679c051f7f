package model

import (
	"errors"
	"math/big"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// rangeSpecs are parameters of each kind of range SPEC 2.5's parameters
// have (the methods declare them; method.GroupSize declares k).
var rangeSpecs = map[string]ParamSpec{
	"k":              {Name: "k", Kind: ParamInt, Min: 2, MaxRows: true, Default: "5", Help: "group size", Why: "groups of two at least"},
	"alpha":          {Name: "alpha", Kind: ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.5", Help: "a bound", Why: "a probability"},
	"beta":           {Name: "beta", Kind: ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.5", Help: "a bound", Why: "a probability"},
	"sampling-rate":  {Name: "sampling-rate", Kind: ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.5", Help: "a rate", Why: "a probability"},
	"max-distortion": {Name: "max-distortion", Kind: ParamFloat, Min: 0, Max: 1, Default: "0.5", Help: "a fraction", Why: "of the height"},
	"seed":           SeedParam,
}

// TestParamRanges: each kind of range reads, refuses and explains values
// alike, whichever method declares the parameter.
func TestParamRanges(t *testing.T) {
	tests := []struct {
		name  string
		rows  int
		rng   string // RangeText(rows)
		valid []string
		// invalid values and a piece of the reason each must give
		invalid map[string]string
	}{
		{name: "k", rows: 100, rng: ">= 2 and <= 100 (rows)",
			valid: []string{"2", "5", "100", " 7 ", "5.0", "1e1"},
			invalid: map[string]string{
				"1":   "must be >= 2 and <= 100 (rows)",
				"-3":  "must be >= 2 and <= 100 (rows)",
				"101": "must be >= 2 and <= 100 (rows)",
				"2.5": "must be a whole number >= 2 and <= 100 (rows)",
				// The float64 nearest it is 2; the number is not whole.
				"2.0000000000000001": "must be a whole number",
				"abc":                "not a number; must be >= 2 and <= 100 (rows)",
				"":                   "not a number",
				"0x10":               "not a number",
				"Inf":                "not a number",
			}},
		{name: "k", rows: 0, rng: ">= 2 and <= rows",
			valid:   []string{"2", "1000000"},
			invalid: map[string]string{"1": "must be >= 2 and <= rows", "1e300": "too large; must be >= 2 and <= rows"}},
		{name: "alpha", rng: "in (0,1]",
			valid: []string{"1", "0.5", "1e-3", ".25", "0.4999999999", "0.99999999999999999999"},
			invalid: map[string]string{
				"0": "must be in (0,1]", "1.5": "must be in (0,1]", "-0.1": "must be in (0,1]",
				// The float64 nearest it is 1; the number exceeds 1.
				"1.00000000000000001": "must be in (0,1]", "1e-999": "must be in (0,1]",
				"NaN": "not a number; must be in (0,1]", "2/3": "not a number",
			}},
		{name: "beta", rng: "in (0,1]",
			valid:   []string{"1", "0.05"},
			invalid: map[string]string{"0": "must be in (0,1]", "1.0001": "must be in (0,1]"}},
		{name: "sampling-rate", rng: "in (0,1]",
			valid:   []string{"1", "0.5"},
			invalid: map[string]string{"0": "must be in (0,1]", "2": "must be in (0,1]", "x": "not a number"}},
		{name: "max-distortion", rng: "in [0,1]",
			valid:   []string{"0", "1", "0.5"},
			invalid: map[string]string{"-0.01": "must be in [0,1]", "1.01": "must be in [0,1]"}},
		{name: "seed", rng: "random or an integer >= 0",
			valid: []string{"random", "RANDOM", "", "42", "18446744073709551615"},
			invalid: map[string]string{
				"-1": "must be random or an integer >= 0", "abc": "must be random or an integer >= 0",
				"1.5": "must be random", "18446744073709551616": "must be random",
			}},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.name] = true
		spec := rangeSpecs[tt.name]
		if spec.Name != tt.name || spec.Help == "" || spec.Why == "" {
			t.Errorf("%s: name %q, help %q, why %q", tt.name, spec.Name, spec.Help, spec.Why)
		}
		if err := spec.Validate(spec.Default, tt.rows); err != nil {
			t.Errorf("%s: default %q is invalid: %v", tt.name, spec.Default, err)
		}
		if got := spec.RangeText(tt.rows); got != tt.rng {
			t.Errorf("%s: RangeText(%d) = %q, want %q", tt.name, tt.rows, got, tt.rng)
		}
		for _, v := range tt.valid {
			if err := spec.Validate(v, tt.rows); err != nil {
				t.Errorf("%s = %q (rows %d): %v", tt.name, v, tt.rows, err)
			}
		}
		for v, reason := range tt.invalid {
			err := spec.Validate(v, tt.rows)
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Errorf("%s = %q: got %v, want a parameter error", tt.name, v, err)
				continue
			}
			if pe.Param != tt.name || pe.Value != strings.TrimSpace(v) || !strings.Contains(pe.Reason, reason) || pe.Hint != spec.Why {
				t.Errorf("%s = %q: got param %q value %q reason %q hint %q; want reason with %q",
					tt.name, v, pe.Param, pe.Value, pe.Reason, pe.Hint, reason)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "parameter "+tt.name+" = ") && !strings.HasPrefix(msg, "parameter "+tt.name+": ") || !strings.Contains(msg, reason) {
				t.Errorf("%s = %q: message %q does not name the parameter and %q", tt.name, v, msg, reason)
			}
		}
	}
	for name := range rangeSpecs {
		if !covered[name] {
			t.Errorf("parameter %q has no test", name)
		}
	}
	// The message in full, as a user reads it.
	err := rangeSpecs["alpha"].Validate("0", 0)
	if want := `parameter alpha = "0": must be in (0,1] (hint: a probability)`; err == nil || err.Error() != want {
		t.Errorf("alpha=0:\n got %v\nwant %s", err, want)
	}
}

func TestParamSpecKinds(t *testing.T) {
	choice := ParamSpec{Name: "method", Kind: ParamChoice, Choices: []string{"kja", "sampling"}}
	if err := choice.Validate("kja", 0); err != nil {
		t.Error(err)
	}
	if err := choice.Validate("nope", 0); err == nil || !strings.Contains(err.Error(), "must be one of kja, sampling") {
		t.Errorf("choice: %v", err)
	}
	open := ParamSpec{Name: "p", Kind: ParamFloat, Min: 0, Max: 1, MaxOpen: true}
	if got := open.RangeText(0); got != "in [0,1)" {
		t.Errorf("RangeText %q", got)
	}
	if err := open.Validate("1", 0); err == nil || !strings.Contains(err.Error(), "in [0,1)") {
		t.Errorf("open max: %v", err)
	}
	if err := open.Validate("0.999", 0); err != nil {
		t.Error(err)
	}
	lower := ParamSpec{Name: "w", Kind: ParamFloat, Min: 1}
	if got := lower.RangeText(0); got != ">= 1" {
		t.Errorf("RangeText %q", got)
	}
	if lower.Validate("1e300", 0) != nil || lower.Validate("0.5", 0) == nil {
		t.Errorf("lower bound only")
	}
	text := ParamSpec{Name: "grouping", Kind: ParamText, Why: "see SPEC", Check: func(v string) error {
		if !strings.HasPrefix(v, "column:") {
			return errors.New("must be column:NAME")
		}
		return nil
	}}
	if err := text.Validate("column:age", 0); err != nil {
		t.Error(err)
	}
	err := text.Validate("rows", 0)
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Param != "grouping" || pe.Reason != "must be column:NAME" || pe.Hint != "see SPEC" {
		t.Errorf("text check: %v", err)
	}
	// A Check returning a *ParamError is passed on as it is.
	own := &ParamError{Param: "grouping", Reason: "own"}
	text.Check = func(string) error { return own }
	if err := text.Validate("x", 0); err != own {
		t.Errorf("got %v, want the check's own error", err)
	}
}

func TestParseSeed(t *testing.T) {
	for _, tt := range []struct {
		in    string
		seed  uint64
		fixed bool
	}{
		{"", 0, false}, {"random", 0, false}, {"Random", 0, false}, {"42", 42, true}, {" 7 ", 7, true},
		{"0", 0, true}, {"18446744073709551615", 18446744073709551615, true},
	} {
		seed, fixed, err := ParseSeed(tt.in)
		if err != nil || seed != tt.seed || fixed != tt.fixed {
			t.Errorf("ParseSeed(%q) = %d, %v, %v", tt.in, seed, fixed, err)
		}
	}
	for _, s := range []string{"-1", "1e3", "abc", "1.5", "+5"} {
		if _, _, err := ParseSeed(s); err == nil || err.Error() != "must be random or an integer >= 0" {
			t.Errorf("ParseSeed(%q): %v", s, err)
		}
	}
	if _, _, err := ParseSeed("18446744073709551616"); err == nil || !strings.HasPrefix(err.Error(), "too large") {
		t.Errorf("overflow: %v", err)
	}
}

func TestValues(t *testing.T) {
	v := Values{"k": "5", "alpha": "0.25", "fakes": "10%"}
	if v.Int("k") != 5 || v.Float("alpha") != 0.25 || v.Int("unset") != 0 || v.Float("unset") != 0 {
		t.Errorf("getters: %d %v", v.Int("k"), v.Float("alpha"))
	}
	c := v.Clone()
	c["k"] = "9"
	if v["k"] != "5" || !reflect.DeepEqual(keys(c), keys(v)) {
		t.Errorf("clone is not a copy")
	}
}

func keys(v Values) []string {
	var out []string
	for k := range v {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestBound: a bound read from decimal text is held against counts
// exactly, where the float64 nearest it (and a tolerance of 1e-9) is
// not: 1/2 breaks 0.4999999999, 1/3 breaks 0.3333333333333333 (issue
// 18.5).
func TestBound(t *testing.T) {
	tests := []struct {
		text        string
		count, size int
		allows      bool
	}{
		{"0.5", 1, 2, true},
		{"0.4999999999", 1, 2, false},
		{"0.4999999999", 4999999999, 10000000000, true},
		{"0.4999999999", 5000000000, 10000000000, false},
		{"0.3333333333333333", 1, 3, false},
		{"0.3333333333333334", 1, 3, true},
		{"0.33", 33, 100, true},
		{"0.33", 34, 100, false},
		{"1", 7, 7, true},
		{"1e-3", 1, 1000, true},
		{"1e-3", 1, 999, false},
		{"0.25", 0, 0, true},
		// Beyond 64 bits: the numerator and denominator of a 30-digit
		// decimal do not fit, the big path decides.
		{"0.333333333333333333333333333333", 1, 3, false},
		{"0.333333333333333333333333333334", 1, 3, true},
	}
	for _, tt := range tests {
		b, ok := ParseBound(tt.text)
		if !ok {
			t.Fatalf("ParseBound(%q) failed", tt.text)
		}
		if got := b.Allows(tt.count, tt.size); got != tt.allows {
			t.Errorf("%s.Allows(%d, %d) = %v, want %v", tt.text, tt.count, tt.size, got, tt.allows)
		}
		if got := b.AllowsBig(big.NewInt(int64(tt.count)), big.NewInt(int64(tt.size))); got != tt.allows {
			t.Errorf("%s.AllowsBig(%d, %d) = %v, want %v", tt.text, tt.count, tt.size, got, tt.allows)
		}
	}
	// MinSize and Floor: Anatomy's l = ceil(1/alpha), the sample of a rate.
	for _, tt := range []struct {
		text           string
		count, minSize int
		n, floor       int
	}{
		{"0.5", 1, 2, 7, 3},
		{"0.4999999999", 1, 3, 10, 4},
		{"0.3333333333333333", 1, 4, 3, 0},
		{"0.33", 33, 100, 100, 33},
		{"0.9", 9, 10, 10, 9},
		{"0.9", 10, 12, 30718, 27646},
		{"1", 5, 5, 5, 5},
	} {
		b, _ := ParseBound(tt.text)
		if got := b.MinSize(tt.count); got != tt.minSize {
			t.Errorf("%s.MinSize(%d) = %d, want %d", tt.text, tt.count, got, tt.minSize)
		}
		if got := b.Floor(tt.n); got != tt.floor {
			t.Errorf("%s.Floor(%d) = %d, want %d", tt.text, tt.n, got, tt.floor)
		}
	}
	if got := (Values{"alpha": "0.4999999999"}).Bound("alpha").String(); got != "4999999999/10000000000" {
		t.Errorf("Values.Bound = %s", got)
	}
	for _, bad := range []string{"1e99999999", "1e-401", "2/3", "x", ""} {
		if _, ok := ParseExact(bad); ok {
			t.Errorf("ParseExact(%q) accepted", bad)
		}
	}
}
