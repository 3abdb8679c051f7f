// Package advise answers a privacy officer's question "which method,
// with which parameters?" (SPEC 3.8): every method over a grid of its
// parameters on the same data, each point a whole run through the
// pipeline, measured by the method's own definition (holds or not), the
// calibrated attack figure of algorithms/attack (risk beyond the
// baseline with its 95% interval, Giomi et al. 2023, Section 4) and one
// utility loss every method answers (the median relative error of one
// COUNT workload), then the points on the risk-utility Pareto front
// (the R-U confidentiality map of Duncan et al.) and the pick under a
// risk limit. The computation is headless: privlab advise prints it, the
// workbench's Advisor pane calls it with a callback per point and a
// context to cancel.
package advise

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// The risk measures a point may be judged by: one attack's calibrated
// figure, or the worst of those that apply.
const (
	RiskWorst       = "worst"
	RiskLinkage     = "linkage"
	RiskInference   = "inference"
	RiskMembership  = "membership"
	RiskSinglingOut = "singling-out"
)

// RiskNames lists the risk measures, the default first.
var RiskNames = []string{RiskWorst, RiskLinkage, RiskInference, RiskMembership, RiskSinglingOut}

// riskAttacks names the attack each single risk measure reads.
var riskAttacks = map[string]string{RiskLinkage: attack.Linkage, RiskInference: attack.Inference,
	RiskMembership: attack.Membership, RiskSinglingOut: attack.SinglingOut}

// UtilityWorkload is the utility loss every method answers the same way:
// the median relative error of one workload of COUNT queries with
// IN-conditions on the QIs and the sensitive attribute (the common
// workload of pipeline.Compare).
const UtilityWorkload = "workload"

// UtilityNames lists the utility measures, the default first.
var UtilityNames = []string{UtilityWorkload}

// DefaultSeed is the seed a point runs with when none is fixed: every
// point is reproducible, so an unseeded advise is seeded
// (pipeline.Project.MapSeed).
const DefaultSeed = pipeline.AdvisorSeed

// VariantParam is how a grid names the variant beside the parameters
// (--grid kja:variant=mondrian), as the command line's --variant does.
const VariantParam = "variant"

// Setting is one point to evaluate: a method, its variant ("" for the
// default) and the parameter values the grid sets.
type Setting struct {
	Method  string
	Variant string
	Values  model.Values
}

// Params are the setting's values as the command line spells them, the
// variant among them when the grid sets one.
func (s Setting) Params() model.Values {
	out := model.Values{}
	for k, v := range s.Values {
		out[k] = v
	}
	if s.Variant != "" {
		out[VariantParam] = s.Variant
	}
	return out
}

// ParamText is the setting's parameters as name=value, sorted, the
// variant first.
func (s Setting) ParamText() string {
	var parts []string
	for k, v := range s.Values {
		parts = append(parts, k+"="+v)
	}
	slices.Sort(parts)
	if s.Variant != "" {
		parts = append([]string{VariantParam + "=" + s.Variant}, parts...)
	}
	return strings.Join(parts, " ")
}

// Axis is one --grid METHOD:PARAM=V1,V2,...: the values of one
// parameter (or the variant) of one method.
type Axis struct {
	Method, Param string
	Values        []string
}

