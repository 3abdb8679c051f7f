// Command funcsize lists the functions of the repository's non-test Go
// files that are longer than a limit, from the func keyword to the closing
// brace, as CI's "function size" step does (issue 33: long functions hide
// steps that deserve a name). It exits 1 when it lists any.
//
// usage: go run ./.ci/funcsize [-max LINES] [DIR...]
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	limit := flag.Int("max", 100, "longest function allowed, in lines")
	flag.Parse()
	roots := flag.Args()
	if len(roots) == 0 {
		roots = []string{"."}
	}
	found := 0
	for _, root := range roots {
		n, err := walk(os.Stdout, root, *limit)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funcsize:", err)
			os.Exit(2)
		}
		found += n
	}
	if found > 0 {
		os.Exit(1)
	}
}

// walk prints to w each function over limit lines in the non-test Go files
// under root (directories named with a leading dot or underscore and
// testdata skipped, as the go tool skips them) and returns how many.
func walk(w io.Writer, root string, limit int) (int, error) {
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			if lines := end.Line - start.Line + 1; lines > limit {
				fmt.Fprintf(w, "%s:%d %s: %d lines (limit %d)\n", path, start.Line, funcName(fd), lines, limit)
				found++
			}
		}
		return nil
	})
	return found, err
}

// funcName is fd's name as gocyclo prints it: (*T).M, (T).M or F.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + star + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}
