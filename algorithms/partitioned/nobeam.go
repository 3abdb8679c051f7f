//go:build !beam

package partitioned

import (
	"context"

	"privlab/algorithms/pipeline"
	"privlab/model"
)

// BeamBuilt says this binary runs partitioned jobs on Beam (built with
// the beam tag).
const BeamBuilt = false

// RunOnBeam refuses: this binary was built without Apache Beam (the
// default build stays light; go build -tags beam adds it).
func RunOnBeam(ctx context.Context, e pipeline.Env, proj pipeline.Project, dir string, opt Options, endpoint string) (*Result, error) {
	return nil, &model.ParamError{Param: "runner", Reason: "this privlab was built without Apache Beam",
		Hint: "build it with the Beam runner: go build -tags beam . (or leave out the runner: the partitions then run in this process)"}
}

// ServeAsWorker is false: without Beam this binary is never a worker.
func ServeAsWorker(args []string) bool { return false }
