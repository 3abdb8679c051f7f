package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"privlab/algorithms/partitioned"
	"privlab/model"
	"privlab/ui"
	"privlab/ui/cli/clitext"
)

// startWorkbench opens the TUI; its flags are the run flags (--in,
// --config, --rows, --qi, --grouping, ...), so any headless setting can
// start the workbench too.
func startWorkbench(args []string, stderr io.Writer) int {
	a, err := parseArgs("privlab", args)
	if err != nil {
		return fail(stderr, err)
	}
	if len(a.Positional) > 0 {
		return fail(stderr, &model.ParamError{Param: "privlab", Value: a.Positional[0], Reason: "unexpected argument",
			Hint: "privlab [FILE.csv | dataset:NAME | project.json] [flags]; privlab help"})
	}
	if a.Release != "" && partitioned.Is(a.Release) {
		return fail(stderr, &model.ParamError{Param: "release", Value: a.Release, Reason: "a partitioned release: the workbench reads one release at a time",
			Hint: "open one partition (privlab " + filepath.Join(a.Release, partitioned.PartDir(0)) + "), or check it whole: privlab check " + a.Release})
	}
	if a.Release != "" && a.Original != "" {
		// The truth for the release's queries, read as the release's input
		// was (its audit record remembers --columns, kinds, delimiter).
		a.Project.Input = a.Original
		if made, ok := env.Cache.AuditProject(a.Release); ok && sameInput(made.Input, a.Original) {
			if len(a.Project.Columns) == 0 {
				a.Project.Columns = made.Columns
			}
			if a.Project.Kinds == nil {
				a.Project.Kinds = made.Kinds
			}
			if a.Project.Delimiter == "" {
				a.Project.Delimiter = made.Delimiter
			}
			if a.Project.Header == "" {
				a.Project.Header = made.Header
			}
			if a.Project.MissingValues == nil {
				a.Project.MissingValues = made.MissingValues
			}
			a.Project.Rows, a.Project.DataSeed = made.Rows, made.DataSeed
		}
	}
	releaseInterrupts()
	if err := ui.Run(env, ui.Options{Project: a.Project, ProjectPath: a.Config, Release: a.Release}); err != nil {
		fmt.Fprintf(stderr, "privlab: %s\n", clitext.ErrorText(err))
		return exitUsage
	}
	return exitOK
}
