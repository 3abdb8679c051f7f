package pipeline

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
)

// employees is Figure 1 of Koudas et al. 2009 (salaries in units).
const employees = `name,zipcode,gender,salary
Alice,91110,F,30000
Bob,91110,M,40000
Carol,91110,M,50000
Debra,91130,F,60000
Elaine,91210,F,40000
Grace,91220,F,30000
Helen,91240,F,50000
Jason,91310,M,40000
Kyle,91320,M,60000
Leo,91330,M,60000
Nancy,91340,F,60000
`

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func paramError(t *testing.T, err error) *model.ParamError {
	t.Helper()
	var pe *model.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T %v, want *model.ParamError", err, err)
	}
	return pe
}

func loadText(t *testing.T, name, text string) *model.Table {
	t.Helper()
	tb, err := model.Load(strings.NewReader(text), model.LoadOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// figure2 is the project that reproduces Figure 2 (zipcode masked to
// 911**/912**/913**, uniform target over Figure 3's binary hierarchy).
func figure2(input string) Project {
	return Project{
		Input:       input,
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
		Hierarchies: map[string]string{"zipcode": "masking"},
		Params:      model.Values{"grouping": "level:zipcode=2", "target": "uniform", "seed": "1"},
	}
}

// prepareFile writes text to dir/name and prepares the project on it.
func prepareFile(t *testing.T, dir, name, text string, p func(in string) Project) *Prepared {
	t.Helper()
	in := filepath.Join(dir, name)
	writeFile(t, in, text)
	proj := p(in)
	src, err := Env{}.LoadTable(proj)
	if err != nil {
		t.Fatal(err)
	}
	prep, err := Env{}.Prepare(proj, src)
	if err != nil {
		t.Fatal(err)
	}
	return prep
}

func run(t *testing.T, p *Prepared) *method.Result {
	t.Helper()
	res, err := Run(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
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

// ---------------------------------------------------------------- project

func TestProjectSaveLoadRoundTrip(t *testing.T) {
	// The files a project names are saved relative to its folder.
	dir := t.TempDir()
	p := Project{
		Input: filepath.Join(dir, "data", "in.csv"), Rows: 500, DataSeed: 9, Columns: []string{"a", "b", "c"},
		Kinds: map[string]string{"c": "numeric"}, Missing: "category",
		Roles:       model.Roles{IDs: []string{"x"}, QIs: []string{"a", "b"}, SA: "s"},
		Hierarchies: map[string]string{"a": "binary", "b": "intervals:5"},
		Method:      "distribution", Variant: "v1",
		Params: model.Values{"fakes": "5%", "seed": "7", "target": "normal:10,2"},
		Public: filepath.Join(dir, "pd.csv"),
	}
	path := filepath.Join(dir, "project.json")
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !bytes.HasPrefix(b, []byte("{\n  \"input\": \"data/in.csv\",\n")) || !bytes.HasSuffix(b, []byte("}\n")) {
		t.Fatalf("not indented JSON ending in a newline:\n%s", b)
	}
	got, err := LoadProject(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, p)
	}
	// Saving again replaces the file atomically (no temporary left).
	p.Input = filepath.Join(dir, "other.csv")
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	if got, _ := LoadProject(path); got.Input != p.Input {
		t.Fatalf("second save: %q", got.Input)
	}
	es, _ := os.ReadDir(filepath.Dir(path))
	if len(es) != 1 {
		t.Fatalf("directory holds %d entries", len(es))
	}
	// A minimal project omits the empty fields.
	min := Project{Input: filepath.Join(dir, "a.csv"), Method: "distribution"}
	if err := min.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	want := "{\n  \"input\": \"a.csv\",\n  \"roles\": {\n    \"quasi_identifiers\": null,\n    \"sensitive\": \"\"\n  },\n  \"method\": \"distribution\"\n}\n"
	if string(b) != want {
		t.Fatalf("minimal project:\n%s\nwant\n%s", b, want)
	}
}

func TestProjectCloneIsDeep(t *testing.T) {
	p := Project{Columns: []string{"a"}, Kinds: map[string]string{"a": "numeric"},
		Roles:       model.Roles{IDs: []string{"i"}, QIs: []string{"a"}, SA: "s"},
		Hierarchies: map[string]string{"a": "flat"}, Params: model.Values{"k": "1"}}
	q := p.Clone()
	q.Columns[0], q.Kinds["a"], q.Roles.IDs[0], q.Roles.QIs[0], q.Hierarchies["a"], q.Params["k"] = "z", "z", "z", "z", "z", "z"
	if p.Columns[0] != "a" || p.Kinds["a"] != "numeric" || p.Roles.IDs[0] != "i" || p.Roles.QIs[0] != "a" || p.Hierarchies["a"] != "flat" || p.Params["k"] != "1" {
		t.Fatalf("clone shares state: %+v", p)
	}
}

// badProjects are project files that LoadProject must refuse, with the
// line the error must name (for a file cut short, its last line).
var badProjects = []struct {
	name, text string
	lines      []int
	msg        string
}{
	{"syntax", "{\n  \"input\": \"a.csv\",\n  \"method\": distribution\n}\n", []int{3}, "invalid character 'd'"},
	{"unterminated", "{\n  \"input\": \"a.csv\",\n", []int{2, 3}, "unexpected EOF"},
	{"unknown field", "{\n  \"input\": \"a.csv\",\n  \"method\": \"distribution\",\n  \"bogus\": 1\n}\n", []int{4}, `unknown field "bogus"`},
	{"wrong type", "{\n  \"input\": \"a.csv\",\n  \"rows\": \"ten\"\n}\n", []int{3}, "cannot unmarshal string"},
}

func TestLoadProjectErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range badProjects {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".json")
			writeFile(t, path, c.text)
			p, err := LoadProject(path)
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("got %+v, %v; want an *model.InputError", p, err)
			}
			if ie.File != path || !strings.Contains(ie.Msg, c.msg) || !strings.HasPrefix(ie.Msg, "not a valid project file: ") {
				t.Fatalf("file %q msg %q", ie.File, ie.Msg)
			}
			if ie.Hint != "the workbench writes this file with ctrl+s (save project)" {
				t.Fatalf("hint %q", ie.Hint)
			}
		})
	}
	missing := filepath.Join(dir, "nosuch.json")
	_, err := LoadProject(missing)
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.File != missing || !strings.HasPrefix(ie.Msg, "cannot read the project file: ") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestLoadProjectErrorLines(t *testing.T) {
	// Errors read FILE:LINE: message (README, SPEC 5), also for unknown
	// fields, wrong types and files cut short.
	dir := t.TempDir()
	for _, c := range badProjects {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".json")
			writeFile(t, path, c.text)
			_, err := LoadProject(path)
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%v", err)
			}
			found := false
			for _, l := range c.lines {
				found = found || ie.Line == l
			}
			if !found {
				t.Fatalf("%s: line %d, want %v", err, ie.Line, c.lines)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: not a valid project file", path, ie.Line)) {
				t.Fatalf("message %q", err)
			}
		})
	}
}

func TestLoadProjectTrailingData(t *testing.T) {
	// A second JSON value (e.g. a bad merge left a brace behind) must not
	// be ignored silently.
	path := filepath.Join(t.TempDir(), "p.json")
	writeFile(t, path, "{\"input\": \"a.csv\"}\n}\n")
	if p, err := LoadProject(path); err == nil {
		t.Fatalf("trailing data accepted: %+v", p)
	}
}

// ---------------------------------------------------------------- flags

