package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gocarina/gocsv"

	"privlab/algorithms/advise"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// cmdAdvise is privlab advise: every method over a grid of its
// parameters, the risk-utility map's points, its Pareto front and, with
// --max-risk, the point to adopt and the privlab run command that makes
// it (SPEC 3.8).
func cmdAdvise(a *Args, w, ew io.Writer) error {
	if err := noPositional(a, "advise"); err != nil {
		return err
	}
	axes, err := adviseFlags(a)
	if err != nil {
		return err
	}
	project := env.WithDefaults(a.Project)
	// The points run with a fixed seed: the one given, else seed 1 (a
	// project file's "random", as the workbench saves an unset seed,
	// included: pipeline.Project.MapSeed).
	project.Params[model.SeedParam.Name] = project.MapSeed()
	t, err := env.LoadTableContext(interruptCtx(), project)
	if err != nil {
		return err
	}
	if err := project.Roles.Validate(t, true); err != nil {
		return err
	}
	settings, err := advise.Settings(a.Methods, axes, t, project.Roles, project.Public != "")
	if err != nil {
		return err
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	progress, clear := func(float64) {}, func() {}
	if isTerminal(ew) {
		progress, clear = progressLine(ew, time.Now)
	}
	opt := advise.Options{Risk: a.Risk, Queries: a.Queries, Each: func(done, total, _ int, _ advise.Point) { progress(float64(done) / float64(total)) }}
	points, err := advise.Evaluate(ctx, env, project, t, settings, opt)
	clear()
	if err != nil {
		return err
	}
	pick := -1
	if a.flagsSet["max-risk"] {
		pick, _ = advise.Pick(points, a.MaxRisk)
	}
	if err := printAdvice(w, a, project, points, pick); err != nil {
		return err
	}
	if err := writeAdviceFiles(a, project, points, pick); err != nil {
		return err
	}
	if a.Verify {
		return verifyFront(a, w, project, t, points, opt)
	}
	return nil
}

// adviseFlags checks advise's own flags, and returns the grid's axes.
func adviseFlags(a *Args) ([]advise.Axis, error) {
	if err := gridOnlyFlags(a); err != nil {
		return nil, err
	}
	if a.Risk != "" && !slices.Contains(advise.RiskNames, a.Risk) {
		return nil, &model.ParamError{Param: "risk", Value: a.Risk, Reason: "unknown risk measure", Hint: "one of " + strings.Join(advise.RiskNames, ", ")}
	}
	if a.Utility != "" && !slices.Contains(advise.UtilityNames, a.Utility) {
		return nil, &model.ParamError{Param: "utility", Value: a.Utility, Reason: "unknown utility measure", Hint: "one of " + strings.Join(advise.UtilityNames, ", ")}
	}
	if r := a.MaxRisk; a.flagsSet["max-risk"] && (r < 0 || r > 1 || math.IsNaN(r)) {
		return nil, &model.ParamError{Param: "max-risk", Value: fmt.Sprint(r), Reason: "must be in [0,1]", Hint: "a risk beyond the baseline, e.g. 0.1"}
	}
	if s := a.Project.Params[model.SeedParam.Name]; a.flagsSet[model.SeedParam.Name] && s != "" {
		if _, fixed, _ := model.ParseSeed(s); !fixed {
			return nil, &model.ParamError{Param: "seed", Value: s, Reason: "advise needs a fixed seed: every point is to be made again with the same figures",
				Hint: "e.g. --seed 1 (the default)"}
		}
	}
	if err := adviceOutputs(a); err != nil {
		return nil, err
	}
	var axes []advise.Axis
	for _, g := range a.Grid {
		ax, err := advise.ParseAxis(g)
		if err != nil {
			return nil, err
		}
		axes = append(axes, ax)
	}
	return axes, nil
}

// gridOnlyFlags refuses --method, --variant and a method parameter's
// flag (but --seed): advise sets them point by point from each method's
// grid, so such a flag would be ignored without a word.
func gridOnlyFlags(a *Args) error {
	for _, name := range append([]string{"method", "variant"}, paramNames()...) {
		if !a.flagsSet[name] || name == model.SeedParam.Name {
			continue
		}
		hint := "to set it for every point, give a one-value grid: --grid METHOD:" + name + "=VALUE"
		if name == "method" {
			hint = "--methods M,... chooses the methods"
		}
		return &model.ParamError{Param: name, Reason: "advise sets each method's variant and parameters from its grid, so this flag would be ignored", Hint: hint}
	}
	return nil
}

// adviceOutputs checks --csv and --svg before any point runs, so a bad
// path fails at once and no file is half the answer: neither is a file
// advise reads, nor the other output, nor a directory, each goes into a
// directory that exists (advise creates none), and an existing file is
// replaced only with --force.
func adviceOutputs(a *Args) error {
	if a.CSV != "" && a.SVG != "" && releasedir.SamePath(a.CSV, a.SVG) {
		return &model.ParamError{Param: "svg", Value: a.SVG, Reason: "is the --csv file too; one would overwrite the other", Hint: "give --csv and --svg different files"}
	}
	for _, f := range []struct{ flag, path string }{{"csv", a.CSV}, {"svg", a.SVG}} {
		if f.path == "" {
			continue
		}
		if read := a.Project.InputFile(f.path); read != "" {
			return &model.ParamError{Param: f.flag, Value: f.path, Reason: "is " + read + ", which advise reads; it is never overwritten", Hint: "choose another file"}
		}
		if st, err := os.Stat(f.path); err == nil && st.IsDir() {
			return &model.ParamError{Param: f.flag, Value: f.path, Reason: "is a directory", Hint: "give a file's path, e.g. " + filepath.Join(f.path, "advice."+f.flag)}
		}
		if dir := filepath.Dir(f.path); !isDir(dir) {
			return &model.ParamError{Param: f.flag, Value: f.path, Reason: "directory " + dir + " does not exist", Hint: "create it first (advise makes no directory), or write into an existing one"}
		}
		if err := releasedir.RefuseExisting(f.flag, f.path, a.Force); err != nil {
			return err
		}
	}
	return nil
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// printAdvice writes the points (a table, or --json's object) and the
// pick.
func printAdvice(w io.Writer, a *Args, p pipeline.Project, points []advise.Point, pick int) error {
	if a.JSON {
		enc := json.NewEncoder(raw(w))
		enc.SetIndent("", "  ")
		return enc.Encode(adviceJSON(p, points, pick, queriesOf(a)))
	}
	fmt.Fprintf(w, "%-13s %-36s %-5s %-8s %-19s %-8s %s\n", "method", "parameters", "holds", "risk", "[low, high]", "loss", "front")
	for _, pt := range points {
		params := paramsText(pt)
		holds := "no"
		if pt.Holds {
			holds = "yes"
		}
		front := ""
		if pt.Front {
			front = "*"
		}
		line := fmt.Sprintf("%-13s %-36s %-5s %-8s %-19s %-8s %s", pt.Method, params, holds, figure(pt.Risk),
			"["+figure(pt.Interval[0])+", "+figure(pt.Interval[1])+"]", figure(pt.Loss), front)
		if pt.Err != "" {
			line = fmt.Sprintf("%-13s %-36s %-5s %s", pt.Method, params, holds, "error: "+pt.Err)
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	risk := a.Risk
	if risk == "" {
		risk = advise.RiskWorst
	}
	fmt.Fprintf(w, "risk: %s attack, beyond the same attacker without the release (95%% interval); loss: median relative error of %d COUNT queries; * on the Pareto front\n",
		risk, queriesOf(a))
	if note := unmeasuredNote(p, points, risk); note != "" {
		fmt.Fprintln(w, note)
	}
	if !a.flagsSet["max-risk"] {
		return nil
	}
	if pick < 0 {
		fmt.Fprintf(w, "pick: no point holds with a risk interval's upper end <= %s (hint: raise --max-risk or widen the grid)\n", model.FormatNumber(a.MaxRisk))
		return nil
	}
	pt := points[pick]
	fmt.Fprintf(w, "pick: %s %s (risk %s [%s, %s] <= %s, loss %s: the lowest loss under the limit)\n", pt.Method, paramsText(pt),
		figure(pt.Risk), figure(pt.Interval[0]), figure(pt.Interval[1]), model.FormatNumber(a.MaxRisk), figure(pt.Loss))
	fmt.Fprintf(w, "command: %s\n", runCommand(p, pt, queriesOf(a)))
	return nil
}

// unmeasuredNote says why the map has no front when no point that ran
// has a figure of the risk measure ("" when one has).
func unmeasuredNote(p pipeline.Project, points []advise.Point, risk string) string {
	ran := 0
	for _, pt := range points {
		if pt.Err == "" {
			ran++
		}
		if pt.Err == "" && !math.IsNaN(pt.Risk) {
			return ""
		}
	}
	if ran == 0 {
		return ""
	}
	note := fmt.Sprintf("note: no point has a %s risk figure, so none is on the front", risk)
	if risk == advise.RiskMembership && p.Population == "" {
		note += " (hint: the membership attack needs --population FILE, people beyond the data's: the original alone says nothing of presence)"
	} else {
		note += " (hint: no attack of this measure applies to these releases; try --risk worst)"
	}
	return note
}

// paramsText is the point's parameters as name=value, or "defaults".
func paramsText(pt advise.Point) string {
	if s := pt.ParamText(); s != "" {
		return s
	}
	return "defaults"
}

// queriesOf is the size of the common workload.
func queriesOf(a *Args) int {
	if a.Queries > 0 {
		return a.Queries
	}
	return advise.DefaultQueries
}

// figure renders a figure with four decimals ("—" for none).
func figure(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.4f", x)
}

// adviceOut is privlab advise --json: exactly the keys SPEC 3.8 gives.
type adviceOut struct {
	Points []advicePoint `json:"points"`
	Pick   *advicePick   `json:"pick"`
}

type advicePoint struct {
	Method       string       `json:"method"`
	Params       model.Values `json:"params"`
	Holds        bool         `json:"holds"`
	Risk         *float64     `json:"risk"`
	RiskInterval [2]*float64  `json:"risk_interval"`
	Loss         *float64     `json:"loss"`
	Front        bool         `json:"front"`
}

type advicePick struct {
	Method  string       `json:"method"`
	Params  model.Values `json:"params"`
	Command string       `json:"command"`
}

func adviceJSON(p pipeline.Project, points []advise.Point, pick, queries int) adviceOut {
	out := adviceOut{Points: []advicePoint{}}
	for _, pt := range points {
		out.Points = append(out.Points, advicePoint{Method: pt.Method, Params: pt.Params(), Holds: pt.Holds, Risk: finite(pt.Risk),
			RiskInterval: [2]*float64{finite(pt.Interval[0]), finite(pt.Interval[1])}, Loss: finite(pt.Loss), Front: pt.Front})
	}
	if pick >= 0 {
		pt := points[pick]
		out.Pick = &advicePick{Method: pt.Method, Params: pt.Params(), Command: runCommand(p, pt, queries)}
	}
	return out
}

// adviceRow is one point as --csv writes it.
type adviceRow struct {
	Method   string  `csv:"method"`
	Params   string  `csv:"params"`
	Holds    bool    `csv:"holds"`
	Risk     float64 `csv:"risk"`
	RiskLow  float64 `csv:"risk_low"`
	RiskHigh float64 `csv:"risk_high"`
	Attack   string  `csv:"risk_attack"`
	Loss     float64 `csv:"loss"`
	Front    bool    `csv:"front"`
	Pick     bool    `csv:"pick"`
	Error    string  `csv:"error"`
}

// writeAdviceFiles writes --csv and --svg, each atomically.
func writeAdviceFiles(a *Args, p pipeline.Project, points []advise.Point, pick int) error {
	if a.CSV != "" {
		rows := make([]adviceRow, 0, len(points))
		for i, pt := range points {
			rows = append(rows, adviceRow{Method: pt.Method, Params: pt.ParamText(), Holds: pt.Holds, Risk: pt.Risk, RiskLow: pt.Interval[0],
				RiskHigh: pt.Interval[1], Attack: pt.Attack, Loss: pt.Loss, Front: pt.Front, Pick: i == pick, Error: pt.Err})
		}
		if err := releasedir.WriteAtomic(a.CSV, func(f io.Writer) error { return gocsv.MarshalCSV(rows, releasedir.NewCSVWriter(f)) }); err != nil {
			return err
		}
	}
	if a.SVG != "" {
		return advise.WriteSVG(a.SVG, points, pick)
	}
	return nil
}

// verifyFront makes each front point again as a full run and fails
// (exit 1) naming the point and the figure when one differs.
func verifyFront(a *Args, w io.Writer, p pipeline.Project, t *model.Table, points []advise.Point, opt advise.Options) error {
	ctx, cancel := interruptible(io.Discard)
	defer cancel()
	n := 0
	var bad []string
	for _, pt := range points {
		if !pt.Front {
			continue
		}
		n++
		got, err := advise.Verify(ctx, env, p, t, pt, opt)
		if err != nil {
			return err
		}
		if d := advise.Differences(pt, got); len(d) > 0 {
			bad = append(bad, fmt.Sprintf("%s %s: %s", pt.Method, pt.ParamText(), strings.Join(d, "; ")))
		}
	}
	if len(bad) > 0 {
		return privacyFailure(fmt.Sprintf("--verify: %d of %d front points differ as full runs: %s", len(bad), n, strings.Join(bad, " | ")))
	}
	if !a.JSON {
		fmt.Fprintf(w, "verify: the %d front points made again as full runs (export, check, attack) give the same figures\n", n)
	}
	return nil
}

// runCommand is the privlab run command that makes the point: the
// project's input and roles, its settings beyond the defaults, the
// point's method, variant and values, the size of the workload when not
// the default (the manifest's workload error is then the map's), and
// the seed.
func runCommand(p pipeline.Project, pt advise.Point, queries int) string {
	args := []string{"privlab", "run", "--in", p.Input}
	if p.Rows > 0 {
		args = append(args, "--rows", fmt.Sprint(p.Rows))
	}
	if p.DataSeed > 0 {
		args = append(args, "--data-seed", fmt.Sprint(p.DataSeed))
	}
	args = append(args, "--qi", strings.Join(p.Roles.QIs, ","), "--sa", p.Roles.SA)
	if len(p.Roles.IDs) > 0 {
		args = append(args, "--id", strings.Join(p.Roles.IDs, ","))
	}
	args = append(args, loadArgs(p)...)
	if p.Public != "" && pt.Method != "" && readsPublic(pt.Method) {
		args = append(args, "--public", p.Public)
		if p.PublicRows > 0 {
			args = append(args, "--public-rows", fmt.Sprint(p.PublicRows))
		}
	}
	if p.Population != "" {
		args = append(args, "--population", p.Population)
		if len(p.PopulationColumns) > 0 {
			args = append(args, "--population-columns", strings.Join(p.PopulationColumns, ","))
		}
	}
	args = append(args, "--method", pt.Method)
	if pt.Variant != "" {
		args = append(args, "--variant", pt.Variant)
	}
	// The seed once: the point's when the grid sets it, else the
	// project's (a second --seed would override the first).
	seed := p.Params[model.SeedParam.Name]
	var names []string
	for k := range pt.Values {
		if k == model.SeedParam.Name {
			seed = pt.Values[k]
			continue
		}
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		args = append(args, "--"+k, pt.Values[k])
	}
	if queries != pipeline.DefaultQueries {
		args = append(args, "--queries", fmt.Sprint(queries))
	}
	args = append(args, "--seed", seed, "--out", pt.Method+"-release")
	for i, s := range args {
		args[i] = shellQuote(s)
	}
	return strings.Join(args, " ")
}

// loadArgs are the flags of how the input is read and which hierarchies
// are used, as the project has them.
func loadArgs(p pipeline.Project) []string {
	var args []string
	var attrs []string
	for k := range p.Hierarchies {
		attrs = append(attrs, k)
	}
	sort.Strings(attrs)
	for _, k := range attrs {
		args = append(args, "--hierarchy", k+"="+p.Hierarchies[k])
	}
	var kinds []string
	for k := range p.Kinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		args = append(args, "--kind", k+"="+p.Kinds[k])
	}
	for _, f := range []struct{ flag, v string }{{"missing", p.Missing}, {"delimiter", p.Delimiter}, {"header", p.Header}} {
		if f.v != "" {
			args = append(args, "--"+f.flag, f.v)
		}
	}
	if len(p.Columns) > 0 {
		args = append(args, "--columns", strings.Join(p.Columns, ","))
	}
	if p.MissingValues != nil {
		args = append(args, "--missing-values", csvfile.FormatMissingTokens(p.MissingValues))
	}
	if p.MaxCell > 0 {
		args = append(args, "--max-cell", fmt.Sprint(p.MaxCell))
	}
	return args
}

// readsPublic reports whether the method reads a public table.
func readsPublic(name string) bool {
	m, err := catalog.Lookup(name)
	return err == nil && m.Spec().Public != method.NoPublic
}

// shellQuote quotes s for a POSIX shell when it holds anything beyond
// the characters that need none.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
