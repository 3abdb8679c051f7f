package ui

import (
	"context"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/ui/common"
)

// State is what the root and its dialogs read and edit: the panes'
// common state (the session, keys, styles).
type State struct {
	*common.State
}

// progressMark is the progress of one run: its sequence number, the
// fraction done and when it started (for the time left).
type progressMark struct {
	seq   int
	f     float64
	start time.Time
	est   float64 // the method's estimate of the run's seconds
	// running is false while the run is prepared (hierarchies built,
	// parameters validated, the public table read), which reports no
	// fraction.
	running bool
}

// messages of the background work ------------------------------------

type loadedMsg struct {
	seq     int
	changes int // State.Changes when the load was started
	table   *model.Table
	err     error
}

type debounceMsg struct{ seq int }

type resultMsg struct {
	seq     int
	changes int // State.Changes when the run was started
	prep    *pipeline.Prepared
	res     *method.Result
	err     error
	elapsed time.Duration
}

// loadCmd loads the project's table off the UI goroutine; the context is
// cancelled when a newer load supersedes it.
func loadCmd(ctx context.Context, env pipeline.Env, p pipeline.Project, seq, changes int) tea.Cmd {
	return common.Guarded(func() tea.Msg {
		t, err := env.LoadTableContext(ctx, p)
		return loadedMsg{seq: seq, changes: changes, table: t, err: err}
	}, func(err error) tea.Msg { return loadedMsg{seq: seq, changes: changes, err: err} })
}

// runCmd prepares and runs the method on a snapshot of the project; the
// context is cancelled when a newer change supersedes it.
func runCmd(ctx context.Context, env pipeline.Env, p pipeline.Project, t *model.Table, seq, changes int, progress *atomic.Value, now func() time.Time) tea.Cmd {
	return common.Guarded(func() tea.Msg {
		start := now()
		prep, err := env.Prepare(p, t)
		if err != nil {
			return resultMsg{seq: seq, changes: changes, err: err}
		}
		est, _ := pipeline.Estimate(prep)
		progress.Store(progressMark{seq, 0, start, est, true})
		// Deferred figures come after the groups are on screen (deferredCmd).
		res, err := pipeline.Run(ctx, prep, pipeline.RunOptions{Preview: true, Progress: func(f float64) { progress.Store(progressMark{seq, f, start, est, true}) }})
		if err != nil {
			return resultMsg{seq: seq, changes: changes, prep: prep, err: err}
		}
		if res.Spec.Name == "" {
			res.Spec = prep.Method.Spec() // the result is drawn under its own method's headings
		}
		return resultMsg{seq: seq, changes: changes, prep: prep, res: res, elapsed: now().Sub(start)}
	}, func(err error) tea.Msg { return resultMsg{seq: seq, changes: changes, err: err} })
}

// workloadMsg carries the live workload's error for run seq.
type workloadMsg struct {
	seq int
	w   *workload.Result
}

// deferredMsg carries the figures a method computes after its result
// (method.Result.Deferred) for run seq.
type deferredMsg struct {
	seq  int
	figs []releasedir.Figure
}

// deferredCmd computes the result's deferred figures in the background.
func deferredCmd(ctx context.Context, res *method.Result, seq int) tea.Cmd {
	if res.Deferred == nil {
		return nil
	}
	return common.Guarded(func() tea.Msg {
		figs, err := res.Deferred(ctx)
		if err != nil {
			return deferredMsg{seq: seq}
		}
		return deferredMsg{seq: seq, figs: figs}
	}, func(error) tea.Msg { return deferredMsg{seq: seq} })
}

type riskMsg struct {
	seq int
	rep *risk.Report
	// single counts the records in classes with one sensitive value.
	single int
}

// riskCmd measures the result's release as an attacker would read it once
// published (built in memory, read by the method's viewer: the build the
// attacks read, pipeline.Preview), after the groups are on screen.
func riskCmd(ctx context.Context, pv *pipeline.Preview, threshold float64, seq int) tea.Cmd {
	return common.Guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return riskMsg{seq: seq}
		}
		rep, v, err := pv.Risk(ctx, threshold)
		if err != nil {
			return riskMsg{seq: seq}
		}
		return riskMsg{seq: seq, rep: rep, single: pipeline.Single(v)}
	}, func(error) tea.Msg { return riskMsg{seq: seq} })
}

// workloadCmd answers the live workload after the groups are on screen, so
// the utility figure never delays the preview.
func workloadCmd(ctx context.Context, env pipeline.Env, prep *pipeline.Prepared, res *method.Result, seq int) tea.Cmd {
	if res.Answerer == nil || res.Workload == "" {
		return nil
	}
	return common.Guarded(func() tea.Msg {
		if ctx.Err() != nil {
			return workloadMsg{seq: seq}
		}
		// The queries and their true answers are kept while the table
		// and roles stay (the session.s Cache, Env.PreviewEval).
		w, err := env.PreviewEval(ctx, prep, res, workload.Options{Queries: common.PreviewQueries, Range: 0.1, Seed: 1})
		if err != nil {
			return workloadMsg{seq: seq}
		}
		return workloadMsg{seq: seq, w: &w}
	}, func(error) tea.Msg { return workloadMsg{seq: seq} })
}

// Styles is the workbench's one style sheet (common.Styles), named
// here for the panes not yet in packages of their own.
type Styles = common.Styles

// KeyMap holds every key binding of the workbench (common.KeyMap).
type KeyMap = common.KeyMap
