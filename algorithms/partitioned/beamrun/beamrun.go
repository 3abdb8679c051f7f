//go:build beam

// Package beamrun runs a partitioned job as an Apache Beam pipeline (Go
// SDK): on Prism inside this process, or on any runner behind a Beam
// portable job service (Flink's, Spark's). It is built only with
// the build tag beam, so the default build and tests never compile Beam.
//
// The pipeline is
//
//	Create(input files) -> ParDo(read, Work.Assign) -> KV<partition, batch of rows>
//	  -> GroupByKey -> ParDo(Work.Partition) -> KV<partition, summary>
//	  -> GroupByKey -> ParDo(write) -> one summary file per partition
//
// Beam's Go SDK has no way to hand a PCollection back to the program that
// launched the pipeline, so each partition's summary is written as a file
// into a directory the job owns and Run reads them once the pipeline has
// finished. On a cluster that directory must be on a filesystem the
// workers and the launcher both see (Job.ScratchDir).
//
// Rows do not travel one element each: a runner pays a fixed cost per
// element (Prism keeps each in its in-memory shuffle with a timestamp,
// window and heap entry), which for rows of a few short cells is many
// times the rows' own bytes. Sent as []string elements, 1M rows of three
// short cells took 8.2 s and 1.3 GB on Prism, mostly Prism's. The read
// stage instead packs up to 4096 rows of one partition into one []byte
// element (each cell length-prefixed; rowbatch.go): the same run takes
// 1.5 s and 0.28 GB. The partition stage decodes a batch into []string
// rows sharing one string, so a partition costs about its text plus one
// []string per row while Work.Partition runs.
package beamrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"

	"privlab/model/csvfile"
	"privlab/model/source"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Work is one partitioned job's logic, rebuilt in each worker from the
// job's config bytes (so a worker in another process — Flink or Spark
// through Beam's portable job service — can run it; the worker binary is
// this same binary).
type Work interface {
	// Assign returns the partition (0..n-1) of one input row (values in
	// the input's column order).
	Assign(row []string) (int, error)
	// Partition anonymizes, checks and attacks one partition from its
	// rows (any order) and returns a summary (opaque bytes, e.g. JSON) the
	// caller combines.
	Partition(ctx context.Context, part int, rows [][]string) ([]byte, error)
}

var (
	factoriesMu sync.RWMutex
	factories   = map[string]func(config []byte) (Work, error){}
)

// Register makes a Work factory known under name; call it from an init()
// of the package that defines the work (as Beam requires functions to be
// registered before beam.Init / pipeline construction). A remote worker
// runs this same binary, so the same init() registers it there too.
// Registering a name twice panics, as a second init() doing so is a
// programming error.
func Register(name string, factory func(config []byte) (Work, error)) {
	factoriesMu.Lock()
	defer factoriesMu.Unlock()
	if _, dup := factories[name]; dup {
		panic("beamrun: work " + name + " registered twice")
	}
	factories[name] = factory
}

// newWork builds the Work registered under name from config.
func newWork(name string, config []byte) (Work, error) {
	factoriesMu.RLock()
	factory, ok := factories[name]
	factoriesMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("beamrun: no work registered as %q (Register it from an init())", name)
	}
	w, err := factory(config)
	if err != nil {
		return nil, fmt.Errorf("beamrun: work %s: %w", name, err)
	}
	return w, nil
}

// Job is one partitioned run.
type Job struct {
	Inputs   []string // input files: CSV with a header row, or Parquet (*.parquet); all with the same columns
	Work     string   // a registered name
	Config   []byte   // handed to the factory in every worker
	Endpoint string   // "" runs on Prism in this process; otherwise a Beam portable job service address (host:port), as Flink's and Spark's job servers serve (Dataflow has none: docs/beam.md)
	// ScratchDir is where Run makes the job's own directory for the
	// partitions' summaries (removed when Run returns); "" is
	// os.TempDir(). With an Endpoint it must be on a filesystem the
	// workers see under the same path.
	ScratchDir string
	// RowsThroughFiles writes each batch of rows to a file in the job's
	// directory and has the runner shuffle only the file's name: a
	// runner that holds its shuffle in memory (Prism) then holds names,
	// not rows, so the job's memory no longer grows with its input. On a
	// cluster the directory must be shared, as it is for the summaries.
	RowsThroughFiles bool
}

