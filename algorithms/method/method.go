// Package method is the contract every anonymization method fulfils. A
// method declares what it reads (a sensitive attribute or not, a public
// table or not, its parameters with their presets and sweep values), what
// it shows (per-group figures with their thresholds, charts, a group
// detail made of titled tables, charts and notes) and what it publishes;
// the command line, the workbench, the verifier and the sweep are driven by
// these declarations and never by a switch on a method's name.
//
// A method lives in one package under algorithms/ (algorithms/NAME), its
// independent checker in algorithms/NAME/check (which imports model,
// algorithms/verify, algorithms/risk and the method's format package
// algorithms/NAME/format only, never the method), and both are registered
// with one line in algorithms/catalog. A method declares its parameters and
// decodes them once (its Config); the group size k is declared with
// GroupSize, the seed is model.SeedParam.
package method

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"sync"

	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/query"
	"privlab/model/releasedir"
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
	// PerGroup says the threshold differs per group (or per record): it is
	// the group's own Group.Limits entry, not Against or Limit.
	PerGroup bool
	// Digits is the number of decimals to show (-1: integer).
	Digits int
}

// SizeKey is the Key of a figure that is a group's size as the method
// counts it (held against k; kja counts the public tuples in a box too):
// the workbench shows it in place of its own count of the group's
// records, so a table of groups has one size column.
const SizeKey = "size"

// Threshold returns the declared limit of the figure under the given
// values (for PerGroup figures see Group.Limit).
func (f Figure) Threshold(v model.Values) float64 {
	if f.Against != "" {
		return v.Float(f.Against)
	}
	return f.Limit
}

// Breaks reports whether x breaks the figure's rule against limit,
// within 1e-9: for figures that are not ratios of counts (a distance, a
// confidence). A group that carries its figure's exact value is judged
// exactly instead (Group.Exact, Group.Breaks).
func (f Figure) Breaks(x, limit float64) bool {
	const eps = 1e-9
	switch f.Rule {
	case AtMost:
		return x > limit+eps
	case AtLeast:
		return x < limit-eps
	}
	return false
}

// Violated reports whether x breaks the figure's declared threshold.
func (f Figure) Violated(x float64, v model.Values) bool {
	return f.Breaks(x, f.Threshold(v))
}

// Format renders a figure value.
func (f Figure) Format(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	if f.Digits < 0 {
		return model.FormatNumber(x)
	}
	return fmt.Sprintf("%.*f", f.Digits, x)
}

// PublicUse says whether a method reads a public table.
type PublicUse int

const (
	// NoPublic methods read the table alone.
	NoPublic PublicUse = iota
	// PublicOptional methods use a public table when one is given.
	PublicOptional
	// PublicRequired methods cannot run without one.
	PublicRequired
)

// Example is a small configuration on embedded data that shows the
// method at work: the contract test runs it, the README cites it.
type Example struct {
	Input   string // dataset:NAME
	Public  string // dataset:NAME of the public table, for methods that read one
	Roles   model.Roles
	Variant string
	Params  model.Values
	// Query is a query the release of this example answers.
	Query string
}

// Spec is a method's declaration.
type Spec struct {
	Name  string // command-line name
	Title string
	// Paper cites the method's source by authors and section.
	Paper string
	// Variants lists the variants; the first is the default.
	Variants []string
	// Params are the parameters the method reads, with their defaults.
	Params []model.ParamSpec
	// Figures are the per-group figures, in column order.
	Figures []Figure
	// Files names the published files (a pattern such as at_<qi>.csv where
	// the names depend on the data).
	Files []string
	// Insensitive says what happens to insensitive columns.
	Insensitive string
	// NeedsSA is true when the method reads a sensitive attribute; a method
	// without one runs on the quasi-identifiers alone.
	NeedsSA bool
	// Public says whether the method reads a public table (--public).
	Public PublicUse
	// NoPublicVariant is the variant to run when no public table is given
	// and no variant was chosen, for a method whose default variant needs
	// one ("" otherwise): the workbench opens the method on it and says so.
	NoPublicVariant string
	// Compare gives the settings that make the method comparable with the
	// others on the same data (privlab eval --compare, the Compare pane):
	// the variant and values for a group size k on table t with the roles,
	// given whether a public table is at hand; nil uses the defaults (a
	// method without a group size).
	Compare func(k int, t *model.Table, roles model.Roles, public bool) (variant string, values model.Values)
	// ForDataset are values that suit one embedded dataset (by name, e.g.
	// the paper's own setting for its worked example), applied over the
	// defaults when the input is that dataset, by the command line and the
	// workbench alike. Otherwise every parameter starts at its Default,
	// everywhere: help, run, the workbench and the comparison.
	ForDataset map[string]model.Values
	// Charts titles the workbench pane that shows Result.Charts ("" when
	// the method draws none), and ChartParams are the parameters that pane
	// edits beside the charts.
	Charts      string
	ChartParams []string
	// Certifies says in one sentence what a release that passes its checks
	// guarantees, and what it does not.
	Certifies string
	// Example runs the method on embedded data.
	Example Example
	// Estimate predicts the run's time in seconds and says what drives it
	// (nil: always quick); runs estimated above a few seconds are
	// announced before they start.
	Estimate func(in *Input) (seconds float64, why string)
	// Presence is the bound the method promises on the probability that
	// a person of a population is in the data, read from its validated
	// values, and its name (nil: it promises none). Data holding a larger
	// share of a population than the bound cannot keep it, whatever the
	// release: run says so when given a population.
	Presence func(values model.Values) (bound float64, by string)
	// Study reproduces the shape of the paper's evaluation, or compares the
	// method with its baselines (nil when the method has none): privlab
	// eval prints its tables after the method's own workload.
	Study Study
	// Baselines are the other registered methods the study or the tour
	// runs (a paper's comparison): the lab runs no other, and the
	// catalog's test fails when one is not registered with its variant.
	Baselines []Baseline
	// Grid is the advisor's default grid of settings for the method on
	// table t with the roles, given whether a public table is at hand
	// (privlab advise, SPEC 3.8): about eight settings that span weak to
	// strong privacy, in that order; nil: the defaults alone.
	Grid func(t *model.Table, roles model.Roles, public bool) []GridPoint
}

