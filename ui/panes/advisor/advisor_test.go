package advisor

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"privlab/algorithms/advise"
	"privlab/model"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// pt is a hand-built point.
func pt(method, variant string, values model.Values, holds bool, risk, low, high, loss float64) advise.Point {
	return advise.Point{Setting: advise.Setting{Method: method, Variant: variant, Values: values}, Holds: holds,
		Risk: risk, Interval: [2]float64{low, high}, Attack: "linkage", Loss: loss}
}

// fixedPoints are twelve points of four methods: a front of five
// (kja k=2 is the riskiest and most useful), points behind it, one whose
// definition fails and one that could not run.
func fixedPoints() []advise.Point {
	nan := math.NaN()
	return []advise.Point{
		pt("distribution", "", model.Values{"t": "0.2"}, true, 0.020, 0.010, 0.030, 0.40),
		pt("distribution", "", model.Values{"t": "0.5"}, true, 0.060, 0.040, 0.080, 0.22),
		pt("kja", "mondrian", model.Values{"k": "2"}, true, 0.300, 0.250, 0.350, 0.02),
		pt("kja", "mondrian", model.Values{"k": "10"}, true, 0.120, 0.090, 0.150, 0.08),
		pt("kja", "mondrian", model.Values{"k": "50"}, true, 0.050, 0.030, 0.070, 0.30),
		pt("lossyjoin", "", model.Values{"l": "2"}, false, 0.250, 0.200, 0.300, 0.15),
		pt("lossyjoin", "", model.Values{"l": "5"}, true, 0.150, 0.120, 0.180, 0.12),
		pt("sampling", "", model.Values{"rate": "0.1"}, true, 0.010, 0.000, 0.020, 0.55),
		pt("sampling", "", model.Values{"rate": "0.5"}, true, 0.080, 0.060, 0.100, 0.25),
		pt("sampling", "", model.Values{"rate": "0.9"}, true, 0.180, 0.150, 0.210, 0.10),
		{Setting: advise.Setting{Method: "sampling", Values: model.Values{"rate": "1"}}, Risk: nan, Loss: nan,
			Interval: [2]float64{nan, nan}, Err: "no query answered"},
		pt("kja", "mondrian", model.Values{"k": "5"}, true, 0.200, 0.170, 0.230, 0.04),
	}
}

// feed sends the points of computation id to the pane in the order given.
func feed(m Model, id int, points []advise.Point, order []int) Model {
	for n, at := range order {
		m, _ = m.Update(PointMsg{ID: id, Done: n + 1, Total: len(points), At: at, Point: points[at]})
	}
	return m
}

// started is a pane with a computation under way that never sends (the
// test sends its messages itself).
func started(t *testing.T) Model {
	t.Helper()
	m := New(func(ctx context.Context, _ func(int, int, int, advise.Point)) error { <-ctx.Done(); return ctx.Err() }, DefaultStyles())
	m, cmd := m.Recompute()
	if cmd == nil || !m.Running() {
		t.Fatal("recompute started nothing")
	}
	t.Cleanup(m.stop)
	return m
}

