package distribution

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"privlab/model"
)

// Details is the method-specific part of manifest.json.
type Details struct {
	Grouping       string    `json:"grouping"`
	Target         string    `json:"target"`
	MaxDenominator int       `json:"max_denominator"`
	PerGroupTarget bool      `json:"per_group_target"`
	Domain         []string  `json:"domain"`
	Effective      []float64 `json:"effective_target,omitempty"`
	TargetEMD      float64   `json:"effective_vs_requested_emd"`
	TargetMaxAbs   float64   `json:"effective_vs_requested_max_abs"`
	Subdomains     int       `json:"sa_rows"`
	FakeValues     int       `json:"fake_values"`
	SumOfRanges    float64   `json:"sum_of_ranges"`
	FigureSummary  []Summary `json:"group_figures"`
}

// Summary is min / mean / max of one per-group figure over the groups.
type Summary struct {
	Figure string  `json:"figure"`
	Min    float64 `json:"min"`
	Mean   float64 `json:"mean"`
	Max    float64 `json:"max"`
}

// release builds the publishable files (Koudas et al. 2009, Section 2,
// footnote 1: a QI table and an SA table joined by the group id). Rows of
// both tables are shuffled independently with the seed, so row positions
// link neither table to the other nor to the input.
func (r *run) release(seed uint64, values model.Values, target Target) (*model.Release, map[string][]int, error) {
	rng := model.NewRand(seed)
	t := r.in.Table
	qis := r.in.Roles.QIs
	for _, q := range qis {
		if q == "GroupID" {
			return nil, nil, &model.ParamError{Param: "qi", Value: q, Reason: "a quasi-identifier may not be called GroupID (the release uses that name)"}
		}
	}
	qiCols := make([]*model.Column, len(qis))
	for i, q := range qis {
		qiCols[i] = t.Column(q)
	}
	// qi.csv: every member row with its group id, shuffled.
	type qiRow struct {
		row   int32
		group int32
	}
	var qrows []qiRow
	for gi, g := range r.groups {
		for _, row := range g.rows {
			qrows = append(qrows, qiRow{row, int32(gi)})
		}
	}
	rng.Shuffle(len(qrows), func(i, j int) { qrows[i], qrows[j] = qrows[j], qrows[i] })
	rowMap := make([]int, len(qrows))
	for i, q := range qrows {
		rowMap[i] = int(q.row)
	}
	qiFile := model.ReleaseFile{Name: "qi.csv", Header: append([]string{"GroupID"}, qis...), Rows: len(qrows),
		Fill: func(i int, rec []string) {
			q := qrows[i]
			rec[0] = strconv.Itoa(int(q.group) + 1)
			for c, col := range qiCols {
				rec[c+1] = col.Value(int(q.row))
			}
		}}
	// sa.csv: every generalized subdomain (fakes included), shuffled.
	type saRow struct {
		group int32
		node  int32
	}
	var srows []saRow
	for gi, g := range r.groups {
		for _, c := range g.gen.Copies {
			for k := int32(0); k < c.Count; k++ {
				srows = append(srows, saRow{int32(gi), c.Node})
			}
		}
	}
	rng.Shuffle(len(srows), func(i, j int) { srows[i], srows[j] = srows[j], srows[i] })
	h := r.h
	bounds := make([][2]string, len(h.Nodes))
	for n := range h.Nodes {
		lo, hi := h.Bounds(n)
		bounds[n] = [2]string{lo, hi}
	}
	saFile := model.ReleaseFile{Name: "sa.csv", Header: []string{"GroupID", "Low", "High"}, Rows: len(srows),
		Fill: func(i int, rec []string) {
			s := srows[i]
			rec[0] = strconv.Itoa(int(s.group) + 1)
			rec[1], rec[2] = bounds[s.node][0], bounds[s.node][1]
		}}
	// hierarchy.csv: the privacy-annotated hierarchy needed to read sa.csv.
	weights := r.global
	if weights == nil && len(r.groups) > 0 {
		weights = r.groups[0].ann
	}
	// Nodes are written depth first with children in domain order and
	// numbered in that order, so the file reads as the tree it is.
	order := make([]int, 0, len(h.Nodes))
	var walk func(n int)
	walk = func(n int) {
		order = append(order, n)
		for _, c := range h.Nodes[n].Children {
			walk(c)
		}
	}
	walk(0)
	nodeID := make([]int, len(h.Nodes))
	for i, n := range order {
		nodeID[n] = i
	}
	hierFile := model.ReleaseFile{Name: "hierarchy.csv", Header: []string{"NodeID", "ParentID", "Low", "High", "Weight"}, Rows: len(order),
		Fill: func(i int, rec []string) {
			n := order[i]
			rec[0] = strconv.Itoa(i)
			rec[1] = ""
			if p := h.Nodes[n].Parent; p >= 0 {
				rec[1] = strconv.Itoa(nodeID[p])
			}
			rec[2], rec[3] = bounds[n][0], bounds[n][1]
			rec[4] = strconv.FormatInt(weights.Weight[n], 10)
		}}
	files := []model.ReleaseFile{qiFile, saFile, hierFile}
	if r.perGroup {
		edges := len(h.Nodes)
		files = append(files, model.ReleaseFile{Name: "group_weights.csv", Header: []string{"GroupID", "NodeID", "Weight"},
			Rows: len(r.groups) * edges,
			Fill: func(i int, rec []string) {
				g, n := i/edges, order[i%edges]
				rec[0] = strconv.Itoa(g + 1)
				rec[1] = strconv.Itoa(nodeID[n])
				rec[2] = strconv.FormatInt(r.groups[g].ann.Weight[n], 10)
			}})
	}

	res := r.res
	// A custom target's file path is private: the effective target below
	// says all a reader needs.
	targetName := target.String()
	if target.Kind == TargetCustom {
		targetName = "custom"
	}
	det := Details{Grouping: r.grouping.String(), Target: targetName, MaxDenominator: values.Int("max-denominator"),
		PerGroupTarget: r.perGroup, Subdomains: len(srows)}
	for _, l := range h.Leaves {
		det.Domain = append(det.Domain, h.Nodes[l].Label)
	}
	if r.global != nil {
		// Only the effective target is published (it is needed to read
		// sa.csv); the requested one may be the table's exact histogram.
		det.Effective = roundAll(r.global.Effective)
		det.TargetEMD, det.TargetMaxAbs = r.global.EMD(), r.global.MaxAbs()
	}
	for _, g := range r.groups {
		det.FakeValues += g.gen.NumFakes
		det.SumOfRanges += g.gen.SumOfRanges
	}
	for fi, f := range res.Spec.Figures {
		if f.Key == "dist" {
			continue // a group's distance to the target describes its private original distribution
		}
		s := Summary{Figure: f.Label, Min: math.Inf(1), Max: math.Inf(-1)}
		for _, g := range res.Groups {
			x := g.Figures[fi]
			s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
			s.Mean += x / float64(len(res.Groups))
		}
		det.FigureSummary = append(det.FigureSummary, s)
	}
	params := values.Clone()
	delete(params, "seed") // the seed is private (audit record)
	params["target"] = targetName
	var worst []model.Figure
	for _, f := range res.Summary {
		if f.Limit != "" {
			worst = append(worst, f)
		}
	}
	man := model.Manifest{
		Method: Name, Paper: res.Spec.Paper, Parameters: params,
		QIs: qis, SA: r.in.Roles.SA, Dropped: droppedColumns(t, r.in.Roles),
		RowsIn: r.in.Table.Rows, Published: len(qrows), Groups: len(r.groups),
		WorstCases: worst,
		Utility: []model.Figure{
			{Name: "sum of ranges", Value: det.SumOfRanges, OK: true},
			{Name: "avg range per subdomain", Value: det.SumOfRanges / math.Max(1, float64(len(srows))), OK: true},
		},
		Details: det,
		Notes: []string{
			"qi.csv holds the quasi-identifiers unchanged; sa.csv holds each group's generalized sensitive subdomains (fake values included and indistinguishable), shuffled; join them on GroupID.",
			"A tuple's sensitive value follows the effective target: P(v | subdomain) is given by the Weight column of hierarchy.csv (children's weights are in the ratio of their probability mass).",
		},
	}
	if r.perGroup {
		man.Notes = append(man.Notes, "each group has its own target: read weights from group_weights.csv (GroupID, NodeID, Weight) instead of hierarchy.csv's Weight column")
	}
	rel := &model.Release{Files: files, Manifest: man, Report: report}
	return rel, map[string][]int{"qi.csv": rowMap}, nil
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(x*1e9) / 1e9
	}
	return out
}