// GridPoint is one setting of a method's advisor grid: the variant (""
// for the default) and the parameter values that differ from the
// defaults, spelled as the command line spells them.
type GridPoint struct {
	Variant string
	Values  model.Values
}

// GridOf is the method's grid for a table, or its defaults alone when it
// declares none.
func (s Spec) GridOf(t *model.Table, roles model.Roles, public bool) []GridPoint {
	if s.Grid == nil {
		return []GridPoint{{Values: model.Values{}}}
	}
	return s.Grid(t, roles, public)
}

// Baseline is another registered method (and variant) a method's study
// or tour runs beside it, and why the paper compares with it. A method
// names another method only here.
type Baseline struct {
	Method  string // a registered method's name
	Variant string // one of its variants ("" for its default)
	Why     string // the paper's comparison, cited
}

func (b Baseline) String() string { return strings.TrimSpace(b.Method + " " + b.Variant) }

// Runs reports whether the method's study or tour may run the method
// name with the variant: the method itself, or a declared baseline.
func (s Spec) Runs(name, variant string) bool {
	if name == s.Name {
		return true
	}
	for _, b := range s.Baselines {
		if b.Method == name && (b.Variant == variant || b.Variant == "" && variant == "") {
			return true
		}
	}
	return false
}

// Study runs a method's evaluation through the lab and returns tables.
type Study func(ctx context.Context, lab *Lab) ([]Section, error)

