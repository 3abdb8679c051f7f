package ui

import (
	"fmt"
	"strings"
	"testing"
)

// TestFullHelpShowsEveryKeyAt80x24: ? lists every key of the pane and
// every global key on screen at 80x24; none is dropped behind the help's
// "…" because the columns are wider than the terminal (the Tour pane's ?
// showed its own keys and a bare … for every global key).
func TestFullHelpShowsEveryKeyAt80x24(t *testing.T) {
	views := map[string]func(t *testing.T) *App{
		"tour": func(t *testing.T) *App { return tourApp(t, "kja", 80, 24) },
	}
	for i, name := range []string{"data", "hierarchy", "target", "method", "preview", "query", "export", "sweep", "compare"} {
		views[name] = func(t *testing.T) *App { return ready(t, "dataset:employees", 80, 24).pressed(t, fmt.Sprint(i+1)) }
	}
	views["advisor"] = func(t *testing.T) *App { return ready(t, "dataset:employees", 80, 24).pressed(t, "A") }
	for name, open := range views {
		t.Run(name, func(t *testing.T) {
			a := open(t)
			press(t, a, "?")
			screen := a.View()
			for _, b := range append(a.globalKeys(), a.panes[a.active].fullHelp()...) {
				if !b.Enabled() {
					continue
				}
				if h := b.Help(); !strings.Contains(screen, h.Key) || !strings.Contains(screen, h.Desc) {
					t.Errorf("? at 80x24 does not show %q (%s):\n%s", h.Key, h.Desc, screen)
				}
			}
		})
	}
}

// pressed is a after the keys, for building views in one expression.
func (a *App) pressed(t *testing.T, keys ...string) *App {
	t.Helper()
	press(t, a, keys...)
	return a
}

// TestFullHelpListsOnlyKeysThatAct: ? lists the tour's key on a tour
// only and the advisor's where its tab is; on a received release neither
// (both were listed there and did nothing).
func TestFullHelpListsOnlyKeysThatAct(t *testing.T) {
	dir := t.TempDir()
	inDir(t, dir, func() {
		a := ready(t, "dataset:employees", 80, 24)
		press(t, a, "7", "enter")
	})
	for _, c := range []struct {
		name          string
		open          func(t *testing.T) *App
		tour, advisor bool
	}{
		{"workbench", func(t *testing.T) *App { return ready(t, "dataset:employees", 80, 24) }, false, true},
		{"tour", func(t *testing.T) *App { return tourApp(t, "kja", 80, 24) }, true, false},
		{"received release", func(t *testing.T) *App { return receivedApp(t, dir) }, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := c.open(t)
			press(t, a, "?")
			v := a.View()
			if strings.Contains(v, "open the tour") != c.tour || strings.Contains(v, "the advisor") != c.advisor {
				t.Errorf("tour key listed %v (want %v), advisor key listed %v (want %v):\n%s",
					strings.Contains(v, "open the tour"), c.tour, strings.Contains(v, "the advisor"), c.advisor, v)
			}
		})
	}
}
