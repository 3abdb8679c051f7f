package advisor

// Golden screens of the pane with the ASCII colour profile (TestMain).
// Regenerate with: go test ./ui/panes/advisor -run Golden -update

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"privlab/model"
)

// TestGolden80x24 and TestGolden120x34: the fixed points' map with the
// current settings marked (kja k=10) and the selection moved two points
// along the front; at 80x24 also while computing and once stale.
func TestGolden80x24(t *testing.T) {
	t.Run("finished", func(t *testing.T) {
		teatest.RequireEqualOutput(t, []byte(goldenPane(t, 80, 24).View()))
	})
	t.Run("computing", func(t *testing.T) {
		m := started(t)
		m.SetCurrent("kja", "mondrian", model.Values{"k": "10", "seed": "1"})
		m = feed(m, m.id, fixedPoints(), []int{7, 2, 0, 5, 9})
		teatest.RequireEqualOutput(t, []byte(m.View()))
	})
	t.Run("stale", func(t *testing.T) {
		m := goldenPane(t, 80, 24)
		m.MarkStale()
		teatest.RequireEqualOutput(t, []byte(m.View()))
	})
}

func TestGolden120x34(t *testing.T) {
	teatest.RequireEqualOutput(t, []byte(goldenPane(t, 120, 34).View()))
}

// goldenPane is the fixed map at w x h, kja k=10 current, the selection
// two points along the front.
func goldenPane(t *testing.T, w, h int) Model {
	m := shown(t, w, h)
	m.SetCurrent("kja", "mondrian", model.Values{"k": "10", "seed": "1"})
	m, _ = m.Update(press("right"))
	m, _ = m.Update(press("down"))
	return m
}