func TestParseArgsEveryFlag(t *testing.T) {
	a, err := ParseArgs("run", []string{
		"--in", "data.csv", "--qi", "a, b", "--sa", "s", "--id", "x,y",
		"--method", "distribution", "--variant", "v",
		"--hierarchy", "a=binary", "--hierarchy", "b=intervals:5", "--kind", "c=numeric", "--kind", "d=categorical",
		"--fakes", "5%", "--seed", "7", "--grouping", "mondrian:5", "--target", "normal:10,2",
		"--max-denominator", "0", "--columns", "a,b,c,d,s,x,y", "--missing", "category", "--rows", "50",
		"--out", "rel", "--force", "--accept-violations", "--original", "orig.csv", "--release", "reldir",
		"--public", "pd.csv", "--k", "3", "--alpha", "0.5", "--beta", "0.25", "--sampling-rate", "0.3", "--max-distortion", "0.2",
		"--ratio", "4", "--hierarchies", "hdir", "--queries", "12", "--range", "0.3",
	})
	if err != nil {
		t.Fatal(err)
	}
	p := a.Project
	want := Project{
		Input: "data.csv", Rows: 50, Columns: []string{"a", "b", "c", "d", "s", "x", "y"},
		Kinds: map[string]string{"c": "numeric", "d": "categorical"}, Missing: "category",
		Roles:       model.Roles{IDs: []string{"x", "y"}, QIs: []string{"a", "b"}, SA: "s"},
		Hierarchies: map[string]string{"a": "binary", "b": "intervals:5"},
		Method:      "distribution", Variant: "v",
		Params: model.Values{"fakes": "5%", "seed": "7", "grouping": "mondrian:5", "target": "normal:10,2", "max-denominator": "0",
			"k": "3", "alpha": "0.5", "beta": "0.25", "sampling-rate": "0.3", "max-distortion": "0.2"},
		Public: "pd.csv",
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("project:\n got %+v\nwant %+v", p, want)
	}
	if a.Out != "rel" || !a.Force || !a.Accept || a.Original != "orig.csv" || a.Release != "reldir" || a.Public != "pd.csv" {
		t.Fatalf("out/force/accept/original/release/public: %+v", a)
	}
	if a.Rows != 50 || a.Seed != 7 || !a.SeedSet || a.Ratio != 4 || a.HierDir != "hdir" || a.Queries != 12 || a.RangeFrac != 0.3 {
		t.Fatalf("gen/eval fields: %+v", a)
	}
	if len(a.Positional) != 0 || a.Config != "" || a.Help {
		t.Fatalf("positional %v config %q help %v", a.Positional, a.Config, a.Help)
	}
}

func TestParseArgsDefaults(t *testing.T) {
	a, err := ParseArgs("run", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Project, Project{Params: model.Values{}}) {
		t.Fatalf("project %+v", a.Project)
	}
	if a.Out != "" || a.Force || a.Accept || a.Rows != 0 || a.Seed != 0 || a.SeedSet || a.Ratio != 10 || a.Queries != 100 || a.RangeFrac != 0.1 {
		t.Fatalf("defaults %+v", a)
	}
	// --seed random: a parameter, but no fixed generator seed.
	a, err = ParseArgs("gen", []string{"--seed", "random"})
	if err != nil || a.SeedSet || a.Seed != 0 || a.Project.Params["seed"] != "random" {
		t.Fatalf("seed random: %+v %v", a, err)
	}
	for _, h := range []string{"--help", "-h", "-help"} {
		a, err = ParseArgs("run", []string{h})
		if err != nil || !a.Help {
			t.Fatalf("%s: %+v %v", h, a, err)
		}
	}
	// Single-dash and --flag=value forms work too.
	a, err = ParseArgs("run", []string{"-qi=a,b", "--sa=s", "--fakes=2"})
	if err != nil || strings.Join(a.Project.Roles.QIs, ",") != "a,b" || a.Project.Roles.SA != "s" || a.Project.Params["fakes"] != "2" {
		t.Fatalf("= forms: %+v %v", a, err)
	}
	// A repeated list flag replaces, not appends.
	a, _ = ParseArgs("run", []string{"--qi", "a,b", "--qi", "c"})
	if strings.Join(a.Project.Roles.QIs, ",") != "c" {
		t.Fatalf("repeated --qi: %v", a.Project.Roles.QIs)
	}
}

func TestParseArgsPositionalInterleaved(t *testing.T) {
	a, err := ParseArgs("check", []string{"DIR", "--original", "F"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Positional, "|") != "DIR" || a.Original != "F" {
		t.Fatalf("positional %v original %q", a.Positional, a.Original)
	}
	a, err = ParseArgs("query", []string{"--in", "x.csv", "AVG(s) WHERE g = 'F'", "--qi", "g", "extra", "--force"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Positional, "|") != "AVG(s) WHERE g = 'F'|extra" || a.Project.Input != "x.csv" ||
		strings.Join(a.Project.Roles.QIs, ",") != "g" || !a.Force {
		t.Fatalf("%+v", a)
	}
	a, err = ParseArgs("gen", []string{"census", "--rows", "100", "--seed", "3", "--out", "c.csv"})
	if err != nil || strings.Join(a.Positional, "|") != "census" || a.Rows != 100 || a.Seed != 3 || !a.SeedSet || a.Out != "c.csv" || a.Project.Rows != 100 {
		t.Fatalf("gen: %+v %v", a, err)
	}
}

func TestParseArgsConfigMerge(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "project.json")
	base := Project{
		Input: filepath.Join(dir, "base.csv"), Rows: 40, Columns: []string{"a", "b", "c", "s"}, Kinds: map[string]string{"c": "numeric"}, Missing: "category",
		Roles:       model.Roles{IDs: []string{"i"}, QIs: []string{"a", "b"}, SA: "s"},
		Hierarchies: map[string]string{"a": "flat", "b": "binary"},
		Method:      "distribution", Variant: "v",
		Params: model.Values{"target": "uniform", "fakes": "1", "seed": "3"},
		Public: filepath.Join(dir, "pd.csv"),
	}
	if err := base.Save(cfg); err != nil {
		t.Fatal(err)
	}
	// No flags: the file as it is.
	a, err := ParseArgs("run", []string{"--config", cfg})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Project, base) || a.Config != cfg {
		t.Fatalf("config alone:\n got %+v\nwant %+v", a.Project, base)
	}
	// Flags override what they set and keep the rest.
	a, err = ParseArgs("run", []string{"--qi", "c", "--config", cfg, "--hierarchy", "b=ternary", "--hierarchy", "c=intervals:2",
		"--fakes", "2", "--kind", "a=categorical", "--missing", "drop", "--rows", "80"})
	if err != nil {
		t.Fatal(err)
	}
	want := base.Clone()
	want.Roles.QIs = []string{"c"}
	want.Hierarchies = map[string]string{"a": "flat", "b": "ternary", "c": "intervals:2"}
	want.Params["fakes"] = "2"
	want.Kinds["a"] = "categorical"
	want.Missing = "drop"
	want.Rows = 80
	if !reflect.DeepEqual(a.Project, want) {
		t.Fatalf("merged:\n got %+v\nwant %+v", a.Project, want)
	}
	// Every project flag overrides.
	a, err = ParseArgs("run", []string{"--config", cfg, "--in", "new.csv", "--sa", "b", "--id", "j", "--method", "m", "--variant", "w",
		"--columns", "x,y", "--public", "pd2.csv", "--seed", "9"})
	if err != nil {
		t.Fatal(err)
	}
	p := a.Project
	if p.Input != "new.csv" || p.Roles.SA != "b" || strings.Join(p.Roles.IDs, ",") != "j" || p.Method != "m" || p.Variant != "w" ||
		strings.Join(p.Columns, ",") != "x,y" || p.Public != "pd2.csv" || p.Params["seed"] != "9" || p.Params["target"] != "uniform" ||
		strings.Join(p.Roles.QIs, ",") != "a,b" {
		t.Fatalf("overrides: %+v", p)
	}
	// A broken config file is an input error.
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, "{\"input\": 3}")
	if _, err := ParseArgs("run", []string{"--config", bad}); err == nil {
		t.Fatal("bad config accepted")
	} else if ie := (*model.InputError)(nil); !errors.As(err, &ie) || ie.File != bad {
		t.Fatalf("bad config: %v", err)
	}
}

