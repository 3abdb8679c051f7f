// Package clitext holds the command line's words that the workbench
// needs too: an error's fixes (model.Fix) said as the flags that make
// them, and the command that runs a saved project. It is part of the
// command line (ui's TestNoFlagOutsideTheCommandLine lets ui/cli spell
// flags), in a package of its own so that the workbench, which package
// cli starts, can name the command without importing it.
package clitext

import (
	"strings"

	"privlab/model"
)

// ErrorText is an error as the command line prints it: its fixes said
// as the flags that make them.
func ErrorText(err error) string {
	hint, fixes, _, ok := model.HintOf(err)
	if !ok {
		return err.Error()
	}
	return model.ErrorWithHint(err, model.HintText(hint, fixes, FixText))
}

// FixText says a fix as the flag that makes it ("pass --k 5",
// "use --hierarchy age=intervals:5").
func FixText(f model.Fix) string {
	s := fixFlag(f)
	if f.Why != "" {
		s += " " + f.Why
	}
	return s
}

func fixFlag(f model.Fix) string {
	v := f.Value
	or := func(placeholder string) string {
		if v == "" {
			return placeholder
		}
		return v
	}
	switch {
	case f.Setting == model.SetParam:
		return paramFix(f)
	case f.Change == model.Leave && f.Setting != model.SetID:
		return "leave out --" + string(f.Setting) // a Setting is named as its flag
	}
	switch f.Setting {
	case model.SetQI:
		return "pass --qi " + or("a,b,c")
	case model.SetSA:
		return "pass --sa " + or("COLUMN")
	case model.SetID:
		if f.Change == model.Leave {
			return "leave " + or("COL") + " out of --id"
		}
		return "pass --id " + or("COL")
	case model.SetPublic:
		return "pass --public " + or("FILE.csv")
	case model.SetInput:
		return "pass --in FILE.csv or --in dataset:NAME (privlab datasets lists them)"
	case model.SetOriginal:
		return "pass --original " + or("FILE")
	case model.SetPopulation:
		return "pass --population " + or("FILE")
	case model.SetPopulationCols:
		return "name its columns with --population-columns " + or("a,b,c")
	case model.SetHierarchy:
		return "use --hierarchy " + attrOr(f, "ATTR") + "=" + or("BUILDER")
	case model.SetKind:
		return "pass --kind " + attrOr(f, "COL") + "=" + or("numeric|categorical")
	case model.SetColumns:
		return "pass the names with --columns " + or("a,b,c")
	case model.SetDelimiter:
		return "pass --delimiter " + or("CHAR")
	case model.SetHeader:
		return "pass --header " + or("yes")
	case model.SetMissingValues:
		return "pass --missing-values " + or(`"?,"`)
	case model.SetMaxCell:
		return "pass a larger limit with --max-cell " + or("BYTES")
	case model.SetMissing:
		return "use --missing " + or("category")
	case model.SetMethod:
		return "pass --method " + or("NAME")
	case model.SetVariant:
		return "use --variant " + or("NAME")
	case model.SetSweep:
		return "e.g. --sweep " + or("PARAM=V1,V2")
	case model.SetOut:
		return "pass --out " + or("DIR")
	case model.SetForce:
		return "pass --force"
	case model.SetAllowGrowth:
		return "pass --allow-growth"
	case model.SetAcceptViolations:
		return "pass --accept-violations"
	}
	return f.String()
}

func attrOr(f model.Fix, placeholder string) string {
	if f.Attr == "" {
		return placeholder
	}
	return f.Attr
}

// paramFix says a method parameter's fix: --NAME VALUE.
func paramFix(f model.Fix) string {
	flag := "--" + f.Param
	switch {
	case f.Change == model.Raise && f.Value != "":
		return "raise " + flag + " to at least " + f.Value
	case f.Change == model.Lower && f.Value != "":
		return "lower " + flag + " to at most " + f.Value
	case f.Change == model.Raise:
		return "raise " + flag
	case f.Change == model.Lower:
		return "lower " + flag
	case f.Value != "":
		return "pass " + flag + " " + f.Value
	}
	return "pass " + flag + " " + strings.ToUpper(f.Param)
}

// RunConfigCommand is the command that runs a saved project file (path
// "": the command without it).
func RunConfigCommand(path string) string {
	return strings.TrimSpace("privlab run --config " + path)
}
