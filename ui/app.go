package ui

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/tour"
	"privlab/model"
	"privlab/ui/common"
	"privlab/ui/panes/advisor"
	"privlab/ui/panes/compare"
	"privlab/ui/panes/data"
	"privlab/ui/panes/export"
	"privlab/ui/panes/hierarchy"
	"privlab/ui/panes/params"
	"privlab/ui/panes/preview"
	"privlab/ui/panes/query"
	"privlab/ui/panes/release"
	"privlab/ui/panes/sweep"
	"privlab/ui/panes/target"
	tourpane "privlab/ui/panes/tour"
	"privlab/ui/session"
)

// pane is one screen of the workbench. Only the active pane gets keys;
// results and sizes reach every pane through refresh.
type pane interface {
	title() string
	// update handles a key (or a message addressed to the pane).
	update(msg tea.Msg) tea.Cmd
	view(w, h int) string
	// capturing is true while a text input has focus: it then gets every key.
	capturing() bool
	shortHelp() []key.Binding
	fullHelp() []key.Binding
	// refresh is called after a new table or result arrived.
	refresh()
}

// debounce is how long the preview waits after a change that follows
// another closely (keys typed fast or held down), so that their runs
// are one. A lone change, the first after a pause of lone, runs at once:
// runs are cancellable, so a key that follows it costs a cancelled run,
// never a wait (issue 20: the preview settles within SPEC 8's budget
// after the last key).
const (
	debounce = 30 * time.Millisecond
	lone     = 100 * time.Millisecond
)

// App is the root model of the workbench.
type App struct {
	st     *State
	panes  []pane
	active int
	width  int
	height int

	help    help.Model
	showAll bool
	spin    spinner.Model
	// ticking is set while a chain of spinner ticks is under way (one at
	// most): it starts when something starts running and ends at the
	// first tick after it stopped.
	ticking bool

	// background work: a sequence number per kind; results with another
	// number are stale and dropped.
	loadSeq int
	// loadStop cancels the load under way (a newer one supersedes it).
	loadStop context.CancelFunc
	runSeq   int
	relSeq   int // received releases: only the last one opened is shown
	cancel   context.CancelFunc
	runCtx   context.Context // the running computation's context (tests look at it)
	// lastChange is when the last run was asked for (the debounce's
	// clock: wall time, as the tick's); debounceFor is the debounce
	// (tests that step through keys set it to 0: they coalesce nothing).
	lastChange  time.Time
	debounceFor time.Duration

	eta etaTracker // the running computation's time left

	dialog dialog // overlay (quit confirm, pickers, save prompt), or nil
	quit   bool
}

// dialog is a modal overlay; its keys are the footer's while it is open.
type dialog interface {
	update(msg tea.Msg) (done bool, cmd tea.Cmd)
	view(w, h int) string
	help() []key.Binding
}

// NewApp builds the workbench for a project. The table loads in the
// background as soon as the program starts. The session keeps the files
// it reads again (the population each preview attacks with) in its own
// pipeline.Cache.
func NewApp(env pipeline.Env, p pipeline.Project) *App {
	env.Cache = &pipeline.Cache{}
	st := &State{State: &common.State{Session: session.Session{Env: env, Progress: &atomic.Value{}}, Styles: common.DefaultStyles(), Keys: common.DefaultKeyMap(), Now: time.Now}}
	st.Progress.Store(progressMark{})
	if p.Params == nil {
		p.Params = model.Values{}
	}
	st.Project = env.WithDefaults(p)
	st.ParkPublic()
	st.NeedLoad = true
	a := &App{st: st, help: help.New(), spin: spinner.New(spinner.WithSpinner(spinner.MiniDot)), debounceFor: debounce}
	live := preview.New(st.State)
	a.panes = []pane{
		componentPane{data.New(st.State)},
		componentPane{hierarchy.New(st.State)},
		componentPane{target.New(st.State)},
		componentPane{params.New(st.State)},
		componentPane{live},
		componentPane{query.New(st.State)},
		componentPane{export.New(st.State)},
		componentPane{sweep.New(st.State)},
		componentPane{compare.New(st.State)},
		componentPane{advisor.NewPane(st.State)},
		componentPane{release.New(st.State)},
		componentPane{tourpane.New(st.State, live)},
	}
	a.active = common.PanePreview
	if p.Roles.SA == "" && len(p.Roles.QIs) == 0 && st.Project.Roles.SA == "" {
		a.active = common.PaneData // a plain file: roles come first
	}

	return a
}

// Init starts loading the table (and computing a tour's steps when the
// workbench opens on a tour).
func (a *App) Init() tea.Cmd {
	var tourSteps tea.Cmd
	if tr := a.st.Tour; tr != nil && tr.Steps == nil && tr.Err == nil {
		tourSteps = tourStepsCmd(a.st.Env, tr.Tour)
	}
	cmd := tea.Batch(a.schedule(), tourSteps)
	if a.spinning() {
		a.ticking = true
		cmd = tea.Batch(cmd, a.spin.Tick)
	}
	return cmd
}

// startLoad cancels the load under way, whose table would be dropped,
// and returns the context of the next one.
func (a *App) startLoad() context.Context {
	a.stopLoad()
	ctx, cancel := context.WithCancel(context.Background())
	a.loadStop = cancel
	return ctx
}

// stopLoad cancels the load under way, if any.
func (a *App) stopLoad() {
	if a.loadStop != nil {
		a.loadStop()
		a.loadStop = nil
	}
}

// schedule starts whatever the state asks for: a load, or a debounced run.
func (a *App) schedule() tea.Cmd {
	st := a.st
	if st.ReceivedDir != "" {
		// A received release is read once the original (if any) is in.
		st.NeedRun = false
		if st.NeedLoad && st.Project.Input != "" {
			st.NeedLoad = false
			a.loadSeq++
			st.Loading = true
			return loadCmd(a.startLoad(), st.Env, st.Project.Clone(), a.loadSeq, st.Changes)
		}
		st.NeedLoad = false
		if !st.AskedRelease && !st.Loading {
			st.AskedRelease = true
			a.relSeq++
			if st.Table == nil && st.Project.Input == "" {
				// No original given: the audit record beside the release
				// names it, as when the release is picked with ctrl+o.
				return receiveCmd(st.Env, st.ReceivedDir, a.relSeq)
			}
			return openReleaseCmd(st.ReceivedDir, st.OriginalFor(), a.relSeq)
		}
		return nil
	}
	switch {
	case st.NeedLoad:
		st.NeedLoad, st.NeedRun = false, false
		a.cancelRun()
		a.runSeq++ // a run of the old table is not this table's result
		st.Running = false
		a.loadSeq++
		st.Loading = true
		return loadCmd(a.startLoad(), st.Env, st.Project.Clone(), a.loadSeq, st.Changes)
	case st.NeedRun:
		st.NeedRun = false
		a.cancelRun() // a newer change supersedes the running computation
		a.runSeq++
		seq := a.runSeq
		st.Running = true
		wait := a.wait(time.Now())
		if wait == 0 {
			return func() tea.Msg { return debounceMsg{seq: seq} }
		}
		return tea.Tick(wait, func(time.Time) tea.Msg { return debounceMsg{seq: seq} })
	}
	return nil
}