func TestParseArgsErrors(t *testing.T) {
	cases := []struct {
		cmd    string
		args   []string
		param  string
		value  string
		reason string
	}{
		{"run", []string{"--bogus"}, "--bogus", "", "unknown flag"},
		{"check", []string{"DIR", "--nosuch", "x"}, "--nosuch", "", "unknown flag"},
		{"run", []string{"-x"}, "--x", "", "unknown flag"},
		{"run", []string{"--hierarchy", "binary"}, "hierarchy", "binary", `--hierarchy wants ATTR=VALUE, got "binary"`},
		{"run", []string{"--hierarchy", "a="}, "hierarchy", "a=", `--hierarchy wants ATTR=VALUE, got "a="`},
		{"run", []string{"--hierarchy", "=binary"}, "hierarchy", "=binary", `--hierarchy wants ATTR=VALUE, got "=binary"`},
		{"run", []string{"--kind", "c"}, "kind", "c", `--kind wants ATTR=VALUE, got "c"`},
		{"run", []string{"--seed", "-3"}, "seed", "-3", "must be random or an integer >= 0"},
		{"gen", []string{"--rows", "many"}, "rows", "many", "not a valid number"},
		{"run", []string{"--out"}, "out", "", "needs a value"},
	}
	for _, c := range cases {
		a, err := ParseArgs(c.cmd, c.args)
		if err == nil {
			t.Fatalf("%v: no error (%+v)", c.args, a)
		}
		pe := paramError(t, err)
		if pe.Param != c.param || pe.Value != c.value || pe.Reason != c.reason {
			t.Fatalf("%v: %q = %q: %q; want %q = %q: %q", c.args, pe.Param, pe.Value, pe.Reason, c.param, c.value, c.reason)
		}
		if pe.Hint != "privlab "+c.cmd+" --help lists the flags" {
			t.Fatalf("%v: hint %q", c.args, pe.Hint)
		}
	}
}

func TestParamFlagsAndMethodHelp(t *testing.T) {
	// Every SPEC 5 parameter is a flag.
	got := strings.Join(paramNames(), ", ")
	for _, want := range []string{"alpha", "beta", "fakes", "grouping", "k", "max-denominator", "max-distortion", "sampling-rate", "seed", "target"} {
		if !strings.Contains(", "+got+", ", ", "+want+", ") {
			t.Fatalf("no flag --%s: %s", want, got)
		}
	}
	var b bytes.Buffer
	MethodHelp(&b)
	for _, want := range []string{"method distribution", "--fakes", "--grouping", "--target", "--max-denominator", "--seed", "publishes: qi.csv, sa.csv, hierarchy.csv"} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("MethodHelp lacks %q:\n%s", want, b.String())
		}
	}
}

// ---------------------------------------------------------------- prepare

const missingCSV = `id,age,zip,sex,income,note
1,30,91110,F,100,a
2,,91110,M,200,b
3,40,91120,F,300,
4,50,,M,400,d
5,60,91130,F,,e
6,70,91140,M,500,f
7,80,91150,NA,600,g
`

func TestPrepareDefaults(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	p, err := Env{}.Prepare(Project{Input: "in.csv", Roles: model.Roles{QIs: []string{"zipcode", "gender"}, SA: "salary"}}, src)
	if err != nil {
		t.Fatal(err)
	}
	if p.Project.Method != "distribution" || p.Method.Spec().Name != "distribution" {
		t.Fatalf("method %q", p.Project.Method)
	}
	want := model.Values{"target": "table", "max-denominator": "8", "grouping": "sa-only", "fakes": "0", "seed": "random"}
	if !reflect.DeepEqual(p.Values, want) {
		t.Fatalf("values %v, want %v", p.Values, want)
	}
	if p.Table != src || p.Source != src || p.Dropped != 0 || p.InputRow != nil {
		t.Fatalf("no missing values: table %p source %p dropped %d inputRow %v", p.Table, src, p.Dropped, p.InputRow)
	}
	// The numeric SA gets the balanced binary hierarchy over its sorted
	// values: Figure 3.
	h := p.Hierarchies["salary"]
	if h == nil || !h.IsBinary() || len(h.Leaves) != 4 || len(h.Nodes) != 7 || h.Height() != 2 {
		t.Fatalf("SA hierarchy %v", h)
	}
	var bounds []string
	for n := range h.Nodes {
		lo, hi := h.Bounds(n)
		bounds = append(bounds, lo+"-"+hi)
	}
	if strings.Join(bounds, " ") != "30000-60000 30000-40000 30000-30000 40000-40000 50000-60000 50000-50000 60000-60000" {
		t.Fatalf("SA hierarchy nodes %v", bounds)
	}
	// QIs: numeric zipcode gets intervals (auto), categorical gender flat.
	if g := p.Hierarchies["gender"]; g == nil || len(g.Nodes) != 3 || g.Height() != 1 {
		t.Fatalf("gender hierarchy %v", g)
	}
	if z := p.Hierarchies["zipcode"]; z == nil || !z.Numeric || len(z.Leaves) != 9 {
		t.Fatalf("zipcode hierarchy %v", z)
	}
	if len(p.Hierarchies) != 3 {
		t.Fatalf("%d hierarchies", len(p.Hierarchies))
	}
	// A categorical SA gets a flat hierarchy.
	p, err = Env{}.Prepare(Project{Roles: model.Roles{QIs: []string{"zipcode"}, SA: "gender"}}, src)
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Hierarchies["gender"]; g.Height() != 1 || len(g.Leaves) != 2 {
		t.Fatalf("categorical SA hierarchy %v", g)
	}
	// The user's hierarchy spec wins.
	p, err = Env{}.Prepare(Project{Roles: model.Roles{QIs: []string{"zipcode"}, SA: "salary"}, Hierarchies: map[string]string{"salary": "flat", "zipcode": "masking"}}, src)
	if err != nil {
		t.Fatal(err)
	}
	if p.Hierarchies["salary"].Height() != 1 || p.Hierarchies["zipcode"].Height() != 5 {
		t.Fatalf("user specs: salary height %d zipcode height %d", p.Hierarchies["salary"].Height(), p.Hierarchies["zipcode"].Height())
	}
	// Describe.
	p, _ = Env{}.Prepare(figure2("in.csv"), src)
	got := strings.Join(p.Describe(), "\n")
	wantDesc := "input      in.csv (11 rows)\nroles      QI zipcode,gender; SA salary (numeric, hierarchy of 4 values, height 2)\n" +
		"method     distribution  fakes=0 grouping=level:zipcode=2 max-denominator=8 seed=1 target=uniform"
	if got != wantDesc {
		t.Fatalf("Describe:\n%s\nwant\n%s", got, wantDesc)
	}
	// Prepare does not modify the caller's project.
	proj := Project{Roles: model.Roles{QIs: []string{"zipcode"}, SA: "salary"}}
	if _, err := (Env{}).Prepare(proj, src); err != nil || proj.Method != "" || proj.Params != nil {
		t.Fatalf("caller's project changed: %+v %v", proj, err)
	}
}

