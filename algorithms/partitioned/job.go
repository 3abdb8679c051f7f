package partitioned

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"privlab/algorithms/attack"
	"privlab/algorithms/method"
	"privlab/algorithms/partitionplan"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/releasedir"
)

// Job is a partitioned run as each partition's worker sees it: the run's
// settings with every column's kind and every hierarchy pinned (so a
// partition reads its rows and generalizes them as the whole input
// would), the plan, the whole input's counts, and where the partitions'
// releases and audit records go. It is plain data (JSON), so a worker in
// another process can be handed it (algorithms/partitioned/beamrun).
type Job struct {
	Project pipeline.Project    `json:"project"`
	Columns []string            `json:"columns"`
	Plan    *partitionplan.Plan `json:"plan"`
	Whole   *model.Whole        `json:"whole"`
	// only is the input's one file as the survey loaded it (not sent to
	// workers): the spill reads it rather than the file again.
	only *model.Table
	// Release and Audits are the staging directories of the release and
	// of its audit records; Work holds the coordinator's files.
	Release string `json:"release"`
	Audits  string `json:"audits"`
	Work    string `json:"work"`
	Accept  bool   `json:"accept_violations"`
	Growth  bool   `json:"allow_growth"`
	Queries int    `json:"queries"`
	// PopulationMarginals are the whole population's value frequencies
	// (each partition reads its people from PopulationFile).
	PopulationMarginals     map[string]map[string]float64 `json:"population_marginals,omitempty"`
	PopulationMarginalsName string                        `json:"population_marginals_name,omitempty"`
	// PopulationRows are the population's people the plan places in
	// each partition.
	PopulationRows []int `json:"population_rows,omitempty"`
	// InputSHA256 is the input file's digest, for every partition's audit
	// record ("" for a dataset or a glob of shards).
	InputSHA256 string `json:"input_sha256,omitempty"`
}

// Stream is a partitioned run that never holds the whole input: the input
// (a file, dataset:NAME, or a glob of shards) is read once for the
// plan's sample and the whole input's counts, once more to put each row
// in its partition's file, and each partition is then loaded, run,
// exported, checked and attacked in turn, so memory holds one input file
// or one partition's run at a time.
func Stream(ctx context.Context, e pipeline.Env, proj pipeline.Project, dir string, opt Options) (*Result, error) {
	return runJob(ctx, e, proj, dir, opt, func(job *Job, files []string) ([]*releasedir.Manifest, error) {
		if err := job.spillPartitions(ctx, e, files); err != nil {
			return nil, err
		}
		return job.runPartitions(ctx, e, opt)
	})
}

// atOnce is how many partitions an in-process run runs at a time: one
// run leaves a core idle much of the time (its stages wait on each
// other), two fill both cores of the machine SPEC 8 budgets for, and
// memory holds two partitions' runs.
func atOnce() int { return max(1, min(2, runtime.GOMAXPROCS(0))) }

// smallPartitionHint adds to a parameter error of one partition that
// larger partitions may meet the parameter: the whole input's domain
// passed the same parameters before the plan was cut, so it is the
// partition's own rows that do not (too few, or too alike).
func smallPartitionHint(err error) error {
	pe, ok := err.(*model.ParamError)
	if !ok || pe.Param == "partitions" || pe.Param == "partition-rows" {
		return err
	}
	more := *pe
	more.Hint = strings.TrimPrefix(more.Hint+"; or fewer, larger partitions: this partition's own rows do not allow it", "; or ")
	return &more
}

// runPartitions runs the job's partitions from their files, atOnce at a
// time, and returns their manifests in partition order; the first error
// stops the others.
func (j *Job) runPartitions(ctx context.Context, e pipeline.Env, opt Options) ([]*releasedir.Manifest, error) {
	n := j.Plan.Partitions
	parts := make([]*releasedir.Manifest, n)
	errs := make([]error, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	for range atOnce() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				exp := opt.Export
				exp.Context = ctx
				if parts[i], errs[i] = j.runRecovered(ctx, e, i, exp); errs[i] != nil {
					cancel()
				}
			}
		}()
	}
send:
	for i := 0; i < n; i++ {
		if opt.Progress != nil {
			opt.Progress(i, n)
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break send
		}
	}
	close(next)
	wg.Wait()
	// The error that stopped the others, not theirs (context.Canceled).
	first := -1
	for i, err := range errs {
		if err != nil && (first < 0 || errors.Is(errs[first], context.Canceled) && !errors.Is(err, context.Canceled)) {
			first = i
		}
	}
	if first >= 0 {
		return nil, fmt.Errorf("partition %d of %d: %w", first+1, n, smallPartitionHint(errs[first]))
	}
	if err := ctx.Err(); err != nil && parts[n-1] == nil {
		return nil, err
	}
	return parts, nil
}