// wait is how long a run asked for at now waits (debounce): nothing for
// a lone change, the debounce for one within lone of the one before.
func (a *App) wait(now time.Time) time.Duration {
	last := a.lastChange
	a.lastChange = now
	if !last.IsZero() && now.Sub(last) < lone {
		return a.debounceFor
	}
	return 0
}

func (a *App) cancelRun() {
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
	}
}

// startRun launches the computation for the current run sequence.
func (a *App) startRun() tea.Cmd {
	st := a.st
	if st.Table == nil {
		st.Running = false
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel, a.runCtx = cancel, ctx
	st.Running = true
	st.Progress.Store(progressMark{seq: a.runSeq, start: st.Now()})
	return runCmd(ctx, st.Env, st.RunProject(), st.Table, a.runSeq, st.Changes, st.Progress, st.Now)
}

// landResult shows the result of the current run (or its error) and
// starts measuring it: the workload, the risk figures, the deferred
// figures.
func (a *App) landResult(msg resultMsg) tea.Cmd {
	st := a.st
	st.Running = false
	st.ExpireStatus(msg.changes)
	st.RunErr = msg.err
	if msg.err != nil {
		// The result on screen stays, marked stale: it is not what the
		// settings now give, and export refuses it. Nothing runs under
		// the run's context any more: release it.
		a.cancelRun()
		a.refreshAll()
		return nil
	}
	st.Prep, st.Result, st.Elapsed, st.ResultOf = msg.prep, msg.res, msg.elapsed, msg.changes
	if strings.HasPrefix(st.Status, "computation cancelled") {
		st.Status = "" // the preview is current again
	}
	// The figures measured on the result are on their way (Old: the
	// previous result's stay on screen, marked, until they land); a
	// result without an answerer has no workload.
	work := workloadCmd(a.runCtx, st.Env, msg.prep, msg.res, msg.seq)
	st.WorkloadOld = work != nil
	if work == nil {
		st.Workload = nil
	}
	st.RiskOld, st.AttacksOld = true, true
	pv := pipeline.NewPreview(msg.res)
	together := togetherCmd(a.runCtx, st.Env, msg.prep, pv, st.Project.Earlier(), msg.seq)
	st.TogetherOld = together != nil
	if together == nil {
		st.Together, st.TogetherErr = nil, nil
	}
	a.refreshAll()
	// The context stays live for the workload, the risk figures and the
	// attacks, all at once; a newer change cancels them. The risk figures
	// and the attacks read one build of the release.
	return tea.Batch(work, riskCmd(a.runCtx, pv, st.Project.RiskThreshold, msg.seq), deferredCmd(a.runCtx, msg.res, msg.seq),
		attackCmd(a.runCtx, st.Env, msg.prep, pv, msg.seq), together)
}

// Update routes messages: sizes and results to everyone, keys to the
// dialog, else to a capturing pane, else to the global keys and the
// active pane. It never blocks: all heavy work runs in commands. The
// spinner ticks only while something it stands for runs (spinning): an
// idle workbench schedules nothing and draws nothing.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := a.update(msg)
	if !a.ticking && a.spinning() {
		a.ticking = true
		cmd = tea.Batch(cmd, a.spin.Tick)
	}
	return m, cmd
}

// spinning reports whether the spinner is on screen: a table loading, a
// computation under way (its debounce included), a received release
// being read and checked.
func (a *App) spinning() bool {
	st := a.st
	return st.Loading || st.Running || st.ReceivedDir != "" && st.Received == nil && st.ReceivedErr == nil
}

// update is the root of the message flow: it only routes. Messages about
// the screen and the session's background work have named handlers;
// keys go to the dialog, a capturing pane or the global keys; anything
// else is addressed to a dialog or a pane.
func (a *App) update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	defer a.recoverFromPanic(&m, &cmd)
	if cmd, ok := a.handleScreenMsg(msg); ok {
		return a, cmd
	}
	if cmd, ok := a.handleWorkMsg(msg); ok {
		return a, cmd
	}
	var cmds []tea.Cmd
	if k, ok := msg.(tea.KeyMsg); ok {
		cmds = a.routeKey(k)
	} else {
		cmds = a.routeToDialogAndPanes(msg)
	}
	return a.settle(cmds)
}

// recoverFromPanic is deferred by update: a bug in a pane must not end
// the session (or print a stack trace): it is reported and the session
// carries on.
func (a *App) recoverFromPanic(m *tea.Model, cmd *tea.Cmd) {
	if r := recover(); r != nil {
		a.st.Fail(model.Recovered(r, ""))
		*m, *cmd = a, nil
	}
}

// handleScreenMsg handles the messages about what is on screen: sizes,
// the spinner, which pane or dialog shows, tours and received releases.
// ok is false for any other message.
func (a *App) handleScreenMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.help.Width = msg.Width
		return nil, true
	case spinner.TickMsg:
		return a.onTick(msg), true
	case common.ShowPaneMsg:
		a.active = msg.Pane
		return nil, true
	case common.PickFileMsg:
		return a.onOpenDialog(openDialogMsg{a.pickDialog(msg)}), true
	case common.NamePopulationMsg:
		return a.onOpenDialog(openDialogMsg{newPopulationDialog(a.st)}), true
	case openTourMsg:
		return a.onOpenTour(msg), true
	case tourStepsMsg:
		return a.onTourSteps(msg), true
	case openReleaseMsg:
		return a.onOpenRelease(msg), true
	case releaseOpenedMsg:
		a.onReleaseOpened(msg)
		return nil, true
	case openDialogMsg:
		return a.onOpenDialog(msg), true
	}
	return nil, false
}

// handleWorkMsg handles the results of the session's background work: a
// load, the debounce, the preview's run and the figures that follow it.
// ok is false for any other message.
func (a *App) handleWorkMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case loadedMsg:
		return a.onLoaded(msg), true
	case debounceMsg:
		if msg.seq != a.runSeq {
			return nil, true
		}
		return a.startRun(), true
	case resultMsg:
		if msg.seq != a.runSeq {
			return nil, true // stale: a newer change is being computed
		}
		return a.landResult(msg), true
	case workloadMsg:
		a.onWorkload(msg)
	case deferredMsg:
		a.onDeferred(msg)
	case riskMsg:
		a.onRisk(msg)
	case attackMsg:
		a.onAttacks(msg)
	case togetherMsg:
		a.onTogether(msg)
	default:
		return nil, false
	}
	return nil, true
}

