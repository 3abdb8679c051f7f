package ui

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"privlab/model"
)

// Errors, hints and notes come from the pipeline, the loader and the
// methods, which speak to the command line ("use --hierarchy
// salary=binary", "pass the names with --columns"). The workbench says
// the same with its own panes and keys: flagSteps maps every flag to the
// pane and key that set it, and workbenchText rewrites any text shown in
// the UI with it.

// flagStep says where the workbench sets what a command-line flag sets:
// do is an imperative phrase that replaces "pass --flag ARG" (or "use
// ..."), noun a phrase that stands for "--flag ARG" elsewhere in a
// sentence. Both get the flag's argument ("" without one) and a pane's
// tab number ("" when unknown).
type flagStep struct {
	arg bool // the flag takes an argument, which the phrase stands for too
	// values are plain words that are the flag's argument (most plain
	// words after a flag are the sentence going on)
	values []string
	do     func(arg string, tab func(pane int) string) string
	noun   func(arg string, tab func(pane int) string) string
}

// in names a pane with its tab number when known: "the Data pane (1)".
func in(name string, pane int, tab func(int) string) string {
	if n := tab(pane); n != "" {
		return "the " + name + " pane (" + n + ")"
	}
	return "the " + name + " pane"
}

func step(arg bool, do, noun func(string, func(int) string) string) flagStep {
	return flagStep{arg: arg, do: do, noun: noun}
}

func fixed(text string) func(string, func(int) string) string {
	return func(string, func(int) string) string { return text }
}

