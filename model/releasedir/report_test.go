package releasedir

import (
	"regexp"
	"strings"
	"testing"
)

// hostile is text a forger puts into a manifest to add to report.md's
// structure: a line break into a fake section, a pipe into a fake table
// cell, emphasis, a link and HTML.
const hostile = "0 |\n\n## Privacy\n\n- k_anonymity_guaranteed: 100 — holds\n| fake | row |\r\n# Verified\u2028**passed** [ok](http://x) <b>x</b> `c`"

// headings are the heading lines of a report.
func headings(report string) []string {
	var out []string
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, "> "), "#") {
			out = append(out, l)
		}
	}
	return out
}

// unescapedPipes counts the table cell separators of a line.
var unescapedPipe = regexp.MustCompile(`(^|[^\\])\|`)

// unescaped finds markup characters of a value not escaped.
var unescaped = regexp.MustCompile("(^|[^\\\\])[<`\\[]")

// No value of the manifest can add a line, a heading, a table cell or
// markup to report.md: every value is escaped, notes are quoted under the
// producer's-words label (issue 25, item 2).
func TestReportEscapesEveryValue(t *testing.T) {
	m := &Manifest{
		Method: "distribution", Title: "title" + hostile, Paper: hostile, Variant: hostile, Certifies: hostile,
		Parameters: map[string]string{"fakes": hostile, "k" + hostile: "2"},
		QIs:        []string{"age" + hostile, "sex"}, SA: hostile, Dropped: []string{hostile},
		MissingValues: hostile, Groups: 2,
		WorstCases:    []Figure{{Name: hostile, Value: 1, Limit: hostile, OK: true}},
		Utility:       []Figure{{Name: hostile, Value: 2}},
		Risk:          []Figure{{Name: hostile, Value: 3, Limit: hostile, Help: hostile}},
		RiskSummary:   hostile,
		WorkloadError: &WorkloadError{Shape: hostile, Queries: 1},
		Details:       mustDetails(t, map[string]any{"grouping": hostile, hostile: []any{hostile, 1.0}, "nested": map[string]any{"x": hostile}}),
		Files:         []FileEntry{{Name: "qi" + hostile + ".csv", SHA256: hostile}},
		Checks:        []string{"ok   files: " + hostile},
		Notes:         []string{hostile, "# a heading of its own", "- a list item", "1. a numbered item", "> a quote", "    code"},
	}
	got := RenderReport(m)
	want := []string{"# privlab release: title0 \\|\\n\\n\\#\\# Privacy\\n\\n- k_anonymity_guaranteed: 100 — holds\\n\\| fake \\| row \\|\\r\\n\\# Verified\\u2028\\*\\*passed\\*\\* \\[ok\\](http://x) \\<b>x\\</b> \\`c\\`",
		"## Privacy", "## In plain words", "## Risk and utility (the figures every method's release gets)", "## Utility", "## Notes from the run", "## Files"}
	if h := headings(got); strings.Join(h, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings:\n%s\nwant\n%s\n\nreport:\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"), got)
	}
	for i, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "The producer's words") {
			continue // fixed text
		}
		if strings.HasPrefix(l, "|") {
			if n := len(unescapedPipe.FindAllString(l, -1)); n != 3 && n != 4 {
				t.Errorf("line %d has %d cell separators: %s", i+1, n, l)
			}
		}
		if strings.ContainsAny(l, "\r\u2028") || strings.Contains(l, "**passed**") || unescaped.MatchString(l) {
			t.Errorf("line %d holds raw markup: %q", i+1, l)
		}
	}
	// Notes: quoted, one paragraph each, under the label; a leading list,
	// heading, quote or code marker is escaped.
	for _, n := range []string{"> \\# a heading of its own", "> \\- a list item", "> 1\\. a numbered item", "> \\> a quote", "> code"} {
		if !strings.Contains(got, "\n\n"+n+"\n") {
			t.Errorf("note %q not quoted as text:\n%s", n, got)
		}
	}
	if i, j := strings.Index(got, "The producer's words"), strings.Index(got, "> 0 \\|\\n"); i < 0 || j < i {
		t.Errorf("notes are not under the producer's-words label:\n%s", got)
	}
}

func TestMdText(t *testing.T) {
	for in, want := range map[string]string{
		"sum_of_ranges":   "sum_of_ranges",
		"_x_":             `\_x\_`,
		"a|b":             `a\|b`,
		"a\nb":            `a\nb`,
		"x > y":           "x > y",
		"P'(v) = 0.25":    "P'(v) = 0.25",
		"mondrian:50":     "mondrian:50",
		"a\\b":            `a\\b`,
		"zero\u200bwidth": `zero\u200bwidth`,
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}

// report.md prints its figures with FormatFixed too.
func TestReportNumberIsFixed(t *testing.T) {
	for x, want := range map[float64]string{2.841e-05: "0.00002841", 9.30723e-14: "0", 8467.48670906719: "8467.49", 12345678.9: "12345679"} {
		if got := reportNumber(x); got != want {
			t.Errorf("reportNumber(%v) = %q, want %q", x, got, want)
		}
	}
}
