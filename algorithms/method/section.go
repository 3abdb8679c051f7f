package method

import (
	"fmt"
	"io"
	"strings"
)

// WriteSections writes sections as text: each title, its notes, and its
// table with the first column left-aligned and the others right-aligned
// (charts are not drawn). The command line prints a study with it, and
// the tours their steps.
func WriteSections(w io.Writer, secs []Section) {
	for _, s := range secs {
		fmt.Fprintln(w)
		if s.Title != "" {
			fmt.Fprintln(w, s.Title)
		}
		for _, n := range s.Notes {
			fmt.Fprintln(w, "  "+n)
		}
		if len(s.Header) == 0 {
			continue
		}
		widths := make([]int, len(s.Header))
		for i, h := range s.Header {
			widths[i] = len(h)
		}
		for _, r := range s.Rows {
			for i := range widths {
				if i < len(r) && len(r[i]) > widths[i] {
					widths[i] = len(r[i])
				}
			}
		}
		line := func(cells []string) {
			parts := make([]string, len(widths))
			for i := range widths {
				c := ""
				if i < len(cells) {
					c = cells[i]
				}
				if i == 0 {
					parts[i] = fmt.Sprintf("%-*s", widths[i], c)
				} else {
					parts[i] = fmt.Sprintf("%*s", widths[i], c)
				}
			}
			fmt.Fprintln(w, strings.TrimRight("  "+strings.Join(parts, "  "), " "))
		}
		line(s.Header)
		for _, r := range s.Rows {
			line(r)
		}
	}
}
