package ui

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/ui/cli/clitext"
	"privlab/ui/common"
	"privlab/ui/panes/preview"
)

// typicalErrors are errors the pipeline, the loader and the methods give,
// with their hints and fixes as the packages write them.
var typicalErrors = []error{
	&model.ParamError{Param: "hierarchy", Value: "salary", Reason: "the SA hierarchy must be binary",
		Hint: "the hierarchy of salary has a node with 4 children", Fixes: []model.Fix{{Setting: model.SetHierarchy, Attr: "salary", Value: "binary"}}},
	&model.ParamError{Param: "hierarchy", Reason: "not a tree", Hint: "ternary and intervals:W build trees of intervals too",
		Fixes: []model.Fix{{Setting: model.SetHierarchy, Attr: "salary", Value: "binary"}}},
	&model.InputError{File: "people.data", Line: 1, Msg: "a column without a name",
		Hint: "give every column a name", Fixes: []model.Fix{{Setting: model.SetColumns, Why: "if the file has no header row"}}},
	&model.InputError{File: "big.csv", Line: 7, Msg: "a cell longer than 65536 bytes", Hint: "is a quote left open?",
		Fixes: []model.Fix{{Setting: model.SetMaxCell}}},
	&model.ParamError{Param: "max-distortion", Value: "0.05", Reason: "no generalization meets it",
		Fixes: []model.Fix{{Setting: model.SetParam, Param: "max-distortion", Change: model.Raise, Value: "0.120"},
			{Setting: model.SetParam, Param: "min-generalization", Change: model.Lower}}},
	&model.ParamError{Param: "qi", Reason: "no quasi-identifier chosen", Fixes: []model.Fix{{Setting: model.SetQI}}},
	&model.ParamError{Param: "sa", Reason: "no sensitive attribute chosen", Hint: "the columns are: age, sex", Fixes: []model.Fix{{Setting: model.SetSA}}},
	&model.ParamError{Param: "sa", Value: "x", Reason: "no such column", Fixes: []model.Fix{{Setting: model.SetSA}}},
	&model.ParamError{Param: "qi", Reason: "no quasi-identifiers", Fixes: []model.Fix{{Setting: model.SetQI}}},
	&model.ParamError{Param: "public", Reason: "kja needs a public table",
		Hint: "the public table has the same QI columns, and an identifier column joins it with the table",
		Fixes: []model.Fix{{Setting: model.SetPublic}, {Setting: model.SetVariant, Value: "mondrian", Why: "(plain k-anonymity)"},
			{Setting: model.SetVariant, Value: "topdown", Why: "(plain k-anonymity)"}}},
	&model.ParamError{Param: "public", Value: "p.csv", Reason: "method lossyjoin reads no public table",
		Fixes: []model.Fix{{Setting: model.SetPublic, Change: model.Leave}}},
	&model.ParamError{Param: "id", Reason: "the tables share a column",
		Fixes: []model.Fix{{Setting: model.SetID, Value: "ssn", Why: "to join the tables on it (Sacharidis et al., Section 3.1)"}}},
	&model.InputError{File: "t.csv", Line: 4, Msg: "a missing QI value",
		Hint: "a tuple without a value has no place in a G-box", Fixes: []model.Fix{{Setting: model.SetMissing, Value: "drop"}}},
	&model.ParamError{Param: "missing", Reason: "missing values in a numeric QI",
		Fixes: []model.Fix{{Setting: model.SetMissing, Value: "category", Why: "(categorical missing values are then kept as ?)"}}},
	&model.ParamError{Param: "out", Value: "rel", Reason: "exists", Fixes: []model.Fix{{Setting: model.SetForce, Why: "to replace it"}}},
	&model.ParamError{Param: "out", Reason: "would grow", Hint: "or lower the parameter that adds rows (e.g. fake values)",
		Fixes: []model.Fix{{Setting: model.SetAllowGrowth, Why: "to write it anyway"}}},
	&model.ParamError{Param: "in", Reason: "no input table", Fixes: []model.Fix{{Setting: model.SetInput}}},
	&model.ParamError{Param: "k", Value: "1", Reason: "must be at least 2", Fixes: []model.Fix{{Setting: model.SetSweep, Value: "k=2..20:2"}}},
	&model.ParamError{Param: "fakes", Value: "-1", Reason: "must not be negative",
		Fixes: []model.Fix{{Setting: model.SetParam, Param: "fakes", Value: "5"}, {Setting: model.SetParam, Param: "fakes", Value: "10%"}}},
	&model.ParamError{Param: "kind", Value: "zip", Reason: "not numeric",
		Fixes: []model.Fix{{Setting: model.SetKind, Attr: "zip", Value: "numeric", Why: "to read them as missing values"}}},
	fmt.Errorf("preparing: %w", &model.ParamError{Param: "variant", Value: "x", Reason: "unknown", Fixes: []model.Fix{{Setting: model.SetVariant, Value: "mondrian"}}}),
	fmt.Errorf("running: %w", &model.ParamError{Param: "grouping", Value: "column:nosuch", Reason: "no column nosuch",
		Fixes: []model.Fix{{Setting: model.SetParam, Param: "grouping", Value: "sa-only"}}}),
}