var flagSteps = map[string]flagStep{
	"hierarchy": step(true, func(arg string, tab func(int) string) string {
		if attr, spec, ok := strings.Cut(arg, "="); ok {
			return fmt.Sprintf("give %s the %s hierarchy in %s (b cycles the builders, w types interval widths, f picks a file)", attr, spec, in("Hierarchy", paneHierarchy, tab))
		}
		return "pick the hierarchy in " + in("Hierarchy", paneHierarchy, tab) + " (b cycles the builders, f picks a file)"
	}, func(arg string, tab func(int) string) string {
		if attr, spec, ok := strings.Cut(arg, "="); ok {
			return fmt.Sprintf("the %s hierarchy of %s (b in %s)", spec, attr, in("Hierarchy", paneHierarchy, tab))
		}
		return "a hierarchy (b or f in " + in("Hierarchy", paneHierarchy, tab) + ")"
	}),
	"hierarchies": step(false, fixed("pick the hierarchies in the Hierarchy pane (2)"), fixed("the hierarchies (the Hierarchy pane, 2)")),
	"columns": step(true, fixed("name the columns in the import wizard (ctrl+o opens the file; h: no header row, N names the columns)"),
		fixed("the import wizard (ctrl+o opens the file; h: no header row, N names the columns)")),
	"header": step(true, fixed("press h in the import wizard (ctrl+o opens the file) to read the first row as the header"),
		fixed("the import wizard's header row (ctrl+o opens the file; h)")),
	"missing-values": step(true, func(_ string, tab func(int) string) string {
		return "press v in " + in("Data", paneData, tab) + " (the values read as missing)"
	}, func(_ string, tab func(int) string) string {
		return "the values read as missing (v in " + in("Data", paneData, tab) + ")"
	}),
	"delimiter": step(true, fixed("choose the delimiter in the import wizard (ctrl+o opens the file; d cycles the delimiters)"),
		fixed("the import wizard's delimiter (ctrl+o opens the file; d cycles them)")),
	"kind": step(true, func(arg string, tab func(int) string) string {
		if col, kind, ok := strings.Cut(arg, "="); ok {
			return fmt.Sprintf("press t on %s in %s (%s)", col, in("Data", paneData, tab), kind)
		}
		return "press t on the column in " + in("Data", paneData, tab) + " (numeric/categorical)"
	}, func(arg string, tab func(int) string) string {
		if col, kind, ok := strings.Cut(arg, "="); ok {
			return fmt.Sprintf("%s as %s (t in %s)", col, kind, in("Data", paneData, tab))
		}
		return "the column's kind (t in " + in("Data", paneData, tab) + ")"
	}),
	"qi": step(true, func(_ string, tab func(int) string) string {
		return "press space on each quasi-identifier in " + in("Data", paneData, tab)
	}, func(_ string, tab func(int) string) string {
		return "the quasi-identifiers (space on each in " + in("Data", paneData, tab) + ")"
	}),
	"sa": step(true, func(_ string, tab func(int) string) string {
		return "press a on the sensitive column in " + in("Data", paneData, tab)
	}, func(_ string, tab func(int) string) string {
		return "the sensitive attribute (a in " + in("Data", paneData, tab) + ")"
	}),
	"id": step(true, func(arg string, tab func(int) string) string {
		if isPlaceholder(arg) {
			return "mark the identifier with i in " + in("Data", paneData, tab)
		}
		return fmt.Sprintf("press i on %s in %s", arg, in("Data", paneData, tab))
	}, func(arg string, tab func(int) string) string {
		if isPlaceholder(arg) {
			return "an identifier (i in " + in("Data", paneData, tab) + ")"
		}
		return fmt.Sprintf("%s as identifier (i in %s)", arg, in("Data", paneData, tab))
	}),
	"public": step(true, func(_ string, tab func(int) string) string {
		return "pick the public table with p in " + in("Data", paneData, tab) + " (P types a path or dataset:NAME)"
	}, func(_ string, tab func(int) string) string {
		return "a public table (p in " + in("Data", paneData, tab) + ")"
	}),
	"missing": {arg: true, values: []string{"drop", "category"}, do: func(arg string, tab func(int) string) string {
		return "press m in " + in("Data", paneData, tab) + " (missing values: drop rows or keep them as a category)"
	}, noun: func(arg string, tab func(int) string) string {
		if arg != "" {
			return "missing values: " + arg + " (m in " + in("Data", paneData, tab) + ")"
		}
		return "the missing-value policy (m in " + in("Data", paneData, tab) + ")"
	}},
	"method": step(true, func(_ string, tab func(int) string) string {
		return "press M in " + in("Method", paneMethod, tab) + " for another method"
	}, func(_ string, tab func(int) string) string {
		return "another method (M in " + in("Method", paneMethod, tab) + ")"
	}),
	"variant": step(true, func(arg string, tab func(int) string) string {
		if arg != "" {
			return "press V in " + in("Method", paneMethod, tab) + " for the variant " + arg
		}
		return "press V in " + in("Method", paneMethod, tab) + " for another variant"
	}, func(arg string, tab func(int) string) string {
		return strings.TrimSpace("the variant "+arg) + " (V in " + in("Method", paneMethod, tab) + ")"
	}),
	"in":     step(true, fixed("open a file with ctrl+o or an embedded dataset with ctrl+l"), fixed("another table (ctrl+o a file, ctrl+l a dataset)")),
	"config": step(true, fixed("open a project.json with ctrl+o"), fixed("a project.json (ctrl+o)")),
	"out": step(true, func(_ string, tab func(int) string) string {
		return "press e in " + in("Export", paneExport, tab) + " to choose the directory"
	}, func(_ string, tab func(int) string) string {
		return "the export directory (e in " + in("Export", paneExport, tab) + ")"
	}),
	"force": step(false, func(_ string, tab func(int) string) string {
		return "answer y when " + in("Export", paneExport, tab) + " asks"
	}, func(_ string, tab func(int) string) string {
		return "a y when " + in("Export", paneExport, tab) + " asks"
	}),
	"allow-growth": step(false, func(_ string, tab func(int) string) string {
		return "answer y when " + in("Export", paneExport, tab) + " asks"
	}, func(_ string, tab func(int) string) string {
		return "a y when " + in("Export", paneExport, tab) + " asks"
	}),
	"accept-violations": step(false, func(_ string, tab func(int) string) string {
		return "answer y when " + in("Export", paneExport, tab) + " asks"
	}, func(_ string, tab func(int) string) string {
		return "a y when " + in("Export", paneExport, tab) + " asks"
	}),
	"max-cell":    step(true, fixed("set max_cell (bytes) in a project.json and open it with ctrl+o"), fixed("max_cell in a project.json (ctrl+o)")),
	"rows":        step(true, fixed("set rows in a project.json and open it with ctrl+o"), fixed("rows in a project.json (ctrl+o)")),
	"data-seed":   step(true, fixed("set data_seed in a project.json and open it with ctrl+o"), fixed("data_seed in a project.json (ctrl+o)")),
	"public-rows": step(true, fixed("set public_rows in a project.json and open it with ctrl+o"), fixed("public_rows in a project.json (ctrl+o)")),
	"sweep": step(true, func(_ string, tab func(int) string) string {
		return "sweep it in " + in("Sweep", paneSweep, tab)
	}, func(_ string, tab func(int) string) string {
		return "a sweep (" + in("Sweep", paneSweep, tab) + ")"
	}),
	"original": step(true, fixed("open the release with ctrl+o: its input is found through the audit record beside it"),
		fixed("the release's input (found through the audit record beside it)")),
	"release": step(true, fixed("open the release folder with ctrl+o"), fixed("a release folder (ctrl+o)")),
}

