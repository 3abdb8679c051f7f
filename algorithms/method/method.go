// Package method declares what every anonymization method provides, so that
// the command line, the workbench's forms and preview columns, validation and
// help are all driven by the declarations and never by a switch on method
// names.
package method

import (
	"context"
	"fmt"
	"strings"

	"privlab/model"
)

// Rule says how a per-group figure is held against its threshold.
type Rule int

const (
	// Info figures have no threshold.
	Info Rule = iota
	// AtMost figures violate when they exceed the threshold.
	AtMost
	// AtLeast figures violate when they fall below the threshold.
	AtLeast
)

// Figure declares one per-group privacy or utility figure.
type Figure struct {
	Key   string // short id, e.g. "dist"
	Label string // column header, e.g. "target dist"
	Help  string
	// Against names the parameter the figure is held against ("" for none).
	// A fixed threshold is given by Limit when Against is empty.
	Against string
	Limit   float64
	Rule    Rule
	// Digits is the number of decimals to show (-1: integer).
	Digits int
}

// Threshold returns the limit of the figure under the given values.
func (f Figure) Threshold(v model.Values) float64 {
	if f.Against != "" {
		return v.Float(f.Against)
	}
	return f.Limit
}

// Violated reports whether x breaks the figure's rule.
func (f Figure) Violated(x float64, v model.Values) bool {
	const eps = 1e-9
	switch f.Rule {
	case AtMost:
		return x > f.Threshold(v)+eps
	case AtLeast:
		return x < f.Threshold(v)-eps
	}
	return false
}

// Format renders a figure value.
func (f Figure) Format(x float64) string {
	if f.Digits < 0 {
		return model.FormatNumber(x)
	}
	return fmt.Sprintf("%.*f", f.Digits, x)
}

// Spec is a method's declaration.
type Spec struct {
	Name  string // command-line name, e.g. "distribution"
	Title string
	// Paper cites the method's source by authors and section.
	Paper string
	// Variants lists the variants; the first is the default.
	Variants []string
	// Params are the parameters the method reads, with their defaults.
	Params []model.ParamSpec
	// Figures are the per-group figures, in column order.
	Figures []Figure
	// Files names the published files.
	Files []string
	// Insensitive says what happens to insensitive columns.
	Insensitive string
	// NeedsSA is true when the method requires a sensitive attribute.
	NeedsSA bool
}

// Param returns the declaration of a parameter.
func (s Spec) Param(name string) (model.ParamSpec, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return model.ParamSpec{}, false
}

// Defaults returns every parameter's default value.
func (s Spec) Defaults() model.Values {
	v := model.Values{}
	for _, p := range s.Params {
		v[p.Name] = p.Default
	}
	return v
}

// Validate checks every parameter value (filling in defaults) and returns
// the complete set. Unknown names are errors naming the parameters the
// method reads.
func (s Spec) Validate(in model.Values, rows int) (model.Values, error) {
	out := s.Defaults()
	for name, val := range in {
		p, ok := s.Param(name)
		if !ok {
			var names []string
			for _, p := range s.Params {
				names = append(names, p.Name)
			}
			return nil, &model.ParamError{Param: name, Value: val, Reason: "not a parameter of method " + s.Name,
				Hint: s.Name + " reads: " + strings.Join(names, ", ")}
		}
		if err := p.Validate(val, rows); err != nil {
			return nil, err
		}
		out[name] = strings.TrimSpace(val)
	}
	return out, nil
}

// Input is everything a run reads.
type Input struct {
	Table *model.Table
	Roles model.Roles
	// Hierarchies has one hierarchy for the SA and for every QI.
	Hierarchies map[string]*model.Hierarchy
	Target      model.Target
	Variant     string
	Values      model.Values
	// Progress, when set, receives the fraction done (0..1).
	Progress func(done float64)
}

// Group is one group of the result, as the preview shows it.
type Group struct {
	ID   int
	Rows []int32 // member rows of Input.Table
	// QI summarises each QI over the group (a value, a range or a
	// generalized label), aligned with Roles.QIs.
	QI []string
	// SAHist counts the group's SA values per SA-hierarchy leaf position
	// (nil when not applicable).
	SAHist []int32
	// Figures are aligned with Spec.Figures.
	Figures   []float64
	Violation bool
}

// Bounds is a query answer on a release: deterministic bounds, an
// estimate, or both.
type Bounds struct {
	Low, High float64
	HasBounds bool
	Estimate  float64
	HasEst    bool
	Empty     bool   // nothing selected
	Note      string // how the answer was obtained
}

// Answerer answers queries from a release.
type Answerer interface {
	Answer(q *model.Query) (Bounds, error)
}

// Detail is what the preview shows for one group: its members as
// published and as original, and its distributions.
type Detail struct {
	Header []string // column names
	// Members is the group's size; Original and Published may list fewer.
	Members   int
	Original  [][]string // one row per member
	Published [][]string // one row per published row (may differ in count)
	// Dists are named distributions over DistLabels (e.g. original, target,
	// released).
	DistLabels []string
	Dists      []NamedDist
	Notes      []string
}

// NamedDist is one distribution to draw as bars.
type NamedDist struct {
	Name   string
	Values []float64
}

// Result is a finished run.
type Result struct {
	Spec   Spec
	Values model.Values
	Groups []Group
	// Summary holds the worst case per constraint and the utility figures.
	Summary []model.Figure
	// Utility is the method's own information-loss figure (lower is
	// better), e.g. the sum of ranges for distribution.
	Utility    model.Figure
	RowsIn     int
	Published  int
	Suppressed int
	Notes      []string
	// Release builds the publishable files with the given seed (rows are
	// shuffled with it) and the audit row map.
	Release func(seed uint64) (*model.Release, map[string][]int, error)
	// Answerer answers queries on the (unexported) release.
	Answerer Answerer
	// Detail explains one group (by index in Groups), listing at most
	// limit members (the distributions always cover the whole group).
	Detail func(i, limit int) Detail
	// Files lists what the release will hold (names and row counts),
	// without building it.
	Files []model.FileEntry
	// Workload is the query shape the method's paper evaluates with.
	Workload string
}

// Satisfied reports whether no group breaks a figure and every summary
// constraint holds: the release meets its privacy requirement.
func (r *Result) Satisfied() bool {
	if r.Violations() > 0 {
		return false
	}
	for _, f := range r.Summary {
		if f.Limit != "" && !f.OK {
			return false
		}
	}
	return true
}

// Violations counts groups that break a figure.
func (r *Result) Violations() int {
	n := 0
	for _, g := range r.Groups {
		if g.Violation {
			n++
		}
	}
	return n
}

// Method is an anonymization method.
type Method interface {
	Spec() Spec
	Run(ctx context.Context, in *Input) (*Result, error)
	// OpenRelease reads an exported release of this method for answering
	// queries from its files alone.
	OpenRelease(dir string) (Answerer, error)
}
