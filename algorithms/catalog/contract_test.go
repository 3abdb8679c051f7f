package catalog_test

import (
	"context"
	"encoding/csv"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/algorithms/workload"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

var env = pipeline.Env{Datasets: datasets.Catalog{}}

// exampleRows and examplePublicRows size the examples' generated
// datasets in these tests (a worked-example table keeps its rows): a
// fifth of their defaults, since every release is checked and tampered
// with many times (the checks and their assertions are the same at any
// size).
const (
	exampleRows       = 2000
	examplePublicRows = 20000
)

// TestContract runs every registered method through what the tool does
// with it: run its example, export, check (which must pass), tamper with
// every published file (check must fail, with and without re-computed
// hashes), answer a query from the run and from the exported files, run
// the workload and one sweep step. The workbench's rendering of every
// method is ui's TestContract (algorithms never import ui). A new method
// is picked up with no edit.
func TestContract(t *testing.T) {
	for _, e := range catalog.Entries() {
		spec := e.Method.Spec()
		t.Run(spec.Name, func(t *testing.T) {
			t.Parallel() // each method's runs and releases are its own
			ex := spec.Example
			if ex.Input == "" {
				t.Fatalf("%s declares no example (Spec.Example)", spec.Name)
			}
			contract(t, spec, ex.Variant, true)
			// Every other variant publishes its own files: each is run,
			// exported, checked and tampered with too.
			for _, v := range spec.Variants {
				if v != ex.Variant && !(ex.Variant == "" && v == spec.Variants[0]) {
					t.Run("variant "+v, func(t *testing.T) {
						t.Parallel()
						contract(t, spec, v, false)
					})
				}
			}
		})
	}
}

// contract runs one variant of a method's example through run, export,
// check and tampering, and (all) through queries, eval, study and sweep.
func contract(t *testing.T, spec method.Spec, variant string, all bool) {
	p, src, prep, res := runExample(t, spec, variant)
	out := filepath.Join(t.TempDir(), "release")
	ex, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := verify.Options{Original: prep.Source, Public: prep.Public}
	if a, err := releasedir.ReadAudit(releasedir.AuditPath(out)); err == nil {
		opt.Audit = a
	}
	rep, err := catalogtest.Check(out, opt)
	if err != nil || !rep.OK() {
		t.Fatalf("check of the exported release: %v\n%s", err, strings.Join(rep.Strings(), "\n"))
	}
	for _, name := range spec.Files {
		// Spec.Files names the example variant's files.
		if all && !strings.Contains(name, "<") && !listed(ex.Manifest, name) {
			t.Errorf("declared file %s is not in the release", name)
		}
	}
	assertNoIdentifiers(t, out, ex.Manifest, prep)
	tamperEach(t, out, ex.Manifest, opt)
	if !all {
		return
	}
	answersAgree(t, spec, prep, res, out)
	evalStudySweep(t, spec, p, src, prep, res)
}

// runExample runs one variant of the method's example (seed 7) and holds
// its result to the declaration: private, groups with the declared
// figures, a group detail, charts as declared.
func runExample(t *testing.T, spec method.Spec, variant string) (pipeline.Project, *model.Table, *pipeline.Prepared, *method.Result) {
	t.Helper()
	ex := spec.Example
	p := pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: spec.Name,
		Variant: variant, Params: ex.Params.Clone(), Rows: exampleRows, PublicRows: examplePublicRows}
	if p.Params == nil {
		p.Params = model.Values{}
	}
	p.Params["seed"] = "7"
	src, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Satisfied() || len(res.Groups) == 0 {
		t.Fatalf("the example is not private or has no groups: %d groups, %d violate", len(res.Groups), res.Violations())
	}
	for _, g := range res.Groups {
		if len(g.Figures) != len(spec.Figures) || len(g.QI) != len(prep.Project.Roles.QIs) {
			t.Fatalf("group %d: %d figures for %d declared, %d QI summaries", g.ID, len(g.Figures), len(spec.Figures), len(g.QI))
		}
	}
	if res.Detail == nil || len(res.Detail(0, 10).Sections) == 0 {
		t.Fatal("no group detail")
	}
	if (spec.Charts != "") != (res.Charts != nil) {
		t.Fatalf("Spec.Charts %q but Result.Charts set: %v", spec.Charts, res.Charts != nil)
	}
	return p, src, prep, res
}

