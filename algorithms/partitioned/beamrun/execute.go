//go:build beam

package beamrun

import (
	"context"
	"os"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

var (
	// runMu serialises pipeline submissions: Beam's Go runners read the
	// job service address and the worker environment from package-level
	// flags (jobopts), which each Run sets.
	runMu sync.Mutex
	// prismEndpoint is the in-process Prism job service's address once
	// the first Prism run has started it; later runs reuse it.
	prismEndpoint string
	initOnce      sync.Once
)

// execute runs p to completion: on the in-process Prism runner when
// endpoint is "", with its workers on the loopback interface of this
// process, otherwise on the portable job service at endpoint, whose
// workers run this binary in the environment the Beam flags
// (-environment_type, -environment_config) name.
func execute(ctx context.Context, p *beam.Pipeline, endpoint string) error {
	initOnce.Do(func() {
		// Prism logs every job's progress at info level on stderr (through
		// slog's default logger, which beam.Init replaces); privlab's
		// output is its own, so only warnings and errors are logged.
		beamlog.LogLevel = "warn"
		// beam.Init runs the worker harness when the binary was started
		// as a worker (-worker, parsed by flag.Parse); in the launcher it
		// only marks Beam initialised, which the runners require.
		beam.Init()
	})
	runMu.Lock()
	defer runMu.Unlock()
	savedEndpoint, savedEnvironment := *jobopts.Endpoint, *jobopts.EnvironmentType
	defer func() { *jobopts.Endpoint, *jobopts.EnvironmentType = savedEndpoint, savedEnvironment }()

	if endpoint != "" {
		*jobopts.Endpoint = endpoint
		if *jobopts.WorkerBinary == "" {
			// Without -worker_binary, Beam v2.78.0 compiles the calling
			// program's source for linux/amd64 on the fly; the worker is
			// this binary instead (built with -tags beam, for the workers'
			// platform).
			self, err := os.Executable()
			if err != nil {
				return err
			}
			*jobopts.WorkerBinary = self
			defer func() { *jobopts.WorkerBinary = "" }()
		}
		_, err := universal.Execute(ctx, p)
		return err
	}
	*jobopts.Endpoint, *jobopts.EnvironmentType = prismEndpoint, "loopback"
	_, err := prism.Execute(ctx, p)
	prismEndpoint = *jobopts.Endpoint
	return err
}
