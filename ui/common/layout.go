package common

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"privlab/model"
)

// LenCells is the display width of s.
func LenCells(s string) int { return lipgloss.Width(s) }

// Fit cuts or pads one line to exactly w cells, measured as the
// terminal shows it (termScreen).
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = TermScreen(s)
	if lipgloss.Width(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if pad := w - lipgloss.Width(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// Block makes text exactly w x h: every line fitted, missing lines blank,
// extra lines dropped. Panes render through it so nothing is clipped
// illegibly or overflows at 80x24.
func Block(text string, w, h int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = Fit(l, w)
	}
	return strings.Join(lines, "\n")
}

// SideBySide joins two blocks of the same height with a gap.
func SideBySide(left string, lw int, right string, rw int, h int) string {
	l := strings.Split(Block(left, lw, h), "\n")
	r := strings.Split(Block(right, rw, h), "\n")
	out := make([]string, h)
	for i := range out {
		out[i] = l[i] + " │ " + r[i]
	}
	return strings.Join(out, "\n")
}

// Sparkline draws counts as one cell each with block characters.
func Sparkline(counts []int32) string {
	const ticks = "▁▂▃▄▅▆▇█"
	var max int32
	for _, c := range counts {
		if c > max {
			max = c
		}
	}
	runes := []rune(ticks)
	var b strings.Builder
	for _, c := range counts {
		if c == 0 || max == 0 {
			b.WriteRune(' ')
			continue
		}
		i := int(math.Ceil(float64(c)/float64(max)*float64(len(runes)))) - 1
		if i < 0 {
			i = 0
		}
		b.WriteRune(runes[i])
	}
	return b.String()
}

// Bar draws a horizontal bar of fraction f (0..1) in w cells.
func Bar(f float64, w int) string {
	if w <= 0 {
		return ""
	}
	if f < 0 || math.IsNaN(f) {
		f = 0
	}
	if f > 1 {
		f = 1
	}
	eighths := int(math.Round(f * float64(w) * 8))
	full := eighths / 8
	rem := eighths % 8
	parts := []rune(" ▏▎▍▌▋▊▉")
	s := strings.Repeat("█", full)
	if rem > 0 && full < w {
		s += string(parts[rem])
	}
	return s + strings.Repeat(" ", w-lipgloss.Width(s))
}

// Bins groups n leaf values into at most max consecutive bins and returns
// each bin's label ("a–b"; ranges "0-0.1" and "0.1-0.2" join as
// "0-0.2") and the series, summed (counts, shares) or, where largest[s]
// is true, their largest value (a limit).
func Bins(labels []string, series [][]float64, largest []bool, max int) ([]string, [][]float64) {
	n := len(labels)
	if n <= max {
		return labels, series
	}
	outL := make([]string, max)
	outS := make([][]float64, len(series))
	for s := range series {
		outS[s] = make([]float64, max)
	}
	for b := 0; b < max; b++ {
		lo, hi := b*n/max, (b+1)*n/max-1
		outL[b] = binLabel(labels[lo], labels[hi], lo == hi)
		for s := range series {
			for i := lo; i <= hi; i++ {
				if i >= len(series[s]) {
					continue
				}
				if s < len(largest) && largest[s] {
					outS[s][b] = math.Max(outS[s][b], series[s][i])
				} else {
					outS[s][b] += series[s][i]
				}
			}
		}
	}
	return outL, outS
}

// binLabel names a bin from its first and last label: two ranges "a-b"
// and "c-d" join as "a-d", other labels as "first–last".
func binLabel(first, last string, one bool) string {
	if one {
		return first
	}
	if i, j := strings.LastIndex(first, "-"), strings.LastIndex(last, "-"); i > 0 && j > 0 {
		return first[:i] + "-" + last[j+1:]
	}
	return first + "–" + last
}

// Human prints a number compactly: 1234567 -> 1.23M, 12345 -> 12.3k
// (SI prefixes from 10,000 on), 3.14159 -> 3.14, 0.0123 -> 0.0123.
func Human(x float64) string {
	a := math.Abs(x)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return fmt.Sprint(x)
	case a >= 1e4:
		v, prefix := humanize.ComputeSI(x)
		if prefix == "k" {
			return Decimals(v, 1) + prefix
		}
		return Decimals(v, 2) + prefix
	case x == math.Trunc(x):
		return model.FormatNumber(x)
	case a >= 1:
		return Decimals(x, 2)
	}
	return fmt.Sprintf("%.3g", x)
}

