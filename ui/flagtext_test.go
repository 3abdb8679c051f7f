package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commandLineFiles are the files of the command line, the only ones whose
// string literals may spell a flag (paths from the module root): moving
// the command line to its own package edits this list only.
var commandLineFiles = map[string]bool{
	"main.go":                       true,
	"algorithms/pipeline/flags.go":  true,
	"algorithms/pipeline/clifix.go": true, // fixes said as flags
	"algorithms/tour/print.go":      true, // privlab tour NAME --steps
}

// frozenReleaseText are sentences a release states that check holds word
// for word to what the method declares or what it recomputes (the
// manifest's certification, its verification lines): rewording one makes
// every release written before fail its check ("declaration", "claim
// checks"), so they keep their flags until a new release version rewords
// them.
var frozenReleaseText = map[string][]string{
	"algorithms/kja/kja.go": { // kja's Certifies
		"(a public row joins the microdata on the identifier, --id; one no identifier joins that equals a microdata tuple on every QI is counted as that person, ",
		"so without --id a person whose QI values differ between the tables could count twice), ",
		"with --original and --public (it exits 3 without them); every sensitive group holds at least k microdata tuples (Section 3.2: under Direct, ",
	},
	"algorithms/kja/check/check.go": { // the k-join-anonymity line of a KJA variant's release
		"and the breach probability at most 1/%d (Theorem 2), once the public rows are recounted against JT (--original and --public)",
	},
	"algorithms/sampling/check/check.go": { // the minimum generalization line of every sampling release
		"every published value has at least the rule's levels of taxonomy below it (%d values do not); the record's own value is measured with --original and the audit record",
	},
}

// flagSyntax is "--" followed by a flag's name (or "--" at the end of a
// literal, which a flag's name is appended to).
var flagSyntax = regexp.MustCompile(`(^|[^-])--([a-z][a-z0-9-]*|$)`)

// TestNoFlagOutsideTheCommandLine: a hint, note or text outside the
// command line never spells a command-line flag: errors carry a
// structured fix (model.Fix) that each front end renders in its own
// words, so rewording the command line cannot change what the workbench
// says, or the other way round (issue 23, item 1).
func TestNoFlagOutsideTheCommandLine(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		if commandLineFiles[rel] {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if m := flagSyntax.FindStringSubmatch(s); m != nil && !slices.Contains(frozenReleaseText[rel], s) {
				t.Errorf("%s: a string literal spells the flag --%s: %q", fset.Position(lit.Pos()), m[2], s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