func TestPrepareMissingDrop(t *testing.T) {
	src := loadText(t, "m.csv", missingCSV)
	proj := Project{Roles: model.Roles{IDs: []string{"id"}, QIs: []string{"age", "zip", "sex"}, SA: "income"}}
	p, err := Env{}.Prepare(proj, src)
	if err != nil {
		t.Fatal(err)
	}
	// Rows 1 (age), 3 (zip), 4 (income) and 6 (sex "NA") have a missing
	// value in a used column; row 2's missing note is not used.
	if p.Dropped != 4 || p.Table.Rows != 3 || fmt.Sprint(p.InputRow) != "[0 2 5]" {
		t.Fatalf("dropped %d rows %d inputRow %v, want 4, 3, [0 2 5]", p.Dropped, p.Table.Rows, p.InputRow)
	}
	for i, r := range p.InputRow {
		for _, c := range []string{"id", "age", "zip", "sex", "income"} {
			if p.Table.Column(c).Value(i) != src.Column(c).Value(r) {
				t.Fatalf("row %d (input %d) column %s: %q vs %q", i, r, c, p.Table.Column(c).Value(i), src.Column(c).Value(r))
			}
		}
	}
	if p.Source != src || src.Rows != 7 {
		t.Fatal("source changed")
	}
	if !strings.HasPrefix(p.Describe()[0], "input      m.csv (3 rows, 4 dropped for missing values)") {
		t.Fatalf("Describe: %q", p.Describe()[0])
	}
	// Explicit "drop" is the same.
	proj.Missing = "drop"
	if p2, err := (Env{}).Prepare(proj, src); err != nil || p2.Dropped != 4 || fmt.Sprint(p2.InputRow) != "[0 2 5]" {
		t.Fatalf("explicit drop: %v %v", p2, err)
	}
}

func TestPrepareMissingCategory(t *testing.T) {
	src := loadText(t, "m.csv", missingCSV)
	proj := Project{Missing: "category", Roles: model.Roles{IDs: []string{"id"}, QIs: []string{"age", "zip", "sex"}, SA: "income"},
		Hierarchies: map[string]string{"income": "flat"}}
	p, err := Env{}.Prepare(proj, src)
	if err != nil {
		t.Fatal(err)
	}
	// Rows missing a number (age on row 2, zip on row 4, income on row 5)
	// are dropped even so: a number cannot be "?". The missing sex on row 7
	// becomes "?".
	if p.Dropped != 3 || fmt.Sprint(p.InputRow) != "[0 2 5 6]" || p.Table.Rows != 4 {
		t.Fatalf("dropped %d inputRow %v rows %d", p.Dropped, p.InputRow, p.Table.Rows)
	}
	var ages, sexes []string
	for r := 0; r < 4; r++ {
		ages = append(ages, p.Table.Column("age").Value(r))
		sexes = append(sexes, p.Table.Column("sex").Value(r))
	}
	if strings.Join(ages, ",") != "30,40,70,80" || strings.Join(sexes, ",") != "F,F,M,?" {
		t.Fatalf("ages %v sexes %v", ages, sexes)
	}
	if p.Table.Column("age").Kind != model.Numeric || p.Table.Column("sex").Kind != model.Categorical {
		t.Fatal("age must stay numeric; sex is categorical")
	}
	// The unused column keeps its missing value (input row 3 is row 1 now).
	if !p.Table.Column("note").IsMissing(1) {
		t.Fatal("note changed")
	}
	// A bad policy.
	proj.Missing = "keep-all"
	_, err = Env{}.Prepare(proj, src)
	if pe := paramError(t, err); pe.Param != "missing" || pe.Value != "keep-all" {
		t.Fatalf("bad policy: %+v", pe)
	}
	// Every row dropped.
	allMissing := loadText(t, "a.csv", "q,s\n1,\n2,NA\n")
	_, err = Env{}.Prepare(Project{Roles: model.Roles{QIs: []string{"q"}, SA: "s"}}, allMissing)
	if pe := paramError(t, err); pe.Param != "missing" || pe.Hint != "use --missing category to keep categorical missing values as ?" {
		t.Fatalf("all dropped: %+v", pe)
	}
}

func TestPrepareErrors(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	roles := model.Roles{QIs: []string{"zipcode", "gender"}, SA: "salary"}
	cases := []struct {
		name  string
		p     Project
		param string
		value string
		in    string // text the reason or hint must hold
	}{
		{"unknown qi", Project{Roles: model.Roles{QIs: []string{"zipcode", "age"}, SA: "salary"}}, "qi", "age", `in.csv has no column "age"`},
		{"unknown sa", Project{Roles: model.Roles{QIs: []string{"zipcode"}, SA: "wage"}}, "sa", "wage", `has no column "wage"`},
		{"unknown id", Project{Roles: model.Roles{IDs: []string{"ssn"}, QIs: []string{"zipcode"}, SA: "salary"}}, "id", "ssn", `has no column "ssn"`},
		{"no sa", Project{Roles: model.Roles{QIs: []string{"zipcode"}}}, "sa", "", "no sensitive attribute chosen"},
		{"no qi", Project{Roles: model.Roles{SA: "salary"}}, "qi", "", "no quasi-identifier chosen"},
		{"sa also qi", Project{Roles: model.Roles{QIs: []string{"salary"}, SA: "salary"}}, "qi", "salary", "already the sa"},
		{"unknown hierarchy column", Project{Roles: roles, Hierarchies: map[string]string{"age": "binary"}}, "hierarchy", "age", "no such column"},
		{"bad hierarchy spec", Project{Roles: roles, Hierarchies: map[string]string{"gender": "intervals:5"}}, "hierarchy gender", "intervals:5", "intervals need a numeric column"},
		{"bad hierarchy width", Project{Roles: roles, Hierarchies: map[string]string{"zipcode": "intervals:x"}}, "hierarchy zipcode", "intervals:x", `width "x" is not a positive number`},
		{"hierarchy file missing", Project{Roles: roles, Hierarchies: map[string]string{"zipcode": "/nonexistent/h.csv"}}, "hierarchy zipcode", "/nonexistent/h.csv", "neither a builder nor a readable file"},
		{"parameter not read", Project{Roles: roles, Params: model.Values{"k": "5"}}, "k", "5", "not a parameter of method distribution"},
		{"bad fakes", Project{Roles: roles, Params: model.Values{"fakes": "-1"}}, "fakes", "-1", "must be an integer >= 0 or a percentage"},
		{"bad grouping", Project{Roles: roles, Params: model.Values{"grouping": "mondrian:0"}}, "grouping", "mondrian:0", "minimum group size >= 1"},
		{"bad target", Project{Roles: roles, Params: model.Values{"target": "normal:1"}}, "target", "normal:1", "needs a mean and a standard deviation"},
		{"bad max-denominator", Project{Roles: roles, Params: model.Values{"max-denominator": "-2"}}, "max-denominator", "-2", "must be >= 0"},
		{"bad seed", Project{Roles: roles, Params: model.Values{"seed": "x"}}, "seed", "x", "must be random or an integer >= 0"},
		{"unknown variant", Project{Roles: roles, Variant: "fast"}, "variant", "fast", "unknown variant of distribution"},
		{"unknown method", Project{Roles: roles, Method: "kanon"}, "method", "kanon", "unknown method"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Env{}.Prepare(c.p, src)
			if err == nil {
				t.Fatalf("no error: %+v", p.Values)
			}
			pe := paramError(t, err)
			if pe.Param != c.param || pe.Value != c.value || !strings.Contains(pe.Reason+" "+pe.Hint, c.in) {
				t.Fatalf("got %q = %q: %s (hint %s); want %q = %q containing %q", pe.Param, pe.Value, pe.Reason, pe.Hint, c.param, c.value, c.in)
			}
		})
	}
	// The variant hint says there are none.
	_, err := Env{}.Prepare(Project{Roles: roles, Variant: "fast"}, src)
	if pe := paramError(t, err); pe.Hint != "this method has no variants" {
		t.Fatalf("variant hint %q", pe.Hint)
	}
	_, err = Env{}.Prepare(Project{Roles: roles, Params: model.Values{"k": "5"}}, src)
	if pe := paramError(t, err); pe.Hint != "distribution reads: target, max-denominator, grouping, fakes, seed" {
		t.Fatalf("k hint %q", pe.Hint)
	}
}