// Lab is what a study may use: the prepared input of the run it studies,
// its method and the baselines it declares (Spec.Baselines, by name, so no
// method imports another), the workload, and embedded data. The pipeline
// provides it.
type Lab struct {
	// Input is the prepared input of the run being studied.
	Input *Input
	// Run runs the studied method or one of its declared baselines on in
	// with the given variant and values (validated against that method's
	// declaration); another method is refused.
	Run func(ctx context.Context, name, variant string, values model.Values, in *Input) (*Result, error)
	// Error answers a random workload of the shape ("" = the result's
	// own) on the result and returns the average relative error (or
	// bound width over the truth for bounds) and the queries measured.
	Error func(res *Result, in *Input, shape string) (mean float64, queries int, err error)
	// Open loads input (and public, "" for none) with the study's roles,
	// hierarchy settings and missing-value policy: a dataset:NAME
	// generator takes rows and seed (0: its default).
	Open func(input, public string, rows int, seed uint64) (*Input, error)
	// OpenAs loads input like Open but with the given roles and hierarchy
	// specs (attribute -> builder or file; the dataset's defaults for the
	// rest) instead of the study's: a paper's own setup on other data.
	OpenAs func(input string, roles model.Roles, hierarchies map[string]string, rows int, seed uint64) (*Input, error)
	// Progress reports the fraction done (may be nil).
	Progress func(done float64)
	// Queries and Seed are the size and seed of the eval's workload
	// (privlab eval --queries, --seed), for studies that generate their
	// own queries (0 queries: the study's default).
	Queries int
	Seed    uint64
	// SharedData is the folder of the real datasets kept beside the
	// project (UCI Adult as ARX cuts it, with its hierarchies, in adult/),
	// "" when the caller has none: a study that runs on one then says it
	// did not and why. The caller passes it in; a study never looks for
	// it relative to the working directory.
	SharedData string
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

// Validate fills in the defaults and checks every parameter's value,
// a default too (the default k may exceed a small table), in the order
// the method declares them, and returns the complete set. Unknown names
// are errors naming the parameters the method reads.
func (s Spec) Validate(in model.Values, rows int) (model.Values, error) {
	out := s.Defaults()
	for name, val := range in {
		if _, ok := s.Param(name); !ok {
			var names []string
			for _, p := range s.Params {
				names = append(names, p.Name)
			}
			return nil, &model.ParamError{Param: name, Value: val, Reason: "not a parameter of method " + s.Name,
				Hint: s.Name + " reads: " + strings.Join(names, ", ")}
		}
		out[name] = strings.TrimSpace(val)
	}
	for _, p := range s.Params {
		if err := p.Validate(out[p.Name], rows); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Input is everything a run reads.
type Input struct {
	Table *model.Table
	// Public is the public table (nil unless the method reads one and the
	// user gave it). Its QI columns (and identifier columns, when both
	// tables have them) carry the same names as Table's.
	Public *model.Table
	// Roles names the QIs, the identifiers and the SA ("" when the method
	// declares none).
	Roles model.Roles
	// Hierarchies has one hierarchy for every QI and for the SA.
	Hierarchies map[string]*hierarchy.Hierarchy
	Variant     string
	Values      model.Values
	// Progress, when set, receives the fraction done (0..1).
	Progress func(done float64)
	// Whole is set when Table is one partition of a larger input (a
	// partitioned run, SPEC 3.9): the value counts of the whole input,
	// which a method reads wherever its paper defines a figure over the
	// table (sampling's marginals, Sattar et al., Eq. 3; the table
	// target, Koudas et al. 2009, Section 3), so that every partition
	// runs against the same global figure.
	Whole *model.Whole
	// IDBase is added to every group, class and box identifier the
	// release publishes (0 for a whole table): a partitioned run gives
	// each partition its own range, so identifiers are unique across the
	// partitions (SPEC 3.9).
	IDBase int
}

// VariantOr returns the variant, or the method's default when none is set.
func (in *Input) VariantOr(s Spec) string {
	if in.Variant != "" || len(s.Variants) == 0 {
		return in.Variant
	}
	return s.Variants[0]
}

// Group is one group of the result, as the preview shows it.
type Group struct {
	ID   int
	Rows []int32 // member rows of Input.Table
	// QI summarises each QI over the group (a value, a range or a
	// generalized label), aligned with Roles.QIs.
	QI []string
	// SAHist counts the group's SA values in at most a few bins of the SA
	// domain (nil when not applicable).
	SAHist []int32
	// Figures are aligned with Spec.Figures.
	Figures []float64
	// Limits holds the group's own threshold of every PerGroup figure
	// (aligned with Figures; other entries are ignored).
	Limits []float64
	// Exact holds, aligned with Figures, the exact value of figures that
	// are ratios of counts (a sensitive value's share c/|G|, a presence
	// |G|/prod|G_ATi|); nil entries (or a nil slice) leave the figure to
	// its float64. An exact figure held against a parameter is judged
	// against the parameter's exact decimal value, so 1/2 breaks alpha =
	// 0.4999999999 (model.Bound).
	Exact     []*big.Rat
	Violation bool
	// AtRoot is true when everything the group publishes is generalized
	// to the root (the release says nothing specific about it).
	AtRoot bool
}

// Limit is the threshold figure i of the group is held against.
func (g Group) Limit(spec Spec, i int, v model.Values) float64 {
	if spec.Figures[i].PerGroup && i < len(g.Limits) {
		return g.Limits[i]
	}
	return spec.Figures[i].Threshold(v)
}

// Judge sets Violation from the group's figures and thresholds.
func (g *Group) Judge(spec Spec, v model.Values) {
	g.Violation = false
	for i := range spec.Figures {
		if i < len(g.Figures) && g.Breaks(spec, i, v) {
			g.Violation = true
		}
	}
}

// Breaks reports whether figure i of the group breaks its threshold:
// exactly when the group carries the figure's exact value and the
// figure is held against a parameter (Exact), else by Figure.Breaks.
func (g Group) Breaks(spec Spec, i int, v model.Values) bool {
	f := spec.Figures[i]
	if i < len(g.Exact) && g.Exact[i] != nil && f.Against != "" && !f.PerGroup {
		bound := boundOf(v, f.Against)
		switch f.Rule {
		case AtMost:
			return !bound.AllowsRat(g.Exact[i])
		case AtLeast:
			return g.Exact[i].Cmp(bound.Rat()) < 0
		}
		return false
	}
	return f.Breaks(g.Figures[i], g.Limit(spec, i, v))
}

// bounds keeps the exact bounds parsed from parameter texts (text ->
// model.Bound, which is immutable): Breaks runs for every group and
// figure, tens of thousands of times a run at 45,000 rows, and parsing
// an exact decimal cost more than the method's comparisons (12% of the
// workbench's CPU after a key with ambiguity, issue 20). Keyed by the
// text, so a changed parameter is parsed anew.
var bounds sync.Map

// boundOf is v.Bound(name), parsed once per text.
func boundOf(v model.Values, name string) model.Bound {
	text := v[name]
	if b, ok := bounds.Load(text); ok {
		return b.(model.Bound)
	}
	b := v.Bound(name)
	bounds.Store(text, b)
	return b
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

// Answerer answers queries from a release. It keeps nothing of a query
// past Answer (workload.Measure writes the next queries' IN lists into
// the memory of the last ones), and may be asked while the result's
// deferred figures are computed (the workbench and privlab run do).
type Answerer interface {
	Answer(q *query.Query) (Bounds, error)
}

// Detail explains one group on screen: titled sections, each a table, a
// chart or notes (or several of them), drawn in order by the workbench
// without knowing the method.
type Detail struct {
	Title    string
	Sections []Section
}

// Section is one part of a Detail or a chart pane.
type Section struct {
	Title string
	// Notes are lines of text.
	Notes []string
	// Header and Rows make a table; Total is the number of rows in all
	// when only some are listed.
	Header []string
	Rows   [][]string
	Total  int
	// Labels and Series make a bar chart: one bar per label and series.
	Labels []string
	Series []Series
}

// Series is one named series of a chart.
type Series struct {
	Name   string
	Values []float64
	// Largest says the values are a limit or a per-label measure, not
	// counts or shares: a chart that shows several labels on one row
	// shows their largest value, never their sum.
	Largest bool
}

// Result is a finished run.
type Result struct {
	Spec   Spec
	Values model.Values
	Groups []Group
	// Summary holds the worst case per constraint (figures with a Limit)
	// and the method's summary figures.
	Summary []releasedir.Figure
	// Utility is the method's own information-loss figure (lower is
	// better), e.g. the sum of ranges for distribution.
	Utility releasedir.Figure
	// RowsIn counts the input records; Published the records the release
	// represents; Suppressed those left out (sampled-out records count as
	// neither, see Notes).
	RowsIn     int
	RowsPublic int // rows of the public table read (set by the pipeline)
	Published  int
	Suppressed int
	Notes      []string
	// Warnings say how a release that meets its privacy requirement may
	// still be of little use (most values generalized to the root, a
	// target far from the one asked for): the workbench shows them beside
	// the tick.
	Warnings []string
	// SuppressionWarned is true when Warnings already say how many records
	// are suppressed and why: the workbench then adds no generic line of
	// its own about them.
	SuppressionWarned bool
	// Release builds the publishable files with the given seed (rows are
	// shuffled with it) and the audit row map (per file, the input row of
	// each published row where rows stand for records). Rows are rows of
	// Input.Table; the slices stay the method's (the files' Fill may read
	// them), so a caller translating them copies them first.
	Release func(seed uint64) (*releasedir.Release, map[string][]int, error)
	// Answerer answers queries on the (unexported) release.
	Answerer Answerer
	// Deferred computes summary figures that cost more than the run itself
	// (nil when there are none). The workbench shows the result first and
	// adds them when they come; pipeline.Run waits for them, and an export
	// calls it before Release. It returns the same figures every time.
	Deferred func(ctx context.Context) ([]releasedir.Figure, error)
	// Detail explains one group (by index in Groups), listing at most
	// limit rows per table.
	Detail func(i, limit int) Detail
	// Charts draws the method's charts (for the pane Spec.Charts names).
	Charts func() []Section
	// Files lists what the release will hold (names and row counts),
	// without building it.
	Files []releasedir.FileEntry
	// Workload is the query shape the method's paper evaluates with (see
	// algorithms/workload).
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

// TablesOpener is a Method whose OpenRelease can read the release's
// files as tables another reader has parsed already (check --original:
// the checker parses each file once, and the workload's answers read the
// same tables rather than parsing the files again). table returns a file
// of the release (its name in dir) as csvfile.Load reads it with the
// kinds inferred and no missing-value tokens; a method reads what it
// needs from it and loads the file itself whenever that table is not
// what its own loading would give (e.g. another kind), so that its
// answers are those of OpenRelease. Only tables parsed from the files
// are handed over, nothing of the reader that parsed them.
type TablesOpener interface {
	OpenReleaseTables(dir string, table func(name string) (*model.Table, error)) (Answerer, error)
}
