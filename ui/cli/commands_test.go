package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// everyFlag is every flag of the command line.
func everyFlag() []string {
	fs := flag.NewFlagSet("all", flag.ContinueOnError)
	defineFlags(fs, &Args{})
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// A flag a command does not read is a usage error (exit 2) naming the
// flag and the command, with or without a value, before the command
// does anything (no workbench opens, nothing is written).
func TestCommandRefusesFlagsItDoesNotRead(t *testing.T) {
	refused := 0
	for _, c := range commands() {
		if c.name == "help" || c.name == "version" {
			continue
		}
		reads := c.reads()
		for _, n := range everyFlag() {
			if slices.Contains(reads, n) {
				continue
			}
			want := "privlab: parameter --" + n + ": privlab " + c.name + " does not read this flag (hint: privlab " + c.name + " --help lists its flags)\n"
			if c.name == "" {
				want = "privlab: parameter --" + n + ": the workbench (privlab [FILE | DIR | project.json]) does not read this flag (hint: privlab help lists its flags)\n"
			}
			for _, form := range [][]string{{"--" + n + "=1"}, {"-" + n}} {
				args := form
				if c.name != "" {
					args = append([]string{c.name}, form...)
				}
				var out, errOut bytes.Buffer
				code := execute(args, &out, &errOut)
				if code != exitUsage || errOut.String() != want || out.Len() != 0 {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, %q", args, code, out.String(), errOut.String(), want)
				}
				refused++
			}
		}
	}
	// datasets reads no flag, inspect no output flag: the cases.
	if refused < 200 {
		t.Fatalf("only %d refusals tried", refused)
	}
}

// acceptedValue is a value each flag parses (the command may refuse it
// later, when it runs).
func acceptedValue(t *testing.T, name string) string {
	switch name {
	case "config":
		path := filepath.Join(t.TempDir(), "project.json")
		if err := os.WriteFile(path, []byte(`{"input": "dataset:census"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	case "hierarchy":
		return "age=flat"
	case "kind":
		return "age=numeric"
	case "header":
		return "yes"
	}
	return "1"
}

// Every flag a command reads is accepted by it.
func TestCommandAcceptsEveryFlagItReads(t *testing.T) {
	for _, c := range commands() {
		if c.run == nil && c.name != "" {
			continue // tour, help, version read their own arguments
		}
		name := c.name
		if name == "" {
			name = workbenchName
		}
		for _, n := range c.reads() {
			a, err := parseArgs(name, []string{"--" + n + "=" + acceptedValue(t, n)})
			if err != nil {
				t.Errorf("privlab %s --%s: %v", c.name, n, err)
				continue
			}
			if !a.flagsSet[n] {
				t.Errorf("privlab %s --%s: not recorded as given", c.name, n)
			}
		}
	}
	// The flags each command reads today (a flag lost from the table
	// would fail its command's scenarios; one too many is listed here).
	want := map[string][]string{
		"gen":      {"rows", "seed", "out", "hierarchies", "ratio", "shards", "force", "help", "h"},
		"datasets": {"help", "h"},
		"tour":     {"steps", "help", "h"},
		"inspect":  {"config", "seed", "columns", "kind", "missing-values", "header", "max-cell", "delimiter", "rows", "data-seed", "help", "h"},
	}
	for name, flags := range want {
		c, _ := lookupCommand(name)
		if got := c.reads(); !slices.Equal(got, flags) {
			t.Errorf("privlab %s reads %v, want %v", name, got, flags)
		}
	}
	for name, flags := range map[string][]string{
		"check":  {"original", "public", "public-rows", "id", "population", "population-columns", marginalsFlag, "max-cell", "rows", "data-seed"},
		"attack": {"original", "public", "population", "population-columns", marginalsFlag, "json", "columns", "max-cell"},
		"run":    {"in", "qi", "population", "queries", "force", "accept-violations", "allow-growth", "config", "out", "risk-threshold", "seed"},
		"query":  {"in", "release", "original", "config", "seed"},
		"eval":   {"in", "release", "original", "queries", "range", "selectivity", "qd", "csv", "sweep", "compare", "force", "risk-threshold"},
		"":       {"in", "config", "release", "original", "population", "risk-threshold", "rows"},
	} {
		c, _ := lookupCommand(name)
		for _, f := range flags {
			if !slices.Contains(c.reads(), f) {
				t.Errorf("privlab %s does not read --%s", name, f)
			}
		}
	}
}

// privlab CMD --help prints that command's usage and each flag it
// reads, and nothing of the other commands.
func TestCommandHelpIsTheCommandsOwn(t *testing.T) {
	for _, c := range commands() {
		if c.name == "" || c.usage == "" {
			continue
		}
		var out, errOut bytes.Buffer
		if code := execute([]string{c.name, "--help"}, &out, &errOut); code != exitOK || errOut.Len() != 0 {
			t.Fatalf("privlab %s --help: exit %d, stderr %q", c.name, code, errOut.String())
		}
		text := out.String()
		first := strings.TrimSpace(strings.SplitN(c.usage, "\n", 2)[0])
		if !strings.HasPrefix(text, "usage: "+first+"\n") {
			t.Errorf("privlab %s --help begins %q, want %q", c.name, strings.SplitN(text, "\n", 2)[0], "usage: "+first)
		}
		for _, n := range c.reads() {
			if n != "h" && !strings.Contains(text, "\n  --"+n+" ") {
				t.Errorf("privlab %s --help does not name --%s:\n%s", c.name, n, text)
			}
		}
		for _, o := range commands() {
			if o.name == c.name || o.usage == "" {
				continue
			}
			if l := strings.TrimSpace(strings.SplitN(o.usage, "\n", 2)[0]); strings.Contains(text, l) {
				t.Errorf("privlab %s --help shows privlab %s's usage %q", c.name, o.name, l)
			}
		}
		if strings.Contains(text, "exit codes:") || strings.Contains(text, "\nmethod ") {
			t.Errorf("privlab %s --help prints the whole usage:\n%s", c.name, text)
		}
	}
}

// main tunes the collector of exactly the commands that run once.
func TestIsBatch(t *testing.T) {
	var batch []string
	for _, name := range []string{"", "privlab", "run", "check", "attack", "query", "eval", "advise", "gen", "datasets", "tour", "inspect", "help", "version", "data.csv", "nosuch"} {
		if IsBatch(name) {
			batch = append(batch, name)
		}
	}
	if got, want := strings.Join(batch, ","), "run,check,attack,query,eval,advise,gen,inspect"; got != want {
		t.Fatalf("batch commands %s, want %s", got, want)
	}
	if got, want := commandNames(), "run, check, attack, query, eval, advise, gen, datasets, tour, inspect"; got != want {
		t.Fatalf("commands %q, want %q", got, want)
	}
}
