//go:build beam

package beamrun

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

// TestMain lets this test binary serve as the worker of
// TestRunWithWorkerProcesses, as privlab's main will.
func TestMain(m *testing.M) {
	if ServeAsWorker(os.Args[1:]) {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestServeAsWorkerIgnoresOtherArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"run", "--worker=true"}, {"--worker=false"}, {"-test.v"}} {
		if ServeAsWorker(args) {
			t.Errorf("ServeAsWorker(%q) served", args)
		}
	}
}

// TestRunWithWorkerProcesses runs a job as a cluster does: submitted to
// a job service (a Prism of its own) whose workers are other processes,
// started by Beam's Go container boot program (built here from the Beam
// module, run through Prism's PROCESS environment), which fetches the
// staged worker binary (this test binary, as Run stages os.Executable())
// and starts it with --worker=true.
func TestRunWithWorkerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Beam's boot program")
	}
	dir := t.TempDir()
	boot := filepath.Join(dir, "boot")
	build := exec.Command("go", "build", "-o", boot, "github.com/apache/beam/sdks/v2/go/container")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building Beam's boot program: %v\n%s", err, out)
	}
	// Prism v2.78.0 passes the worker id as --id='ID', quotes included
	// (no shell in between); the boot program wants it bare.
	wrapper := filepath.Join(dir, "boot.sh")
	// It also writes pipeline_options.json into its working directory.
	script := "#!/bin/sh\nid=\"$1\"; shift\nid=$(printf '%s' \"$id\" | sed \"s/^--id='\\(.*\\)'$/--id=\\1/\")\ncd '" + dir + "' && exec '" + boot + "' \"$id\" \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := prism.CreateJobServer(ctx, prism.Options{Port: port}); err != nil {
		t.Fatal(err)
	}
	savedType, savedConfig := *jobopts.EnvironmentType, *jobopts.EnvironmentConfig
	*jobopts.EnvironmentType, *jobopts.EnvironmentConfig = "process", fmt.Sprintf(`{"command": %q}`, wrapper)
	defer func() { *jobopts.EnvironmentType, *jobopts.EnvironmentConfig = savedType, savedConfig }()

	inputs, rows := writeInputs(t, t.TempDir())
	work := thresholdWork{Thresholds: []float64{10, 20}, FailPart: -1}
	job := thresholdJob(t, work, inputs)
	job.Endpoint = fmt.Sprintf("localhost:%d", port)
	got, err := Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	want := expectedSummaries(t, &work, rows)
	if len(got) != len(want) {
		t.Fatalf("got %d partitions, want %d", len(got), len(want))
	}
	for part, b := range got {
		var s thresholdSummary
		if err := json.Unmarshal(b, &s); err != nil || !reflect.DeepEqual(s, want[part]) {
			t.Errorf("partition %d: got %s (%v), want %+v", part, b, err, want[part])
		}
	}
}
