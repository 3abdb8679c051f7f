package model

import (
	"math"
	"testing"
)

// Figures print in fixed notation (issue 35.7, 35 polish): never 2.841e-05
// nor 9.30723e-14, which is a zero's rounding residue.
func TestFormatFixed(t *testing.T) {
	for _, c := range []struct {
		x    float64
		sig  int
		want string
	}{
		{2.841e-05, 4, "0.00002841"},
		{9.30723e-14, 6, "0"},
		{-9.30723e-14, 6, "0"},
		{8467.48670906719, 6, "8467.49"},
		{5.000000000000001, 6, "5"},
		{0.738095238095238, 4, "0.7381"},
		{10.333333333333332, 4, "10.33"},
		{25, 4, "25"},
		{1234567.8, 4, "1234568"},
		{-0.5, 3, "-0.5"},
		{0.00012345, 3, "0.000123"},
		{9.99996, 5, "10"},
		{math.NaN(), 4, "—"},
		{math.Inf(1), 4, "∞"},
	} {
		if got := FormatFixed(c.x, c.sig); got != c.want {
			t.Errorf("FormatFixed(%v, %d) = %q, want %q", c.x, c.sig, got, c.want)
		}
	}
}

// A range with a negative bound reads lo..hi, never -2-0.
func TestRangeLabel(t *testing.T) {
	for _, c := range [][3]string{{"-2", "0", "-2..0"}, {"2", "4", "2-4"}, {"-5", "-1", "-5..-1"}, {"1.5", "4", "1.5-4"}} {
		if got := RangeLabel(c[0], c[1]); got != c[2] {
			t.Errorf("RangeLabel(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
}