// ParseAxis reads METHOD:PARAM=V1,V2,... (values as pipeline.ParseSweep
// reads them: a list, a ;-list when values hold commas, or FROM..TO:STEP).
func ParseAxis(s string) (Axis, error) {
	name, rest, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Axis{}, &model.ParamError{Param: "grid", Value: s, Reason: "expected METHOD:PARAM=V1,V2,...", Hint: "e.g. kja:k=5,10,20"}
	}
	m, err := catalog.Lookup(name)
	if err != nil {
		return Axis{}, &model.ParamError{Param: "grid", Value: s, Reason: "unknown method " + name, Hint: "methods: " + strings.Join(catalog.Names(), ", ")}
	}
	param, values, err := pipeline.ParseSweep(rest)
	if err != nil {
		reason, hint := "expected METHOD:PARAM=V1,V2,...", "e.g. kja:k=5,10,20"
		if pe, ok := err.(*model.ParamError); ok && pe.Hint != "" {
			reason, hint = pe.Reason, pe.Hint // a range's own error
		}
		return Axis{}, &model.ParamError{Param: "grid", Value: s, Reason: reason, Hint: hint}
	}
	spec := m.Spec()
	if _, reads := spec.Param(param); !reads && param != VariantParam {
		var names []string
		for _, p := range spec.Params {
			names = append(names, p.Name)
		}
		return Axis{}, &model.ParamError{Param: "grid", Value: s, Reason: "not a parameter of method " + name,
			Hint: name + " reads: " + strings.Join(append(names, VariantParam), ", ")}
	}
	for i, v := range values {
		if slices.Contains(values[:i], v) {
			return Axis{}, &model.ParamError{Param: "grid", Value: s, Reason: "value " + v + " is given twice (two equal points)", Hint: "give each value once"}
		}
		if param == VariantParam && !slices.Contains(spec.Variants, v) {
			return Axis{}, &model.ParamError{Param: "grid", Value: s, Reason: "unknown variant " + v + " of " + name,
				Hint: name + "'s variants: " + strings.Join(spec.Variants, ", ")}
		}
	}
	return Axis{Method: name, Param: param, Values: values}, nil
}

// String is the axis as --grid spells it.
func (a Axis) String() string { return a.Method + ":" + a.Param + "=" + strings.Join(a.Values, ",") }

// checkAxes holds the axes to the methods evaluated: each axis is of one
// of them (given: the methods asked for, nil for every method), no
// parameter of a method has two axes (their product would repeat
// points), and each value is in its parameter's range for a table of
// rows rows (0: not known), so a value no point could run with is the
// --grid flag's error, not the point's.
func checkAxes(axes []Axis, given []string, rows int) error {
	for i, a := range axes {
		if given != nil && !slices.Contains(given, a.Method) {
			return &model.ParamError{Param: "grid", Value: a.String(), Reason: "method " + a.Method + " is not among the methods asked for (" + strings.Join(given, ", ") + ")",
				Hint: "ask for " + a.Method + " too, or drop this axis"}
		}
		for _, b := range axes[:i] {
			if b.Method == a.Method && b.Param == a.Param {
				return &model.ParamError{Param: "grid", Value: a.String(), Reason: a.Method + ":" + a.Param + " has another axis, " + b.String(),
					Hint: "give all of its values in one axis"}
			}
		}
		if err := checkValues(a, rows); err != nil {
			return err
		}
	}
	return nil
}

// checkValues holds an axis's values to its parameter's range.
func checkValues(a Axis, rows int) error {
	m, err := catalog.Lookup(a.Method)
	if err != nil {
		return err
	}
	p, ok := m.Spec().Param(a.Param)
	if !ok {
		return nil // the variant, checked by ParseAxis
	}
	if rows <= 0 {
		rows = math.MaxInt32
	}
	for _, v := range a.Values {
		if err := p.Validate(v, rows); err != nil {
			reason, hint := err.Error(), ""
			if pe, ok := err.(*model.ParamError); ok {
				reason, hint = a.Param+" = "+v+": "+pe.Reason, pe.Hint
			}
			return &model.ParamError{Param: "grid", Value: a.String(), Reason: reason, Hint: hint}
		}
		if a.Param != model.SeedParam.Name {
			continue
		}
		if _, fixed, _ := model.ParseSeed(v); !fixed {
			return &model.ParamError{Param: "grid", Value: a.String(), Reason: "seed = " + v + ": every point is to be made again with the same figures, so its seed is fixed",
				Hint: "e.g. " + a.Method + ":seed=1,2,3"}
		}
	}
	return nil
}

