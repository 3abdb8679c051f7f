package pipeline

import (
	"strings"
	"testing"

	"privlab/model"
)

// Figures print in fixed notation on the command line (issue 35 polish:
// 2.841e-05 and 9.30723e-14 were printed).
func TestFiguresPrintWithoutExponents(t *testing.T) {
	m, b := 2.841e-05, 9.30723e-14
	got := AttackSummary(model.AttackFigure{Attack: "membership", Figure: "advantage", Measured: &m, Bound: &b})
	if !strings.Contains(got, "advantage 0.00002841 against the bound 0 ") || strings.Contains(got, "e-") {
		t.Errorf("attack summary: %s", got)
	}
	if got := FormatFigure(2.841e-05); got != "0.00002841" {
		t.Errorf("FormatFigure: %s", got)
	}
}
