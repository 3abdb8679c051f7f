package cli

import (
	"fmt"
	"io"
	"strings"

	"privlab/algorithms/catalog"
)

// usage writes privlab help: every command's usage (the command table's),
// the common flags, the query language, the exit codes and each method's
// declaration.
func usage(w io.Writer) {
	fmt.Fprint(w, `privlab — a terminal workbench for microdata anonymization

usage:
`)
	for _, c := range commands() {
		fmt.Fprint(w, c.usage)
	}
	fmt.Fprint(w, `
common flags:
  --in FILE|dataset:NAME  --qi a,b,c  --sa s  --id x,y  --method M  --variant V  --public FILE|dataset:NAME
  (FILE, for --in, --public, --original and inspect: CSV text, FILE.xlsx[:SHEET], FILE.parquet, FILE.db:TABLE)
  --hierarchy ATTR=FILE|flat|masking|binary|ternary|intervals:W (repeatable)
  `+standardFlags()+` N, and each method's own parameters (below)
  --missing drop|category  --kind COL=numeric|categorical  --columns a,b,c (header-less CSV)  --max-cell BYTES
  --missing-values "?," (cells read as missing; default "",?,NA,NULL; an empty item is the empty cell)
  --header yes|no (default: a first row that looks like data is read as data, and said)
  --rows N --data-seed N --public-rows N (synthetic datasets)  --config project.json  --out DIR  --force
  --accept-violations  --allow-growth (a release file over 10x the input's rows)
  --risk-threshold P (a record in a class of risk 1/|class| above P is at risk; default 0.2)
  eval: --queries N --range F --selectivity S --qd N --csv FILE --sweep PARAM=V1,V2,...|PARAM=A..B[:STEP] --compare
        --release DIR --original FILE

queries:  COUNT(*) | SUM(sa) | AVG(sa) | MIN(sa) | MAX(sa) [WHERE pred {AND pred}]
          pred: col = v | != | < | <= | > | >= | col BETWEEN a AND b | col IN (v1, v2)

exit codes: 0 ok, 1 privacy requirement not met / check failed, 2 usage or input error,
            3 (check) no check failed, but a privacy guarantee could not be confirmed from the
            inputs given; pass the named file, 130 interrupted (ctrl+c)
`)
	methodHelp(w)
}

// standardFlags lists the flags of the standard parameters (SPEC 2.5),
// ending with --seed, for the usage text.
func standardFlags() string {
	var names []string
	for _, n := range catalog.CommonParams() {
		names = append(names, "--"+n)
	}
	return strings.Join(append(names, "--seed"), " ")
}

// methodHelp writes each registered method's declaration for the usage
// text: variants, parameters, figures and files.
func methodHelp(w io.Writer) {
	for _, m := range catalog.All() {
		s := m.Spec()
		fmt.Fprintf(w, "\nmethod %s — %s\n  %s\n", s.Name, s.Title, s.Paper)
		if len(s.Variants) > 0 {
			fmt.Fprintf(w, "  variants: %s (default %s)\n", strings.Join(s.Variants, ", "), s.Variants[0])
		}
		for _, p := range s.Params {
			rng := p.RangeText(0)
			if rng != "" {
				rng = "; " + rng
			}
			fmt.Fprintf(w, "  --%-16s %s (default %s%s)\n", p.Name, p.Help, p.Default, rng)
		}
		fmt.Fprintf(w, "  per-group figures: ")
		var figs []string
		for _, f := range s.Figures {
			figs = append(figs, f.Label)
		}
		fmt.Fprintf(w, "%s\n  publishes: %s\n", strings.Join(figs, ", "), strings.Join(s.Files, ", "))
	}
}
