// Package catalog lists the registered anonymization methods. A method
// joins the command line and the workbench by being listed here; nothing
// else switches on method names.
package catalog

import (
	"sort"
	"strings"

	"privlab/algorithms/distribution"
	"privlab/algorithms/method"
	"privlab/model"
)

// All returns every registered method, in menu order.
func All() []method.Method {
	return []method.Method{
		distribution.Method{},
	}
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
