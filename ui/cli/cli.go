// Package cli is privlab's command line: its flags, help text, every
// command, what they print and their exit codes (main only calls
// Execute). With no arguments (or a file) it opens the workbench
// (ui.Run); its subcommands are the headless twins of every workbench
// action (SPEC Section 5):
//
//	privlab                         workbench on the embedded default dataset
//	privlab FILE                    workbench on a file (CSV, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE)
//	privlab DIR                     workbench reading a release (its original
//	                                found through the audit record beside it)
//	privlab run    [flags]          anonymize and write a release directory
//	privlab check  DIR [--original FILE] [--public FILE]   re-verify a release from its files
//	privlab attack DIR [DIR...] [--original FILE] [--population FILE] [--public FILE] [--marginals FILE] [--json]
//	                                the attacks each method's papers defend against, measured
//	                                beside the method's bounds (exit 1 when one is broken);
//	                                several releases of one original also attacked together
//	privlab query  [flags] "QUERY"  answer on the original and the release
//	privlab eval   [flags]          random workload: average relative error
//	privlab advise [flags]          every method over a grid: the risk-utility
//	                                map, its Pareto front, the pick under --max-risk
//	privlab gen    NAME [--rows N] [--seed S] [--out FILE]   synthetic data
//	privlab datasets                list embedded datasets
//	privlab tour [NAME [--steps]]   teaching tours: each paper's worked example
//	privlab inspect FILE|dataset:NAME   column profile
//
// Exit codes: 0 success; 1 a privacy requirement not met or a check
// failed; 2 usage or input error; 3 (check) no check failed, but a
// privacy guarantee could not be confirmed from the inputs given; 130
// interrupted (Ctrl-C: the command stops within a second and leaves no
// half-written release). Errors go to stderr as
// "privlab: FILE:LINE: message", never as a stack trace.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/model/source"
	"privlab/ui/cli/clitext"
)

// Exit codes (SPEC 5), and 130 (128 + SIGINT, the shell's code for a
// command Ctrl-C stopped) for an interrupted command.
const (
	exitOK      = 0
	exitPrivacy = 1
	exitUsage   = 2
	// exitUnconfirmed: check found no failure, but a privacy guarantee
	// could not be confirmed from the inputs given (verify.Report.Unproven).
	exitUnconfirmed = 3
	exitInterrupted = 130
)

// interruptGrace is how long an interrupted command has to stop and clean
// up by itself before the process removes what it was writing and exits.
const interruptGrace = 500 * time.Millisecond

// env is how the pipeline reaches the embedded datasets, and the real
// ones kept beside the project (resolved once, at start-up:
// $PRIVLAB_SHARED_DATA, else shared/data beside the module root), and
// the files the command reads more than once (a process runs one
// command: check --original asks for the audit record three times).
var env = pipeline.Env{Datasets: datasets.Catalog{}, SharedData: sharedData(), Cache: &pipeline.Cache{}}

// sharedData is the folder of the real datasets, "" when there is none.
func sharedData() string {
	dir, err := datasets.SharedDir()
	if err != nil {
		return ""
	}
	return dir
}

// Execute runs one command line, writing to the given streams, and
// returns the exit code. It never lets a panic escape as a stack trace:
// the stack goes into a crash file the message names.
func Execute(args []string, stdout, stderr io.Writer) (code int) {
	CatchInterrupts()
	out, errOut := &termWriter{w: stdout}, &termWriter{w: stderr}
	defer func() {
		if r := recover(); r != nil {
			code = internalError(errOut, r)
		}
		out.flush()
		errOut.flush()
	}()
	return execute(args, out, errOut)
}

// internalError reports a recovered panic (model.Recovered: the stack in
// a file, never on the terminal) and returns the exit code.
func internalError(stderr io.Writer, r any) int {
	fmt.Fprintf(stderr, "privlab: %v\n", model.Recovered(r, ""))
	return exitUsage
}

