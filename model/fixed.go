package model

import (
	"math"
	"strconv"
	"strings"
)

// FormatFixed prints a figure for a reader in fixed notation, never in
// exponent form (2.841e-05 reads 0.00002841): integers whole, other
// values to sig significant digits without trailing zeros, values of a
// million or more rounded to whole numbers. A value under 1e-12 in
// magnitude is the rounding residue of a zero (a difference of two equal
// sums) and reads 0. NaN reads —, infinities ∞ and -∞. The command line,
// report.md and the tours print figures with it; the manifest keeps
// every digit.
func FormatFixed(x float64, sig int) string {
	abs := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return "—"
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "-∞"
	case abs < 1e-12:
		return "0"
	case x == math.Trunc(x) && abs < 1e15:
		return strconv.FormatInt(int64(x), 10)
	case abs >= 1e6:
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
	}
	decimals := max(0, sig-1-int(math.Floor(math.Log10(abs))))
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// RangeLabel writes a numeric range lo-hi for a reader, or lo..hi when a
// bound is negative: -2-0 reads as a subtraction, -2..0 does not (issue
// 35 polish: kja's boxes printed -2-0 2-4).
func RangeLabel(lo, hi string) string {
	if strings.HasPrefix(lo, "-") || strings.HasPrefix(hi, "-") {
		return lo + ".." + hi
	}
	return lo + "-" + hi
}
