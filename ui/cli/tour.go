package cli

import (
	"fmt"
	"io"
	"strings"

	"privlab/algorithms/tour"
	"privlab/model"
	"privlab/ui"
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
			fmt.Fprintln(w, "usage: privlab tour                 list the tours\n       privlab tour NAME            open the workbench on a tour\n       privlab tour NAME --steps    print its steps")
			return exitOK
		case strings.HasPrefix(a, "-"):
			return fail(ew, &model.ParamError{Param: "tour", Value: a, Reason: "unknown flag", Hint: "privlab tour [NAME [--steps]]"})
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
			fmt.Fprintf(ew, "privlab: %v\n", err)
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
	tour.Print(w, t, list)
	return exitOK
}

// printTours writes the tours, one a line.
func printTours(w io.Writer) {
	fmt.Fprintf(w, "%-13s %-6s %s\n", "tour", "steps", "what it shows")
	for _, t := range tour.All() {
		fmt.Fprintf(w, "%-13s %-6d %s (%s)\n", t.Name, len(t.Tour.Steps), t.Title, t.Paper)
	}
	fmt.Fprintln(w, "\nprivlab tour NAME opens the workbench on the tour; privlab tour NAME --steps prints its steps.")
}
