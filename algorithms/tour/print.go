package tour

// Printing a tour for the command line (privlab tour, privlab tour NAME
// --steps): command-line code, which may spell flags (ui's
// TestNoFlagOutsideTheCommandLine lists this file).

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

// Flags are the command-line flags that run a setup (privlab run FLAGS
// --out DIR gives the release the step shows).
func (t Tour) Flags(s method.Setup) string {
	parts := []string{"--in " + s.Input}
	if s.Public != "" {
		parts = append(parts, "--public "+s.Public)
	}
	if len(s.Roles.QIs) > 0 {
		parts = append(parts, "--qi "+strings.Join(s.Roles.QIs, ","))
	}
	if s.Roles.SA != "" {
		parts = append(parts, "--sa "+s.Roles.SA)
	}
	if len(s.Roles.IDs) > 0 {
		parts = append(parts, "--id "+strings.Join(s.Roles.IDs, ","))
	}
	parts = append(parts, "--method "+t.Method(s))
	if s.Variant != "" {
		parts = append(parts, "--variant "+s.Variant)
	}
	for _, a := range sortedKeys(s.Hierarchies) {
		parts = append(parts, "--hierarchy "+a+"="+s.Hierarchies[a])
	}
	for _, name := range sortedKeys(s.Params) {
		parts = append(parts, "--"+name+" "+quoteFlag(s.Params[name]))
	}
	return strings.Join(parts, " ")
}

// quoteFlag quotes a value a shell would split.
func quoteFlag(v string) string {
	if strings.ContainsAny(v, " '\"*?;&|<>()$") {
		return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
	}
	return v
}
