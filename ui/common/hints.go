package common

import (
	"errors"
	"fmt"
	"strings"

	"privlab/model"
	"privlab/model/releasedir"
)

// Errors carry a hint in words that hold on every front end and fixes
// (model.Fix) that name the setting to change; the command line says a
// fix as a flag, the workbench as the pane and key that set it, with
// the keys' names taken from the KeyMap.

// FixText says a fix with the workbench's panes and keys.
func (st *State) FixText(f model.Fix) string {
	s := st.fixWords(f)
	if f.Why != "" {
		s += " " + f.Why
	}
	return s
}

// fixWords says what to do for a fix, naming the keys and the tab where
// it is done.
func (st *State) fixWords(f model.Fix) string {
	switch f.Setting {
	case model.SetParam:
		return st.paramFixText(f)
	case model.SetHierarchy:
		return st.hierarchyFixText(f)
	}
	for _, words := range []func(model.Fix) (string, bool){st.dataFixText, st.fileFixText, st.paneFixText} {
		if s, ok := words(f); ok {
			return s
		}
	}
	return f.String()
}

// dataFixText says where a role, a kind or the missing values are
// set: the Data pane. ok is false for another setting.
func (st *State) dataFixText(f model.Fix) (words string, ok bool) {
	k, v := st.Keys, f.Value
	data := st.In("Data", PaneData)
	switch f.Setting {
	case model.SetQI:
		return fmt.Sprintf("press %s on each quasi-identifier in %s", KeyName(k.ToggleQI), data), true
	case model.SetSA:
		return fmt.Sprintf("press %s on %s in %s", KeyName(k.SetSA), or(v, "the sensitive column"), data), true
	case model.SetID:
		if f.Change == model.Leave && v != "" {
			return fmt.Sprintf("press %s on %s in %s to unmark it", KeyName(k.ToggleID), v, data), true
		}
		return fmt.Sprintf("press %s on %s in %s", KeyName(k.ToggleID), or(v, "the identifier column"), data), true
	case model.SetPublic:
		if f.Change == model.Leave {
			return fmt.Sprintf("clear the public table (%s in %s, then an empty path)", KeyName(k.PublicPath), data), true
		}
		return fmt.Sprintf("press %s in %s to pick the public table (%s types a path or dataset:NAME)", KeyName(k.Public), data, KeyName(k.PublicPath)), true
	case model.SetKind:
		if f.Attr == "" || v == "" {
			return fmt.Sprintf("press %s on %s in %s (numeric/categorical)", KeyName(k.ToggleKind), or(f.Attr, "the column"), data), true
		}
		return fmt.Sprintf("read %s as %s with %s in %s", f.Attr, v, KeyName(k.ToggleKind), data), true
	case model.SetMissing:
		if v == "drop" {
			return fmt.Sprintf("press %s in %s to drop the rows with missing values", KeyName(k.ToggleMissing), data), true
		}
		return fmt.Sprintf("press %s in %s to keep missing values as a category", KeyName(k.ToggleMissing), data), true
	case model.SetMissingValues:
		return fmt.Sprintf("press %s in %s to choose the values read as missing", KeyName(k.MissingTokens), data), true
	}
	return "", false
}

// fileFixText says how the input and the way it is read change:
// opening a file (the import wizard). ok is false for another setting.
func (st *State) fileFixText(f model.Fix) (words string, ok bool) {
	k := st.Keys
	switch f.Setting {
	case model.SetInput:
		return fmt.Sprintf("open a file with %s or an embedded dataset with %s", KeyName(k.Open), KeyName(k.Dataset)), true
	case model.SetOriginal:
		return fmt.Sprintf("open the release with %s: its input is found through the audit record beside it", KeyName(k.Open)), true
	case model.SetColumns:
		if f.Change == model.Leave {
			return fmt.Sprintf("open the file again with %s and name no columns in the import wizard", KeyName(k.Open)), true
		}
		return fmt.Sprintf("open the file again with %s: the import wizard names the columns", KeyName(k.Open)), true
	case model.SetDelimiter:
		if f.Change == model.Leave {
			return fmt.Sprintf("open the file again with %s: the import wizard reads it without a delimiter", KeyName(k.Open)), true
		}
		return fmt.Sprintf("open the file again with %s: the import wizard chooses the delimiter", KeyName(k.Open)), true
	case model.SetHeader:
		return fmt.Sprintf("open the file again with %s: the import wizard says whether the first row names the columns", KeyName(k.Open)), true
	case model.SetMaxCell:
		return fmt.Sprintf("set max_cell (bytes) in a project file and open it with %s", KeyName(k.Open)), true
	}
	return "", false
}

