package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"privlab/algorithms/advise"
	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/csvfile"
)

// Args is a parsed command line (SPEC 5).
type Args struct {
	Project pipeline.Project
	// set records which project settings came from flags (they override
	// a --config file).
	Config   string
	Out      string
	Force    bool
	Accept   bool
	Growth   bool
	Original string
	Public   string
	Release  string
	// JSON asks attack for its findings as JSON.
	JSON       bool
	Positional []string
	// gen / eval
	Rows    int
	Seed    uint64
	SeedSet bool
	Ratio   float64
	HierDir string
	Shards  int
	// run: a partitioned run (SPEC 3.9)
	Partitions    int
	PartitionRows int
	Runner        string
	Queries       int
	RangeFrac     float64
	Selectivity   float64
	Dims          int
	CSV           string
	Sweep         string
	Compare       bool
	// advise
	Methods []string
	Grid    []string
	Risk    string
	Utility string
	MaxRisk float64
	SVG     string
	Verify  bool
	// Steps is tour's --steps (tour reads its own arguments; the flag is
	// here so other commands name it as one they do not read).
	Steps       bool
	Help        bool
	flagsSet    map[string]bool
	paramsGiven model.Values
}

// listFlag collects a comma-separated list of names; an empty name (a,,b
// or a trailing comma) is an error.
type listFlag struct{ v *[]string }

func (l listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, ",")
}
func (l listFlag) Set(s string) error {
	*l.v = nil
	for i, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x == "" {
			return fmt.Errorf("empty name at position %d of the list", i+1)
		}
		*l.v = append(*l.v, x)
	}
	return nil
}

// mapFlag collects repeatable KEY=VALUE flags.
type mapFlag struct {
	m    *map[string]string
	name string
}

func (f mapFlag) String() string { return "" }
func (f mapFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
		return fmt.Errorf("--%s wants ATTR=VALUE, got %q", f.name, s)
	}
	if *f.m == nil {
		*f.m = map[string]string{}
	}
	(*f.m)[strings.TrimSpace(k)] = strings.TrimSpace(v)
	return nil
}

// appendFlag collects a repeatable flag's values in order.
type appendFlag struct{ v *[]string }

func (f appendFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strings.Join(*f.v, " ")
}
func (f appendFlag) Set(s string) error {
	*f.v = append(*f.v, s)
	return nil
}

// tokensFlag reads --missing-values (csvfile.ParseMissingTokens).
type tokensFlag struct{ v *[]string }

func (f tokensFlag) String() string {
	if f.v == nil || *f.v == nil {
		return ""
	}
	return csvfile.FormatMissingTokens(*f.v)
}
func (f tokensFlag) Set(s string) error {
	toks, err := csvfile.ParseMissingTokens(s)
	if err != nil {
		return err
	}
	*f.v = toks
	return nil
}

// paramFlag stores a method parameter's text.
type paramFlag struct {
	vals *model.Values
	name string
}

func (f paramFlag) String() string { return "" }
func (f paramFlag) Set(s string) error {
	if *f.vals == nil {
		*f.vals = model.Values{}
	}
	(*f.vals)[f.name] = s
	return nil
}

// paramNames are the parameter flags: every parameter a registered
// method declares (the method says whether it reads one), SPEC 2.5's
// among them.
func paramNames() []string { return catalog.ParamNames() }

// parseArgs parses the flags of a subcommand. Flags and positional
// arguments may be interleaved (privlab check DIR --original FILE).
func parseArgs(cmd string, args []string) (*Args, error) {
	a := &Args{flagsSet: map[string]bool{}}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	defineFlags(fs, a)
	refused := refuseUnread(fs, cmd)
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if c, name := refused.hit(err); name != "" {
				return nil, c.notRead(name)
			}
			return nil, flagError(cmd, err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		a.Positional = append(a.Positional, rest[0])
		rest = rest[1:]
	}
	fs.Visit(func(f *flag.Flag) { a.flagsSet[f.Name] = true })
	if a.Config != "" {
		base, err := pipeline.LoadProject(a.Config)
		if err != nil {
			return nil, err
		}
		a.Project = mergeProject(base, a.Project, a.flagsSet)
	}
	if a.Public != "" {
		a.Project.Public = a.Public
	}
	if err := validateArgs(a); err != nil {
		return nil, err
	}
	return a, nil
}

// refusal is what refuseUnread set up: the command and the flags it
// does not read, and the one the command line gave.
type refusal struct {
	c     *command
	names map[string]bool
	given *string
}

// refuseUnread makes every flag fs defines that the command does not
// read refuse a value (an unknown command keeps every flag).
func refuseUnread(fs *flag.FlagSet, cmd string) refusal {
	r := refusal{names: map[string]bool{}, given: new(string)}
	c, ok := lookupCommand(cmd)
	if !ok {
		return r
	}
	r.c = c
	reads := c.reads()
	fs.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(reads, f.Name) {
			r.names[f.Name] = true
			f.Value = refusedFlag{Value: f.Value, name: f.Name, given: r.given}
		}
	})
	return r
}

