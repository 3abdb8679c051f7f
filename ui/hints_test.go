package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"privlab/model"
)

// typicalErrors are errors the pipeline, the loader and the methods give,
// with their command-line hints (the texts as the packages write them).
var typicalErrors = []error{
	&model.ParamError{Param: "hierarchy", Value: "salary", Reason: "the SA hierarchy must be binary",
		Hint: "the hierarchy of salary has a node with 4 children; use --hierarchy salary=binary"},
	&model.ParamError{Param: "hierarchy", Reason: "not a tree", Hint: "use --hierarchy salary=binary (or ternary, intervals:W)"},
	&model.InputError{File: "people.data", Line: 1, Msg: "a column without a name",
		Hint: "give every column a name; if the file has no header row, pass the names with --columns"},
	&model.InputError{File: "big.csv", Line: 7, Msg: "a cell longer than 65536 bytes", Hint: "is a quote left open? a larger limit: --max-cell BYTES"},
	&model.ParamError{Param: "max-distortion", Value: "0.05", Reason: "no generalization meets it",
		Hint: "raise --max-distortion to at least 0.120 or lower --min-generalization"},
	&model.ParamError{Param: "qi", Reason: "no quasi-identifier chosen", Hint: "pass --qi a,b,c"},
	&model.ParamError{Param: "sa", Reason: "no sensitive attribute chosen", Hint: "pass --sa COLUMN; columns are: age, sex"},
	&model.ParamError{Param: "sa", Value: "x", Reason: "no such column", Hint: "--sa names the sensitive attribute"},
	&model.ParamError{Param: "qi", Reason: "no quasi-identifiers", Hint: "name them with --qi"},
	&model.ParamError{Param: "public", Reason: "kja needs a public table",
		Hint: "pass --public FILE.csv (the same QI columns; --id COL joins it with the table) or use --variant mondrian or topdown (plain k-anonymity)"},
	&model.ParamError{Param: "public", Value: "p.csv", Reason: "method lossyjoin reads no public table", Hint: "leave out --public"},
	&model.ParamError{Param: "id", Reason: "the tables share a column", Hint: "pass --id ssn to join the tables on it (Sacharidis et al., Section 3.1)"},
	&model.InputError{File: "t.csv", Line: 4, Msg: "a missing QI value",
		Hint: "a tuple without a value has no place in a G-box: drop those rows (--missing drop)"},
	&model.ParamError{Param: "missing", Reason: "missing values in a numeric QI", Hint: "use --missing category to keep categorical missing values as ?"},
	&model.ParamError{Param: "out", Value: "rel", Reason: "exists", Hint: "pass --force to replace it"},
	&model.ParamError{Param: "out", Reason: "would grow", Hint: "lower the parameter that adds rows (e.g. fake values), or pass --allow-growth to write it anyway"},
	&model.ParamError{Param: "in", Reason: "no input table", Hint: "pass --in FILE.csv or --in dataset:NAME (privlab datasets lists them)"},
	&model.ParamError{Param: "k", Value: "1", Reason: "must be at least 2", Hint: "e.g. --sweep k=2..20 or k=2..20:2"},
	&model.ParamError{Param: "fakes", Value: "-1", Reason: "must not be negative", Hint: "--fakes 5 or --fakes 10%"},
	&model.ParamError{Param: "kind", Value: "zip", Reason: "not numeric", Hint: "pass --kind zip=numeric to read them as missing values"},
	fmt.Errorf("preparing: %w", &model.ParamError{Param: "variant", Value: "x", Reason: "unknown", Hint: "use --variant mondrian"}),
	errors.New("parameter grouping: no column nosuch (hint: use --grouping sa-only)"),
}

// TestNoFlagInAnyHint: every hint, error text and note the workbench
// shows for the typical errors speaks of panes and keys, never of
// command-line flags.
func TestNoFlagInAnyHint(t *testing.T) {
	a := ready(t, "dataset:employees", 100, 30)
	st := a.st
	for _, err := range typicalErrors {
		texts := map[string]string{
			"hint":        st.hint(err),
			"explain":     st.explain(err),
			"withoutHint": withoutHint(err),
			"editor":      editorText(err),
		}
		d := &errorDialog{st: st, err: err}
		texts["error dialog"] = d.view(100, 30)
		st.LoadErr = err
		texts["data pane"] = a.panes[paneData].view(100, 27)
		texts["preview"] = a.panes[panePreview].(*previewPane).notReady(100)
		st.LoadErr = nil
		for where, text := range texts {
			if strings.Contains(text, "--") {
				t.Errorf("%s of %q shows a flag:\n%s", where, err, text)
			}
		}
	}
	// Notes and warnings too.
	for _, note := range []string{
		"people.data:1: the header row looks like data (34, M): if the file has no header row, name the columns with --columns a,b,c",
		"adult.data:1: the first row looks like data (39, State-gov, …), so it is read as data and the columns are named c1..c15; name them with --columns a,b,c (or pass --header yes if the first row names the columns)",
		`t.csv: pass --missing-values "?," to read only ? and empty cells as missing`,
		"t.csv:3: column 2 (zip) is read as categorical because 2 cells are not numbers (first \"x\"); pass --kind zip=numeric to read them as missing values",
		"no identifier joins the tables: every public row counts as another individual (pass --id COL if PD holds MT's people)",
	} {
		if got := st.ui(note); strings.Contains(got, "--") {
			t.Errorf("note %q reads %q", note, got)
		}
	}
}

// TestHintsNameThePaneAndKey: the flag a hint names becomes the pane and
// key that set it, with the tab number of the current method's tabs.
func TestHintsNameThePaneAndKey(t *testing.T) {
	st := ready(t, "dataset:employees", 80, 24).st
	cases := []struct {
		err  error
		want []string
	}{
		{typicalErrors[0], []string{"give salary the binary hierarchy in the Hierarchy pane (2)", "b cycles the builders"}},
		{typicalErrors[2], []string{"import wizard", "ctrl+o", "N names the columns"}},
		{typicalErrors[4], []string{"raise max-distortion (in the Method pane (4)) to at least 0.120", "min-generalization (in the Method pane (4))"}},
		{typicalErrors[11], []string{"press i on ssn in the Data pane (1) to join the tables"}},
		{typicalErrors[14], []string{"answer y when the Export pane (7) asks to replace it"}},
		{typicalErrors[12], []string{"drop those rows (missing values: drop (m in the Data pane (1)))"}},
	}
	for _, c := range cases {
		got := st.hint(c.err)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("hint of %q:\n%s\nlacks %q", c.err, got, w)
			}
		}
	}
	// A method without a charts pane has the Method pane at tab 3.
	st.SetMethod("lossyjoin")
	if st.Spec().Charts == "" {
		if got := st.hint(typicalErrors[4]); !strings.Contains(got, "Method pane (3)") {
			t.Errorf("with lossyjoin the Method pane is tab 3: %s", got)
		}
	}
}
