// Package figure defines the figures privlab reports under one name, one
// scale and one definition each: every method, checker and screen that
// shows a figure takes its label and help from here (issue 35.7).
package figure

import (
	"privlab/model/releasedir"
)

// Def is one figure's name, short name and definition, the same in the
// workbench's panes, the command line, report.md and manifest.json.
type Def struct {
	// Name is the figure's label; it names the scale when the figure has
	// more than one in the literature.
	Name string
	// Short labels it where space is tight (the summary bar).
	Short string
	// Help defines it in one line, with its normalisation.
	Help string
}

// The normalized certainty penalty has two forms in the papers: Xu et al.
// 2006 (Section 3) define it per cell as the share of the attribute's
// domain the generalized value covers, and report its mean (0 exact, 1
// every value fully generalized); Sacharidis et al. (kja, Sections 2.1
// and 3.3) sum each microdata tuple's normalised box perimeter over the
// tuples, a figure that grows with the table and the number of QIs. NCP
// is the first everywhere; the second is NCP (sum), shown beside it where
// the kja paper's tables use it.
var (
	NCP = Def{Name: "NCP (mean, 0-1)", Short: "NCP",
		Help: "normalized certainty penalty (Xu et al. 2006): the share of each quasi-identifier's domain a published value covers, averaged over quasi-identifiers and records (0 exact, 1 fully generalized)"}
	NCPSum = Def{Name: "NCP (sum)", Short: "NCP sum",
		Help: "the kja paper's NCP (Sacharidis et al., Section 2.1): each microdata tuple's box perimeter, each side over its domain's extent, summed over the tuples; NCP (mean, 0-1) times records times quasi-identifiers"}
)

// Figures lists the defined figures (a glossary reads them in order).
var All = []Def{NCP, NCPSum}

// Figure is the figure of value v under this definition (OK: a figure
// with no limit holds).
func (d Def) Figure(v float64) releasedir.Figure {
	return releasedir.Figure{Name: d.Name, Short: d.Short, Value: v, OK: true, Help: d.Help}
}