// hit names the refused flag a parse error is about ("" for another
// error).
func (r refusal) hit(err error) (*command, string) {
	if *r.given != "" {
		return r.c, *r.given
	}
	if name, ok := strings.CutPrefix(err.Error(), "flag needs an argument: -"); ok && r.names[name] {
		return r.c, name
	}
	return nil, ""
}

// refusedFlag is a flag the command does not read: giving it fails the
// parse, and records its name.
type refusedFlag struct {
	flag.Value
	name  string
	given *string
}

func (f refusedFlag) Set(string) error {
	*f.given = f.name
	return errors.New("not read by this command")
}

// IsBoolFlag keeps a refused boolean flag a boolean one (--force takes
// no value, refused or not).
func (f refusedFlag) IsBoolFlag() bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// defineFlags declares every flag of the command line on fs, storing into
// a: the project's settings, the commands' own, and each registered
// method's parameters.
func defineFlags(fs *flag.FlagSet, a *Args) {
	p := &a.Project
	fs.StringVar(&a.Config, "config", "", "project.json to start from (the workbench saves it)")
	fs.StringVar(&p.Input, "in", "", "input table: a CSV file, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE, or dataset:NAME")
	fs.Var(listFlag{&p.Roles.QIs}, "qi", "quasi-identifiers, comma separated")
	fs.StringVar(&p.Roles.SA, "sa", "", "the sensitive attribute")
	fs.Var(listFlag{&p.Roles.IDs}, "id", "identifier columns (dropped from the release)")
	fs.StringVar(&p.Method, "method", "", "method: "+strings.Join(catalog.Names(), ", "))
	fs.StringVar(&p.Variant, "variant", "", "method variant")
	fs.Var(mapFlag{&p.Hierarchies, "hierarchy"}, "hierarchy", "ATTR=FILE or ATTR=builder (flat, masking, binary, ternary, intervals:W); repeatable")
	fs.Var(mapFlag{&p.Kinds, "kind"}, "kind", "COLUMN=numeric|categorical; repeatable")
	fs.Var(listFlag{&p.Columns}, "columns", "column names for a CSV file without a header row")
	fs.StringVar(&p.Missing, "missing", "", "missing values: drop (default) or category")
	fs.Var(tokensFlag{&p.MissingValues}, "missing-values", `cell values read as missing, comma separated; an empty item is the empty cell (default "",?,NA,NULL)`)
	fs.StringVar(&p.Header, "header", "", "whether the input's first row names the columns: yes, no or detect (default: a first row that looks like data is data)")
	fs.IntVar(&p.MaxCell, "max-cell", 0, "longest cell the loader accepts, in bytes (default 65536; at least 1)")
	fs.StringVar(&p.Delimiter, "delimiter", "", "field separator (default: detect , ; tab |)")
	fs.StringVar(&a.Public, "public", "", "public table (a file as --in takes, or dataset:NAME), for methods that read one")
	fs.IntVar(&p.PublicRows, "public-rows", 0, "rows of a synthetic public table (dataset:NAME; 0: its default)")
	fs.Float64Var(&p.RiskThreshold, "risk-threshold", 0, "prosecutor risk above which a record counts as at risk (default 0.2)")
	fs.StringVar(&a.Out, "out", "", "output: release directory (run), file (gen)")
	fs.BoolVar(&a.Force, "force", false, "replace an existing release (run) or output file (gen, eval --csv)")
	fs.BoolVar(&a.Accept, "accept-violations", false, "write a release even if it fails its privacy verification (the manifest says so)")
	fs.BoolVar(&a.Growth, "allow-growth", false, "write a release file of more than 10 times the input's rows (e.g. many fake values)")
	fs.StringVar(&a.Original, "original", "", "original table for check/query (file or dataset:NAME)")
	fs.StringVar(&a.Release, "release", "", "answer from an exported release directory")
	fs.StringVar(&p.Population, "population", "", "attack, run: a population the attacker holds (the data's people and others), for linkage and membership")
	fs.Var(listFlag{&p.PopulationColumns}, "population-columns", "column names for a population file without a header row (e.g. UCI adult.data)")
	fs.BoolVar(&a.JSON, "json", false, "attack: the findings as a JSON array; advise: the points and the pick as one JSON object")
	fs.IntVar(&a.Rows, "rows", 0, "rows of a synthetic dataset")
	fs.Uint64Var(&a.Project.DataSeed, "data-seed", 0, "seed of a synthetic dataset (gen and inspect also take --seed)")
	fs.Float64Var(&a.Ratio, "ratio", 10, "gen universe: |PD|/|MT|")
	fs.IntVar(&a.Shards, "shards", 0, "gen: split the rows, in order, across S Parquet files DIR/part-00000.parquet ... (--out DIR)")
	fs.IntVar(&a.Partitions, "partitions", 0, "run: cut the table into about N partitions (Mondrian's cuts on a sample) and anonymize, check and attack each on its own; the release is DIR/part-NNNNN plus one manifest")
	fs.StringVar(&a.Runner, "runner", "", "run: run the partitions as an Apache Beam pipeline: prism (in this process) or HOST:PORT of a Beam job service (Flink, Spark); needs a binary built with -tags beam")
	fs.IntVar(&a.PartitionRows, "partition-rows", 0, "run: a partitioned run with at most N rows per partition (default with --partitions: rows/N)")
	fs.StringVar(&a.HierDir, "hierarchies", "", "gen: write each column's default hierarchy to DIR/<column>.csv")
	fs.IntVar(&a.Queries, "queries", pipeline.DefaultQueries, "eval: number of random queries; run: size of the workload whose error the manifest states (0: none)")
	fs.Float64Var(&a.RangeFrac, "range", 0.1, "eval: fraction of the domain a query range covers")
	fs.Float64Var(&a.Selectivity, "selectivity", 0.05, "eval: fraction of the table a count-in query selects (s)")
	fs.IntVar(&a.Dims, "qd", 0, "eval: quasi-identifiers a count-in query conditions on (default min(4, QIs))")
	fs.StringVar(&a.CSV, "csv", "", "eval: write the per-query results (or the sweep table) to this CSV file; advise: every point")
	fs.StringVar(&a.Sweep, "sweep", "", "eval: PARAM=V1,V2,... or PARAM=FROM..TO[:STEP] re-run once per value and compare")
	fs.BoolVar(&a.Compare, "compare", false, "eval: run every method on the same data with comparable settings and compare their figures")
	fs.Var(listFlag{&a.Methods}, "methods", "advise: the methods to evaluate, comma separated (default all: "+strings.Join(catalog.Names(), ",")+")")
	fs.Var(appendFlag{&a.Grid}, "grid", "advise: METHOD:PARAM=V1,V2,... a method's grid instead of its default (repeatable; several for one method: every combination)")
	fs.StringVar(&a.Risk, "risk", "", "advise: the risk axis: "+strings.Join(advise.RiskNames, ", ")+" (default worst: the largest calibrated attack risk)")
	fs.StringVar(&a.Utility, "utility", "", "advise: the utility loss: "+strings.Join(advise.UtilityNames, ", ")+" (default workload: the median relative error of one COUNT workload)")
	fs.Float64Var(&a.MaxRisk, "max-risk", 0, "advise: pick the lowest-loss point whose risk interval's upper end is at most this, and print its privlab run command")
	fs.StringVar(&a.SVG, "svg", "", "advise: write the risk-utility map to this SVG file")
	fs.BoolVar(&a.Verify, "verify", false, "advise: re-run each front point as a full run (export, check, attack) and fail if a figure differs")
	fs.BoolVar(&a.Steps, "steps", false, "tour: print a tour's steps (with a tour NAME)")
	fs.BoolVar(&a.Help, "help", false, "show help")
	fs.BoolVar(&a.Help, "h", false, "show help")
	for _, n := range paramNames() {
		if n == model.SeedParam.Name {
			continue
		}
		fs.Var(paramFlag{&a.paramsGiven, n}, n, paramHelp(n))
	}
	fs.Var(seedFlag{a}, model.SeedParam.Name, "random seed (default: crypto/rand for releases)")
}