// onTick advances the spinner while something it stands for runs; the
// chain of ticks ends when nothing does.
func (a *App) onTick(msg spinner.TickMsg) tea.Cmd {
	if !a.spinning() {
		a.ticking = false // the chain of ticks ends here
		return nil
	}
	var cmd tea.Cmd
	a.spin, cmd = a.spin.Update(msg)
	a.observeProgress()
	return cmd
}

// onLoaded takes a loaded table (unless a newer load superseded it) and
// schedules the preview's run; a first row that looked like data opens
// the import wizard.
func (a *App) onLoaded(msg loadedMsg) tea.Cmd {
	st := a.st
	if msg.seq != a.loadSeq {
		return nil // a newer load superseded this one
	}
	st.Loading = false
	st.ExpireStatus(msg.changes)
	st.Table, st.LoadErr = msg.table, msg.err
	if msg.err == nil {
		if st.StatusErr {
			st.Status, st.StatusErr = "", false
		}
		st.NeedRun = true
		st.FixRoles()
		if msg.table.FirstRowData && !st.AskedHeader && a.dialog == nil {
			// The first row looked like data, so it was read as data
			// and the columns are c1, c2, ...: the import wizard asks
			// for their names (and says what it read).
			st.AskedHeader = true
			a.refreshAll()
			d := newImportDialog(st, st.Project.Input)
			return tea.Batch(a.schedule(), func() tea.Msg { return openDialogMsg{d} })
		}
	}
	a.refreshAll()
	return a.schedule()
}

// onOpenTour opens the tour pane on a tour, once unsaved changes are
// confirmed.
func (a *App) onOpenTour(msg openTourMsg) tea.Cmd {
	return a.unlessDirty("open the tour", func() tea.Cmd {
		a.active = common.PaneTour
		return tea.Batch(a.st.StartTour(msg.tour), a.schedule())
	})
}

// onTourSteps takes the steps of the tour being shown and shows its
// first.
func (a *App) onTourSteps(msg tourStepsMsg) tea.Cmd {
	st := a.st
	if tr := st.Tour; tr != nil && tr.Tour.Name == msg.name && tr.Steps == nil {
		tr.Steps, tr.Err = msg.steps, msg.err
		st.ShowStep(0)
		a.refreshAll()
	}
	return a.schedule()
}

// onOpenRelease leaves the workbench for a received release. The
// workbench's table and result have nothing to do with the release:
// they go (unsaved changes were confirmed before the picker opened), and
// the release's own input is looked for.
func (a *App) onOpenRelease(msg openReleaseMsg) tea.Cmd {
	st := a.st
	a.cancelRun()
	a.stopLoad()
	a.runSeq++
	a.loadSeq++
	a.relSeq++
	st.Receive(msg.dir)
	a.active = common.PaneRelease
	a.refreshAll()
	return receiveCmd(st.Env, msg.dir, a.relSeq)
}

// onReleaseOpened takes a received release that was read and checked,
// with its input when it was found.
func (a *App) onReleaseOpened(msg releaseOpenedMsg) {
	st := a.st
	if msg.seq != a.relSeq || st.ReceivedDir == "" {
		return // another release was opened, or the workbench moved on
	}
	st.ReleaseRead(msg.rel, msg.err)
	if msg.err != nil {
		st.Fail(msg.err)
	}
	st.UseReleaseInput(msg.input, msg.original)
	a.refreshAll()
	a.active = common.PaneRelease
}

// pickDialog is the file picker a pane asked for.
func (a *App) pickDialog(msg common.PickFileMsg) *fileDialog {
	d := newPickDialog(a.st, msg.Title, msg.OnPick)
	if msg.Dir != "" {
		d.picker.CurrentDirectory = msg.Dir
	}
	if msg.Types != nil {
		d.picker.AllowedTypes = msg.Types
	}
	return d
}

// onOpenDialog shows a dialog; a file dialog starts reading its folder.
func (a *App) onOpenDialog(msg openDialogMsg) tea.Cmd {
	a.dialog = msg.d
	if fd, ok := msg.d.(*fileDialog); ok {
		return fd.init()
	}
	return nil
}

// onWorkload takes the workload of the current run.
func (a *App) onWorkload(msg workloadMsg) {
	st := a.st
	if msg.seq == a.runSeq {
		st.LandWorkload(msg.w)
	}
}

// onDeferred adds the figures computed after the current run's result.
func (a *App) onDeferred(msg deferredMsg) {
	st := a.st
	if msg.seq == a.runSeq && len(msg.figs) > 0 && st.Result != nil {
		st.AddFigures(msg.figs)
		a.refreshAll()
	}
}

// onRisk takes the risk figures of the current run.
func (a *App) onRisk(msg riskMsg) {
	st := a.st
	if msg.seq == a.runSeq {
		st.LandRisk(msg.rep, msg.single)
		a.refreshAll()
	}
}

// onAttacks takes the attacks measured on the current run's release.
func (a *App) onAttacks(msg attackMsg) {
	st := a.st
	if msg.seq == a.runSeq {
		st.LandAttacks(msg.rep, msg.err)
		a.refreshAll()
	}
}

// onTogether takes the current run's figure of all attacks together.
func (a *App) onTogether(msg togetherMsg) {
	st := a.st
	if msg.seq == a.runSeq {
		st.LandTogether(msg.fig, msg.err)
		a.refreshAll()
	}
}