// isPlaceholder reports whether a flag argument is a usage placeholder
// (COL, FILE.csv, a,b,c) rather than a real value.
func isPlaceholder(arg string) bool {
	return arg == "" || arg == strings.ToUpper(arg) || arg == "a,b,c" || arg == "x,y"
}

// flagPattern matches a flag with the verb before it and an argument
// after it (a token without spaces or brackets).
var flagPattern = regexp.MustCompile(`(?:\b(pass|use|set)\s+)?--([a-z][a-z0-9-]*)(?:[ =]([^\s;()]+))?`)

// workbenchText rewrites the command-line flags in text (an error's
// reason or hint, a loader's note, a warning) as the workbench's panes
// and keys; parameters of any method are edited in the Method pane.
// tab gives a pane's tab number ("" when unknown).
func workbenchText(text string, tab func(pane int) string) string {
	if !strings.Contains(text, "--") {
		return text
	}
	if tab == nil {
		tab = func(int) string { return "" }
	}
	return flagPattern.ReplaceAllStringFunc(text, func(m string) string {
		sub := flagPattern.FindStringSubmatch(m)
		verb, flag, arg := sub[1], sub[2], sub[3]
		rest := ""
		if st, ok := flagSteps[flag]; ok {
			// The flag's argument is a value or a placeholder, or follows
			// pass/use; otherwise it is the sentence's next word.
			if !st.arg || !(verb != "" || looksLikeValue(arg) || isPlaceholder(arg) || contains(st.values, arg)) {
				arg, rest = "", spaced(arg)
			}
			if verb != "" {
				return st.do(arg, tab) + rest
			}
			return st.noun(arg, tab) + rest
		}
		if isParam(flag) {
			// A parameter: the Method pane edits it (+/- or enter).
			where := in("Method", paneMethod, tab)
			switch {
			case verb != "" && looksLikeValue(arg):
				return fmt.Sprintf("set %s to %s in %s", flag, arg, where)
			case verb != "":
				return fmt.Sprintf("set %s in %s", flag, where) + spaced(arg)
			}
			return fmt.Sprintf("%s (in %s)", flag, where) + spaced(arg)
		}
		// A flag of a command the workbench has no twin for: its name.
		return strings.TrimSpace(verb+" "+flag) + spaced(arg)
	})
}