// tamperEach edits one cell of every published CSV file, with the hashes
// left alone and with them re-computed: check must fail each copy.
func tamperEach(t *testing.T, out string, man *releasedir.Manifest, opt verify.Options) {
	for _, f := range man.Files {
		if !strings.HasSuffix(f.Name, ".csv") || f.Rows == 0 {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			// One copy a file: checked as edited, then with the hashes
			// re-computed in place (a check only reads the files).
			bad := copyDir(t, out)
			if !flipCell(t, filepath.Join(bad, f.Name)) {
				t.Skipf("%s has no cell that can change", f.Name)
			}
			for _, rehash := range []bool{false, true} {
				if rehash {
					verifytest.Restate(t, bad, nil)
				}
				rep, err := catalogtest.Check(bad, opt)
				if err == nil && rep.OK() {
					t.Fatalf("check passes a release with an edited %s (hashes re-computed: %v):\n%s", f.Name, rehash, strings.Join(rep.Strings(), "\n"))
				}
			}
		})
	}
}

// answersAgree: the example's query is answered alike by the run and by
// the exported files.
func answersAgree(t *testing.T, spec method.Spec, prep *pipeline.Prepared, res *method.Result, out string) {
	t.Helper()
	query := spec.Example.Query
	if query == "" {
		t.Fatal("the example names no query (Spec.Example.Query)")
	}
	live, err := pipeline.Answer(query, prep.Table, res.Answerer)
	if err != nil {
		t.Fatalf("query on the run: %v", err)
	}
	a, _, err := pipeline.OpenRelease(out)
	if err != nil {
		t.Fatalf("open the release: %v", err)
	}
	files, err := pipeline.Answer(query, prep.Table, a)
	if err != nil {
		t.Fatalf("query on the files: %v", err)
	}
	if !sameAnswer(live.Answer.Low, files.Answer.Low) || !sameAnswer(live.Answer.High, files.Answer.High) ||
		!sameAnswer(live.Answer.Estimate, files.Answer.Estimate) {
		t.Fatalf("the run answers %+v, the exported files %+v", live.Answer, files.Answer)
	}
}

// evalStudySweep runs the method's workload, its study and one sweep
// step.
func evalStudySweep(t *testing.T, spec method.Spec, p pipeline.Project, src *model.Table, prep *pipeline.Prepared, res *method.Result) {
	t.Helper()
	w, err := pipeline.Eval(prep, res, workload.Options{Queries: 20, Seed: 1})
	if err != nil || w.Queries+w.Skipped != 20 {
		t.Fatalf("eval: %v (%d queries, %d skipped)", err, w.Queries, w.Skipped)
	}
	if w.Bounded > 0 && w.Contains != w.Bounded {
		t.Fatalf("eval: %d of %d bounds contain the truth", w.Contains, w.Bounded)
	}
	if spec.Study != nil {
		secs, err := env.RunStudy(context.Background(), prep, workload.Options{Queries: 10, Seed: 1})
		if err != nil || len(secs) == 0 {
			t.Fatalf("study: %v (%d sections)", err, len(secs))
		}
	}
	for _, par := range spec.Params {
		if par.Kind == model.ParamSeed {
			continue
		}
		rows, err := pipeline.Sweep(context.Background(), env, p, src, par.Name, []string{prep.Values[par.Name]},
			workload.Options{Queries: 10, Seed: 1}, pipeline.SweepOptions{})
		if err != nil || len(rows) != 1 || rows[0].Error != "" {
			t.Fatalf("sweep %s: %v %+v", par.Name, err, rows)
		}
		break
	}
}

