// Command privlab is a terminal workbench for anonymizing microdata with
// the methods of five papers. With no arguments (or a file) it opens the
// workbench; its subcommands are the headless twins of every workbench
// action (SPEC Section 5). The command line lives in package ui/cli
// (flags, help, every command, exit codes and their scripted tests);
// privlab help lists the commands.
package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"privlab/ui/cli"
)

func main() {
	if cli.ServeAsWorker(os.Args[1:]) {
		return // a Beam runner started this binary as its worker (built with -tags beam)
	}
	cli.CatchInterrupts() // first: a Ctrl-C at any moment ends with a message and exit 130
	if len(os.Args) > 1 && cli.IsBatch(os.Args[1]) {
		batchGC()
	}
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}

// batchHeadroom is how far above the live heap a batch command's heap
// may grow between collections, at most (and never less than the
// default's: once the live heap itself).
const batchHeadroom = 512 << 20

// batchGC lets the garbage collector of a batch command (cli.IsBatch:
// one that runs once and exits; the workbench stays with Go's default
// collector) collect less often: a heap of up to five times the live one
// (GOGC=400) while that stays within batchHeadroom above it, down to
// Go's default (twice the live heap) for large tables, so that the peak
// memory of a million-row run grows by at most batchHeadroom. A GOGC or
// GOMEMLIMIT in the environment is the user's choice and is left alone.
// It re-tunes after every collection (a finalizer runs once per cycle).
func batchGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func(*[16]byte)
	tune = func(*[16]byte) {
		metrics.Read(sample)
		pct := 400
		if cli.LowMemory() {
			pct = 100 // a partitioned run keeps its memory to the partition's
		} else if live := sample[0].Value.Uint64(); live > 0 && live*4 > batchHeadroom {
			pct = max(100, int(batchHeadroom*100/live))
		}
		debug.SetGCPercent(pct)
		runtime.SetFinalizer(new([16]byte), tune)
	}
	debug.SetGCPercent(400)
	runtime.SetFinalizer(new([16]byte), tune)
}