// runJob plans a partitioned run, has execute run its partitions (in
// this process, or on a Beam runner) and puts the release in place with
// the one manifest combined from theirs.
func runJob(ctx context.Context, e pipeline.Env, proj pipeline.Project, dir string, opt Options,
	execute func(job *Job, files []string) ([]*releasedir.Manifest, error)) (*Result, error) {
	if err := releasedir.CheckOut(dir, opt.Export.Force); err != nil {
		return nil, err
	}
	if opt.Export.Force {
		if err := checkReplaceable(dir); err != nil {
			return nil, err
		}
	}
	st, err := newStaging(dir)
	if err != nil {
		return nil, err
	}
	defer st.cleanup()
	job, err := Plan(ctx, e, proj, st, opt)
	if err != nil {
		return nil, err
	}
	files, err := Inputs(proj.Input)
	if err != nil {
		return nil, err
	}
	res := &Result{Plan: job.Plan}
	if res.Parts, err = execute(job, files); err != nil {
		return nil, err
	}
	if res.Manifest, err = combine(job.Plan, res.Parts); err != nil {
		return nil, err
	}
	if err := st.commit(res.Manifest, opt.Export.Force); err != nil {
		return nil, err
	}
	return res, nil
}

// Plan reads the input once and makes the job: the columns' kinds, the
// whole input's counts, the hierarchies built over its whole domain and
// pinned as files, and the plan's cuts chosen on a sample of its rows
// until each partition holds at most the options' rows, never leaving a
// half smaller than the method's group size k.
func Plan(ctx context.Context, e pipeline.Env, proj pipeline.Project, st *staging, opt Options) (*Job, error) {
	files, err := Inputs(proj.Input)
	if err != nil {
		return nil, err
	}
	seed, _, err := model.ParseSeed(proj.Params[model.SeedParam.Name])
	if err != nil {
		return nil, &model.ParamError{Param: model.SeedParam.Name, Value: proj.Params[model.SeedParam.Name], Reason: err.Error()}
	}
	digest := pipeline.StartInputDigest(&pipeline.Prepared{Project: proj})
	if len(files) > 1 {
		digest = nil
	}
	sv, err := surveyInputs(ctx, e, proj, files, seed)
	if err != nil {
		return nil, err
	}
	if sv.whole.Rows == 0 { // as a single run's Prepare says it
		return nil, &model.ParamError{Param: "missing", Value: proj.Missing, Reason: "every row has a missing value in a quasi-identifier or the sensitive attribute",
			Fixes: []model.Fix{{Setting: model.SetMissing, Value: "category", Why: "(categorical missing values are then kept as ?)"}}}
	}
	job := &Job{only: sv.only, Columns: sv.columns, Whole: sv.whole, Release: st.release, Audits: st.audits, Work: st.work,
		Accept: opt.Export.AcceptViolations, Growth: opt.Export.AllowGrowth, Queries: opt.Export.Queries, InputSHA256: digest.Sum()}
	kinds := sv.kinds()
	domain := filepath.Join(st.work, "domain.csv")
	if err := spill(domain, sv.columns, domainRows(sv, proj.Roles.IDs, min(sv.whole.Rows, 10000))); err != nil {
		return nil, err
	}
	d, err := e.LoadTableContext(ctx, spillProject(proj, domain, kinds))
	if err != nil {
		return nil, err
	}
	inputLines(d, sv.only)
	p0, err := e.Prepare(proj, d)
	if err != nil {
		return nil, err
	}
	if job.Project, err = pinHierarchies(proj, p0, kinds, st.work); err != nil {
		return nil, err
	}
	sample := filepath.Join(st.work, "sample.csv")
	if err := spill(sample, sv.qis, sv.sample); err != nil {
		return nil, err
	}
	qiKinds := map[string]string{}
	for _, q := range sv.qis {
		qiKinds[q] = kinds[q]
	}
	s, err := e.LoadTableContext(ctx, spillProject(proj, sample, qiKinds))
	if err != nil {
		return nil, err
	}
	maxRows, err := opt.MaxRows(sv.seen)
	if err != nil {
		return nil, err
	}
	minRows := 1
	if k, err := strconv.Atoi(p0.Values[method.GroupSizeParam]); err == nil && k > minRows {
		minRows = k
	}
	popt := partitionplan.Options{MaxRows: maxRows, MinRows: minRows, Hierarchies: p0.Hierarchies, TableRows: sv.seen}
	if opt.PartitionRows == 0 && opt.Partitions > 0 {
		popt.Partitions = opt.Partitions // exactly N, the largest cut first
	}
	if job.Plan, err = partitionplan.Build(s, pipeline.TableOrder(s, proj.Roles.QIs), popt, model.NewRand(seed^0x706172746974696f)); err != nil {
		return nil, err
	}
	return job, job.splitPopulation(e)
}

