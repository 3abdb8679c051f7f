package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"privlab/model"
)

// command is one of privlab's commands, written in this one place:
// dispatch (execute), privlab help, privlab CMD --help, the flags a
// command accepts and main's choice of garbage collector all read it.
type command struct {
	name    string
	aliases []string
	// usage is the command's lines of privlab help ("" for a command
	// help does not list).
	usage string
	// flags are the flags the command reads (methodParams stands for
	// every parameter a registered method declares); any other is a
	// usage error.
	flags []string
	// run handles the parsed flags; raw (tour, help, version) reads the
	// arguments itself.
	run func(a *Args, w, ew io.Writer) error
	raw func(args []string, w, ew io.Writer) int
	// batch: the command runs once and exits (main tunes its collector).
	batch bool
}

// methodParams in a command's flags stands for every method parameter
// (catalog.ParamNames, --seed among them).
const methodParams = "<method parameters>"

// workbenchName is the name the workbench's flags are parsed under.
const workbenchName = "privlab"

// Flag groups. loadFlags say how a table is read (the loader's
// settings and a generated dataset's size and seed); projectFlags are
// what anonymizing reads.
var (
	loadFlags       = []string{"columns", "kind", "missing-values", "header", "max-cell", "delimiter", "rows", "data-seed"}
	projectFlags    = append([]string{"config", "in", "qi", "sa", "id", "method", "variant", "hierarchy", "missing", "public", "public-rows", methodParams}, loadFlags...)
	populationFlags = []string{"population", "population-columns"}
	// attackerFlags are the files an attacker holds (check recomputes the
	// attacks the manifest states with them; attack measures them).
	attackerFlags = append([]string{"config", "original", "public", marginalsFlag}, append(populationFlags, loadFlags...)...)
	evalFlags     = []string{"release", "original", "risk-threshold", "queries", "range", "selectivity", "qd", "csv", "sweep", "compare", "force"}
)

