package catalog_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/model"
)

// spec25 are SPEC 2.5's ranges of the parameters several papers share,
// which each method declares itself (with its paper in Why).
var spec25 = map[string]string{
	"k":              ">= 2 and <= 11 (rows)",
	"alpha":          "in (0,1]",
	"beta":           "in (0,1]",
	"sampling-rate":  "in (0,1]",
	"max-distortion": "in [0,1]",
	"seed":           "random or an integer >= 0",
}

// TestParametersAreTheMethods': every method declares its parameters in
// its own package with SPEC 2.5's range and a reason citing its paper
// (the seed is model.SeedParam, every method's); each declaration of k
// is method.GroupSize's, so k = 1 is refused with one message by every
// method, the comparison and the sweep (issue 23, item 3).
func TestParametersAreTheMethods(t *testing.T) {
	_, want := method.ParseGroupSize("1", 11)
	if want == nil {
		t.Fatal("a comparable k of 1 is accepted")
	}
	reason := func(err error) string {
		var pe *model.ParamError
		if !errors.As(err, &pe) {
			return "not a parameter error: " + err.Error()
		}
		return pe.Param + ": " + pe.Reason
	}
	for _, m := range catalog.All() {
		spec := m.Spec()
		for _, p := range spec.Params {
			rng, shared := spec25[p.Name]
			if !shared {
				continue
			}
			if got := p.RangeText(11); got != rng {
				t.Errorf("%s %s: range %q, SPEC 2.5 says %q", spec.Name, p.Name, got, rng)
			}
			switch p.Name {
			case "seed":
				if p.Help != model.SeedParam.Help || p.Why != model.SeedParam.Why {
					t.Errorf("%s declares its own seed", spec.Name)
				}
				continue
			case "k":
				_, err := spec.Validate(model.Values{"k": "1"}, 11)
				if err == nil || reason(err) != reason(want) {
					t.Errorf("%s refuses k = 1 with %v, the comparison with %v", spec.Name, err, want)
				}
			}
			if !strings.Contains(p.Why, " et al.") && !strings.Contains(p.Why, "Wang") {
				t.Errorf("%s %s: the reason %q cites no paper", spec.Name, p.Name, p.Why)
			}
		}
	}
}

// TestDefaultsAreValidated: a method's default that the table does not
// allow (kja's k = 5 on three rows) is refused as a value given would be,
// where each method had its own check and message before.
func TestDefaultsAreValidated(t *testing.T) {
	for _, m := range catalog.All() {
		spec := m.Spec()
		if _, err := spec.Validate(nil, 0); err != nil {
			t.Errorf("%s: its defaults are invalid: %v", spec.Name, err)
		}
		p, ok := spec.Param(method.GroupSizeParam)
		if !ok {
			continue
		}
		def := int(mustNumber(t, p.Default))
		_, err := spec.Validate(nil, def-1)
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "k" || pe.Value != p.Default || !strings.Contains(pe.Reason, "must be >= 2 and <= ") {
			t.Errorf("%s: the default k = %s on %d rows: %v", spec.Name, p.Default, def-1, err)
		}
	}
}

func mustNumber(t *testing.T, s string) float64 {
	x, ok := model.ParseNumber(s)
	if !ok {
		t.Fatalf("%q is not a number", s)
	}
	return x
}

// TestBaselinesAreRegistered: a baseline a method's study or tour runs is
// declared in its Spec, registered here with that variant, and says why
// the paper compares with it; a tour's setups name no other method (a
// run of an undeclared one fails in the lab: pipeline.Undeclared).
func TestBaselinesAreRegistered(t *testing.T) {
	for _, m := range catalog.All() {
		spec := m.Spec()
		for _, b := range spec.Baselines {
			other, err := catalog.Lookup(b.Method)
			if err != nil {
				t.Errorf("%s's baseline %s is not registered: %v", spec.Name, b, err)
				continue
			}
			if b.Variant != "" && !slices.Contains(other.Spec().Variants, b.Variant) {
				t.Errorf("%s's baseline %s: %s has no variant %s", spec.Name, b, b.Method, b.Variant)
			}
			if !strings.Contains(b.Why, "Section") {
				t.Errorf("%s's baseline %s cites no section of the paper: %q", spec.Name, b, b.Why)
			}
			if b.Method == spec.Name || !spec.Runs(b.Method, b.Variant) {
				t.Errorf("%s's baseline %s", spec.Name, b)
			}
		}
		if tm, ok := m.(method.Touring); ok {
			for _, s := range tm.Tour().Setups {
				if s.Method != "" && !spec.Runs(s.Method, s.Variant) {
					t.Errorf("%s's tour runs %s %s, which it does not declare", spec.Name, s.Method, s.Variant)
				}
			}
		}
	}
	// The two studies that compare with a generalization declare it.
	for _, name := range []string{"ambiguity", "sampling"} {
		m, err := catalog.Lookup(name)
		if err != nil || len(m.Spec().Baselines) == 0 {
			t.Errorf("%s declares no baseline: %v", name, err)
		}
	}
}
