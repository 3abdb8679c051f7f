package partitioned

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/partitionplan"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// Inputs lists the files of a partitioned run's input: a glob's matches
// in name order (shards, e.g. privlab gen --shards), or the input itself
// (a file or dataset:NAME).
func Inputs(input string) ([]string, error) {
	if !strings.ContainsAny(input, "*?[") {
		return []string{input}, nil
	}
	files, err := filepath.Glob(input)
	if err != nil {
		return nil, &model.ParamError{Param: "in", Value: input, Reason: err.Error()}
	}
	if len(files) == 0 {
		return nil, &model.ParamError{Param: "in", Value: input, Reason: "no file matches the pattern", Hint: "a glob of the input's shards, e.g. DIR/part-*.parquet"}
	}
	sort.Strings(files)
	return files, nil
}

// survey is what one read of the input gives the coordinator: the
// columns, their kinds, the whole input's counts and a uniform sample of
// its rows (as texts) for the plan.
type survey struct {
	columns []string
	numeric []bool
	whole   *model.Whole
	qis     []string
	sample  [][]string // the QIs of sampled rows
	seen    int
	rng     *model.Rand
	// only is the input's one file as loaded, kept for the spill when the
	// input is one file (it was held whole to be read anyway).
	only *model.Table
}

// surveyInputs reads every input file once (one file in memory at a
// time), counting the rows the missing-value policy keeps and keeping a
// reservoir sample of planSample rows (Vitter's Algorithm R).
func surveyInputs(ctx context.Context, e pipeline.Env, proj pipeline.Project, files []string, seed uint64) (*survey, error) {
	s := &survey{qis: proj.Roles.QIs, whole: &model.Whole{Counts: map[string]map[string]int{}}, rng: model.NewRand(seed ^ 0x73757276657921)}
	policy, err := model.ParseMissingPolicy(proj.Missing)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		t, err := e.LoadTableContext(ctx, fileProject(proj, f))
		if err != nil {
			return nil, err
		}
		if err := s.columnsOf(t, f); err != nil {
			return nil, err
		}
		kept, _ := t.HandleMissing(proj.Roles.Used(), policy)
		s.whole.Add(kept)
		used, err := usedColumns(t, proj.Roles)
		if err != nil {
			return nil, err
		}
		s.addSample(t, used, policy)
		if err := checkIdentifiers(t, f, proj.Roles.IDs, used, policy); err != nil {
			return nil, err
		}
		if len(files) == 1 {
			s.only = t
		}
	}
	return s, nil
}

// columnsOf takes the first file's columns and holds the others to them;
// a column is numeric when it is in every file.
func (s *survey) columnsOf(t *model.Table, file string) error {
	if s.columns == nil {
		for _, c := range t.Columns {
			s.columns = append(s.columns, c.Name)
			s.numeric = append(s.numeric, c.Kind == model.Numeric)
		}
		return nil
	}
	if len(t.Columns) != len(s.columns) {
		return &model.InputError{File: file, Msg: fmt.Sprintf("has %d columns, the first input file %d", len(t.Columns), len(s.columns)), Hint: "every shard of an input has the same columns"}
	}
	for i, c := range t.Columns {
		if c.Name != s.columns[i] {
			return &model.InputError{File: file, Msg: fmt.Sprintf("column %d is %q, in the first input file %q", i+1, c.Name, s.columns[i]), Hint: "every shard of an input has the same columns"}
		}
		s.numeric[i] = s.numeric[i] && c.Kind == model.Numeric
	}
	return nil
}

// addSample offers t's rows that the missing-value policy keeps to the
// reservoir, keeping their QIs only (the plan reads nothing else): the
// plan sizes partitions by the rows they will anonymize, so a partition
// never ends up with fewer than k rows once the dropped rows are gone.
func (s *survey) addSample(t *model.Table, used []*model.Column, policy model.MissingPolicy) {
	cols, _ := t.MustColumns("qi", s.qis)
	for r := 0; r < t.Rows; r++ {
		if dropsRow(used, r, policy) {
			continue
		}
		s.seen++
		if len(s.sample) < planSample {
			s.sample = append(s.sample, texts(cols, r))
		} else if j := s.rng.Intn(s.seen); j < planSample {
			s.sample[j] = texts(cols, r)
		}
	}
}

// checkIdentifiers refuses an identifier that repeats within one input
// file, as a single run does (with the file's own lines); a partition
// finds one that repeats across two files of a glob.
func checkIdentifiers(t *model.Table, file string, ids []string, used []*model.Column, policy model.MissingPolicy) error {
	if len(ids) == 0 {
		return nil
	}
	kept := make([]int, 0, t.Rows)
	for r := 0; r < t.Rows; r++ {
		if !dropsRow(used, r, policy) {
			kept = append(kept, r)
		}
	}
	return model.CheckIdentifiers(t, file, ids, kept)
}