func droppedColumns(t *model.Table, roles model.Roles) []string {
	out := []string{}
	for _, c := range t.Columns {
		if role := roles.Of(c.Name); role == model.Identifier || role == model.Insensitive {
			out = append(out, c.Name)
		}
	}
	return out
}

// report renders report.md: what a privacy officer files with the release.
func report(m *model.Manifest) string {
	var b strings.Builder
	d, _ := m.Details.(Details)
	fmt.Fprintf(&b, "# privlab release: distribution-based anonymization\n\n")
	fmt.Fprintf(&b, "Method: Koudas, Srivastava, Yu, Zhang 2009 (sensitive-attribute generalization and permutation")
	if d.FakeValues > 0 {
		fmt.Fprintf(&b, " with fake values")
	}
	fmt.Fprintf(&b, ").\n\n")
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| quasi-identifiers (published unchanged) | %s |\n", strings.Join(m.QIs, ", "))
	fmt.Fprintf(&b, "| sensitive attribute (generalized) | %s |\n", m.SA)
	fmt.Fprintf(&b, "| dropped columns | %s |\n", strings.Join(m.Dropped, ", "))
	fmt.Fprintf(&b, "| rows in / published | %d / %d |\n", m.RowsIn, m.Published)
	fmt.Fprintf(&b, "| groups | %d (grouping %s) |\n", m.Groups, d.Grouping)
	fmt.Fprintf(&b, "| target | %s (max denominator %d) |\n", d.Target, d.MaxDenominator)
	if !d.PerGroupTarget {
		fmt.Fprintf(&b, "| effective vs requested target | EMD %.4f, max abs diff %.4f |\n", d.TargetEMD, d.TargetMaxAbs)
	}
	fmt.Fprintf(&b, "| fake values | %d |\n", d.FakeValues)
	fmt.Fprintf(&b, "| sum of ranges | %s |\n", model.FormatNumber(d.SumOfRanges))
	fmt.Fprintf(&b, "\n## Privacy\n\nEvery tuple's sensitive value appears to follow the effective target distribution: for every group, the average over its published subdomains of P'(v | subdomain) equals P'(v) for every value v (Definition 3.2).\n\n")
	if m.Verified {
		b.WriteString("Independent verification from the published files: **passed**.\n\n")
	} else if len(m.Checks) > 0 {
		b.WriteString("Independent verification from the published files: **FAILED**.\n\n")
	}
	for _, c := range m.Checks {
		fmt.Fprintf(&b, "- %s\n", c)
	}
	if m.AcceptedBad {
		b.WriteString("\n**The user accepted a release that fails its privacy requirement.**\n")
	}
	b.WriteString("\n## Files\n\n")
	for _, f := range m.Files {
		fmt.Fprintf(&b, "- `%s`: %d rows, sha256 %s\n", f.Name, f.Rows, f.SHA256)
	}
	return b.String()
}