// TestNoFlagInAnyHint: every hint and error text the workbench shows for
// the typical errors speaks of panes and keys, never of command-line
// flags, and every one of them has something to say.
func TestNoFlagInAnyHint(t *testing.T) {
	a := ready(t, "dataset:employees", 100, 30)
	st := a.st
	for _, err := range typicalErrors {
		texts := map[string]string{
			"hint":        st.Hint(err),
			"explain":     st.Explain(err),
			"withoutHint": common.WithoutHint(err),
			"editor":      common.EditorText(err),
			"Error()":     err.Error(),
		}
		d := &errorDialog{st: st, err: err}
		texts["error dialog"] = d.view(100, 30)
		st.LoadErr = err
		texts["data pane"] = a.panes[common.PaneData].view(100, 27)
		texts["preview"] = a.panes[common.PanePreview].(componentPane).m.(*preview.Model).NotReady(100)
		st.LoadErr = nil
		for where, text := range texts {
			if strings.Contains(text, "--") {
				t.Errorf("%s of %q shows a flag:\n%s", where, err, text)
			}
		}
		if texts["hint"] == "" {
			t.Errorf("no hint for %q", err)
		}
	}
}

// TestHintsNameThePaneAndKey: a fix becomes the pane and key that set
// it, with the tab number of the current method's tabs; the command line
// says the same fixes as flags.
func TestHintsNameThePaneAndKey(t *testing.T) {
	st := ready(t, "dataset:employees", 80, 24).st
	cases := []struct {
		err       error
		workbench []string
		cli       string
	}{
		{typicalErrors[0], []string{"give salary the binary hierarchy in the Hierarchy pane (2)", "b cycles the builders", "the hierarchy of salary has a node with 4 children"},
			`parameter hierarchy = "salary": the SA hierarchy must be binary (hint: use --hierarchy salary=binary; the hierarchy of salary has a node with 4 children)`},
		{typicalErrors[2], []string{"open the file again with ctrl+o: the import wizard names the columns if the file has no header row"},
			"people.data:1: a column without a name (hint: pass the names with --columns a,b,c if the file has no header row; give every column a name)"},
		{typicalErrors[3], []string{"set max_cell (bytes) in a project file", "is a quote left open?"},
			"big.csv:7: a cell longer than 65536 bytes (hint: pass a larger limit with --max-cell BYTES; is a quote left open?)"},
		{typicalErrors[4], []string{"raise max-distortion to at least 0.120 in the Method pane (4) (select max-distortion; +/→ and -/← step it, enter types a value)",
			", or lower min-generalization in the Method pane (4)"},
			`parameter max-distortion = "0.05": no generalization meets it (hint: raise --max-distortion to at least 0.120, or lower --min-generalization)`},
		{typicalErrors[5], []string{"press space on each quasi-identifier in the Data pane (1)"},
			"parameter qi: no quasi-identifier chosen (hint: pass --qi a,b,c)"},
		{typicalErrors[6], []string{"press a on the sensitive column in the Data pane (1); the columns are: age, sex"},
			"parameter sa: no sensitive attribute chosen (hint: pass --sa COLUMN; the columns are: age, sex)"},
		{typicalErrors[9], []string{"press p in the Data pane (1) to pick the public table (P types a path or dataset:NAME), or press V in the Method pane (4) for the variant mondrian (plain k-anonymity)"},
			"parameter public: kja needs a public table (hint: pass --public FILE.csv, or use --variant mondrian (plain k-anonymity), or use --variant topdown (plain k-anonymity); " +
				"the public table has the same QI columns, and an identifier column joins it with the table)"},
		{typicalErrors[10], []string{"clear the public table (P in the Data pane (1), then an empty path)"},
			`parameter public = "p.csv": method lossyjoin reads no public table (hint: leave out --public)`},
		{typicalErrors[11], []string{"press i on ssn in the Data pane (1) to join the tables on it (Sacharidis et al., Section 3.1)"},
			"parameter id: the tables share a column (hint: pass --id ssn to join the tables on it (Sacharidis et al., Section 3.1))"},
		{typicalErrors[12], []string{"press m in the Data pane (1) to drop the rows with missing values; a tuple without a value has no place in a G-box (ctrl+o opens another file; ctrl+l loads an embedded dataset)"},
			"t.csv:4: a missing QI value (hint: use --missing drop; a tuple without a value has no place in a G-box)"},
		{typicalErrors[14], []string{"answer y when the Export pane (7) asks to replace it"},
			`parameter out = "rel": exists (hint: pass --force to replace it)`},
		{typicalErrors[16], []string{"open a file with ctrl+o or an embedded dataset with ctrl+l"},
			"parameter in: no input table (hint: pass --in FILE.csv or --in dataset:NAME (privlab datasets lists them))"},
		{typicalErrors[17], []string{"type the values with e in the Sweep pane (8) (e.g. k=2..20:2)"},
			`parameter k = "1": must be at least 2 (hint: e.g. --sweep k=2..20:2)`},
		{typicalErrors[19], []string{"read zip as numeric with t in the Data pane (1) to read them as missing values"},
			`parameter kind = "zip": not numeric (hint: pass --kind zip=numeric to read them as missing values)`},
		{typicalErrors[20], []string{"press V in the Method pane (4) for the variant mondrian"},
			`preparing: parameter variant = "x": unknown (hint: use --variant mondrian)`},
		{typicalErrors[21], []string{"set grouping to sa-only in the Method pane (4)"},
			`running: parameter grouping = "column:nosuch": no column nosuch (hint: pass --grouping sa-only)`},
	}
	for _, c := range cases {
		got := st.Hint(c.err)
		for _, w := range c.workbench {
			if !strings.Contains(got, w) {
				t.Errorf("hint of %q:\n%s\nlacks %q", c.err, got, w)
			}
		}
		if got := clitext.ErrorText(c.err); got != c.cli {
			t.Errorf("the command line says\n%s\nwant\n%s", got, c.cli)
		}
	}
	// A method without a charts pane has the Method pane at tab 3.
	st.SetMethod("lossyjoin")
	if st.Spec().Charts == "" {
		if got := st.Hint(typicalErrors[4]); !strings.Contains(got, "Method pane (3)") {
			t.Errorf("with lossyjoin the Method pane is tab 3: %s", got)
		}
	}
}