// loadOptions is how every input is read: a header row, the delimiter
// detected, the default missing-value tokens (a missing cell reaches
// Assign and Partition as "").
var loadOptions = csvfile.LoadOptions{HeaderRow: csvfile.HeaderYes}

// Run executes the job and returns each partition's summary, by partition
// index. A partition that received no rows has no summary. An error in
// reading an input, in Assign or in Partition fails the pipeline, and Run
// returns it naming the input or the partition; a cancelled ctx stops it
// with ctx's error. Runs in one process take turns, as Beam's runners
// read their settings from package-level flags.
func Run(ctx context.Context, job Job) (map[int][]byte, error) {
	if len(job.Inputs) == 0 {
		return nil, errors.New("beamrun: the job has no inputs")
	}
	// The launcher builds the work once too, so an unknown name or a bad
	// config fails here rather than in every worker.
	if _, err := newWork(job.Work, job.Config); err != nil {
		return nil, err
	}
	first, err := source.Preview(job.Inputs[0], loadOptions, 1)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(job.ScratchDir, "beamrun-")
	if err != nil {
		return nil, fmt.Errorf("beamrun: scratch directory: %w", err)
	}
	defer os.RemoveAll(dir)

	p := buildPipeline(job, first.Names(), dir)
	if err := execute(ctx, p, job.Endpoint); err != nil {
		if failure := firstFailure(dir); failure != nil {
			return nil, failure
		}
		return nil, fmt.Errorf("beamrun: pipeline failed: %w", err)
	}
	return readSummaries(dir)
}

// buildPipeline lays out the job's pipeline; header is the first input's
// columns, which every input must have.
func buildPipeline(job Job, header []string, dir string) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	inputs := make([]any, len(job.Inputs))
	for i, in := range job.Inputs {
		inputs[i] = in
	}
	files := beam.Create(s.Scope("inputs"), inputs...)
	rows := beam.ParDo(s.Scope("assign"), &readFn{Work: job.Work, Config: job.Config, Header: header, Dir: dir, ThroughFiles: job.RowsThroughFiles}, files)
	parts := beam.GroupByKey(s.Scope("group"), rows)
	summaries := beam.ParDo(s.Scope("partition"), &partitionFn{Work: job.Work, Config: job.Config, Dir: dir}, parts)
	beam.ParDo0(s.Scope("summaries"), &summaryFn{Dir: dir}, beam.GroupByKey(s.Scope("gather"), summaries))
	return p
}

// readSummaries reads the summary files the partitions wrote into dir.
func readSummaries(dir string) (map[int][]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("beamrun: summaries: %w", err)
	}
	out := map[int][]byte{}
	for _, e := range entries {
		var part int
		if _, err := fmt.Sscanf(e.Name(), summaryPattern, &part); err != nil || e.Name() != fmt.Sprintf(summaryPattern, part) {
			continue
		}
		b, err := os.ReadFile(dir + string(os.PathSeparator) + e.Name())
		if err != nil {
			return nil, fmt.Errorf("beamrun: summary of partition %d: %w", part, err)
		}
		out[part] = b
	}
	return out, nil
}

// firstFailure is the error a failed stage recorded in dir (the first
// by name, so the same failures always give the same error), or nil.
func firstFailure(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var notes []string
	for _, e := range entries {
		if isFailureNote(e.Name()) {
			notes = append(notes, e.Name())
		}
	}
	if len(notes) == 0 {
		return nil
	}
	sort.Strings(notes)
	b, err := os.ReadFile(dir + string(os.PathSeparator) + notes[0])
	if err != nil {
		return nil
	}
	return errors.New(string(b))
}
