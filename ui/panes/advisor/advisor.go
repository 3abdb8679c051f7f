// Package advisor is the workbench's Advisor pane (issue 34.2): the
// risk-utility map of algorithms/advise as a text chart (risk across,
// utility loss up, a symbol per method, the Pareto front joined), filled
// in as the points finish, with progress and cancel, the arrow keys
// moving along the front and enter adopting a point. It is a bubbletea
// component: the app gives it a Run (the headless computation, closed
// over a snapshot of the project), its size and its styles, and applies
// the AdoptMsg it emits.
package advisor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/advise"
	"privlab/model"
)

// Run computes the map: it calls each for every point as it finishes
// (the number finished, the total and the point's index among the
// settings; advise.Options.Each has this shape), one call at a time, and
// returns when every point is done or ctx is cancelled. It runs on a
// goroutine of its own, so it must read only what it closed over (a
// clone of the project and the loaded table), never the app's state.
type Run func(ctx context.Context, each func(done, total, at int, p advise.Point)) error

// PointMsg carries one finished point of computation ID.
type PointMsg struct {
	ID              int
	Done, Total, At int
	Point           advise.Point
}

// DoneMsg ends computation ID: Err is nil when every point finished.
type DoneMsg struct {
	ID  int
	Err error
}

// AdoptMsg asks the app to set the project's method, variant and the
// parameter values of a front point (enter); Point is its figures. The
// app keeps the project's seed: the point was computed with it.
type AdoptMsg struct {
	Method  string
	Variant string
	Values  model.Values
	Point   advise.Point
}

// phase is where the computation stands.
type phase int

const (
	idle phase = iota // no map computed
	running
	finished
	cancelled
	failed
)

// Model is the Advisor pane.
type Model struct {
	keys          KeyMap
	styles        Styles
	run           Run
	width, height int

	id     int // the computation shown; messages of another are stale
	cancel context.CancelFunc
	ch     <-chan tea.Msg
	phase  phase
	err    error
	stale  bool

	points   []advise.Point // by index among the settings; NaN until finished
	filled   []bool
	done     int
	selected int // index of the selected front point, -1 for none
	// moved says the officer moved the selection: until then it follows
	// the front's lowest-risk point, whatever order the points finish in.
	moved bool
	// adopted is the index of the point adopted last (-1 for none).
	adopted int

	current    advise.Setting // the project's settings
	hasCurrent bool
}

// New is an empty pane: no map until r (or Recompute) runs run.
func New(run Run, styles Styles) Model {
	return Model{keys: DefaultKeyMap(), styles: styles, run: run, width: 80, height: 24, selected: -1, adopted: -1}
}

// SetSize sets the pane's width and height in cells.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// SetKeys replaces the key map (a rebinding of the app's).
func (m *Model) SetKeys(k KeyMap) { m.keys = k }

// Keys is the pane's key map, for the app's help bar.
func (m Model) Keys() KeyMap { return m.keys }

// ShortHelp and FullHelp are the pane's keys for bubbles/help.
func (m Model) ShortHelp() []key.Binding  { return m.keys.ShortHelp() }
func (m Model) FullHelp() [][]key.Binding { return m.keys.FullHelp() }

// SetRun gives the computation of the project as it now is; the map
// shown is not recomputed until asked.
func (m *Model) SetRun(run Run) { m.run = run }

// MarkStale says the QIs, the sensitive attribute, the hierarchies or
// the population changed: the map is labelled stale, a computation
// under way stops (its points are of the old settings), and the map is
// recomputed only on request.
func (m *Model) MarkStale() {
	m.stop()
	if m.phase == running {
		m.phase = cancelled
	}
	m.stale = true
}

// Stale reports whether the map was computed for other settings.
func (m Model) Stale() bool { return m.stale }

// SetCurrent marks the project's current settings on the map (the point
// of the same method and variant whose values the project holds).
func (m *Model) SetCurrent(method, variant string, values model.Values) {
	m.current = advise.Setting{Method: method, Variant: variant, Values: values.Clone()}
	m.hasCurrent = true
}

// SetMap shows a map computed before (a reopened project's:
// advise.SavedPoints of its advisor section, stale when
// pipeline.AdvisorMap.Stale says so) as finished, the adopted point
// (-1 for none) selected when it is on the front.
func (m *Model) SetMap(points []advise.Point, adopted int, stale bool) {
	m.stop()
	m.id++
	m.points = append([]advise.Point(nil), points...)
	m.filled = make([]bool, len(points))
	for i := range m.filled {
		m.filled[i] = true
	}
	m.done, m.phase, m.err, m.stale, m.selected, m.moved, m.adopted = len(points), finished, nil, stale, -1, false, -1
	if len(points) == 0 {
		m.phase = idle // no map
	}
	if adopted >= 0 && adopted < len(points) {
		m.adopted = adopted
		if points[adopted].Front {
			m.selected, m.moved = adopted, true
		}
	}
	m.refront()
}