// routeKey hands a key to handleKey. Keys typed faster than the terminal
// is read arrive as one message of several runes ("++"); outside a text
// input they are separate presses.
func (a *App) routeKey(msg tea.KeyMsg) []tea.Cmd {
	if msg.Type != tea.KeyRunes || len(msg.Runes) <= 1 || msg.Paste || a.dialog != nil || a.panes[a.active].capturing() {
		return []tea.Cmd{a.handleKey(msg)}
	}
	var cmds []tea.Cmd
	for _, r := range msg.Runes {
		cmds = append(cmds, a.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		if a.quit || a.dialog != nil {
			break
		}
	}
	return cmds
}

// routeToDialogAndPanes hands a message addressed to a dialog or a pane
// (file reads, export results, query answers) to the dialog and every
// pane.
func (a *App) routeToDialogAndPanes(msg tea.Msg) []tea.Cmd {
	var cmds []tea.Cmd
	if d := a.dialog; d != nil {
		done, cmd := d.update(msg)
		if done && a.dialog == d {
			a.dialog = nil // (an answer may have opened the next dialog)
		}
		cmds = append(cmds, cmd)
	}
	for _, p := range a.panes {
		cmds = append(cmds, p.update(msg))
	}
	return cmds
}

// settle follows a key or a pane's message: the session quits, or the
// panes follow a dropped result or a left release at once and the
// preview's run is scheduled.
func (a *App) settle(cmds []tea.Cmd) (tea.Model, tea.Cmd) {
	st := a.st
	if a.quit {
		a.cancelRun()
		return a, tea.Quit
	}
	// A key may have dropped the result (another method, table or
	// project) or left a received release: panes follow at once.
	a.refreshAll()
	if st.ReceivedDir == "" && a.active == common.PaneRelease || st.Tour == nil && a.active == common.PaneTour {
		a.active = common.PanePreview
	}
	cmds = append(cmds, a.schedule())
	return a, tea.Batch(cmds...)
}

func (a *App) refreshAll() {
	a.st.NoteWarnings()
	for _, p := range a.panes {
		p.refresh()
	}
}

// handleKey hands a key to the open dialog, else to a capturing pane,
// else to the global keys, else to the active pane.
func (a *App) handleKey(msg tea.KeyMsg) tea.Cmd {
	if d := a.dialog; d != nil {
		done, cmd := d.update(msg)
		if done && a.dialog == d {
			a.dialog = nil // (an answer may have opened the next dialog)
		}
		return cmd
	}
	p := a.panes[a.active]
	if p.capturing() {
		if key.Matches(msg, a.st.Keys.ForceQuit) {
			a.askQuit()
			return nil
		}
		return p.update(msg)
	}
	if a.navigationKey(msg) {
		return nil
	}
	if cmd, ok := a.sessionKey(msg); ok {
		return cmd
	}
	if a.showAll && key.Matches(msg, a.st.Keys.Back) {
		a.showAll = false
		return nil
	}
	return p.update(msg)
}

// navigationKey handles the keys that move between panes or show the
// help; it reports whether msg was one of them.
func (a *App) navigationKey(msg tea.KeyMsg) bool {
	k := a.st.Keys
	switch {
	case key.Matches(msg, k.Quit):
		a.askQuit()
	case key.Matches(msg, k.Help):
		a.showAll = !a.showAll
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		vis := a.visible()
		i := indexOf(vis, a.active)
		if key.Matches(msg, k.NextPane) {
			a.active = vis[(i+1)%len(vis)]
		} else {
			a.active = vis[(i+len(vis)-1)%len(vis)]
		}
	case key.Matches(msg, k.Jump):
		// The tour's and the advisor's tabs have keys of their own (they
		// come after the nine digits' tabs).
		if vis, i := a.visible(), common.KeyIndex(k.Jump, msg); i >= 0 && i < len(vis) && vis[i] != common.PaneTour && vis[i] != common.PaneAdvisor {
			a.active = vis[i]
		}
	case key.Matches(msg, k.Advisor):
		if slices.Contains(a.visible(), common.PaneAdvisor) {
			a.active = common.PaneAdvisor
		}
	case key.Matches(msg, k.TourTab):
		if slices.Contains(a.visible(), common.PaneTour) {
			a.active = common.PaneTour
		}
	default:
		return false
	}
	return true
}

// sessionKey handles the global keys that act on the session: cancel,
// the full error, recompute, save, open, datasets and tours; ok reports
// whether msg was one of them.
func (a *App) sessionKey(msg tea.KeyMsg) (cmd tea.Cmd, ok bool) {
	st, k := a.st, a.st.Keys
	switch {
	case key.Matches(msg, k.Cancel):
		a.cancelAll()
	case key.Matches(msg, k.FullError):
		a.showFull()
	case key.Matches(msg, k.Recompute):
		if st.Table != nil && !st.Running {
			st.NeedRun, st.Cancelled = true, false
		}
	case (key.Matches(msg, k.Save) || key.Matches(msg, k.SaveAs)) && st.ReceivedDir != "":
		// The session holds the release's input and roles but the method
		// and values of the session before it: saved, they would make
		// another release than the one read.
		st.Refuse("nothing to save: a received release is read here, not made (" + common.KeyName(k.Open) + " opens its original or a project to make one)")
	case key.Matches(msg, k.Save) && st.ProjectPath != "":
		if err := st.save(st.ProjectPath); err != nil {
			st.Fail(err)
		}
	case key.Matches(msg, k.Save), key.Matches(msg, k.SaveAs):
		// The first save asks where; S asks for another file, starting at
		// the current one's name.
		a.dialog = newSaveDialog(st, key.Matches(msg, k.SaveAs))
	case key.Matches(msg, k.Open):
		return a.unlessDirty("open another file", func() tea.Cmd {
			d := newFileDialog(st)
			a.dialog = d
			return d.init()
		}), true
	case key.Matches(msg, k.Dataset):
		return a.unlessDirty("load another dataset", func() tea.Cmd {
			a.dialog = newDatasetDialog(st)
			return nil
		}), true
	case key.Matches(msg, k.Tours):
		a.dialog = newTourDialog(st)
	default:
		return nil, false
	}
	return nil, true
}

// cancelAll stops the preview's run and the panes' background jobs (a
// sweep, a comparison).
func (a *App) cancelAll() {
	st, k := a.st, a.st.Keys
	for _, p := range a.panes {
		p.update(common.CancelJobMsg{})
	}
	if st.Running || st.NeedRun {
		a.cancelRun()
		a.runSeq++ // drop the cancelled result
		st.Running, st.NeedRun, st.Cancelled = false, false, true
		st.Notify("computation cancelled: the preview shows earlier settings (%s recomputes)", common.KeyName(k.Recompute))
	}
}

// showFull opens the error dialog (!) on the error, why the attacks
// could not be measured, and the warnings the bar cuts (issue 35.6).
func (a *App) showFull() {
	st := a.st
	d := &errorDialog{st: st, err: st.shownError(), attacks: st.AttacksErr}
	if st.StatusErr && st.Status != "" && (d.err == nil || d.err.Error() != st.Status) {
		d.refused = st.Status
	}
	if st.ReceivedDir == "" {
		d.warnings, _ = st.ShownWarnings()
	}
	if d.err != nil || d.attacks != nil || len(d.warnings) > 0 || d.refused != "" {
		a.dialog = d
	}
}

// visible lists the panes the current method has, in tab order: the
// charts pane only for a method that draws charts.
func (a *App) visible() []int {
	if a.st.ReceivedDir != "" {
		// A received release: read it and query it (and the original).
		out := []int{common.PaneRelease, common.PaneQuery}
		if a.st.Table != nil {
			out = append(out, common.PaneData)
		}
		return out
	}
	var out []int
	for i := range a.panes {
		// A tour teaches a paper's example: the advisor, which maps a
		// table of one's own, has no tab beside it.
		if (i == common.PaneCharts && a.st.Spec().Charts == "") || i == common.PaneRelease || (i == common.PaneTour) == (a.st.Tour == nil) && (i == common.PaneTour || i == common.PaneAdvisor) {
			continue
		}
		out = append(out, i)
	}
	return out
}

func indexOf(list []int, x int) int {
	for i, y := range list {
		if y == x {
			return i
		}
	}
	return 0
}

func (a *App) askQuit() {
	if !a.st.Dirty {
		a.quit = true
		return
	}
	d := newConfirmDialog(a.st, fmt.Sprintf("The project has changes that were not exported or saved.\nQuit anyway? (%s, %s again quits)", common.YesNo(a.st.Keys), common.KeyName(a.st.Keys.ForceQuit)), func() tea.Cmd { a.quit = true; return nil })
	d.ctrlC = true
	a.dialog = d
}

// unlessDirty runs then at once when nothing is unsaved, else after the
// user confirms that the unexported changes may go.
func (a *App) unlessDirty(what string, then func() tea.Cmd) tea.Cmd {
	if !a.st.Dirty {
		return then()
	}
	a.dialog = newConfirmDialog(a.st, "The project has changes that were not exported or saved.\n"+strings.ToUpper(what[:1])+what[1:]+" anyway? ("+common.YesNo(a.st.Keys)+")", then)
	return nil
}

// View draws header, tabs, the active pane, the summary bar and the help.
func (a *App) View() (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("privlab: %v; press %s to quit", model.Recovered(r, "while drawing"), common.FirstKey(a.st.Keys.Quit))
		}
	}()
	if a.quit {
		return ""
	}
	w, h := a.width, a.height
	if w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	st := a.st
	header := a.headerView(w)
	tabs := a.tabsView(w)
	summary := a.summaryView(w)
	helpLine := a.helpView(w)
	helpH := strings.Count(helpLine, "\n") + 1
	bodyH := h - 3 - helpH
	if bodyH < 1 {
		bodyH = 1
	}
	if a.active == common.PaneCharts && st.Spec().Charts == "" {
		a.active = common.PaneMethod // the method changed to one without charts
	}
	var body string
	switch {
	case a.dialog != nil:
		body = a.dialog.view(w, bodyH)
	case a.showAll:
		body = a.fullHelpView(w, bodyH)
	default:
		body = a.panes[a.active].view(w, bodyH)
	}
	return common.TermScreen(strings.Join([]string{header, tabs, common.Block(body, w, bodyH), summary, helpLine}, "\n"))
}

