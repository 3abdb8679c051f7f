package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
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
			if m := flagSyntax.FindStringSubmatch(s); m != nil {
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
