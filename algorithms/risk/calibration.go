package risk

import "math"

// Calibration places an attack's success beside what the same attacker
// achieves without the release, as the attack framework of Giomi et al.
// (PoPETs 2023, Section 4, "Anonymeter") does: the attack is tried on
// Trials targets and succeeds on Successes of them (an expected count
// where each guess succeeds with a probability the attacker knows);
// Baseline is the success rate of the same attacker holding only the
// prior (the population's or the original's marginals, no release);
// Control is the rate on population people outside the data, where a
// population is given (NaN: none). Risk beyond the baseline is
// (rate - baseline) / (1 - baseline), with a 95% Wilson interval.
type Calibration struct {
	Successes float64
	Trials    int
	Baseline  float64
	Control   float64
}

// NoCalibration is the calibration of an attack that measured no rate.
func NoCalibration() Calibration {
	return Calibration{Baseline: math.NaN(), Control: math.NaN()}
}

// Rate is the attack's success rate (NaN without trials).
func (c Calibration) Rate() float64 {
	if c.Trials <= 0 {
		return math.NaN()
	}
	return math.Min(1, math.Max(0, c.Successes/float64(c.Trials)))
}

// Risk is the success beyond the baseline, (rate - baseline) / (1 -
// baseline), at least 0 (NaN without trials). Without a baseline it is
// the rate; a baseline of 1 leaves the release nothing to add (0).
func (c Calibration) Risk() float64 {
	return c.beyond(c.Rate())
}

// Interval is the 95% Wilson score interval of the rate (Wilson 1927),
// carried to risk beyond the baseline (NaN, NaN without trials).
func (c Calibration) Interval() [2]float64 {
	r := c.Rate()
	if math.IsNaN(r) {
		return [2]float64{math.NaN(), math.NaN()}
	}
	lo, hi := Wilson(r, c.Trials)
	return [2]float64{c.beyond(lo), c.beyond(hi)}
}

func (c Calibration) beyond(rate float64) float64 {
	b := c.Baseline
	switch {
	case math.IsNaN(rate):
		return math.NaN()
	case math.IsNaN(b):
		return rate
	case b >= 1:
		return 0
	}
	return math.Min(1, math.Max(0, (rate-b)/(1-b)))
}

// Wilson95 is the normal quantile of a two-sided 95% interval.
const Wilson95 = 1.959963984540054

// Wilson is the 95% Wilson score interval of a rate p observed on n
// trials.
func Wilson(p float64, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	z2 := Wilson95 * Wilson95
	fn := float64(n)
	den := 1 + z2/fn
	mid := (p + z2/(2*fn)) / den
	half := Wilson95 * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}