// inputLines gives the domain table's values the input lines they first
// appear on (only, the input's one file), or none (a glob of files, or a
// dataset): an error about a value (a hierarchy that lacks it) then names
// the input's line, never one of the run's own domain file.
func inputLines(d, only *model.Table) {
	for _, c := range d.Columns {
		var from *model.Column
		if only != nil {
			from = only.Column(c.Name)
		}
		first := map[string]int{}
		if from != nil {
			for code, v := range from.Dict {
				first[v] = from.FirstLine(code)
			}
		}
		lines := make([]int, len(c.Dict))
		for code, v := range c.Dict {
			lines[code] = first[v]
		}
		c.FirstLines = lines
	}
}

// pinHierarchies writes every hierarchy the run built (over the whole
// domain) as a file and names it in the project, with every column's kind:
// each partition then reads the same hierarchies, not its own.
func pinHierarchies(proj pipeline.Project, p *pipeline.Prepared, kinds map[string]string, work string) (pipeline.Project, error) {
	proj.Kinds = kinds
	proj.Hierarchies = map[string]string{}
	for i, attr := range p.Project.Roles.Used() {
		h := p.Hierarchies[attr]
		if h == nil {
			continue
		}
		path := filepath.Join(work, fmt.Sprintf("hierarchy-%d.csv", i))
		if err := spill(path, nil, h.Rows()); err != nil {
			return proj, err
		}
		proj.Hierarchies[attr] = path
	}
	return proj, nil
}

// PartFile is where partition i's rows are put.
func (j *Job) PartFile(i int) string { return filepath.Join(j.Work, PartDir(i)+".csv") }

// spillPartitions reads the input again, one file at a time, and appends
// each row to its partition's file.
func (j *Job) spillPartitions(ctx context.Context, e pipeline.Env, files []string) error {
	sp, err := newSplitPlanner(j.Plan, j.Columns)
	if err != nil {
		return err
	}
	outs := make([]*os.File, j.Plan.Partitions)
	writers := make([]*csv.Writer, j.Plan.Partitions)
	defer func() {
		for _, f := range outs {
			if f != nil {
				f.Close()
			}
		}
	}()
	for i := range outs {
		if outs[i], err = os.Create(j.PartFile(i)); err != nil {
			return err
		}
		writers[i] = csv.NewWriter(bufio.NewWriterSize(outs[i], 1<<16))
		if err := writers[i].Write(j.Columns); err != nil {
			return err
		}
	}
	for _, f := range files {
		t := j.only
		if t == nil {
			if t, err = e.LoadTableContext(ctx, fileProject(j.Project, f)); err != nil {
				return err
			}
		}
		for r := 0; r < t.Rows; r++ {
			row := rowTexts(t, r)
			if err := writers[sp.Assign(row)].Write(row); err != nil {
				return err
			}
		}
	}
	j.only = nil
	for i, w := range writers {
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		if err := outs[i].Close(); err != nil {
			return err
		}
		outs[i] = nil
	}
	return nil
}

// RunPartition loads partition i's rows from file, prepares them as the
// whole input would be (the pinned kinds and hierarchies, the whole
// input's counts, its own rows of the public table and the population,
// a seed of its own) and runs, exports, checks and attacks it into the
// job's staging directory (runPart).
func (j *Job) RunPartition(ctx context.Context, e pipeline.Env, i int, file string, exp pipeline.ExportOptions) (*releasedir.Manifest, error) {
	src, err := e.LoadTableContext(ctx, spillProject(j.Project, file, j.Project.Kinds))
	if err != nil {
		return nil, err
	}
	src.Name = j.Project.Input
	src = src.SelectRows(CanonicalOrder(src, nil))
	p, err := e.Prepare(j.Project, src)
	if err != nil {
		return nil, err
	}
	if p.Public != nil {
		rows, err := rowsByPart(p.Public, j.Plan)
		if err != nil {
			return nil, err
		}
		p.Public = p.Public.SelectRows(rows[i])
	}
	if err := j.partPopulation(e, p, i); err != nil {
		return nil, err
	}
	p.Whole = j.Whole
	p.Values = partValues(p.Values, i)
	p.IDBase = i * idStride(j.Whole.Rows)
	exp.AcceptViolations, exp.AllowGrowth, exp.Queries = j.Accept, j.Growth, j.Queries
	if j.InputSHA256 != "" {
		exp.InputDigest = pipeline.KnownInputDigest(j.Project.Input, j.InputSHA256)
	}
	return runPart(ctx, p, j, i, exp)
}