// validateArgs refuses settings no command can use and fills in what
// the flags imply (the project's rows, its parameters).
func validateArgs(a *Args) error {
	if h, err := csvfile.ParseHeaderMode(a.Project.Header); err != nil {
		return err
	} else if h == csvfile.HeaderYes && len(a.Project.Columns) > 0 {
		return &model.ParamError{Param: "header", Value: a.Project.Header, Reason: "--columns names the columns of a file without a header row",
			Hint: "leave out --header yes, or --columns"}
	}
	if a.Rows < 0 {
		return &model.ParamError{Param: "rows", Value: fmt.Sprint(a.Rows), Reason: "must be >= 0", Hint: "the number of rows of a generated dataset (0: its default)"}
	}
	if a.Rows > 0 {
		a.Project.Rows = a.Rows
	}
	if t := a.Project.RiskThreshold; t < 0 || t > 1 || math.IsNaN(t) {
		return &model.ParamError{Param: "risk-threshold", Value: fmt.Sprint(t), Reason: "must be in (0,1]", Hint: "a probability, e.g. 0.2 (records in classes of fewer than 5)"}
	}
	if mc := a.Project.MaxCell; mc < 0 || a.flagsSet["max-cell"] && mc < 1 {
		return &model.ParamError{Param: "max-cell", Value: fmt.Sprint(mc), Reason: "must be a number of bytes >= 1",
			Hint: "the longest cell the loader accepts (default 65536); there is no unlimited setting"}
	}
	if a.Queries < 0 || a.Queries > pipeline.MaxQueries {
		return &model.ParamError{Param: "queries", Value: fmt.Sprint(a.Queries), Reason: fmt.Sprintf("must be between 0 and %d", pipeline.MaxQueries),
			Hint: "run: the size of the workload whose error the manifest states (0: none); eval: the number of random queries"}
	}
	if a.Project.PublicRows < 0 {
		return &model.ParamError{Param: "public-rows", Value: fmt.Sprint(a.Project.PublicRows), Reason: "must be >= 0", Hint: "the number of rows of a generated public table (0: its default)"}
	}
	if a.Project.Params == nil {
		a.Project.Params = model.Values{}
	}
	for k, v := range a.paramsGiven {
		a.Project.Params[k] = v
	}
	return nil
}

