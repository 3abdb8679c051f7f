//go:build beam

package partitioned

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"privlab/algorithms/partitioned/beamrun"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/releasedir"
)

// workName is the partition work as beamrun knows it.
const workName = "privlab-partition"

// BeamBuilt says this binary runs partitioned jobs on Beam (built with
// the beam tag).
const BeamBuilt = true

func init() {
	beamrun.Register(workName, func(config []byte) (beamrun.Work, error) {
		var j Job
		if err := json.Unmarshal(config, &j); err != nil {
			return nil, err
		}
		sp, err := newSplitPlanner(j.Plan, j.Columns)
		if err != nil {
			return nil, err
		}
		return &beamWork{job: &j, sp: sp}, nil
	})
}

// workerEnv is the environment of workers in this process (Prism's
// loopback workers): the datasets a dataset:NAME public table or
// population names. A worker of another process reads files alone.
var (
	workerEnvMu sync.Mutex
	workerEnv   pipeline.Env
)

// beamWork is a partitioned run's work in a Beam worker: the plan places
// each row, and a partition's rows are written to its file and run as
// in-process runs run them (Job.RunPartition).
type beamWork struct {
	job *Job
	sp  *splitPlanner
}

func (w *beamWork) Assign(row []string) (int, error) {
	if len(row) != len(w.job.Columns) {
		return 0, fmt.Errorf("a row of %d cells, the input has %d columns", len(row), len(w.job.Columns))
	}
	return w.sp.Assign(row), nil
}

// running holds the partitions this process runs at once to atOnce(), as
// an in-process run does: a runner may hand a worker every partition
// together (Prism runs bundles in parallel), and each run holds its
// partition's tables.
var running = make(chan struct{}, atOnce())

func (w *beamWork) Partition(ctx context.Context, part int, rows [][]string) ([]byte, error) {
	select {
	case running <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-running }()
	file := w.job.PartFile(part)
	if err := spill(file, w.job.Columns, rows); err != nil {
		return nil, err
	}
	defer os.Remove(file)
	defer os.Remove(w.job.PopulationFile(part))
	workerEnvMu.Lock()
	e := workerEnv
	workerEnvMu.Unlock()
	m, err := w.job.RunPartition(ctx, e, part, file, pipeline.ExportOptions{Context: ctx})
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

// RunOnBeam is Stream with the partitions run as an Apache Beam pipeline
// (beamrun): on Prism in this process when endpoint is "", else on the
// runner behind that Beam job service (Flink's, Spark's). The input must
// be files (a CSV or Parquet file, or a glob of shards); the staging
// directories beside dir must be on a filesystem every worker sees.
func RunOnBeam(ctx context.Context, e pipeline.Env, proj pipeline.Project, dir string, opt Options, endpoint string) (*Result, error) {
	if strings.HasPrefix(proj.Input, "dataset:") {
		return nil, &model.ParamError{Param: "runner", Value: proj.Input, Reason: "a Beam run reads input files, not a generated dataset",
			Hint: "write the dataset to Parquet shards first (privlab gen writes them), then read their glob, DIR/part-*.parquet"}
	}
	workerEnvMu.Lock()
	workerEnv = e
	workerEnvMu.Unlock()
	return runJob(ctx, e, proj, dir, opt, func(job *Job, files []string) ([]*releasedir.Manifest, error) {
		cfg, err := json.Marshal(job)
		if err != nil {
			return nil, err
		}
		sums, err := beamrun.Run(ctx, beamrun.Job{Inputs: files, Work: workName, Config: cfg, Endpoint: endpoint, ScratchDir: job.Work, RowsThroughFiles: true})
		if err != nil {
			return nil, err
		}
		parts := make([]*releasedir.Manifest, job.Plan.Partitions)
		for i := range parts {
			b, ok := sums[i]
			if !ok {
				return nil, fmt.Errorf("partition %d of %d received no rows on the runner", i+1, len(parts))
			}
			var m releasedir.Manifest
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("partition %d: %w", i+1, err)
			}
			parts[i] = &m
		}
		return parts, nil
	})
}

// ServeAsWorker runs this process as a Beam worker when a runner started
// it as one (beamrun.ServeAsWorker: the arguments begin --worker=true),
// and reports whether it did; main calls it first.
func ServeAsWorker(args []string) bool { return beamrun.ServeAsWorker(args) }