// TestEverySettingHasWorkbenchWords: each setting a fix can name is said
// with the workbench's own words (not the front-end-neutral fallback)
// naming a key of the KeyMap, and with the command line's flag.
func TestEverySettingHasWorkbenchWords(t *testing.T) {
	st := ready(t, "dataset:employees", 80, 24).st
	keys := map[string]bool{}
	km := reflect.ValueOf(st.Keys)
	for i := 0; i < km.NumField(); i++ {
		if b, ok := km.Field(i).Interface().(key.Binding); ok {
			keys[common.KeyName(b)] = true
		}
	}
	for _, s := range model.Settings {
		f := model.Fix{Setting: s, Param: "k", Attr: "age", Value: "v"}
		wb, cli := st.FixText(f), clitext.FixText(f)
		if wb == f.String() || cli == f.String() {
			t.Errorf("%s: said in neutral words (workbench %q, command line %q)", s, wb, cli)
		}
		if strings.Contains(wb, "--") || !strings.Contains(cli, "--") {
			t.Errorf("%s: the workbench says %q, the command line %q", s, wb, cli)
		}
		named := false
		for _, word := range strings.FieldsFunc(wb, func(r rune) bool { return strings.ContainsRune(" ();,:", r) }) {
			named = named || keys[word]
		}
		if !named {
			t.Errorf("%s: %q names no key of the KeyMap", s, wb)
		}
		// A fix that knows no column or value (an error naming only its
		// setting) still reads as a sentence.
		for _, change := range []model.Change{model.Give, model.Raise, model.Lower, model.Leave} {
			bare := model.Fix{Setting: s, Param: "k", Change: change}
			for _, text := range []string{st.FixText(bare), clitext.FixText(bare), bare.String()} {
				if strings.Contains(text, "  ") || strings.Contains(text, " =") || strings.Contains(text, "()") || strings.HasSuffix(text, " ") ||
					strings.Contains(text, "e.g. )") || strings.Contains(text, "= ") {
					t.Errorf("%s (change %d) without a column or value: %q", s, change, text)
				}
			}
		}
	}
}