// seedFlag keeps --seed both as a method parameter and as the generator
// seed of gen.
type seedFlag struct{ a *Args }

func (f seedFlag) String() string { return "" }
func (f seedFlag) Set(s string) error {
	v, fixed, err := model.ParseSeed(s)
	if err != nil {
		return err
	}
	if f.a.paramsGiven == nil {
		f.a.paramsGiven = model.Values{}
	}
	f.a.paramsGiven[model.SeedParam.Name] = s
	f.a.Seed, f.a.SeedSet = v, fixed
	return nil
}

func flagError(cmd string, err error) error {
	msg := err.Error()
	help := "privlab " + cmd + " --help lists the flags"
	if cmd == "privlab" {
		help = "privlab help lists the commands and flags"
	}
	if errors.Is(err, flag.ErrHelp) {
		return &model.ParamError{Param: "help", Reason: "see " + help}
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return &model.ParamError{Param: "--" + strings.TrimLeft(name, "-"), Reason: "unknown flag", Hint: help}
	}
	// invalid value "x" for flag -name: reason
	if strings.HasPrefix(msg, "invalid value ") {
		if i := strings.Index(msg, " for flag -"); i >= 0 {
			name, reason, _ := strings.Cut(msg[i+len(" for flag -"):], ": ")
			value := strings.Trim(msg[len("invalid value "):i], `"`)
			if reason == "parse error" {
				reason = "not a valid number"
			}
			return &model.ParamError{Param: name, Value: value, Reason: reason, Hint: help}
		}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return &model.ParamError{Param: strings.TrimLeft(name, "-"), Reason: "needs a value", Hint: help}
	}
	return &model.ParamError{Param: cmd, Reason: msg, Hint: help}
}

// mergeProject overlays the flags the user set on a project file.
func mergeProject(base, flags pipeline.Project, set map[string]bool) pipeline.Project {
	out := base.Clone()
	if set["in"] {
		out.Input = flags.Input
	}
	if set["qi"] {
		out.Roles.QIs = flags.Roles.QIs
	}
	if set["sa"] {
		out.Roles.SA = flags.Roles.SA
	}
	if set["id"] {
		out.Roles.IDs = flags.Roles.IDs
	}
	if set["method"] {
		out.Method = flags.Method
	}
	if set["variant"] {
		out.Variant = flags.Variant
	}
	if set["missing"] {
		out.Missing = flags.Missing
	}
	if set["columns"] {
		out.Columns = flags.Columns
	}
	if set["header"] {
		out.Header = flags.Header
	}
	if set["missing-values"] {
		out.MissingValues = flags.MissingValues
	}
	if set["data-seed"] {
		out.DataSeed = flags.DataSeed
	}
	if set["max-cell"] {
		out.MaxCell = flags.MaxCell
	}
	if set["delimiter"] {
		out.Delimiter = flags.Delimiter
	}
	if set["public-rows"] {
		out.PublicRows = flags.PublicRows
	}
	if set["risk-threshold"] {
		out.RiskThreshold = flags.RiskThreshold
	}
	if set["population"] {
		out.Population = flags.Population
	}
	if set["population-columns"] {
		out.PopulationColumns = flags.PopulationColumns
	}
	for k, v := range flags.Hierarchies {
		if out.Hierarchies == nil {
			out.Hierarchies = map[string]string{}
		}
		out.Hierarchies[k] = v
	}
	for k, v := range flags.Kinds {
		if out.Kinds == nil {
			out.Kinds = map[string]string{}
		}
		out.Kinds[k] = v
	}
	return out
}

func paramHelp(name string) string {
	p, _ := catalog.Param(name)
	return p.Help
}
