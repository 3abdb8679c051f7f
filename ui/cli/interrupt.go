package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"privlab/model/releasedir"
)

// interrupts is the process's Ctrl-C handling, installed before anything
// else runs (CatchInterrupts): the first SIGINT cancels the context every
// command's work runs under; a command that has not returned within
// interruptGrace (a step that does not look at the context), or a second
// Ctrl-C, ends the process with exit code 130, after the release being
// written is removed (releasedir.AbortWrites), so nothing is left behind.
var interrupts struct {
	once   sync.Once
	sig    chan os.Signal
	ctx    context.Context
	cancel context.CancelFunc
}

// CatchInterrupts installs the Ctrl-C handling (main calls it first
// thing, so that an interrupt at any moment ends the command with a
// message and exit code 130; Execute calls it too). Calls after the first
// do nothing.
func CatchInterrupts() {
	interrupts.once.Do(func() {
		interrupts.ctx, interrupts.cancel = context.WithCancel(context.Background())
		interrupts.sig = make(chan os.Signal, 2)
		signal.Notify(interrupts.sig, os.Interrupt)
		go onInterrupt(interrupts.sig, os.Stderr)
	})
}

// onInterrupt waits for the first Ctrl-C, cancels the commands' context
// and ends the process if the command does not end by itself in time.
func onInterrupt(sig chan os.Signal, stderr io.Writer) {
	<-sig
	interrupts.cancel()
	select {
	case <-sig:
	case <-time.After(interruptGrace):
	}
	if _, placed := releasedir.AbortWrites(); len(placed) > 0 {
		fmt.Fprintf(stderr, "privlab: interrupted after the release %s was written (it is complete)\n", strings.Join(placed, ", "))
	} else {
		fmt.Fprintln(stderr, "privlab: interrupted; nothing was written")
	}
	os.Exit(exitInterrupted)
}

// releaseInterrupts hands Ctrl-C over to the workbench, which reads it as
// a key (and a SIGINT as a request to quit, restoring the terminal).
func releaseInterrupts() {
	CatchInterrupts()
	signal.Stop(interrupts.sig)
}

// interruptCtx is the context a Ctrl-C cancels.
func interruptCtx() context.Context {
	CatchInterrupts()
	return interrupts.ctx
}

// interruptible returns a context that the first Ctrl-C cancels: the
// command stops, cleans up and exits with code 130 (see interrupts).
func interruptible(io.Writer) (context.Context, context.CancelFunc) {
	return context.WithCancel(interruptCtx())
}