// shown is a pane with the fixed points all finished, at size w x h.
func shown(t *testing.T, w, h int) Model {
	t.Helper()
	m := started(t)
	m.SetSize(w, h)
	ps := fixedPoints()
	m = feed(m, m.id, ps, []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
	m, _ = m.Update(DoneMsg{ID: m.id})
	return m
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// TestOutOfOrder: points arriving in any order land at their index, the
// progress counts them, and the finished map is the same whatever the
// order.
func TestOutOfOrder(t *testing.T) {
	ps := fixedPoints()
	forward := started(t)
	forward = feed(forward, forward.id, ps, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	backward := started(t)
	backward = feed(backward, backward.id, ps, []int{5})
	if got := backward.View(); !strings.Contains(got, "computing: 1 of 12 points, esc cancels") {
		t.Errorf("progress after one point:\n%s", got)
	}
	backward = feed(backward, backward.id, ps, []int{11, 10, 9, 8, 7, 6, 4, 3, 2, 1, 0})
	for i := range ps {
		f, b := forward.points[i], backward.points[i]
		if f.Method != ps[i].Method || f.Risk != b.Risk && !math.IsNaN(f.Risk) || f.Front != b.Front || b.Setting.ParamText() != ps[i].ParamText() {
			t.Errorf("point %d: in order %v front %v, reversed %v front %v", i, f, f.Front, b, b.Front)
		}
	}
	if forward.View() != backward.View() {
		t.Errorf("the order the points finish in changes the map:\n%s\n%s", forward.View(), backward.View())
	}
	if !strings.Contains(forward.View(), "computing: 12 of 12 points") {
		t.Errorf("progress after every point:\n%s", forward.View())
	}
}

// TestStaleRequestDropped: the points and the end of a computation that
// a newer one replaced are dropped.
func TestStaleRequestDropped(t *testing.T) {
	m := started(t)
	old := m.id
	m, _ = m.Recompute()
	t.Cleanup(m.stop)
	ps := fixedPoints()
	m, cmd := m.Update(PointMsg{ID: old, Done: 1, Total: len(ps), At: 0, Point: ps[0]})
	if cmd != nil || len(m.points) != 0 || m.done != 0 {
		t.Errorf("a stale point was taken: %d points, %d done", len(m.points), m.done)
	}
	m, _ = m.Update(DoneMsg{ID: old})
	if !m.Running() {
		t.Error("a stale end stopped the computation under way")
	}
	m, cmd = m.Update(PointMsg{ID: m.id, Done: 1, Total: len(ps), At: 3, Point: ps[3]})
	if cmd == nil || m.done != 1 || m.points[3].Method != "kja" {
		t.Errorf("the current computation's point was not taken (or no wait for the next): %d done", m.done)
	}
}

// TestMoveAlongFront: the selection starts at the front's lowest risk,
// moves along the front in order of risk with either pair of arrows,
// and stops at its ends.
func TestMoveAlongFront(t *testing.T) {
	m := shown(t, 80, 24)
	// The front in order of risk: sampling 0.1, distribution 0.2, kja 50,
	// distribution 0.5, kja 10, kja 5, kja 2 (lossyjoin 5 and the others
	// are behind it; lossyjoin 2 fails).
	want := []string{"sampling rate=0.1", "distribution t=0.2", "kja variant=mondrian k=50", "distribution t=0.5", "kja variant=mondrian k=10",
		"kja variant=mondrian k=5", "kja variant=mondrian k=2"}
	var got []string
	for range want {
		got = append(got, m.points[m.selected].String())
		m, _ = m.Update(press("right"))
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("along the front:\n got %v\nwant %v", got, want)
	}
	if s := m.points[m.selected].String(); s != want[len(want)-1] {
		t.Errorf("past the end: %s", s)
	}
	m, _ = m.Update(press("up"))
	m, _ = m.Update(press("left"))
	if s := m.points[m.selected].String(); s != want[len(want)-3] {
		t.Errorf("two back: %s", s)
	}
	m, _ = m.Update(press("down"))
	if s := m.points[m.selected].String(); s != want[len(want)-2] {
		t.Errorf("down: %s", s)
	}
	if v := m.View(); !strings.Contains(v, "K kja variant=mondrian k=5: holds, risk 0.2000 [0.1700, 0.2300] (linkage), loss") ||
		!strings.Contains(v, "[K]") || !strings.Contains(v, "On the front (6 of 7") {
		t.Errorf("the selected point's figures:\n%s", v)
	}
}

// TestAdopt: enter emits the selected point's method, variant and
// values, and the map marks them as the current settings.
func TestAdopt(t *testing.T) {
	m := shown(t, 120, 34)
	for range 4 {
		m, _ = m.Update(press("right"))
	}
	m, cmd := m.Update(press("enter"))
	if cmd == nil {
		t.Fatal("enter emitted nothing")
	}
	msg, ok := cmd().(AdoptMsg)
	if !ok || msg.Method != "kja" || msg.Variant != "mondrian" || len(msg.Values) != 1 || msg.Values["k"] != "10" || msg.Point.Loss != 0.08 {
		t.Fatalf("adopt: %+v", msg)
	}
	if m.Adopted() != 3 {
		t.Errorf("adopted index %d, want 3", m.Adopted())
	}
	if v := m.View(); !strings.Contains(v, "loss 0.0800, current settings") {
		t.Errorf("the adopted point is not the current settings:\n%s", v)
	}
	// The message owns its values.
	msg.Values["k"] = "99"
	if m.points[m.selected].Values["k"] != "10" {
		t.Error("the message shares the point's values")
	}
	// Nothing to adopt before a point is on the front.
	if _, cmd := started(t).Update(press("enter")); cmd != nil {
		t.Error("enter adopted with no front")
	}
}

// TestMarkStale: a changed setting labels the map stale and stops a
// computation under way; only r recomputes, and clears the label.
func TestMarkStale(t *testing.T) {
	m := shown(t, 80, 24)
	m.MarkStale()
	if !m.Stale() || !strings.Contains(m.View(), "STALE: QIs, sensitive attribute, hierarchies or population changed; r recomputes") {
		t.Errorf("not labelled stale:\n%s", m.View())
	}
	if ps, _ := m.Points(); len(ps) != 12 {
		t.Errorf("the stale map lost its points: %d", len(ps))
	}
	m, _ = m.Update(press("right"))
	if m.Running() {
		t.Error("a key other than r recomputed")
	}
	ctx := make(chan context.Context, 1)
	m.SetRun(func(c context.Context, _ func(int, int, int, advise.Point)) error {
		ctx <- c
		<-c.Done()
		return c.Err()
	})
	m, cmd := m.Update(press("r"))
	if !m.Running() || m.Stale() || cmd == nil {
		t.Fatalf("r did not recompute: running %v stale %v", m.Running(), m.Stale())
	}
	go cmd()
	c := <-ctx
	m.MarkStale()
	<-c.Done() // the computation of the old settings stops
	if m.Running() || !strings.Contains(m.View(), "STALE") {
		t.Errorf("after a change during a computation:\n%s", m.View())
	}
}

// TestCancel: esc cancels the computation's context, the status says
// where it stopped, and its later points are dropped.
func TestCancel(t *testing.T) {
	ps := fixedPoints()
	ctx := make(chan context.Context, 1)
	m := New(func(c context.Context, each func(int, int, int, advise.Point)) error {
		each(1, len(ps), 2, ps[2])
		ctx <- c
		<-c.Done()
		return c.Err()
	}, DefaultStyles())
	m, cmd := m.Update(press("ctrl+r"))
	if cmd == nil {
		m, cmd = m.Recompute()
	}
	msg := cmd()
	m, next := m.Update(msg)
	if m.done != 1 || next == nil {
		t.Fatalf("first point: %d done", m.done)
	}
	c := <-ctx
	m, _ = m.Update(press("esc"))
	<-c.Done()
	if m.Running() || !strings.Contains(m.View(), "cancelled at 1 of 12 points; r recomputes") {
		t.Errorf("after esc:\n%s", m.View())
	}
	if msg := next(); msg != nil {
		m, _ = m.Update(msg)
	}
	m, _ = m.Update(PointMsg{ID: m.id, Done: 2, Total: len(ps), At: 3, Point: ps[3]})
	if m.done != 1 {
		t.Errorf("a point after cancel was taken: %d done", m.done)
	}
}

// TestRunFails: the run's error is shown; a panic in it is an error too.
func TestRunFails(t *testing.T) {
	for name, run := range map[string]Run{
		"error": func(context.Context, func(int, int, int, advise.Point)) error {
			return errors.New("no quasi-identifier")
		},
		"panic": func(context.Context, func(int, int, int, advise.Point)) error { panic("boom") },
	} {
		m := New(run, DefaultStyles())
		m, cmd := m.Recompute()
		m, _ = m.Update(cmd())
		if m.Running() || !strings.Contains(m.View(), "error: ") {
			t.Errorf("%s: %s", name, m.View())
		}
	}
	m := New(nil, DefaultStyles())
	if m, _ = m.Update(press("r")); !strings.Contains(m.View(), "error: nothing to compute") {
		t.Errorf("no run: %s", m.View())
	}
}

// TestKeyNamesFromBindings: the keys named on screen follow a rebinding.
func TestKeyNamesFromBindings(t *testing.T) {
	m := New(nil, DefaultStyles())
	k := DefaultKeyMap()
	k.Recompute.SetKeys("g")
	k.Recompute.SetHelp("g", "recompute")
	m.SetKeys(k)
	if v := m.View(); !strings.Contains(v, "no map yet: g computes") {
		t.Errorf("rebound key not shown:\n%s", v)
	}
	if m, _ = m.Update(press("r")); m.Running() || m.phase != idle {
		t.Error("the old key still recomputes")
	}
	if len(m.ShortHelp()) != 5 || len(m.FullHelp()) != 2 {
		t.Error("help lists the wrong keys")
	}
}

// TestSymbols: one symbol per method, stable whatever order the methods
// come in, a letter of the name unless taken, and lower case for a
// point whose definition fails.
func TestSymbols(t *testing.T) {
	ps := []advise.Point{{Setting: advise.Setting{Method: "kja"}}, {Setting: advise.Setting{Method: "kanon"}},
		{Setting: advise.Setting{Method: "distribution"}}, {Setting: advise.Setting{Method: "kk"}}}
	methods, sym := symbols(ps)
	if strings.Join(methods, " ") != "distribution kja kanon kk" || string([]rune{sym["distribution"], sym["kja"], sym["kanon"], sym["kk"]}) != "DKA*" {
		t.Errorf("methods %v symbols %q", methods, sym)
	}
	if failedSymbol('K') != 'k' || failedSymbol('*') != '*' {
		t.Error("failed symbol")
	}
}

// TestLossAxisEndsAtFront: a point far lossier than the front is drawn
// on the top row labelled above, and the loss axis ends at the front's
// highest loss.
func TestLossAxisEndsAtFront(t *testing.T) {
	m := started(t)
	ps := append(fixedPoints(), pt("distribution", "", model.Values{"t": "0.9"}, true, 0.25, 0.2, 0.3, 24))
	m = feed(m, m.id, ps, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	lines := strings.Split(m.View(), "\n")
	if !strings.HasPrefix(lines[2], "above|") || !strings.Contains(lines[2], "D") || !strings.HasPrefix(lines[3], " 0.55|") {
		t.Errorf("the lossy point is not above the axis:\n%s", m.View())
	}
}

// TestSetMap: a saved map shows as finished, stale as saved, with the
// adopted point selected when it is on the front.
func TestSetMap(t *testing.T) {
	ref := shown(t, 80, 24)
	points, complete := ref.Points()
	if !complete {
		t.Fatal("the shown map is not complete")
	}
	m := New(nil, DefaultStyles())
	m.SetMap(points, 3, true)
	if !m.Stale() || m.Running() || m.Selected() != 3 || m.Adopted() != 3 {
		t.Errorf("stale %v running %v selected %d adopted %d", m.Stale(), m.Running(), m.Selected(), m.Adopted())
	}
	m.SetMap(points, 5, false) // lossyjoin l=2 fails: not on the front
	if m.Stale() || m.Selected() != 7 || m.Adopted() != 5 {
		t.Errorf("selected %d adopted %d", m.Selected(), m.Adopted())
	}
}

// TestEverySize: at any size the view has exactly the pane's height in
// lines, none wider than the pane, with no panic; from 80x14 up the
// chart is drawn.
func TestEverySize(t *testing.T) {
	ref := shown(t, 80, 24)
	for w := 1; w <= 130; w += 3 {
		for h := 1; h <= 40; h += 3 {
			m := ref
			m.SetSize(w, h)
			lines := strings.Split(m.View(), "\n")
			if len(lines) != h {
				t.Fatalf("%dx%d: %d lines", w, h, len(lines))
			}
			for i, l := range lines {
				if lipgloss.Width(l) > w {
					t.Fatalf("%dx%d: line %d is %d wide: %q", w, h, i, lipgloss.Width(l), l)
				}
			}
			if w >= 80 && h >= 14 && !strings.Contains(m.View(), "+----") {
				t.Errorf("%dx%d: no chart\n%s", w, h, m.View())
			}
		}
	}
}

// TestCancelBeforeTheFirstPoint: esc before the first point arrives says
// the map was cancelled before any point, not "at 0 of 0 points" (a
// large table's first point takes seconds).
func TestCancelBeforeTheFirstPoint(t *testing.T) {
	ctx := make(chan context.Context, 1)
	m := New(func(c context.Context, each func(int, int, int, advise.Point)) error {
		ctx <- c
		<-c.Done()
		return c.Err()
	}, DefaultStyles())
	m, cmd := m.Update(press("ctrl+r"))
	if cmd == nil {
		m, cmd = m.Recompute()
	}
	go cmd()
	c := <-ctx
	m, _ = m.Update(press("esc"))
	<-c.Done()
	if v := m.View(); strings.Contains(v, "0 of 0") || !strings.Contains(v, "cancelled before the first point; r recomputes") {
		t.Errorf("after esc:\n%s", v)
	}
}