// Adopted is the index of the point adopted last (-1 for none): what
// the project file saves beside the points.
func (m Model) Adopted() int { return m.adopted }

// Points are the map's points (in the settings' order, Front marked),
// and whether every one has finished: what the project file saves.
func (m Model) Points() ([]advise.Point, bool) {
	return append([]advise.Point(nil), m.points...), m.phase == finished && m.done == len(m.points)
}

// Selected is the index of the selected front point (-1 for none).
func (m Model) Selected() int { return m.selected }

// Running reports whether a computation is under way.
func (m Model) Running() bool { return m.phase == running }

// Init starts nothing: the map is computed on request.
func (m Model) Init() tea.Cmd { return nil }

// Update handles the pane's keys and the computation's messages; it
// never blocks (the computation runs in a tea.Cmd's goroutine).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m.key(msg)
	case PointMsg:
		if msg.ID != m.id || m.phase != running {
			return m, nil // a computation replaced or cancelled
		}
		m.record(msg)
		return m, wait(m.ch)
	case DoneMsg:
		if msg.ID != m.id || m.phase != running {
			return m, nil
		}
		m.finish(msg.Err)
	}
	return m, nil
}

// key handles one key press.
func (m Model) key(msg tea.KeyMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Prev):
		m.move(-1)
	case key.Matches(msg, m.keys.Next):
		m.move(+1)
	case key.Matches(msg, m.keys.Adopt):
		return m.adopt()
	case key.Matches(msg, m.keys.Recompute):
		return m.Recompute()
	case key.Matches(msg, m.keys.Cancel):
		if m.phase == running {
			m.stop()
			m.phase = cancelled
		}
	}
	return m, nil
}

// errNoRun is shown when the app gave no computation.
var errNoRun = errors.New("nothing to compute: open a table first")

// Recompute starts a new computation (cancelling one under way): the
// points so far are cleared, the stale label goes, and the returned
// command starts Run on its own goroutine and brings back its first
// message; each point's message brings the next (wait).
func (m Model) Recompute() (Model, tea.Cmd) {
	m.stop()
	m.id++
	m.points, m.filled, m.done, m.selected, m.moved, m.adopted, m.err, m.stale = nil, nil, 0, -1, false, -1, nil, false
	if m.run == nil {
		m.phase, m.err = failed, errNoRun
		return m, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan tea.Msg, 16)
	m.cancel, m.ch, m.phase = cancel, ch, running
	run, id := m.run, m.id
	next := wait(ch)
	return m, func() tea.Msg {
		go produce(ctx, run, id, ch)
		return next()
	}
}

// produce runs the computation, sending each point and then its end to
// ch; once ctx is cancelled nothing more is sent (no one reads), and ch
// is closed. A panic in run is the computation's error.
func produce(ctx context.Context, run Run, id int, ch chan<- tea.Msg) {
	defer close(ch)
	send := func(msg tea.Msg) {
		select {
		case ch <- msg:
		case <-ctx.Done():
		}
	}
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = model.Recovered(r, "in the advisor")
			}
		}()
		return run(ctx, func(done, total, at int, p advise.Point) {
			send(PointMsg{ID: id, Done: done, Total: total, At: at, Point: p})
		})
	}()
	if ctx.Err() == nil {
		send(DoneMsg{ID: id, Err: err})
	}
}

// wait is the command that brings the computation's next message (nil
// once its channel is closed).
func wait(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-ch
		if !ok {
			return nil
		}
		return msg
	}
}

// stop cancels the computation under way, if any.
func (m *Model) stop() {
	if m.cancel != nil {
		m.cancel()
		m.cancel, m.ch = nil, nil
	}
}

// record places a finished point at its index, in whatever order the
// points finish, and marks the front of the points so far. The first
// point of a computation sizes the map (its total).
func (m *Model) record(msg PointMsg) {
	if m.points == nil {
		m.points = make([]advise.Point, max(msg.Total, 0))
		m.filled = make([]bool, len(m.points))
		for i := range m.points {
			m.points[i] = pending()
		}
	}
	if msg.At < 0 || msg.At >= len(m.points) {
		return
	}
	if !m.filled[msg.At] {
		m.filled[msg.At] = true
		m.done++
	}
	m.points[msg.At] = msg.Point
	m.refront()
}

// pending is a point not yet finished: no figures, so never on the front.
func pending() advise.Point {
	nan := math.NaN()
	return advise.Point{Risk: nan, Loss: nan, Interval: [2]float64{nan, nan}}
}

