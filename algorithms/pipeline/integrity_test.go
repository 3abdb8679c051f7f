package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/model"
)

// Issue 25, item 11: a numeric value beyond ±1e15 in a column the run
// computes with is refused when the project is prepared, naming the
// file, line, column and value (it overflowed to "json: unsupported
// value: +Inf" at export, naming no place).
func TestPrepareRefusesHugeNumbers(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text, want string
		line       int
	}{
		{"age,sex,loss\n30,M,1e308\n40,F,-1e308\n35,M,5\n", "value 1e308 is beyond ±1e15", 2},
		{"age,sex,loss\n30,M,5\n40,F,-2e15\n35,M,5\n", "value -2e15 is beyond ±1e15", 3},
		{"age,sex,loss\n1e300,M,5\n40,F,7\n35,M,5\n", "column 1 (age): value 1e300", 2},
	} {
		in := filepath.Join(dir, "in.csv")
		writeFile(t, in, c.text)
		p := Project{Input: in, Method: "distribution", Roles: model.Roles{QIs: []string{"age", "sex"}, SA: "loss"}}
		src, err := Env{}.LoadTable(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Env{}.Prepare(p, src)
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != in || ie.Line != c.line || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q at line %d", c.text, err, c.want, c.line)
		}
	}
	// 1e15 itself, and a huge value in a column the run does not use, are
	// fine.
	prepareFile(t, dir, "ok.csv", "age,sex,loss,other\n30,M,1e15,1e308\n40,F,-1e15,1\n35,M,5,2\n", func(in string) Project {
		return Project{Input: in, Method: "distribution", Roles: model.Roles{QIs: []string{"age", "sex"}, SA: "loss"}, Params: model.Values{"seed": "1"}}
	})
}

// Issue 25, item 11: run --queries 0 was ignored while the manifest said
// 100. The export measures the workload it is asked for; 0 states that
// none was measured, and check holds the manifest to it.
func TestExportMeasuresTheWorkloadAskedFor(t *testing.T) {
	dir := t.TempDir()
	p := prepareFile(t, dir, "employees.csv", employees, figure2)
	res := run(t, p)
	for _, c := range []struct {
		queries, want int
	}{{0, DefaultQueries}, {NoQueries, 0}, {37, 37}} {
		out := filepath.Join(dir, fmt.Sprintf("rel-%d", c.queries))
		ex, err := Export(p, res, out, ExportOptions{Queries: c.queries})
		if err != nil {
			t.Fatal(err)
		}
		e := ex.Manifest.WorkloadError
		if e == nil || e.Queries != c.want || (c.want == 0) != (e.Measured == 0) {
			t.Fatalf("queries %d: the manifest states %+v, want %d queries", c.queries, e, c.want)
		}
		rep, err := Check(out, p.Source, nil)
		if err != nil || !rep.OK() {
			t.Fatalf("queries %d: check %v\n%s", c.queries, err, strings.Join(rep.Strings(), "\n"))
		}
		b, _ := os.ReadFile(filepath.Join(out, "report.md"))
		report := string(b)
		if c.want == 0 && !strings.Contains(report, "No random workload was measured (0 queries were asked for).") ||
			c.want > 0 && !strings.Contains(report, fmt.Sprintf("A random workload of %d ", c.want)) {
			t.Errorf("queries %d: report.md:\n%s", c.queries, report)
		}
	}
}