// Decimals is x rounded to d decimals without trailing zeros (go-humanize
// cuts the digits; rounding first keeps 1.999 from reading as 1.99).
func Decimals(x float64, d int) string {
	p := math.Pow(10, float64(d))
	return humanize.FtoaWithDigits(math.Round(x*p)/p, d)
}

// Thousands prints an integer with separators: 10000 -> 10,000.
func Thousands(n int) string { return humanize.Comma(int64(n)) }

// Clip cuts s to at most n cells, ending in … when cut.
func Clip(s string, n int) string { return ansi.Truncate(s, n, "…") }

// ClipDistinct clips each name to n cells; names that would then read
// the same keep their ends instead ("effective vs…EMD", "effective
// vs…max |diff|"), so a clipped list never shows two identical labels.
func ClipDistinct(names []string, n int) []string {
	out := make([]string, len(names))
	seen := map[string]int{}
	for i, s := range names {
		out[i] = Clip(s, n)
		seen[out[i]]++
	}
	for i, s := range names {
		if seen[out[i]] > 1 && LenCells(s) > n && n > 4 {
			head := (n - 1) / 2
			tail := n - 1 - head
			out[i] = ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, LenCells(s)-tail, "")
		}
	}
	return out
}

// Wrap breaks text into lines of at most w cells at spaces and hyphens;
// a word longer than w stays whole. The text is a message, never styled:
// the names and values it holds are escaped (model.TermLines).
func Wrap(text string, w int) string {
	text = model.TermLines(text)
	out := ansi.Wordwrap(text, w, "")
	// ansi.Wordwrap keeps a hyphen it breaks at on its line even as the
	// (w+1)-th cell: wrapped one cell narrower, that line ends within w.
	for _, l := range strings.Split(out, "\n") {
		if w > 1 && LenCells(l) == w+1 && strings.HasSuffix(l, "-") {
			return ansi.Wordwrap(text, w-1, "")
		}
	}
	return out
}

// Indented wraps text to w cells with every line indented by two.
func Indented(text string, w int) string {
	lines := strings.Split(Wrap(text, w-2), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}

// Scroll returns the first visible index so that cursor stays within a
// window of h rows.
func Scroll(cursor, offset, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	if offset > n-h {
		offset = n - h
	}
	if offset < 0 {
		offset = 0
	}
	return offset
}

// TermScreen is the screen as the terminal gets it: the colours and
// weights the styles wrote (SGR sequences, ESC [ params m) kept, the
// newlines kept, and every other control or format character a name or
// a value may still carry written as a visible escape (model.TermLines),
// so that no header or cell can retitle, clear or move the terminal
// (issue 32, item 6). The panes escape what they show (model.TermText)
// so that their columns line up; this is the screen's last defence.
func TermScreen(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			b.WriteString(model.TermLines(s))
			break
		}
		b.WriteString(model.TermLines(s[:i]))
		if n := sgrLen(s[i:]); n > 0 {
			b.WriteString(s[i : i+n])
			s = s[i+n:]
			continue
		}
		b.WriteString(`\x1b`)
		s = s[i+1:]
	}
	return b.String()
}

// sgrLen is the length of the SGR sequence s starts with, 0 when it
// starts with none.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c == 'm':
			return j + 1
		case c >= '0' && c <= '9' || c == ';' || c == ':':
		default:
			return 0
		}
	}
	return 0
}

// Safe is a name or a value read from a file as a pane shows it
// (model.TermText: control and format characters as visible escapes).
func Safe(s string) string { return model.TermText(s) }

// PadRight left-aligns s in n cells.
func PadRight(s string, n int) string {
	if l := LenCells(s); l < n {
		return s + strings.Repeat(" ", n-l)
	}
	return s
}

// DirOf is the directory of a path.
func DirOf(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[:i]
	}
	return "."
}

// DatasetName returns NAME for dataset:NAME inputs.
func DatasetName(input string) (string, bool) {
	if strings.HasPrefix(input, "dataset:") {
		return strings.TrimPrefix(input, "dataset:"), true
	}
	return "", false
}

// OrNone is s, or "none" when it is empty.
func OrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Plural writes "1 group", "2 groups".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return Thousands(n) + " " + word + "s"
}

// Violate says how many groups break the requirement: "1 group
// violates", "3 groups violate".
func Violate(n int) string {
	if n == 1 {
		return "1 group violates"
	}
	return Plural(n, "group") + " violate"
}

// OrDash is s, or a dash for an empty value.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