// flagsOf joins flag groups.
func flagsOf(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// commands are privlab's commands, in the order privlab help lists
// them; the workbench (no command, or a FILE) is the first. (A function,
// not a variable: help and tour's handlers read the table.)
func commands() []command {
	return []command{
		{name: "", usage: `  privlab                          open the workbench on dataset:census (10,000 rows)
  privlab FILE                     open the workbench on a file: CSV, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE
  privlab project.json             open the workbench on a saved project (also --config project.json)
                                   (the workbench takes the run flags too: privlab dataset:census --rows 45000)
  privlab DIR                      read a release in the workbench: its check, its risk, queries; its original
                                   is found through the audit record beside it (or give --original FILE)
`, flags: flagsOf(projectFlags, populationFlags, []string{"risk-threshold", "release", "original"})},
		{name: "run", batch: true, run: cmdRun, usage: `  privlab run    [flags] --out DIR anonymize and write a release directory
`, flags: flagsOf(projectFlags, populationFlags, []string{"risk-threshold", "out", "force", "accept-violations", "allow-growth", "queries", "partitions", "partition-rows", "runner"})},
		{name: "check", batch: true, run: cmdCheck, usage: `  privlab check  DIR [--original FILE] [--public FILE] [--population FILE]   re-verify a release from its files
                                   (exit 1 on a violation, 3 when a privacy guarantee needs a file not given); the
                                   attacks the manifest states are recomputed with the files they read
`, flags: flagsOf(attackerFlags, []string{"public-rows", "id"})},
		{name: "attack", batch: true, run: cmdAttack, usage: `  privlab attack DIR [DIR...] [--original FILE] [--population FILE [--population-columns a,b,c]] [--public FILE]
                 [--marginals FILE] [--json]
                                   attack the release as its methods' papers' attackers would: linkage, singling
                                   out, attribute inference, membership, Eq. 3 under other marginals; each measured
                                   beside the method's bound and beside the same attacker without the release
                                   (exit 1 when an attack breaks a bound; --population defaults to the original);
                                   several releases of one original are also attacked together
`, flags: flagsOf(attackerFlags, []string{"json"})},
		{name: "query", batch: true, run: cmdQuery, usage: `  privlab query  [flags] "QUERY"   answer a query on the original and on the release
                                   (anonymizes with the flags, or --release DIR [--original FILE])
`, flags: flagsOf(projectFlags, []string{"release", "original"})},
		{name: "eval", batch: true, run: cmdEval, usage: `  privlab eval   [flags]           random query workload, the risk figures every release gets, and the method's study
                                   (--compare: every method side by side; --sweep PARAM=V1,V2,... or PARAM=A..B[:STEP];
                                   --release DIR --original FILE: an exported release)
`, flags: flagsOf(projectFlags, populationFlags, evalFlags)},
		{name: "advise", batch: true, run: cmdAdvise, usage: `  privlab advise [flags] [--methods M,...] [--grid METHOD:PARAM=V1,V2,...] [--risk worst|linkage|inference|membership|singling-out]
                 [--max-risk R] [--json] [--csv FILE] [--svg FILE] [--verify]
                                   every method over a grid of its parameters on the same data: per point the
                                   definition (holds or not), the calibrated attack risk with its interval and the
                                   workload's median relative error; the Pareto front, and with --max-risk the
                                   lowest-loss point under R with the privlab run command that makes it
`, flags: flagsOf(projectFlags, populationFlags, []string{"methods", "grid", "risk", "utility", "max-risk", "json", "csv", "svg", "verify", "queries", "force"})},
		{name: "gen", batch: true, run: cmdGen, usage: `  privlab gen    NAME [--rows N] [--seed S] [--out FILE] [--hierarchies DIR]
  privlab gen    NAME [--rows N] [--seed S] --out DIR --shards S   the rows in order as S Parquet files
  privlab gen    universe --rows N --ratio R --seed S --out DIR
`, flags: []string{"rows", "seed", "out", "hierarchies", "ratio", "shards", "force"}},
		{name: "datasets", run: cmdDatasets, usage: `  privlab datasets                 list the embedded datasets
`},
		{name: "tour", raw: cmdTour, usage: `  privlab tour                     list the teaching tours: each paper's worked example, step by step
  privlab tour NAME [--steps]      open the workbench on a tour (--steps: print its steps)
`, flags: []string{"steps"}},
		{name: "inspect", batch: true, run: cmdInspect, usage: `  privlab inspect FILE|dataset:NAME   column profile: kind, distinct, missing, range / top values
`, flags: flagsOf([]string{"config", "seed"}, loadFlags)},
		{name: "help", aliases: []string{"-h", "--help"}, raw: func(_ []string, w, _ io.Writer) int { usage(w); return exitOK }},
		{name: "version", aliases: []string{"--version"}, raw: func(_ []string, w, _ io.Writer) int {
			fmt.Fprintf(w, "privlab %s\n", model.Version)
			return exitOK
		}},
	}
}

// lookupCommand finds a command by its name or an alias ("privlab", the
// workbench's name, finds the workbench).
func lookupCommand(name string) (*command, bool) {
	if name == workbenchName {
		name = ""
	}
	all := commands()
	for i := range all {
		if c := &all[i]; c.name == name || slices.Contains(c.aliases, name) {
			return c, true
		}
	}
	return nil, false
}

// IsBatch reports whether the command line's first word names a command
// that runs once and exits (main lets its collector run less often).
func IsBatch(name string) bool {
	c, ok := lookupCommand(name)
	return ok && name != "" && c.batch
}

// commandNames lists the commands privlab help shows, for hints.
func commandNames() string {
	var names []string
	for _, c := range commands() {
		if c.name != "" && c.usage != "" {
			names = append(names, c.name)
		}
	}
	return strings.Join(names, ", ")
}

// reads returns the flags the command reads, method parameters
// expanded, in the table's order (--help and -h are every command's).
func (c *command) reads() []string {
	var out []string
	for _, f := range c.flags {
		if f == methodParams {
			out = append(out, paramNames()...)
			continue
		}
		out = append(out, f)
	}
	return append(out, "help", "h")
}

// title is how messages name the command.
func (c *command) title() string {
	if c.name == "" {
		return "the workbench (privlab [FILE | DIR | project.json])"
	}
	return "privlab " + c.name
}

// helpHint is where the command's flags are listed.
func (c *command) helpHint() string {
	if c.name == "" {
		return "privlab help lists its flags"
	}
	return "privlab " + c.name + " --help lists its flags"
}

// notRead is the usage error for a flag the command does not read.
func (c *command) notRead(name string) error {
	return &model.ParamError{Param: "--" + name, Reason: c.title() + " does not read this flag", Hint: c.helpHint()}
}

// commandHelp writes privlab CMD --help: the command's usage lines and
// each flag it reads with what it is for.
func commandHelp(w io.Writer, c *command) {
	for i, l := range strings.Split(strings.TrimRight(c.usage, "\n"), "\n") {
		prefix := "       "
		if i == 0 {
			prefix = "usage: "
		}
		fmt.Fprintln(w, prefix+strings.TrimPrefix(l, "  "))
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	defineFlags(fs, &Args{})
	fmt.Fprintf(w, "\nflags of %s:\n", c.title())
	for _, n := range c.reads() {
		if n == "h" {
			continue
		}
		fmt.Fprintf(w, "  --%-20s %s\n", n, fs.Lookup(n).Usage)
	}
}