func spaced(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// looksLikeValue is true for a flag argument that is a value (a number,
// a percentage, a spec), not the next word of the sentence.
func looksLikeValue(s string) bool {
	if s == "" {
		return false
	}
	if _, ok := model.ParseNumber(strings.TrimSuffix(s, "%")); ok {
		return true
	}
	return strings.ContainsAny(s, ":=,.%-0123456789")
}

// isParam reports whether name is a parameter of any method.
func isParam(name string) bool {
	for _, m := range methods() {
		if _, ok := m.Spec().Param(name); ok {
			return true
		}
	}
	return name == "seed"
}

// tabOf is the tab number of a workbench pane ("" when the current
// method has no such pane).
func (st *State) tabOf(pane int) string {
	for i, p := range st.workbenchPanes() {
		if p == pane {
			return fmt.Sprint(i + 1)
		}
	}
	return ""
}

// workbenchPanes are the tuning panes the current method has, in tab
// order: the charts pane only for a method that draws charts.
func (st *State) workbenchPanes() []int {
	var out []int
	for i := 0; i < lastPane; i++ {
		if (i == paneCharts && st.Spec().Charts == "") || i == paneRelease || i == paneTour {
			continue
		}
		out = append(out, i)
	}
	return out
}

// ui rewrites a text for the workbench (see workbenchText).
func (st *State) ui(text string) string { return workbenchText(text, st.tabOf) }

// bareText is an error's text without its hint.
func bareText(err error) string {
	var pe *model.ParamError
	var ie *model.InputError
	switch {
	case errors.As(err, &pe):
		c := *pe
		c.Hint = ""
		return c.Error()
	case errors.As(err, &ie):
		c := *ie
		c.Hint = ""
		return c.Error()
	}
	return err.Error()
}

// withoutHint is an error's text without its hint, in the workbench's
// words.
func withoutHint(err error) string { return workbenchText(bareText(err), nil) }

// explain is an error as the workbench shows it: its text without the
// command-line hint, then what to do with the workbench's keys.
func (st *State) explain(err error) string {
	out := st.ui(bareText(err))
	if h := st.hint(err); h != "" {
		out += " — " + h
	}
	return out
}

// editorText is an error refusing a typed value: the text and the hint
// in the workbench's words (the editor is in the pane that sets it).
func editorText(err error) string {
	var pe *model.ParamError
	var ie *model.InputError
	hint := ""
	switch {
	case errors.As(err, &pe):
		hint = pe.Hint
	case errors.As(err, &ie):
		hint = ie.Hint
	}
	if hint == "" {
		return withoutHint(err)
	}
	return withoutHint(err) + " (" + workbenchText(hint, nil) + ")"
}

// hint says what to do about an error with the workbench's keys: the
// parameter or setting it names maps to the pane and key that change it;
// the error's own hint follows, its flags rewritten.
func (st *State) hint(err error) string {
	var pe *model.ParamError
	var ie *model.InputError
	data := in("Data", paneData, st.tabOf)
	switch {
	case errors.As(err, &pe):
		own := st.ui(pe.Hint)
		join := func(s string) string {
			switch {
			case strings.HasPrefix(pe.Hint, "--"+pe.Param):
				return s // "--sa names the sensitive attribute": s says it
			case own != pe.Hint && !strings.HasPrefix(pe.Hint, "--"):
				return own // the hint named the flag: now the pane and key
			case own == "":
				return s
			}
			return s + " " + own
		}
		name := pe.Param
		switch {
		case name == "sa":
			return join("in " + data + ", move to the sensitive column and press a.")
		case name == "qi":
			return join("in " + data + ", press space on each quasi-identifier column.")
		case name == "id":
			return join("in " + data + ", press i on an identifier column.")
		case name == "public":
			return join("in " + data + ", press p to pick the public table (or P to type a path).")
		case name == "missing":
			return join("in " + data + ", press m to keep missing values as a category (or drop their rows).")
		case name == "kind":
			return join("in " + data + ", press t on the column to switch numeric/categorical.")
		case strings.HasPrefix(name, "hierarchy"):
			return join("in " + in("Hierarchy", paneHierarchy, st.tabOf) + ", press b to pick another builder or f for a hierarchy file.")
		case name == "method" || name == "variant":
			return join("in " + in("Method", paneMethod, st.tabOf) + ", press M for another method or V for another variant.")
		case name == "in" || name == "original":
			return join("ctrl+o opens another file; ctrl+l loads an embedded dataset.")
		case name == "out":
			return join("in " + in("Export", paneExport, st.tabOf) + ", press e to choose another directory.")
		case name == "delimiter" || name == "columns":
			return join("ctrl+o opens the file again in the import wizard (d: delimiter, h: header row, N: column names).")
		}
		if isParam(name) {
			return join(fmt.Sprintf("in %s, select %s and press +/- or enter to type a value.", in("Method", paneMethod, st.tabOf), name))
		}
		return own
	case errors.As(err, &ie):
		own := st.ui(ie.Hint)
		if own == "" {
			return "ctrl+o opens another file; ctrl+l loads an embedded dataset."
		}
		return own + " (ctrl+o opens another file; ctrl+l loads an embedded dataset)"
	}
	return ""
}
