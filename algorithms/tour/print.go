package tour

import (
	"fmt"
	"io"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
)

// Width is the width steps are wrapped to when printed.
const Width = 78

// PrintList writes the tours, one a line.
func PrintList(w io.Writer) {
	fmt.Fprintf(w, "%-13s %-6s %s\n", "tour", "steps", "what it shows")
	for _, t := range All() {
		fmt.Fprintf(w, "%-13s %-6d %s (%s)\n", t.Name, len(t.Tour.Steps), t.Title, t.Paper)
	}
	fmt.Fprintln(w, "\nprivlab tour NAME opens the workbench on the tour; privlab tour NAME --steps prints its steps.")
}

// Print writes a tour's steps as text (for slides, and for tests).
func Print(w io.Writer, t Tour, steps []method.Step) {
	fmt.Fprintf(w, "%s\n%s\n", t.Title, t.Paper)
	for i, st := range steps {
		fmt.Fprintf(w, "\n== Step %d of %d: %s\n", i+1, len(steps), st.Title)
		if st.Cite != "" {
			fmt.Fprintf(w, "   (%s)\n", st.Cite)
		}
		fmt.Fprintf(w, "   run: privlab run %s --out DIR\n", t.Flags(st.Setup))
		for _, p := range st.Text {
			fmt.Fprintln(w)
			for _, l := range Wrap(p, Width-2) {
				fmt.Fprintln(w, "  "+l)
			}
		}
		pipeline.PrintSections(w, st.Sections)
	}
}

// Wrap breaks a paragraph into lines of at most width characters (a
// longer word stands on a line of its own).
func Wrap(p string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(p) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}