// finish ends the computation shown.
func (m *Model) finish(err error) {
	m.cancel, m.ch = nil, nil
	switch {
	case err == nil:
		m.phase = finished
	case errors.Is(err, context.Canceled):
		m.phase = cancelled
	default:
		m.phase, m.err = failed, err
	}
}

// refront marks the Pareto front of the points finished and keeps the
// selection on it: the front's lowest-risk point until the officer moves,
// then the point moved to while it stays on the front, else the front
// point of nearest risk.
func (m *Model) refront() {
	advise.MarkFront(m.points)
	front := m.front()
	if len(front) == 0 {
		m.selected = -1
		return
	}
	if !m.moved {
		m.selected = front[0]
		return
	}
	if m.selected >= 0 && m.selected < len(m.points) && m.points[m.selected].Front {
		return
	}
	best := front[0]
	if m.selected >= 0 && m.selected < len(m.points) && !math.IsNaN(m.points[m.selected].Risk) {
		r := m.points[m.selected].Risk
		for _, i := range front {
			if math.Abs(m.points[i].Risk-r) < math.Abs(m.points[best].Risk-r) {
				best = i
			}
		}
	}
	m.selected = best
}

// front are the indices of the front's points in order along it: the
// risk's upper end up (and so loss down, advise.MarkFront), then risk,
// then index.
func (m Model) front() []int {
	var idx []int
	for i, p := range m.points {
		if p.Front {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		pa, pb := m.points[idx[a]], m.points[idx[b]]
		switch {
		case pa.High() != pb.High():
			return pa.High() < pb.High()
		case pa.Risk != pb.Risk:
			return pa.Risk < pb.Risk
		}
		return pa.Loss > pb.Loss
	})
	return idx
}

// move selects the previous (-1) or next (+1) point along the front.
func (m *Model) move(step int) {
	front := m.front()
	m.moved = len(front) > 0
	for k, i := range front {
		if i == m.selected {
			m.selected = front[max(0, min(len(front)-1, k+step))]
			return
		}
	}
	if len(front) > 0 {
		m.selected = front[0]
	}
}

// adopt emits the selected front point's settings for the app to apply
// and marks them as the current settings.
func (m Model) adopt() (Model, tea.Cmd) {
	if m.selected < 0 || !m.points[m.selected].Front {
		return m, nil
	}
	p := m.points[m.selected]
	m.current, m.hasCurrent, m.adopted = p.Setting, true, m.selected
	msg := AdoptMsg{Method: p.Method, Variant: p.Variant, Values: p.Values.Clone(), Point: p}
	return m, func() tea.Msg { return msg }
}

// isCurrent reports whether point p has the project's current settings.
func (m Model) isCurrent(p advise.Point) bool {
	if !m.hasCurrent || p.Method != m.current.Method || p.Variant != m.current.Variant {
		return false
	}
	for k, v := range p.Values {
		if m.current.Values[k] != v {
			return false
		}
	}
	return true
}

// status is the line under the title: progress, the stale label, the
// error, or what the map holds.
func (m Model) status() (string, bool) {
	keyName := func(b key.Binding) string { return b.Help().Key }
	switch {
	case m.stale:
		return fmt.Sprintf("STALE: QIs, sensitive attribute, hierarchies or population changed; %s recomputes", keyName(m.keys.Recompute)), true
	case m.phase == idle:
		return fmt.Sprintf("no map yet: %s computes every method over its grid", keyName(m.keys.Recompute)), false
	case m.phase == running && len(m.points) == 0:
		return fmt.Sprintf("computing: starting, %s cancels", keyName(m.keys.Cancel)), false
	case m.phase == running:
		return fmt.Sprintf("computing: %d of %d points, %s cancels", m.done, len(m.points), keyName(m.keys.Cancel)), false
	case m.phase == cancelled && len(m.points) == 0:
		return fmt.Sprintf("cancelled before the first point; %s recomputes", keyName(m.keys.Recompute)), true
	case m.phase == cancelled:
		return fmt.Sprintf("cancelled at %d of %d points; %s recomputes", m.done, len(m.points), keyName(m.keys.Recompute)), true
	case m.phase == failed:
		return "error: " + m.err.Error(), true
	}
	onFront, failedRuns := 0, 0
	for _, p := range m.points {
		if p.Front {
			onFront++
		}
		if p.Err != "" {
			failedRuns++
		}
	}
	s := fmt.Sprintf("%d points, %d on the front", len(m.points), onFront)
	if failedRuns > 0 {
		s += fmt.Sprintf(", %d could not run", failedRuns)
	}
	return s, false
}
