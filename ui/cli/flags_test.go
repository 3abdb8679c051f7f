package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// paramError returns err as a *model.ParamError, failing the test when it
// is not one.
func paramError(t *testing.T, err error) *model.ParamError {
	t.Helper()
	var pe *model.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T %v, want *model.ParamError", err, err)
	}
	return pe
}

func TestParseArgsEveryFlag(t *testing.T) {
	a, err := parseArgs("run", []string{
		"--in", "data.csv", "--qi", "a, b", "--sa", "s", "--id", "x,y",
		"--method", "distribution", "--variant", "v",
		"--hierarchy", "a=binary", "--hierarchy", "b=intervals:5", "--kind", "c=numeric", "--kind", "d=categorical",
		"--fakes", "5%", "--seed", "7", "--grouping", "mondrian:5", "--target", "normal:10,2",
		"--max-denominator", "0", "--columns", "a,b,c,d,s,x,y", "--missing", "category", "--rows", "50",
		"--out", "rel", "--force", "--accept-violations",
		"--public", "pd.csv", "--k", "3", "--alpha", "0.5", "--beta", "0.25", "--sampling-rate", "0.3", "--max-distortion", "0.2",
		"--queries", "12",
	})
	if err != nil {
		t.Fatal(err)
	}
	p := a.Project
	want := pipeline.Project{
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
	if a.Out != "rel" || !a.Force || !a.Accept || a.Public != "pd.csv" {
		t.Fatalf("out/force/accept/public: %+v", a)
	}
	// The flags run does not read, each under a command that reads it.
	e, err := parseArgs("eval", []string{"--original", "orig.csv", "--release", "reldir", "--range", "0.3"})
	if err != nil || e.Original != "orig.csv" || e.Release != "reldir" || e.RangeFrac != 0.3 {
		t.Fatalf("eval: %+v %v", e, err)
	}
	g, err := parseArgs("gen", []string{"--ratio", "4", "--hierarchies", "hdir"})
	if err != nil || g.Ratio != 4 || g.HierDir != "hdir" {
		t.Fatalf("gen: %+v %v", g, err)
	}
	if a.Rows != 50 || a.Seed != 7 || !a.SeedSet || a.Queries != 12 {
		t.Fatalf("gen/eval fields: %+v", a)
	}
	if len(a.Positional) != 0 || a.Config != "" || a.Help {
		t.Fatalf("positional %v config %q help %v", a.Positional, a.Config, a.Help)
	}
}

func TestParseArgsDefaults(t *testing.T) {
	a, err := parseArgs("run", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Project, pipeline.Project{Params: model.Values{}}) {
		t.Fatalf("project %+v", a.Project)
	}
	if a.Out != "" || a.Force || a.Accept || a.Rows != 0 || a.Seed != 0 || a.SeedSet || a.Ratio != 10 || a.Queries != 100 || a.RangeFrac != 0.1 {
		t.Fatalf("defaults %+v", a)
	}
	// --seed random: a parameter, but no fixed generator seed.
	a, err = parseArgs("gen", []string{"--seed", "random"})
	if err != nil || a.SeedSet || a.Seed != 0 || a.Project.Params["seed"] != "random" {
		t.Fatalf("seed random: %+v %v", a, err)
	}
	for _, h := range []string{"--help", "-h", "-help"} {
		a, err = parseArgs("run", []string{h})
		if err != nil || !a.Help {
			t.Fatalf("%s: %+v %v", h, a, err)
		}
	}
	// Single-dash and --flag=value forms work too.
	a, err = parseArgs("run", []string{"-qi=a,b", "--sa=s", "--fakes=2"})
	if err != nil || strings.Join(a.Project.Roles.QIs, ",") != "a,b" || a.Project.Roles.SA != "s" || a.Project.Params["fakes"] != "2" {
		t.Fatalf("= forms: %+v %v", a, err)
	}
	// A repeated list flag replaces, not appends.
	a, _ = parseArgs("run", []string{"--qi", "a,b", "--qi", "c"})
	if strings.Join(a.Project.Roles.QIs, ",") != "c" {
		t.Fatalf("repeated --qi: %v", a.Project.Roles.QIs)
	}
}

func TestParseArgsPositionalInterleaved(t *testing.T) {
	a, err := parseArgs("check", []string{"DIR", "--original", "F"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Positional, "|") != "DIR" || a.Original != "F" {
		t.Fatalf("positional %v original %q", a.Positional, a.Original)
	}
	a, err = parseArgs("query", []string{"--in", "x.csv", "AVG(s) WHERE g = 'F'", "--qi", "g", "extra", "--release", "r"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Positional, "|") != "AVG(s) WHERE g = 'F'|extra" || a.Project.Input != "x.csv" ||
		strings.Join(a.Project.Roles.QIs, ",") != "g" || a.Release != "r" {
		t.Fatalf("%+v", a)
	}
	a, err = parseArgs("gen", []string{"census", "--rows", "100", "--seed", "3", "--out", "c.csv"})
	if err != nil || strings.Join(a.Positional, "|") != "census" || a.Rows != 100 || a.Seed != 3 || !a.SeedSet || a.Out != "c.csv" || a.Project.Rows != 100 {
		t.Fatalf("gen: %+v %v", a, err)
	}
}

func TestParseArgsConfigMerge(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "project.json")
	base := pipeline.Project{
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
	// Save pins the hierarchies (issue 35.9); the flags leave the pins.
	base.Pins = map[string]pipeline.HierarchyPin{"a": {Builder: "flat"}, "b": {Builder: "binary"}}
	// No flags: the file as it is.
	a, err := parseArgs("run", []string{"--config", cfg})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Project, base) || a.Config != cfg {
		t.Fatalf("config alone:\n got %+v\nwant %+v", a.Project, base)
	}
	// Flags override what they set and keep the rest.
	a, err = parseArgs("run", []string{"--qi", "c", "--config", cfg, "--hierarchy", "b=ternary", "--hierarchy", "c=intervals:2",
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
	a, err = parseArgs("run", []string{"--config", cfg, "--in", "new.csv", "--sa", "b", "--id", "j", "--method", "m", "--variant", "w",
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
	if err := os.WriteFile(bad, []byte("{\"input\": 3}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseArgs("run", []string{"--config", bad}); err == nil {
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
		a, err := parseArgs(c.cmd, c.args)
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
	// The usage text's common flags are SPEC 2.5's, as the methods declare them.
	if got, want := standardFlags(), "--alpha --beta --k --max-distortion --sampling-rate --seed"; got != want {
		t.Errorf("common flags %q, want %q", got, want)
	}
	var b bytes.Buffer
	methodHelp(&b)
	for _, want := range []string{"method distribution", "--fakes", "--grouping", "--target", "--max-denominator", "--seed", "publishes: qi.csv, sa.csv, hierarchy.csv"} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("methodHelp lacks %q:\n%s", want, b.String())
		}
	}
}

// --max-cell -1 meant no limit: every value must be >= 1 byte. --queries
// must lie in [0, MaxQueries].
func TestParseArgsRefusesUnboundedCellsAndBadQueries(t *testing.T) {
	for _, args := range [][]string{{"--max-cell", "-1"}, {"--max-cell", "0"}, {"--queries", "-1"}, {"--queries", "100001"}} {
		_, err := parseArgs("run", args)
		pe := paramError(t, err)
		if pe.Param != strings.TrimPrefix(args[0], "--") {
			t.Errorf("%v: %v", args, err)
		}
	}
	a, err := parseArgs("run", []string{"--max-cell", "1", "--queries", "0"})
	if err != nil || a.Project.MaxCell != 1 || a.Queries != 0 {
		t.Fatalf("%+v %v", a, err)
	}
}

// A synthetic public table is sized by --public-rows, not by the input's
// --rows (universe-public must not shrink to |MT|).
func TestPublicRowsSizeTheGeneratedPublicTable(t *testing.T) {
	a, err := parseArgs("run", []string{"--rows", "300", "--public", "dataset:universe-public", "--public-rows", "900"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Project.Rows != 300 || a.Project.PublicRows != 900 {
		t.Fatalf("rows %d, public rows %d", a.Project.Rows, a.Project.PublicRows)
	}
	if _, err := parseArgs("run", []string{"--public-rows", "-1"}); err == nil || paramError(t, err).Param != "public-rows" {
		t.Fatalf("--public-rows -1: %v", err)
	}
}