// TestErrorWithHint: a front end's own words replace the hint inside a
// wrapped error's text and nothing else.
func TestErrorWithHint(t *testing.T) {
	err := fmt.Errorf("loading: %w", &model.InputError{File: "a.csv", Line: 2, Msg: "bad", Hint: "look", Fixes: []model.Fix{{Setting: model.SetDelimiter}}})
	if got, want := err.Error(), "loading: a.csv:2: bad (hint: choose the delimiter; look)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := common.WithoutHint(err), "loading: a.csv:2: bad"; got != want {
		t.Errorf("withoutHint = %q, want %q", got, want)
	}
	if got, want := clitext.ErrorText(err), "loading: a.csv:2: bad (hint: pass --delimiter CHAR; look)"; got != want {
		t.Errorf("command line: %q, want %q", got, want)
	}
	plain := errors.New("no hint")
	if common.WithoutHint(plain) != "no hint" || clitext.ErrorText(plain) != "no hint" {
		t.Error("an error without a hint reads as itself")
	}
}

// TestNotesSayTheirFixes: the loader's notes carry their fixes, which the
// workbench says with its keys and the command line with its flags.
func TestNotesSayTheirFixes(t *testing.T) {
	st := ready(t, "dataset:employees", 80, 24).st
	var b strings.Builder
	b.WriteString("zip,sex\n")
	for i := 0; i < 40; i++ {
		zip := fmt.Sprint(10000 + i)
		if i == 7 {
			zip = "x"
		}
		fmt.Fprintf(&b, "%s,%c\n", zip, "MF"[i%2])
	}
	tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "t.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Notes) != 1 {
		t.Fatalf("notes %+v", tb.Notes)
	}
	const text = `t.csv:9: column 1 (zip) is read as categorical because 1 cells are not numbers (first "x"); `
	if got, want := st.NoteTexts(tb.Notes)[0], text+"read zip as numeric with t in the Data pane (1) to read them as missing values"; got != want {
		t.Errorf("workbench:\n%s\nwant\n%s", got, want)
	}
	if got, want := tb.Notes[0].Say(clitext.FixText), text+"pass --kind zip=numeric to read them as missing values"; got != want {
		t.Errorf("command line:\n%s\nwant\n%s", got, want)
	}
}