// usedColumns are t's quasi-identifiers and sensitive attribute, each
// named as the parameter it is when t lacks it.
func usedColumns(t *model.Table, roles model.Roles) ([]*model.Column, error) {
	used, err := t.MustColumns("qi", roles.QIs)
	if err != nil || roles.SA == "" {
		return used, err
	}
	sa, err := t.MustColumns("sa", []string{roles.SA})
	return append(used, sa...), err
}

// dropsRow reports whether the policy drops row r (model.Table's
// HandleMissing: a missing value in a numeric column, or in any column
// under drop).
func dropsRow(used []*model.Column, r int, policy model.MissingPolicy) bool {
	for _, c := range used {
		if c.IsMissing(r) && (policy == model.DropMissing || c.Kind == model.Numeric) {
			return true
		}
	}
	return false
}

// texts is row r of the columns as texts ("" for a missing value).
func texts(cols []*model.Column, r int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		if !c.IsMissing(r) {
			out[i] = c.Value(r)
		}
	}
	return out
}

// rowTexts is row r of t as texts ("" for a missing value).
func rowTexts(t *model.Table, r int) []string { return texts(t.Columns, r) }

// kinds pins every column's kind as the survey found it over all files,
// so that every partition reads a column as the whole input does.
func (s *survey) kinds() map[string]string {
	out := map[string]string{}
	for i, name := range s.columns {
		out[name] = map[bool]string{true: "numeric", false: "categorical"}[s.numeric[i]]
	}
	return out
}

// fileProject is proj reading one file of its input.
func fileProject(proj pipeline.Project, file string) pipeline.Project {
	proj.Input = file
	return proj
}

// spillProject reads a file the coordinator wrote (a partition's rows, the
// sample, the domain): CSV with a header, the kinds pinned, "" missing.
func spillProject(proj pipeline.Project, file string, kinds map[string]string) pipeline.Project {
	proj.Input, proj.Columns, proj.Header, proj.Delimiter, proj.Kinds, proj.Rows = file, nil, "yes", ",", kinds, 0
	if len(proj.MissingValues) > 0 && !slices.Contains(proj.MissingValues, "") {
		proj.MissingValues = append(append([]string(nil), proj.MissingValues...), "")
	}
	return proj
}

// spill writes rows under a header as CSV to path.
func spill(path string, header []string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(bufio.NewWriterSize(f, 1<<16))
	if err := w.Write(header); err != nil {
		f.Close()
		return err
	}
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// domainRows are rows that hold every value the whole input holds in
// each column (column c's i-th value in row i, its last repeated below),
// at least minRows of them: the table hierarchy builders read, so that a
// built hierarchy spans the whole input, not a partition. Identifier
// columns get values of their own (they are dropped, never built on).
func domainRows(s *survey, ids []string, minRows int) [][]string {
	values := make([][]string, len(s.columns))
	rows := minRows
	for i, name := range s.columns {
		for v := range s.whole.Counts[name] {
			values[i] = append(values[i], v)
		}
		sort.Strings(values[i])
		rows = max(rows, len(values[i]))
	}
	out := make([][]string, rows)
	for r := range out {
		out[r] = make([]string, len(s.columns))
		for i, name := range s.columns {
			switch {
			case slices.Contains(ids, name):
				out[r][i] = fmt.Sprintf("domain-%d", r)
			case len(values[i]) > 0:
				out[r][i] = values[i][min(r, len(values[i])-1)]
			}
		}
	}
	return out
}

// splitPlanner assigns rows of the input's column layout to the plan's
// partitions.
type splitPlanner struct {
	plan *partitionplan.Plan
	cols []int // the plan's columns' indices in the input's layout
}

func newSplitPlanner(plan *partitionplan.Plan, columns []string) (*splitPlanner, error) {
	sp := &splitPlanner{plan: plan}
	for _, c := range plan.Columns {
		i := slices.Index(columns, c.Name)
		if i < 0 {
			return nil, fmt.Errorf("partition plan: the input has no column %q", c.Name)
		}
		sp.cols = append(sp.cols, i)
	}
	return sp, nil
}

// Assign is the partition of one row of the input's layout.
func (sp *splitPlanner) Assign(row []string) int {
	values := make([]string, len(sp.cols))
	for i, c := range sp.cols {
		values[i] = row[c]
	}
	return sp.plan.Assign(values)
}
