package cli

// The command line's scenarios are scripts (testdata/*.txtar) run
// against the real binary by github.com/rogpeppe/go-internal/testscript,
// as soft-serve's testscript/script_test.go runs its own: each sets up
// its files inline, runs `exec privlab ...` and matches stdout and stderr
// with regular expressions; `! exec` expects a failure and `exitcode N`
// checks which. The test binary is privlab: TestMain installs it in PATH
// under that name.

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"privlab/datasets"
	"privlab/model/csvfile"
	"privlab/model/source/sourcetest"
)

// exitFileEnv names the file the scripts' privlab writes its exit code
// to, for exitcode.
const exitFileEnv = "PRIVLAB_TEST_EXIT_FILE"

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"privlab": func() {
			code := Execute(os.Args[1:], os.Stdout, os.Stderr)
			if f := os.Getenv(exitFileEnv); f != "" {
				if err := os.WriteFile(f, []byte(strconv.Itoa(code)), 0o644); err != nil {
					fmt.Fprintln(os.Stderr, "privlab test: cannot record the exit code:", err)
				}
			}
			os.Exit(code)
		},
	})
}

func TestScripts(t *testing.T) {
	t.Parallel()
	shared, sharedErr := datasets.SharedDir()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			env.Setenv(exitFileEnv, filepath.Join(env.WorkDir, ".tmp", "privlab-exit"))
			env.Setenv(datasets.SharedDataEnv, shared)
			env.Setenv("SHARED_MISSING", fmt.Sprint(sharedErr))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "shareddata" {
				return sharedErr == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":  cmdExitCode,
			"groups":    cmdGroups,
			"copycol":   cmdCopyCol,
			"write":     cmdWrite,
			"lsdir":     cmdLsDir,
			"cmpbody":   cmdCmpBody,
			"csvcell":   cmdCSVCell,
			"mkformats": cmdMkFormats,
		},
	})
}

// exitcode N: the last privlab exited with code N (it recorded one: a
// process that died in a panic records none).
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	f := ts.Getenv(exitFileEnv)
	b, err := os.ReadFile(f)
	if err != nil {
		ts.Fatalf("privlab recorded no exit code (did it crash?): %v", err)
	}
	ts.Check(os.Remove(f))
	if got := string(b); got != args[0] {
		ts.Fatalf("privlab exited with code %s, want %s", got, args[0])
	}
}

// readCSVFile reads a CSV file of the script's work directory.
func readCSVFile(ts *testscript.TestScript, name string) [][]string {
	rows, err := csv.NewReader(strings.NewReader(ts.ReadFile(name))).ReadAll()
	ts.Check(err)
	return rows
}

// groups FILE: each group's published subdomains of a distribution
// release's sa.csv (GroupID,low,high), sorted, one group a line:
// "2: 30000-40000 30000-60000 50000-60000" (a single value for low=high).
func cmdGroups(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: groups FILE")
	}
	byGroup := map[string][]string{}
	for _, r := range readCSVFile(ts, args[0])[1:] {
		sub := r[1]
		if r[1] != r[2] {
			sub = r[1] + "-" + r[2]
		}
		byGroup[r[0]] = append(byGroup[r[0]], sub)
	}
	var names []string
	for g, subs := range byGroup {
		sort.Strings(subs)
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		fmt.Fprintf(ts.Stdout(), "%s: %s\n", g, strings.Join(byGroup[g], " "))
	}
}

// copycol FILE FROM TO: overwrite column TO with column FROM in every
// row but the header (columns count from 1): a tampered release.
func cmdCopyCol(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: copycol FILE FROM TO")
	}
	from, err1 := strconv.Atoi(args[1])
	to, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil {
		ts.Fatalf("copycol: columns are numbers")
	}
	rows := readCSVFile(ts, args[0])
	for _, r := range rows[1:] {
		r[to-1] = r[from-1]
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	ts.Check(w.WriteAll(rows))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
}

// write FILE TEXT: write TEXT, a Go string literal ("a,b\n1,\xff\n"), to
// FILE: bytes a txtar file should not hold.
func cmdWrite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: write FILE \"TEXT\"")
	}
	text, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644))
}

// lsdir DIR: the names in DIR, hidden ones too, sorted, one a line.
func cmdLsDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: lsdir DIR")
	}
	es, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range es {
		fmt.Fprintln(ts.Stdout(), e.Name())
	}
}

// cmpbody A B: A and B (a file, or stdout) agree after their first line
// (inspect's first line names its input).
func cmdCmpBody(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpbody A B")
	}
	_, a, _ := strings.Cut(ts.ReadFile(args[0]), "\n")
	_, b, _ := strings.Cut(ts.ReadFile(args[1]), "\n")
	if (a == b) == neg {
		ts.Fatalf("%s and %s after their first line: same %v, want %v\n%s\n--- vs ---\n%s", args[0], args[1], a == b, !neg, a, b)
	}
}

// csvcell FILE ROW COL: print a cell of a CSV file (row 0 is the header,
// columns count from 1).
func cmdCSVCell(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: csvcell FILE ROW COL")
	}
	row, err1 := strconv.Atoi(args[1])
	col, err2 := strconv.Atoi(args[2])
	rows := readCSVFile(ts, args[0])
	if err1 != nil || err2 != nil || row >= len(rows) || col < 1 || col > len(rows[row]) {
		ts.Fatalf("csvcell: no cell %s,%s in %s", args[1], args[2], args[0])
	}
	fmt.Fprintln(ts.Stdout(), rows[row][col-1])
}

// mkformats ROWS: the census dataset's ROWS rows (seed 7) as census.csv,
// census.xlsx (sheet people), census.parquet and census.db (tables people
// and extra).
func cmdMkFormats(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkformats ROWS")
	}
	rows, err := strconv.Atoi(args[0])
	ts.Check(err)
	d, err := datasets.Lookup("census")
	ts.Check(err)
	var b bytes.Buffer
	ts.Check(d.Write(&b, rows, 7))
	ts.Check(os.WriteFile(ts.MkAbs("census.csv"), b.Bytes(), 0o644))
	tb, err := csvfile.LoadFile(ts.MkAbs("census.csv"), csvfile.LoadOptions{})
	ts.Check(err)
	extra, err := csvfile.Load(strings.NewReader("id,note\n1,a\n2,b\n"), csvfile.LoadOptions{})
	ts.Check(err)
	ts.Check(sourcetest.WriteExcel(ts.MkAbs("census.xlsx"), "people", tb))
	ts.Check(sourcetest.WriteParquet(ts.MkAbs("census.parquet"), tb, 0))
	ts.Check(sourcetest.WriteSQLite(ts.MkAbs("census.db"), "people", tb))
	ts.Check(sourcetest.WriteSQLite(ts.MkAbs("census.db"), "extra", extra))
}