// execute dispatches a command line to its command, or to the
// workbench.
func execute(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return startWorkbench(nil, stderr)
	}
	cmd, rest := args[0], args[1:]
	if c, ok := lookupCommand(cmd); ok && cmd != "" && cmd != workbenchName {
		if c.raw != nil {
			return c.raw(rest, stdout, stderr)
		}
		return withArgs(c, rest, stdout, stderr)
	}
	// The workbench: privlab [FILE.csv | dataset:NAME | project.json] [flags].
	if strings.HasPrefix(cmd, "-") {
		return startWorkbench(args, stderr)
	}
	lower := strings.ToLower(cmd)
	if strings.HasSuffix(lower, ".json") {
		return startWorkbench(append([]string{"--config", cmd}, rest...), stderr)
	}
	if _, err := os.Stat(filepath.Join(cmd, "manifest.json")); err == nil {
		// A release directory: read it in the workbench, checked against
		// its original (--original FILE, else the input the audit record
		// beside it names, when that file is there unchanged).
		return startWorkbench(append([]string{"--release", cmd}, rest...), stderr)
	}
	if _, err := os.Stat(source.Path(cmd)); err == nil || isDataFile(lower) || strings.HasPrefix(cmd, "dataset:") {
		return startWorkbench(append([]string{"--in", cmd}, rest...), stderr)
	}
	fmt.Fprintf(stderr, "privlab: unknown command %q (hint: commands are %s; privlab help)\n", cmd, commandNames())
	return exitUsage
}

// isDataFile reports whether a (lower-case) name ends as a table's file
// does (privlab FILE opens it; a missing one is then an error naming it).
func isDataFile(name string) bool {
	for _, ext := range source.Extensions() {
		if strings.HasSuffix(source.Path(name), ext) {
			return true
		}
	}
	return false
}

// withArgs parses the flags of a command and reports errors uniformly.
func withArgs(c *command, args []string, stdout, stderr io.Writer) int {
	a, err := parseArgs(c.name, args)
	if err != nil {
		return fail(stderr, err)
	}
	if a.Help {
		commandHelp(stdout, c)
		return exitOK
	}
	if err := c.run(a, stdout, stderr); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

// exitError is an outcome whose details were printed and that ends with
// its own exit code: exitPrivacy (a privacy requirement not met, a check
// failed, a bound broken) or exitUnconfirmed (check found no failure but
// could not confirm a privacy guarantee).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// privacyFailure is the exit 1 outcome.
func privacyFailure(msg string) error { return exitError{exitPrivacy, msg} }

// fail reports err on stderr and returns its exit code.
func fail(stderr io.Writer, err error) int {
	var ee exitError
	if errors.As(err, &ee) {
		fmt.Fprintf(stderr, "privlab: %s\n", ee.msg)
		return ee.code
	}
	var ve *releasedir.VerifyError
	if errors.As(err, &ve) {
		for _, l := range ve.Lines {
			fmt.Fprintln(stderr, l)
		}
		if len(ve.Lines) == 0 {
			fmt.Fprintf(stderr, "privlab: the written release could not be read back: %v\n", ve.Err)
		}
		fmt.Fprintf(stderr, "privlab: the release fails its privacy verification and was not written (hint: --accept-violations writes it anyway, marked in the manifest)\n")
		return exitPrivacy
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "privlab: interrupted; nothing was written")
		return exitInterrupted
	}
	fmt.Fprintf(stderr, "privlab: %s\n", clitext.ErrorText(err))
	return exitUsage
}

func noPositional(a *Args, cmd string) error {
	if len(a.Positional) > 0 {
		return &model.ParamError{Param: cmd, Value: a.Positional[0], Reason: "unexpected argument", Hint: "privlab " + cmd + " --help"}
	}
	return nil
}

// prepare loads the input and resolves the project.
func prepare(a *Args) (*pipeline.Prepared, error) {
	if err := notAPatternIn(a.Project.Input); err != nil {
		return nil, err
	}
	t, err := env.LoadTableContext(interruptCtx(), env.WithDefaults(a.Project))
	if err != nil {
		return nil, err
	}
	return env.Prepare(a.Project, t)
}

// isTerminal reports whether w is a terminal (progress lines go only
// there, never into a file or a pipe).
func isTerminal(w io.Writer) bool {
	f, ok := raw(w).(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
