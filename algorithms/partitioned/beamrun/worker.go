//go:build beam

package beamrun

import (
	"flag"
	"os"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	harnessinit "github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/harness/init"
)

// ServeAsWorker makes this process a Beam worker when a runner started it
// as one, and reports whether it did; main calls it first with
// os.Args[1:] and exits when it returns true. Beam's Go container (and
// Prism's PROCESS environment through it) runs the staged binary as
//
//	BINARY --worker=true --id=... --logging_endpoint=... --control_endpoint=... --semi_persist_dir=...
//
// (v2.78.0 go/container/boot.go). For any other arguments it returns
// false at once. For a worker it parses Beam's flags (on
// flag.CommandLine; a malformed one exits with status 2, as flag does)
// and runs the worker harness until the runner ends the job (the process
// exits when its parent, the boot program, has gone). The DoFns
// it runs rebuild the job's Work from the names Register gave them, so
// the worker must be this same binary.
func ServeAsWorker(args []string) bool {
	// Beam's -worker=true or --worker=true (its flag, not privlab's).
	if len(args) == 0 || !isWorkerFlag(args[0]) {
		return false
	}
	_ = flag.CommandLine.Parse(args) // ExitOnError: a malformed flag exits
	// Return, not Beam's default of exiting or waiting to be killed, so
	// the worker ends with its job and the caller decides the exit.
	harnessinit.ShutdownMode = harnessinit.Return
	// After a job that went well, Beam's harness waits to be killed, as a
	// container is torn down around it; a worker whose parent (the boot
	// program, which a runner stops at the job's end) has gone exits.
	go exitWithParent(os.Getppid())
	beam.Init()
	return true
}

func exitWithParent(parent int) {
	for range time.Tick(time.Second) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}

// isWorkerFlag reports whether arg is Beam's worker flag, written with one
// dash or two.
func isWorkerFlag(arg string) bool {
	dashes := len(arg) - len(strings.TrimLeft(arg, "-"))
	return (dashes == 1 || dashes == 2) && arg[dashes:] == "worker=true"
}