// paneFixText says where the population, the method, a sweep and the
// export are set. ok is false for another setting.
func (st *State) paneFixText(f model.Fix) (words string, ok bool) {
	k, v := st.Keys, f.Value
	switch f.Setting {
	case model.SetPopulation:
		return fmt.Sprintf("press %s in %s to pick the population (%s types a path)", KeyName(k.Population), st.In("Export", PaneExport), KeyName(k.PopulationPath)), true
	case model.SetPopulationCols:
		return fmt.Sprintf("press %s in %s to name its columns (the import wizard)", KeyName(k.NamePopulation), st.In("Export", PaneExport)), true
	case model.SetMethod:
		return fmt.Sprintf("press %s in %s for another method", KeyName(k.Method), st.In("Method", PaneMethod)), true
	case model.SetVariant:
		return fmt.Sprintf("press %s in %s for %s", KeyName(k.Variant), st.In("Method", PaneMethod), or(prefixed("the variant ", v), "another variant")), true
	case model.SetSweep:
		return fmt.Sprintf("type the values with %s in %s%s", KeyName(k.EditText), st.In("Sweep", PaneSweep), prefixed(" (e.g. ", v)+closing(v)), true
	case model.SetOut:
		return fmt.Sprintf("press %s in %s to choose the directory", KeyName(k.EditText), st.In("Export", PaneExport)), true
	case model.SetForce, model.SetAllowGrowth, model.SetAcceptViolations:
		return fmt.Sprintf("answer %s when %s asks", KeyName(k.Yes), st.In("Export", PaneExport)), true
	}
	return "", false
}

// paramFixText says where a parameter is set: the Method pane, whose
// keys step it or take a typed value.
func (st *State) paramFixText(f model.Fix) string {
	k := st.Keys
	where := fmt.Sprintf("in %s (select %s; %s and %s step it, %s types a value)", st.In("Method", PaneMethod), f.Param,
		KeyName(k.Inc), KeyName(k.Dec), KeyName(k.Edit))
	switch {
	case f.Change == model.Raise && f.Value != "":
		return fmt.Sprintf("raise %s to at least %s %s", f.Param, f.Value, where)
	case f.Change == model.Lower && f.Value != "":
		return fmt.Sprintf("lower %s to at most %s %s", f.Param, f.Value, where)
	case f.Change == model.Raise:
		return fmt.Sprintf("raise %s %s", f.Param, where)
	case f.Change == model.Lower:
		return fmt.Sprintf("lower %s %s", f.Param, where)
	case f.Value != "":
		return fmt.Sprintf("set %s to %s %s", f.Param, f.Value, where)
	}
	return fmt.Sprintf("set %s %s", f.Param, where)
}

