// Package catalog is the one registry of anonymization methods: each entry
// is a method together with its independent checker. The command line,
// the workbench, export, check, query and eval look methods up here by
// the name a user gives; no code outside a method's own package names it,
// but a method whose study or tour runs another declares that baseline
// in its Spec (method.Spec.Baselines), which the catalog's tests hold to
// the registered methods and the lab enforces.
package catalog

import (
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/ambiguity"
	ambcheck "privlab/algorithms/ambiguity/check"
	"privlab/algorithms/distribution"
	distcheck "privlab/algorithms/distribution/check"
	"privlab/algorithms/kja"
	kjacheck "privlab/algorithms/kja/check"
	"privlab/algorithms/lossyjoin"
	ljcheck "privlab/algorithms/lossyjoin/check"
	"privlab/algorithms/method"
	"privlab/algorithms/sampling"
	samplingcheck "privlab/algorithms/sampling/check"
	"privlab/algorithms/verify"
	"privlab/model"
)

// Entry is a registered method, the checker of its releases and the
// reader of a release as an attacker sees it (the cross-method figures
// of algorithms/risk are computed from it); both live in the method's
// check package, independent of the method.
type Entry struct {
	Method method.Method
	Check  verify.Checker
	View   verify.Viewer
	// Described names the manifest's claims about how a release was made
	// that the checker does not prove from the files (beyond the version,
	// the missing-value policy and the notes, which no checker proves):
	// check names them as unconfirmed unless the audit record binds the
	// manifest (verify.Declared.Described; the README's table on check).
	Described []string
	// Expose reads what a release shows the attacks of algorithms/attack
	// beyond its view; Attack runs the attacks only this method's paper
	// defines (nil: none). Both live in the method's check package.
	Expose verify.Exposer
	Attack verify.Attacker
}

// Entries returns every registered method, in menu order.
func Entries() []Entry {
	return []Entry{
		// The grouping and a per-group or file target shape the groups
		// but leave no trace the checker reads back.
		{Method: distribution.Method{}, Check: distcheck.Check, View: distcheck.View, Described: []string{"parameters.grouping", "parameters.target"},
			Expose: distcheck.Expose},
		// How Mondrian chose its split dimension.
		{Method: kja.Method{}, Check: kjacheck.Check, View: kjacheck.View, Described: []string{"parameters.split"},
			Expose: kjacheck.Expose},
		// Lossy join and Anatomy publish the same two tables; the
		// attribute-choice criterion and the remark are words.
		{Method: lossyjoin.Method{}, Check: ljcheck.Check, View: ljcheck.View, Described: []string{"variant", "details.criterion", "details.remark"},
			Expose: ljcheck.Expose},
		// Which attribute a step generalized (paper or within-limit).
		{Method: sampling.Method{}, Check: samplingcheck.Check, View: samplingcheck.View, Described: []string{"variant"},
			Expose: samplingcheck.Expose, Attack: samplingcheck.Attack},
		// Whether a QI was read as numeric or categorical.
		{Method: ambiguity.Method{}, Check: ambcheck.Check, View: ambcheck.View, Described: []string{"details.kinds"},
			Expose: ambcheck.Expose},
	}
}

// All returns every registered method, in menu order.
func All() []method.Method {
	var out []method.Method
	for _, e := range Entries() {
		out = append(out, e.Method)
	}
	return out
}

// Names lists the registered method names.
func Names() []string {
	var out []string
	for _, m := range All() {
		out = append(out, m.Spec().Name)
	}
	return out
}

// Lookup finds a method by name; the error lists the known ones.
func Lookup(name string) (method.Method, error) {
	for _, m := range All() {
		if m.Spec().Name == name {
			return m, nil
		}
	}
	return nil, &model.ParamError{Param: "method", Value: name, Reason: "unknown method",
		Hint: "known methods: " + strings.Join(Names(), ", ")}
}

// Viewer returns the reader of a method's releases as an attacker sees
// them.
func Viewer(name string) (verify.Viewer, bool) {
	for _, e := range Entries() {
		if e.Method.Spec().Name == name {
			return e.View, true
		}
	}
	return nil, false
}

// EntryOf returns a method's registration.
func EntryOf(name string) (Entry, bool) {
	for _, e := range Entries() {
		if e.Method.Spec().Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Declared is what the registry declares of a method for the verifier.
func Declared(name string) (verify.Declared, bool) {
	for _, e := range Entries() {
		s := e.Method.Spec()
		if s.Name != name {
			continue
		}
		d := verify.Declared{Check: e.Check, View: e.View, Title: s.Title, Paper: s.Paper, Certifies: s.Certifies, Variants: s.Variants, Params: []string{},
			Described: e.Described}
		for _, p := range s.Params {
			if p.Kind != model.ParamSeed {
				d.Params = append(d.Params, p.Name)
			}
		}
		return d, true
	}
	return verify.Declared{}, false
}

// ParamNames lists every parameter any registered method reads (the
// command line defines a flag for each).
func ParamNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range All() {
		for _, p := range m.Spec().Params {
			if !seen[p.Name] {
				seen[p.Name] = true
				out = append(out, p.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// CommonParams names, sorted, the parameters a method declares Common
// (SPEC 2.5's k, alpha, beta, sampling rate and distortion): the usage
// text lists them among the common flags.
func CommonParams() []string {
	var out []string
	for _, m := range All() {
		for _, p := range m.Spec().Params {
			if p.Common && !slices.Contains(out, p.Name) {
				out = append(out, p.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Param finds a parameter's declaration in any registered method (the
// first that declares it, in menu order).
func Param(name string) (model.ParamSpec, bool) {
	for _, m := range All() {
		if p, ok := m.Spec().Param(name); ok {
			return p, true
		}
	}
	return model.ParamSpec{}, false
}