// partPopulation gives partition i its people of the run's population
// (the file the coordinator wrote, as the plan places them), attacked
// with the whole population's frequencies.
func (j *Job) partPopulation(e pipeline.Env, p *pipeline.Prepared, i int) error {
	if j.Project.Population == "" {
		return nil
	}
	if i < len(j.PopulationRows) && j.PopulationRows[i] == 0 {
		return &model.InputError{File: j.Project.Input, Msg: fmt.Sprintf("the population %s holds no person the plan places in partition %d, which holds %d rows of the data: it lacks some of the data's people, so membership would call people certainly in the data who are not",
			j.Project.Population, i+1, p.Source.Rows), Hint: populationHint}
	}
	pop, _, err := e.LoadPopulation(j.PopulationFile(i), nil, j.Project.MaxCell)
	if err != nil {
		return err
	}
	pop.Name = j.Project.Population // the user's file, not the partition's share
	p.Population = pop
	p.PopulationMarginals, p.PopulationMarginalsName = j.PopulationMarginals, j.PopulationMarginalsName
	err = attack.HoldsOriginal(p.Population, p.Source, p.Project.Roles.QIs)
	var ie *model.InputError
	if errors.As(err, &ie) && ie.File == p.Source.Name {
		ie.Line = 0 // a row of the partition, not a line of the input
	}
	return err
}

// populationHint is attack.HoldsOriginal's hint for a population that
// lacks people of the data.
const populationHint = "a population holds every person of the data (each original row needs a population row of its own with the same quasi-identifier values) and others: give one that does, or the original itself"

// PopulationFile is where partition i's people of the population are put.
func (j *Job) PopulationFile(i int) string {
	return filepath.Join(j.Work, PartDir(i)+".population.csv")
}

// splitPopulation reads the run's population once, states its value
// frequencies for every partition, and puts each person in their
// partition's population file (the plan places them by their QIs).
func (j *Job) splitPopulation(e pipeline.Env) error {
	if j.Project.Population == "" {
		return nil
	}
	pop, _, err := e.LoadPopulation(j.Project.Population, j.Project.PopulationColumns, j.Project.MaxCell)
	if err != nil {
		return err
	}
	j.PopulationMarginals, j.PopulationMarginalsName = pipeline.WholeMarginals(pop, j.Project.Roles)
	rows, err := rowsByPart(pop, j.Plan)
	if err != nil {
		return err
	}
	header := make([]string, len(pop.Columns))
	for c, col := range pop.Columns {
		header[c] = col.Name
	}
	j.PopulationRows = make([]int, len(rows))
	for i, part := range rows {
		j.PopulationRows[i] = len(part)
		texts := make([][]string, len(part))
		for k, r := range part {
			texts[k] = rowTexts(pop, r)
		}
		if err := spill(j.PopulationFile(i), header, texts); err != nil {
			return err
		}
	}
	return nil
}

// runRecovered is RunPartition with a panic turned into an error naming
// the partition; the partition's files go once it ran (its rows are in
// its release now: disk holds one copy).
func (j *Job) runRecovered(ctx context.Context, e pipeline.Env, i int, exp pipeline.ExportOptions) (m *releasedir.Manifest, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, model.Recovered(r, "in partition "+strconv.Itoa(i+1))
		}
	}()
	defer os.Remove(j.PartFile(i))
	defer os.Remove(j.PopulationFile(i))
	return j.RunPartition(ctx, e, i, j.PartFile(i), exp)
}

// idStride is the range of identifiers each partition numbers its groups
// in: the power of ten above the input's rows (a partition has fewer
// groups than rows), so partition i's identifiers are i*stride+1 ... and
// read as the partition's number followed by the group's.
func idStride(rows int) int {
	stride := 10
	for stride <= rows {
		stride *= 10
	}
	return stride
}