func (a *App) headerView(w int) string {
	st, s := a.st, a.st.Styles
	if st.ReceivedDir != "" {
		left := s.Header.Render("privlab") + " · received release " + common.Safe(st.ReceivedDir)
		if st.Table != nil {
			left += fmt.Sprintf(" · original %s (%s rows)", common.Safe(strings.TrimPrefix(st.Project.Input, "dataset:")), common.Thousands(st.Table.Rows))
		}
		right := s.HeaderDim.Render(common.KeyName(st.Keys.Help) + " help")
		return common.Fit(left, max(1, w-common.LenCells(right)-1)) + " " + right
	}
	name := common.Safe(st.Project.Input)
	if name == "" {
		name = "no table"
	}
	if st.Table != nil {
		name = fmt.Sprintf("%s (%s rows)", strings.TrimPrefix(name, "dataset:"), common.Thousands(st.Table.Rows))
	}
	parts := []string{s.Header.Render("privlab"), name, st.Project.Method}
	if v, noPublic := st.Variant(); v != "" && (st.Project.Variant != "" || noPublic) {
		parts[len(parts)-1] += "/" + v
	}
	// Parameter values; bare numbers get their name so they read.
	for _, p := range st.Spec().Params {
		if !p.Header {
			continue
		}
		v := st.Value(p.Name)
		if _, isNum := model.ParseNumber(strings.TrimSuffix(v, "%")); isNum {
			v = p.Name + " " + v
		}
		parts = append(parts, common.Safe(v))
	}
	left := strings.Join(parts, " · ")
	right := s.HeaderDim.Render(common.KeyName(st.Keys.Help) + " help")
	if st.Unsaved {
		right = s.Warn.Render("● unsaved") + s.HeaderDim.Render(" · "+common.KeyName(st.Keys.Help)+" help")
	}
	gap := w - common.LenCells(left) - common.LenCells(right)
	if gap < 1 {
		// The help key and the unsaved mark stay at every width.
		return common.Fit(left, max(1, w-common.LenCells(right)-1)) + " " + right
	}
	return left + strings.Repeat(" ", gap) + right
}

func (a *App) tabsView(w int) string {
	s := a.st.Styles
	vis := a.visible()
	titles := make([][]rune, len(vis))
	for n, i := range vis {
		titles[n] = []rune(a.panes[i].title())
	}
	render := func(sep string) string {
		var parts []string
		for n, i := range vis {
			label := common.JumpKey(a.st.Keys, n) + " " + string(titles[n])
			switch i {
			case common.PaneTour:
				label = a.st.Keys.TourTab.Help().Key + " " + string(titles[n])
			case common.PaneAdvisor:
				label = a.st.Keys.Advisor.Help().Key + " " + string(titles[n])
			}
			if i == a.active {
				parts = append(parts, s.TabActive.Render(label))
			} else {
				parts = append(parts, s.Tab.Render(label))
			}
		}
		return strings.Join(parts, sep)
	}
	// Every tab shows at every width: the separators narrow first, then
	// the longest titles shorten ("Hierarchy" to "Hier.").
	line := render("  ")
	for common.LenCells(line) > w {
		line = render(" ")
		if common.LenCells(line) <= w {
			break
		}
		longest := 0
		for n := range titles {
			if len(titles[n]) > len(titles[longest]) {
				longest = n
			}
		}
		if len(titles[longest]) <= 4 {
			break
		}
		t := titles[longest]
		if t[len(t)-1] == '.' {
			t = t[:len(t)-1]
		}
		titles[longest] = append(t[:len(t)-1:len(t)-1], '.')
		line = render(" ")
	}
	return common.Fit(line, w)
}

// loadAndRunError puts the loading, or the load's or the run's error,
// on the summary bar.
func (a *App) loadAndRunError(bar *barLine, w int) {
	st, s := a.st, a.st.Styles
	errText := func(err error) string {
		return s.Error.Render(common.Clip("✗ "+common.Safe(firstLine(common.WithoutHint(err))), max(20, w/2-14)) + " (" + common.KeyName(st.Keys.FullError) + " full)")
	}
	_, importing := a.dialog.(*importDialog)
	switch {
	case st.Loading:
		bar.fixed(100, a.spin.View()+" loading "+st.Project.Input)
	case st.LoadErr != nil:
		bar.fixed(100, errText(st.LoadErr))
	case st.RunErr != nil && !st.Running && importing:
		// The roles of a file being imported are set after it loads:
		// a run error about them is not the user's mistake yet.
		bar.fixed(100, s.Muted.Render("the roles are set in the Data pane once the file is loaded"))
	case st.RunErr != nil && !st.Running:
		bar.fixed(100, errText(st.RunErr))
	}
}

