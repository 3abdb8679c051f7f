package cli

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/tour"
	"privlab/model"
	"privlab/ui"
	"privlab/ui/cli/clitext"
)

// cmdTour lists the teaching tours, opens the workbench on one, or
// prints its steps (privlab tour [NAME [--steps]]).
func cmdTour(args []string, w, ew io.Writer) int {
	steps := false
	var names []string
	for _, a := range args {
		switch {
		case a == "--steps" || a == "-steps":
			steps = true
		case a == "-h" || a == "--help":
			c, _ := lookupCommand("tour")
			commandHelp(w, c)
			return exitOK
		case strings.HasPrefix(a, "-"):
			return fail(ew, tourFlagError(a))
		default:
			names = append(names, a)
		}
	}
	if len(names) > 1 || steps && len(names) == 0 {
		return fail(ew, &model.ParamError{Param: "tour", Value: strings.Join(names, " "), Reason: "expected one tour name",
			Hint: "privlab tour [NAME [--steps]]; tours: " + strings.Join(tour.Names(), ", ")})
	}
	if len(names) == 0 {
		printTours(w)
		return exitOK
	}
	t, err := tour.Lookup(names[0])
	if err != nil {
		return fail(ew, err)
	}
	if !steps {
		if err := ui.Run(env, ui.Options{Tour: t.Name}); err != nil {
			fmt.Fprintf(ew, "privlab: %s\n", clitext.ErrorText(err))
			return exitUsage
		}
		return exitOK
	}
	ctx, cancel := interruptible(ew)
	defer cancel()
	list, err := t.Steps(ctx, env)
	if err != nil {
		return fail(ew, err)
	}
	lab := t.Lab(env)
	printTour(w, t, list, func(s method.Setup) bool {
		_, res, err := lab.Run(ctx, s)
		return err == nil && (res.Violations() > 0 || !res.Satisfied())
	})
	return exitOK
}

// tourFlagError refuses a flag tour does not take: one another command
// reads is named as not read by tour, any other is unknown.
func tourFlagError(arg string) error {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	fs := flag.NewFlagSet("tour", flag.ContinueOnError)
	defineFlags(fs, &Args{})
	if fs.Lookup(name) != nil {
		c, _ := lookupCommand("tour")
		return c.notRead(name)
	}
	return &model.ParamError{Param: "tour", Value: arg, Reason: "unknown flag", Hint: "privlab tour [NAME [--steps]]"}
}

// printTours writes the tours, one a line.
func printTours(w io.Writer) {
	fmt.Fprintf(w, "%-13s %-6s %s\n", "tour", "steps", "what it shows")
	for _, t := range tour.All() {
		fmt.Fprintf(w, "%-13s %-6d %s (%s)\n", t.Name, len(t.Tour.Steps), t.Title, t.Paper)
	}
	fmt.Fprintln(w, "\nprivlab tour NAME opens the workbench on the tour; privlab tour NAME --steps prints its steps.")
}

// tourWidth is the width steps are wrapped to when printed.
const tourWidth = 78

// printTour writes a tour's steps as text (privlab tour NAME --steps,
// for slides): each step with the command that makes its release. A
// step whose release violates its requirement on purpose (the paper's
// counter-example) gets --accept-violations, so that every printed
// command runs as printed (issue 35.10).
func printTour(w io.Writer, t tour.Tour, steps []method.Step, violates func(method.Setup) bool) {
	fmt.Fprintf(w, "%s\n%s\n", t.Title, t.Paper)
	for i, st := range steps {
		fmt.Fprintf(w, "\n== Step %d of %d: %s\n", i+1, len(steps), st.Title)
		if st.Cite != "" {
			fmt.Fprintf(w, "   (%s)\n", st.Cite)
		}
		accept := ""
		if violates(st.Setup) {
			accept = " --accept-violations"
		}
		fmt.Fprintf(w, "   run: privlab run %s%s --out DIR\n", tourFlags(t, st.Setup), accept)
		for _, p := range st.Text {
			fmt.Fprintln(w)
			for _, l := range wrap(p, tourWidth-2) {
				fmt.Fprintln(w, "  "+l)
			}
		}
		method.WriteSections(w, st.Sections)
	}
}

// wrap breaks a paragraph into lines of at most width characters (a
// longer word stands on a line of its own). It breaks at spaces only:
// ansi.Wordwrap, which the workbench uses, also breaks after hyphens and
// would print "quasi-" and "identifier" on two lines of the printed steps.
func wrap(p string, width int) []string {
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

// tourFlags are the command-line flags that run a tour step's setup
// (privlab run FLAGS --out DIR gives the release the step shows).
func tourFlags(t tour.Tour, s method.Setup) string {
	parts := []string{"--in " + s.Input}
	if s.Public != "" {
		parts = append(parts, "--public "+s.Public)
	}
	if s.Population != "" {
		parts = append(parts, "--population "+s.Population)
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
	for _, a := range slices.Sorted(maps.Keys(s.Hierarchies)) {
		parts = append(parts, "--hierarchy "+a+"="+s.Hierarchies[a])
	}
	for _, name := range slices.Sorted(maps.Keys(s.Params)) {
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