// Settings are the points to evaluate, method by method in the order
// given (nil: every registered method): a method's axes (their product,
// in the order given) replace its default grid (method.Spec.Grid, read
// for table t, the roles and whether a public table is given). A method
// without a variant of its own that needs the public table missing runs
// its NoPublicVariant. A method whose default grid has no point for the
// table is one point at its defaults.
func Settings(methods []string, axes []Axis, t *model.Table, roles model.Roles, public bool) ([]Setting, error) {
	given := methods
	if len(methods) == 0 {
		methods, given = catalog.Names(), nil
	}
	for i, name := range methods {
		if _, err := catalog.Lookup(name); err != nil {
			return nil, &model.ParamError{Param: "methods", Value: name, Reason: "unknown method", Hint: "methods: " + strings.Join(catalog.Names(), ", ")}
		}
		if slices.Contains(methods[:i], name) {
			return nil, &model.ParamError{Param: "methods", Value: name, Reason: "is given twice (its points would be run twice)", Hint: "name each method once"}
		}
	}
	rows := 0
	if t != nil {
		rows = t.Rows
	}
	if err := checkAxes(axes, given, rows); err != nil {
		return nil, err
	}
	var out []Setting
	for _, name := range methods {
		m, _ := catalog.Lookup(name)
		spec := m.Spec()
		var grid []method.GridPoint
		if own := axesOf(axes, name); len(own) > 0 {
			grid = product(own)
		} else if grid = spec.GridOf(t, roles, public); len(grid) == 0 {
			// No point of the default grid suits the table (too few rows
			// or sensitive values): the method is listed at its defaults,
			// so that it runs or its error says why, rather than vanishing.
			grid = []method.GridPoint{{Values: model.Values{}}}
		}
		for _, g := range grid {
			s := Setting{Method: name, Variant: g.Variant, Values: model.Values{}}
			for k, v := range g.Values {
				s.Values[k] = v
			}
			if s.Variant == "" && !public {
				s.Variant = spec.NoPublicVariant
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// axesOf are the axes of one method.
func axesOf(axes []Axis, name string) []Axis {
	var out []Axis
	for _, a := range axes {
		if a.Method == name {
			out = append(out, a)
		}
	}
	return out
}

// product is every combination of the axes' values, the first axis
// slowest (no two axes are of one parameter: checkAxes).
func product(axes []Axis) []method.GridPoint {
	points := []method.GridPoint{{Values: model.Values{}}}
	for _, a := range axes {
		var next []method.GridPoint
		for _, p := range points {
			for _, v := range a.Values {
				q := method.GridPoint{Variant: p.Variant, Values: model.Values{}}
				for k, x := range p.Values {
					q.Values[k] = x
				}
				if a.Param == VariantParam {
					q.Variant = v
				} else {
					q.Values[a.Param] = v
				}
				next = append(next, q)
			}
		}
		points = next
	}
	return points
}

// Point is one evaluated setting.
type Point struct {
	Setting
	// Holds says the method's definition holds: its own checks pass
	// (method.Result.Satisfied) and no attack broke the bound the method
	// promises (an export would refuse such a release).
	Holds bool
	// Risk is the calibrated attack figure (risk beyond the baseline) of
	// the measure asked for, Interval its 95% interval and Attack the
	// attack it is of; NaN when no attack of the measure measured a rate.
	Risk     float64
	Interval [2]float64
	Attack   string
	// Loss is the median relative error of the common workload (NaN when
	// no query could be measured).
	Loss float64
	// Front marks the Pareto front (Front).
	Front bool
	// Err says why the point could not run ("" when it ran).
	Err string
}

// Measured reports whether the point has both figures.
func (p Point) Measured() bool {
	return p.Err == "" && !math.IsNaN(p.Risk) && !math.IsNaN(p.Loss)
}

func (p Point) String() string {
	return fmt.Sprintf("%s %s", p.Method, p.ParamText())
}