// TestCheckersAreIndependent: a method's checker imports model, the
// shared verify and risk code, the figures' names (algorithms/figure,
// which holds no algorithm and imports model only) and its method's
// format package (and the standard library) only, never the method; the
// format package, which the method imports too, imports model only (it
// holds no algorithm).
func TestCheckersAreIndependent(t *testing.T) {
	for _, e := range catalog.Entries() {
		fn := runtime.FuncForPC(reflect.ValueOf(e.Check).Pointer()).Name()
		pkg := fn[:strings.LastIndex(fn, ".")]
		methodPkg := reflect.TypeOf(e.Method).PkgPath()
		if pkg == methodPkg || !strings.HasPrefix(pkg, "privlab/algorithms/") {
			t.Fatalf("%s: checker %s is not a package of its own", e.Method.Spec().Name, fn)
		}
		format := methodPkg + "/format"
		importsOnly(t, pkg, "a checker may import only model, algorithms/verify, algorithms/risk, algorithms/figure and its method's format package",
			"privlab/model", "privlab/algorithms/verify", "privlab/algorithms/risk", "privlab/algorithms/figure", format)
		importsOnly(t, "privlab/algorithms/figure", "the figures' names may import only model", "privlab/model")
		if _, err := os.Stat(filepath.Join("..", "..", strings.TrimPrefix(format, "privlab/"))); err == nil {
			importsOnly(t, format, "a method's format package may import only model", "privlab/model")
		}
	}
}

// importsOnly fails when a file of pkg (tests aside) imports a privlab
// package that is not one of allowed.
func importsOnly(t *testing.T, pkg, rule string, allowed ...string) {
	t.Helper()
	dir := filepath.Join("..", "..", strings.TrimPrefix(pkg, "privlab/"))
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("%s: no Go files read (%v)", dir, err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "privlab/") && !slices.ContainsFunc(allowed, func(a string) bool { return within(path, a) }) {
				t.Errorf("%s imports %s: %s", name, path, rule)
			}
		}
	}
}

// within reports whether the import path is pkg, or one of model's
// sub-packages when pkg is model (model/releasedir is model).
func within(path, pkg string) bool {
	return path == pkg || pkg == "privlab/model" && strings.HasPrefix(path, pkg+"/")
}

func listed(m *releasedir.Manifest, name string) bool {
	for _, f := range m.Files {
		if f.Name == name {
			return true
		}
	}
	return false
}

func sameAnswer(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) || (math.IsNaN(a) && math.IsNaN(b))
}

// assertNoIdentifiers: no published file has a column named after an
// identifier or an insensitive column, and no identifier value appears in
// any published cell.
func assertNoIdentifiers(t *testing.T, dir string, m *releasedir.Manifest, prep *pipeline.Prepared) {
	t.Helper()
	ids := map[string]bool{}
	for _, name := range prep.Project.Roles.IDs {
		c := prep.Source.Column(name)
		for _, v := range c.Dict {
			ids[v] = true
		}
	}
	for _, f := range m.Files {
		if !strings.HasSuffix(f.Name, ".csv") {
			continue
		}
		recs := readCSV(t, filepath.Join(dir, f.Name))
		for _, col := range recs[0] {
			for _, d := range m.Dropped {
				if col == d {
					t.Errorf("%s publishes the dropped column %s", f.Name, col)
				}
			}
		}
		for _, rec := range recs[1:] {
			for _, v := range rec {
				if ids[v] && len(v) > 2 {
					t.Errorf("%s publishes the identifier value %q", f.Name, v)
				}
			}
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// flipCell changes one data cell of a CSV file to another value of its
// column (or a new one when the column holds one value).
func flipCell(t *testing.T, path string) bool {
	t.Helper()
	recs := readCSV(t, path)
	if len(recs) < 2 {
		return false
	}
	row, col := 1, 0
	// Prefer the last column (the sensitive or generalized value in most
	// layouts), then any column with two distinct values.
	for c := len(recs[0]) - 1; c >= 0; c-- {
		for r := 2; r < len(recs); r++ {
			if recs[r][c] != recs[1][c] {
				recs[1][c] = recs[r][c]
				return writeCSV(t, path, recs)
			}
		}
	}
	recs[row][col] += "x"
	return writeCSV(t, path, recs)
}

func writeCSV(t *testing.T, path string, recs [][]string) bool {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return true
}

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(releasedir.AuditPath(src)); err == nil {
		os.WriteFile(releasedir.AuditPath(dst), b, 0o600)
	}
	return dst
}