func TestLoadTable(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "nohdr.csv")
	writeFile(t, in, "1,x,10\n2,y,20\n")
	tb, err := Env{}.LoadTable(Project{Input: in, Columns: []string{"a", "b", "c"}, Kinds: map[string]string{"a": "categorical"}})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Rows != 2 || strings.Join(tb.Names(), ",") != "a,b,c" || tb.Column("a").Kind != model.Categorical || tb.Column("c").Kind != model.Numeric {
		t.Fatalf("table %v rows %d", tb.Names(), tb.Rows)
	}
	_, err = Env{}.LoadTable(Project{Input: in, Columns: []string{"a", "b", "c"}, Kinds: map[string]string{"a": "number-ish"}})
	if pe := paramError(t, err); pe.Param != "kind" || pe.Value != "a=number-ish" {
		t.Fatalf("bad kind: %+v", pe)
	}
	_, err = Env{}.LoadTable(Project{})
	if pe := paramError(t, err); pe.Param != "in" || pe.Reason != "no input table" {
		t.Fatalf("no input: %+v", pe)
	}
	_, err = Env{}.LoadTable(Project{Input: "dataset:employees"})
	if pe := paramError(t, err); pe.Param != "in" || pe.Value != "dataset:employees" || pe.Reason != "embedded datasets are not available here" {
		t.Fatalf("dataset without Datasets: %+v", pe)
	}
	_, err = Env{}.LoadTable(Project{Input: filepath.Join(dir, "nosuch.csv")})
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.Msg != "file does not exist" {
		t.Fatalf("missing file: %v", err)
	}
	if n, ok := DatasetName("dataset:census"); !ok || n != "census" {
		t.Fatalf("DatasetName: %q %v", n, ok)
	}
	if _, ok := DatasetName("census.csv"); ok {
		t.Fatal("DatasetName of a file")
	}
}

// ---------------------------------------------------------------- run

type panicMethod struct{ method.Method }

func (panicMethod) Spec() method.Spec { return method.Spec{Name: "boom"} }
func (panicMethod) Run(ctx context.Context, in *method.Input) (*method.Result, error) {
	panic("index out of range")
}

func TestRunTurnsPanicsIntoErrors(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	p, err := Env{}.Prepare(figure2("in.csv"), src)
	if err != nil {
		t.Fatal(err)
	}
	p.Method = panicMethod{}
	res, err := Run(context.Background(), p, nil)
	if res != nil || err == nil || err.Error() != "internal error in method boom: index out of range (please report it)" {
		t.Fatalf("%v %v", res, err)
	}
}