func (st *State) hierarchyFixText(f model.Fix) string {
	k := st.Keys
	where := st.In("Hierarchy", PaneHierarchy)
	if f.Value != "" && f.Attr != "" {
		return fmt.Sprintf("give %s the %s hierarchy in %s (%s cycles the builders, %s types interval widths, %s picks a file)",
			f.Attr, f.Value, where, KeyName(k.Builder), KeyName(k.Widths), KeyName(k.File))
	}
	return fmt.Sprintf("pick another hierarchy for %s in %s (%s cycles the builders, %s picks a file)", or(f.Attr, "the attribute"), where,
		KeyName(k.Builder), KeyName(k.File))
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func closing(s string) string {
	if s == "" {
		return ""
	}
	return ")"
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

// namedFix is the fix of an error that names a setting but says no fix:
// change that setting (a parameter the current method reads, a role, a
// hierarchy).
func (st *State) namedFix(param string) (model.Fix, bool) {
	if attr, ok := strings.CutPrefix(param, "hierarchy "); ok {
		return model.Fix{Setting: model.SetHierarchy, Attr: attr}, true
	}
	if _, ok := st.Spec().Param(param); ok || param == model.SeedParam.Name {
		return model.Fix{Setting: model.SetParam, Param: param}, true
	}
	for _, s := range model.Settings {
		if s != model.SetParam && string(s) == param {
			return model.Fix{Setting: s}, true
		}
	}
	return model.Fix{}, false
}

// Explain is an error as the workbench shows it: its text without the
// Hint, then what to do with the workbench's keys.
func (st *State) Explain(err error) string {
	out := WithoutHint(err)
	if h := st.Hint(err); h != "" {
		out += " — " + h
	}
	return out
}

// Hint says what to do about an error with the workbench's panes and
// keys: its fixes (or, when it has none, the setting it names) and its
// Hint; an input file's error adds how to open another.
func (st *State) Hint(err error) string {
	hint, fixes, param, ok := model.HintOf(err)
	if !ok {
		return ""
	}
	if len(fixes) == 0 {
		if f, ok := st.namedFix(param); ok {
			fixes = []model.Fix{f}
		}
	}
	out := model.HintText(hint, fixes, st.FixText)
	var ie *model.InputError
	if errors.As(err, &ie) {
		other := st.otherFile(ie.File)
		if out == "" {
			return other + "."
		}
		return out + " (" + other + ")"
	}
	return out
}

// otherFile says how to give another file in place of file: the
// population's or the public table's own keys when it is one of them
// (ctrl+o and ctrl+l change the input table, not those), else how to open
// another input.
func (st *State) otherFile(file string) string {
	k, p := st.Keys, st.Project
	switch {
	case file != "" && p.Population != "" && (file == p.Population || releasedir.SamePath(file, p.Population)):
		return fmt.Sprintf("%s picks the population in %s, %s types its path", KeyName(k.Population), st.In("Export", PaneExport), KeyName(k.PopulationPath))
	case file != "" && p.Public != "" && (file == p.Public || releasedir.SamePath(file, p.Public)):
		return fmt.Sprintf("%s picks the public table in %s, %s types its path", KeyName(k.Public), st.In("Data", PaneData), KeyName(k.PublicPath))
	}
	return fmt.Sprintf("%s opens another file; %s loads an embedded dataset", KeyName(k.Open), KeyName(k.Dataset))
}

// NoteTexts are a table's notes with their fixes said with the
// workbench's panes and keys.
func (st *State) NoteTexts(notes []model.Note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.Say(st.FixText)
	}
	return out
}

// WithoutHint is an error's text without its hint and fixes.
func WithoutHint(err error) string { return model.ErrorWithHint(err, "") }

// EditorText is an error refusing a typed value: the text and its hint
// (the editor is already where the value is set, so no pane or key).
func EditorText(err error) string {
	hint, fixes, _, _ := model.HintOf(err)
	if h := model.HintText(hint, fixes, model.Fix.String); h != "" {
		return WithoutHint(err) + " (" + h + ")"
	}
	return WithoutHint(err)
}

// LoadErrorView explains why the table did not load and what to do.
func (st *State) LoadErrorView(w int) string {
	s := st.Styles
	return s.Error.Render("Could not load "+Safe(st.Project.Input)+":") + "\n\n" + Wrap(WithoutHint(st.LoadErr), w) +
		"\n\n" + s.Muted.Render(Wrap("What to do: "+st.Hint(st.LoadErr), w))
}
