package ui

import (
	"context"
	"errors"
	"sync/atomic"

	"privlab/ui/common"
)

// job is a pane's background computation (a sweep, a comparison): a
// sequence number so that only the latest one's answer is taken, the
// cancel of the running one (a new start or ctrl+x stops it), and its
// progress, written by the worker and read by the view.
type job struct {
	seq      int
	busy     bool
	cancel   context.CancelFunc
	progress *atomic.Value // float64
}

func newJob() job {
	j := job{progress: &atomic.Value{}}
	j.progress.Store(0.0)
	return j
}

// start stops the running computation and begins a new one: its context,
// sequence number and progress setter.
func (j *job) start() (context.Context, int, func(float64)) {
	j.stop()
	ctx, cancel := context.WithCancel(context.Background())
	j.cancel = cancel
	j.seq++
	j.busy = true
	j.progress.Store(0.0)
	prog := j.progress
	return ctx, j.seq, func(done float64) { prog.Store(done) }
}

// done takes the answer of computation seq: false when a newer one runs.
func (j *job) done(seq int) bool {
	if seq != j.seq {
		return false
	}
	j.busy = false
	return true
}

// stop cancels the running computation (its answer then says so).
func (j *job) stop() {
	if j.busy && j.cancel != nil {
		j.cancel()
	}
}

// forget stops the running computation and drops its answer when it
// comes (its settings are gone).
func (j *job) forget() {
	j.stop()
	j.seq++
	j.busy = false
}

// percent is the running computation's progress.
func (j *job) percent() float64 { return 100 * j.progress.Load().(float64) }

// stopped rewords a cancelled computation's error: what stopped it and
// how to run it again.
func stopped(err error, what string, k KeyMap, again string) error {
	if errors.Is(err, context.Canceled) {
		return errors.New(what + " stopped (" + common.KeyName(k.Cancel) + "): " + again)
	}
	return err
}
