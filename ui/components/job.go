package components

import (
	"context"
	"errors"
	"sync/atomic"

	"privlab/ui/common"
)

// Job is a pane's background computation (a sweep, a comparison): a
// sequence number so that only the latest one's answer is taken, the
// cancel of the running one (a new start or ctrl+x stops it), and its
// progress, written by the worker and read by the view.
type Job struct {
	seq int
	// Busy is true while the computation runs.
	Busy     bool
	cancel   context.CancelFunc
	progress *atomic.Value // float64
}

// NewJob is a job that never ran.
func NewJob() Job {
	j := Job{progress: &atomic.Value{}}
	j.progress.Store(0.0)
	return j
}

// Start stops the running computation and begins a new one: its context,
// sequence number and progress setter.
func (j *Job) Start() (context.Context, int, func(float64)) {
	j.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	j.cancel = cancel
	j.seq++
	j.Busy = true
	j.progress.Store(0.0)
	prog := j.progress
	return ctx, j.seq, func(done float64) { prog.Store(done) }
}

// Done takes the answer of computation seq: false when a newer one runs.
func (j *Job) Done(seq int) bool {
	if seq != j.seq {
		return false
	}
	j.Busy = false
	return true
}

// Stop cancels the running computation (its answer then says so).
func (j *Job) Stop() {
	if j.Busy && j.cancel != nil {
		j.cancel()
	}
}

// Forget stops the running computation and drops its answer when it
// comes (its settings are gone).
func (j *Job) Forget() {
	j.Stop()
	j.seq++
	j.Busy = false
}

// Percent is the running computation's progress.
func (j *Job) Percent() float64 { return 100 * j.progress.Load().(float64) }

// Stopped rewords a cancelled computation's error: what stopped it and
// how to run it again.
func Stopped(err error, what string, k common.KeyMap, again string) error {
	if errors.Is(err, context.Canceled) {
		return errors.New(what + " stopped (" + common.KeyName(k.Cancel) + "): " + again)
	}
	return err
}