// summaryView is the bar under the pane: an error that persists (until
// its cause is fixed), the verdict and what it covers, the worst case per
// constraint, groups, rows, utility and run time (marked stale when they
// belong to earlier settings), progress, the first usefulness warning and
// the transient status message.
func (a *App) summaryView(w int) string {
	st, s := a.st, a.st.Styles
	var bar barLine
	a.loadAndRunError(&bar, w)
	if st.ReceivedDir != "" {
		a.receivedVerdict(&bar)
	} else if st.Result != nil && st.LoadErr == nil {
		a.resultParts(&bar, w)
	}
	if st.Running && st.ReceivedDir == "" {
		bar.fixed(95, a.spin.View()+" computing"+a.progressText())
	}
	if st.Status != "" {
		style := s.Warn
		if st.StatusErr {
			style = s.Error
		}
		bar.shrinking(90, common.LenCells(common.Safe(st.Status)), 20, func(n int) string { return style.Render(common.Clip(common.Safe(st.Status), n)) })
	}
	return common.Fit(s.Summary.Render(bar.render(w)), w)
}

// receivedVerdict adds a received release's check verdict, not the
// workbench's result (there is none to speak of while reading a
// release).
func (a *App) receivedVerdict(bar *barLine) {
	st, s := a.st, a.st.Styles
	switch r := st.Received; {
	case r == nil && st.ReceivedErr == nil && !st.Loading:
		bar.fixed(100, a.spin.View()+" reading and checking "+st.ReceivedDir)
	case r != nil && r.CheckErr == nil && r.CheckOK && len(r.Unproven) > 0:
		bar.fixed(100, s.Warn.Render("! no check failed, but a privacy guarantee is unconfirmed"))
	case r != nil && r.CheckErr == nil && r.CheckOK:
		bar.fixed(100, s.OK.Render("✓ the release passes its check"))
	case r != nil:
		bar.fixed(100, s.Error.Render("✗ the release fails its check"))
	}
}

// resultParts adds the workbench result's parts: the verdicts (or that
// the figures are stale), the figures the method shows, groups, rows,
// utility, risk, the workload's error, the run time and the first
// usefulness warning.
func (a *App) resultParts(bar *barLine, w int) {
	st, s := a.st, a.st.Styles
	r := st.Result
	warn, warnOld := "", false
	switch {
	case st.Stale() && st.RunErr != nil:
		// the error says it: the figures are of earlier settings
	case st.Stale():
		bar.fixed(100, s.Warn.Render("⚠ stale: the last run cancelled ("+common.KeyName(st.Keys.Recompute)+")"))
	default:
		a.verdicts(bar, r, w)
		if ws, old := st.ShownWarnings(); len(ws) > 0 {
			warn, warnOld = ws[0], old
		}
	}
	a.resultFigures(bar, r)
	if t := a.riskPart(); t != "" {
		bar.part(64, t)
	}
	if q := a.workloadPart(); q != "" {
		bar.part(35, q)
	}
	bar.part(10, fmt.Sprintf("ran in %dms", st.Elapsed.Milliseconds()))
	if warn != "" {
		// The first usefulness warning, at the end of the line (!
		// shows them all in full), dimmed while it is the previous
		// result's.
		style := s.Warn
		if warnOld {
			style = s.Muted
		}
		bar.shrinking(56, min(common.LenCells(common.Safe(warn)), max(40, w/3)), 24, func(n int) string { return style.Render("! " + common.Clip(common.Safe(warn), n)) })
	}
}

// resultFigures adds the figures the method asks to show (a failing
// constraint is shown by the verdicts already), violations of stale
// figures, groups, rows and utility.
func (a *App) resultFigures(bar *barLine, r *method.Result) {
	st, s := a.st, a.st.Styles
	for _, f := range r.Summary {
		if f.Bar && (f.Limit == "" || f.OK) {
			name := f.Short
			if name == "" {
				name = f.Name
			}
			bar.part(80, name+" "+common.Human(f.Value))
		}
	}
	if v := r.Violations(); v > 0 && st.Stale() {
		bar.part(85, s.Error.Render(common.Violate(v)))
	}
	bar.part(75, common.Plural(len(r.Groups), "group"))
	rows := common.Thousands(r.Published) + " rows"
	if r.Suppressed > 0 {
		rows += fmt.Sprintf(" (%s suppressed)", common.Thousands(r.Suppressed))
	}
	bar.part(30, rows)
	if u := r.Utility; u.Name != "" {
		name := u.Short
		if name == "" {
			name = u.Name
		}
		bar.part(62, name+" "+common.Human(u.Value))
	}
}

// workloadPart is the workload's mean error (bounds are not errors:
// their width over the true answer), dimmed while the new result's is
// on its way; "" without a workload.
func (a *App) workloadPart() string {
	st, s := a.st, a.st.Styles
	if st.Workload == nil || st.Workload.Queries <= 0 {
		return ""
	}
	q := fmt.Sprintf("query err %.2f", st.Workload.MeanErr)
	if st.Workload.Bounded > 0 {
		q = fmt.Sprintf("bound width %.2f", st.Workload.MeanErr)
	}
	if st.WorkloadOld {
		q = s.Muted.Render(q + "…") // the new result's is on its way
	}
	return q
}

// verdicts adds the bar's two verdicts, apart and each in its own
// colour: the method's definition (✓ private with the gist of what it
// covers, else each constraint that fails and the groups that violate
// it), then what the attacks measured.
func (a *App) verdicts(bar *barLine, r *method.Result, w int) {
	s := a.st.Styles
	// One mark when every constraint holds, saying briefly what
	// it covers; otherwise each constraint that fails.
	allOK, constraints := true, 0
	for _, f := range r.Summary {
		if f.Limit == "" {
			continue
		}
		constraints++
		if !f.OK {
			allOK = false
			name := f.Short
			if name == "" {
				name = f.Name
			}
			bar.fixed(100, s.Error.Render("✗ "+name+" "+common.Human(f.Value)))
		}
	}
	if allOK && constraints > 0 && r.Violations() == 0 {
		mark, covers := s.OK.Render("✓ private"), certifiesShort(r.Spec.Certifies)
		// The gist is brief: at most a quarter of the line.
		bar.shrinking(58, min(common.LenCells(covers), max(24, w/4)), 0, func(n int) string {
			if n < 14 {
				return mark // too short to say anything
			}
			return mark + s.Muted.Render(": "+common.Clip(covers, n))
		})
	}
	if v := r.Violations(); v > 0 {
		// The definition's verdict before the attacks'.
		bar.part(85, s.Error.Render("✗ "+common.Violate(v)))
	}
	if v, style := a.attackPart(); v.full != "" {
		// What the attacks measured, apart from the definition's
		// verdict, in its own colour: in full where the line has
		// room, else the worst alone, never less (the lesser
		// figures give way).
		full, compact := common.LenCells(v.full), common.LenCells(v.compact)
		bar.shrinking(57, full, compact, func(n int) string {
			if n >= full {
				return style(v.full)
			}
			return style(common.Clip(v.compact, n))
		})
	}
}