func TestRunCancelled(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	p, err := Env{}.Prepare(figure2("in.csv"), src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, p, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// ---------------------------------------------------------------- export

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func readAudit(t *testing.T, dir string) model.Audit {
	t.Helper()
	b, err := os.ReadFile(model.AuditPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var a model.Audit
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestExportWritesReleaseAndAudit(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	res := run(t, p)
	out := filepath.Join(dir, "rel")
	ex, err := Export(p, res, out, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(listDir(t, out), " "); got != "hierarchy.csv manifest.json qi.csv report.md sa.csv sa_domain.csv" {
		t.Fatalf("release holds %s", got)
	}
	if got := strings.Join(listDir(t, dir), " "); got != "employees.csv rel rel.audit.json" {
		t.Fatalf("beside the release: %s", got)
	}
	// 15 checks plus the audit and support lines (export pins published
	// rows to input rows) and the claims.
	if ex.Dir != out || ex.Seed != 1 || !ex.Manifest.Verified || len(ex.Checks) != 18 {
		t.Fatalf("exported %+v", ex)
	}
	for _, l := range ex.Checks {
		if !strings.HasPrefix(l, "ok   ") {
			t.Fatalf("check %s", l)
		}
	}
	man, err := model.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	// The manifest states the lines any recipient reproduces from the
	// files alone, and names the checks against the input that passed too.
	if len(man.Checks) != 14 || !man.Verified || man.AcceptedBad ||
		man.Checks[13] != "ok   faithful: with the input (and the audit record) the export also passed tuples, audit, support, generalization, shuffled" {
		t.Fatalf("manifest checks %q verified %v", man.Checks, man.Verified)
	}
	if _, ok := man.Parameters["seed"]; ok {
		t.Fatal("the seed is in the manifest")
	}
	if man.RowsIn != 11 || man.Published != 11 || man.Groups != 3 || strings.Join(man.Dropped, ",") != "name" {
		t.Fatalf("manifest %+v", man)
	}
	// The audit record: input path and hash, the seed, the project.
	a := readAudit(t, out)
	sum, _ := model.FileSHA256(filepath.Join(dir, "employees.csv"))
	abs, _ := filepath.Abs(out)
	if a.Input != filepath.Join(dir, "employees.csv") || a.InputSHA256 != sum || a.Seed != 1 || !a.SeedFixed || a.Release != abs {
		t.Fatalf("audit %+v", a)
	}
	cfg, _ := json.Marshal(a.Config)
	if !strings.Contains(string(cfg), `"grouping":"level:zipcode=2"`) {
		t.Fatalf("audit config %s", cfg)
	}
	// Nothing private in the release directory.
	for _, f := range listDir(t, out) {
		b, _ := os.ReadFile(filepath.Join(out, f))
		if bytes.Contains(b, []byte("employees.csv")) || bytes.Contains(b, []byte("Alice")) || bytes.Contains(b, []byte(sum)) {
			t.Fatalf("%s holds private information", f)
		}
	}
	// The release answers from its files what the run answers.
	ans, m2, err := OpenRelease(out)
	if err != nil || m2.Method != "distribution" {
		t.Fatalf("OpenRelease: %v", err)
	}
	q := "AVG(salary) WHERE gender = 'F'"
	r1, err1 := Answer(q, p.Table, ans)
	r2, err2 := Answer(q, p.Table, res.Answerer)
	if err1 != nil || err2 != nil || r1.Answer.Low != 35000 || r1.Answer.High != 55000 || r2.Answer != r1.Answer {
		t.Fatalf("release answer %+v / run answer %+v (%v %v)", r1.Answer, r2.Answer, err1, err2)
	}
	// Check re-verifies it (and uses the audit record beside it).
	rep, err := Check(out, p.Table, nil)
	if err != nil || !rep.OK() || len(rep.Lines) != 24 { // the 19 of export, the names report.md binds, finished, the stated lines, the audit record's binding, the workload
		t.Fatalf("Check: %v %v", rep, err)
	}
}

func TestExportRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	res := run(t, p)
	out := filepath.Join(dir, "rel")
	if _, err := Export(p, res, out, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(out, "qi.csv"))
	p.Values["seed"] = "2"
	_, err := Export(p, res, out, ExportOptions{})
	if !errors.Is(err, model.ErrExists) {
		t.Fatalf("second export: %v", err)
	}
	if pe := paramError(t, err); pe.Param != "out" || pe.Hint != "pass --force to replace it" {
		t.Fatalf("%+v", pe)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "qi.csv")); !bytes.Equal(before, after) {
		t.Fatal("the refused export changed the release")
	}
	if readAudit(t, out).Seed != 1 {
		t.Fatal("the refused export changed the audit")
	}
	ex, err := Export(p, res, out, ExportOptions{Force: true})
	if err != nil || ex.Seed != 2 || readAudit(t, out).Seed != 2 {
		t.Fatalf("forced export: %v", err)
	}
	// The input file is protected even with Force.
	_, err = Export(p, res, dir, ExportOptions{Force: true})
	if pe := paramError(t, err); pe.Param != "out" || !strings.Contains(pe.Reason, "would overwrite or remove the input file") {
		t.Fatalf("input protection: %+v", pe)
	}
	// A directory that is not a release is never replaced.
	other := filepath.Join(dir, "docs")
	os.Mkdir(other, 0o755)
	writeFile(t, filepath.Join(other, "keep.txt"), "x")
	_, err = Export(p, res, other, ExportOptions{Force: true})
	if pe := paramError(t, err); pe.Param != "out" || !strings.Contains(pe.Reason, "not a privlab release") {
		t.Fatalf("non-release dir: %+v", pe)
	}
}

func TestExportAuditRowMap(t *testing.T) {
	// Rows with missing values are dropped; the audit maps each qi.csv row
	// to its row in the input file (0-based data rows of the file).
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,age,zip,sex,income\n")
	rng := model.NewRand(3)
	for i := 0; i < 60; i++ {
		age := fmt.Sprint(20 + rng.Intn(30))
		if i%7 == 3 {
			age = "NA"
		}
		inc := fmt.Sprint(100 * (1 + rng.Intn(6)))
		if i%11 == 5 {
			inc = ""
		}
		fmt.Fprintf(&b, "%d,%s,%d,%s,%s\n", i, age, 91100+rng.Intn(5), []string{"F", "M"}[rng.Intn(2)], inc)
	}
	text := b.String()
	p := prepareFile(t, dir, "people.csv", text, func(in string) Project {
		return Project{Input: in, Roles: model.Roles{IDs: []string{"id"}, QIs: []string{"age", "zip", "sex"}, SA: "income"},
			Params: model.Values{"grouping": "mondrian:5", "seed": "11"}}
	})
	if p.Dropped != 13 { // i%7==3: 9 rows (3, 10, ..., 59); i%11==5: 5 rows (5, 16, 27, 38, 49); 38 is both
		t.Fatalf("dropped %d", p.Dropped)
	}
	res := run(t, p)
	out := filepath.Join(dir, "rel")
	if _, err := Export(p, res, out, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	input := readCSV(t, filepath.Join(dir, "people.csv"))[1:]
	qi := readCSV(t, filepath.Join(out, "qi.csv"))
	if strings.Join(qi[0], ",") != "GroupID,age,zip,sex" {
		t.Fatalf("qi header %v", qi[0])
	}
	rowMap := readAudit(t, out).RowMap["qi.csv"]
	if len(rowMap) != len(qi)-1 || len(rowMap) != 47 {
		t.Fatalf("row map of %d rows for %d published", len(rowMap), len(qi)-1)
	}
	seen := map[int]bool{}
	for i, r := range rowMap {
		if r < 0 || r >= len(input) || seen[r] {
			t.Fatalf("row map entry %d = %d (duplicate or out of range)", i, r)
		}
		seen[r] = true
		in, pub := input[r], qi[i+1]
		if pub[1] != in[1] || pub[2] != in[2] || pub[3] != in[3] {
			t.Fatalf("qi.csv row %d %v maps to input row %d %v", i, pub, r, in)
		}
		if in[1] == "NA" || in[4] == "" {
			t.Fatalf("qi.csv row %d maps to dropped input row %d", i, r)
		}
	}
	// Every kept input row is published once.
	for r, in := range input {
		if kept := in[1] != "NA" && in[4] != ""; kept != seen[r] {
			t.Fatalf("input row %d kept %v published %v", r, kept, seen[r])
		}
	}
	// Rows are shuffled: the map is not increasing.
	if sort.IntsAreSorted(rowMap) {
		t.Fatal("qi.csv is in input order")
	}
}

func TestExportDeterministicWithSeed(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	p.Values["seed"] = "12345"
	res := run(t, p)
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if _, err := Export(p, res, a, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	// A second run of the same project, exported elsewhere.
	res2 := run(t, p)
	if _, err := Export(p, res2, b, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	files := listDir(t, a)
	if strings.Join(files, " ") != strings.Join(listDir(t, b), " ") {
		t.Fatal("different file lists")
	}
	for _, f := range files {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two exports with seed 12345", f)
		}
	}
	ra, rb := readAudit(t, a), readAudit(t, b)
	if !reflect.DeepEqual(ra.RowMap, rb.RowMap) || ra.Seed != 12345 || rb.Seed != 12345 {
		t.Fatal("audit row maps differ")
	}
	// Another seed shuffles differently.
	p.Values["seed"] = "54321"
	c := filepath.Join(dir, "c")
	if _, err := Export(p, res, c, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(a, "qi.csv"))
	y, _ := os.ReadFile(filepath.Join(c, "qi.csv"))
	if bytes.Equal(x, y) {
		t.Fatal("seeds 12345 and 54321 give the same qi.csv")
	}
	// No fixed seed: a crypto seed, recorded in the audit as not fixed.
	p.Values["seed"] = "random"
	d := filepath.Join(dir, "d")
	ex, err := Export(p, res, d, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if au := readAudit(t, d); au.SeedFixed || au.Seed != ex.Seed {
		t.Fatalf("random seed audit %+v", au)
	}
	d2 := filepath.Join(dir, "d2")
	ex2, err := Export(p, res, d2, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ex2.Seed == ex.Seed {
		t.Fatalf("two random seeds are equal: %d", ex.Seed)
	}
	// Exporting with the recorded seed reproduces it.
	p.Values["seed"] = fmt.Sprint(ex.Seed)
	e := filepath.Join(dir, "e")
	if _, err := Export(p, res, e, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"qi.csv", "sa.csv"} {
		x, _ := os.ReadFile(filepath.Join(d, f))
		y, _ := os.ReadFile(filepath.Join(e, f))
		if !bytes.Equal(x, y) {
			t.Fatalf("%s: the audit's seed does not reproduce the release", f)
		}
	}
}

func TestExportDatasetInputHasNoHash(t *testing.T) {
	src := loadText(t, "dataset:employees", employees)
	p, err := Env{}.Prepare(figure2("dataset:employees"), src)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "rel")
	if _, err := Export(p, run(t, p), out, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if a := readAudit(t, out); a.Input != "dataset:employees" || a.InputSHA256 != "" {
		t.Fatalf("audit %+v", a)
	}
}

// tampered wraps a result so that its release changes the first sa.csv
// row to another single value.
func tampered(res *method.Result) *method.Result {
	bad := *res
	bad.Release = func(seed uint64) (*model.Release, map[string][]int, error) {
		rel, rm, err := res.Release(seed)
		if err != nil {
			return nil, nil, err
		}
		for i := range rel.Files {
			if rel.Files[i].Name != "sa.csv" {
				continue
			}
			fill := rel.Files[i].Fill
			rel.Files[i].Fill = func(r int, rec []string) {
				fill(r, rec)
				if r == 0 {
					v := "30000"
					if rec[1] == "30000" && rec[2] == "30000" {
						v = "60000"
					}
					rec[1], rec[2] = v, v
				}
			}
		}
		return rel, rm, nil
	}
	return &bad
}

func TestExportRefusesAFailingRelease(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	bad := tampered(run(t, p))
	out := filepath.Join(dir, "rel")
	_, err := Export(p, bad, out, ExportOptions{})
	var ve *model.VerifyError
	if !errors.As(err, &ve) {
		t.Fatalf("err %v, want *model.VerifyError", err)
	}
	if !strings.HasPrefix(ve.Err.Error(), "failed: P'-privacy, generalization, claim ") {
		t.Fatalf("failed lines: %v\n%s", ve.Err, strings.Join(ve.Lines, "\n"))
	}
	var failed []string
	for _, l := range ve.Lines {
		if strings.HasPrefix(l, "FAIL ") {
			failed = append(failed, l)
		}
	}
	if len(failed) < 3 || !strings.HasPrefix(failed[0], "FAIL P'-privacy: group ") {
		t.Fatalf("lines %v", failed)
	}
	if got := strings.Join(listDir(t, dir), " "); got != "employees.csv" {
		t.Fatalf("a refused export left %s", got)
	}
	// Accepting the violations writes it, and the manifest and report say so.
	ex, err := Export(p, bad, out, ExportOptions{AcceptViolations: true})
	if err != nil {
		t.Fatal(err)
	}
	man, _ := model.ReadManifest(out)
	if man.Verified || !man.AcceptedBad || ex.Manifest.Verified || !reflect.DeepEqual(man.Checks, ve.Lines) {
		t.Fatalf("manifest verified %v accepted %v", man.Verified, man.AcceptedBad)
	}
	if len(man.Notes) == 0 || !strings.Contains(man.Notes[len(man.Notes)-1], "FAILED its own privacy verification") {
		t.Fatalf("notes %v", man.Notes)
	}
	rep, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !bytes.Contains(rep, []byte("**FAILED**")) || !bytes.Contains(rep, []byte("The user accepted a release that fails its privacy requirement.")) {
		t.Fatalf("report:\n%s", rep)
	}
	if _, err := os.Stat(model.AuditPath(out)); err != nil {
		t.Fatal("no audit for the accepted release")
	}
	if r, err := Check(out, nil, nil); err != nil || r.OK() {
		t.Fatalf("Check of the accepted release: %v %v", r, err)
	}
}

func TestExportBadSeed(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	res := run(t, p)
	p.Values["seed"] = "minus one"
	_, err := Export(p, res, filepath.Join(dir, "rel"), ExportOptions{})
	if pe := paramError(t, err); pe.Param != "seed" || pe.Value != "minus one" {
		t.Fatalf("%+v", pe)
	}
}

// ---------------------------------------------------------------- answers

type cannedAnswerer struct{ b method.Bounds }

func (c cannedAnswerer) Answer(*model.Query) (method.Bounds, error) { return c.b, nil }

func printed(r *QueryResult) string {
	var b bytes.Buffer
	r.Print(&b)
	return b.String()
}

func TestAnswerAndPrint(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	p, err := Env{}.Prepare(figure2("in.csv"), src)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, p)
	// Figure 2's query: the average salary of female employees is 45K;
	// the release bounds it by [35K, 55K] (Koudas et al. 2009, Section 2).
	r, err := Answer("AVG(salary) WHERE gender = 'F'", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want := "query      AVG(salary) WHERE gender = 'F'\n" +
		"true       45000  (6 rows)\n" +
		"release    [35000, 55000]\n" +
		"rel. error 0.4444\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if math.Abs(r.RelErr-20000.0/45000) > 1e-12 || !r.HasTru || r.Truth.Count != 6 {
		t.Fatalf("%+v", r)
	}
	// COUNT is exact.
	r, err = Answer("COUNT(*) WHERE gender = 'F' AND zipcode >= 91200", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want = "query      COUNT(*) WHERE gender = 'F' AND zipcode >= 91200\n" +
		"true       4  (4 rows)\n" +
		"release    4 (exact)\n" +
		"rel. error 0.0000\n" +
		"how        exact: quasi-identifiers are published unchanged\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Without the truth: no true line and no error.
	r, err = Answer("SUM(salary) WHERE zipcode BETWEEN 91300 AND 91399", nil, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	// Group 3 ({30-60},{30-60},{50-60},{30-40}) is selected whole: the sum
	// lies in [30+30+50+30, 60+60+60+40] = [140K, 220K] (Section 2's
	// [140K/4, 220K/4] for the average).
	want = "query      SUM(salary) WHERE zipcode BETWEEN 91300 AND 91399\n" +
		"release    [140000, 220000]\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) || r.HasTru {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Nothing selected: a count of 0; other aggregates are undefined.
	r, err = Answer("COUNT(*) WHERE zipcode = 1", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want = "query      COUNT(*) WHERE zipcode = 1\n" +
		"true       0  (0 rows)\n" +
		"release    0 (exact)\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	r, err = Answer("AVG(salary) WHERE zipcode = 1", p.Table, res.Answerer)
	if err != nil {
		t.Fatal(err)
	}
	want = "query      AVG(salary) WHERE zipcode = 1\n" +
		"true       (no row selected)\n" +
		"release    (no row selected)\n" +
		"how        deterministic bounds from the selected count per group\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// A bad query is an error with its column.
	if _, err := Answer("AVG(salary WHERE", p.Table, res.Answerer); err == nil {
		t.Fatal("bad query accepted")
	} else if qe := (*model.QueryError)(nil); !errors.As(err, &qe) {
		t.Fatalf("bad query: %T %v", err, err)
	}
	if _, err := Answer("AVG(nosuch)", p.Table, res.Answerer); err == nil {
		t.Fatal("unknown column accepted")
	}
}

func TestPrintEstimatesAndWarnings(t *testing.T) {
	tb := loadText(t, "t.csv", "x,s\n1,10\n2,20\n3,30\n")
	// An estimate.
	r, err := Answer("AVG(s) WHERE x >= 2", tb, cannedAnswerer{method.Bounds{Estimate: 27.5, HasEst: true}})
	if err != nil {
		t.Fatal(err)
	}
	want := "query      AVG(s) WHERE x >= 2\ntrue       25  (2 rows)\nrelease    27.5 (estimate)\nrel. error 0.1000\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Bounds that miss the truth are flagged.
	r, _ = Answer("SUM(s)", tb, cannedAnswerer{method.Bounds{Low: 61, High: 90.5, HasBounds: true, Note: "n"}})
	want = "query      SUM(s)\ntrue       60  (3 rows)\nrelease    [61, 90.5]\nrel. error 0.4917\nWARNING    the bounds do not contain the true answer\nhow        n\n"
	if got := printed(r); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Within 1e-9 relative: no warning.
	r, _ = Answer("SUM(s)", tb, cannedAnswerer{method.Bounds{Low: 60.00000000001, High: 70, HasBounds: true}})
	if strings.Contains(printed(r), "WARNING") {
		t.Fatalf("warning within tolerance:\n%s", printed(r))
	}
	// A zero truth has no relative error.
	tb0 := loadText(t, "z.csv", "x,s\n1,0\n2,0\n")
	r, _ = Answer("SUM(s)", tb0, cannedAnswerer{method.Bounds{Low: 0, High: 5, HasBounds: true}})
	want = "query      SUM(s)\ntrue       0  (2 rows)\nrelease    [0, 5]\n"
	if got := printed(r); got != want || !math.IsNaN(r.RelErr) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Non-integral figures.
	r, _ = Answer("AVG(s) WHERE x <= 2", tb, cannedAnswerer{method.Bounds{Low: 1234.5678, High: 0.000123456, HasBounds: true}})
	if got := printed(r); !strings.Contains(got, "release    [1234.57, 0.0001235]\n") || !strings.Contains(got, "true       15  (2 rows)\n") {
		t.Fatalf("figures:\n%s", got)
	}
}

func TestFormatFigure(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {3, "3"}, {-42, "-42"}, {130000, "130000"}, {2.5, "2.5"}, {11818.181818, "11818.18"},
		{100.004, "100"}, {1.005, "1"}, {0.333333, "0.3333"}, {-0.5, "-0.5"}, {0.000123456, "0.0001235"},
		{1e20, "100000000000000000000"}, {math.Inf(1), "+Inf"}, {math.NaN(), "NaN"},
	} {
		if got := FormatFigure(c.x); got != c.want {
			t.Errorf("FormatFigure(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// ---------------------------------------------------------------- inspect, summary, eval

func TestInspect(t *testing.T) {
	tb := loadText(t, "small.csv", "name,age,sex,score\nb,30,F,1.5\na,40,M,NA\nc,30,F,2.5\nd,,F,3\n")
	ps := Inspect(tb)
	want := []Profile{
		{Name: "name", Kind: model.Categorical, Distinct: 4, Top: []string{"a (1)", "b (1)", "c (1)"}},
		{Name: "age", Kind: model.Numeric, Distinct: 2, Missing: 1, Min: 30, Max: 40, Top: []string{"30 (2)", "40 (1)"}},
		{Name: "sex", Kind: model.Categorical, Distinct: 2, Top: []string{"F (3)", "M (1)"}},
		{Name: "score", Kind: model.Numeric, Distinct: 3, Missing: 1, Min: 1.5, Max: 3, Top: []string{"1.5 (1)", "2.5 (1)", "3 (1)"}},
	}
	if !reflect.DeepEqual(ps, want) {
		t.Fatalf("Inspect:\n got %+v\nwant %+v", ps, want)
	}
	var b bytes.Buffer
	PrintInspect(&b, tb)
	wantText := "small.csv: 4 rows, 4 columns\n\n" +
		"column               kind          distinct  missing  range / top values\n" +
		"name                 categorical          4        0  a (1), b (1), c (1)\n" +
		"age                  numeric              2        1  30 .. 40\n" +
		"sex                  categorical          2        0  F (3), M (1)\n" +
		"score                numeric              3        1  1.5 .. 3\n"
	if b.String() != wantText {
		t.Fatalf("PrintInspect:\n%s\nwant\n%s", b.String(), wantText)
	}
}

func TestSummary(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	p, err := Env{}.Prepare(figure2("in.csv"), src)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, p)
	var b bytes.Buffer
	Summary(&b, p, res, 1234567*time.Microsecond)
	// Figure 2: sum of ranges = group 2 (10K+10K+30K) + group 3
	// (30K+30K+10K+10K) = 130K over 11 subdomains; group 3's original
	// distribution (0, 1/4, 0, 3/4) is 1/3 from uniform (EMD over 3 steps).
	want := "input      in.csv (11 rows)\n" +
		"roles      QI zipcode,gender; SA salary (numeric, hierarchy of 4 values, height 2)\n" +
		"method     distribution  fakes=0 grouping=level:zipcode=2 max-denominator=8 seed=1 target=uniform\n" +
		"groups     3 (0 with violations)\n" +
		"rows       11 in, 11 published, 0 suppressed\n" +
		"  posterior deviation (max)                0\n" +
		"  max P'(v) in a group                     0.25\n" +
		"  members with P'(v) = 0                   0\n" +
		"  groups                                   3\n" +
		"  sum of ranges                            130000\n" +
		"  avg range per subdomain                  11818.18\n" +
		"  fake values                              0\n" +
		"  target distance (max EMD)                0.3333\n" +
		"  effective vs requested target EMD        0\n" +
		"  effective vs requested target max |diff| 0\n" +
		"note       grouping level:zipcode=2, target uniform, max denominator 8\n" +
		"time       1.235s\n"
	if b.String() != want {
		t.Fatalf("Summary:\n%s\nwant\n%s", b.String(), want)
	}
	// A hand-made result: violations marked with !, figures formatted.
	hand := &method.Result{
		Groups: []method.Group{{Violation: true}, {}, {Violation: true}},
		RowsIn: 10, Published: 8, Suppressed: 2,
		Summary: []model.Figure{{Name: "worst", Value: 0.125}, {Name: "fine", Value: 2.5, OK: true}},
		Notes:   []string{"first", "second"},
	}
	b.Reset()
	Summary(&b, p, hand, 0)
	want = "input      in.csv (11 rows)\n" +
		"roles      QI zipcode,gender; SA salary (numeric, hierarchy of 4 values, height 2)\n" +
		"method     distribution  fakes=0 grouping=level:zipcode=2 max-denominator=8 seed=1 target=uniform\n" +
		"groups     3 (2 with violations)\n" +
		"rows       10 in, 8 published, 2 suppressed\n" +
		"! worst                                    0.125\n" +
		"  fine                                     2.5\n" +
		"note       first\n" +
		"note       second\n" +
		"time       0s\n"
	if b.String() != want {
		t.Fatalf("Summary (hand-made):\n%s\nwant\n%s", b.String(), want)
	}
}

func TestEval(t *testing.T) {
	src := loadText(t, "in.csv", employees)
	p, err := Env{}.Prepare(figure2("in.csv"), src)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, p)
	// The method's shape (avg-range over the first numeric QI, zipcode):
	// the bounds always contain the truth.
	r, err := Eval(p, res, workload.Options{Queries: 40, Range: 0.3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Queries+r.Skipped != 40 || r.Queries == 0 || r.Contains != r.Queries || r.Bounded != r.Queries || r.MaxErr < r.MedErr || r.MedErr < 0 {
		t.Fatalf("%+v", r)
	}
	// The same as generating and evaluating by hand.
	qs, _ := workload.Generate(p.Table, p.Project.Roles, workload.Options{Shape: workload.AvgRange, Queries: 40, Range: 0.3, Seed: 2})
	r2, _ := workload.Evaluate(p.Table, res.Answerer, qs)
	if r2.MeanErr != r.MeanErr || r2.Queries != r.Queries {
		t.Fatalf("Eval %+v vs by hand %+v", r, r2)
	}
	// COUNT boxes are exact.
	r, err = Eval(p, res, workload.Options{Shape: workload.CountRange, Queries: 20, Range: 0.5, Seed: 2})
	if err != nil || r.MaxErr != 0 || r.Contains != r.Queries {
		t.Fatalf("count-range: %+v %v", r, err)
	}
	// No numeric QI: an error.
	p2, _ := Env{}.Prepare(Project{Roles: model.Roles{QIs: []string{"gender"}, SA: "salary"}}, src)
	if _, err := Eval(p2, run(t, p2), workload.Options{}); err == nil {
		t.Fatal("eval without a numeric QI")
	}
}

func TestExportAsksBeforeAReleaseGrows(t *testing.T) {
	res := &method.Result{RowsIn: 100, Files: []model.FileEntry{{Name: "qi.csv", Rows: 100}, {Name: "sa.csv", Rows: 300000}}}
	if f, g := Growth(res); f != "sa.csv" || g != 3000 {
		t.Fatalf("growth %s %v", f, g)
	}
	_, err := Export(&Prepared{}, res, filepath.Join(t.TempDir(), "rel"), ExportOptions{})
	pe := paramError(t, err)
	if pe.Param != "out" || pe.Reason != "sa.csv would hold 3000 times the input's 100 rows" || !strings.Contains(pe.Hint, "--allow-growth") {
		t.Fatalf("%+v", pe)
	}
	// Below the floor, or within the factor: no question.
	for _, rows := range []int{MinGrowthRows, 1000} {
		if f, _ := Growth(&method.Result{RowsIn: 100, Files: []model.FileEntry{{Name: "sa.csv", Rows: rows}}}); f != "" {
			t.Fatalf("%d rows: %s", rows, f)
		}
	}
}

// TestExportAfterDroppedRows: rows dropped for missing values shift the
// prepared table's rows; the audit record's row maps name input rows and
// the published files are written from the prepared rows. lossyjoin's
// files read its row maps after they are translated (the raw UCI file
// ended in "index out of range" on export).
func TestExportAfterDroppedRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("age,job,disease\n")
	for i := 0; i < 40; i++ {
		job := []string{"a", "b", "c"}[i%3]
		if i%7 == 3 {
			job = "?"
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", 20+i%9, job, []string{"flu", "cold"}[i%2])
	}
	src := loadText(t, "d.csv", b.String())
	for _, m := range []string{"lossyjoin", "distribution", "sampling", "ambiguity"} {
		proj := Project{Input: "d.csv", Method: m, Roles: model.Roles{QIs: []string{"age", "job"}, SA: "disease"},
			Params: model.Values{"seed": "1"}}
		if m == "lossyjoin" {
			proj.Params["k"], proj.Params["alpha"] = "2", "1"
		}
		p, err := Env{}.Prepare(proj, src)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		if p.Dropped != 6 {
			t.Fatalf("%s: dropped %d", m, p.Dropped)
		}
		res, err := Run(context.Background(), p, nil)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		dir := filepath.Join(t.TempDir(), "r")
		if _, err := Export(p, res, dir, ExportOptions{AcceptViolations: true}); err != nil {
			t.Fatalf("%s: export: %v", m, err)
		}
		audit, err := model.ReadAudit(model.AuditPath(dir))
		if err != nil {
			t.Fatal(err)
		}
		for name, rows := range audit.RowMap {
			for _, r := range rows {
				if r >= 0 && src.Column("job").IsMissing(r) {
					t.Fatalf("%s: %s maps a row to input row %d, which was dropped", m, name, r)
				}
			}
		}
	}
}
