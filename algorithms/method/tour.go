package method

import (
	"context"
	"fmt"
	"math"
	"sort"

	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/releasedir"
)

// A Tour teaches a method on its paper's own worked example: a list of
// steps, each showing what the paper shows at that point (a figure, a
// table, an equation) with the numbers computed by running the method
// on the paper's own table. A method that has one implements Touring;
// the tour package lists the registered methods' tours (privlab tour,
// the workbench's tour view).
//
// Steps are independent: each builds itself through the lab, so a step
// is added to a tour (an attack on the example, say) by appending one
// TourStep to Steps.
type Tour struct {
	Title string
	// Paper cites the paper by authors (the steps cite sections and
	// figures).
	Paper string
	// Setups are the paper's own tables, each with the settings of its
	// worked example: the tour opens on the first, and loading one of
	// their tables in the workbench (ctrl+l) takes its settings.
	Setups []Setup
	Steps  []TourStep
}

// Touring is implemented by a method that has a tour of its paper.
type Touring interface {
	Tour() Tour
}

// TourStep builds one step of a tour.
type TourStep func(ctx context.Context, lab *TourLab) (Step, error)

// Setup is a complete run configuration on embedded data: the paper's
// table (and public table), roles, hierarchies, variant and parameter
// values. The workbench loads it into the live preview.
type Setup struct {
	// Method is the method that runs ("" for the tour's own; a step
	// may compare with another method's release of the same table).
	Method string
	Input  string // dataset:NAME
	Public string // dataset:NAME of the public table ("" for none)
	// Population is the dataset:NAME of the people the attacks of the
	// release read (run --population; "" for none).
	Population string
	Roles      model.Roles
	// Hierarchies maps an attribute to a builder spec or the dataset's
	// embedded hierarchy (the dataset's default for the others).
	Hierarchies map[string]string
	Variant     string
	Params      model.Values
}

// Step is one step of a tour: a title, the paper's place it follows
// (section, figure, table or equation), its text and tables, and the
// settings the live preview shows beside it.
type Step struct {
	Title string
	// Cite names where in the paper the step is ("Figure 3; Section 2.2").
	Cite string
	// Text is paragraphs; Sections are tables, charts and notes (as a
	// group detail).
	Text     []string
	Sections []Section
	// Setup is the run the step explains: the workbench shows its live
	// preview beside the step.
	Setup Setup
}

// TourLab is what a tour's steps may use: runs of the tour's method on
// embedded data, prepared the way the command line prepares them. The
// pipeline provides it.
type TourLab struct {
	// Prepare loads a setup's tables and hierarchies and validates its
	// values: the input a run of the setup reads.
	Prepare func(s Setup) (*Input, error)
	// Run prepares and runs a setup (with its deferred figures).
	Run func(ctx context.Context, s Setup) (*Input, *Result, error)
	// Attack runs a setup and attacks its release, built in memory as an
	// export publishes it, with what the attacker holds (SPEC 3.7): the
	// attacks of algorithms/attack and the method's own, through the
	// registry, one finding each.
	Attack func(ctx context.Context, s Setup, a Attacker) ([]risk.Finding, error)
}

// Attacker is what a tour's attacker holds beside the release.
type Attacker struct {
	// Original: the setup's table, the truth attribute inference is
	// scored against (and, with Public, the people linkage names when no
	// population is given).
	Original bool
	// Public: the setup's public table.
	Public bool
	// Population is the people the attacker can name: a dataset:NAME, or
	// PopulationTable (a table the step builds), with PopulationName
	// saying whose they are in words.
	Population      string
	PopulationTable *model.Table
	PopulationName  string
}

// FileTable is a published file as a table of a step, its rows sorted
// (a release shuffles them; a paper's figure lists them in order).
func FileTable(f releasedir.ReleaseFile) Section {
	rows := make([][]string, f.Rows)
	for i := range rows {
		rows[i] = make([]string, len(f.Header))
		f.Fill(i, rows[i])
	}
	sort.SliceStable(rows, func(a, b int) bool {
		for c := range rows[a] {
			if x, y := rows[a][c], rows[b][c]; x != y {
				return lessValue(x, y)
			}
		}
		return false
	})
	return Section{Title: f.Name, Header: f.Header, Rows: rows}
}

// lessValue orders numbers by value, and text (or text before numbers)
// by its characters.
func lessValue(x, y string) bool {
	a, okA := model.ParseNumber(x)
	b, okB := model.ParseNumber(y)
	switch {
	case okA && okB:
		return a < b
	case okA != okB:
		return okA
	}
	return x < y
}

// ReleaseFile finds a published file by name.
func ReleaseFile(rel *releasedir.Release, name string) (releasedir.ReleaseFile, bool) {
	for _, f := range rel.Files {
		if f.Name == name {
			return f, true
		}
	}
	return releasedir.ReleaseFile{}, false
}

// Ratio writes x as the fraction p/q of smallest denominator q <= 1000
// that equals it (to 1e-12), the way a paper prints probabilities, else
// as a decimal.
func Ratio(x float64) string {
	if x == math.Trunc(x) {
		return model.FormatNumber(x)
	}
	for q := 2.0; q <= 1000; q++ {
		if p := math.Round(x * q); math.Abs(x-p/q) < 1e-12 {
			return fmt.Sprintf("%.0f/%.0f", p, q)
		}
	}
	return model.FormatFixed(x, 4)
}

// AttackSection lists attacks a step ran: each one's measured figure, the
// method's bound for it, the verdict and how many records or people it
// reached (within the bound when it holds; probabilities as fractions, as the papers print them).
func AttackSection(title string, fs []risk.Finding) Section {
	sec := Section{Title: title, Header: []string{"attack", "measured", "bound", "verdict", "reached"}}
	for _, f := range fs {
		measured, bound, on := "—", "none", "—"
		if f.NotRun == "" {
			measured, on = Ratio(f.Measured), fmt.Sprint(f.Records)
		}
		if !math.IsNaN(f.Bound) {
			bound = Ratio(f.Bound)
		}
		sec.Rows = append(sec.Rows, []string{f.Attack, measured, bound, f.Verdict(), on})
	}
	return sec
}

// AttackNamed finds an attack's finding by its name.
func AttackNamed(fs []risk.Finding, name string) (risk.Finding, error) {
	for _, f := range fs {
		if f.Attack == name {
			return f, nil
		}
	}
	return risk.Finding{}, fmt.Errorf("no %s attack ran", name)
}

// AttackWords says a finding's outcome in words: the measured figure
// against the bound, and the verdict ("measured 1/4 against the bound
// 1/4: holds"); the step cites the bound's definition (BoundBy).
func AttackWords(f risk.Finding) string {
	switch {
	case f.NotRun != "":
		return "did not run: " + f.NotRun
	case math.IsNaN(f.Bound):
		return fmt.Sprintf("measured %s, which the method does not bound", Ratio(f.Measured))
	case f.Vacuous != "":
		return fmt.Sprintf("measured %s against the bound %s, which bounds nothing (%s): not bounded", Ratio(f.Measured), Ratio(f.Bound), f.Vacuous)
	}
	return fmt.Sprintf("measured %s against the bound %s: %s", Ratio(f.Measured), Ratio(f.Bound), f.Verdict())
}
