package risk

import (
	"math"
	"testing"
)

// The Wilson interval against values computed by hand from its formula
// (Wilson 1927): 8 of 10 gives [0.4902, 0.9433]; 0 of 20 gives [0, 0.1611].
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		p      float64
		n      int
		lo, hi float64
	}{{0.8, 10, 0.49016, 0.94332}, {0, 20, 0, 0.16113}, {1, 4, 0.51009, 1}, {0.5, 100, 0.40383, 0.59617}} {
		lo, hi := Wilson(c.p, c.n)
		if math.Abs(lo-c.lo) > 1e-4 || math.Abs(hi-c.hi) > 1e-4 {
			t.Errorf("Wilson(%v, %d) = [%.5f, %.5f], want [%.5f, %.5f]", c.p, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestCalibrationRisk(t *testing.T) {
	c := Calibration{Successes: 8, Trials: 10, Baseline: 0.5, Control: math.NaN()}
	if r := c.Risk(); math.Abs(r-0.6) > 1e-12 {
		t.Errorf("risk = %v, want (0.8-0.5)/(1-0.5) = 0.6", r)
	}
	iv := c.Interval()
	if math.Abs(iv[0]-0) > 1e-12 || math.Abs(iv[1]-(0.94332-0.5)/0.5) > 1e-4 {
		t.Errorf("interval = %v, want [0, %.4f]", iv, (0.94332-0.5)/0.5)
	}
	if r := (Calibration{Successes: 1, Trials: 2, Baseline: 1}).Risk(); r != 0 {
		t.Errorf("baseline 1: risk %v, want 0", r)
	}
	if r := NoCalibration().Risk(); !math.IsNaN(r) {
		t.Errorf("no trials: risk %v, want NaN", r)
	}
}