// riskPart is the figure every release gets that an officer reads
// first: the records unique on the published QIs, or else the smallest
// class as an attacker reads the release ("" before the figures are in).
// It is not called k: the header's k is the parameter asked for, and
// kja's boxes hold public tuples too (k 30162 asked, a smallest class of
// 33,178 published rows).
func (a *App) riskPart() string {
	st := a.st
	rk := st.Risk
	if rk == nil {
		return ""
	}
	var t string
	if f, ok := rk.Get(risk.KeyUnique); ok && f.Value > 0 {
		share, _ := rk.Get(risk.KeyUniqueShare)
		t = fmt.Sprintf("%s unique (%.1f%%)", common.Thousands(int(f.Value)), 100*share.Value)
	} else if f, ok := rk.Get(risk.KeySmallest); ok {
		t = "smallest class " + common.Thousands(int(f.Value))
	}
	if st.RiskOld {
		t = st.Styles.Muted.Render(t + "…")
	}
	return t
}

// barLine is a line of entries separated by │ that fits a width: the
// entry of lowest priority gives way first (a part is dropped, a text
// shrinks to its minimum), in display order otherwise.
type barLine struct{ entries []barEntry }

type barEntry struct {
	prio  int
	text  func(n int) string // the entry at n cells (n: its text's width)
	n     int
	min   int  // the narrowest the text shrinks to
	drop  bool // dropped when the line is full
	shown bool
}

// fixed adds an entry that always shows.
func (b *barLine) fixed(prio int, s string) {
	b.entries = append(b.entries, barEntry{prio: prio, text: func(int) string { return s }, shown: true})
}

// part adds an entry that is dropped when the line is full.
func (b *barLine) part(prio int, s string) {
	b.entries = append(b.entries, barEntry{prio: prio, text: func(int) string { return s }, drop: true, shown: true})
}

// shrinking adds a text of n cells that shrinks down to min cells.
func (b *barLine) shrinking(prio, n, min int, text func(n int) string) {
	b.entries = append(b.entries, barEntry{prio: prio, text: text, n: n, min: min, shown: true})
}

func (b *barLine) line() string {
	var out []string
	for _, e := range b.entries {
		if e.shown {
			out = append(out, e.text(e.n))
		}
	}
	return strings.Join(out, " │ ")
}

func (b *barLine) render(w int) string {
	order := make([]int, len(b.entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return b.entries[order[x]].prio < b.entries[order[y]].prio })
	full := make([]int, len(b.entries))
	for i, e := range b.entries {
		full[i] = e.n
	}
	for _, i := range order {
		over := common.LenCells(b.line()) - w
		if over <= 0 {
			break
		}
		e := &b.entries[i]
		switch {
		case e.drop:
			e.shown = false
		case e.n > e.min:
			e.n = max(e.min, e.n-over)
		}
	}
	// Where a later entry gave more than the line needed, the room goes
	// back, the highest priority first: a shrunk text grows, a dropped
	// part returns if it fits.
	for k := len(order) - 1; k >= 0; k-- {
		e := &b.entries[order[k]]
		spare := w - common.LenCells(b.line())
		switch {
		case spare <= 0:
			return b.line()
		case e.drop && !e.shown:
			if e.shown = true; common.LenCells(b.line()) > w {
				e.shown = false
			}
		case !e.drop && e.n < full[order[k]]:
			n := e.n
			if e.n = min(full[order[k]], n+spare); common.LenCells(b.line()) > w {
				e.n = n
			}
		}
	}
	return b.line()
}

