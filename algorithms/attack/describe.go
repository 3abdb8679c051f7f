package attack

import (
	"fmt"
	"strings"

	"privlab/algorithms/risk"
)

// regionLabel describes a region by its published cells ("age 30-34 |
// sex Male"; a region with several cells on a QI lists them in braces).
func regionLabel(v *risk.View, e *risk.Exposure, r int) string {
	labels := e.Labels(v)
	parts := make([]string, len(v.QIs))
	for i, q := range v.QIs {
		cells := e.RegionCells(v, r, i)
		texts := make([]string, 0, len(cells))
		for _, c := range cells {
			if int(c) < len(labels[i]) {
				texts = append(texts, labels[i][c])
			}
		}
		s := strings.Join(clip(texts, 4), ", ")
		if len(cells) != 1 {
			s = "{" + s + "}"
		}
		parts[i] = q + " " + s
	}
	return strings.Join(parts, " | ")
}

// personLabel describes a person by the quasi-identifiers the attacker
// holds of them (never their sensitive value).
func personLabel(p *placed, row int) string {
	parts := make([]string, len(p.cols))
	for i, c := range p.cols {
		s := c.Value(row)
		if c.IsMissing(row) {
			s = "?"
		}
		parts[i] = c.Name + " " + s
	}
	of := "the " + p.what
	if p.rowsOf != "" {
		of = p.rowsOf
	}
	return fmt.Sprintf("row %d of %s (%s)", row+1, of, strings.Join(parts, ", "))
}

func clip(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("… %d in all", len(s)))
}

// people writes a count of people.
func people(n int) string {
	if n == 1 {
		return "1 person"
	}
	return fmt.Sprintf("%d people", n)
}

// records writes a count of records.
func records(n int) string {
	if n == 1 {
		return "1 record"
	}
	return fmt.Sprintf("%d records", n)
}

// plural writes a unit's plural ("box" -> "boxes").
func plural(unit string) string {
	if strings.HasSuffix(unit, "s") || strings.HasSuffix(unit, "x") {
		return unit + "es"
	}
	return unit + "s"
}
