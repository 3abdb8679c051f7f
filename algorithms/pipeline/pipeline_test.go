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
	"slices"
	"sort"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
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
	tb, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: name})
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
	res, err := Run(context.Background(), p, RunOptions{})
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
	// Save adds the pins of the hierarchies (issue 35.9).
	p.Pins = map[string]HierarchyPin{"a": {Builder: "binary"}, "b": {Builder: "intervals:5"}}
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
	// encoding/json alone keeps the last of repeated keys and reads "Input" as "input".
	{"repeated key", "{\n  \"input\": \"a.csv\",\n  \"input\": \"b.csv\"\n}\n", []int{3}, `key "input" is given twice`},
	{"key in another case", "{\n  \"Input\": \"a.csv\"\n}\n", []int{2}, `"Input"`},
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
			if ie.Hint != "the workbench writes this file when it saves the project" {
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

// A project saved with a UTF-8 byte order mark reads as without one.
func TestLoadProjectWithBOM(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	writeFile(t, path, "\xEF\xBB\xBF{\"method\": \"distribution\"}\n")
	p, err := LoadProject(path)
	if err != nil || p.Method != "distribution" {
		t.Fatalf("got %+v, %v", p, err)
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
	if pe := paramError(t, err); pe.Param != "missing" || pe.Reason != "every row has a missing value in a quasi-identifier or the sensitive attribute" ||
		!reflect.DeepEqual(pe.Fixes, []model.Fix{{Setting: model.SetMissing, Value: "category", Why: "(categorical missing values are then kept as ?)"}}) {
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
	// The stack goes into a file the message names, never to the
	// terminal.
	t.Setenv("TMPDIR", t.TempDir())
	res, err := Run(context.Background(), p, RunOptions{})
	if res != nil || err == nil {
		t.Fatalf("%v %v", res, err)
	}
	path, ok := strings.CutPrefix(err.Error(), "internal error in method boom: index out of range (please report it; details in ")
	path, ok2 := strings.CutSuffix(path, ")")
	if !ok || !ok2 || filepath.Dir(path) != os.Getenv("TMPDIR") || !strings.HasPrefix(filepath.Base(path), "privlab-crash-") {
		t.Fatalf("error %q: want the crash file named", err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "internal error: index out of range") || !strings.Contains(string(b), "panicMethod.Run") {
		t.Fatalf("crash file %s: %v\n%s", path, err, b)
	}
	// The same panic again: the same file.
	if _, err := Run(context.Background(), p, RunOptions{Preview: true}); err == nil || !strings.Contains(err.Error(), "details in ") {
		t.Fatalf("Run with Preview: %v", err)
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
	if _, err := Run(ctx, p, RunOptions{}); !errors.Is(err, context.Canceled) {
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

func readAudit(t *testing.T, dir string) releasedir.Audit {
	t.Helper()
	b, err := os.ReadFile(releasedir.AuditPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var a releasedir.Audit
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
	man, err := releasedir.ReadManifest(out)
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
	sum, _ := releasedir.FileSHA256(filepath.Join(dir, "employees.csv"))
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
	if err != nil || !rep.OK() || len(rep.Lines) != 26 { // the 19 of export, the names report.md binds, finished, the stated lines, the audit record's binding, the workload, the attacks and the warnings
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
	if !errors.Is(err, releasedir.ErrExists) {
		t.Fatalf("second export: %v", err)
	}
	if pe := paramError(t, err); pe.Param != "out" || !slices.ContainsFunc(pe.Fixes, func(f model.Fix) bool { return f.Setting == model.SetForce }) {
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
	bad.Release = func(seed uint64) (*releasedir.Release, map[string][]int, error) {
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
	var ve *releasedir.VerifyError
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
	man, _ := releasedir.ReadManifest(out)
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
	if _, err := os.Stat(releasedir.AuditPath(out)); err != nil {
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

// TestAnswer: Answer's figures (the command line's printing of them is
// tested in ui/cli).
func TestAnswer(t *testing.T) {
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
	if !r.HasTru || r.Truth.Value != 45000 || r.Truth.Count != 6 || !r.Answer.HasBounds || r.Answer.Low != 35000 || r.Answer.High != 55000 ||
		math.Abs(r.RelErr-20000.0/45000) > 1e-12 {
		t.Fatalf("%+v", r)
	}
	// Without the truth: no relative error.
	r, err = Answer("SUM(salary) WHERE zipcode BETWEEN 91300 AND 91399", nil, res.Answerer)
	if err != nil || r.HasTru || !math.IsNaN(r.RelErr) || r.Answer.Low != 140000 || r.Answer.High != 220000 {
		t.Fatalf("%+v %v", r, err)
	}
	// A zero truth has none either.
	r, err = Answer("COUNT(*) WHERE zipcode = 1", p.Table, res.Answerer)
	if err != nil || !r.Truth.Empty || !r.Answer.Empty || !math.IsNaN(r.RelErr) {
		t.Fatalf("%+v %v", r, err)
	}
	// A bad query is an error with its column.
	if _, err := Answer("AVG(salary WHERE", p.Table, res.Answerer); err == nil {
		t.Fatal("bad query accepted")
	} else if qe := (*query.Error)(nil); !errors.As(err, &qe) {
		t.Fatalf("bad query: %T %v", err, err)
	}
	if _, err := Answer("AVG(nosuch)", p.Table, res.Answerer); err == nil {
		t.Fatal("unknown column accepted")
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
	res := &method.Result{RowsIn: 100, Files: []releasedir.FileEntry{{Name: "qi.csv", Rows: 100}, {Name: "sa.csv", Rows: 300000}}}
	if f, g := Growth(res); f != "sa.csv" || g != 3000 {
		t.Fatalf("growth %s %v", f, g)
	}
	_, err := Export(&Prepared{}, res, filepath.Join(t.TempDir(), "rel"), ExportOptions{})
	pe := paramError(t, err)
	if pe.Param != "out" || pe.Reason != "sa.csv would hold 3000 times the input's 100 rows" || !reflect.DeepEqual(pe.Fixes, []model.Fix{{Setting: model.SetAllowGrowth, Why: "to write it anyway"}}) {
		t.Fatalf("%+v", pe)
	}
	// Below the floor, or within the factor: no question.
	for _, rows := range []int{MinGrowthRows, 1000} {
		if f, _ := Growth(&method.Result{RowsIn: 100, Files: []releasedir.FileEntry{{Name: "sa.csv", Rows: rows}}}); f != "" {
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
		res, err := Run(context.Background(), p, RunOptions{})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		dir := filepath.Join(t.TempDir(), "r")
		if _, err := Export(p, res, dir, ExportOptions{AcceptViolations: true}); err != nil {
			t.Fatalf("%s: export: %v", m, err)
		}
		audit, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
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

// TestExportFindingsReadThePopulation: the attacks, measured while the
// risk figures are (stateFindings), read the population the export
// loads first: membership runs on it; a population that does not load
// stops the export before anything is written.
func TestExportFindingsReadThePopulation(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	p.Project.Population = filepath.Join(dir, "employees.csv")
	res := run(t, p)
	ex, err := Export(p, res, filepath.Join(dir, "rel"), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]bool{}
	for _, a := range ex.Manifest.Attacks {
		ran[a.Attack] = a.NotRun == ""
	}
	if !ran["membership"] || len(ex.Manifest.Risk) == 0 || p.Population == nil {
		t.Fatalf("attacks %+v, risk %v", ex.Manifest.Attacks, ex.Manifest.Risk)
	}
	q := prepareFile(t, dir, "employees.csv", employees, figure2)
	q.Project.Population = filepath.Join(dir, "nobody.csv")
	_, err = Export(q, run(t, q), filepath.Join(dir, "rel2"), ExportOptions{})
	if err == nil || !strings.Contains(err.Error(), "nobody.csv") {
		t.Fatalf("missing population: %v", err)
	}
	if _, serr := os.Stat(filepath.Join(dir, "rel2")); !os.IsNotExist(serr) {
		t.Fatalf("a release was written: %v", serr)
	}
}

// TestPopulationBeforeTheRun: a population lacking one of the input's
// people is an input error naming the input's row before the run (issue
// 31, finding 5); a population the data is most of is warned of when the
// method promises a presence bound below that share (ambiguity's alpha),
// and not by a method that promises none.
func TestPopulationBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	const a8 = "age,zip,disease\n30,100,flu\n30,100,cold\n40,200,flu\n40,200,cold\n50,100,hiv\n50,100,cancer\n60,200,hiv\n60,200,cancer\n"
	project := func(m string) func(in string) Project {
		return func(in string) Project {
			return Project{Input: in, Method: m, Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"}, Params: model.Values{"alpha": "0.5", "beta": "0.5"}}
		}
	}
	p := prepareFile(t, dir, "a8.csv", a8, project("ambiguity"))
	writeFile(t, filepath.Join(dir, "short.csv"), "age,zip\n30,100\n30,100\n40,200\n")
	p.Project.Population = filepath.Join(dir, "short.csv")
	err := Env{}.LoadPopulationOf(p)
	var ie *model.InputError
	if !errors.As(err, &ie) || ie.File != filepath.Join(dir, "a8.csv") || ie.Line != 5 || p.Population != nil {
		t.Fatalf("a population lacking a person: %v", err)
	}
	writeFile(t, filepath.Join(dir, "pop9.csv"), a8+"30,200,flu\n")
	p.Project.Population = filepath.Join(dir, "pop9.csv")
	if err := (Env{}).LoadPopulationOf(p); err != nil {
		t.Fatal(err)
	}
	want := "the data holds 8 of the population's 9 people (0.8889), more than the presence bound alpha = 0.5 (Wang, Theorem 5.1): a release publishing them " +
		"puts each person it covers in the data with probability at least 0.8889, so no release can keep the bound (the membership attack measures it after the run)"
	if got := PopulationWarning(p); got != want {
		t.Errorf("warning:\n%s\nwant\n%s", got, want)
	}
	q := prepareFile(t, dir, "a8.csv", a8, func(in string) Project {
		return Project{Input: in, Method: "distribution", Roles: model.Roles{QIs: []string{"age", "zip"}, SA: "disease"}, Population: filepath.Join(dir, "pop9.csv")}
	})
	if err := (Env{}).LoadPopulationOf(q); err != nil || PopulationWarning(q) != "" {
		t.Errorf("a method without a presence bound: %v, %q", err, PopulationWarning(q))
	}
}