// certifiesShort is the gist of what a method's tick certifies: the
// first clause of its Certifies sentence, without the references in
// brackets ("every class holds at least k records and no sensitive value
// makes up more than alpha of a class").
func certifiesShort(c string) string {
	var b strings.Builder
	depth := 0
	for i, r := range c {
		switch {
		case r == '(' && (depth > 0 || (i > 0 && c[i-1] == ' ')):
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	for _, sep := range []string{";", ", "} {
		if i := strings.Index(out, sep); i > 0 {
			out = out[:i]
		}
	}
	return strings.TrimSpace(out)
}

// progressText is the running computation's phase, percentage and,
// after two seconds and 5%, the time left (smoothed, see etaTracker):
// only the current run's progress counts.
func (a *App) progressText() string {
	m, ok := a.st.Progress.Load().(progressMark)
	if !ok || m.seq != a.runSeq {
		return ""
	}
	if !m.running {
		return ": preparing"
	}
	if m.f <= 0 {
		if d := time.Duration(m.est * float64(time.Second)); d > pipeline.LongRun {
			return fmt.Sprintf(": may take about %s (%s stops)", d.Round(time.Second), common.KeyName(a.st.Keys.Cancel))
		}
		return ""
	}
	out := fmt.Sprintf(" %.0f%%", m.f*100)
	now := a.st.Now()
	if left, ok := a.eta.left(m.seq, m.f, now); ok && now.Sub(m.start) > 2*time.Second {
		out += fmt.Sprintf(", about %s left (%s stops)", left.Round(time.Second), common.KeyName(a.st.Keys.Cancel))
	}
	return out
}

// observeProgress feeds the time-left estimate (on every spinner tick).
func (a *App) observeProgress() {
	if m, ok := a.st.Progress.Load().(progressMark); ok && a.st.Running && m.seq == a.runSeq && m.running {
		a.eta.observe(m.seq, m.f, a.st.Now())
	}
}

// etaTracker estimates a run's time left from its progress: the rate
// (fraction per second) is an exponential moving average of the rates
// between observations, so one slow or fast stretch does not make the
// estimate jump; there is no estimate before 5% (too little to go by).
type etaTracker struct {
	seq   int
	lastF float64
	lastT time.Time
	rate  float64 // smoothed fraction done per second
}

// etaSmoothing is the weight of the newest rate in the average.
const etaSmoothing = 0.3

func (e *etaTracker) observe(seq int, f float64, now time.Time) {
	if seq != e.seq || e.lastT.IsZero() {
		*e = etaTracker{seq: seq, lastF: f, lastT: now}
		return
	}
	dt := now.Sub(e.lastT).Seconds()
	if f <= e.lastF || dt <= 0 {
		return
	}
	r := (f - e.lastF) / dt
	if e.rate == 0 {
		e.rate = r
	} else {
		e.rate = etaSmoothing*r + (1-etaSmoothing)*e.rate
	}
	e.lastF, e.lastT = f, now
}

// left is the time left of run seq at fraction f, counting down from the
// last observation while the progress stalls.
func (e *etaTracker) left(seq int, f float64, now time.Time) (time.Duration, bool) {
	if seq != e.seq || f < 0.05 || e.rate <= 0 {
		return 0, false
	}
	secs := (1-f)/e.rate - now.Sub(e.lastT).Seconds()
	return time.Duration(max(0, secs) * float64(time.Second)), true
}

// firstLine is the first line of a message.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (a *App) helpView(w int) string {
	st := a.st
	if a.dialog != nil {
		return a.wrapHelp(a.dialog.help(), w)
	}
	p := a.panes[a.active]
	if a.showAll {
		k := st.Keys
		closeHelp := key.NewBinding(key.WithKeys(append(k.Back.Keys(), k.Help.Keys()...)...), key.WithHelp(common.FirstKey(k.Back)+"/"+common.KeyName(k.Help), "close help"))
		return common.Fit(a.help.ShortHelpView([]key.Binding{closeHelp}), w)
	}
	// The pane's keys give way (whole, with …) before "? help" does: it
	// is reserved before fitting, as in the header.
	var bindings []key.Binding
	for _, b := range append(p.shortHelp(), st.Keys.GlobalHelp()...) {
		if !slices.ContainsFunc(b.Keys(), func(s string) bool { return slices.Contains(st.Keys.Help.Keys(), s) }) {
			bindings = append(bindings, b)
		}
	}
	tail := a.help.ShortHelpView([]key.Binding{st.Keys.Help})
	sep := a.help.Styles.ShortSeparator.Inline(true).Render(a.help.ShortSeparator)
	a.help.Width = max(1, w-common.LenCells(sep+tail))
	head := a.help.ShortHelpView(bindings)
	a.help.Width = w
	return common.Fit(head+sep+tail, w)
}

// wrapHelp is a dialog's keys on as many lines as they need (at most
// three): none of them is hidden behind an ellipsis at 80 columns.
func (a *App) wrapHelp(bs []key.Binding, w int) string {
	var lines []string
	for len(bs) > 0 && len(lines) < 3 {
		n := 1
		for n < len(bs) && common.LenCells(a.help.ShortHelpView(bs[:n+1])) <= w {
			n++
		}
		lines = append(lines, common.Fit(a.help.ShortHelpView(bs[:n]), w))
		bs = bs[n:]
	}
	return strings.Join(lines, "\n")
}

// fullHelpView is the full help (?): every key of the active pane, then
// every global key, in columns of the body's height.
func (a *App) fullHelpView(w, h int) string {
	s, k, p := a.st.Styles, a.st.Keys, a.panes[a.active]
	rows := max(4, h-2)
	cols := append(helpColumns(p.fullHelp(), rows), helpColumns(a.globalKeys(), rows)...)
	title := s.Title.Render("Keys") + s.Muted.Render(fmt.Sprintf("  of the %s pane, then everywhere · %s or %s closes", p.title(), common.FirstKey(k.Back), common.KeyName(k.Help)))
	return title + "\n\n" + a.helpBands(cols, w)
}

// helpBands lays the full help's columns out side by side when they fit
// in w, closer together when only that makes them fit, and else in bands
// of columns one under the other: bubbles' help would cut the columns
// that do not fit behind a "…" (the Tour pane's ? lost every global key
// at 80 columns).
func (a *App) helpBands(cols [][]key.Binding, w int) string {
	h := a.help
	h.Width = 0 // never cut: the columns are measured here
	if s := h.FullHelpView(cols); common.LenCells(s) <= w {
		return s
	}
	h.FullSeparator = "  "
	var bands []string
	for len(cols) > 0 {
		n := 1
		for n < len(cols) && common.LenCells(h.FullHelpView(cols[:n+1])) <= w {
			n++
		}
		bands = append(bands, h.FullHelpView(cols[:n]))
		cols = cols[n:]
	}
	return strings.Join(bands, "\n\n")
}

// globalKeys are the global keys that act in this view: the tour's key
// only on a tour, the advisor's only where its tab is (neither on a
// received release, the advisor not on a tour), as the tabs show.
func (a *App) globalKeys() []key.Binding {
	k, vis := a.st.Keys, a.visible()
	var out []key.Binding
	for _, b := range k.GlobalFull() {
		if b.Help() == k.TourTab.Help() && !slices.Contains(vis, common.PaneTour) || b.Help() == k.Advisor.Help() && !slices.Contains(vis, common.PaneAdvisor) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// helpColumns splits bindings into columns of at most n rows, so the
// full help stays short at 24 rows.
func helpColumns(bs []key.Binding, n int) [][]key.Binding {
	var out [][]key.Binding
	for len(bs) > n {
		out = append(out, bs[:n])
		bs = bs[n:]
	}
	if len(bs) > 0 {
		out = append(out, bs)
	}
	return out
}

// Options open the workbench: a project (its input a CSV path or
// dataset:NAME; "" opens the default dataset), the project.json it came
// from, or a received release directory to read (with the project's input
// as its original, when given).
type Options struct {
	Project     pipeline.Project
	ProjectPath string
	Release     string
	// Tour opens the workbench on a teaching tour (algorithms/tour).
	Tour string
}

// Run opens the workbench.
func Run(env pipeline.Env, o Options) error {
	_, err := tea.NewProgram(newWorkbench(env, o), tea.WithAltScreen()).Run()
	return err
}

// newWorkbench is the workbench Run opens: a received release (its
// original the project's input when one is given, else the input its
// audit record names), or the project (the default dataset when it names
// no input).
func newWorkbench(env pipeline.Env, o Options) *App {
	p := o.Project
	if o.Release != "" {
		app := NewApp(env, p)
		app.st.ReceivedDir = o.Release
		app.active = common.PaneRelease
		return app
	}
	if p.Input == "" {
		p.Input = "dataset:census"
	}
	if p.Method == "" {
		p.Method = catalog.Names()[0]
	}
	if o.Tour != "" {
		if t, err := tour.Lookup(o.Tour); err == nil {
			app := NewApp(env, t.Start())
			app.st.Tour = &session.Tour{Tour: t}
			app.active = common.PaneTour
			return app
		}
	}
	app := NewApp(env, p)
	app.st.ProjectPath = o.ProjectPath
	return app
}

// componentPane holds a pane that lives in a package of its own
// (common.Pane) among the root's panes.
type componentPane struct{ m common.Pane }

func (c componentPane) title() string              { return c.m.Title() }
func (c componentPane) update(msg tea.Msg) tea.Cmd { return c.m.Update(msg) }
func (c componentPane) capturing() bool            { return c.m.Capturing() }
func (c componentPane) shortHelp() []key.Binding   { return c.m.ShortHelp() }
func (c componentPane) fullHelp() []key.Binding    { return c.m.FullHelp() }
func (c componentPane) refresh()                   { c.m.Refresh() }

// view lays the pane out at w x h cells and draws it.
func (c componentPane) view(w, h int) string {
	c.m.SetSize(w, h)
	return c.m.View()
}
